"""Pieces (docs/language.md 5.5): `give` changes a piece's owner."""

from __future__ import annotations

from gdl.interpreter import load_source

from tests.helpers import COINS


def test_give_changes_a_pieces_owner():
    game = load_source(COINS.replace("action pass() { goto main for next(me) }",
                                    "action take() { give first(q in pieces(b)) to me }\n"
                                    "  action pass() { goto main for next(me) }"), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "take"))
    assert [p["owner"] for p in state.pieces.values()] == [0, 0, 0]
    # b no longer owns b:Coin#1 (a label keeps the seat that first owned the piece), so it
    # is a's top piece on d1; a's a1 stack still hides one
    assert [p["label"] for p in game.view(state, 1)["pieces"]] == ["a:Coin#2", "b:Coin#1", "?"]
