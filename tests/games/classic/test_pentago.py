"""games/classic/pentago.gdl against OpenSpiel's pentago (no rule parameters).

Both play a turn as one decision: a marble on an empty cell, then a quadrant turned.
OpenSpiel writes it `a1t`: the cell (rows from the top) and a letter for the turn, `s` to
`z` being quadrant * 2 + way, the quadrants top-left, top-right, bottom-right, bottom-left
(0 to 3) and the way 0 anticlockwise, 1 clockwise; gdl writes `place a6 nw_clockwise`, the
turn one argument as in OpenSpiel (rows from the bottom: OpenSpiel's row r is gdl's row
7 - r, so both draw the board alike and clockwise is clockwise on both). Meaning: gdl's
text.
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite

SIZE = 6
QUADRANTS = ("nw", "ne", "se", "sw")      # OpenSpiel's quadrants 0 to 3
WAYS = ("anticlockwise", "clockwise")     # OpenSpiel's directions 0 and 1


def spiel_meaning(text: str) -> str:
    """`a1t` -> `place a6 nw_clockwise`."""
    found = re.fullmatch(r"([a-f])([1-6])([s-z])", text)
    assert found is not None, text
    column, row, turn = found.groups()
    quadrant, way = divmod(ord(turn) - ord("s"), 2)
    return f"place {column}{SIZE + 1 - int(row)} {QUADRANTS[quadrant]}_{WAYS[way]}"


PENTAGO = Pairing("pentago.gdl", "pentago", spiel_meaning=spiel_meaning)


def test_the_meaning_reads_openspiel_moves_as_gdl_writes_them() -> None:
    assert spiel_meaning("a1s") == "place a6 nw_anticlockwise"
    assert spiel_meaning("a1t") == "place a6 nw_clockwise"
    assert spiel_meaning("d1v") == "place d6 ne_clockwise"
    assert spiel_meaning("d4w") == "place d3 se_anticlockwise"
    assert spiel_meaning("f6z") == "place f1 sw_clockwise"


def test_pentago_agrees_with_openspiel() -> None:
    assert check(PENTAGO, games_in_suite(PENTAGO)) > 0
