"""`decision_number` (docs/language.md 6.5): decisions made so far, the one being played
included; `turn_number` counts turns, which may hold several decisions."""

import os

from gdl.interpreter import load_game, load_source
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import ROOT
COUNTER = os.path.join(ROOT, "tests", "rules", "decision_counter.gdl")


def test_the_game_is_drawn_at_the_twelfth_decision_whatever_the_turns():
    game = load_game(COUNTER)
    state = game.new_state(0)
    while not game.is_terminal(state):
        game.apply(state, game.legal_actions(state)[1])        # stop: one decision a turn
    assert state.decisions == 12 and state.turn == 13     # the last stop began turn 13
    assert state.result == {"winners": [], "draw": True}


def test_every_game_ends_by_the_twelfth_decision():
    _, records = simulate(load_game(COUNTER), 40, seed=0)
    assert all(not r.capped and r.decisions <= 12 for r in records)
    assert any(r.turns < r.decisions for r in records)


def test_an_action_reads_its_own_decision_number_and_setup_reads_zero():
    game = load_source("""seats a, b
board square(1, 1)
var seen = []
setup { seen = [decision_number] goto p for a }
phase p { action x() { seen = seen + [decision_number] } }
""")
    state = game.new_state(0)
    for _ in range(3):
        game.apply(state, game.legal_actions(state)[0])
    assert state.globals["seen"] == [0, 1, 2, 3]
