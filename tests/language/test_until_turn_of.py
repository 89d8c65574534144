"""Timed values: `x = v until turn of s` (docs/language.md 5.1)."""

from __future__ import annotations

from gdl.interpreter.runtime.state import State

from tests.helpers import act, rule


def test_value_lasts_until_the_next_turn_of_a_seat():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")                      # a: shield 5 until a's next turn
    act(game, state, "bless")                      # a: b.boost 3 until b's next turn
    assert state.globals["shield"] == 5
    assert [v["boost"] for v in state.seat_vars] == [1, 3]
    act(game, state, "pass")                       # b's turn starts
    assert state.globals["shield"] == 5
    assert [v["boost"] for v in state.seat_vars] == [1, 1]
    act(game, state, "pass")                       # a's turn starts
    assert state.globals["shield"] == 0
    assert state.timers == []


def test_timed_value_survives_json():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")
    act(game, state, "pass")
    restored = State.from_json(state.to_json())
    act(game, restored, "pass")
    assert restored.globals["shield"] == 0


def test_stacked_timed_values_restore_the_original():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")                      # shield 0 -> 5 until a's turn
    act(game, state, "guard_more")                 # shield 5 -> 7 until a's turn
    act(game, state, "pass")
    act(game, state, "pass")
    assert state.globals["shield"] == 0
