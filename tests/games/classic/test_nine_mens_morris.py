"""games/classic/nine_mens_morris.gdl against OpenSpiel's nine_mens_morris (no parameters).

OpenSpiel numbers the 24 points 0 to 23 row by row from the top-left corner of its
drawing, and writes `Point N` (placing, or taking a man) and `Move A -> B`; gdl writes
`place CELL`, `take CELL` and `move FROM TO` on a 7x7 board with holes. Meaning: the cell
(`FROM-TO` for a move); OpenSpiel's drawing rows are gdl's rows 1 to 7 counted from the top
(the board upside down, which changes no line).
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite

POINTS = ("a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7").split()


def spiel_meaning(text: str) -> str:
    move = re.fullmatch(r"Move (\d+) -> (\d+)", text)
    if move:
        return f"{POINTS[int(move[1])]}-{POINTS[int(move[2])]}"
    return POINTS[int(text.removeprefix("Point "))]


def gdl_meaning(text: str) -> str:
    return "-".join(text.split()[1:])


NINE_MENS_MORRIS = Pairing("nine_mens_morris.gdl", "nine_mens_morris",
                           gdl_meaning=gdl_meaning, spiel_meaning=spiel_meaning)


def test_nine_mens_morris_agrees_with_openspiel() -> None:
    assert check(NINE_MENS_MORRIS, games_in_suite(NINE_MENS_MORRIS)) > 0
