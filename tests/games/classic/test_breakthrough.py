"""games/classic/breakthrough.gdl against OpenSpiel's breakthrough (its defaults: rows 8,
columns 8).

OpenSpiel writes a move `a7b6` (`a7b6*` for a capture), gdl `move a7 b6`; both name cells
alike (row 1 at white's end). Meaning: the two cells, `a7b6`.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

BREAKTHROUGH = Pairing("breakthrough.gdl", "breakthrough", {"rows": 8, "columns": 8},
                       gdl_meaning=lambda text: "".join(text.split()[1:]),
                       spiel_meaning=lambda text: text.removesuffix("*"))


def test_breakthrough_agrees_with_openspiel() -> None:
    assert check(BREAKTHROUGH, games_in_suite(BREAKTHROUGH)) > 0
