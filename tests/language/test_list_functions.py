"""List-valued fns that call themselves, and `unique` of lists of lists."""

from gdl.interpreter import load_source
from gdl.interpreter.runtime.introspect import resolved_program
from gdl.interpreter.runtime.events import as_json

RULES = """game "t"
seats a, b
board square(3, 3)
var l = [[0]]
var u = [[0]]
fn upto(n) = if n > 0 then upto(n - 1) + [n] else []
fn downto(n) = if n > 0 then [n] + downto(n - 1) else []
setup {
  goto main for a
}
phase main {
  action go() {
    l = [upto(3), downto(2), upto(0)]
    u = unique([[1, 2], [3], [1, 2]] + [[3], [1, 2]])
    log text(unique([[1, 2], [3]] + [upto(2)]))
    win me
  }
}
"""


def test_a_list_fn_that_calls_itself_is_a_list_and_runs():
    game = load_source(RULES, "t.gdl")
    assert resolved_program(game).fns["upto"].type == ("list", "int")
    state = game.new_state(0)
    events = game.apply(state, game.legal_actions(state)[0])
    assert [list(x) for x in state.globals["l"]] == [[1, 2, 3], [2, 1], []]
    assert [list(x) for x in state.globals["u"]] == [[1, 2], [3]]
    assert as_json(events) == [["log", "[[1, 2], [3]]"]]


def test_a_number_fn_that_calls_itself_stays_a_number():
    text = RULES.replace("fn downto(n) = if n > 0 then [n] + downto(n - 1) else []",
                         "fn fact(n) = if n > 1 then n * fact(n - 1) else 1\n"
                         "fn fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)")
    text = text.replace("downto(2)", "[fact(5), fib(10)]")
    game = load_source(text, "t.gdl")
    assert resolved_program(game).fns["fib"].type == "int"
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["l"][1] == [120, 55]
