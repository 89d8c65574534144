"""games/classic/amazons.gdl against OpenSpiel's amazons (its defaults: board_size 10).

OpenSpiel splits a turn into three decisions, as gdl does: `X From (7, 1)`, `X To (2, 6)`,
`X Shoot: (1, 5)`, a cell as (row from the top, column), both from 1; gdl writes
`select a4`, `move f9`, `shoot e10`, rows from the bottom (OpenSpiel's row r is gdl's row
11 - r, which gives Amazons' usual notation: white on a4, d1, g1, j4). Meaning: gdl's text.
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite

SIZE = 10
WORDS = {"From": "select", "To": "move", "Shoot:": "shoot"}


def spiel_meaning(text: str) -> str:
    """`X From (7, 1)` -> `select a4`."""
    found = re.fullmatch(r"[XO] (From|To|Shoot:) \((\d+), (\d+)\)", text)
    assert found is not None, text
    word, row, column = found.groups()
    return f"{WORDS[word]} {chr(ord('a') + int(column) - 1)}{SIZE + 1 - int(row)}"


AMAZONS = Pairing("amazons.gdl", "amazons", {"board_size": SIZE},
                  spiel_meaning=spiel_meaning)


def test_the_meaning_reads_openspiel_cells_as_gdl_names_them() -> None:
    assert spiel_meaning("X From (7, 1)") == "select a4"
    assert spiel_meaning("O To (1, 4)") == "move d10"
    assert spiel_meaning("X Shoot: (10, 10)") == "shoot j1"


def test_amazons_agrees_with_openspiel() -> None:
    assert check(AMAZONS, games_in_suite(AMAZONS)) > 0
