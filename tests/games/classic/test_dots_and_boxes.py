"""games/classic/dots_and_boxes.gdl against OpenSpiel's dots_and_boxes (its defaults:
num_rows 2, num_cols 2, utility_margin false).

OpenSpiel writes a line `P1(h,r,c)` (horizontal, from dot (r, c) to dot (r, c + 1); rows
of dots counted from the top) or `P1(v,r,c)` (vertical, from dot (r, c) down to (r + 1,
c)); gdl draws a line on the cell between its two dots of a (2 x 2 + 1)-square grid
(`draw_line d1`). Meaning: that gdl cell, the grid turned upside down (row 2r + 1 for a
horizontal line, 2r + 2 for a vertical one), which changes no box.
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite


def spiel_cell(text: str) -> str:
    orientation, row, column = re.fullmatch(r"P\d\(([hv]),(\d+),(\d+)\)", text).groups()
    if orientation == "h":
        return "abcde"[2 * int(column) + 1] + str(2 * int(row) + 1)
    return "abcde"[2 * int(column)] + str(2 * int(row) + 2)


DOTS_AND_BOXES = Pairing("dots_and_boxes.gdl", "dots_and_boxes",
                         {"num_rows": 2, "num_cols": 2, "utility_margin": False},
                         gdl_meaning=lambda text: text.removeprefix("draw_line "),
                         spiel_meaning=spiel_cell)


def test_dots_and_boxes_agrees_with_openspiel() -> None:
    assert check(DOTS_AND_BOXES, games_in_suite(DOTS_AND_BOXES)) > 0
