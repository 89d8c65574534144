"""The typed native engine (runtime/typed.py) against the Python backend: the classic games
inside its subset played under both from the same seeds, decision by decision with random
choices, give the same state JSON, legal actions and texts in order, events, current player
and returns; a state a tool reads (its dictionaries) plays on typed; a file outside the
subset names its first construct outside and runs as before.

The typed engine is on by default with the native backend. Its modules are built once per
run into the cache folder the native backend's test shares with the xdist workers
(`shared_cache`), with -O0."""

import glob
import os
import random

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlError, GdlRuntimeError
from gdl.interpreter.runtime import introspect, native, typed
from gdl.interpreter.runtime.typed import TypedState
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)

CLASSIC = os.path.join(ROOT, "games", "classic")
# game -> random games played under both engines
# (a path from games/classic without .gdl: a test rule file is "../../tests/rules/NAME")
COVERED = {"tic_tac_toe": 300, "connect_four": 200, "breakthrough": 60, "dots_and_boxes": 300,
           "hex": 30,
           "../../tests/rules/invariants": 20,
           "checkers": 50, "clobber": 200, "nine_mens_morris": 40, "othello": 25,
           "../../tests/rules/typed_control_flow": 200, "../../tests/rules/typed_control_limits": 6,
           "../../tests/rules/by_cell": 20, "../../tests/rules/by_cell_stack": 20,
           "../../tests/rules/typed_hoist_texts": 20,
           "../../tests/rules/nim_stones": 50, "../../tests/rules/no_action": 50,
           "../../tests/rules/race": 50, "../../tests/rules/stack": 50,
           "../../tests/rules/typed_values_othello": 40, "../../tests/rules/end_values": 100,
           "../../tests/rules/typed_values_space": 150, "../../tests/rules/coverage": 20,
           "../space_war": 100, "../space_war_big": 30, "chess": 15,
           "../../tests/rules/typed_kept_actions": 6,
           "../../tests/rules/crowning": 30, "../../tests/rules/regressions": 30, "go": 8,
           "../../tests/rules/connected": 30, "../../tests/rules/walk": 15,
           "../../tests/rules/typed_connected_cells": 40,
           "../../tests/rules/typed_connected_nested": 30,
           "../../tests/rules/typed_owned_lists": 40, "../../tests/rules/typed_ray_slices": 40,
           "../../tests/rules/typed_in_order": 8, "../../tests/rules/typed_in_texts": 8,
           "../../tests/rules/typed_lists_ops": 150, "../../tests/rules/typed_lists_faults": 80,
           "oware": 25, "../../tests/rules/fn_block": 30, "../../tests/rules/ask": 50,
           "pig": 150, "liars_dice": 300, "../../tests/rules/typed_chance_dice": 150,
           "../../tests/rules/decision_counter": 100,
           "../../tests/rules/hidden_die": 50, "../../tests/rules/nim": 50,
           "../../tests/rules/no_board": 100, "../../tests/rules/secret": 30,
           "../../tests/rules/typed_chance_secret": 100, "../../tests/rules/peek": 15,
           "../../tests/rules/typed_hooks_standing": 40, "../../tests/rules/typed_hooks_round": 60,
           "../../tests/rules/typed_hooks_limits": 12, "../../tests/rules/standing": 30,
           "../../tests/rules/standing2": 30, "../../tests/rules/standing3": 30,
           "../../tests/rules/typed_hooks_zones": 60, "../../tests/rules/typed_hooks_hands": 60,
           "../../tests/rules/payoff": 50, "../../tests/rules/seat_order": 50,
           "phantom_ttt": 100, "../../tests/rules/typed_hidden_hide": 60,
           "../../tests/rules/typed_hidden_sight": 60, "../../tests/rules/sight": 40,
           "../../tests/rules/typed_geo_stops": 30, "../../tests/rules/holes": 40,
           "../../tests/rules/narration": 40, "../../tests/rules/shapes": 10,
           "../../tests/rules/typed_hidden_kind_stat": 60,
           "../../tests/rules/typed_hidden_numbers": 60, "../../tests/rules/pools": 60,
           "../../tests/rules/typed_hidden_pick": 60, "../../tests/rules/zones": 40,
           "hearts": 30, "../../tests/rules/typed_small_kinds": 100,
           "../../tests/rules/typed_small_shuffle": 100, "../../tests/rules/dice": 50,
           "../../tests/rules/look": 50, "kuhn_poker": 200,
           "leduc_poker": 200, "../../tests/rules/typed_small_nones": 200,
           "quoridor": 12, "tablut": 20, "amazons": 6, "einstein": 100, "pentago": 30,
           "lines_of_action": 10, "battleship": 20,
           "../../tests/rules/typed_simul_phase": 40,
           "../../tests/rules/typed_simul_placements": 30,
           "../../tests/rules/typed_simul_later": 60,
           "../../tests/rules/typed_simul_board": 30, "../galaxy_grid": 6, "../galaxy_grid_2": 3,
           "../galaxy_grid_3": 3, "../galaxy_grid_house": 3, "../../tests/rules/auto": 40,
           "../game": 3, "../galaxy_of_d": 4, "../galaxy_of_d_quick": 4, "goofspiel": 60,
           "../../tests/rules/typed_recurse_defs": 15, "backgammon": 10,
           "../../tests/rules/directions": 20, "../../tests/rules/typed_aflame_rays": 30,
           "../../tests/rules/hands": 10,
           "../../tests/rules/typed_aflame_within": 12,
           "../../tests/rules/typed_aflame_within_hex": 4,
           "../../tests/rules/typed_aflame_within_square": 4,
           "../../tests/rules/typed_aflame_plural": 10, "../galaxy_aflame": 4,
           "../galaxy_aflame_iron": 3, "../galaxy_aflame_line_iron": 3,
           "../galaxy_aflame_suppression": 3, "../../tests/rules/typed_none": 4,
           "../../tests/rules/sides": 10, "../../tests/rules/typed_kept_nested": 30,
           "../../tests/rules/cell_at": 30, "../../tests/rules/typed_kept_args": 20,
           "../../tests/rules/typed_repeat_args": 20,
           "../../tests/rules/typed_members_literal": 20,
           "../../tests/rules/typed_members_range": 30,
           "../../tests/rules/typed_none_args": 30, "../../tests/rules/typed_kept_nth": 20,
           "../../tests/rules/typed_kept_fn_args": 20, "../../tests/rules/tabled_fns": 30,
           "../../tests/rules/actions_limit": 1, "../../tests/rules/sight_labels": 30,
           "../../tests/rules/typed_nth_held": 60, "../../tests/rules/typed_fn_lists": 60,
           "../../tests/rules/serve_kept_race": 10}
LONGEST = 400       # decisions of one compared game (a game without end stops there)
needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")


@pytest.fixture
def typed_on(shared_cache, monkeypatch):  # noqa: F811 (the fixture above)
    monkeypatch.delenv(typed.ENVIRONMENT, raising=False)     # on by default


def _typed_game(path):
    game = load_game(path, "native")
    assert native.backend_of(game) == "native" and game._typed is not None
    return game


def _fault(error):
    return error.file, error.line, error.column, str(error)


def _same(expected, found):
    """`expected()` and `found()` give the same, or raise the same run-time error (then
    True: the game stops there)."""
    try:
        value = expected()
    except GdlRuntimeError as exc:
        with pytest.raises(GdlRuntimeError) as caught:
            found()
        assert _fault(caught.value) == _fault(exc)
        return True
    assert found() == value
    return False


def _same_work(python, b, where):
    """The work the last listing or decision counted (limits.MAX_WORK) is the same on both,
    so a rule file near the limit faults on both or on neither."""
    core = b._core or typed.core_of(b)
    assert core.work == python._rt.work, f"work counted, {where}"


def _compare(python, fast, seed):
    """Play one random game from `seed` on both, checking everything a decision shows
    (the work counted too); a run-time error must be the same error at the same place
    (the game ends there)."""
    choose = random.Random(seed)
    if _same(lambda: python.new_state(seed).to_json(), lambda: fast.new_state(seed).to_json()):
        return
    a, b = python.new_state(seed), fast.new_state(seed)
    assert b.__class__ is TypedState
    decisions = 0
    while True:
        # a clone's dictionaries: the state itself stays on the typed core
        assert b.clone().to_json() == a.to_json(), f"seed {seed} decision {decisions}"
        if _same(lambda: python.legal_actions(a), lambda: fast.legal_actions(b)):
            return
        _same_work(python, b, f"listing, seed {seed} decision {decisions}")
        legal = python.legal_actions(a)
        assert fast.current_player(b) == python.current_player(a)
        assert fast.is_terminal(b) == python.is_terminal(a)
        if _same(lambda: python.returns(a), lambda: fast.returns(b)):   # (a payoff's fault)
            return
        if not legal or decisions == LONGEST:
            break
        if choose.random() < 0.1:       # a tool reads the state itself: texts, views
            assert [fast.action_text(b, x) for x in legal] == \
                [python.action_text(a, x) for x in legal]
            assert fast.view(b, None) == python.view(a, None)
        action = legal[choose.randrange(len(legal))]
        if _same(lambda: python.apply(a, action, check=False),
                 lambda: fast.apply(b, action, check=False)):
            return
        _same_work(python, b, f"seed {seed} decision {decisions}")
        decisions += 1
    assert b.to_json() == a.to_json()


@needs_tools
@pytest.mark.parametrize("name", sorted(COVERED))
def test_typed_and_python_play_the_same_games(name, typed_on):
    path = os.path.join(CLASSIC, f"{name}.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    for seed in range(COVERED[name]):
        _compare(python, fast, seed)


def test_unsupported_names_the_first_construct_outside():
    path = os.path.join(ROOT, "tests", "rules", "hex_board.gdl")
    assert typed.unsupported(load_game(path, "python")._program) == (
        f"{path}:37:16: the built-in clear_line() is outside the typed subset")


@needs_tools
def test_compile_names_every_construct_outside_at_once():
    """`gdl compile --backend native` names every construct outside the subset, each unit
    on its own (`typed.outside_all`), the first as `unsupported` says it: a designer
    fixed them one run at a time."""
    path = os.path.join(ROOT, "tests", "rules", "timer.gdl")
    game = load_game(path, "python")
    said = [f"{path}:{line}:5: an assignment 'until turn of' (a timer) is outside the typed "
            "subset" for line in (15, 18, 22)]
    assert typed.outside_all(game._program) == said
    assert typed.unsupported(game._program) == said[0]
    head = introspect.native_source(game).splitlines()[:3]
    assert head == [f"# {path} runs on the native backend, untyped ({said[0]})",
                    f"# also {said[1]}", f"# also {said[2]}"]


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "tests", "rules",
                                                               "*.gdl"))))
def test_every_construct_outside_starts_with_the_first(path):
    try:
        program = load_game(path, "python")._program
    except GdlError:
        return
    outside = typed.outside_all(program)
    assert (outside[0] if outside else None) == typed.unsupported(program)


def test_every_rule_file_inside_the_subset_is_played_against_python_here():
    """A rule file the typed engine would play (a shipped game, a classic one, a test rule
    file) is in COVERED, so its games are compared with the Python backend's; and every
    file in COVERED is one it would play."""
    import glob
    inside = []
    for path in sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl"))
                       + glob.glob(os.path.join(CLASSIC, "*.gdl"))
                       + glob.glob(os.path.join(ROOT, "tests", "rules", "*.gdl"))):
        try:
            game = load_game(path, "python")
        except Exception:           # test files that are meant to fail
            continue
        if typed.unsupported(game._program) is None:
            inside.append(os.path.relpath(path, CLASSIC).removesuffix(".gdl"))
    assert sorted(inside) == sorted(COVERED)


@pytest.mark.parametrize("name,what", [
    ("timer", "an assignment 'until turn of' (a timer)"),
])
def test_constructs_the_typed_engine_leaves_to_python(name, what):
    game = load_game(os.path.join(ROOT, "tests", "rules", f"{name}.gdl"), "python")
    found = typed.unsupported(game._program)
    assert found is not None and what in found, found


@needs_tools
def test_a_file_outside_the_subset_runs_as_before(typed_on):
    path = os.path.join(ROOT, "tests", "rules", "timer.gdl")
    python, compiled = load_game(path, "python"), load_game(path, "native")
    assert compiled._typed is None and native.backend_of(compiled) == "native"
    state, other = python.new_state(3), compiled.new_state(3)
    assert other.__class__ is not TypedState
    choose = random.Random(3)
    for _ in range(20):
        legal = python.legal_actions(state)
        assert compiled.legal_actions(other) == legal
        action = legal[choose.randrange(len(legal))]
        python.apply(state, action)
        compiled.apply(other, action)
        assert other.to_json() == state.to_json()


@needs_tools
def test_a_state_changed_by_a_tool_plays_on(typed_on):
    """A tool that changes the dictionaries (a scenario moving a piece) is seen by the typed
    engine: the next decision loads the core from them."""
    path = os.path.join(CLASSIC, "tic_tac_toe.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    a, b = python.new_state(0), fast.new_state(0)
    for state, game in ((a, python), (b, fast)):
        game.apply(state, (0, (4,)))
        state.pieces[1]["cell"] = 0         # the mark moves from b2 to a1
        state.rebuild_index()
    assert fast.legal_actions(b) == python.legal_actions(a)
    assert fast.apply(b, (0, (4,))) == python.apply(a, (0, (4,)))
    assert b.to_json() == a.to_json()


@needs_tools
def test_a_typed_file_builds_its_typed_module_only(typed_on, monkeypatch):
    """On the native backend a file inside the subset builds one module, the typed one: its
    generated module stays Python and plays the positions the typed core cannot hold (here
    a number a tool wrote where true/false belongs), the Python backend's games. With the
    typed engine off, the generated module is the one compiled."""
    import types
    python = load_source(VARIABLES, "variables.gdl", "python")
    fast = load_source(VARIABLES, "variables.gdl", "native")
    assert fast._typed is not None and native.backend_of(fast) == "native"
    assert all(fn.__class__ is types.FunctionType for fn in fast._functions.values())
    a, b = python.new_state(1), fast.new_state(1)
    for state in (a, b):
        state.globals["flag"] = 0
    assert typed.core_of(b) is None         # the Python engine plays it
    choose, played = random.Random(1), 0
    while legal := python.legal_actions(a):
        assert fast.legal_actions(b) == legal
        action = legal[choose.randrange(len(legal))]
        assert fast.apply(b, action) == python.apply(a, action)
        assert b.to_json() == a.to_json()
        played += 1
    assert played > 2 and fast.is_terminal(b)
    monkeypatch.setenv(typed.ENVIRONMENT, "0")
    compiled = load_source(VARIABLES, "variables.gdl", "native")
    assert compiled._typed is None and native.backend_of(compiled) == "native"
    assert not any(fn.__class__ is types.FunctionType for fn in compiled._functions.values())


VARIABLES = """game "t"
seats a, b
board square(3, 3)
kinds (symbol) {
  Mark = "#"
  Dot = "."
}
var total = 0
var last = none
var flag = false
var mix = 0
var seat.score = 0
var seat.best = none
var piece.n = 2
setup {
  create Dot for none at @b2
  goto play for a
}
phase play turn {
  action mark(c in cells()) where len(pieces_at(c)) == 0 and not flag {
    create Mark for me at c
    total += 1
    mix = (mix * 3 - column(c) * 5) % 7 + (mix - 4) / 3 - -row(c)
    last = c
    me.score += row(c)
    me.best = c
    for p in pieces_at(c) {
      p.n -= column(c)
    }
    bump(last(pieces_at(c)), [e for e in orthogonal(c) where len(pieces_at(e)) > 0])
    if total == 7 { flag = true }
    goto play for next(me)
  }
  action take(p in pieces()) where p.n > 0 and p.owner != me and last != none {
    remove p
    me.score -= p.n
    goto play for next(me)
  }
}
end {
  win when score(me) > 5
  draw when flag
}
fn score(s) = s.score
fn near(c, cs) = c in cs or len(cs) > 2
def bump(p, cs) {
  if near(p.cell, cs) { p.n += 1 }
}
"""


@needs_tools
def test_variables_play_the_same_games(typed_on):
    """Global, seat and piece variables of numbers, true/false, cells and seats: read,
    assigned with =, += and -=, kept in the fields of a state a tool reads; arithmetic
    (floor division and modulo of negative numbers as on Python)."""
    python = load_source(VARIABLES, "variables.gdl", "python")
    fast = load_source(VARIABLES, "variables.gdl", "native")
    assert fast._typed is not None
    for seed in range(100):
        _compare(python, fast, seed)


VARIABLE_FAULTS = """game "t"
seats a, b
board square(3, 3)
kinds (symbol, power) {
  Mark = "#", 3
}
var big = 1
var spot = none
var here = @a1
var seat.score = 0
var piece.n = 0
symbols Up, Down, Left
setup {
  goto play for a
}
phase play turn {
ACTIONS}
fn long(n) {
  let t = "x"
  for i in range(1, n) {
    t = t + t
  }
  return t
}
fn pc(c) = first(q in pieces_at(c))
fn pn(c) = first(q in pieces_at(c)).n
fn sc(s) = s.score
fn six(n) = n + n + n + n + n + n
def twice(x) {
  let y = x + x
  big = y
  x = 1
}
"""
FAULT_BODIES = [
    "big += 999999999999999999\n    big += 999999999999999999",
    "big -= 999999999999999999\n    big -= 999999999999999999",
    "let p = first(q in pieces_at(c))\n    p.n = 3",
    "let p = first(q in pieces_at(c))\n    p.n += 3",
    "let p = first(q in pieces_at(c))\n    big = p.n",
    "let p = first(q in pieces_at(c))\n    big = row(p.cell)",
    "big = first(q in pieces_at(c)).n",
    "big = pc(c).n",
    "big = pn(c)",
    "create Mark for none at c\n    let s = first(p in pieces_at(c)).owner\n    big = s.score",
    "create Mark for none at c\n    let s = first(p in pieces_at(c)).owner\n    s.score = 2",
    "create Mark for none at c\n    let s = first(p in pieces_at(c)).owner\n    s.score += 2",
    "create Mark for none at c\n    big = first(p in pieces_at(c)).owner.score",
    "create Mark for none at c\n    big = sc(first(p in pieces_at(c)).owner)",
    "big = 7 / (big - 1)",
    "big = 7 % (big - 1)",
    "big = 2000000000\n    big = big * big",
    "big = 3000000000\n    big = -big * big",
    "big = 900000000000000000\n    big = big + big",
    "give first(q in pieces_at(c)) to me",
    "spot = here\n    spot = none\n    big = 7 / (big - 1)",
    "for e in line(c, spot) {\n      big += 1\n    }",
    "big = len(line(spot, c))",
    "big = len(line(spot, spot)) + 7 / (big - 1)",
    "big = max_of(e in line(c, @c3): 7 / (row(e) - 3))",
    "big = min_of(e in line(@a1, c): 7 / (row(e) - 1)) + 7 / (big - 1)",
    "create Mark for none at c\n    give first(q in pieces_at(c)) to me\n    big = sum(s in "
    "all_seats: len(pieces(s))) + 7 / (big - 1)",
    "move first(q in pieces_at(c)) along line(c, @c3)",
    "for e in reach(spot, 2, [@a1]) {\n      big += 1\n    }",
    "big = len(sight(spot, 2, [@a1]))",
    "big = len(reach(c, big - 3, [@a1])) + len(sight(c, 9, [@a1])) + 7 / (big - 1)",
    "for e in reach(spot, 2, [c, spot]) {\n      big += 1\n    }",
    "big = len(sight(spot, big, [p.cell for p in pieces()]))",
    "big = len(reach(spot, 2, [q.cell for q in pieces_at(c)] + "
    "[first(q in pieces_at(c)).cell]))",
    "big = len(reach(c, big - 3, [spot, c])) + len(sight(c, 9, [spot])) + 7 / (big - 1)",
    "log text(c) + text(spot) + text(big) + text(me)\n    big = 7 / (big - 1)",
    "big = 7 / len(row_cells(9))",
    "big = if alive(first(q in pieces_at(c))) then 1 else 2",
    "big = if c in [@a1, @b2] then 7 / (big - 1) else 7 / (big - 1)",
    "big = first(q in pieces_at(c)).power",
    "let p = first(q in pieces_at(c))\n    big = p.power + 1",
    "let p = first(q in pieces_at(c))\n    big = if alive(p) then 1 else 2",
    # sums past limits.MAX_SUM (2^62 - 1), kept numbers past MAX_NUMBER (magnitude.py)
    "big = 900000000000000000\n    log text(big + big + big + big + big + big)",
    "big = 900000000000000000\n    big = (big + big + big + big + big + big) / 10",
    "big = 900000000000000000\n    big = big * 6 / 10",
    "big = 900000000000000000\n    big = total([big, big, big, big, big, big]) / 10",
    "big = 900000000000000000\n    big = sum(s in [1, 2, 3, 4, 5, 6]: big) / 10",
    "big = 900000000000000000\n    big = total([big, big, big])",
    "big = 1000000000000000000\n    let a = big * 4\n    big = total([a, -a, a, a])",
    "big = 1000000000000000000\n    let a = big * 4\n    big = total([-a, a, -a]) / 1000\n"
    "    big = 7 / (big - big)",
    "let t = 900000000000000000\n    big = t + t + t + t + t + t",
    "big = six(900000000000000000)",
    "big = 1000000000000000000\n    let a = big * 4\n    big = sum(i in range(1, 4): "
    "if i < 3 then a else 7 / (big - big))",
    "for i in range(1, 3) {\n      big = i * 900000000000000000 * 2\n    }",
    "big = 1000000000000000000\n    twice(big * 4)",
    "big = 1000000000000000000\n    big = count(y in connected(x in [1]: if x < big + big + "
    "big + big then [x + x] else []))",
    "let r = roll(1000000000000000000, 10000)\n    big = r / 10000",
    # work: a long list scanned by `in`, ranges and joins made in a loop, a range too long
    "let r = range(1, big * 999999)\n    big = count(i in range(1, 5000) where i in r)",
    "for i in range(1, 200) {\n      big += len(range(i, 100000))\n    }",
    "let r = range(1, big * 500000)\n    for i in range(1, 100) {\n      big = len(r + r)\n    }",
    "big = if 3 in range(1, big * 10000000) then 1 else 2",
    # work: lists read or copied whole by a built-in or a comparison, in a loop
    "let r = range(1, big * 1000000)\n    for i in range(1, 20) {\n"
    "      big = total(r) / 1000000000\n    }",
    "let r = range(1, big * 1000000)\n    for i in range(1, 20) {\n      big = len(reversed(r))\n"
    "    }",
    "let r = range(1, big * 1000000)\n    for i in range(1, 20) {\n"
    "      big = len(take(r, 999990))\n    }",
    "let r = range(1, big * 1000000)\n    for i in range(1, 20) {\n      big = len(unique(r))\n"
    "    }",
    "let r = range(1, big * 1000000)\n    let s = range(1, big * 1000000)\n"
    "    for i in range(1, 20) {\n      big = if r == s then 1 else 0\n    }",
    "let r = range(1, big * 1000000)\n    big = count(i in range(1, 20) where r in [r, [1]])",
    "for i in range(1, 20) {\n"
    "      big = len(join([\"\" for j in range(1, 1000000)], \"\"))\n    }",
    "big = len(text([\"\" for i in range(1, 1000000)]))",
    # work: a loop left early counts its whole domain, a comprehension all of its tests
    "for i in range(1, 20) {\n"
    "      big = if exists(j in range(1, 1000000) where j > 0) then 1 else 0\n    }",
    "for i in range(1, 20) {\n      big = if exists(j in [k for k in range(1, 1000000)] "
    "where j > 0) then 1 else 0\n    }",
    "for i in range(1, 20) {\n      big = if 1 in [k for k in range(1, 1000000)] "
    "then 1 else 0\n    }",
    # work: long texts made, written and compared in a loop (limits.TEXT_STEP), the ways
    # placements() tries
    "let t = long(16)\n    for i in range(1, 20000) {\n      big = len(t + \"y\")\n    }",
    "let t = long(16)\n    let u = long(16)\n    for i in range(1, 20000) {\n"
    "      big = if t == u then 1 else 0\n    }",
    "let t = long(16)\n    big = count(i in range(1, 20000) where t in [t, \"y\"])",
    "let t = long(16)\n    for i in range(1, 20000) {\n      big = len(text([t]))\n    }",
    "let t = long(16)\n    for i in range(1, 20000) {\n      big = len(join([t], \",\"))\n"
    "    }",
    "let t = long(16)\n    for i in range(1, 20000) {\n      big = len(plural(2, t))\n    }",
    "let t = long(16)\n    for i in range(1, 20000) {\n"
    "      big = if [t] == [t] then 1 else 0\n    }",
    "let t = long(16)\n    for i in range(1, 20000) {\n      big = len(unique([t, t]))\n"
    "    }",
    "let t = long(16)\n    big = count(i in range(1, 20000) where [t] in [[t], []])",
    "for i in range(1, 100) {\n      for p in placements([1, 2, 3, 4, 5, 6, 7, 8, 9], "
    "[Up, Down, Left]) {\n        big += 1\n      }\n    }",
    # work: statements that leave an event (limits.EVENT_WORK), in loops
    "for i in range(1, 1000) {\n      for j in range(1, 1000) {\n        log \"x\"\n      }\n"
    "    }",
    "for i in range(1, 1000) {\n      for j in range(1, 1000) {\n"
    "        spot = pick([@a1, @b2, @c3])\n      }\n    }",
    "for i in range(1, 1000) {\n      for j in range(1, 1000) {\n"
    "        big = len(shuffled([1, 2, 3]))\n      }\n    }",
    "create Mark for none at c\n    let p = first(q in pieces_at(c))\n"
    "    for i in range(1, 1000) {\n      for j in range(1, 1000) {\n        place p at @a1\n"
    "      }\n    }",
    "create Mark for none at c\n    let p = first(q in pieces_at(c))\n"
    "    for i in range(1, 1000) {\n      for j in range(1, 1000) {\n        give p to me\n"
    "      }\n    }",
]


@needs_tools
def test_a_variable_fault_is_python_s(typed_on):
    """Each action faults (a number grown too big, a variable of no piece or seat, a line,
    reach or sight from none, a give, move, kinds column or alive() of no piece, a division
    by zero after a log or an end-of-values computation): the typed engine names the same
    place with the same words."""
    source = VARIABLE_FAULTS.replace("ACTIONS", "".join(
        f"  action f{k}(c in cells()) where len(pieces_at(c)) == 0 {{\n    {body}\n  }}\n"
        for k, body in enumerate(FAULT_BODIES)))
    python = load_source(source, "faults.gdl", "python")
    fast = load_source(source, "faults.gdl", "native")
    assert fast._typed is not None
    for k in range(len(FAULT_BODIES)):
        found = []
        for game in (python, fast):
            state = game.new_state(0)
            with pytest.raises(GdlRuntimeError) as caught:
                game.apply(state, (k, (0,)))
            found.append((caught.value.line, caught.value.column, str(caught.value)))
        assert found[1] == found[0], FAULT_BODIES[k]


FAULTY = """game "t"
seats a, b
board square(3, 3)
kinds (symbol) {
  Mark = "#"
}
setup {
  goto play for a
}
phase play turn {
  action mark(c in cells()) where len(pieces_at(c)) == 0 {
    place first(p in pieces_at(c)) at c
  }
}
"""


@needs_tools
def test_a_fault_names_its_place(typed_on):
    python, fast = load_source(FAULTY, "faulty.gdl", "python"), load_source(
        FAULTY, "faulty.gdl", "native")
    assert fast._typed is not None
    found = []
    for game in (python, fast):
        state = game.new_state(0)
        with pytest.raises(GdlRuntimeError) as caught:
            game.apply(state, (0, (0,)))
        found.append((caught.value.line, str(caught.value).splitlines()[0]))
    assert found[1] == found[0]


@needs_tools
def test_the_same_rules_at_other_paths_are_one_module_whose_faults_name_each_file(
        typed_on, tmp_path):
    """The typed module holds no path (its places name files by number): the same rules
    read from another folder under another name are the same Cython text, so one build and
    one cache entry serve both; loaded from both in one process, each game's faults still
    name its own file."""
    paths = [tmp_path / "a" / "faulty.gdl", tmp_path / "b" / "renamed.gdl"]
    for path in paths:
        path.parent.mkdir()
        path.write_text(FAULTY)
    games = [load_game(str(path), "native") for path in paths]
    assert all(game._typed is not None for game in games)
    assert typed.generate(games[0]._program) == typed.generate(games[1]._program)
    for path, game in zip(paths, games):
        with pytest.raises(GdlRuntimeError) as caught:
            game.apply(game.new_state(0), (0, (0,)))
        assert caught.value.file == str(path) and caught.value.line == 12
    with pytest.raises(GdlRuntimeError) as caught:      # the first game, after the second
        games[0].apply(games[0].new_state(0), (0, (0,)))
    assert caught.value.file == str(paths[0])


@needs_tools
def test_gdl_typed_0_turns_it_off(shared_cache, monkeypatch):  # noqa: F811
    monkeypatch.setenv(typed.ENVIRONMENT, "0")
    game = load_game(os.path.join(CLASSIC, "tic_tac_toe.gdl"), "native")
    assert native.backend_of(game) == "native" and game._typed is None
    assert game.new_state(0).__class__ is not TypedState


def test_the_python_backend_never_plays_typed(monkeypatch):
    monkeypatch.setenv(typed.ENVIRONMENT, "1")
    game = load_game(os.path.join(CLASSIC, "tic_tac_toe.gdl"), "python")
    assert game._typed is None and game.new_state(0).__class__ is not TypedState


@needs_tools
def test_a_search_never_writes_the_dictionaries(typed_on, monkeypatch):
    """mcts clones, sets each determinization's random state, lists and applies: all on the
    core, so a search converts nothing (a conversion costs more than a decision)."""
    from gdl.interpreter.play.agents.search import MctsAgent
    written = []
    original = typed._materialise
    monkeypatch.setattr(typed, "_materialise",
                        lambda state: (written.append(1), original(state)))
    game = _typed_game(os.path.join(CLASSIC, "tic_tac_toe.gdl"))
    state = game.new_state(1)
    choice = MctsAgent(1, 0, iterations=50).choose(game, state, game.legal_actions(state))
    assert choice in game.legal_actions(state) and not written
    state.rng = 7                   # the rng is set on the core too
    assert not written and state.rng == 7


@needs_tools
def test_mutants_of_the_covered_games_play_alike_on_both_engines():
    """benchmarks/typed_fuzz.py, a few mutants (the long run takes hundreds): each one the
    checker accepts and the subset holds is played typed and on Python, decision by
    decision, faults included; a crash of the compiled code counts as a failure."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "typed_fuzz.py"),
                           "--mutants", "4", "--games", "5"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    last = done.stdout.splitlines()[-1]
    assert " same" in last, last         # some mutants were built and played


@needs_tools
@pytest.mark.parametrize("action, message", [
    (0, "phase 'spin' played more than 10,000 actions on its own ('auto') after one decision"),
    (1, "phase 'stuck' ran 'on no action' more than 10,000 times after one decision"),
    (2, "'return' from the only phase left: 'return' ends a phase entered with 'call'; use "
        "'goto' to move on"),
])
def test_a_control_flow_limit_is_python_s_fault(typed_on, action, message):
    """The bound of an `auto` phase and of `on no action` blocks after one decision, and a
    `return` with no phase to go back to: the same error at the same place."""
    path = os.path.join(ROOT, "tests", "rules", "typed_control_limits.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    found = []
    for game in (python, fast):
        state = game.new_state(0)
        with pytest.raises(GdlRuntimeError) as caught:
            game.apply(state, game.legal_actions(state)[action])
        found.append(_fault(caught.value))
    assert found[1] == found[0] and message in found[0][3]


@needs_tools
def test_a_by_cell_clash_is_python_s_fault(typed_on):
    """Two pieces written `by cell` on one cell: listing the actions that read alike is a
    run-time error at the binder, on both engines."""
    path = os.path.join(ROOT, "tests", "rules", "by_cell_stack.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    found = []
    for game in (python, fast):
        state = game.new_state(0)
        game.apply(state, (0, (1, 1)))          # a's pawn a1 onto b1
        game.apply(state, (0, (3, 5)))          # b's pawn a2 to b2
        with pytest.raises(GdlRuntimeError) as caught:
            game.legal_actions(state)
        found.append(_fault(caught.value) + (caught.value.hints,))
    assert found[1] == found[0] and "two legal actions read 'step b1 c1'" in found[0][3]
