"""games/classic/goofspiel.gdl against OpenSpiel's goofspiel (its defaults: players 2,
num_cards 13, points_order random, returns_type win_loss, imp_info false).

OpenSpiel writes a bid `[P0]Bid: 5`, gdl `bid 5`. Meaning: the card. The bids are a
simultaneous node in OpenSpiel; gdl asks seat one, then seat two, each compared as a
decision. OpenSpiel's deal of point card k is forced into gdl's die as large as the deck:
the die shows k's place among the cards not yet dealt.
"""

from __future__ import annotations

from typing import Any

from .differential import Pairing, check, games_in_suite


def deal_die(spiel_state: Any, outcome: int) -> tuple[int, int]:
    undealt = sorted(o for o, _ in spiel_state.chance_outcomes())
    return len(undealt), undealt.index(outcome) + 1


GOOFSPIEL = Pairing("goofspiel.gdl", "goofspiel",
                    {"players": 2, "num_cards": 13, "points_order": "random",
                     "returns_type": "win_loss", "imp_info": False},
                    gdl_meaning=lambda text: text.removeprefix("bid "),
                    spiel_meaning=lambda text: text.split(": ")[1],
                    chance_die=deal_die)


def test_goofspiel_agrees_with_openspiel() -> None:
    assert check(GOOFSPIEL, games_in_suite(GOOFSPIEL)) > 0
