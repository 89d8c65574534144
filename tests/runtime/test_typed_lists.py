"""List and text variables on the typed native engine (runtime/typed.py, the `lists_`
methods): the rule files exercising each list and text operation and their run-time faults
are played against the Python backend in tests/runtime/test_typed.py (COVERED); here, a
list or text a tool writes is loaded into the core, or (a value no rule gives) left to the
Python engine."""

import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.runtime import typed
from gdl.interpreter.runtime.typed import TypedState, core_of
from tests.helpers import ROOT
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import CLASSIC, _typed_game, needs_tools

RULES = os.path.join(ROOT, "tests", "rules")


@pytest.fixture
def typed_on(shared_cache, monkeypatch):  # noqa: F811 (the fixture above)
    monkeypatch.delenv(typed.ENVIRONMENT, raising=False)


def test_chess_is_inside():
    game = load_game(os.path.join(CLASSIC, "chess.gdl"), "python")
    assert typed.unsupported(game._program) is None


@needs_tools
def test_lists_a_tool_writes_are_loaded(typed_on):
    """The lists and texts of the State fields go into the core (and back out unchanged);
    a value no rule gives (a list of texts where cells belong) leaves the state to the
    Python engine."""
    path = os.path.join(RULES, "typed_lists_ops.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    a, b = python.new_state(0), fast.new_state(0)
    for state, game in ((a, python), (b, fast)):
        game.apply(state, game.legal_actions(state)[4])
        state.globals["marks"] = [0, 8]
        state.globals["title"] = "written"
        state.seat_vars[1]["picks"] = [7, 7]
        state.seat_vars[0]["made"] = ["Stone", "Rock"]
        state.pieces[1]["trail"] = [9]
    assert fast.legal_actions(b) == python.legal_actions(a)
    assert b.__class__ is TypedState and core_of(b) is not None
    action = python.legal_actions(a)[0]
    python.apply(a, action)
    fast.apply(b, action)
    assert b.to_json() == a.to_json()
    b.globals["marks"] = ["a1"]
    assert core_of(b) is None
