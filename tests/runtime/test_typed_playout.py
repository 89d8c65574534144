"""Random playouts on the typed engine (`introspect.random_playout`, used by `gdl simulate` when
every seat is a random agent and nothing is checked): one call plays the game to its end
with the random agents' own SplitMix64 draws, so every record (winners, length, caps, the
seat that played first, scores, statistics) is the one the decision-by-decision loop gives,
and the one the Python backend gives."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.balance import batch
from gdl.interpreter.runtime.engine import Game
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import typed_on  # noqa: F401 (fixture)

GAMES = ["games/space_war.gdl", "games/classic/checkers.gdl", "games/classic/othello.gdl",
         "games/classic/nine_mens_morris.gdl", "games/classic/connect_four.gdl"]
# (max_turns, max_decisions): no cap that bites, a turn cap, a decision cap
CAPS = [(1000, 100_000), (4, 100_000), (1000, 23)]
needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")


def _records(game, settings, seeds, fast, monkeypatch):
    calls = []
    playout = Game._random_playout

    def spy(self, *args):
        found = playout(self, *args)
        calls.append(found is not None)
        return found
    with monkeypatch.context() as patch:
        patch.setattr(Game, "_random_playout", spy)
        if not fast:
            patch.setattr(batch, "_random_playout", lambda *args: None)
        records = [batch.play_one(game, seed, settings) for seed in seeds]
    return records, calls


@needs_tools
@pytest.mark.parametrize("path", GAMES)
def test_a_random_playout_is_the_loop_s_game(path, typed_on, monkeypatch):  # noqa: F811
    native, python = load_game(os.path.join(ROOT, path), "native"), \
        load_game(os.path.join(ROOT, path), "python")
    assert native._typed is not None
    for max_turns, max_decisions in CAPS:
        settings = batch.RunSettings(spec="random", seed=0, max_turns=max_turns,
                                     max_decisions=max_decisions)
        fast, calls = _records(native, settings, range(12), True, monkeypatch)
        assert calls and all(calls)         # played in one call each
        loop, calls = _records(native, settings, range(12), False, monkeypatch)
        assert not calls
        assert fast == loop
        assert fast == _records(python, settings, range(12), True, monkeypatch)[0]
        if max_decisions == 23:
            assert any(r.capped for r in fast)
            assert all(r.decisions == 23 for r in fast if r.capped)


@needs_tools
def test_other_agents_and_checked_runs_play_in_the_loop(typed_on, monkeypatch):  # noqa: F811
    game = load_game(os.path.join(ROOT, "games/classic/connect_four.gdl"), "native")
    for settings in (batch.RunSettings(spec="random,greedy", seed=0, max_turns=1000),
                     batch.RunSettings(spec="random", seed=0, max_turns=1000, check=True)):
        records, calls = _records(game, settings, range(2), True, monkeypatch)
        assert records and calls == [False] * len(calls)


def _errors_on_both(text, seed):
    """The error of a random game of `text` from `seed`, typed and on Python."""
    settings = batch.RunSettings(spec="random", seed=0, max_turns=1000)
    errors = []
    for backend in ("native", "python"):
        game = load_source(text, "t.gdl", backend)
        assert (game._typed is not None) == (backend == "native")
        with pytest.raises(GdlRuntimeError) as info:
            batch.play_one(game, seed, settings)
        errors.append(str(info.value))
    return errors


@needs_tools
def test_a_stuck_game_is_the_loop_s_error(typed_on):  # noqa: F811
    text = """game "t"
seats a, b
board square(3, 3)
kinds (speed) { Pawn = 1 }
var n = 0
setup {
  create Pawn for a at @a1
  goto main for a
}
phase main {
  action go() where n == 0 {
    n = 1
  }
}
"""
    errors = _errors_on_both(text, 1)
    assert errors[0] == errors[1]
    assert "no legal action for a in phase 'main': the rules leave the game stuck" in errors[0]


def _rollouts(monkeypatch):
    """Every `Game._random_rollout` from now on, in order: (on the typed engine, its
    answer)."""
    rollouts = []
    rollout = Game._random_rollout

    def spy(self, *args):
        typed_core = self._typed_core(args[0]) is not None
        rollouts.append((typed_core, rollout(self, *args)))
        return rollouts[-1][1]
    monkeypatch.setattr(Game, "_random_rollout", spy)
    return rollouts


@needs_tools
@pytest.mark.parametrize("path", ["games/space_war.gdl", "games/classic/connect_four.gdl"])
def test_mcts_rollouts_in_one_call_choose_as_on_python(path, typed_on,  # noqa: F811
                                                       monkeypatch):
    """An mcts rollout is one call (`introspect.random_rollout`), to the typed core or the
    Python engine's loop, each drawing from the agent's stream as the agent's own loop
    would: the same choices on both backends."""
    import random

    from gdl.interpreter.play.agents.search import MctsAgent
    rollouts = _rollouts(monkeypatch)
    games = [load_game(os.path.join(ROOT, path), backend) for backend in ("python", "native")]
    for seed in range(4):
        picks = []
        for game in games:
            state, choose = game.new_state(seed), random.Random(seed)
            for _ in range(3 * seed):
                legal = game.legal_actions(state)
                game.apply(state, legal[choose.randrange(len(legal))])
            agent = MctsAgent(seed, game.current_player(state), iterations=40)
            picks.append(agent.choose(game, state, game.legal_actions(state)))
        assert picks[0] == picks[1]
    # played in one call to the typed core, and in the Python engine's loop (both whole)
    assert (True, True) in rollouts and (False, True) in rollouts
    assert all(played for _, played in rollouts)


@needs_tools
def test_a_fault_while_counting_is_the_loop_s(typed_on):  # noqa: F811
    """The count before the pick runs every test of the listing: a fault in one is raised
    at its place, as the loop's listing raises it."""
    text = """game "t"
seats a, b
board square(3, 3)
kinds (speed) { Pawn = 1 }
var n = 0
setup {
  create Pawn for a at @a1
  goto main for a
}
phase main turn {
  action go(c in cells()) where n < 5 or 10 / (n - 5) > 0 {
    n += 1
    goto main for next(me)
  }
}
"""
    errors = _errors_on_both(text, 2)
    assert errors[0] == errors[1]
    assert errors[0].startswith("t.gdl:11:42: error: run-time error: division by zero")


@needs_tools
def test_a_narrated_native_game_searches_on_the_typed_engine(typed_on,  # noqa: F811
                                                             monkeypatch):
    """Narration moves a game on the native backend to Python (it needs Python's frames),
    as `gdl play` and `gdl serve` ask; its agents still search on the typed engine
    (`introspect.search_position`: a copy of the position there), with the choices the
    Python backend's agents make."""
    from gdl.interpreter.play.agents.search import GreedyAgent, MctsAgent
    from gdl.interpreter.runtime import introspect, native
    from gdl.interpreter.runtime.typed import TypedState
    rollouts = _rollouts(monkeypatch)
    path = os.path.join(ROOT, "games/classic/connect_four.gdl")
    table, plain = load_game(path, "native"), load_game(path, "python")
    states = [table.new_state(3, narrate=True), plain.new_state(3, narrate=True)]
    assert native.backend_of(table) == "python"
    twin, position = introspect.search_position(table, states[0])
    assert isinstance(position, TypedState) and twin._typed is not None
    assert position.to_json() == states[0].to_json() and position is not states[0]
    assert introspect.search_position(plain, states[1]) == (plain, states[1])
    for turn in range(8):
        picks = []
        for game, state in zip((table, plain), states):
            agent = (MctsAgent if turn % 2 else GreedyAgent)(turn, game.current_player(state))
            picks.append(agent.choose(game, state, game.legal_actions(state)))
        assert picks[0] == picks[1]
        for game, state in zip((table, plain), states):
            game.apply(state, picks[0])
    assert states[0].to_json() == states[1].to_json()
    assert any(event.__class__.__name__ != "Log" for event in states[0].events)  # narrated
    # the table's searches rolled out on the typed engine, the Python game's in its loop
    assert (True, True) in rollouts and (False, True) in rollouts


def _fields_read(monkeypatch):
    """Every typed state whose fields are read out of its core from now on."""
    from gdl.interpreter.runtime import typed
    read = []
    materialise = typed._materialise
    monkeypatch.setattr(typed, "_materialise", lambda state: (read.append(state),
                                                               materialise(state)))
    return read


@needs_tools
@pytest.mark.parametrize("path", ["games/game.gdl", "games/classic/goofspiel.gdl",
                                  "games/galaxy_grid.gdl"])
def test_a_determinization_of_a_typed_state_is_held_by_the_typed_engine(path, typed_on,  # noqa: F811
                                                                        monkeypatch):
    """A determinization of a typed position (hidden information: GAME's face-down
    tokens, goofspiel's simultaneous bids, Galaxy Grid's ships out of sight and its
    simultaneous orders) is a copy of the core with the sample's changes made on it
    (`Core.patch`), the other seats' choices of a simultaneous phase forgotten and drawn
    again on the core: each sample is the Python backend's sample, and is played on the
    typed core without reading its fields."""
    import random

    from gdl.interpreter.play.agents.determinize import Determinizer, Stream
    from gdl.interpreter.runtime import introspect
    from gdl.interpreter.runtime.typed import TypedState
    read = _fields_read(monkeypatch)
    simultaneous_seen = set()
    games = [load_game(os.path.join(ROOT, path), backend) for backend in ("python", "native")]
    for seed in range(3):
        states = []
        for game in games:
            state, choose = game.new_state(seed), random.Random(seed)
            for _ in range(4 + 5 * seed):
                legal = game.legal_actions(state)
                game.apply(state, legal[choose.randrange(len(legal))])
            states.append(state)
        seat = games[0].current_player(states[0])
        if seat < 0:
            seat = 0
        simultaneous_seen.add(introspect.is_simultaneous(games[0], states[0]))
        worlds = [Determinizer(game, state, seat) for game, state in zip(games, states)]
        assert games[1].rules.hidden_information
        assert worlds[0].patched is None and worlds[1].patched is not None
        for k in range(3):
            read.clear()
            streams = [Stream(seed * 10 + k), Stream(seed * 10 + k)]
            samples = [world.sample(stream) for world, stream in zip(worlds, streams)]
            assert isinstance(samples[1], TypedState) and samples[1]._core is not None
            assert worlds[1].patched is not None        # (no patch refused)
            assert not read         # the position's fields were read once, not per sample
            legal = [game.legal_actions(sample) for game, sample in zip(games, samples)]
            assert legal[0] == legal[1] and not read
            assert samples[0].to_json() == samples[1].to_json()
            assert streams[0].state == streams[1].state
    assert True in simultaneous_seen or path.endswith("game.gdl")


@needs_tools
def test_a_typed_engine_shuffles_as_a_stream_does(typed_on):  # noqa: F811
    """`Engine.shuffled`, a determinization's shuffle in C, gives the order and the stream
    state `Stream.shuffle` gives, for lists of 0 to 300 items and streams near 0 and 2^64."""
    import random

    from gdl.interpreter.play.agents.determinize import Stream
    engine = load_game(os.path.join(ROOT, "games/game.gdl"), "native")._typed
    choose = random.Random(5)
    for size in [0, 1, 2, 3, 12, 48, 300] + [choose.randrange(100) for _ in range(40)]:
        for seed in (0, 1, (1 << 64) - 1, (1 << 64) - 0x9E3779B97F4A7C15,
                     choose.getrandbits(64)):
            items = list(range(size))
            stream, expected = Stream(seed), list(items)
            stream.shuffle(expected)
            assert engine.shuffled(seed, items) == stream.state and items == expected


@needs_tools
def test_a_determinization_the_core_cannot_hold_is_made_from_the_fields(typed_on):  # noqa: F811
    """When `Core.patch` refuses a sample, the stream goes back to where the sample
    started and it, and every later one, is made by editing the fields: the same samples
    as the Python backend's."""
    import random

    from gdl.interpreter.play.agents.determinize import Determinizer, Stream
    games = [load_game(os.path.join(ROOT, "games/game.gdl"), backend)
             for backend in ("python", "native")]
    states = []
    for game in games:
        state, choose = game.new_state(2), random.Random(2)
        for _ in range(9):
            legal = game.legal_actions(state)
            game.apply(state, legal[choose.randrange(len(legal))])
        states.append(state)
    seat = max(games[0].current_player(states[0]), 0)
    worlds = [Determinizer(game, state, seat) for game, state in zip(games, states)]
    refused = []
    worlds[1].patched = lambda *changes: refused.append(changes)    # a refusal: None
    for k in range(3):
        streams = [Stream(k), Stream(k)]
        samples = [world.sample(stream) for world, stream in zip(worlds, streams)]
        assert samples[0].to_json() == samples[1].to_json()
        assert streams[0].state == streams[1].state
    assert len(refused) == 1 and refused[0][0]      # asked once, with the dealt pieces


@needs_tools
@pytest.mark.parametrize("path", ["games/game.gdl", "games/space_war.gdl",
                                  "games/galaxy_of_d.gdl"])
def test_mcts_judges_a_typed_position_without_reading_its_fields(path, typed_on,  # noqa: F811
                                                                  monkeypatch):
    """A rollout cut short is judged by `show score(s)` and the seats still playing: the
    typed core computes both (`Core.scores`, `Core.outs`), the same as the Python
    engine, and the position's fields are never read out of the core for it."""
    import random

    from gdl.interpreter.play.agents.search import outcome
    from gdl.interpreter.runtime import introspect
    from gdl.interpreter.runtime.typed import TypedState
    read = _fields_read(monkeypatch)
    games = [load_game(os.path.join(ROOT, path), backend) for backend in ("python", "native")]
    for seed in range(3):
        states, choose = [game.new_state(seed) for game in games], random.Random(seed)
        for _ in range(40):
            if games[0].is_terminal(states[0]):
                break
            legal = games[0].legal_actions(states[0])
            action = legal[choose.randrange(len(legal))]
            for game, state in zip(games, states):
                game.apply(state, action, False)
            assert isinstance(states[1], TypedState)
            judged = [outcome(game, state) for game, state in zip(games, states)]
            assert judged[0] == judged[1] and not read
            assert introspect.scores(games[1], states[1]) == introspect.scores(games[0],
                                                                               states[0])
            assert introspect.seats_out(states[1]) == states[0].out and not read
