"""Scenario files: positions from the rulebooks, played and checked.

`runner` reads a scenario file (its format is in `runner`'s docstring) and plays it;
`expect` checks its `expect` lines; `expressions` compiles the rule-language expressions
they hold. No module is imported here.
"""
