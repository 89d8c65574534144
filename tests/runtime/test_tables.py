"""Fns answered from a table (runtime/tables.py): which fns are tabled, and that a tabled
fn gives the same values and counts the same work as running it, faults where it would, and
is read by both backends (the typed engine's arrays too). The two backends' games of the
rule file are compared in test_typed.py (COVERED)."""

import itertools
import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import RuleFault
from gdl.interpreter.language.limits import MAX_WORK
from gdl.interpreter.runtime import codegen, tables
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)

RULES = os.path.join(ROOT, "tests", "rules", "tabled_fns.gdl")
MORRIS = os.path.join(ROOT, "games", "classic", "nine_mens_morris.gdl")


def _every_argument(game, name):
    fn = game._program.fns[name]
    return itertools.product(*(tables.domain(game._program, t) for t in fn.param_types))


def test_the_fns_tabled_read_nothing_of_the_position():
    game = load_game(RULES, "python")
    assert set(tables.tabled(game._program)) == {"linked", "width", "third", "slope", "far"}
    # on the Python backend also a symbol or a direction as a parameter, a list as a result
    assert set(tables.tabled(game._program, typed=False)) == {
        "linked", "width", "third", "slope", "far", "span", "onward", "near"}
    # crowded reads the pieces, mine reads `me`: run as written
    for name in ("crowded", "mine"):
        assert game._module[f"fn_{name}"].__name__ == f"fn_{name}"
    assert tables.tabled(load_game(MORRIS, "python")._program) == {"linked": [50, 50]}


def test_a_tabled_fn_answers_and_counts_as_running_it():
    game = load_game(RULES, "python")
    with codegen.calling_every_fn():        # (a tool tracing what runs: no tables)
        plain = load_game(RULES, "python")
    state, rt, plain_rt = game.new_state(1), game._rt, plain._rt
    for name in tables.tabled(game._program, typed=False):
        tabled, run = game._module[f"fn_{name}"], plain._module[f"fn_{name}"]
        assert tabled is not run and run.__name__ == f"fn_{name}"
        answers = 0
        for args in _every_argument(game, name):
            rt.work = plain_rt.work = 0
            try:
                expected = run(state, 0, *args)
            except Exception as exc:        # faults again, where the fn does (row(none)
                with pytest.raises(type(exc)):      # is a Python error the engine places)
                    tabled(state, 0, *args)
                continue
            assert tabled(state, 0, *args) == expected, (name, args)
            assert rt.work == plain_rt.work, (name, args)
            answers += 1
        assert answers > 1
    third = game._module["fn_third"]
    assert None in {value for value, _ in tables.build(game._program, game._program.fns["third"],
                                                       third.__wrapped__, rt).values()}


def test_a_tabled_list_is_a_new_list_each_time():
    """A list answered from a table is the caller's to change: the next answer is whole."""
    game = load_game(RULES, "python")
    near, state = game._module["fn_near"], game.new_state(1)
    cell = game._program.board.names.index("b2")
    first = near(state, 0, cell)
    assert isinstance(first, list) and len(first) == 7    # king steps, the hole c3 not
    kept = list(first)
    first.clear()
    again = near(state, 0, cell)
    assert again is not first and again == kept


def test_a_tabled_call_past_the_work_limit_faults_as_the_fn():
    game = load_game(RULES, "python")
    width, rt, state = game._module["fn_width"], game._rt, game.new_state(1)
    rt.work = 0
    assert width(state, 0, 0) == 5 and rt.work == 24    # the board's cells, the hole not
    rt.work = MAX_WORK - 3
    with pytest.raises(RuleFault, match="steps"):
        width(state, 0, 0)


def test_slope_faults_for_column_c_only():
    game = load_game(RULES, "python")
    slope = game._module["fn_slope"]
    board = game._program.board
    with pytest.raises(RuleFault, match="zero"):
        slope(game.new_state(1), 0, board.names.index("c1"))
    assert slope(game.new_state(1), 0, board.names.index("a1")) == -6 + 2    # a1 is on two lines


@pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")
def test_the_typed_engine_reads_the_table(shared_cache):  # noqa: F811
    python, fast = load_game(RULES, "python"), load_game(RULES, "native")
    assert fast._typed is not None
    program = fast._program
    entries = tables.build(program, program.fns["linked"], python._module["fn_linked"].__wrapped__,
                           python._rt)
    assert entries
    rows = tables.typed_rows(program, program.fns["linked"], entries)
    state = fast.new_state(3)
    honest = [str(a) for a in fast.legal_actions(state)]
    try:        # every pair linked: the typed engine's listing must follow its table
        fast._typed.fill_tables({"linked": [(k, 1, w) for k, _, w in rows]})
        told = [str(a) for a in fast.legal_actions(fast.new_state(3))]
    finally:
        fast._typed.fill_tables({"linked": rows})
    assert len(told) > len(honest)
    assert [str(a) for a in fast.legal_actions(fast.new_state(3))] == honest


def test_a_table_of_lists_holds_at_most_max_items(monkeypatch):
    """A table's lists hold at most MAX_ITEMS items together (its memory): past that, no
    table, and the fn runs as written."""
    game = load_game(RULES, "python")
    program, near = game._program, game._module["fn_near"].__wrapped__
    entries = tables.build(program, program.fns["near"], near, game._rt)
    held = sum(len(value) for value, _ in entries.values())
    assert held > 10
    monkeypatch.setattr(tables, "MAX_ITEMS", held - 1)
    assert tables.build(program, program.fns["near"], near, game._rt) is None
    monkeypatch.setattr(tables, "MAX_ITEMS", held)
    assert tables.build(program, program.fns["near"], near, game._rt) == entries
