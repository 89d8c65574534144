"""games/classic/pig.gdl against OpenSpiel's pig (its defaults: players 2, diceoutcomes 6,
winscore 100, horizon 1000, piglet false).

Both write the decisions `roll` and `stop`. OpenSpiel's chance outcome k (the die shows
k + 1) is forced into gdl's next d6.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

PIG = Pairing("pig.gdl", "pig",
              {"players": 2, "diceoutcomes": 6, "winscore": 100, "horizon": 1000,
               "piglet": False},
              chance_die=lambda spiel_state, outcome: (6, outcome + 1))


def test_pig_agrees_with_openspiel() -> None:
    assert check(PIG, games_in_suite(PIG)) > 0
