"""games/classic/connect_four.gdl against OpenSpiel's connect_four (its defaults: columns 7,
rows 6, x_in_row 4).

OpenSpiel writes a drop `x3` (columns from 0), gdl `drop 4` (columns from 1). Meaning: the
column counted from 1.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

CONNECT_FOUR = Pairing("connect_four.gdl", "connect_four",
                       {"columns": 7, "rows": 6, "x_in_row": 4},
                       gdl_meaning=lambda text: text.removeprefix("drop "),
                       spiel_meaning=lambda text: str(int(text[1:]) + 1))


def test_connect_four_agrees_with_openspiel() -> None:
    assert check(CONNECT_FOUR, games_in_suite(CONNECT_FOUR)) > 0
