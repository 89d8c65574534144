"""`p in DOMAIN by cell`: an action's text writing a piece by the cell it stands on
(docs/language.md, 4.4); typing it back, refusals, hidden pieces; scenario `for LABEL` and
`for CELL` selecting by value whatever the text writes, and an error for a selection no
action of that name could match; the checker's errors, pinned."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError, IllegalAction
from gdl.interpreter.play.scenarios.runner import run_scenario

from tests.helpers import ROOT, gdl

BY_CELL = os.path.join(ROOT, "tests", "rules", "by_cell.gdl")
STACKED = os.path.join(ROOT, "tests", "rules", "by_cell_stack.gdl")
BREAKTHROUGH = os.path.join(ROOT, "games", "classic", "breakthrough.gdl")


def texts(game, state):
    return [game.action_text(state, a) for a in game.legal_actions(state)]


def test_a_piece_by_cell_is_written_by_its_cell_and_read_by_cell_or_label():
    game = load_game(BY_CELL)
    state = game.new_state(0)
    assert texts(game, state) == ["move a1 a2", "move b1 b2", "move c1 c2", "move d1 d2"]
    assert game.parse_action(state, "MOVE  B1 b2") == game.legal_actions(state)[1]
    assert game.parse_action(state, "move pawn#3 c2") == game.legal_actions(state)[2]
    game.apply(state, game.parse_action(state, "move a1 a2"))
    assert texts(game, state)[0] == "move a4 a3"
    assert game.rules.phases["play"].actions[0].params[0].by_cell


@pytest.mark.parametrize("typed, message, malformed", [
    ("move a2 a3", "there is no piece on a2", False),
    ("move a4 a3", "a4 is not a possible 'p' now (not in pieces(me))", False),
    ("move zz9 a2", "'zz9' is not a piece", True),
])
def test_a_refused_text_says_why(typed, message, malformed):
    game = load_game(BY_CELL)
    state = game.new_state(0)
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(state, typed)
    assert refused.value.message == message
    assert bool(refused.value.malformed or refused.value.unknown) == malformed


def write(tmp_path, rules, text):
    path = tmp_path / "s.scenario"
    path.write_text(f"rules {rules}\n{text}", encoding="utf-8")
    return [f.replace(str(path), "S") for f in run_scenario(str(path))]


def test_for_a_label_or_a_cell_selects_by_value_whatever_the_text_writes(tmp_path):
    assert write(tmp_path, BY_CELL, (
        "expect legal actions move for Pawn#1: move a1 a2\n"
        "expect legal count 1 for a1\n"
        "expect legal count 1 move for Pawn#2\n"
        "expect no legal move for Pawn#5\n"            # black's, white to play
        "expect no legal action for a3\n"
        "expect legal count 1 for a2\n")) == []        # a2 as the cell moved to
    assert write(tmp_path, BREAKTHROUGH, (
        "expect legal count 3 for a7\n"                # black first: a7 to a6 or b6
        "expect no legal move for d5\n")) == [
        "S:2: expected legal count 3 for a7, got 2: move a7 b6, move a7 a6"]


@pytest.mark.parametrize("line, message", [
    ("expect no legal move for Pawn#2",
     "'for Pawn#2' selects the actions with a piece among their arguments, but no 'move' "
     "takes one ('move' takes from: a cell, to: a cell), so it would match none"),
    ("expect legal count 0 for Pawn#2",
     "'for Pawn#2' selects the actions with a piece among their arguments, but no action of "
     "the game takes one ('move' takes from: a cell, to: a cell), so it would match none"),
    ("expect no legal move for zz9", "'zz9' is not a cell of the board"),
])
def test_a_selection_no_action_could_match_is_an_error(tmp_path, line, message):
    found = write(tmp_path, BREAKTHROUGH, line + "\n")
    assert len(found) == 1 and found[0].split("\n")[0] == f"S:2:1: error: {message}"


BASE = """game "t"
seats a, b
board square(2, 2)
kinds (symbol) {
  Stone = "s"
}
setup { create Stone for a at @a1 goto p for a }
"""


@pytest.mark.parametrize("phase, message", [
    ("phase p { action x(p in pieces(me) by kind) { win me } }",
     "t:8:39: error: 'by kind' is no way to write an action's argument; expected 'by cell' "
     "(a piece written by the cell it stands on)"),
    ("phase p { action x(c in cells() by cell) { win me } }",
     "t:8:36: error: 'by cell' writes a piece by the cell it stands on, but 'c' is a cell"),
])
def test_checker_errors(phase, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(BASE + phase + "\n", "t")
    assert caught.value.render().split("\n")[0] == message


STACKED_ERROR = (
    "tests/rules/by_cell_stack.gdl:21:15: error: run-time error: two legal actions read "
    "'step b1 c1': Pawn#1 and Pawn#2 stand on b1, and 'p' writes its piece by the cell it "
    "stands on\n"
    "      action step(p in pieces(me) by cell, to in [step(p.cell, east)]) where to != none {\n"
    "                  ^\n"
    "hint: write such pieces by their labels (leave out 'by cell'), or keep them on cells of "
    "their own")

def test_two_pieces_by_cell_on_one_cell_are_an_error_at_the_binder_once_they_read_alike():
    game = load_game(STACKED)
    state = game.new_state(0)
    assert texts(game, state) == ["step a1 b1", "step b1 c1"]
    game.apply(state, game.parse_action(state, "step a1 b1"))
    assert texts(game, state) == ["step a2 b2"]     # b's pawns: one cell each
    game.apply(state, game.parse_action(state, "step a2 b2"))
    with pytest.raises(GdlRuntimeError) as caught:
        game.legal_actions(state)
    assert os.path.relpath(caught.value.file, ROOT) == "tests/rules/by_cell_stack.gdl"
    assert str(caught.value).split(":", 1)[1] == STACKED_ERROR.split(":", 1)[1]


def test_the_command_line_says_so_without_a_traceback():
    result = gdl("simulate", "tests/rules/by_cell_stack.gdl", "--games", "1")
    assert result.returncode == 1
    assert result.stderr.startswith(STACKED_ERROR)
    assert "Traceback" not in result.stderr
