"""Holds gdl.lark, the grammar of the rules language; nothing here runs."""
