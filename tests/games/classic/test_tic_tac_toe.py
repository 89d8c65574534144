"""games/classic/tic_tac_toe.gdl against OpenSpiel's tic_tac_toe (no parameters).

OpenSpiel writes a move `x(r,c)`, row r counted from the top; gdl `mark CELL`, row 1 at the
bottom. Meaning: the gdl cell; OpenSpiel's row r is gdl's row 3 - r (the board turned upside
down, which changes no line).
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite


def spiel_cell(text: str) -> str:
    row, column = map(int, re.fullmatch(r"[xo]\((\d),(\d)\)", text).groups())
    return "abc"[column] + str(3 - row)


TIC_TAC_TOE = Pairing("tic_tac_toe.gdl", "tic_tac_toe",
                      gdl_meaning=lambda text: text.removeprefix("mark "),
                      spiel_meaning=spiel_cell)


def test_tic_tac_toe_agrees_with_openspiel() -> None:
    assert check(TIC_TAC_TOE, games_in_suite(TIC_TAC_TOE)) > 0
