"""The agents that look ahead (`mcts`, `greedy`) and the players spec that names them.

- deterministic for a seed; the state they are handed is left as it was;
- `mcts` finds the one winning move of Nim (tests/rules/nim_stones.gdl), where perfect play
  is known, and beats random play there;
- they decide from their seat's view only: states that give the seat the same view (hidden
  pieces dealt out differently, hidden variables, the dice to come, another seat's secret
  choice) give the same choice, on Galaxy of D and GAME positions;
- `greedy` plays toward `show score(s)` (tests/rules/race.gdl) and without one ties at random;
- a drawn world the rules fault on (tests/rules/hidden_die.gdl) is dropped, not an error;
- a bad players spec is a message, never a traceback.

Strength on the shipped games is a benchmark (benchmarks/strength.py), not a test.
"""

import os
import random
import subprocess
import sys

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlDataError, GdlError
from gdl.interpreter.play.agents.agents import make_agents, parse_player
from gdl.interpreter.play.agents.determinize import Stream, determinize
from gdl.interpreter.play.agents.search import GreedyAgent, MctsAgent
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT
RULES = os.path.join(ROOT, "tests", "rules")
KEEP = ("id", "owner", "cell", "alive", "zone")


def source(name):
    with open(os.path.join(RULES, name), encoding="utf-8") as handle:
        return handle.read()


def nim(stones):
    return load_source(source("nim_stones.gdl").replace(
        "param stones = 15", f"param stones = {stones}"), "nim_stones.gdl")


def play(game, spec, seed, until=None):
    """Texts of the decisions of one game (or its first `until`)."""
    state = game.new_state(seed)
    agents = make_agents(spec, len(game.seats), seed)
    texts = []
    while not game.is_terminal(state) and (until is None or len(texts) < until):
        legal = game.legal_actions(state)
        action = agents[game.current_player(state)].choose(game, state, legal)
        texts.append(game.action_text(state, action))
        game.apply(state, action)
    return texts, state


# ----- determinism ------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["mcts:iterations=20:rollout=5,random", "greedy,random"])
def test_the_same_seed_gives_the_same_game(spec):
    game = load_game(os.path.join(ROOT, "games", "galaxy_of_d.gdl"))
    first, _ = play(game, spec, 3, until=40)
    assert play(game, spec, 3, until=40)[0] == first
    assert play(game, spec, 4, until=40)[0] != first


def test_choosing_leaves_the_state_as_it_was():
    game = load_game(os.path.join(ROOT, "games", "galaxy_of_d.gdl"))
    state = game.new_state(1)
    for agent in (MctsAgent(1, 0, iterations=10, rollout=5), GreedyAgent(1, 0)):
        while len(game.legal_actions(state)) < 2:
            game.apply(state, game.legal_actions(state)[0])
        before = state.to_json()
        agent.choose(game, state, game.legal_actions(state))
        assert state.to_json() == before


class _ListedAsTuples:
    """A game whose actions carry their list arguments as tuples (dictionary keys), handed
    back to the game as lists: else the game itself."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def _search_position(self, state):
        return self, state

    def legal_actions(self, state):
        return [(index, tuple(tuple(a) if isinstance(a, list) else a for a in args))
                for index, args in self._game.legal_actions(state)]

    def apply(self, state, action, check=True):
        index, args = action
        return self._game.apply(state, (index, tuple(list(a) if isinstance(a, tuple) else a
                                                     for a in args)), check)


def test_mcts_chooses_alike_when_the_arguments_are_lists():
    """An action with a list argument (tests/rules/flatten.gdl: `pair in [[x, y] ...]`) is
    no dictionary key: mcts keys it by `_key` (lists as tuples), at the root and in the
    tree, and chooses as it does for the same actions given as tuples."""
    game = load_game(os.path.join(RULES, "flatten.gdl"))
    as_tuples = _ListedAsTuples(game)
    for seed in range(4):
        state = game.new_state(seed)
        for _ in range(seed % 3):
            game.apply(state, game.legal_actions(state)[seed])
        legal = game.legal_actions(state)
        assert all(isinstance(args[0], list) for _, args in legal)
        me = game.current_player(state)
        lists = MctsAgent(seed, me, iterations=60, rollout=6).choose(game, state, legal)
        tuples = MctsAgent(seed, me, iterations=60, rollout=6).choose(
            as_tuples, state, as_tuples.legal_actions(state))
        assert lists in legal
        assert (lists[0], (tuple(lists[1][0]),)) == tuples


# ----- strength where perfect play is known -------------------------------------------------
@pytest.mark.parametrize("stones, take", [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)])
def test_mcts_takes_the_only_winning_move_of_nim(stones, take):
    # Up to 10 stones the win lies deeper than the default budget looks: a bigger one.
    game = nim(stones)
    for seed in range(3):
        state = game.new_state(seed)
        agent = make_agents("mcts:iterations=400:rollout=50", 2, seed)[0]
        action = agent.choose(game, state, game.legal_actions(state))
        assert game.action_text(state, action) == f"take {take}", (stones, seed)


def test_mcts_beats_random_at_nim_from_either_seat():
    game = nim(15)
    wins = 0
    for seed in range(20):
        mcts = seed % 2
        spec = ",".join("mcts:iterations=200" if s == mcts else "random" for s in range(2))
        _, state = play(game, spec, seed)
        wins += game.returns(state)[mcts] == 1
    assert wins >= 18


# ----- worlds the rules cannot play --------------------------------------------------------
@pytest.mark.parametrize("agent", [MctsAgent(1, 0, iterations=30, rollout=5), GreedyAgent(1, 0)])
def test_a_drawn_world_the_rules_fault_on_is_dropped(agent):
    # b's die is hidden from a and a has none: every world drawn for a has a die of 0 sides,
    # on which the rules fault. The agent still chooses; the real game is played as ever.
    game = load_game(os.path.join(RULES, "hidden_die.gdl"))
    state = game.new_state(1)
    with pytest.raises(GdlError, match="0 sides"):
        game.apply(determinize(game, state, 0, Stream(1)), game.legal_actions(state)[0])
    legal = game.legal_actions(state)
    assert agent.choose(game, state, legal) in legal
    game.apply(state, legal[0])
    assert game.is_terminal(state)


def test_a_drawn_world_the_rules_leave_stuck_is_dropped():
    """Hearts: a world drawn for a seat may deal another seat no card it may lead or follow
    with, so the rules leave it without a legal action. Such a world says nothing of the
    real one (the agent was asked, so the real position has legal actions): mcts drops it,
    in its descent and in its rollouts, as it drops one the rules fault on. A whole game of
    four mcts seats is played (it stopped on an IndexError before)."""
    from gdl.interpreter.play.balance import batch
    game = load_game(os.path.join(ROOT, "games", "classic", "hearts.gdl"), "python")
    settings = batch.RunSettings(spec="mcts", seed=1, max_turns=1000)
    record = batch.play_one(game, 1, settings)
    assert record.decisions > 52 and not record.capped


# ----- the view only ------------------------------------------------------------------------
def positions(game, seed, count):
    """Positions of a random game where the seat to decide has two choices or more."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    found = []
    while not game.is_terminal(state) and len(found) < count and state.decisions < 900:
        legal = game.legal_actions(state)
        if len(legal) > 1 and rng.random() < 0.2:
            found.append(state.clone())
        game.apply(state, rng.choice(legal), check=False)
    return found


def view_twin(game, state, seat, rng):
    """A copy of `state` that `seat` cannot tell from it: in each place (owner, cell, zone)
    the hidden pieces are dealt their identities in another order (on the board or in a
    zone), their variables too kind by kind; hidden variables change; so do the dice to
    come. None when nothing could be changed."""
    other = state.clone()
    other.rng = rng.getrandbits(64)
    places = {}
    for pid in sorted(state.pieces):
        piece = other.pieces[pid]
        if piece["alive"] and introspect.hidden_from(game, state, pid, seat):
            zone = (piece.get("zone") or [None, None])[:2]
            places.setdefault((piece["owner"], piece["cell"], *zone), []).append(piece)
    changed = False
    for (_, cell, zone, _), pieces in places.items():
        if cell is not None or zone is not None:
            identities = [{k: v for k, v in p.items() if k not in KEEP} for p in pieces]
            rng.shuffle(identities)
            for piece, identity in zip(pieces, identities):
                for key in [k for k in piece if k not in KEEP]:
                    del piece[key]
                piece.update(identity)
        for kind in {p["kind"] for p in pieces}:
            same = [p for p in pieces if p["kind"] == kind]
            for name in set(same[0]) - set(KEEP) - {"kind", "label"}:
                values = [p[name] for p in same]
                rng.shuffle(values)
                for piece, value in zip(same, values):
                    changed |= piece[name] != value
                    piece[name] = value
    for scope, owner, name in introspect.hidden_variables(game, state, seat):
        holder = (other.globals if scope == "global" else other.seat_vars[owner]
                  if scope == "seat" else other.pieces[owner])
        value = holder[name]
        holder[name] = (value + 1 if isinstance(value, int) and not isinstance(value, bool)
                        else [] if isinstance(value, list) else value)
        changed |= holder[name] != value
    if not changed or game.view(other, seat) != game.view(state, seat):
        return None
    return other


def other_choices(game, state, seat):
    """Copies of a simultaneous position with the other seats' unrevealed choices changed
    to each choice they had."""
    pending = state.frames[-1]["pending"]
    twins = []
    for other, choice in enumerate(pending):
        if other == seat or choice is None:
            continue
        asking = state.clone()
        asking.frames[-1]["pending"] = [None if s == other else None if s > other else c
                                        for s, c in enumerate(pending)]
        if game.current_player(asking) != other:
            continue
        for index, args in game.legal_actions(asking):
            twin = state.clone()
            twin.frames[-1]["pending"][other] = [index, list(args)]
            twins.append(twin)
    return twins


@pytest.mark.parametrize("name", ["galaxy_of_d.gdl", "game.gdl"])
def test_the_agents_decide_from_the_view_alone(name):
    game = load_game(os.path.join(ROOT, "games", name))
    rng = random.Random(7)
    tried = 0
    for seed in range(3):
        for state in positions(game, seed, 12):
            seat = game.current_player(state)
            twin = view_twin(game, state, seat, rng)
            if twin is None:
                continue
            tried += 1
            legal = game.legal_actions(state)
            assert game.legal_actions(twin) == legal
            assert determinize(game, state, seat, Stream(seed)).to_json() == determinize(
                game, twin, seat, Stream(seed)).to_json()
            for agent in (lambda: MctsAgent(seed, seat, iterations=12, rollout=4),
                          lambda: GreedyAgent(seed, seat)):
                assert agent().choose(game, state, legal) == agent().choose(game, twin, legal), (
                    seed, state.decisions)
    assert tried >= 10, "too few positions hid anything: the test tested little"


def test_another_seats_secret_choice_does_not_change_the_decision():
    game = load_game(os.path.join(ROOT, "games", "galaxy_of_d.gdl"))
    tried = 0
    for seed in range(6):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not introspect.is_simultaneous(game, state):
            game.apply(state, rng.choice(game.legal_actions(state)))
        game.apply(state, rng.choice(game.legal_actions(state)))   # the first seat chooses
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        chosen = MctsAgent(seed, seat, iterations=30, rollout=10).choose(game, state, legal)
        for twin in other_choices(game, state, seat):
            tried += 1
            assert game.view(twin, seat) == game.view(state, seat)
            assert MctsAgent(seed, seat, iterations=30, rollout=10).choose(
                game, twin, legal) == chosen
    assert tried >= 6


# ----- greedy and the score -----------------------------------------------------------------
def test_greedy_plays_toward_the_score():
    game = load_source(source("race.gdl"), "race.gdl")
    for seed in range(3):
        texts, state = play(game, "greedy,random", seed)
        greedy = texts[::2]
        assert greedy[:-1] == ["step 3"] * (len(greedy) - 1)    # then any step that wins
        assert game.returns(state)[0] == 1


def test_without_a_score_greedy_breaks_ties_at_random_and_takes_a_win():
    game = load_source(source("race.gdl").replace("show score(s) = s.points\n", ""), "race.gdl")
    assert introspect.scores(game, game.new_state(0)) is None
    firsts = {play(game, "greedy,random", seed, until=1)[0][0] for seed in range(12)}
    assert len(firsts) > 1
    state = game.new_state(0)
    for text in ["step 3", "step 0", "step 3", "step 0", "step 1", "step 0"]:
        game.apply(state, game.parse_action(state, text))
    assert (state.seat_vars[0]["points"], game.current_player(state)) == (7, 0)
    agent = GreedyAgent(0, 0)
    assert game.action_text(state, agent.choose(game, state, game.legal_actions(state))) == \
        "step 3"


def test_the_score_is_each_seats_number():
    game = load_source(source("race.gdl"), "race.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "step 2"))
    assert introspect.scores(game, state) == [2, 0]


def test_a_score_must_be_a_number():
    text = source("race.gdl").replace("show score(s) = s.points", 'show score(s) = "high"')
    with pytest.raises(GdlError) as caught:
        load_source(text, "race.gdl")
    assert caught.value.message == "type mismatch: 'show score' needs a number, but this is text"
    assert caught.value.line == 10


# ----- the players spec ---------------------------------------------------------------------
def test_parameters_are_read_from_the_spec():
    assert parse_player("mcts") == ("mcts", {})
    assert parse_player("mcts:iterations=200:rollout=0:c=1.4") == (
        "mcts", {"iterations": 200, "rollout": 0, "c": 1.4})
    agents = make_agents("mcts:iterations=7:c=0.5,greedy", 2, 0)
    assert (agents[0].iterations, agents[0].rollout, agents[0].c) == (7, 10, 0.5)
    assert [a.name for a in agents] == ["mcts:iterations=7:c=0.5", "greedy"]


@pytest.mark.parametrize("spec, message", [
    ("mcts:iterations=x", "mcts: iterations must be a whole number of at least 1, not 'x'"),
    ("mcts:iterations=0", "mcts: iterations must be a whole number of at least 1, not '0'"),
    ("mcts:c=-1", "mcts: c must be a number of at least 0.0, not '-1'"),
    ("mcts:c=nan", "mcts: c must be a number of at least 0.0, not 'nan'"),
    ("mcts:depth=3", "mcts: unknown parameter 'depth'; expected iterations, rollout or c"),
    ("mcts:iterations", "mcts: expected iterations=VALUE, not 'iterations'"),
    ("mcts:rollout=1:rollout=2", "mcts: rollout is given twice"),
    ("greedy:x=1", "player type 'greedy' takes no parameters, not 'x=1'"),
    ("mtcs", "unknown player type 'mtcs'; expected human, random, greedy or mcts "
             "(e.g. mcts:iterations=200)"),
    # a word of 100,000 characters was quoted whole: now its first 40
    ("x" * 100_000, f"unknown player type '{'x' * 40}...'; expected human, random, greedy or "
                    "mcts (e.g. mcts:iterations=200)"),
    ("mcts:" + "x" * 100_000 + "=1", f"mcts: unknown parameter '{'x' * 40}...'; expected "
                                     "iterations, rollout or c"),
    ("greedy:" + "x" * 100_000, f"player type 'greedy' takes no parameters, not '{'x' * 40}...'"),
])
def test_a_bad_spec_is_a_clear_message(spec, message):
    with pytest.raises(GdlDataError) as caught:
        make_agents(spec, 2, 0)
    assert caught.value.message == message


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "1", "--workers", "1"], ["record"], ["play"], ["coverage"],
    ["compare", "tests/rules/nim.gdl"]], ids=lambda v: v[0])
def test_a_bad_spec_on_the_command_line_exits_with_the_message(command):
    """The message names the option it is about (it said only 'error: mcts: iterations
    ...', as if of a file), a usage error before anything is loaded."""
    result = subprocess.run(
        [sys.executable, "-m", "gdl.cli.main", command[0], "tests/rules/nim.gdl",
         *command[1:], "--players", "mcts:iterations=x"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--players': mcts: iterations must be a whole number of at "
        "least 1, not 'x'")
    assert "Traceback" not in result.stdout + result.stderr


def test_a_deal_of_alike_values_moves_the_stream_on_as_a_shuffle_would():
    """`Stream.skip(n)` is n draws; a place whose pieces of a kind all hold the same value
    of a variable deals it without shuffling (any order deals the same) and leaves the
    stream where the shuffle would have: the determinization after it is unchanged."""
    from gdl.interpreter.play.agents.determinize import Stream, _Place
    drawn, skipped = Stream(12345), Stream(12345)
    for _ in range(7):
        drawn.next64()
    skipped.skip(7)
    assert drawn.state == skipped.state
    pieces = [{"id": i, "kind": "Token", "label": f"Token#{i}", "owner": None, "cell": 3,
               "alive": True, "hp": 0, "marks": [1, 2], "rank": i} for i in range(1, 6)]
    place = _Place(pieces, True)
    assert place.alike == {("Token", "hp"), ("Token", "marks")}
    state = type("S", (), {})()
    state.pieces = {p["id"]: dict(p) for p in pieces}
    dealt, shuffled = Stream(99), Stream(99)
    place.deal(state, dealt)
    shuffled.shuffle(list(range(5)))                # the identities
    for _name in ("hp", "marks", "rank"):           # each variable, sorted by name
        shuffled.shuffle(list(range(5)))
    assert dealt.state == shuffled.state
    assert all(p["hp"] == 0 and p["marks"] == [1, 2] for p in state.pieces.values())
    assert sorted(p["rank"] for p in state.pieces.values()) == [1, 2, 3, 4, 5]
    marks = [p["marks"] for p in state.pieces.values()]
    assert len({id(m) for m in marks}) == 5         # a list of its own each
    assert not {id(m) for m in marks} & {id(p["marks"]) for p in pieces}
