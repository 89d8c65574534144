"""games/classic/oware.gdl against OpenSpiel's oware (its defaults: num_houses_per_player 6,
num_seeds_per_house 4).

OpenSpiel names a move by the house sown: `A` to `F` for its first player (row 1, a1 to f1
in gdl), `a` to `f` for the second, counted along the sowing order (so `a` is f2, `f` is
a2); gdl writes `sow CELL`. Meaning: the gdl cell.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

SOWING_ORDER = ["a1", "b1", "c1", "d1", "e1", "f1", "f2", "e2", "d2", "c2", "b2", "a2"]


def spiel_cell(text: str) -> str:
    if text.isupper():
        return SOWING_ORDER["ABCDEF".index(text)]
    return SOWING_ORDER[6 + "abcdef".index(text)]


OWARE = Pairing("oware.gdl", "oware", {"num_houses_per_player": 6, "num_seeds_per_house": 4},
                gdl_meaning=lambda text: text.removeprefix("sow "),
                spiel_meaning=spiel_cell)


def test_oware_agrees_with_openspiel() -> None:
    assert check(OWARE, games_in_suite(OWARE)) > 0
