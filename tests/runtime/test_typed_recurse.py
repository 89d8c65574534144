"""Fns and defs that call themselves on the typed native engine against the Python backend:
calls that end (a def removing a chain of pieces through another def, fns counting down,
a block fn walking a list, fns calling each other), a recursion without end (gdl's limit of
200 calls deep, limits.MAX_DEPTH: the same fault at the same place, on every Python version)
and one that calls itself too many times (the work limit). The rule file is tests/rules/typed_recurse_defs.gdl (also in
test_typed.py's COVERED)."""

import json
import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.runtime import typed
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _fault, _typed_game, typed_on  # noqa: F401

RULES = os.path.join(ROOT, "tests", "rules")
needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")

ENDLESS = """game "R"
seats a, b
board square(2, 2)
var total = 0
setup {
  goto play for a
}
UNITS
phase play turn {
  action go() {
    ACTION
  }
}
"""

# (units, the action's body): each calls itself without end, faulting at the unit that
# would run its 201st call
CASES = [
    ("def f(n) {\n  f(n + 1)\n}", "f(1)"),
    ("def f(n) {\n  let m = n + 1\n  total += m\n  f(m)\n}", "f(1)"),
    ("def f(n) {\n  if n > 0 {\n    total += 1\n  }\n  f(n + 1)\n}", "f(1)"),
    ("def f(n) {\n  log text(n) + \"x\"\n  f(n + 1)\n}", "f(1)"),
    ("fn h(n) = 1 + h(n + 1)", "total = h(1)"),
    ("fn h(n) {\n  let k = n + 1\n  return h(k) + 1\n}", "total = h(1)"),
    ("def f(n) {\n  total += 1\n  g(n)\n}\ndef g(n) {\n  f(n + 1)\n}", "f(1)"),
]


def _applied(game):
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as caught:
        game.apply(state, game.legal_actions(state)[0])
    return _fault(caught.value), state.to_json()


@needs_tools
@pytest.mark.parametrize("units, action", CASES)
def test_a_recursion_without_end_is_python_s_fault(typed_on, units, action):  # noqa: F811
    """The same words at the same place, after as many calls (the state when it stopped)."""
    source = ENDLESS.replace("UNITS", units).replace("ACTION", action)
    python, fast = load_source(source, "r.gdl", "python"), load_source(source, "r.gdl", "native")
    assert fast._typed is not None
    expected, found = _applied(python), _applied(fast)
    assert found == expected
    assert "calls itself without end" in expected[0][3] and "200 calls deep" in expected[0][3]


@needs_tools
def test_a_recursion_without_end_in_a_listing_is_python_s_fault(typed_on):  # noqa: F811
    """Where Python's own recursion limit made the typed engine stop a level or two apart
    (a listing, an `on enter` block), the depth count is the same on both."""
    source = ENDLESS.replace("UNITS", "fn h(n) = 1 + h(n + 1)").replace(
        "action go() {", "action go() where h(1) > 0 {").replace("ACTION", "total += 1")
    found = []
    for backend in ("python", "native"):
        game = load_source(source, "r.gdl", backend)
        state = game.new_state(0)
        with pytest.raises(GdlRuntimeError) as caught:
            game.legal_actions(state)
        found.append(_fault(caught.value))
    assert found[0] == found[1] and "('h' is 200 calls deep)" in found[0][3]


@needs_tools
def test_too_many_calls_are_python_s_work_fault(typed_on):  # noqa: F811
    path = os.path.join(RULES, "typed_recurse_defs.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    found = []
    for game in (python, fast):
        state = game.new_state(0)
        for text in ("count 5", "blow"):
            actions = game.legal_actions(state)
            action = actions[[game.action_text(state, a) for a in actions].index(text)]
            if text == "blow":
                with pytest.raises(GdlRuntimeError) as caught:
                    game.apply(state, action)
                found.append(_fault(caught.value))
            else:
                game.apply(state, action)
    assert found[1] == found[0]
    assert found[0][:3] == (path, 69, 1) and "more than 10,000,000 steps" in found[0][3]


def test_a_fn_giving_a_list_that_calls_itself_stays_outside():
    source = ENDLESS.replace("UNITS", "fn upto(n) = if n > 0 then upto(n - 1) + [n] else []") \
        .replace("ACTION", "total = len(upto(3))")
    game = load_source(source, "r.gdl", "python")
    assert typed.unsupported(game._program) == (
        "r.gdl:8:1: a fn giving a list that calls itself ('upto') is outside the typed subset")


ENTERS = """game "T"
seats a, b
board square(3, 3)
kinds (symbol) {
  Stone = "o"
}
var total = 0
var last = 0
setup {
  create Stone for a at @a1
  goto play for a
}
UNITS
on enter(p, c) {
  total += 1
  if total < last {
    MOVE
  }
}
phase play turn {
  action go(k in [0, 1]) {
    last = RUNS + k
    move first(p in pieces()) along [@b1]
    goto play for next(me)
  }
}
"""


ENTERS_WITHOUT_END = "a move inside an 'on enter' rule runs 'on enter' rules without end"


@needs_tools
@pytest.mark.parametrize("units, move, runs, said", [
    ("", "move p along [c]", 200, f"{ENTERS_WITHOUT_END} (200 deep)"),
    # the def is a level too (it calls itself through the trigger): runs at depths 0, 2, ...
    ("def hop(q, d) {\n  move q along [d]\n}", "hop(p, c)", 100,
     f"{ENTERS_WITHOUT_END} (200 deep)"),
    ("def hop(q, d) {\n  if total > 0 {\n    hop2(q, d)\n  }\n}\n"
     "def hop2(q, d) {\n  move q along [d]\n}", "hop(p, c)", 67,
     "a fn or def calls itself without end ('hop2' is 200 calls deep)")])
def test_on_enter_rules_without_end_are_one_fault_on_both(typed_on, units, move, runs,  # noqa: F811
                                                          said):
    """A move inside an `on enter` rule that enters cells whose `on enter` rules move
    again ran until Python's recursion limit (a place that differs between Python
    versions) and overflowed the C stack of the typed engine (a crash). Now each run of
    a trigger, and each call of a def it calls that moves again, is a level of the depth
    count of fns calling themselves: `runs` triggers one inside the next play, one more
    faults at the unit past 200 levels, the same on both."""
    source = ENTERS.replace("UNITS", units).replace("MOVE", move).replace("RUNS", str(runs))
    games = [load_source(source, "t.gdl", backend) for backend in ("python", "native")]
    assert games[1]._typed is not None
    for k, fault in ((0, False), (1, True)):    # `runs` triggers may run, then one more
        found = []
        for game in games:
            state = game.new_state(0)
            action = game.legal_actions(state)[k]
            if fault:
                with pytest.raises(GdlRuntimeError) as caught:
                    game.apply(state, action)
                found.append((_fault(caught.value), state.to_json()))
                continue
            game.apply(state, action)
            found.append(state.to_json())
        assert found[1] == found[0]
        if fault:
            (path, line, column, message), _ = found[0]
            place = "on enter(p, c) {" if "'on enter'" in said else "def hop2(q, d) {"
            assert (line, column) == (source.splitlines().index(place) + 1, 1)
            assert said in message
        else:
            assert json.loads(found[0])["globals"]["total"] == runs
