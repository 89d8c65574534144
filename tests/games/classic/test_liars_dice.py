"""games/classic/liars_dice.gdl against OpenSpiel's liars_dice (its defaults: players 2,
numdice 1, dice_sides 6, bidding_rule reset-face).

OpenSpiel writes a bid `2-5` (two dice show 5) and `Liar`; gdl `bid 2 5` and `liar`.
Meaning: OpenSpiel's text. gdl draws each die's face from a shuffled list, hidden from the
other seat (a rolled die is a public event), and OpenSpiel's rolls (player 0's die, then
player 1's) follow gdl's. Each seat's view is compared with OpenSpiel's information state
(`3 1-2 2-5`: its die, then the bids): its own die, the other's read `?`, and the actions it
read.
"""

from __future__ import annotations

from typing import Any

from gdl.interpreter.runtime.view import View

from .differential import Pairing, check, games_in_suite


def meaning(text: str) -> str:
    return "Liar" if text == "liar" else "-".join(text.split()[1:])


def dealt(everyone: View, spiel_state: Any) -> int:
    roller = len(spiel_state.history())         # one die a player, rolled first in order
    return int(everyone["seats"][roller]["vars"]["die"]) - 1


def gdl_information(view: View, read: list[str]) -> str:
    own, = (s["vars"]["die"] for s in view["seats"] if s["name"] == view["seat"])
    other, = (s["vars"]["die"] for s in view["seats"] if s["name"] != view["seat"])
    return f"die {own}, other's die {other}, actions {' '.join(read)}"


def spiel_information(text: str) -> str:
    die, *actions = text.split()
    return f"die {die}, other's die ?, actions {' '.join(actions)}"


LIARS_DICE = Pairing("liars_dice.gdl", "liars_dice",
                     {"players": 2, "numdice": 1, "dice_sides": 6,
                      "bidding_rule": "reset-face"},
                     gdl_meaning=meaning, dealt=dealt,
                     gdl_information=gdl_information, spiel_information=spiel_information)


def test_liars_dice_agrees_with_openspiel() -> None:
    assert check(LIARS_DICE, games_in_suite(LIARS_DICE)) > 0
