"""A seat learns nothing through any tool: pairs of positions that differ only in what a
seat may not see give that seat identical output from every channel.

First the cases that leaked (issue 20): `gdl explain --seat` played a trial past a reveal
(Galaxy of D's rock-paper-scissors, Galaxy Grid's dice placing) or through another seat's
secret purchases, and counted another seat's secret decisions ("after 6 decisions"), and a
seat's replay page had a step per secret decision.

Then the generic differential test, on every shipped game that hides anything (found from
its rules, `rules.hidden_information`) and on tests/rules/sides.gdl (a fence `show side`
draws for one seat only). Pairs are made two ways:

- a secret run: from a position where another seat is to make a private decision (a
  `secret` or `simultaneous` phase), that seat's private decisions are played by two
  random agents with different seeds until the run ends; the two positions are a pair when
  the seat's views agree (a reveal may end the run: then they are no pair);
- a determinization (`Determinizer`): the same position with what the seat may not see
  drawn again (hidden pieces swapped, hidden values changed, pending choices chosen again).

For each pair the channels compared are: the view (JSON), the drawn view, the legal texts
and their count, explain's heading, `--legal` and every legal action (bounded), typed
probes naming hidden pieces (their errors), and for secret runs the replay page for the
seat (its steps, status, log and board: the narration as the seat is shown it). GDL_LEAKS
sets how many random games per game file (default 1: about a second a file, up to 3 pairs
of each kind a game); `-s` prints the pairs run and the differences found, GDL_LEAKS_SHOW=N
the first N differences.
"""

import glob
import json
import os
import random

import pytest

from gdl.interpreter.language.errors import IllegalAction
from gdl.interpreter.loader import load_game
from gdl.interpreter.play.agents.determinize import Determinizer, Stream
from gdl.interpreter.play.debug import explain
from gdl.interpreter.play.render.replay_page import collect
from gdl.interpreter.play.transcript import Transcript
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.view import render

from tests.helpers import ROOT, gdl

GOD = "games/galaxy_of_d.gdl"
GOD_GOLDEN = "tests/golden/galaxy_of_d_seed1.txt"
GRID_2 = "games/galaxy_grid_2.gdl"
GAMES_RUN = int(os.environ.get("GDL_LEAKS", "1"))
MOST_EXPLAINED = 4      # legal actions explained per position
MOST_DECISIONS = 80     # how far a random game goes before pairs are taken
MOST_PAIRS = 3          # pairs of each kind taken per game


def _moves(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def _golden_moves(last):
    """The decisions 1..last of Galaxy of D's golden transcript, as moves lines."""
    lines = [line for line in open(os.path.join(ROOT, GOD_GOLDEN), encoding="utf-8")
             if line[:1].isdigit()]
    return [line.split(") ", 1)[1].rstrip("\n") for line in lines[:last]]


def _explained(rules, moves, *words):
    result = gdl("explain", rules, "--moves", moves, "--seat", *words)
    assert result.returncode == 0, result.stderr
    return result.stdout


# ----- the cases that leaked ----------------------------------------------------------------
def test_explaining_the_last_throw_does_not_reveal_the_others(tmp_path):
    told = {throw: _explained(GOD, _moves(tmp_path, throw, [f"throw {throw}"]), "two",
                              "throw", "paper") for throw in ("rock", "scissors")}
    assert told["rock"] == told["scissors"]
    assert "reveal: two throw paper" in told["rock"]
    assert "one throw" not in told["rock"] and "first_player" not in told["rock"]


def test_explaining_a_dice_placing_does_not_reveal_the_others(tmp_path):
    game = load_game(os.path.join(ROOT, GRID_2))
    state = game.new_state(0)
    texts = [game.action_text(state, a) for a in game.legal_actions(state)]
    told = []
    for i, first in enumerate(texts[:3]):
        state = game.new_state(0)
        game.apply(state, game.legal_actions(state)[i])
        mine = game.action_text(state, game.legal_actions(state)[0], 1)
        told.append(_explained(GRID_2, _moves(tmp_path, f"m{i}", [first]), game.seats[1],
                               *mine.split()))
        assert f"{game.seats[0]} place" not in told[-1]
    assert told[0] == told[1] == told[2]


@pytest.mark.parametrize("words", [("done",), ("--legal",), ("buy", "Freighter")])
def test_another_seats_secret_purchases_are_not_told(tmp_path, words):
    start = _golden_moves(13)       # one is to buy its starting ships, in secret
    many = _moves(tmp_path, "many", start + ["buy Interceptor", "buy Bomber",
                                             "buy Scavenger", "done"])
    none = _moves(tmp_path, "none", start + ["done"])
    told = _explained(GOD, many, "two", *words)
    assert told == _explained(GOD, none, "two", *words)
    assert "one money" not in told and "one:Interceptor" not in told
    assert "after 14 decisions" in told       # one's secret run is one decision to two


def test_plain_output_read_by_two_people_tells_neither_the_others_secret_moves():
    # Two people at one piped game of hidden information read the same lines: the moves
    # and history are what every seat may see, never where a secret mark went.
    result = gdl("play", "games/classic/phantom_ttt.gdl", "--players", "human,human",
                 "--seed", "3", stdin="mark b2\nmark a1\nhistory\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("x: chooses in secret") == 2 and out.count("o: chooses in secret") == 2
    assert "mark b2" not in out.replace("5. mark b2", "") and "Mark#1 created" not in out
    # each seat's own board, printed before it decides, is still its own view
    assert "x: Mark#1 b2" in out


def test_a_seats_replay_page_has_one_step_for_another_seats_secret_run(tmp_path):
    page = tmp_path / "two.html"
    result = gdl("replay", GOD_GOLDEN, "--html", str(page), "--seat", "two")
    assert result.returncode == 0, result.stderr
    texts = _page_data(page.read_text(encoding="utf-8"))["texts"]
    assert "14. one: chooses in secret" in texts and "15. two: buy Freighter" in texts
    assert [t for t in texts if t.endswith("one: chooses in secret")] == [
        "1. one: chooses in secret", "3. one: chooses in secret",
        "5. one: chooses in secret", "7. one: chooses in secret",
        "14. one: chooses in secret"]


def _page_data(html):
    start = html.index('{"steps":')
    return json.JSONDecoder().raw_decode(html[start:])[0]


# ----- the differential test ----------------------------------------------------------------
def _delta(a, b):
    """The first lines where two outputs differ (for the report)."""
    a, b = [str(x).split("\n") if not isinstance(x, list) else x for x in (a, b)]
    pairs = [(x, y) for x, y in zip(a, b) if x != y] or [(a[len(b):], b[len(a):])]
    return str(pairs[:2])[:600]


def _hiding_games():
    paths = sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl"))
                   + glob.glob(os.path.join(ROOT, "games", "classic", "*.gdl")))
    return [os.path.relpath(p, ROOT) for p in paths
            if load_game(p).rules.hidden_information]


# and a fence that only one seat sees, drawn between cells (`show side`) for it alone; its
# games are short, and the first pair for the seat that does not see the fence is in game 2
HIDING = _hiding_games() + ["tests/rules/sides.gdl"]
GAMES_AT_LEAST = {"tests/rules/sides.gdl": 4}


def test_the_differential_test_covers_the_games_that_hide():
    assert {"games/galaxy_of_d.gdl", "games/galaxy_grid.gdl", "games/game.gdl",
            "games/galaxy_aflame.gdl", "games/classic/phantom_ttt.gdl"} <= set(HIDING)
    assert "games/space_war.gdl" not in HIDING


@pytest.mark.parametrize("rules", HIDING)
def test_a_seat_gets_the_same_from_every_channel_for_positions_it_cannot_tell_apart(
        rules, tmp_path):
    game = load_game(os.path.join(ROOT, rules), "python")
    differences = []
    pairs = runs = 0
    games = max(GAMES_RUN, GAMES_AT_LEAST.get(rules, 0))
    for seed in range(games):
        for a, b, seat in _pairs(game, seed):
            pairs += 1
            runs += isinstance(b, Line)
            differences += _differences(game, rules, a, b, seat, tmp_path)
    print(f"\n{rules}: {games} games, {pairs} pairs ({runs} secret runs), "
          f"{len(differences)} differences")
    for difference in differences[:int(os.environ.get("GDL_LEAKS_SHOW", "0"))]:
        print(*difference[:3], _delta(difference[3], difference[4]))
    assert pairs > 0
    assert differences == []


class Line:
    """A position as the moves that reach it (full texts) from a seed."""

    def __init__(self, seed, moves):
        self.seed, self.moves = seed, list(moves)

    def state(self, game):
        state = game.new_state(self.seed)
        for text in self.moves:
            legal = game.legal_actions(state)
            game.apply(state, next(a for a in legal if game.action_text(state, a) == text))
        return state


def _pairs(game, seed):
    """(a, b, seat): pairs of positions (Lines, or states for a determinization) that seat
    may not tell apart."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    moves, found, runs = [], [], 0
    while not game.is_terminal(state) and len(moves) < MOST_DECISIONS:
        decider = game.current_player(state)
        if introspect.is_private(game, state):
            for seat in range(len(game.seats)):
                if seat != decider and runs < MOST_PAIRS and rng.random() < 0.4:
                    pair = _secret_runs(game, seed, moves, decider, seat, rng)
                    if pair is not None:
                        found.append(pair)
                        runs += 1
        if rng.random() < 0.1 and len(found) - runs < MOST_PAIRS:
            found.append((Line(seed, moves), _determinized(game, state, decider, rng), decider))
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        moves.append(game.action_text(state, action))
        game.apply(state, action)
    return found


def _secret_runs(game, seed, moves, runner, seat, rng):
    """Two lines from `moves` on in which `runner` plays its run of private decisions with
    two random agents, when `seat`'s views of them agree."""
    ends = []
    for stream in (rng.randrange(1 << 30), rng.randrange(1 << 30)):
        agent = random.Random(stream)
        line = Line(seed, moves)
        state = line.state(game)
        while (not game.is_terminal(state) and introspect.is_private(game, state)
               and game.current_player(state) == runner):
            legal = game.legal_actions(state)
            action = legal[agent.randrange(len(legal))]
            line.moves.append(game.action_text(state, action))
            game.apply(state, action)
        ends.append((line, state))
    (a, first), (b, second) = ends
    if a.moves == b.moves or game.view(first, seat) != game.view(second, seat):
        return None
    return a, b, seat


def _determinized(game, state, seat, rng):
    return Determinizer(game, state, seat).sample(Stream(rng.randrange(1 << 30)))


def _differences(game, rules, a, b, seat, tmp_path):
    state = a.state(game)
    probes = []
    if not game.is_terminal(state) and game.current_player(state) == seat:
        probes = _probes(game, state, game.legal_actions(state), seat)
    told = [_channels(game, rules, x, seat, tmp_path, a, probes) for x in (a, b)]
    both = told[0].keys() & told[1].keys()
    names = sorted((told[0].keys() | told[1].keys()) - ({"page"} - both))
    return [(rules, seat, name, told[0].get(name), told[1].get(name)) for name in names
            if told[0].get(name) != told[1].get(name)]


def _channels(game, rules, position, seat, tmp_path, other, probes):
    """Everything `seat` is told of `position` (a Line, or a state made from the Line
    `other`), by channel; `probes`: texts to type that name pieces hidden from it."""
    if isinstance(position, Line):
        path = _moves(tmp_path, "moves", position.moves)
        _, state, where = explain.position(os.path.join(ROOT, rules), position.seed, path,
                                           seat=game.seats[seat])
    else:
        state = position
        _, _, where = explain.position(os.path.join(ROOT, rules), other.seed,
                                       _moves(tmp_path, "moves", other.moves),
                                       seat=game.seats[seat])
    view = game.view(state, seat)
    told = {"view": json.dumps(view, sort_keys=True), "drawn": render(game, view),
            "heading": explain.heading(game, state, where),
            "legal": explain.legal_lines(game, state, seat)}
    if not game.is_terminal(state) and game.current_player(state) == seat:
        legal = game.legal_actions(state)
        texts = [game.action_text(state, action, seat) for action in legal]
        told["texts"] = texts
        told["explain"] = [explain.explain(game, state, text, seat)
                           for text in texts[:MOST_EXPLAINED]]
    told["probes"] = [_probe(game, state, text, seat) for text in probes]
    if isinstance(position, Line):
        told["page"] = _page(game, position, seat)
    return told


def _probes(game, state, legal, seat):
    """Action texts that name pieces hidden from `seat` by their labels (as the full view
    reads them), in a canonical order: a seat typing them must get the answer it gets for
    a label of no piece."""
    texts = {game.action_text(state, action) for action in legal} - {
        game.action_text(state, action, seat) for action in legal}
    return sorted(texts)[:3]


def _probe(game, state, text, seat):
    try:
        return explain.explain(game, state, text, seat)
    except IllegalAction as exc:
        return exc.message


def _page(game, line, seat):
    """The replay page's data for `seat` (steps, status, log, board) of the line's game."""
    transcript = Transcript("moves", {"seed": line.seed}, [])
    moves = list(enumerate(line.moves, 1))
    data, frame = collect(game, transcript, moves, [seat])
    return json.dumps(data, sort_keys=True) + frame
