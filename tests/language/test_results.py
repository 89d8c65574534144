"""Results: `win`, `lose`, `draw` (docs/language.md 5.6): every seat losing at once is a draw."""

from __future__ import annotations

from gdl.interpreter import load_game

from tests.helpers import RULES


REGRESSIONS = str(RULES / "regressions.gdl")


def test_every_seat_losing_at_once_is_a_draw():
    game = load_game(REGRESSIONS)
    state = game.new_state(1)
    game.apply(state, game.parse_action(state, "face North"))
    assert state.result == {"winners": [], "draw": True}
