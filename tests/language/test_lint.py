"""`gdl check --strict`: what is only likely wrong (interpreter/language/lint.py), as
warnings on the command line and in the language server."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language import lint
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.loader import check_source

from tests.helpers import invoke

HEAD = """seats a, b
board square(4, 4)
kinds (symbol) {
  Man = "m"
}
setup {
  create Man for a at @a1
  goto play for a
}
"""


def warned(body: str) -> list[tuple[int, str]]:
    """(line, first words) of each warning of a rule file made of HEAD and `body`."""
    found = lint.warnings(check_source(HEAD + body, "t.gdl"))
    return [(w.node.span.line, w.message.split(",")[0]) for w in found]


@pytest.mark.parametrize("call", [
    f"{name}({', '.join('none' if i == at else arg for i, arg in enumerate(args))})"
    for name, args in [("step", ["@a1", "north"]), ("ray", ["@a1", "north", "2"]),
                       ("distance", ["@a1", "@b2"]), ("line", ["@a1", "@b2"]),
                       ("neighbors", ["@a1"]), ("orthogonal", ["@a1"]), ("row", ["@a1"]),
                       ("column", ["@a1"]), ("exits", ["@a1"]), ("turn", ["north", "1"])]
    for at in lint.NONE_FAULTS[name]])
def test_each_builtin_the_linter_names_faults_on_none_at_run_time(call):
    """The linter's table says which arguments fault on none: each does, when it runs."""
    game = load_source(HEAD + "var x = 0\nphase play {\n  action go() {\n"
                       f"    x = len(text({call}))\n    goto play for next(me)\n  }}\n}}\n",
                       "t.gdl")
    with pytest.raises(GdlRuntimeError):
        game.apply(game.new_state(0), (0, ()))


def test_a_value_that_can_be_none_given_to_step_is_a_warning():
    assert warned("fn ahead(c) = step(step(c, north), north)\n"
                  "phase play {\n  action go() { goto play for next(me) }\n}\n") \
        == [(10, "step() faults when its argument is none")]


def test_a_cell_made_from_coordinates_can_be_none():
    assert warned("fn up(c) = row(cell_at(column(c), row(c) + 1))\n"
                  "phase play {\n  action go() { goto play for next(me) }\n}\n") \
        == [(10, "row() faults when its argument is none")]


@pytest.mark.parametrize("fn", [
    "fn ahead(c) = if step(c, north) != none then step(step(c, north), north) else none",
    "fn ahead(c) = step(c, north) != none and step(step(c, north), north) == c",
    "fn ahead(c) = step(c, north) == none or step(step(c, north), north) == c",
    "fn ahead(c) = [step(e, north) for e in [step(c, north)] where e != none]",
    "fn ahead(c) = exists(e in [step(c, north)] where on_board(e) and step(e, north) == c)",
    "fn ahead(c) { let e = step(c, north)\n if e == none { return none }\n"
    " return step(e, north) }",
])
def test_a_value_tested_before_use_is_no_warning(fn):
    """`!= none` before it (and, or, if, where, a let tested with an early return), or a fn
    whose body starts by testing its parameter (`on_board`)."""
    assert warned("fn on_board(c) = c != none and len(pieces_at(c)) == 0\n" + fn +
                  "\nphase play {\n  action go() { goto play for next(me) }\n}\n") == []


def test_an_action_that_does_nothing_is_a_warning_unless_decisions_count():
    body = "phase play {\n  action wait() { }\n  action go() { goto play for next(me) }\n}\n"
    assert warned(body) == [(11, "action 'wait' does nothing: its body is empty")]
    assert warned(body + "end {\n  draw when decision_number > 9\n}\n") == []
    assert warned(body.replace("phase play {", "phase play simultaneous {")) == []


@pytest.mark.parametrize("where, line", [
    ("false", 13), ("not true", 13), ("1 > 2", 13), ("true and false", 13),
    ("x > 0 and false", 13),            # one conjunct always false is enough
    ("true", None), ("x > 0 or false", None), ("1 < 2", None),
    ("OPTION", None),                   # false only through a param (a variant may set it)
    ("OPTION or x > 5", None)])
def test_a_where_that_is_always_false_makes_the_action_never_legal(where, line):
    """(`where false` passed `gdl check --strict` in silence: the action can never be
    played.)"""
    body = ("param OPTION = false\nvar x = 0\nphase play {\n"
            f"  action go() where {where} {{ goto play for next(me) }}\n"
            "  action ok() { goto play for next(me) }\n}\n")
    found = warned(body)
    if line is None:
        assert found == []
    else:
        assert found == [(line, "action 'go' is never legal: its condition '"
                          + ("false" if " and " in where else where)
                          + "' is always false (phase 'play')")]


def test_check_strict_prints_warnings_and_fails_plain_check_does_not(tmp_path):
    path = tmp_path / "t.gdl"
    path.write_text(HEAD + "fn ahead(c) = step(step(c, north), north)\n"
                    "phase play {\n  action go() { goto play for next(me) }\n}\n")
    plain = invoke("check", str(path))
    assert plain.exit_code == 0 and "ok:" in plain.output
    strict = invoke("check", "--strict", str(path))
    assert strict.exit_code == 1
    assert f"{path}:10:20: warning: step() faults when its argument is none" in strict.output
    assert "      fn ahead(c) = step(step(c, north), north)" not in strict.output
    assert "    fn ahead(c) = step(step(c, north), north)\n" in strict.output
    assert f"{path}: 1 warning (--strict)" in strict.output


def test_classic_games_that_test_before_stepping_are_strict_clean():
    """Checkers steps only from cells it tested (`enemy_on` starts `c != none and`), Othello
    and Go too: no warning. (Chess steps from cells its position guarantees, the en passant
    square's neighbours and the castling king's home row, and is warned: a warning, not an
    error, for that reason.)"""
    result = invoke("check", "--strict", *[f"games/classic/{name}.gdl" for name in (
        "tic_tac_toe", "connect_four", "breakthrough", "othello", "checkers", "go")])
    assert result.exit_code == 0, result.output


def test_the_language_server_shows_warnings_as_warnings():
    from gdl.interpreter.tools.analysis import Document
    document = Document(HEAD + "fn ahead(c) = step(step(c, north), north)\n"
                        "phase play {\n  action go() { goto play for next(me) }\n}\n", "t.gdl")
    assert document.problem is None
    [warning] = document.warnings
    assert (warning.line, warning.column, warning.warning) == (10, 20, True)
