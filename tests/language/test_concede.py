"""Giving up: `on concede(s)` and `Game.concede` (docs/language.md 4.10), by a waiting seat and
by the deciding one."""

from __future__ import annotations

from gdl.interpreter.runtime.engine import TERMINAL

from tests.helpers import act, rule


def test_concede_by_a_waiting_seat():
    game = rule("standing3.gdl")
    state = game.new_state(0)
    game.concede(state, 1)
    assert state.out == [False, True, False] and state.result is None
    act(game, state, "pass")
    assert game.current_player(state) == 2
    game.concede(state, 0)
    assert state.result == {"winners": [2], "draw": False}
    assert game.current_player(state) == TERMINAL


def test_concede_by_the_deciding_seat_passes_the_decision():
    """`on out(s)` hands the turn on when the deciding seat concedes."""
    game = rule("standing3.gdl")
    state = game.new_state(0)
    game.concede(state, 0)
    assert state.result is None
    assert game.current_player(state) == 1
    assert state.turn == 2
