"""Directions (docs/language.md 8.5): the eight (or four, or six) directions of a board, their
geometry value by value, direction words in actions, views and drawings; a small game
(tests/rules/directions.gdl) plays to the end."""

from __future__ import annotations

import pytest

from gdl.interpreter.runtime.view import render

from tests.helpers import (
    VALID_3, act_json, lines, play_to_the_end, reason, rule, rule_error, texts, value, values)


SQUARE = "board square(4, 3)"
ROOK = "board square(4, 3) directions 4"
HEX = "board hex(4, 4)"


@pytest.mark.parametrize("board, names", [
    (SQUARE, "[north, north_east, east, south_east, south, south_west, west, north_west]"),
    (ROOK, "[north, east, south, west]"),
    (HEX, "[north, north_east, south_east, south, south_west, north_west]"),
], ids=["square", "square-4", "hex"])
def test_directions_are_listed_clockwise_from_north(board, names):
    assert value(board, "directions()") == names


@pytest.mark.parametrize("expr, expected", [
    ("step(@b2, north)", "b3"),                   # north is row + 1
    ("step(@b2, east)", "c2"),                    # east is column + 1
    ("step(@b2, south_west)", "a1"),
    ("step(@a1, south)", "none"),                 # off the board
    ("step(@d3, north_east)", "none"),
    ("ray(@a1, east, 10)", "[b1, c1, d1]"),       # stops at the edge
    ("ray(@a1, north_east, 10)", "[b2, c3]"),
    ("ray(@a1, east, 2)", "[b1, c1]"),
    ("ray(@a1, east, 0)", "[]"),
    ("ray(@a1, east, -1)", "[]"),
    ("ray(@a1, west, 3)", "[]"),
    ("turn(north, 1)", "north_east"),
    ("turn(north, -1)", "north_west"),
    ("turn(west, 10)", "north"),                  # 10 steps: once round and 2 more
    ("turn(east, -3)", "north_west"),
    ("opposite(north_east)", "south_west"),
    ("opposite(west)", "east"),
    ("direction(@a1, @c3)", "north_east"),
    ("direction(@c3, @a1)", "south_west"),
    ("direction(@a1, @d1)", "east"),
    ("direction(@a1, @b3)", "none"),              # not straight along any direction
    ("direction(@a1, @a1)", "none"),
    ("exits(@a1)", "[north, north_east, east]"),
    ("exits(@d3)", "[south, south_west, west]"),
    ("exits(@b2)", "[north, north_east, east, south_east, south, south_west, west, north_west]"),
    ("len(intersections())", "12"),               # even a corner has 3 neighbours
])
def test_square_board_geometry(expr, expected):
    assert value(SQUARE, expr) == expected


@pytest.mark.parametrize("expr, expected", [
    ("neighbors(@b2)", "[b3, c2, b1, a2]"),
    ("orthogonal(@b2)", "[b3, c2, b1, a2]"),
    ("distance(@a1, @d3)", "5"),                  # rook steps: 3 + 2
    ("distance(@b2, @c3)", "2"),
    ("reach(@b2, 5, [])", "[b3, c2, d2, b1, a2]"),
    ("sight(@a1, 3, [@c1])", "[a2, a3, b1]"),
    ("turn(north, 1)", "east"),
    ("turn(west, 1)", "north"),
    ("turn(north, -5)", "west"),
    ("opposite(south)", "north"),
    ("direction(@a1, @a3)", "north"),
    ("direction(@a1, @c3)", "none"),              # diagonals are not directions here
    ("exits(@a1)", "[north, east]"),
    ("exits(@b3)", "[east, south, west]"),
    ("intersections()", "[b1, c1, a2, b2, c2, d2, b3, c3]"),   # corners have 2 neighbours
])
def test_square_board_with_four_directions(expr, expected):
    assert value(ROOK, expr) == expected


@pytest.mark.parametrize("expr, expected", [
    # b2 (an even column, half a cell lower) as the drawing shows it, row 1 on top
    ("[step(@b2, d) for d in directions()]", "[b1, c2, c3, b3, a3, a2]"),
    ("neighbors(@b2)", "[b1, c2, c3, b3, a3, a2]"),
    ("[step(@c2, d) for d in directions()]", "[c1, d1, d2, c3, b2, b1]"),
    ("exits(@a1)", "[south_east, south]"),
    ("step(@a1, north)", "none"),
    ("ray(@a1, south_east, 5)", "[b1, c2, d2]"),
    ("ray(@a1, south, 2)", "[a2, a3]"),
    ("turn(north_west, 1)", "north"),
    ("turn(north, 3)", "south"),
    ("opposite(north_east)", "south_west"),
    ("direction(@a1, @d2)", "south_east"),
    ("direction(@d2, @a1)", "north_west"),
    ("direction(@a1, @a4)", "south"),
    ("direction(@a1, @c1)", "none"),
    ("intersections()", "[b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, a4, b4, c4]"),
])
def test_hex_board_geometry(expr, expected):
    assert value(HEX, expr) == expected


def test_a_declared_name_wins_over_a_direction():
    extra = "symbols north, up\nvar home = north"
    assert values(SQUARE, "home", "home == north", "directions()", extra=extra) == [
        "north", "true",
        "[north, north_east, east, south_east, south, south_west, west, north_west]"]
    bad = VALID_3 + "symbols north\nfn up(c) = step(c, north)\n"
    assert rule_error(bad) == lines(
        "bad.gdl:13:12: error: step(): argument 2 must be a direction, not a symbol",
        "    fn up(c) = step(c, north)",
        "               ^")


def test_a_direction_variable_keeps_its_type():
    assert rule_error(VALID_3 + "var facing = north\nfn f() = facing == 3\n") == lines(
        "bad.gdl:13:20: error: type mismatch: '==' compares a direction with a direction, but "
        "this is a number",
        "    fn f() = facing == 3",
        "                       ^")
    assert rule_error(VALID_3.replace("goto play for next(me)", "me.facing = 2")
                   + "var seat.facing = north\n") == lines(
        "bad.gdl:9:17: error: type mismatch: 'me.facing' holds a direction, but this is a "
        "number",
        "        me.facing = 2",
        "                    ^")


def test_direction_names_in_action_texts():
    game = rule("directions.gdl")
    state = game.new_state(0)
    # Tank#1 on a1 faces north; no 'aim': e5 lies on a diagonal, not along a direction
    assert texts(game, state) == [
        "drive Tank#1", "face Tank#1 east", "face Tank#1 south", "face Tank#1 west",
        "right Tank#1", "fire Tank#1"]


def test_typed_direction_words():
    game = rule("directions.gdl")
    state = game.new_state(0)
    assert game.action_text(state, game.parse_action(state, "FACE tank#1 East")) == (
        "face Tank#1 east")
    assert reason(game, state, "face Tank#1 up") == "'up' is not a direction"
    assert reason(game, state, "face Tank#1 north_east") == (
        "'north_east' is not a direction")      # a board of four directions
    assert reason(game, state, "face Tank#1 north") == "the rule 'd != p.facing' does not hold"
    assert reason(game, state, "drive Tank#1 north") == (
        "'drive' takes 1 argument (p), not 2; 1 legal now, e.g. 'drive Tank#1'")


def test_a_tank_aims_along_a_direction_and_fires():
    game = rule("directions.gdl")
    state = game.new_state(0)
    for blue, red in [("face Tank#1 east", "drive Tank#2"), ("right Tank#1", "drive Tank#2"),
                      ("face Tank#1 north", "drive Tank#2"), ("right Tank#1", "drive Tank#2")]:
        act_json(game, state, blue)
        act_json(game, state, red)
    view = game.view(state, None)
    assert [(p["cell"], p["vars"]["facing"]) for p in view["pieces"]] == [
        ("a1", "east"), ("e1", "south")]
    assert "aim Tank#1 Tank#2" not in texts(game, state)      # a1 already faces east
    act_json(game, state, "face Tank#1 north")
    act_json(game, state, "face Tank#2 west")
    assert "aim Tank#1 Tank#2" in texts(game, state)
    act_json(game, state, "aim Tank#1 Tank#2")
    assert game.view(state, None)["pieces"][0]["vars"]["facing"] == "east"
    act_json(game, state, "face Tank#2 north")
    assert act_json(game, state, "fire Tank#1") == [["log", "Tank#2 is hit at e1"], ["out", 1]]
    assert game.returns(state) == [1.0, -1.0]


def test_a_direction_shows_in_views_and_the_drawing():
    game = rule("directions.gdl")
    state = game.new_state(0)
    act_json(game, state, "right Tank#1")
    drawing = render(game, game.view(state, None))
    assert "  1  b> .  .  .  ." in drawing.splitlines()
    assert "  Tank#1 (blue): facing=east" in drawing.splitlines()


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("directions.gdl"), "directions.gdl", 500)
