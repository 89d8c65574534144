"""games/classic/kuhn_poker.gdl against OpenSpiel's kuhn_poker (its default: players 2).

Both write the decisions pass and bet (OpenSpiel `Pass`, `Bet`). gdl deals by shuffling;
OpenSpiel's deals (card k to player 0, then to player 1) follow gdl's. The returns are the
chips won or lost (gdl's `payoff`). Each seat's view is compared with OpenSpiel's
information state: `1pb` is card 1 and the actions pass, bet; in gdl the seat's own card is
its `card` as it sees it, the other's `card` and the deck must read `?`, and the actions are the texts
the seat read.
"""

from __future__ import annotations

from typing import Any

from gdl.interpreter.runtime.view import View

from .differential import Pairing, check, games_in_suite


def dealt(everyone: View, spiel_state: Any) -> int:
    player = len(spiel_state.history())         # the cards are dealt first, in seat order
    return int(everyone["seats"][player]["vars"]["card"])


def gdl_information(view: View, read: list[str]) -> str:
    own, = (s["vars"]["card"] for s in view["seats"] if s["name"] == view["seat"])
    other, = (s["vars"]["card"] for s in view["seats"] if s["name"] != view["seat"])
    return (f"card {own}, other's card {other}, deck {view['globals']['deck']}, "
            f"actions {' '.join(read)}")


def spiel_information(text: str) -> str:
    actions = " ".join({"p": "pass", "b": "bet"}[a] for a in text[1:])
    return f"card {text[0]}, other's card ?, deck ?, actions {actions}"


KUHN_POKER = Pairing("kuhn_poker.gdl", "kuhn_poker", {"players": 2},
                     spiel_meaning=str.lower, dealt=dealt,
                     gdl_information=gdl_information, spiel_information=spiel_information)


def test_kuhn_poker_agrees_with_openspiel() -> None:
    assert check(KUHN_POKER, games_in_suite(KUHN_POKER)) > 0
