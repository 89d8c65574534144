"""The typed engine's constructs Galaxy Aflame brought inside (runtime/typed.py, the
`aflame_` methods) against the Python backend: rays of a computed length (walked step by
step, as on a board whose rays are too many for a table: Galaxy Aflame's), `within()` and
`distance()` on boards of more than 256 cells (a table, a square board of four directions,
a hex board, each with holes) and `plural()`. Each rule file is played from many seeds under both
engines, every seat's view compared after every decision (test_typed_hidden
`_compare_seats`); their faults are Python's, at the same place. test_typed's COVERED plays
them and the Galaxy Aflame files too (without the views per seat)."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.runtime import typed
from tests.helpers import ROOT
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _same, _typed_game, needs_tools, typed_on  # noqa: F401
from tests.runtime.test_typed_hidden import _compare_seats

# rule file -> random games whose every seat's view is compared
VIEWED = {"tests/rules/typed_aflame_rays.gdl": 15, "tests/rules/typed_aflame_within.gdl": 4,
          "tests/rules/typed_aflame_within_hex.gdl": 2,
          "tests/rules/typed_aflame_within_square.gdl": 2,
          "tests/rules/typed_aflame_plural.gdl": 5}


@needs_tools
@pytest.mark.parametrize("path", sorted(VIEWED))
def test_every_seat_s_view_is_python_s(path, typed_on):
    python, fast = load_game(os.path.join(ROOT, path), "python"), _typed_game(
        os.path.join(ROOT, path))
    for seed in range(VIEWED[path]):
        _compare_seats(python, fast, seed)


FAULTY = """game "Faults"
seats a, b
board table(20, 16)
var spot = @a1
var way = north
var n = 0

setup {
  goto play for a
}

phase play {
ACTIONS}
"""
ACTION = """  action fault_K() {
    spot = none
    way = none
    n = STATEMENT
  }
"""
NONE = "cannot work with a value that is none"


# each given a cell or direction that is none (the board has more than 256 cells)
STATEMENTS = ["len(ray(spot, north, n + 2))", "len([c for c in ray(@a1, way, n + 2)])",
              "len(ray(@a1, way, 3))", "column(step(@a1, way))", "len(within(spot, 2))",
              "distance(spot, @a1)", "distance(@b2, spot)", "distance(spot, spot)"]


@needs_tools
def test_a_fault_is_python_s(typed_on):
    """A cell or direction that is none given to ray(), step(), within() or distance()
    faults as on Python: the same message at the same place."""
    actions = "".join(ACTION.replace("K", str(k)).replace("STATEMENT", statement)
                      for k, statement in enumerate(STATEMENTS))
    source = FAULTY.replace("ACTIONS", actions)
    python, fast = load_source(source, "f.gdl", "python"), load_source(source, "f.gdl", "native")
    assert typed.unsupported(python._program) is None and fast._typed is not None
    for k, statement in enumerate(STATEMENTS):
        a, b = python.new_state(0), fast.new_state(0)
        assert _same(lambda: python.apply(a, python.legal_actions(a)[k]),
                     lambda: fast.apply(b, fast.legal_actions(b)[k]))
        with pytest.raises(GdlRuntimeError) as caught:
            python.apply(a, python.legal_actions(a)[k])
        name = next(n for n in ("ray", "step", "within", "distance") if f"{n}(" in statement)
        assert f"{name}() {NONE}" in str(caught.value), statement
