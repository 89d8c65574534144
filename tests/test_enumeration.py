"""The compiled enumeration of legal actions (where-parts split by level, memoised,
domains filtered) must list exactly what a naive enumeration lists: every combination of
the binders' domains whose where-parts all hold, in the same order."""

import glob
import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.play.agents import RandomAgent

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl")))


def compiled_phase(game, state):
    """The current phase as the engine compiled it, and `run(function)`, which runs a
    function on `state` as the engine runs rules. Private engine members, on purpose and only here: this
    test checks the generated listing against the generated domains and where-parts."""
    return game._phase_of(state), lambda function: game._evaluate(state, function)


def naive_legal(game, state):
    """Every combination of the binders' domains (each domain computed with the binders
    before it bound) whose where-parts all hold, tested with nothing skipped or memoised."""
    seat = game.current_player(state)
    phase, run = compiled_phase(game, state)
    frame_args = state.frames[-1]["args"]
    out = []

    def walk(compiled, bound, i):
        if i == len(compiled.binders):
            if all(cond(state, seat, *frame_args, *bound) for _, cond, _ in compiled.parts):
                out.append((compiled.index, tuple(bound)))
            return
        for value in list(compiled.domains[i](state, seat, *frame_args, *bound)):
            walk(compiled, bound[:i] + [value] + bound[i + 1:], i + 1)

    for compiled in phase.actions:
        run(lambda st, c=compiled: walk(c, [None] * len(c.binders), 0))
    return out


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_compiled_enumeration_matches_naive(path):
    game = load_game(path)
    for seed in range(3):
        state = game.new_state(seed)
        agents = [RandomAgent(seed * 7 + s) for s in range(len(game.seats))]
        while not game.is_terminal(state) and state.decisions < 150:
            legal = game.legal_actions(state)
            assert legal == naive_legal(game, state), (seed, state.decisions)
            game.apply(state, agents[game.current_player(state)].choose(game, state, legal))


@pytest.mark.parametrize("where", [
    "exists(y in [z] where y == x)",
    "[y for y in [z] where y == x] != []",
    "count(y in [z, x] where y == x) == 2",
])
def test_quantifier_variables_are_not_memoised(where):
    game = load_source(f"""
seats a, b
board square(3, 2)
setup {{ goto main for a }}
phase main {{
  action pick(x in [1, 2, 3], z in [1, 2, 3]) where {where} {{ goto main for next(me) }}
}}
""", "q.gdl")
    state = game.new_state(0)
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == [
        "pick 1 1", "pick 2 2", "pick 3 3"]
