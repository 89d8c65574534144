"""games/classic/clobber.gdl against OpenSpiel's clobber (its defaults: rows 5, columns 6).

OpenSpiel writes a move `a5b5`, gdl `clobber a5 b5`; both name cells alike (white's `o` on
a1). Meaning: the two cells, `a5b5`.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

CLOBBER = Pairing("clobber.gdl", "clobber", {"rows": 5, "columns": 6},
                  gdl_meaning=lambda text: "".join(text.split()[1:]))


def test_clobber_agrees_with_openspiel() -> None:
    assert check(CLOBBER, games_in_suite(CLOBBER)) > 0
