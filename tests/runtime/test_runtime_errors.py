"""A fault while rules run is reported at the rule-file expression that failed, in words,
as a GdlRuntimeError; a Python exception that is not the rules' fault stays loud."""

import textwrap

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError, GdlRuntimeError
from gdl.interpreter.runtime.engine import TERMINAL
from gdl.interpreter.runtime.view import render

from tests.helpers import act


BASE = """game "t"
seats a, b
board square(3, 3)
kinds (speed) {{ Pawn = 1 }}
var n = 0
{extra}
setup {{
  create Pawn for a at @a1
  goto main for a
}}
phase main {{
  action go() {{
    {body}
  }}
}}
"""


def _fault(body, extra=""):
    game = load_source(BASE.format(body=body, extra=extra), "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:
        game.apply(state, game.legal_actions(state)[0])
    return str(info.value)


@pytest.mark.parametrize("body, extra, expected", [
    ("let p = first(q in pieces(a): q)\n    remove p\n    n = distance(p.cell, @a1)", "",
     "t.gdl:15:9: error: run-time error: distance() cannot work with a value that is none\n"
     "        n = distance(p.cell, @a1)\n"
     "            ^"),
    ("let p = first(q in pieces(b): q)\n    n = n + p.speed", "",
     "t.gdl:14:13: error: run-time error: 'p' is none here, not a piece\n"
     "        n = n + p.speed\n"
     "                ^"),
    # in a fn too the piece's expression is named (it said "'p.speed' reads a field of no
    # piece", where the typed engine says this)
    ("n = f(first(q in pieces(b): q))", "fn f(p) = p.speed + 1",
     "t.gdl:6:11: error: run-time error: 'p' is none here, not a piece\n"
     "    fn f(p) = p.speed + 1\n"
     "              ^"),
    ("n = g(first(q in pieces(b): q))", "fn g(p) = if p.kind == Pawn then 1 else 0",
     "t.gdl:6:14: error: run-time error: 'p' is none here, not a piece\n"
     "    fn g(p) = if p.kind == Pawn then 1 else 0\n"
     "                 ^"),
    ("n = nth([1, 2], 3) + 1", "",
     "t.gdl:13:9: error: run-time error: 'nth([1, 2], 3) + 1' uses a value that is none\n"
     "        n = nth([1, 2], 3) + 1\n"
     "            ^"),
    ("n = nth([1, 2], 3) / 2", "",
     "t.gdl:13:9: error: run-time error: 'nth([1, 2], 3) / 2' uses a value that is none\n"
     "        n = nth([1, 2], 3) / 2\n"
     "            ^"),
    ("n = half(nth([1, 2], 3))", "fn half(x) = 5 % x",
     "t.gdl:6:14: error: run-time error: '5 % x' uses a value that is none\n"
     "    fn half(x) = 5 % x\n"
     "                 ^"),
    ("n = 5 / (n - n)", "",
     "t.gdl:13:9: error: run-time error: division by zero\n"
     "        n = 5 / (n - n)\n"
     "            ^"),
    ("n = 5 % n", "",
     "t.gdl:13:9: error: run-time error: modulo by zero\n"
     "        n = 5 % n\n"
     "            ^"),
    ("n = roll(n)", "",
     "t.gdl:13:9: error: run-time error: cannot roll 1 dice of 0 sides\n"
     "        n = roll(n)\n"
     "            ^"),
    ("n = f(1)", "fn f(x) = f(x) + 1",
     "t.gdl:6:1: error: run-time error: a fn or def calls itself without end ('f' is 200 "
     "calls deep)\n"
     "    fn f(x) = f(x) + 1\n"
     "    ^"),
    ("n = down(200)", "fn down(x) = if x == 0 then 0 else 1 + down(x - 1)",
     "t.gdl:6:1: error: run-time error: a fn or def calls itself without end ('down' is 200 "
     "calls deep)\n"
     "    fn down(x) = if x == 0 then 0 else 1 + down(x - 1)\n"
     "    ^"),
    ("goto main for first(s in all_seats where s != s)", "",
     "t.gdl:13:5: error: run-time error: phase 'main' was entered for no seat (the seat "
     "expression gave none)\n"
     "        goto main for first(s in all_seats where s != s)\n"
     "        ^"),
    ("remove first(q in pieces(b): q)", "",
     "t.gdl:13:5: error: run-time error: this is not a piece (it is none)\n"
     "        remove first(q in pieces(b): q)\n"
     "        ^"),
    ("n = len(opponents(first(q in pieces(b): q).owner))", "",
     "t.gdl:13:23: error: run-time error: 'first(q in pieces(b): q)' is none here, not a "
     "piece\n"
     "        n = len(opponents(first(q in pieces(b): q).owner))\n"
     "                          ^"),
])
def test_a_fault_names_its_expression(body, extra, expected):
    assert _fault(body, extra) == expected


def test_a_fault_while_listing_names_the_domain():
    text = BASE.format(extra="", body="return").replace(
        "action go()", "action go(p in pieces(me), c in neighbors(p.cell))").replace(
        "create Pawn for a at @a1", "create Pawn for a at none")
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:
        game.legal_actions(state)
    assert info.value.line == 12 and "neighbors() cannot work" in info.value.message


def test_no_python_exception_name_reaches_the_user():
    message = _fault("n = nth([1, 2], 3) + 1")
    for word in ("TypeError", "KeyError", "NoneType", "Traceback"):
        assert word not in message


def test_a_bug_of_gdl_is_not_turned_into_a_rule_error():
    """A Python exception raised by the engine's own code (not the rules, not a built-in
    they called) propagates as it is."""
    game = load_source(BASE.format(extra="", body="remove first(q in pieces(a): q)"),
                       "t.gdl")
    state = game.new_state(0)

    def broken(pid):
        raise KeyError("engine bug")
    game._rt.remove = broken
    with pytest.raises(KeyError) as info:
        game.apply(state, game.legal_actions(state)[0])
    assert not isinstance(info.value, GdlError)


def test_a_fault_in_code_the_engine_calls_is_located():
    """A fault in an `on enter` block run by `goto` (the engine between two generated
    frames) is still the rules' fault, at its place."""
    text = BASE.format(extra="", body="goto other for a") + """
phase other {
  on enter { n = first(q in pieces(b): q).speed }
  action stay() { return }
}
"""
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:
        game.apply(state, game.legal_actions(state)[0])
    assert (info.value.line, info.value.column) == (18, 18)
    assert info.value.message == ("run-time error: 'first(q in pieces(b): q)' is none here, "
                                  "not a piece")


@pytest.mark.parametrize("body, message", [
    ("lose first(q in pieces(b): q).owner", "run-time error: 'first(q in pieces(b): q)' is "
                                            "none here, not a piece"),
    ("let s = if n > 0 then a else none\n    lose s", "run-time error: none is not a seat"),
    ("let xs = if n > 0 then [@a1] else none\n    move first(q in pieces(a): q) along xs",
     "run-time error: there is no path to move along (it is none)"),
])
def test_a_runtime_helper_given_none_is_a_located_rule_error(body, message):
    assert message in _fault(body)


# ----- run-time failures a loaded file must not have ------------------------------------------

def _tiny(body, extra=""):
    return textwrap.dedent("""\
        game "Tiny"
        seats a, b
        board square(2, 2)
        var n = 0
        setup {
          goto main for a
        }
        phase main {
          action go() {
            BODY
          }
        }
        """).replace("BODY", body) + extra


def _go(source):
    game = load_source(source, "tiny.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    return game, state


def test_division_by_zero_is_a_located_gdl_error():
    with pytest.raises(GdlError) as err:
        _go(_tiny("n = 5 / (n - n)"))
    assert str(err.value) == ("tiny.gdl:10:9: error: run-time error: division by zero\n"
                              "        n = 5 / (n - n)\n"
                              "            ^")


def test_bad_die_error_names_its_place():
    with pytest.raises(GdlError) as err:
        _go(_tiny("n = roll(n)"))
    assert str(err.value).startswith("tiny.gdl:10:")


@pytest.mark.parametrize("body, extra", [
    ("n = f(1)", "fn f(x) = f(x) + 1\n"),
    ("loop()", "def loop() {\n  loop()\n}\n"),
])
def test_endless_recursion_is_a_gdl_error(body, extra):
    try:
        _go(_tiny(body, extra))
    except GdlError:
        return
    except RecursionError as exc:
        raise AssertionError("RecursionError escaped") from exc
    raise AssertionError("endless recursion finished")


def test_goto_for_no_seat_is_an_error():
    try:
        game, state = _go(_tiny("goto main for first(s in seats where s == none)"))
    except GdlError:
        return
    assert game.current_player(state) in (TERMINAL, 0, 1)


END_WITHOUT_TURNS = textwrap.dedent("""\
    game "No turns"
    seats a, b
    board square(1, 1)
    var seat.ticks = 0
    setup {
      goto main for a
    }
    phase main {
      action tick() {
        me.ticks += 1
      }
    }
    end {
      win when seat.ticks >= 2
    }
    """)


def test_end_rules_hold_without_turn_phases():
    game = load_source(END_WITHOUT_TURNS, "noturn.gdl")
    state = game.new_state(0)
    for _ in range(3):
        if game.current_player(state) == TERMINAL:
            break
        act(game, state, "tick")
    assert state.result == {"winners": [0], "draw": False}


def test_a_row_label_may_read_the_state():
    """`show row(r)` is computed as the view is made, with the state bound, so a label can
    show a variable; the text drawing reads it from the view."""
    from gdl.interpreter.runtime.view import render
    game = load_source("""game "t"
seats a, b
board square(2, 2)
var score = 3
show row(r) = "row " + text(r) + " score " + text(score)
setup { goto p for a }
phase p { action go() { score += 1 } }
""", "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    view = game.view(state, 0)
    assert view["row_labels"] == ["row 1 score 4", "row 2 score 4"]
    assert "row 2 score 4" in render(game, view)


def test_an_error_while_listing_actions_is_a_gdl_error():
    text = """
game "t"
seats a, b
board square(3, 3)
kinds (speed) { Pawn = 1 }
setup { create Pawn for a at none  goto p for a }
phase p { action go(x in pieces(me), to in neighbors(x.cell)) { return } }
"""
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlError) as info:
        game.legal_actions(state)
    assert str(info.value) == (
        "t.gdl:7:44: error: run-time error: neighbors() cannot work with a value that is "
        "none\n"
        "    phase p { action go(x in pieces(me), to in neighbors(x.cell)) { return } }\n"
        "                                               ^")


def test_a_fn_may_call_itself_200_deep():
    """limits.MAX_DEPTH: 200 calls, one inside the next, run (the 201st faults, above);
    gdl's own count, so the same on every Python version."""
    game = load_source(BASE.format(body="n = down(199)",
                                   extra="fn down(x) = if x == 0 then 0 else 1 + down(x - 1)"),
                       "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == 199
