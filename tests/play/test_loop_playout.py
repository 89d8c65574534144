"""`gdl simulate` with random agents only, on the Python engine, plays each game in one
loop without the agents' calls (`Game._loop_playout`): every record must be the one the
decision-by-decision `run_game` gives, under every cap, and a stuck game the same error."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.balance import batch
from gdl.interpreter.runtime.engine import Game
from tests.helpers import ROOT

GAMES = ["games/space_war.gdl", "games/galaxy_grid.gdl", "games/classic/goofspiel.gdl",
         "games/classic/pig.gdl", "games/classic/tic_tac_toe.gdl"]
CAPS = [(1000, 100_000), (3, 100_000), (1000, 7)]     # (max_turns, max_decisions)


def _records(game, settings, seeds, loop, monkeypatch):
    """The records of `seeds`, from `_loop_playout` or (loop false) from `run_game`."""
    calls = []
    playout = Game._loop_playout

    def spy(self, *args):
        calls.append(args)
        return playout(self, *args)
    with monkeypatch.context() as patch:
        patch.setattr(Game, "_loop_playout", spy)
        if not loop:
            patch.setattr(batch, "_random_playout", lambda *args: None)
        records = [batch.play_one(game, seed, settings) for seed in seeds]
    assert bool(calls) == loop
    return records


@pytest.mark.parametrize("path", GAMES)
def test_the_loop_playout_is_run_game_s_game(path, monkeypatch):
    game = load_game(os.path.join(ROOT, path), "python")
    for max_turns, max_decisions in CAPS:
        settings = batch.RunSettings(spec="random", seed=0, max_turns=max_turns,
                                     max_decisions=max_decisions)
        fast = _records(game, settings, range(6), True, monkeypatch)
        assert fast == _records(game, settings, range(6), False, monkeypatch)
        if max_decisions == 7:
            assert any(r.capped and r.decisions == 7 for r in fast)
        if max_turns == 3 and path == "games/space_war.gdl":    # it has turns
            assert all(r.capped and r.turns == 3 for r in fast)   # not 4: turn 4 is not played


def _errors(game, monkeypatch):
    """The error of a game of random agents from `_loop_playout`, then from `run_game`."""
    settings = batch.RunSettings(spec="random", seed=0, max_turns=1000)
    errors = []
    for loop in (True, False):
        with monkeypatch.context() as patch:
            if not loop:
                patch.setattr(batch, "_random_playout", lambda *args: None)
            with pytest.raises(GdlRuntimeError) as info:
                batch.play_one(game, 1, settings)
        errors.append(str(info.value))
    return errors


def test_a_stuck_game_is_run_game_s_error(monkeypatch):
    game = load_source("""game "t"
seats a, b
board square(3, 3)
var n = 0
setup { goto main for a }
phase main {
  action go() where n == 0 { n = 1 }
}
""", "t.gdl", "python")
    errors = _errors(game, monkeypatch)
    assert errors[0] == errors[1]
    assert "no legal action for a in phase 'main'" in errors[0]


FAULTS = {
    # a fault in a listing (a where-part), one in an action's body, one in a phase
    # entered with arguments (the loop's other call), one of a phase whose actions are
    # all without a body (the listing's check after it)
    "listing": "action go(k in [0, 1]) where 5 / (k - n) > 0 { n = n + 1 }",
    "body": "action go() { n = 7 / n }",
    "arguments": "action go() { goto side(3) for next(me) }\n}\nphase side(m) {\n"
                 "  action back() { n = m / n }",
    "no-ops": "action wait() { }",
}


@pytest.mark.parametrize("where", sorted(FAULTS))
def test_a_fault_is_run_game_s_error(where, monkeypatch):
    game = load_source(f"""game "t"
seats a, b
board square(3, 3)
var n = 0
setup {{ goto main for a }}
phase main {{
  {FAULTS[where]}
}}
""", "t.gdl", "python")
    errors = _errors(game, monkeypatch)
    assert errors[0] == errors[1]
    assert "t.gdl:" in errors[0]


@pytest.mark.parametrize("path", GAMES)
def test_a_rollout_is_the_agent_s_own_loop(path):
    """An mcts rollout on the Python engine (`introspect.random_rollout`) plays what the
    agent's own loop plays: every seat drawing from one stream (`Stream.below`), at most so
    many decisions; the same position and the same stream after it."""
    from gdl.interpreter.play.agents.determinize import Stream
    from gdl.interpreter.runtime import introspect
    game = load_game(os.path.join(ROOT, path), "python")
    for seed in range(4):
        state = game.new_state(seed)
        for _ in range(seed * 3):
            if game.is_terminal(state):
                break
            game.apply(state, game.legal_actions(state)[0])
        ours, theirs = state.clone(), state.clone()
        stream, rng = [seed * 77 + 5], Stream(seed * 77 + 5)
        assert introspect.random_rollout(game, ours, stream, 10 + seed)
        for _ in range(10 + seed):
            if game.is_terminal(theirs):
                break
            legal = game.legal_actions(theirs)
            game.apply(theirs, legal[rng.below(len(legal))], check=False)
        assert ours.to_json() == theirs.to_json() and stream[0] == rng.state
