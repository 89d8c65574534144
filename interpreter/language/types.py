"""Static types of gdl values and how each is written as text.

A type is a string ('int', 'bool', 'str', 'symbol', 'cell', 'piece', 'seat', 'kind',
'dir', 'placement', 'none', 'any') or ('list', element type). At run time cells, pieces,
seats and directions are small integers and a placement is a tuple of (slot, dice) pairs; the
static type says how to print them.
"""

from __future__ import annotations

INT, BOOL, STR, SYMBOL, CELL, PIECE, SEAT, KIND, NONE, ANY = (
    "int", "bool", "str", "symbol", "cell", "piece", "seat", "kind", "none", "any")
DIR, PLACEMENT = "dir", "placement"
SCALARS = (INT, BOOL, STR, SYMBOL, CELL, PIECE, SEAT, KIND, NONE, ANY, DIR, PLACEMENT)


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
            NONE: "none", ANY: "anything", DIR: "a direction",
            PLACEMENT: "a placement of dice"}[t]


def compatible(expected, actual):
    """Can a value of type `actual` be used where `expected` is wanted?"""
    if expected == ANY or actual == ANY:
        return True
    if actual == NONE:
        return expected in (CELL, PIECE, SEAT, SYMBOL, KIND, NONE, DIR, PLACEMENT) or is_list(
            expected)
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
    if t == DIR:
        return names.board.direction_names[value]
    if t == PLACEMENT:
        return placement_text(value)
    return str(value)


def placement_text(value):
    """`Move 2+5 Direction 3`: each slot that holds dice, its dice joined by '+'."""
    return " ".join(f"{slot} {'+'.join(map(str, dice))}" for slot, dice in value)


def parse_placement(words, slots):
    """The placement written `Move 2+5 Direction 3` (words already split), in the order
    written, or None; `slots` are the slot names it may use (matched ignoring case)."""
    if not words or len(words) % 2:
        return None
    by_lower = {slot.lower(): slot for slot in slots}
    found = {}
    for slot_word, dice_word in zip(words[::2], words[1::2]):
        slot = by_lower.get(slot_word.lower())
        try:
            dice = tuple(sorted(int(d) for d in dice_word.split("+")))
        except ValueError:
            return None
        if slot is None or slot in found:
            return None
        found[slot] = dice
    return tuple(found.items())
