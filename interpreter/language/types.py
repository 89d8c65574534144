"""Static types of gdl values and how each is written as text.

A type is a string ('int', 'bool', 'str', 'symbol', 'cell', 'piece', 'seat', 'kind',
'dir', 'placement', 'none', 'any') or ('list', element type). At run time cells, pieces,
seats and directions are small integers and a placement of dice is its text (`A 2+5 B 3`, a string that survives a save unchanged); the static type says how to print them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeAlias, Union

Type: TypeAlias = Union[str, tuple[str, "Type"]]
"""A static type: one of the scalar names below, or `("list", element type)`."""

INT, BOOL, STR, SYMBOL, CELL, PIECE, SEAT, KIND, NONE, ANY = (
    "int", "bool", "str", "symbol", "cell", "piece", "seat", "kind", "none", "any")
DIR, PLACEMENT, ZONE = "dir", "placement", "zone"
SCALARS = (INT, BOOL, STR, SYMBOL, CELL, PIECE, SEAT, KIND, NONE, ANY, DIR, PLACEMENT, ZONE)


def list_of(element: Type) -> Type:
    return ("list", element)


def is_list(t: Type) -> bool:
    return isinstance(t, tuple)


def element(t: Type) -> Type:
    return t[1] if isinstance(t, tuple) else ANY


def holds_texts(t: Type) -> bool:
    """Is `t` a list of texts, or of lists of them (whose characters comparing reads)?"""
    while isinstance(t, tuple):
        t = t[1]
    return t == STR


def describe(t: Type) -> str:
    if isinstance(t, tuple):
        return f"list of {describe(t[1])}"
    return {INT: "a number", BOOL: "true/false", STR: "text", SYMBOL: "a symbol",
            CELL: "a cell", PIECE: "a piece", SEAT: "a seat", KIND: "a piece kind",
            NONE: "none", ANY: "anything", DIR: "a direction",
            PLACEMENT: "a placement of dice", ZONE: "a zone"}[t]


def compatible(expected: Type, actual: Type) -> bool:
    """Can a value of type `actual` be used where `expected` is wanted?"""
    if expected == ANY or actual == ANY:
        return True
    if actual == NONE:
        return expected in (CELL, PIECE, SEAT, SYMBOL, KIND, NONE, DIR, PLACEMENT, ZONE) or is_list(
            expected)
    if isinstance(expected, tuple) and isinstance(actual, tuple):
        return compatible(expected[1], actual[1])
    return expected == actual


def join(a: Type, b: Type) -> Type | None:
    """The type of a value that may be of type `a` or `b` (None when they cannot mix)."""
    if a == ANY or b == ANY:
        other = b if a == ANY else a
        return ANY if other == NONE else other
    if b == NONE:
        return a
    if a == NONE:
        return b
    if isinstance(a, tuple) and isinstance(b, tuple):
        inner = join(a[1], b[1])
        return None if inner is None else list_of(inner)
    return a if a == b else None


class Names(Protocol):
    """What `format_value` asks of a game: the names of cells, pieces and seats."""

    board: Any

    def cell_name(self, cell: int) -> str: ...

    def piece_name(self, piece: int) -> str: ...

    def seat_name(self, seat: int) -> str: ...


def format_value(value: Any, t: Type, names: Names) -> str:
    """Text of a run-time value of static type `t`; `names` resolves cells, pieces, seats."""
    if value is None:
        return "none"
    if isinstance(t, tuple):
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
        return str(names.board.direction_names[value])
    return str(value)


NO_DICE = "nothing"      # the text of a placement of no dice


Pairs: TypeAlias = tuple[tuple[str, tuple[int, ...]], ...]


def placement_text(pairs: Iterable[tuple[str, Sequence[int]]]) -> str:
    """`A 2+5 B 3`: each slot that holds dice, in the order given, its dice low
    first joined by '+'; `nothing` when no slot holds any."""
    text = " ".join(f"{slot} {'+'.join(map(str, sorted(dice)))}" for slot, dice in pairs
                    if dice)
    return text or NO_DICE


def placement_pairs(text: str | None) -> Pairs | None:
    """The (slot, dice) pairs of a placement's text; None when it is not one."""
    if text is None:
        return None
    words = text.split()
    if words == [NO_DICE]:
        return ()
    if not words or len(words) % 2:
        return None
    pairs: list[tuple[str, tuple[int, ...]]] = []
    for slot, dice in zip(words[::2], words[1::2]):
        try:
            pairs.append((slot, tuple(sorted(int(d) for d in dice.split("+")))))
        except ValueError:
            return None
    return tuple(pairs)


class TypedPlacement(str):
    """A placement as a player typed it: equal to every placement text with the same dice on
    the same slots, whatever the order of slots and dice (`B 3 A 5+2` is `A 2+5 B 3`)."""

    key: frozenset[tuple[str, tuple[int, ...]]] = frozenset()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str):
            return False
        pairs = placement_pairs(other)
        return pairs is not None and frozenset(
            (slot.lower(), dice) for slot, dice in pairs) == self.key

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__


def parse_placement(words: Sequence[str], slots: Iterable[str]) -> TypedPlacement | None:
    """The placement a player typed (words already split) as a TypedPlacement, or None;
    `slots` are the slot names it may use (matched ignoring case)."""
    pairs = placement_pairs(" ".join(words))
    known = {slot.lower(): slot for slot in slots}
    if pairs is None or any(slot.lower() not in known for slot, _ in pairs):
        return None
    if len({slot.lower() for slot, _ in pairs}) != len(pairs):
        return None
    typed = TypedPlacement(placement_text((known[slot.lower()], dice) for slot, dice in pairs))
    typed.key = frozenset((slot.lower(), dice) for slot, dice in pairs)
    return typed
