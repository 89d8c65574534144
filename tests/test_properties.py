"""Hypothesis properties of random legal play on every shipped game, and of fuzzed input.
Each game states its own invariants in its rule file (`invariant "...": ...`); they are
checked here after every decision, with the engine's own (the cell index)."""

import glob
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.state import State

from tests.helpers import CHOICES, MAX_DECISIONS, ROOT, SEEDS, play

GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))
LOADED = {}


def game_for(path):
    if path not in LOADED:
        LOADED[path] = load_game(path)
    return LOADED[path]


def index_consistent(state):
    """The cell index holds exactly the pieces on the board, each once: no piece is in
    two places."""
    listed = [pid for pids in state.at.values() for pid in pids]
    on_board = [pid for pid, p in state.pieces.items() if p["alive"] and p["cell"] is not None]
    return sorted(listed) == sorted(on_board) and all(
        state.pieces[pid]["cell"] == cell for cell, pids in state.at.items() for pid in pids)


PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
@PROPERTY
@given(seed=SEEDS, choices=CHOICES)
def test_random_play_keeps_invariants(path, seed, choices):
    game = game_for(path)

    def check(before, after):
        assert index_consistent(after)
        assert introspect.broken_invariants(game, after) == [], after.decisions
    play(game, seed, choices, check)


def test_every_shipped_game_states_invariants():
    """The five rulebook games (the classic games, checked move by move against OpenSpiel,
    state none)."""
    base = [path for path in GAMES if "extends" not in open(path, encoding="utf-8").read()
            and os.sep + "classic" + os.sep not in path]
    assert base and all(list(game_for(path).rules.invariants) for path in base)


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
@PROPERTY
@given(seed=SEEDS, choices=CHOICES, cut=st.integers(min_value=0, max_value=MAX_DECISIONS))
def test_json_round_trip_and_copies_play_on_identically(path, seed, choices, cut):
    game = game_for(path)
    state = play(game, seed, choices[:cut])
    text = state.to_json()
    restored = State.from_json(text)
    assert restored.to_json() == text
    assert json.loads(text) == json.loads(restored.to_json())
    copy = state.clone()
    for index in choices[cut:cut + 60]:
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        assert legal == game.legal_actions(restored) == game.legal_actions(copy)
        action = legal[index % len(legal)]
        for s in (state, restored, copy):
            game.apply(s, action)
    assert state.to_json() == restored.to_json() == copy.to_json()


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
@PROPERTY
@given(seed=SEEDS, choices=CHOICES,
       leaving=st.dictionaries(st.integers(min_value=0, max_value=MAX_DECISIONS // 4),
                               st.integers(min_value=0, max_value=7), max_size=3))
def test_a_seat_that_concedes_is_never_asked_again(path, seed, choices, leaving):
    """Concessions at any moment (`leaving`: decision -> who; mostly the seat deciding, as
    at the gdl play prompt, else another seat still playing): the game goes on with a seat
    still playing that has a legal action, or ends."""
    game = game_for(path)
    state = game.new_state(seed)
    picks = iter(choices)
    while not game.is_terminal(state) and state.decisions < MAX_DECISIONS:
        who = leaving.pop(state.decisions, None)
        if who is not None:
            live = [s for s in range(len(game.seats)) if not state.out[s]]
            deciding = game.current_player(state)
            seat = deciding if who < 4 else live[who % len(live)]
            game.concede(state, seat)
            continue
        seat = game.current_player(state)
        assert not state.out[seat], f"{game.seats[seat]} is out but still asked"
        legal = game.legal_actions(state)
        assert legal, "a running game always offers a legal action"
        game.apply(state, legal[next(picks, 0) % len(legal)])


VARIANTS = [path for path in GAMES if "extends" in open(path, encoding="utf-8").read()]
BASES = [path for path in GAMES if path not in VARIANTS]


def _record_then_replay(path, seed, folder):
    from gdl.interpreter.play.agents.agents import make_agents
    from gdl.interpreter.play.transcript import record, replay
    game = game_for(path)
    out = folder.mktemp("t") / "game.txt"
    agents = make_agents("random", len(game.seats), seed)
    record(game, path, seed, agents, ["random"] * len(game.seats), str(out), max_turns=40)
    assert replay(str(out)) >= 1


@pytest.mark.parametrize("path", BASES, ids=os.path.basename)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_record_then_replay_is_exact(path, seed, tmp_path_factory):
    _record_then_replay(path, seed, tmp_path_factory)


@pytest.mark.parametrize("path", VARIANTS, ids=os.path.basename)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_record_then_replay_of_a_variant_is_exact(path, seed, tmp_path_factory):
    """A variant records and replays through the code of its base file (fewer seeds: the
    base file's test above has the rest)."""
    _record_then_replay(path, seed, tmp_path_factory)


TOKENS = ["game", "\"x\"", "seats", "a", "b", ",", "board", "square", "hex", "(", ")", "8",
          "{", "}", "phase", "p", "turn", "action", "m", "where", "x", "in", "[", "]",
          "setup", "goto", "for", "me", "=", "==", "+", "var", "piece", ".", "@a1", "if",
          "else", "not", "and", "count", ":", "end", "lose", "when", "true", "\n", "#c\n",
          "kinds", "K", "terrain", "def", "fn", "call", "return", "move", "along", "\x00"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_fuzzed_rule_files_only_raise_gdl_error(tokens):
    try:
        load_source(" ".join(tokens), "fuzz.gdl")
    except GdlError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_only_raises_gdl_error(text):
    try:
        load_source(text, "fuzz.gdl")
    except GdlError:
        pass


def test_a_seat_a_tie_break_puts_out_in_its_own_move_lays_no_vmines():
    """Galaxy Grid, seed 3242 (found by the concession property above): yellow's tank runs
    on a VMine in the tie-break round, the tie-break puts yellow out, and its move turn
    ends there; it used to go on to lay VMines, and yellow, out, was asked to play."""
    game = game_for(os.path.join(ROOT, "games", "galaxy_grid.gdl"))
    choices = iter([22, 49, 1, 39, 41, 39, 32, 9, 22, 33, 40, 48, 12, 13, 42, 9, 33, 30, 15,
                    42, 3, 23, 42, 33, 17, 21, 27, 17, 11, 35, 12, 39, 21, 36, 32, 35, 21,
                    29, 15, 7, 15, 48, 43, 28, 13, 1, 1, 40, 32, 11, 14, 14, 35, 10, 34, 31,
                    13, 39, 14, 31])
    state = game.new_state(3242)
    yellow_out = False
    while not game.is_terminal(state) and state.decisions < 400:
        seat = game.current_player(state)
        assert not state.out[seat], f"{game.seats[seat]} is out but still asked"
        legal = game.legal_actions(state)
        game.apply(state, legal[next(choices, 0) % len(legal)])
        yellow_out = yellow_out or state.out[game.seats.index("yellow")]
    assert yellow_out         # the case this pins down happened
