"""Simultaneous phases (docs/language.md 4.2, `simultaneous`): choices stay hidden until all
have chosen, ties replay, a pending choice survives JSON, a concession or a choice that
leaves the phase ends the reveal."""

from __future__ import annotations

import json

from gdl.interpreter import load_source
from gdl.interpreter.runtime.engine import TERMINAL
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import render

from tests.helpers import act, rule, texts


def test_simultaneous_choices_stay_hidden_until_all_have_chosen():
    game = rule("hands.gdl")
    state = game.new_state(0)
    assert game.current_player(state) == 0
    assert texts(game, state) == ["show rock", "show paper", "show scissors"]

    act(game, state, "show rock")
    assert game.current_player(state) == 1
    assert texts(game, state) == ["show rock", "show paper", "show scissors"]
    # nothing has happened yet: the effect waits for every seat
    assert [v["hand"] for v in state.seat_vars] == [None, None]
    other = game.view(state, 1)
    assert other["chosen"] == {"a": "yes", "b": "no"}
    assert "rock" not in json.dumps(other)
    assert "rock" not in render(game, other)
    assert game.view(state, 0)["chosen"] == {"a": "show rock", "b": "no"}

    act(game, state, "show scissors")
    assert [v["hand"] for v in state.seat_vars] == ["rock", "scissors"]
    assert state.result == {"winners": [0], "draw": False}
    assert game.returns(state) == [1.0, -1.0]
    assert game.current_player(state) == TERMINAL


def test_simultaneous_tie_is_replayed():
    game = rule("hands.gdl")
    state = game.new_state(0)
    act(game, state, "show paper")
    act(game, state, "show paper")
    assert state.globals["ties"] == 1
    assert state.result is None
    assert game.current_player(state) == 0
    assert game.view(state, 0)["chosen"] == {"a": "no", "b": "no"}
    act(game, state, "show paper")
    act(game, state, "show rock")
    assert state.result == {"winners": [0], "draw": False}


def test_pending_simultaneous_choice_survives_json():
    game = rule("hands.gdl")
    state = game.new_state(0)
    act(game, state, "show scissors")
    restored = State.from_json(state.to_json())
    assert game.view(restored, 1)["chosen"] == {"a": "yes", "b": "no"}
    act(game, restored, "show paper")
    assert restored.result == {"winners": [0], "draw": False}


SIMULTANEOUS = """
game "bids"
seats a, b, c
board square(1, 1)
var seat.bid = 0
var reveals = 0
setup { goto bid(5) for a }
phase bid(v) simultaneous {
  action offer(n in [1, 2, 3]) {
    me.bid = n
    if n == 3 { goto after for me }
  }
  on reveal { reveals += v }
}
phase after { action ok() { goto after for me } }
"""


def test_a_conceding_last_chooser_lets_the_others_be_revealed():
    game = load_source(SIMULTANEOUS, "bids.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "offer 1"))
    game.apply(state, game.parse_action(state, "offer 2"))
    game.concede(state, 2)
    assert [v["bid"] for v in state.seat_vars] == [1, 2, 0]
    assert state.globals["reveals"] == 5
    assert game.current_player(state) == 0


def test_a_choice_that_leaves_the_phase_ends_the_reveal():
    game = load_source(SIMULTANEOUS, "bids.gdl")
    state = game.new_state(0)
    for text in ("offer 3", "offer 2", "offer 1"):
        game.apply(state, game.parse_action(state, text))
    assert state.frames[-1]["phase"] == "after"
    assert [v["bid"] for v in state.seat_vars] == [3, 0, 0]
    assert state.globals["reveals"] == 0
