"""games/classic/hex.gdl against OpenSpiel's hex (its defaults: board_size 11, swap false,
string_rep standard).

Both write a stone as its cell (`a1`: OpenSpiel's column letter and row number from 1 on
the north edge, which black joins to the south edge); gdl's `place a1`. Meaning: the cell.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

HEX = Pairing("hex.gdl", "hex", {"board_size": 11, "swap": False},
              gdl_meaning=lambda text: text.removeprefix("place "))


def test_hex_agrees_with_openspiel() -> None:
    assert check(HEX, games_in_suite(HEX)) > 0
