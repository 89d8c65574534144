"""Boards with holes (docs/language.md 8.6): holes are no cells, on square and hex boards,
in actions, neighbours and drawings; the checker's messages; a small game
(tests/rules/holes.gdl) plays to the end."""

from __future__ import annotations

import pytest

from gdl.interpreter.runtime.view import render

from tests.helpers import (
    RULES, VALID_3, act_json, lines, play_to_the_end, reason, rule, rule_error, runtime_error,
    texts, value, values)


TWO_HOLES = "board square(4, 4) holes(c) where c in [@b2, @c3]"


@pytest.mark.parametrize("expr, expected", [
    ("cells()", "[a1, b1, c1, d1, a2, c2, d2, a3, b3, d3, a4, b4, c4, d4]"),
    ("row_cells(2)", "[a2, c2, d2]"),
    ("column_cells(2)", "[b1, b3, b4]"),
    ("neighbors(@a1)", "[a2, b1]"),               # b2 is not there
    ("orthogonal(@b1)", "[c1, a1]"),
    ("line(@a1, @d4)", "[]"),                   # b2 and c3 are left out of the line
    ("clear_line(@a1, @d4, [])", "false"),      # a hole right after a1 blocks the way
    ("clear_line(@a2, @d2, [])", "false"),      # and one further along
    ("clear_line(@a1, @a1, [])", "true"),
    ("clear_line(@a1, @d1, [])", "true"),
    ("clear_line(@a1, @d1, [@c1])", "false"),
    ("step(@a2, east)", "none"),
    ("step(@a2, west)", "none"),
    ("ray(@a2, east, 5)", "[]"),                  # a hole stops a ray like the edge
    ("ray(@a1, north_east, 5)", "[]"),
    ("ray(@c1, north, 5)", "[c2]"),
    ("reach(@a1, 3, [])", "[a2, a3, a4, b1, c1, d1]"),
    ("sight(@b1, 3, [])", "[c2, d3, c1, d1, a1, a2]"),
    ("exits(@a2)", "[north, north_east, south_east, south]"),
    ("exits(@c2)", "[north_east, east, south_east, south, south_west, north_west]"),
    ("direction(@a2, @c2)", "none"),              # the way east runs into b2
    ("direction(@a2, @a4)", "north"),
    ("distance(@a1, @d4)", "3"),                  # distance is geometry: holes do not count
])
def test_holes_are_no_cells(expr, expected):
    assert value(TWO_HOLES, expr) == expected


@pytest.mark.parametrize("expr, expected", [
    ("cells()", "[a1, b1, c1, d1, a2, c2, a3, b3, c3, d3, a4, b4, c4, d4]"),
    ("neighbors(@a2)", "[a1, b1, a3]"),
    ("exits(@c2)", "[north, north_east, south, north_west]"),   # b2 and d2 are holes
    ("ray(@b1, south, 3)", "[]"),
    ("ray(@c1, south, 5)", "[c2, c3, c4]"),
])
def test_holes_on_a_hex_board(expr, expected):
    board = "board hex(4, 4) holes(c) where row(c) == 2 and column(c) % 2 == 0"
    assert value(board, expr) == expected


@pytest.mark.parametrize("board, expr, expected", [
    (TWO_HOLES, "cell_at(1, 1)", "a1"),
    (TWO_HOLES, "cell_at(4, 3)", "d3"),
    (TWO_HOLES, "cell_at(2, 2)", "none"),         # a hole
    (TWO_HOLES, "cell_at(5, 1)", "none"),         # off the board, each way
    (TWO_HOLES, "cell_at(0, 1)", "none"),
    (TWO_HOLES, "cell_at(1, 5)", "none"),
    (TWO_HOLES, "cell_at(1, -3)", "none"),
    (TWO_HOLES, "[cell_at(column(c), row(c)) == c for c in cells()] == "
                "[true for c in cells()]", "true"),
    ("board hex(5, 3)", "cell_at(5, 3)", "e3"),
    ("board hex(5, 3)", "cell_at(3, 4)", "none"),
    ("board table(3, 2)", "cell_at(2, 2)", "b2"),
])
def test_cell_at_makes_a_cell_from_a_column_and_a_row(board, expr, expected):
    assert value(board, expr) == expected


def test_cell_at_off_the_board_is_none():
    assert runtime_error(TWO_HOLES, "row(cell_at(9, 9))").endswith(
        "run-time error: row() cannot work with a value that is none")


def test_intersections_of_a_street_grid():
    """Crossroads: streets on rows 1, 4, 7 and columns a, d, g; its terrain 'crossings'
    names the cells where three or four streets meet, as intersections() finds them."""
    source = (RULES / "holes.gdl").read_text()
    board = source[source.index("board "):source.index("\n\nterrain")]
    assert values(board, "intersections()", "len(cells())", "distance(@a1, @g7)") == [
        "[d1, a4, d4, g4, d7]", "33", "12"]


def test_a_hole_typed_in_an_action_is_not_a_cell():
    game = rule("holes.gdl")
    state = game.new_state(0)
    assert texts(game, state) == ["run Runner#1 a2", "run Runner#1 a3", "run Runner#1 b1",
                                  "run Runner#1 c1"]
    assert reason(game, state, "run Runner#1 b2") == "'b2' is not a cell"
    assert reason(game, state, "run Runner#1 d1") == (
        "d1 is not a possible 'to' now (not in reach(p.cell, p.speed, [q.cell for q in "
        "pieces()]))")


def test_a_runner_catches_the_other():
    game = rule("holes.gdl")
    state = game.new_state(0)
    for text in ["run Runner#1 c1", "run Runner#2 g5", "run Runner#1 d1", "run Runner#2 g4",
                 "run Runner#1 d2", "run Runner#2 e4", "run Runner#1 d4"]:
        act_json(game, state, text)
    # from e4 the way west ends on d4, where blue stands
    assert reason(game, state, "run Runner#2 c4") == (
        "c4 is not a possible 'to' now (not in reach(p.cell, p.speed, [q.cell for q in "
        "pieces()]))")
    assert act_json(game, state, "run Runner#2 d4") == [["log", "Runner#1 is caught at d4"],
                                                   ["out", 0]]
    assert game.returns(state) == [-1.0, 1.0]


@pytest.mark.parametrize("expr, expected", [
    ("neighbors(@b3)", "[b4, c4, c2, a2, a3, a4]"),
    ("orthogonal(@d3)", "[d4, d2]"),
    ("neighbors(@d4)", "[d3, c4]"),
])
def test_neighbors_after_a_hole(expr, expected):
    assert value(TWO_HOLES, expr) == expected


def test_holes_are_drawn_blank():
    game = rule("holes.gdl")
    drawing = render(game, game.view(game.new_state(0), None)).splitlines()
    assert drawing[1:10] == [
        "     a  b  c  d  e  f  g ",
        "  7  .  .  .  +  .  .  rR",
        "  6  .        .        .",
        "  5  .        .        .",
        "  4  +  .  .  +  .  .  +",
        "  3  .        .        .",
        "  2  .        .        .",
        "  1  bR .  .  +  .  .  .",
        "     a  b  c  d  e  f  g ",
    ]


HOLE = "board square(3, 3) holes(c) where c == @b2"


@pytest.mark.parametrize("board, extra, expected", [
    (HOLE, "terrain t = [@b2]", [
        "bad.gdl:12:14: error: @b2 is a hole of the board, not a cell",
        "    terrain t = [@b2]",
        "                 ^"]),
    (HOLE, "var x = @B2", [
        "bad.gdl:12:9: error: @b2 is a hole of the board, not a cell",
        "    var x = @B2",
        "            ^"]),
    (HOLE, "fn f() = step(@b2, north)", [
        "bad.gdl:12:15: error: @b2 is a hole of the board, not a cell",
        "    fn f() = step(@b2, north)",
        "                  ^"]),
    ("board square(3, 3) holes(c) where row(c) > 0", "", [
        "bad.gdl:3:35: error: every cell of the board is a hole",
        "    board square(3, 3) holes(c) where row(c) > 0",
        "                                      ^"]),
    ("board square(3, 3) holes(c) where row(c) + 1", "", [
        "bad.gdl:3:35: error: type mismatch: 'holes(...) where' needs true/false, but this is "
        "a number",
        "    board square(3, 3) holes(c) where row(c) + 1",
        "                                      ^"]),
    ("board square(3, 3) holes(c) where c == @d4", "", [
        "bad.gdl:3:40: error: @d4 is not a cell of the 3x3 square board",
        "    board square(3, 3) holes(c) where c == @d4",
        "                                           ^"]),
    ("board square(3, 3) holes(c) where c in corners", "terrain corners = [@a1]", [
        "bad.gdl:3:40: error: unknown name 'corners' in a constant",
        "    board square(3, 3) holes(c) where c in corners",
        "                                           ^"]),
    ("board square(3, 3) holes(c) where len([c]) == 1", "", [
        "bad.gdl:3:35: error: this must be a constant: numbers, text, cells, lists, parameters "
        "and + - * / %",
        "    board square(3, 3) holes(c) where len([c]) == 1",
        "                                      ^"]),
    ("board square(3, 3) holes(c) where c == 1", "", [
        "bad.gdl:3:40: error: type mismatch: '==' compares a cell with a cell, but this is a "
        "number",
        "    board square(3, 3) holes(c) where c == 1",
        "                                           ^"]),
    ("board square(3, 3) directions 6", "", [
        "bad.gdl:3:1: error: a square board has 4 or 8 directions, not 6",
        "    board square(3, 3) directions 6",
        "    ^"]),
    ("board hex(3, 3) directions 4", "", [
        "bad.gdl:3:1: error: a hex board has 6 directions, not 4",
        "    board hex(3, 3) directions 4",
        "    ^"]),
], ids=["terrain", "upper-case", "expression", "all-holes", "not-a-condition", "off-board",
        "terrain-in-holes", "function-call", "cell-and-number", "square-6", "hex-4"])
def test_board_errors(board, extra, expected):
    assert rule_error(VALID_3.replace("board square(3, 3)", board) + extra + "\n") == lines(
        *expected)


def test_holes_may_use_parameters_declared_anywhere():
    board = "board square(n, n) holes(c) where row(c) == n and column(c) != n"
    assert values(board, "cells()", extra="param n = 2") == ["[a1, b1, b2]"]


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("holes.gdl"), "holes.gdl", 500)
