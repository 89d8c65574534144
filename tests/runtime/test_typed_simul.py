"""Simultaneous phases on the typed native engine against the Python backend: who is to
choose, each seat's legal actions, the choices held until the last live seat has chosen,
the `reveal` events and the choices played in seat order, then `on reveal`; every seat's
view of the others' pending choices (hidden until the reveal); concessions while choices
are pending; a state whose pending choices a tool wrote; one-call random playouts. The rule
files are tests/rules/typed_simul_*.gdl (also in test_typed.py's COVERED)."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.play.balance import batch
from gdl.interpreter.runtime import typed
from gdl.interpreter.runtime.typed import TypedState
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _same, _typed_game, typed_on  # noqa: F401
from tests.runtime.test_typed_chance import _play_alike
from tests.runtime.test_typed_hooks import _play_conceding
from tests.runtime.test_typed_playout import _records

needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")
PHASE = os.path.join(ROOT, "tests", "rules", "typed_simul_phase.gdl")
# rule file -> random games whose every view is compared (Galaxy Grid's are ~250 decisions)
VIEWED = {"tests/rules/typed_simul_placements.gdl": 6, "games/galaxy_grid.gdl": 2}


def _games(path=PHASE):
    return load_game(path, "python"), _typed_game(path)


@needs_tools
def test_every_seat_s_view_of_the_pending_choices_is_python_s(typed_on):  # noqa: F811
    python, fast = _games()
    for seed in range(12):
        _play_alike(python, fast, seed, python.new_state(seed), fast.new_state(seed))


@needs_tools
@pytest.mark.parametrize("path", sorted(VIEWED))
def test_every_seat_s_view_of_placed_dice_is_python_s(path, typed_on):  # noqa: F811
    python, fast = _games(os.path.join(ROOT, path))
    for seed in range(VIEWED[path]):
        _play_alike(python, fast, seed, python.new_state(seed), fast.new_state(seed),
                    longest=400)


@needs_tools
def test_a_choice_stays_hidden_until_every_seat_has_chosen(typed_on):  # noqa: F811
    python, fast = _games()
    for game in (python, fast):
        state = game.new_state(0)
        game.apply(state, (0, (1, "high")), check=False)
        assert game.current_player(state) == 1 and not state.events
        views = [game.view(state, s) for s in range(3)]
        assert [v["chosen"] for v in views] == [{"a": "bid 1 high", "b": "no", "c": "no"},
                                                {"a": "yes", "b": "no", "c": "no"},
                                                {"a": "yes", "b": "no", "c": "no"}]
        assert "bid 1 high" not in str(views[1]) + str(views[2])
        game.apply(state, (0, (0, "low")), check=False)
        game.apply(state, (0, (1, "low")), check=False)
        assert [e.to_json() for e in state.events] == [
            ["reveal", 0, "bid 1 high"], ["reveal", 1, "bid 0 low"], ["reveal", 2, "bid 1 low"]]


@needs_tools
def test_concessions_while_choices_are_pending_play_the_same(typed_on):  # noqa: F811
    python, fast = _games()
    for seed in range(30):
        _play_conceding(python, fast, seed)


@needs_tools
def test_pending_choices_a_tool_wrote_are_loaded(typed_on):  # noqa: F811
    """A state read by a tool (its frames written from the core, pending choices and all)
    loads a core again; a choice the core cannot hold leaves the state to Python."""
    python, fast = _games()
    a, b = python.new_state(3), fast.new_state(3)
    for game, state in ((python, a), (fast, b)):
        game.apply(state, (0, (1, "high")), check=False)
    assert b.frames[-1]["pending"] == [[0, [1, "high"]], None, None]
    assert typed.core_of(b) is not None
    _play_alike(python, fast, 3, a, b, views=False, longest=40)
    for wrong in ([0, [1, "middle"]], [7, []], [0, [1]], (0, [1, "low"]), [2, [5]]):
        state = fast.new_state(3)
        state.frames[-1]["pending"][0] = wrong
        assert typed.core_of(state) is None, wrong
    state = fast.new_state(3)
    state.frames[-1]["pending"] = None
    assert typed.core_of(state) is None


@needs_tools
def test_a_random_playout_is_the_loop_s_game(typed_on, monkeypatch):  # noqa: F811
    python, fast = _games()
    settings = batch.RunSettings(spec="random", seed=0, max_turns=1000, max_decisions=300)
    records, calls = _records(fast, settings, range(10), True, monkeypatch)
    assert calls and all(calls)
    assert records == _records(fast, settings, range(10), False, monkeypatch)[0]
    assert records == _records(python, settings, range(10), True, monkeypatch)[0]


def test_a_clone_keeps_its_own_choices(typed_on):  # noqa: F811
    fast = _typed_game(PHASE)
    state = fast.new_state(0)
    other = state.clone()
    fast.apply(state, (0, (1, "high")), check=False)
    assert fast.current_player(state) == 1 and fast.current_player(other) == 0
    assert other.__class__ is TypedState and other.frames[-1]["pending"] == [None] * 3


def test_a_placement_read_from_what_no_action_gave_is_outside():
    source = """game "t"
seats a, b
symbols Move
var seat.dice = [1, 2]
var n = 0
setup {
  goto play for a
}
fn first_way() = first(p in placements(a.dice, [Move]))
phase play turn {
  action go() {
    n = len(placed(first_way(), Move))
  }
}
"""
    found = typed.unsupported(load_source(source, "t.gdl", "python")._program)
    assert found == ("t.gdl:12:13: 'placed(first_way(), Move)' of what is not an action's "
                     "placement is outside the typed subset")


@needs_tools
def test_nth_at_a_loop_variable_changed_in_the_loop_faults_as_on_python(typed_on):  # noqa: F811
    source = """game "t"
seats a, b
param xs = [1, 2]
var big = 0
setup {
  for k in range(1, 2) {
    k = 3
    big += nth(xs, k)
  }
  goto play for a
}
phase play turn {
  action f() {
    big = 1
  }
}
"""
    # simul's `nth()` at a loop's variable trusts only a variable the loop leaves alone;
    # small's numbers that may be none take the rest: none faults where Python's does
    python, fast = load_source(source, "t.gdl", "python"), load_source(source, "t.gdl", "native")
    assert typed.unsupported(python._program) is None and fast._typed is not None
    assert _same(lambda: python.new_state(0), lambda: fast.new_state(0))
    inside = source.replace("    k = 3\n", "")
    assert typed.unsupported(load_source(inside, "t.gdl", "python")._program) is None


@needs_tools
def test_placements_a_later_binder_ranges_over_are_made_once_as_on_python(typed_on):  # noqa: F811
    source = """game "t"
seats a, b
board square(3, 3)
symbols u, v
kinds (symbol) {
  K = "k"
}
setup {
  create K for a at @a1
  create K for a at @b2
  goto play for a
}
phase play turn {
  action go(c in cells(), d in placements([1, 2], [u, v])) where len(pieces_at(c)) > 0 {
    goto play for next(me)
  }
}
"""
    # the second binder's domain reads no earlier one: Python's listing makes it once (and
    # counts its ways once), the typed engine made it again for each cell with a piece
    python, fast = load_source(source, "t.gdl", "python"), load_source(source, "t.gdl", "native")
    a, b = python.new_state(0), fast.new_state(0)
    assert fast.legal_actions(b) == python.legal_actions(a)
    assert (b._core or typed.core_of(b)).work == python._rt.work == 81
