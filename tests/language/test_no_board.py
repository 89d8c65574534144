"""A game without `board` (dice, cards): a board of no cells (docs/language.md 3.5)."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.loader import check_file, summary
from gdl.interpreter.play.balance.simulate import simulate
from gdl.interpreter.runtime.view import render

from tests.helpers import ROOT
PIG = os.path.join(ROOT, "tests", "rules", "no_board.gdl")

BASE = """seats a, b
var cells_seen = []
setup {{ {setup} goto p for a }}
phase p {{ action x() {{ win me }} }}
"""


def test_a_game_without_a_board_plays_and_draws_no_board():
    game = load_game(PIG)
    summary, _ = simulate(game, 30, seed=0)
    assert summary.finished == 30
    text = render(game, game.view(game.new_state(0), None))
    assert text.splitlines()[1:] == ["  a: banked=0", "  b: banked=0", "  held=0"]


def test_gdl_check_says_no_board():
    assert summary(check_file(PIG)).endswith("1 phase, no board")


def test_it_has_no_cells():
    game = load_source(BASE.format(setup="cells_seen = cells()"))
    assert list(game.new_state(0).globals["cells_seen"]) == []
    assert not game.rules.board.all_cells


def test_a_cell_name_is_an_error():
    with pytest.raises(GdlRuleError) as caught:
        load_source(BASE.format(setup="cells_seen = [@a1]"))
    assert "@a1 is a hole of the board, not a cell" in caught.value.render()
