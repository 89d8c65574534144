"""Numbers and true/false that are none on the typed native engine and on the Python
backend (tests/rules/typed_none.gdl, whose random games test_typed's COVERED plays too):
each action of the file computes with a none, and both engines fault with the same words
at the same place, or keep the same values. The language's rules: a built-in given none
faults at the call (`plural() cannot work with a value that is none`, never `None ships`);
both operands of arithmetic or an order are computed before the none in one faults (a
division by zero on the right comes first); `and` and `or` give true or false, none
counting as false; a value of min_of, max_of or a key of sorted that is none faults at the
quantifier, even alone; total() of a list holding none faults; both bounds of range() are
computed before a none in one faults."""

import functools
import json
import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlRuntimeError
from tests.helpers import ROOT
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _fault, _typed_game, needs_tools, typed_on  # noqa: F401

PATH = os.path.join(ROOT, "tests", "rules", "typed_none.gdl")
# the file's actions, in order
ACTIONS = ["plural_count", "plural_given", "add_divided", "times_modulo", "less_divided",
           "minus_abs", "max_of_sum", "min_divided", "kept_and", "kept_or", "greatest",
           "least", "sorted_by", "sorted_list", "summed", "range_divided", "range_looped",
           "range_last", "range_kept"]


@functools.cache
def _games():
    return load_game(PATH, "python"), _typed_game(PATH)


def _outcomes(action):
    """(Python's, the typed engine's) outcome of `action` from the start: its fault
    (file, line, column, text) or the variables it leaves."""
    found = []
    for game in _games():
        state = game.new_state(0)
        move = (ACTIONS.index(action), ())
        assert game.action_text(state, move).startswith(action)
        try:
            game.apply(state, move)
        except GdlRuntimeError as exc:
            found.append(_fault(exc))
            continue
        found.append(json.loads(state.to_json())["globals"])
    return found


def _faults_alike(action, message):
    python, fast = _outcomes(action)
    assert fast == python, action
    assert isinstance(python, tuple) and f"run-time error: {message}\n" in python[3], python


@needs_tools
@pytest.mark.parametrize("action", ["plural_count", "plural_given"])
def test_plural_of_none_faults_at_the_call(action, typed_on):
    _faults_alike(action, "plural() cannot work with a value that is none")


@needs_tools
@pytest.mark.parametrize("actions, messages", [
    (["add_divided", "times_modulo", "less_divided"],
     ["division by zero", "modulo by zero", "division by zero"]),
    (["minus_abs"], ["abs() cannot work with a value that is none"]),
    (["max_of_sum", "min_divided"], ["'n + 1' uses a value that is none", "division by zero"])])
def test_both_operands_are_computed_before_a_none_faults(actions, messages, typed_on):
    """`n + 7 / m` with n none and m zero: the division faults (Python computes both
    operands first), as it does in min() and max(), whose arguments are computed in order."""
    for action, message in zip(actions, messages):
        _faults_alike(action, message)


@needs_tools
def test_and_or_of_none_give_false(typed_on):
    for action, note in (("kept_and", ""), ("kept_or", "false true")):
        python, fast = _outcomes(action)
        assert fast == python and python["other"] is False and python["note"] == note


@needs_tools
@pytest.mark.parametrize("action, message", [
    ("greatest", "'max_of(x in [n]: x)' uses a value that is none"),
    ("least", "'min_of(x in values where x > 2: n)' uses a value that is none"),
    ("sorted_by", "'sorted(x in [1]: n)' uses a value that is none"),
    ("sorted_list", "'sorted(x in xs: x)' uses a value that is none"),
    ("summed", "total() cannot work with a value that is none")])
def test_a_quantifier_or_total_of_none_faults(action, message, typed_on):
    """A lone none in min_of, max_of or sorted faults as two would; total() of a list
    holding none too (the typed engine summed its marker)."""
    _faults_alike(action, message)


@needs_tools
@pytest.mark.parametrize("action, message", [
    ("range_divided", "division by zero"), ("range_looped", "division by zero"),
    ("range_last", "range() cannot work with a value that is none")])
def test_both_bounds_of_a_range_are_computed_before_a_none_faults(action, message, typed_on):
    """`range(n, 7 / m)` with n none and m zero: the division faults, in a list or a loop;
    a none upper bound faults as range()'s."""
    _faults_alike(action, message)


@needs_tools
def test_a_range_of_numbers_read_where_none_may_be_is_the_same(typed_on):
    python, fast = _outcomes("range_kept")
    assert fast == python and python["xs"] == [2, 3] and python["note"] == "23"
