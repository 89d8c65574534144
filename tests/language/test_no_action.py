"""`on no action { ... }`: what a phase's deciding seat without a legal action does (pass,
lose, draw, end the game), and `passes` (docs/language.md, "No legal action"); the checker's
errors, pinned; the same on the native backend."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError
from gdl.interpreter.play.balance.simulate import simulate
from gdl.interpreter.runtime import native, native_cache

from tests.helpers import ROOT
PASSING = os.path.join(ROOT, "tests", "rules", "no_action.gdl")

GAME = """seats a, b
board square(1, 1)
var seat.coins = 1
setup {{ goto play for a }}
phase play turn {{
  on no action {{ {handler} }}
  action spend() where me.coins > 0 {{
    me.coins -= 1
    goto play for next(me)
  }}
}}
"""


def texts(game, state):
    return [game.action_text(state, action) for action in game.legal_actions(state)]


def play_first(game, state):
    while not game.is_terminal(state):
        game.apply(state, game.legal_actions(state)[0])
    return state


def test_a_seat_without_coins_passes_until_neither_can_spend():
    game = load_game(PASSING)
    state = game.new_state(0)
    turns = []
    while not game.is_terminal(state):
        turns.append(game.seats[game.current_player(state)])
        game.apply(state, game.legal_actions(state)[-1])      # spend 2 when one may
    # a: 3 coins, b: 5; spending two at a time a runs out first and passes
    assert turns == ["a", "b", "a", "b", "b"]
    assert state.result == {"winners": [1], "draw": False}


def test_every_game_of_random_play_ends():
    summary, _ = simulate(load_game(PASSING), 40, seed=0)
    assert summary.finished == 40


@pytest.mark.parametrize("handler, result", [
    ("lose me", {"winners": [1], "draw": False}),
    ("draw", {"winners": [], "draw": True}),
    ("win next(me)", {"winners": [1], "draw": False}),
])
def test_a_seat_without_an_action_loses_or_draws_as_the_block_says(handler, result):
    game = load_source(GAME.format(handler=handler))
    state = play_first(game, game.new_state(0))      # a spends, b spends, a has none
    assert state.result == result


def test_passes_counts_the_blocks_run_since_the_last_decision():
    game = load_source(GAME.format(
        handler="if passes == 2 { draw } else { goto play for next(me) }"))
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])     # a spends
    game.apply(state, game.legal_actions(state)[0])     # b spends: neither can, both pass
    assert state.result == {"winners": [], "draw": True}


def test_without_the_block_the_game_is_stuck_as_before():
    game = load_source(GAME.replace("  on no action {{ {handler} }}\n", "").format())
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    game.apply(state, game.legal_actions(state)[0])
    assert game.legal_actions(state) == [] and not game.is_terminal(state)


def test_a_block_that_changes_nothing_is_an_error_naming_the_phase():
    game = load_source(GAME.format(handler='log "nothing"'))
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    with pytest.raises(GdlRuntimeError) as caught:
        game.apply(state, game.legal_actions(state)[0])
    assert caught.value.render().startswith(
        "<string>:5:1: error: run-time error: phase 'play' ran 'on no action' more than "
        "10,000 times after one decision")


@pytest.mark.skipif(native.missing_tools() is not None, reason="no native backend")
def test_the_native_backend_plays_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("GDL_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(native_cache.OPTIMISE, "-O0")
    compiled, python = load_game(PASSING, "native"), load_game(PASSING, "python")
    assert native.backend_of(compiled) == "native"
    for seed in range(5):
        one, two = compiled.new_state(seed), python.new_state(seed)
        while not python.is_terminal(two):
            action = python.legal_actions(two)[seed % len(python.legal_actions(two))]
            assert compiled.legal_actions(one) == python.legal_actions(two)
            compiled.apply(one, action)
            python.apply(two, action)
        assert one.result == two.result


@pytest.mark.parametrize("text, message", [
    ("seats a, b\nboard square(1, 1)\nsetup { goto p for a }\n"
     "phase p simultaneous {\n  on no action { draw }\n  action x() {}\n}\n",
     "<string>:4:1: error: 'on no action' is for a phase in which one seat decides: in a "
     "simultaneous phase every seat chooses at once"),
    ("seats a, b\nboard square(1, 1)\nsetup { goto p for a }\n"
     "phase p {\n  on no action { draw }\n  on no action { lose me }\n  action x() {}\n}\n",
     "<string>:4:1: error: phase 'p' has two 'on no action' blocks: one says what a seat "
     "without a legal action does"),
    ("seats a, b\nboard square(1, 1)\nsetup { goto p for a }\n"
     "phase p {\n  on no action { lose nobody }\n  action x() {}\n}\n",
     "<string>:5:23: error: unknown name 'nobody'"),
])
def test_checker_errors(text, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(text)
    assert caught.value.render().startswith(message)
