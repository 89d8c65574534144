"""Hooks on the typed native engine against the Python backend: `on out` and `on concede`
hooks (concessions through `Game.concede` at random points), payoffs, `call ... for each`
rounds, `on enter` and `on resume` blocks that enter or leave phases or call defs, the
bound on phases entered without end, and faults inside hooks at their rule-file place.
The rule files are tests/rules/typed_hooks_*.gdl (also in test_typed.py's COVERED)."""

import os
import random

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.runtime.engine import ENDLESS_PHASES
from gdl.interpreter.runtime.typed import TypedState
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _fault, _same, _typed_game, typed_on  # noqa: F401

RULES = os.path.join(ROOT, "tests", "rules")
needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")


def _games(name):
    path = os.path.join(RULES, f"typed_hooks_{name}.gdl")
    return load_game(path, "python"), _typed_game(path)


def _play_conceding(python, fast, seed, longest=300):
    """A random game from `seed` on both, where now and then a seat still playing concedes
    (`Game.concede`): the same events, state, legal actions and returns after each step."""
    choose = random.Random(seed)
    a, b = python.new_state(seed), fast.new_state(seed)
    assert b.__class__ is TypedState
    for _ in range(longest):
        assert b.clone().to_json() == a.to_json(), f"seed {seed}"
        assert fast.returns(b) == python.returns(a)
        assert fast.current_player(b) == python.current_player(a)
        if python.is_terminal(a):
            assert fast.is_terminal(b)
            return
        if choose.random() < 0.08:
            seat = choose.choice([s for s, out in enumerate(a.out) if not out])
            if _same(lambda: python.concede(a, seat), lambda: fast.concede(b, seat)):
                return
            continue
        if _same(lambda: python.legal_actions(a), lambda: fast.legal_actions(b)):
            return
        legal = python.legal_actions(a)
        if not legal:
            return
        action = legal[choose.randrange(len(legal))]
        if _same(lambda: python.apply(a, action, check=False),
                 lambda: fast.apply(b, action, check=False)):
            return


@needs_tools
def test_concessions_and_out_hooks_play_the_same(typed_on):  # noqa: F811
    python, fast = _games("standing")
    for seed in range(40):
        _play_conceding(python, fast, seed)


@needs_tools
def test_payoffs_are_the_same(typed_on):  # noqa: F811
    python, fast = _games("standing")
    seen = set()
    for seed in range(30):
        a, b = python.new_state(seed), fast.new_state(seed)
        choose = random.Random(seed)
        while not python.is_terminal(a):
            action = choose.choice(python.legal_actions(a))
            python.apply(a, action)
            fast.apply(b, action)
        assert fast.returns(b) == python.returns(a)
        seen.add(tuple(python.returns(a)))
    assert len(seen) > 5           # payoffs of many values, not only +-1


@needs_tools
@pytest.mark.parametrize("action, message, place", [
    ("spin", ENDLESS_PHASES, (46, 5)),                  # `on enter` gotos round and round
    ("bounce", ENDLESS_PHASES, (67, 5)),                # `on resume` calls round and round
    ("crash", "division by zero", (75, 9)),             # inside the `on out` hook
    ("bad_round", "division by zero", (31, 41))])       # the round's where-condition
def test_limits_and_faults_inside_hooks_are_python_s(action, message, place,
                                                      typed_on):  # noqa: F811
    python, fast = _games("limits")
    a, b = python.new_state(0), fast.new_state(0)
    chosen = next(x for x in python.legal_actions(a)
                  if python.action_text(a, x) == action)
    with pytest.raises(GdlRuntimeError) as expected:
        python.apply(a, chosen)
    with pytest.raises(GdlRuntimeError) as found:
        fast.apply(b, chosen)
    assert _fault(found.value) == _fault(expected.value)
    assert (expected.value.line, expected.value.column) == place
    assert message in str(expected.value)


# A payoff that faults, and a round called from setup: rule files written here (a file in
# tests/rules would be played by test_typed.py, whose games stop at neither).
SETUP_ROUND = """
game "Round from setup"
seats a, b
board square(1, 1)
var zero = 0

setup {
  call greet for each s in seats
}

phase greet turn {
  action wave() {
    return
  }
  action leave() {
    win me
  }
}

payoff(s) = if s in winners then 6 / zero else len(winners)
"""


@needs_tools
def test_a_round_from_setup_and_a_payoff_fault_as_on_python(typed_on):  # noqa: F811
    from gdl.interpreter import load_source
    python = load_source(SETUP_ROUND, "round.gdl", "python")
    fast = load_source(SETUP_ROUND, "round.gdl", "native")
    assert fast._typed is not None
    a, b = python.new_state(0), fast.new_state(0)
    assert b.to_json() == a.to_json()
    wave, leave = python.legal_actions(a)
    python.apply(a, wave)
    fast.apply(b, wave)
    assert b.clone().to_json() == a.to_json() and fast.current_player(b) == 1
    assert _same(lambda: python.apply(a.clone(), wave), lambda: fast.apply(b.clone(), wave))
    python.apply(a, leave)
    fast.apply(b, leave)
    assert _same(lambda: python.returns(a), lambda: fast.returns(b))
    with pytest.raises(GdlRuntimeError) as caught:
        fast.returns(b)
    assert (caught.value.line, caught.value.column, "division by zero" in str(caught.value)) \
        == (20, 34, True)
