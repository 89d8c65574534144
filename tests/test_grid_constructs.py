"""Directions, boards with holes, seat order, dice placements and `auto` phases.

Each construct has a small playable game under tests/rules/ (directions.gdl, holes.gdl,
seat_order.gdl, placements.gdl, auto.gdl); geometry is checked value by value on boards
made for the test, and the checker's messages are pinned whole.
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError, IllegalAction
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import render
from gdl.interpreter.runtime.events import as_json

TESTS = Path(__file__).parent
ROOT = TESTS.parent
RULES = TESTS / "rules"


@functools.lru_cache(maxsize=None)
def rule(name):
    return load_game(str(RULES / name))


def act(game, state, text):
    """Play the legal action whose text is `text`; return its events in their JSON form."""
    return as_json(game.apply(state, game.parse_action(state, text)))


def texts(game, state):
    return [game.action_text(state, a) for a in game.legal_actions(state)]


def reason(game, state, text):
    """Why `text` is refused (the IllegalAction's message)."""
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, text)
    return str(info.value).removeprefix("error: ")


def deciding(game, state):
    return game.seats[game.current_player(state)]


def values(board, *exprs, extra=""):
    """`text(e)` of each expression, worked out in the setup of a game on `board`."""
    logs = "\n".join(f"  log text({e})" for e in exprs)
    source = (f"seats a, b\n{board}\n{extra}\nsetup {{\n{logs}\n  goto play for a\n}}\n"
              "phase play turn { action pass() { goto play for next(me) } }\n")
    state = load_source(source, "values.gdl").new_state(0)
    return [event[1] for event in as_json(state.events)]


def value(board, expr, extra=""):
    return values(board, expr, extra=extra)[0]


# A valid game of 11 lines (as in test_check_errors.py); cases edit it or add lines after it.
VALID = textwrap.dedent("""\
    game "T"
    seats a, b, c
    board square(3, 3)
    setup {
      goto play for a
    }
    phase play {
      action pass() {
        goto play for next(me)
      }
    }
    """)


def message(text):
    with pytest.raises(GdlRuleError) as info:
        load_source(text, "bad.gdl")
    return str(info.value)


def lines(*parts):
    return "\n".join(parts)


# ----- directions -----------------------------------------------------------------------------

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
    bad = VALID + "symbols north\nfn up(c) = step(c, north)\n"
    assert message(bad) == lines(
        "bad.gdl:13:12: error: step(): argument 2 must be a direction, not a symbol",
        "    fn up(c) = step(c, north)",
        "               ^")


def test_a_direction_variable_keeps_its_type():
    assert message(VALID + "var facing = north\nfn f() = facing == 3\n") == lines(
        "bad.gdl:13:20: error: type mismatch: cannot compare a direction with, but this is a "
        "number",
        "    fn f() = facing == 3",
        "                       ^")
    assert message(VALID.replace("goto play for next(me)", "me.facing = 2")
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
    assert reason(game, state, "drive Tank#1 north") == "'drive' takes 1 argument(s), not 2"


def test_a_tank_aims_along_a_direction_and_fires():
    game = rule("directions.gdl")
    state = game.new_state(0)
    for blue, red in [("face Tank#1 east", "drive Tank#2"), ("right Tank#1", "drive Tank#2"),
                      ("face Tank#1 north", "drive Tank#2"), ("right Tank#1", "drive Tank#2")]:
        act(game, state, blue)
        act(game, state, red)
    view = game.view(state, None)
    assert [(p["cell"], p["vars"]["facing"]) for p in view["pieces"]] == [
        ("a1", "east"), ("e1", "south")]
    assert "aim Tank#1 Tank#2" not in texts(game, state)      # a1 already faces east
    act(game, state, "face Tank#1 north")
    act(game, state, "face Tank#2 west")
    assert "aim Tank#1 Tank#2" in texts(game, state)
    act(game, state, "aim Tank#1 Tank#2")
    assert game.view(state, None)["pieces"][0]["vars"]["facing"] == "east"
    act(game, state, "face Tank#2 north")
    assert act(game, state, "fire Tank#1") == [["log", "Tank#2 is hit at e1"], ["out", 1]]
    assert game.returns(state) == [1.0, -1.0]


def test_a_direction_shows_in_views_and_the_drawing():
    game = rule("directions.gdl")
    state = game.new_state(0)
    act(game, state, "right Tank#1")
    drawing = render(game, game.view(state, None))
    assert "  1  b> .  .  .  ." in drawing.splitlines()
    assert "  Tank#1 (blue): facing=east" in drawing.splitlines()


# ----- boards with holes ----------------------------------------------------------------------

TWO_HOLES = "board square(4, 4) holes(c) where c in [@b2, @c3]"


@pytest.mark.parametrize("expr, expected", [
    ("cells()", "[a1, b1, c1, d1, a2, c2, d2, a3, b3, d3, a4, b4, c4, d4]"),
    ("row_cells(2)", "[a2, c2, d2]"),
    ("column_cells(2)", "[b1, b3, b4]"),
    ("neighbors(@a1)", "[a2, b1]"),               # b2 is not there
    ("orthogonal(@b1)", "[c1, a1]"),
    ("line(@a1, @d4)", "[]"),                   # b2 and c3 are left out of the line
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
        act(game, state, text)
    # from e4 the way west ends on d4, where blue stands
    assert reason(game, state, "run Runner#2 c4") == (
        "c4 is not a possible 'to' now (not in reach(p.cell, p.speed, [q.cell for q in "
        "pieces()]))")
    assert act(game, state, "run Runner#2 d4") == [["log", "Runner#1 is caught at d4"],
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
    ("board square(3, 3) directions 6", "", [
        "bad.gdl:3:1: error: a square board has 4 or 8 directions, not 6",
        "    board square(3, 3) directions 6",
        "    ^"]),
    ("board hex(3, 3) directions 4", "", [
        "bad.gdl:3:1: error: a hex board has 6 directions, not 4",
        "    board hex(3, 3) directions 4",
        "    ^"]),
], ids=["terrain", "upper-case", "expression", "all-holes", "not-a-condition", "off-board",
        "terrain-in-holes", "function-call", "square-6", "hex-4"])
def test_board_errors(board, extra, expected):
    assert message(VALID.replace("board square(3, 3)", board) + extra + "\n") == lines(
        *expected)


def test_holes_may_use_parameters_declared_anywhere():
    board = "board square(n, n) holes(c) where row(c) == n and column(c) != n"
    assert values(board, "cells()", extra="param n = 2") == ["[a1, b1, b2]"]


# ----- seat order: clockwise_from, counterclockwise_from, call ... for each -------------------

def test_seats_round_the_table():
    source = ("seats blue, red, green, yellow\nboard square(1, 1)\nsetup {\n"
              "  log text(clockwise_from(green)) + text(counterclockwise_from(green))\n"
              "  lose red\n"
              "  log text(clockwise_from(green)) + text(counterclockwise_from(red))\n"
              "  goto play for blue\n}\nphase play { action pass() { } }\n")
    assert as_json(load_source(source, "t.gdl").new_state(0).events) == [
        ["log", "[green, yellow, blue, red][green, red, blue, yellow]"],
        ["out", 1],
        ["log", "[green, yellow, blue][blue, yellow, green]"]]   # red is out: from its place


@pytest.mark.parametrize("toast, order", [
    ("toast_left", ["red", "green", "yellow"]),
    ("toast_right", ["yellow", "green", "red"]),
])
def test_call_for_each_asks_the_seats_in_order(toast, order):
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    assert act(game, state, toast) == []
    asked = []
    for _ in order[:-1]:
        asked.append(deciding(game, state))
        assert act(game, state, "drink") == []        # the round goes on: no 'on resume'
    asked.append(deciding(game, state))
    events = act(game, state, "drink")               # the last seat returns: the host resumes
    assert asked == order
    assert events == [["log", "answered: [red, green, yellow]"]]      # in seat order
    assert [s["chips"] for s in state.seat_vars] == [6, 2, 2, 2]
    assert deciding(game, state) == "red" and state.turn == 2     # the host's 'goto'



def test_a_seat_knocked_over_earlier_in_the_round_is_skipped():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    act(game, state, "toast_left")
    assert deciding(game, state) == "red"
    act(game, state, "knock")                        # green falls before its answer
    assert deciding(game, state) == "yellow"
    assert act(game, state, "drink") == [["log", "answered: [red, yellow]"]]
    assert deciding(game, state) == "red"            # the next host
    assert state.turn == 2


def test_when_no_seat_qualifies_the_caller_resumes_at_once():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    for seat in state.seat_vars:
        seat["standing"] = False
    assert act(game, state, "toast_right") == [["log", "answered: []"]]
    assert deciding(game, state) == "red"


def test_a_seat_out_of_the_game_is_skipped():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    game.concede(state, 2)                           # green
    act(game, state, "toast_left")
    act(game, state, "drink")
    assert deciding(game, state) == "yellow"


EACH = textwrap.dedent("""\
    seats a, b, c, d
    board square(1, 1)
    var order = []
    var seen = []
    var resumed = 0
    var seat.ok = true
    setup {
      goto main for a
    }
    phase main turn {
      on resume {
        resumed += 1
        goto main for next(me)
      }
      action ask() {
        call reply(turn_number) for each s in clockwise_from(me) where s.ok
      }
    }
    phase reply(t) MODE {
      action ok() {
        order = order + [me]
        seen = seen + [t * 10 + turn_number]
        return
      }
      action again() {
        goto reply(t + 1) for me
      }
      action drop(s in seats) where s != me {
        s.ok = false
      }
    }
    """)


def test_call_for_each_of_a_plain_phase():
    game = load_source(EACH.replace(" MODE", ""), "each.gdl")
    state = game.new_state(0)
    act(game, state, "ask")
    assert deciding(game, state) == "a"              # the list starts with the caller
    act(game, state, "ok")
    act(game, state, "drop c")
    act(game, state, "again")                        # a goto stays in b's slot of the round
    assert deciding(game, state) == "b"
    act(game, state, "ok")
    assert deciding(game, state) == "d"              # c was dropped
    act(game, state, "ok")
    assert state.globals == {"order": [0, 1, 3], "seen": [11, 21, 11], "resumed": 1}
    assert deciding(game, state) == "b"
    assert state.turn == 2


def test_call_for_each_of_a_turn_phase_starts_a_turn_for_each_seat():
    game = load_source(EACH.replace(" MODE", " turn"), "each.gdl")
    state = game.new_state(0)
    act(game, state, "ask")
    for _ in range(4):
        act(game, state, "ok")
    # every entry started a turn; the argument was worked out once, at the call (turn 1)
    assert state.globals == {"order": [0, 1, 2, 3], "seen": [12, 13, 14, 15], "resumed": 1}
    assert state.turn == 6 and deciding(game, state) == "b"


def test_a_round_survives_a_json_round_trip():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    act(game, state, "toast_left")
    act(game, state, "knock")
    copy = State.from_json(state.to_json())
    for each in (state, copy):
        assert act(game, each, "drink") == [["log", "answered: [red, yellow]"]]
    assert copy.to_json() == state.to_json()


def test_the_condition_may_not_read_locals():
    bad = VALID.replace("goto play for next(me)",
                        "let n = 2\n    call play for each s in seats where n > 1")
    assert message(bad) == lines(
        "bad.gdl:10:41: error: unknown name 'n'",
        "        call play for each s in seats where n > 1",
        "                                            ^")


def test_call_for_each_must_come_last():
    bad = VALID.replace("goto play for next(me)",
                        "call play for each s in seats\n    log \"asked\"")
    assert message(bad) == lines(
        "bad.gdl:10:5: error: this would run before the 'call' on line 9 is answered: a 'call' "
        "must come last; move this into the called phase or an 'on resume' block",
        "        log \"asked\"",
        "        ^")


@pytest.mark.parametrize("stmt, expected", [
    ("call play for each s in [1, 2]", [
        "bad.gdl:9:29: error: type mismatch: 'call ... for each ... in' needs list of a seat, "
        "but this is list of a number",
        "        call play for each s in [1, 2]",
        "                                ^"]),
    ("call play for each s in seats where s", [
        "bad.gdl:9:41: error: type mismatch: a 'where' condition needs true/false, but this is "
        "a seat",
        "        call play for each s in seats where s",
        "                                            ^"]),
    ("call play(1) for each s in seats", [
        "bad.gdl:9:5: error: phase 'play' takes 0 argument(s), not 1",
        "        call play(1) for each s in seats",
        "        ^"]),
])
def test_call_for_each_errors(stmt, expected):
    assert message(VALID.replace("goto play for next(me)", stmt)) == lines(*expected)


# ----- dice placements ------------------------------------------------------------------------

SLOTS = "symbols Move, Fire, Direction"


@pytest.mark.parametrize("dice, slots, count", [
    ("[3, 3, 5]", "[Move, Fire, Direction]", 18),   # 27 ways, less the 9 that swap the 3s
    ("[1, 2, 3, 4]", "[Move, Fire, Direction]", 81),  # distinct dice: 3 ** 4
    ("[2, 2, 2]", "[Move, Fire]", 4),              # 0, 1, 2 or 3 of them on Move
    ("[6]", "[Fire]", 1),
    ("[]", "[Move, Fire]", 1),                     # no dice: the one empty placement
    ("[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "[Move, Fire, Direction]", 66),   # 3 ** 10 tried
])
def test_placements_are_counted_once(dice, slots, count):
    found = values("board square(1, 1)", f"len(placements({dice}, {slots}))",
                   f"len(unique([text(p) for p in placements({dice}, {slots})]))",
                   extra=SLOTS)
    assert found == [str(count), str(count)]


def test_placement_texts():
    assert value("board square(1, 1)", "placements([5, 3, 3], [Move, Fire])", extra=SLOTS) == (
        "[Move 3+3+5, Move 3+3 Fire 5, Move 3+5 Fire 3, Move 3 Fire 3+5, Move 5 Fire 3+3, "
        "Fire 3+3+5]")


def test_placed_and_total():
    exprs = ["[placed(p, Move) for p in placements([4, 1], [Move, Fire])]",
             "[placed(p, Fire) for p in placements([4, 1], [Move, Fire])]",
             "[total(placed(p, Move)) for p in placements([4, 1], [Move, Fire])]",
             "total([])"]
    assert values("board square(1, 1)", *exprs, extra=SLOTS) == [
        "[[1, 4], [1], [4], []]", "[[], [4], [1], [1, 4]]", "[5, 1, 4, 0]", "0"]


def test_too_many_placements_is_a_run_time_error():
    """11 different dice on 3 slots: 3 ** 11 = 177147 placements."""
    source = VALID.replace("goto play for a", "n = len(placements(range(1, 11), [Move, Fire, "
                           "Direction]))\n  goto play for a") + SLOTS + "\nvar n = 0\n"
    with pytest.raises(GdlRuntimeError) as info:
        load_source(source, "many.gdl").new_state(0)
    assert str(info.value) == lines(
        "many.gdl:5:11: error: run-time error: 11 dice on 3 slots are too many ways to try "
        "(more than 1000000 steps)",
        "      n = len(placements(range(1, 11), [Move, Fire, Direction]))",
        "              ^")


def test_the_legal_placements_of_three_dice():
    """One die of 2, 5, 3 on Direction (3 ways), the other two on Move and Fire (4 ways)."""
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    assert texts(game, state) == [
        "place Move 2+3 Direction 5", "place Move 2 Fire 3 Direction 5",
        "place Move 2+5 Direction 3", "place Move 2 Fire 5 Direction 3",
        "place Move 3 Fire 2 Direction 5", "place Fire 2+3 Direction 5",
        "place Move 5 Fire 2 Direction 3", "place Fire 2+5 Direction 3",
        "place Move 3+5 Direction 2", "place Move 3 Fire 5 Direction 2",
        "place Move 5 Fire 3 Direction 2", "place Fire 3+5 Direction 2"]


def test_equal_dice_give_each_placement_once():
    """3, 3, 5: Direction takes a 3 (4 ways for 3 and 5 on Move and Fire) or the 5 (3 ways
    for the two 3s), 7 in all."""
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 3), (6, 3), (6, 5)])
    assert texts(game, state) == [
        "place Move 3+3 Direction 5", "place Move 3 Fire 3 Direction 5",
        "place Move 3+5 Direction 3", "place Move 3 Fire 5 Direction 3",
        "place Fire 3+3 Direction 5", "place Move 5 Fire 3 Direction 3",
        "place Fire 3+5 Direction 3"]


def test_typed_placements():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    assert game.action_text(state, game.parse_action(state, "PLACE move 2+5  direction 3")) == (
        "place Move 2+5 Direction 3")
    assert reason(game, state, "place Move 2+5 Direction 4") == (
        "Move 2+5 Direction 4 is not a possible 'p' now (not in placements(me.dice, [Move, "
        "Fire, Direction]))")
    assert reason(game, state, "place Move 2+3+5") == (
        "the rule 'len(placed(p, Direction)) == 1' does not hold")
    assert reason(game, state, "place Move 2+5 Direction") == (
        "'Move 2+5 Direction' is not a placement of dice")
    assert reason(game, state, "place Move 2 Move 5 Direction 3") == (
        "'Move 2 Move 5 Direction 3' is not a placement of dice")
    assert reason(game, state, "place Jump 2+5 Direction 3") == (
        "'Jump 2+5 Direction 3' is not a placement of dice")


def test_a_placement_moves_and_fires():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 4), (6, 6), (6, 6), (6, 1)])
    assert act(game, state, "place Move 2+5 Direction 4") == [
        ["roll", 6, 6, "fixed"], ["roll", 6, 6, "fixed"], ["roll", 6, 1, "fixed"]]
    assert game.view(state, None)["pieces"][0]["cell"] == "c1"     # even: two cells east
    assert act(game, state, "place Fire 6+6 Direction 1")[0] == ["log", "Skiff#1 is hit"]
    assert state.seat_vars[0]["hits"] == 1                  # 12 is more than 9 cells


def test_dice_typed_high_first():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    try:
        action = game.parse_action(state, "place Move 5+2 Direction 3")
    except IllegalAction as exc:
        assert "not a legal action now" not in str(exc)
    else:
        assert game.action_text(state, action) == "place Move 2+5 Direction 3"


NO_DICE = VALID + SLOTS + "\nvar dice = []\n"
NO_DICE = NO_DICE.replace("action pass() {", "action place(p in placements(dice, [Move])) {")


def test_the_empty_placement_can_be_typed():
    game = load_source(NO_DICE, "nodice.gdl")
    state = game.new_state(0)
    [action] = game.legal_actions(state)
    assert game.parse_action(state, game.action_text(state, action)) == action


def test_no_slots_give_no_placement():
    assert value("board square(1, 1)", "placements([4], [])", extra=SLOTS) == "[]"


def test_a_kept_placement_survives_a_json_round_trip():
    source = VALID + SLOTS + "\nvar kept = none\nvar found = false\n"
    source = source.replace(
        "action pass() {",
        "action keep(p in placements([1, 2], [Move, Fire])) {\n    kept = p\n  }\n"
        "  action find() {\n    found = kept in placements([1, 2], [Move, Fire])\n  }\n"
        "  action pass() {")
    game = load_source(source, "kept.gdl")
    state = game.new_state(0)
    act(game, state, "keep Move 1 Fire 2")
    loaded = State.from_json(state.to_json())
    act(game, state, "find")
    act(game, loaded, "find")
    assert state.globals["found"] is True
    assert loaded.globals["found"] is True


# ----- auto phases ----------------------------------------------------------------------------

def test_setup_plays_the_forced_actions():
    """Blue's fuel 1 drives a2 to a3 and parks; red's 2 drives g6 to g4 and parks; blue's 3
    drives to a4, a crossing: blue decides."""
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3)])
    assert as_json(state.events) == [
        ["roll", 3, 1, "fixed"], ["auto", 0, "go Courier#1 north"], ["auto", 0, "park"],
        ["roll", 3, 2, "fixed"], ["auto", 1, "go Courier#2 south"],
        ["auto", 1, "go Courier#2 south"], ["auto", 1, "park"],
        ["roll", 3, 3, "fixed"], ["auto", 0, "go Courier#1 north"]]
    assert (state.turn, state.decisions, deciding(game, state)) == (3, 0, "blue")
    assert texts(game, state) == ["go Courier#1 north", "go Courier#1 east"]


def test_a_decision_is_followed_by_the_forced_actions():
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3), (3, 3)])
    assert act(game, state, "go Courier#1 east") == [
        ["auto", 0, "go Courier#1 east"], ["auto", 0, "park"], ["roll", 3, 3, "fixed"]]
    assert [p["cell"] for p in game.view(state, None)["pieces"]] == ["c4", "g4"]
    assert (state.turn, state.decisions, deciding(game, state)) == (4, 1, "red")
    assert texts(game, state) == ["go Courier#2 south", "go Courier#2 west"]


def test_auto_stops_when_the_game_ends():
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3), (3, 1), (3, 3)])
    act(game, state, "go Courier#1 east")          # blue parks on c4; red's fuel is 1
    events = act(game, state, "go Courier#2 west")  # f4; blue's 3: d4 is the depot
    assert events == [["auto", 1, "park"], ["roll", 3, 3, "fixed"],
                      ["auto", 0, "go Courier#1 east"]]
    assert game.returns(state) == [1.0, -1.0]


def test_a_phase_that_never_stops_playing_by_itself():
    source = VALID.replace("phase play {", "phase play auto {")
    with pytest.raises(GdlRuntimeError) as info:
        load_source(source, "spin.gdl").new_state(0)
    assert str(info.value) == (
        "spin.gdl:7:1: error: run-time error: phase 'play' played more than 10,000 actions "
        "on its own ('auto') after one decision\n"
        "    phase play auto {\n"
        "    ^")


def test_auto_on_a_simultaneous_phase_is_an_error():
    bad = VALID + "phase vote simultaneous auto {\n  action yes() { }\n}\n"
    assert message(bad) == lines(
        "bad.gdl:12:1: error: a simultaneous phase cannot be 'auto': an action played on its "
        "own is shown to every seat",
        "    phase vote simultaneous auto {",
        "    ^")


def test_a_concession_that_leaves_one_action_plays_it():
    source = VALID.replace("phase play {", "phase play auto {").replace(
        "action pass() {", "action wait() where len(seats) == 3 {\n  }\n  action pass() {"
    ).replace("goto play for next(me)", "win me")
    game = load_source(source, "concede.gdl")
    state = game.new_state(0)
    assert texts(game, state) == ["wait", "pass"]
    game.concede(state, 2)
    assert as_json(state.events) == [["out", 2], ["auto", 0, "pass"]]


def gdl(*args):
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_record_and_replay_with_forced_actions(tmp_path):
    out = tmp_path / "couriers.txt"
    result = gdl("record", str(RULES / "auto.gdl"), "--seed", "3", "-o", str(out))
    assert result.returncode == 0, result.stderr
    recorded = out.read_text().splitlines()
    decisions = [line for line in recorded if line[:1].isdigit()]
    autos = [line for line in recorded if line.startswith("  auto: ")]
    assert decisions and autos
    assert not [line for line in decisions if " park" in line]   # park is never a choice
    ok = gdl("replay", str(out))
    assert ok.returncode == 0, ok.stderr
    assert f"{len(decisions)} decisions replay identically" in ok.stdout
    index = recorded.index(autos[-1])
    recorded[index] += " again"                      # an auto action that was not played
    out.write_text("\n".join(recorded) + "\n")
    bad = gdl("replay", str(out))
    assert bad.returncode == 1
    assert f"{out}:{index + 1}: replay differs at step" in bad.stderr


# ----- the five games play to the end ----------------------------------------------------------

@pytest.mark.parametrize("name", ["directions.gdl", "holes.gdl", "seat_order.gdl",
                                  "placements.gdl", "auto.gdl"])
def test_random_games_end_and_round_trip(name):
    game = rule(name)
    for seed in range(3):
        state = game.new_state(seed)
        chooser = random.Random(seed)
        while state.result is None and state.decisions < 500:
            legal = game.legal_actions(state)
            assert legal, f"{name}: stuck in {state.frames[-1]['phase']}"
            action = chooser.choice(legal)
            assert game.parse_action(state, game.action_text(state, action)) == action
            game.apply(state, action)
            assert State.from_json(state.to_json()).to_json() == state.to_json()
        assert state.result is not None, f"{name} seed {seed} did not end"


def test_a_scenario_entering_an_auto_phase_plays_the_forced_actions(tmp_path):
    """Blue's courier on a2 heading north with 1 fuel: a3 is the only way, then `park` the
    only action; red's, on g6 heading south with 3 fuel, goes to the crossing g4 and waits
    there for red's choice. The scenario's `phase` line plays all of it."""
    scenario = tmp_path / "forced.scenario"
    scenario.write_text("\n".join([
        f"rules {ROOT / 'tests' / 'rules' / 'auto.gdl'}",
        "clear",
        "piece Courier blue a2 heading=north",
        "piece Courier red g6 heading=south",
        "roll 3 1",
        "roll 3 3",
        "phase drive for blue",
        "expect Courier#1 at a3",
        "expect Courier#2 at g4",
        "expect phase drive for red",
        "expect red.fuel == 1",
        ""]))
    result = gdl("test", str(scenario))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
