"""`show side(c, d)`, the marks between cells (docs/language.md 11.6.1), on
tests/rules/sides.gdl: the checker's errors, the sides a view carries for each seat, the
text drawing's walls in the gaps between cells, the pictures' lines, the browser table's
board and the formatter."""

from __future__ import annotations

import pytest

from gdl.interpreter.loader import load_game
from gdl.interpreter.play.render.pictures import picture
from gdl.interpreter.play.render.replay_page import make_page
from gdl.interpreter.play.serve.session import Session
from gdl.interpreter.runtime.view import public_view, render, render_board
from gdl.interpreter.tools.fmt import format_text

from tests.helpers import RULES, VALID, act, invoke, rule, rule_error


def _game_and_state():
    game = rule("sides.gdl")
    return game, game.new_state(0)


# ----- the checker ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("show side(c) = true",
     "bad.gdl:12:6: error: 'show side' takes 2 parameters, as in 'show side(c, d) = ...', "
     "not 1"),
    ("show cell(c, d) = none",
     "bad.gdl:12:6: error: 'show cell' takes 1 parameter, as in 'show cell(c) = ...', not 2"),
    ('show side(c, d) = "wall"',
     "bad.gdl:12:19: error: type mismatch: 'show side' needs true/false, but this is text"),
    ("show side(c, d) = d > 1",
     "bad.gdl:12:19: error: type mismatch: '>' compares numbers, but this is a direction"),
    ("show side(c, d) = c == a",
     "bad.gdl:12:24: error: type mismatch: '==' compares a cell with a cell, but this is a "
     "seat"),
    ("show side(c, c) = true", "bad.gdl:12:14: error: parameter 'c' is named twice"),
])
def test_a_side_rule_that_is_wrong_is_a_message(line, expected):
    assert rule_error(VALID + line + "\n").splitlines()[0] == expected


def test_a_hex_board_has_no_sides_to_draw():
    text = VALID.replace("square(3, 3)", "hex(3, 3)") + "show side(c, d) = false\n"
    assert rule_error(text).splitlines()[0] == (
        "bad.gdl:12:6: error: 'show side' needs a square or table board: the sides of a hex "
        "cell are not drawn")


# ----- views --------------------------------------------------------------------------------------

def test_each_seat_sees_the_sides_its_rule_marks_for_it():
    """Sides are worked out for the seat viewing: b's fence (the west side of b2, written
    as a2's east side) is in b's view only, not in a's nor the spectator's."""
    game, state = _game_and_state()
    walls = [["b1", "north"], ["c1", "north"], ["d3", "north"]]
    assert game.view(state, 0)["sides"] == walls
    assert public_view(game, state)["sides"] == walls
    assert game.view(state, 1)["sides"] == walls[:2] + [["a2", "east"]] + walls[2:]
    act(game, state, "wall a2")
    assert ["a2", "north"] in game.view(state, 0)["sides"]


def test_a_game_without_the_rule_has_no_sides_in_its_views():
    game = rule("look.gdl")
    assert "sides" not in game.view(game.new_state(0), 0)


# ----- the text drawing ---------------------------------------------------------------------------

def test_the_text_board_draws_marked_sides_in_the_gaps_between_cells():
    game, state = _game_and_state()
    lines = render(game, game.view(state, 1)).splitlines()
    assert lines[1:10] == [
        "      a    b    c    d",
        "                   ------",        # d3's north side: the board's edge
        "  3   .    .    .    .",
        "         |",
        "  2   .  | .    .    .",           # the fence between a2 and b2
        "         +----------",             # b1's and c1's north sides, meeting the fence
        "  1   aP   .    .    .",
        "      a    b    c    d",
        "  key: a a (a piece: its seat's letter, then its mark); P Pawn; | - between cells: a "
        "marked side",
    ]
    assert "|" not in "".join(render(game, game.view(state, 0)).splitlines()[2:9])


def test_a_board_short_of_lines_draws_only_the_gaps_where_a_side_is_marked():
    game, state = _game_and_state()
    assert render_board(game, game.view(state, 1), max_rows=7)[:7] == [
        "      a    b    c    d",
        "                   ------",
        "  3   .    .    .    .",
        "  2   .  | .    .    .",
        "         +----------",
        "  1   aP   .    .    .",
        "      a    b    c    d",
    ]


def test_a_board_too_wide_for_its_sides_leaves_them_out_and_says_so():
    game, state = _game_and_state()
    lines = render_board(game, game.view(state, 1), width=22)
    assert lines[:2] == ["     a  b  c  d ", "  3  .  .  .  ."]
    assert "marked sides are not drawn at this size" in " ".join(map(str.strip, lines))


# ----- pictures and the browser table -------------------------------------------------------------

WALLS = 'd="M76 124h48M124 124h48M172 28h48'      # b1's and c1's north sides, d3's


def test_the_picture_draws_marked_sides_as_lines_on_the_cells_edges():
    game, state = _game_and_state()
    assert (f'<path class="sd" stroke="#5a3b1c" stroke-width="6" stroke-linecap="square" '
            f'fill="none" {WALLS}"/>') in picture(game, game.view(state, 0))
    assert f'{WALLS}M76 76v48"/>' in picture(game, game.view(state, 1))   # and the fence


def test_the_picture_s_key_says_what_a_thick_line_between_cells_is():
    game, state = _game_and_state()
    assert ">a marked side</text>" in picture(game, game.view(state, 0))
    plain = load_game(str(RULES / "nim.gdl"))
    assert "a marked side" not in picture(plain, plain.view(plain.new_state(0), 0))


def test_the_browser_table_draws_the_sides_its_seat_sees():
    session = Session(load_game(str(RULES / "sides.gdl")), 0, ["human", "human"])
    assert f'{WALLS}"/>' in session.position(0)["board"]
    assert f'{WALLS}M76 76v48"/>' in session.position(1)["board"]
    assert f'{WALLS}"/>' in session.position(None)["board"]      # the spectator


def test_a_seat_s_replay_page_draws_only_the_sides_it_sees(tmp_path):
    """The replay page places the sides' path at the picture's corner; a's page has the
    walls, not b's fence, nor anything that could tell it."""
    record = tmp_path / "sides.txt"
    assert invoke("record", str(RULES / "sides.gdl"), "--max-decisions", "2",
                  "-o", str(record)).exit_code == 0
    page, _ = make_page(str(record), "a")
    assert '["s:",0,0]' in page and WALLS[3:] in page and "v48" not in page
    assert "v48" in make_page(str(record), "b")[0]


# ----- the formatter ----------------------------------------------------------------------------

def test_the_formatter_lays_out_a_side_rule():
    assert format_text(VALID + "show side( c,d )=false\n").endswith(
        "show side(c, d) = false\n")
