"""Galaxy Grid under random legal play, for 2, 3 and 4 seats: the rule file's invariants
(shields never above the console's boxes, tokens, VMines and Blast Hole markers conserved,
one tank per seat, never two tanks on one space between rounds) hold after every decision,
and random games end or reach the cap. The rules themselves are tested by
tests/scenarios/galaxy_grid/."""

import os

import pytest
from hypothesis import HealthCheck, given, settings

from gdl.interpreter import load_game
from gdl.interpreter.play.balance.simulate import simulate
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.events import as_json

from tests.helpers import CHOICES, GAMES, ROOT, SEEDS, play
FILES = ["galaxy_grid.gdl", "galaxy_grid_2.gdl", "galaxy_grid_3.gdl"]
LOADED = {name: load_game(os.path.join(GAMES, name)) for name in FILES}


def check_invariants(game, state):
    assert introspect.broken_invariants(game, state) == []


def test_the_rule_file_states_the_invariants():
    assert list(LOADED["galaxy_grid.gdl"].rules.invariants) == [
        "a shield is never above the console's boxes", "tokens are conserved",
        "VMines are conserved", "Blast Hole markers are conserved", "one tank per seat",
        "never two tanks on one space between rounds"]


@pytest.mark.parametrize("name", FILES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, choices=CHOICES)
def test_random_play_keeps_the_invariants(name, seed, choices):
    game = LOADED[name]
    play(game, seed, choices, lambda before, after: check_invariants(game, after))


@pytest.mark.parametrize("name", FILES)
def test_random_games_finish_with_one_winner(name):
    summary, _ = simulate(LOADED[name], games=40, seed=7)
    assert summary.finished + summary.capped == 40
    assert summary.draws == 0
    assert sum(summary.wins.values()) == summary.finished


def test_most_movement_steps_are_played_by_the_engine():
    """`drive` and `blast` are auto phases: a forced step is never asked of a player."""
    game = LOADED["galaxy_grid.gdl"]
    state = game.new_state(3)
    asked_one = 0
    decisions = 0
    while not game.is_terminal(state) and decisions < 300:
        legal = game.legal_actions(state)
        frame = state.frames[-1]
        if frame["phase"] in ("drive", "blast"):
            asked_one += len(legal) == 1
        game.apply(state, legal[decisions % len(legal)])
        decisions += 1
    assert decisions > 50
    assert asked_one == 0


def test_placements_are_secret_until_all_have_placed_then_announced():
    game = LOADED["galaxy_grid_2.gdl"]
    state = game.new_state(5)
    red_choice = game.legal_actions(state)[0]
    red_text = game.action_text(state, red_choice)
    events = game.apply(state, red_choice)
    assert as_json(events) == []                     # nothing happens, nothing is told
    assert state.seat_vars[0]["move"] == 0  # the console is filled only at the reveal
    green_choice = game.legal_actions(state)[-1]
    events = game.apply(state, green_choice)
    reveals = [e for e in as_json(events) if e[0] == "reveal"]
    assert reveals == [["reveal", 0, red_text],
                       ["reveal", 1, "place Fire 2+3 Direction 1"]]


def test_a_human_sees_the_reveal_and_the_forced_steps():
    import subprocess
    import sys
    result = subprocess.run(
        [sys.executable, "-m", "gdl.cli.main", "play", "games/galaxy_grid_2.gdl",
         "--players", "human,random", "--seed", "5", "--max-turns", "1"],
        input="place Move 3+5 Direction 2\n", capture_output=True, text=True,
        cwd=ROOT)
    out = result.stdout
    assert "green: chooses in secret" in out
    assert "reveal: red place Move 3+5 Direction 2" in out
    assert "reveal: green place Move 1 Fire 3 Direction 2" in out
    assert "auto: red go north" in out
