"""games/classic/quoridor.gdl against OpenSpiel's quoridor (its defaults: board_size 9,
players 2, wall_count 10).

OpenSpiel writes a pawn move as its cell (`e8`) and a wall as its cell and orientation
(`e3h`, `e3v`); gdl writes `move e8` and `wall e3 h`. Both name cells alike (row 1 is
OpenSpiel's top row: the board upside down, no rule changes). Meaning: OpenSpiel's text.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

QUORIDOR = Pairing("quoridor.gdl", "quoridor", {"board_size": 9, "players": 2},
                   gdl_meaning=lambda text: "".join(text.split()[1:]))


def test_quoridor_agrees_with_openspiel() -> None:
    assert check(QUORIDOR, games_in_suite(QUORIDOR)) > 0
