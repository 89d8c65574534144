"""Block fns, `fn NAME(params) { let ...  if ... { return A }  return B }` (docs/language.md
3.9): locals, choices, loops and an early result; the errors for misuse pinned; the layout;
the work bounded like any fn."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlError, GdlRuntimeError
from gdl.interpreter.tools.fmt import format_text

from tests.helpers import ROOT
LINES = os.path.join(ROOT, "tests", "rules", "fn_block.gdl")

GAME = """seats a, b
var found = []
{fns}
setup {{
  found = {expr}
  goto p for a
}}
phase p {{ action x() {{}} }}
"""

FNS = """fn sign(x) {
  if x > 0 {
    return 1
  } else if x < 0 {
    return -1
  }
  return 0
}
fn first_over(xs, limit) {
  for x in xs where x > limit {
    return x
  }
  return none
}
fn added(xs) {
  let t = 0
  for x in xs {
    t += x
  }
  return t
}
fn countdown(n) {
  if n == 0 {
    return []
  }
  let rest = countdown(n - 1)
  return [n] + rest
}
"""


def value(expr, fns=FNS):
    return load_source(GAME.format(fns=fns, expr=expr)).new_state(0).globals["found"]


@pytest.mark.parametrize("expr, expected", [
    ("[sign(5), sign(-2), sign(0)]", [1, -1, 0]),
    ("[first_over([1, 5, 7], 4), first_over([1], 4)]", [5, None]),
    ("[added([1, 2, 3]), added([])]", [6, 0]),
    ("countdown(3)", [3, 2, 1]),
])
def test_a_block_fn_gives_the_value_of_its_first_return(expr, expected):
    assert value(expr) == expected


def test_a_game_walks_lines_with_block_fns():
    game = load_game(LINES)
    state = game.new_state(0)
    for cell in ("a1", "a4", "b1", "b4", "c1"):
        game.apply(state, game.parse_action(state, "drop " + cell))
    assert state.result == {"winners": [0], "draw": False}


def test_a_diagonal_line_wins_too():
    game = load_game(LINES)
    state = game.new_state(0)
    for cell in ("b2", "a4", "d1", "d4", "c3", "c1"):
        game.apply(state, game.parse_action(state, "drop " + cell))
    assert state.result is None
    game.apply(state, game.parse_action(state, "drop a1"))
    assert state.result == {"winners": [0], "draw": False}


def test_endless_recursion_and_long_loops_stay_bounded():
    with pytest.raises(GdlRuntimeError, match="calls itself without end"):
        value("f(1)", "fn f(n) {\n  let m = n + 1\n  return f(m)\n}\n")
    with pytest.raises(GdlRuntimeError, match="more than 10,000,000 steps"):
        value("[g(100000)]", "fn g(n) {\n  let t = 0\n  for x in range(1, n) {\n"
                           "    for y in range(1, n) {\n      t += 1\n    }\n  }\n  return t\n}\n")


@pytest.mark.parametrize("fns, message", [
    ("fn f(x) {\n  if x > 0 {\n    return 1\n  }\n}\n",
     "<string>:4:3: error: this fn's block can end without a result\n"
     "      if x > 0 {\n"
     "      ^\n"
     "hint: end it with 'return VALUE' (an 'if' ends it only when it has an 'else' and both "
     "branches end in a 'return')"),
    ("fn f(x) {\n  return 1\n  return 2\n}\n",
     "<string>:5:3: error: this statement never runs: the fn has returned before it\n"
     "      return 2\n"
     "      ^"),
    ("fn f(x) {\n  found = [x]\n  return 2\n}\n",
     "<string>:4:3: error: a fn cannot change the game: 'found' is not a local of the fn\n"
     "      found = [x]\n"
     "      ^\n"
     "hint: a fn's block assigns only its own locals (a 'let', a parameter, a loop variable); "
     "a 'def' changes variables"),
    ("fn f(x) {\n  if x > 0 {\n    return 1\n  }\n  return \"one\"\n}\n",
     "<string>:7:10: error: type mismatch: every 'return' of a fn gives one type; the first "
     "gives a number, but this is text\n"
     "      return \"one\"\n"
     "             ^"),
    ("fn f(x) {\n  log x\n  return 1\n}\n",
     "<string>:4:7: error: unexpected name 'x'; expected '+=', '-=', '='\n"
     "      log x\n"
     "          ^\n"
     "a fn's block cannot 'log': it holds only 'let', assignments to its locals, 'if', 'for' "
     "and 'return VALUE'; a 'def' runs statements"),
    ("fn f(x) {\n  return\n}\n",
     "<string>:5:1: error: unexpected '}'; expected '(', '-', '[', 'false', 'if', 'none', "
     "'not', 'true', ...\n"
     "    }\n"
     "    ^\n"
     "a fn's block ends with 'return VALUE': write the fn's result after 'return'"),
    ("fn f(x) = 1\ndef d() {\n  return 1\n}\n",
     "<string>:5:10: error: unexpected '1'; expected 'call', 'change', 'create', 'draw', "
     "'for', 'give', 'goto', 'if', ...\n"
     "      return 1\n"
     "             ^\n"
     "'return' in a 'def', a phase or a hook takes no value (it leaves the phase); only a "
     "fn's block gives one: 'fn NAME(...) { return VALUE }'"),
])
def test_misuse_is_reported(fns, message):
    with pytest.raises(GdlError) as caught:
        value("f(1)", fns)
    assert caught.value.render() == message


def test_the_layout_keeps_block_fns():
    text = open(LINES, encoding="utf-8").read()
    assert format_text(text) == text
    assert format_text("seats a, b\nfn f(x) { let y = x\n"
                       "if y > 1 { return y } else { return 0 } }\n") == (
        "seats a, b\n\nfn f(x) {\n  let y = x\n  if y > 1 {\n    return y\n  } else {\n"
        "    return 0\n  }\n}\n")


LET_EMPTY = """seats a, b
board square(3, 3)
kinds (symbol) {{ Pawn = "P" }}
setup {{
  create Pawn for a at @b2
  goto p for a
}}
fn beside(c) {{
  let found = []
  for d in directions() where step(c, d) != none {{
    found = found + [{item}]
  }}
  return found
}}
phase p {{ action go(p in pieces(me), to in beside(p.cell)) {{ win me }} }}
"""


def test_a_let_of_an_empty_list_takes_the_type_of_what_is_added():
    """`let found = []` then `found = found + [cell]`: the fn gives a list of cells, and an
    action's argument drawn from it reads as a cell (it read as a raw number, `go Pawn#1
    42`, and a typed `go Pawn#1 b3` was refused as not a possible 'to')."""
    game = load_source(LET_EMPTY.format(item="step(c, d)"))
    state = game.new_state(0)
    texts = [game.action_text(state, action) for action in game.legal_actions(state)]
    assert texts[:2] == ["go Pawn#1 b3", "go Pawn#1 c3"]
    assert game.action_text(state, game.parse_action(state, "go Pawn#1 a1")) == "go Pawn#1 a1"


def test_a_let_of_an_empty_list_keeps_one_type():
    with pytest.raises(GdlError) as caught:
        load_source(LET_EMPTY.format(item="step(c, d)").replace(
            "return found", "found = [first(q in pieces())]\n  return found"))
    assert "'found' holds list of a cell, but this is list of a piece" in str(caught.value)
