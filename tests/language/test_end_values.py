"""`let` in an `end` block: values computed once per end check and shared by the block's
rules and seats (docs/language.md, "Shared values"); when they are computed; the checker's
errors, pinned."""

import os

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.play.scenarios.runner import run_scenario
from gdl.interpreter.tools.analysis import Document

from tests.helpers import ROOT

SCENARIO = os.path.join(ROOT, "tests", "rules", "end_values.scenario")

BASE = """game "t"
seats a, b
board square(1, 1)
var seat.points = 0
var computed = 0
setup { goto p for a }
phase p turn { action x() { me.points += 1 goto p for next(me) } }
fn counted() {
  return count(s in all_seats where s.points > 0)
}
"""


def test_the_scenarios_of_the_example_pass():
    assert run_scenario(SCENARIO) == []


def test_a_shared_value_is_computed_once_per_check_for_every_rule_and_seat():
    game = load_source(BASE + """
end {
  let most = max_of(s in all_seats: s.points)
  lose when seat.points < most and most >= 3
  win when seat.points == most and most >= 3
  draw when most > 5
}
""")
    computed = []
    most = game._end_lets[0][0]
    game._end_lets[0][0] = lambda *args: computed.append(1) or most(*args)
    state = game.new_state(0)
    checks = 0
    while not game.is_terminal(state):
        game.apply(state, game.legal_actions(state)[0])
        checks += 1
    assert state.result["winners"] == [0]       # a reaches 3 first; b, with 2, loses
    assert len(computed) == checks + 1      # once per check (the setup's too), not per rule or seat


def test_a_rule_reads_the_values_above_it_and_a_value_the_ones_before_it():
    game = load_source(BASE + """
end {
  let total = sum(s in all_seats: s.points)
  draw when total >= 3
  let left = 10 - total
  win when left == 8 and seat.points == 1
}
""")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    game.apply(state, game.legal_actions(state)[0])
    assert state.result["winners"] == [0, 1]


def test_blocks_keep_their_values_apart():
    game = load_source(BASE + """
end {
  let n = sum(s in all_seats: s.points)
  draw when n >= 3
}
end {
  let n = 0
  win when n == 1
}
""")
    state = game.new_state(0)
    for _ in range(3):
        game.apply(state, game.legal_actions(state)[0])
    assert state.result["draw"]


@pytest.mark.parametrize("block, message", [
    ("end {\n  draw when true\n  let x = 1\n}",
     "t:13:3: error: 'let x' comes after the last rule of its 'end' block, so no rule reads "
     "it"),
    ("end {\n  let x = 1\n  let x = 2\n  draw when x == 2\n}",
     "t:13:7: error: 'let x' is declared twice in this 'end' block"),
    ("end {\n  let seat = a\n  draw when true\n}",
     "t:12:7: error: 'seat' is a built-in name of the end rules: name the shared value "
     "otherwise"),
    ("end {\n  let mine = seat.points\n  win when mine > 2\n}",
     "t:12:14: error: an 'end' block's 'let' is computed once for every seat, so it cannot "
     "read 'seat'"),
    ("end {\n  let mine = me.points\n  win when mine > 2\n}",
     "t:12:14: error: an 'end' block's 'let' is computed once for every seat, so it cannot "
     "read 'me'"),
    ("end {\n  let n = 1\n  draw when n\n}",
     "t:13:13: error: type mismatch: a 'draw when' condition needs true/false, but this is "
     "a number"),
])
def test_checker_errors(block, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(BASE + block + "\n", "t")
    assert caught.value.render().split("\n")[0] == message


def test_the_language_server_knows_a_shared_value():
    path = os.path.join(ROOT, "tests", "rules", "end_values.gdl")
    with open(path, encoding="utf-8") as f:
        document = Document(f.read(), path)
    line = next(i for i, text in enumerate(document.lines, 1) if text.startswith("  win when"))
    column = document.lines[line - 1].index("most") + 1
    assert document.hover(line, column).startswith("local `most`")
    declared = document.definition(line, column)
    assert (declared.kind, declared.span.line) == ("local", line - 1)
    assert ("over", "local", "local") in document.completions(line + 1, 13)
