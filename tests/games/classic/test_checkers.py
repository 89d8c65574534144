"""games/classic/checkers.gdl against OpenSpiel's checkers (its defaults: rows 8, columns 8).

OpenSpiel writes a step or a jump `a3b4` / `a3c5`, gdl `move a3 b4` / `jump a3 c5`; both
name cells alike (row 1 at white's end, `o`, OpenSpiel's first player). Meaning: the two
cells, `a3b4`; a step and a jump never share one.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

CHECKERS = Pairing("checkers.gdl", "checkers", {"rows": 8, "columns": 8},
                   gdl_meaning=lambda text: "".join(text.split()[1:]))


def test_checkers_agrees_with_openspiel() -> None:
    assert check(CHECKERS, games_in_suite(CHECKERS)) > 0
