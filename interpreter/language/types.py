"""Static types of gdl values and how each is written as text.

A type is a string ('int', 'bool', 'str', 'symbol', 'cell', 'piece', 'seat', 'kind',
'none', 'any') or ('list', element type). At run time cells, pieces and seats are small
integers; the static type says how to print them.
"""

from __future__ import annotations

INT, BOOL, STR, SYMBOL, CELL, PIECE, SEAT, KIND, NONE, ANY = (
    "int", "bool", "str", "symbol", "cell", "piece", "seat", "kind", "none", "any")


def list_of(element):
    return ("list", element)


def is_list(t):
    return isinstance(t, tuple)


def element(t):
    return t[1] if is_list(t) else ANY


def describe(t):
    if is_list(t):
        return f"list of {describe(t[1])}"
    return {INT: "a number", BOOL: "true/false", STR: "text", SYMBOL: "a symbol",
            CELL: "a cell", PIECE: "a piece", SEAT: "a seat", KIND: "a piece kind",
            NONE: "none", ANY: "anything"}[t]


def compatible(expected, actual):
    """Can a value of type `actual` be used where `expected` is wanted?"""
    if expected == ANY or actual == ANY:
        return True
    if actual == NONE:
        return expected in (CELL, PIECE, SEAT, SYMBOL, KIND, NONE) or is_list(expected)
    if is_list(expected) and is_list(actual):
        return compatible(expected[1], actual[1])
    return expected == actual


def join(a, b):
    """The type of a value that may be of type `a` or `b` (None when they cannot mix)."""
    if a == ANY or b == ANY:
        other = b if a == ANY else a
        return ANY if other == NONE else other
    if b == NONE:
        return a
    if a == NONE:
        return b
    if is_list(a) and is_list(b):
        inner = join(a[1], b[1])
        return None if inner is None else list_of(inner)
    return a if a == b else None


def format_value(value, t, names):
    """Text of a run-time value of static type `t`; `names` resolves cells, pieces, seats."""
    if value is None:
        return "none"
    if is_list(t):
        return "[" + ", ".join(format_value(v, t[1], names) for v in value) + "]"
    if t == CELL:
        return names.cell_name(value)
    if t == PIECE:
        return names.piece_name(value)
    if t == SEAT:
        return names.seat_name(value)
    if t == BOOL:
        return "true" if value else "false"
    return str(value)
