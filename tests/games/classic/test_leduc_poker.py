"""games/classic/leduc_poker.gdl against OpenSpiel's leduc_poker (its defaults: players 2,
action_mapping false, suit_isomorphism false, starting_player 0).

Both write the decisions fold, call and raise (OpenSpiel `Fold`, `Call`, `Raise`) and the
cards 0 to 5. gdl deals by shuffling; OpenSpiel's deals (a card to player 0, to player 1,
then the public card) follow gdl's. The returns are the chips won or lost (gdl's
`payoff`). Each seat's view is compared with OpenSpiel's information state
(`[Private: 1]...[Public: 0][Round1: 1 2 2 1][Round2: 1]`, actions 0 fold, 1 call, 2 raise):
the seat's own card, the public card once turned up and the actions so far; the other's
card and the deck read `?`.
"""

from __future__ import annotations

import re
from typing import Any

from gdl.interpreter.runtime.view import View

from .differential import Pairing, check, games_in_suite

ACTIONS = {"0": "fold", "1": "call", "2": "raise"}


def dealt(everyone: View, spiel_state: Any) -> int:
    dealt_so_far = sum(1 for a in spiel_state.full_history() if a.player == -1)
    if dealt_so_far < 2:
        return int(everyone["seats"][dealt_so_far]["vars"]["card"])
    return int(everyone["globals"]["public"].strip("[]"))


def gdl_information(view: View, read: list[str]) -> str:
    own, = (s["vars"]["card"] for s in view["seats"] if s["name"] == view["seat"])
    other, = (s["vars"]["card"] for s in view["seats"] if s["name"] != view["seat"])
    public = view["globals"]["public"].strip("[]") or "none"
    return (f"card {own}, other's card {other}, deck {view['globals']['deck']}, "
            f"public {public}, actions {' '.join(read)}")


def spiel_information(text: str) -> str:
    fields = dict(re.findall(r"\[(\w+):? ?([^\]]*)\]", text))
    actions = " ".join(ACTIONS[a] for a in f"{fields['Round1']} {fields['Round2']}".split())
    return (f"card {fields['Private']}, other's card ?, deck ?, "
            f"public {fields.get('Public', 'none')}, actions {actions}")


LEDUC_POKER = Pairing("leduc_poker.gdl", "leduc_poker",
                      {"players": 2, "action_mapping": False, "suit_isomorphism": False,
                       "starting_player": 0},
                      spiel_meaning=str.lower, dealt=dealt,
                      gdl_information=gdl_information, spiel_information=spiel_information)


def test_leduc_poker_agrees_with_openspiel() -> None:
    assert check(LEDUC_POKER, games_in_suite(LEDUC_POKER)) > 0
