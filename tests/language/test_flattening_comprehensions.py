"""Flattening comprehensions, `[e for a in xs for b in f(a)]` (docs/language.md 6.2): the
inner clauses' lists joined, each clause with its own `where`; errors pinned; the layout."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.tools.fmt import format_text

from tests.helpers import ROOT
PAIRS = os.path.join(ROOT, "tests", "rules", "flatten.gdl")

GAME = """seats a, b
var found = []
setup {{
  found = {expr}
  goto p for a
}}
phase p {{ action x() {{}} }}
"""


def value(expr):
    return load_source(GAME.format(expr=expr)).new_state(0).globals["found"]


@pytest.mark.parametrize("expr, expected", [
    ("[10 * x + y for x in [1, 2] for y in [x, 5]]", [11, 15, 22, 25]),
    ("[10 * x + y for x in [1, 2, 3] where x != 2 for y in range(1, x)]", [11, 31, 32, 33]),
    ("[y for x in [1, 2] for y in [x, x + 1] where y > 1]", [2, 2, 3]),
    ("[[x, y, z] for x in [1] for y in [2, 3] for z in [y]]", [[1, 2, 2], [1, 3, 3]]),
    ("[x for x in [1, 2] for y in []]", []),
    ("[x for x in [1, 2] where x > 1]", [2]),
])
def test_the_inner_lists_are_joined_in_order(expr, expected):
    assert value(expr) == expected


def test_a_game_draws_its_actions_from_a_flattening_comprehension():
    game = load_game(PAIRS)
    state = game.new_state(0)
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == [
        "take [1, 2]", "take [1, 3]", "take [1, 4]", "take [2, 3]", "take [2, 4]",
        "take [3, 4]"]
    while not game.is_terminal(state):
        game.apply(state, game.legal_actions(state)[-1])
    assert [state.seat_vars[s]["score"] for s in (0, 1)] == [7 + 5 + 4, 6 + 5 + 3]
    assert state.result == {"winners": [0], "draw": False}      # by its on no action


@pytest.mark.parametrize("expr, message", [
    ("[y for x in [1] for y in 3]",
     "<string>:4:36: error: type mismatch: 'for ... in' needs a list, but this is a number"),
    ("[y for x in [1] for y in [x] where y]",
     "<string>:4:46: error: type mismatch: a 'where' condition needs true/false, but this is "
     "a number"),
    ("[x + y for x in [y] for y in [1]]", "<string>:4:28: error: unknown name 'y'"),
])
def test_checker_errors(expr, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(GAME.format(expr=expr))
    assert caught.value.render().startswith(message)


def test_a_long_one_breaks_before_each_for():
    text = GAME.format(expr="[[first_number, second_number] for first_number in range(1, 40) "
                            "for second_number in range(first_number, 40)]")
    formatted = format_text(text)
    assert ("  found = [[first_number, second_number] for first_number in range(1, 40)\n"
            "          for second_number in range(first_number, 40)]\n") in formatted
    assert format_text(formatted) == formatted
