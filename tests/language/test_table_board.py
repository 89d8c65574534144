"""Tables measured in inches: `board table(W, H)` (docs/language.md 8.7): distance is the
straight line between centres rounded up, `within`, `toward`, the edges; a small game on a
table (tests/rules/table.gdl) plays to the end."""

from __future__ import annotations

import math

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.runtime.view import render

from tests.helpers import (
    VALID, act, lines, logs, play_to_the_end, rule, rule_error, texts, value, values)


TABLE = "board table(30, 20)"


def name(column, row):
    """The name of a cell from 0-based coordinates: a1 is (0, 0); columns a..z, aa, ab, ..."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{row + 1}"


def inches(dx, dy):
    """The straight line between two centres, rounded up."""
    return math.ceil(math.sqrt(dx * dx + dy * dy))


@pytest.mark.parametrize("a, b", [((0, 0), (0, 0)), ((0, 0), (1, 1)), ((0, 0), (2, 1)),
                                  ((0, 0), (3, 4)), ((4, 3), (0, 0)), ((2, 2), (8, 2)),
                                  ((0, 0), (29, 19)), ((5, 5), (11, 12)), ((27, 1), (26, 0))])
def test_table_distance_is_the_straight_line_rounded_up(a, b):
    expected = inches(b[0] - a[0], b[1] - a[1])
    assert value(TABLE, f"distance(@{name(*a)}, @{name(*b)})") == str(expected)


def test_table_cells_are_named_as_on_a_square_board():
    board = "board table(28, 2)"
    assert value(board, "row_cells(2)") == "[" + ", ".join(
        name(column, 1) for column in range(28)) + "]"
    assert values(board, "column(@ab2)", "len(cells())") == ["28", "56"]


def test_table_has_eight_directions_like_a_square_board():
    assert values(TABLE, "neighbors(@a1)", "neighbors(@d4)", "directions()") == [
        "[a2, b2, b1]", "[d5, e5, e4, e3, d3, c3, c4, c5]",
        "[north, north_east, east, south_east, south, south_west, west, north_west]"]


@pytest.mark.parametrize("radius", [0, 1, 2, 5, 6, 9])
def test_within_counts_the_lattice_points_of_the_circle(radius):
    """Away from the edges, within(c, r) has one cell per point with dx² + dy² <= r²."""
    points = sum(1 for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
                 if dx * dx + dy * dy <= radius * radius)
    assert value(TABLE, f"len(within(@o10, {radius}))") == str(points)


def test_within_is_exactly_the_cells_at_that_distance_in_cell_order():
    centre = (3, 2)
    radius = 3
    expected = [name(c, r) for r in range(20) for c in range(30)
                if inches(c - centre[0], r - centre[1]) <= radius]
    assert value(TABLE, f"within(@{name(*centre)}, {radius})") == "[" + ", ".join(
        expected) + "]"
    assert values(TABLE, "within(@a1, 1)", "within(@a1, 0)", "within(@a1, -1)",
                  "len(within(@a1, 100))") == ["[a1, b1, a2]", "[a1]", "[]", "600"]


def test_within_on_the_other_boards_counts_their_steps():
    assert values("board square(5, 5)", "len(within(@c3, 1))", "len(within(@a1, 1))") == [
        "9", "4"]
    assert value("board hex(5, 5)", "within(@c3, 1)") == "[b2, c2, d2, b3, c3, d3, c4]"
    assert value("board square(5, 5) directions 4", "len(within(@c3, 2))") == "13"


def exact_toward(a, b, n):
    """The cell n along the straight line from a toward b, each coordinate rounded to the
    nearest cell (b itself when it is closer)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.sqrt(dx * dx + dy * dy)
    if n >= math.ceil(length):
        return b
    return (a[0] + round(dx * n / length), a[1] + round(dy * n / length))


@pytest.mark.parametrize("a, b, n", [((0, 0), (3, 4), 1), ((0, 0), (3, 4), 2),
                                     ((0, 0), (3, 4), 4), ((0, 0), (3, 4), 5),
                                     ((0, 0), (3, 4), 9), ((10, 10), (2, 4), 3),
                                     ((2, 3), (20, 3), 6), ((20, 3), (2, 3), 6),
                                     ((0, 0), (9, 9), 1), ((1, 1), (29, 19), 18),
                                     ((5, 5), (5, 5), 3), ((5, 5), (6, 7), 0)])
def test_toward_on_a_table_rounds_the_exact_point(a, b, n):
    expected = exact_toward(a, b, n) if n > 0 else a
    assert value(TABLE, f"toward(@{name(*a)}, @{name(*b)}, {n})") == name(*expected)


def test_a_diagonal_inch_rounds_to_a_cell_two_inches_away():
    """Rounding the exact point to a cell can land further than n: 0.71 inch each way rounds
    to the diagonal neighbour, which is 1.41 inches away (2 rounded up)."""
    assert values(TABLE, "toward(@a1, @j10, 1)", "distance(@a1, toward(@a1, @j10, 1))") == [
        "b2", "2"]


def test_toward_on_the_other_boards_follows_the_line():
    assert values("board square(5, 5)", "toward(@a1, @e3, 2)", "toward(@a1, @e3, 20)",
                  "toward(@a1, @e3, 0)", "toward(@a1, @e3, -2)") == ["c2", "e3", "a1", "a1"]
    assert value("board hex(5, 5)", "toward(@a1, @e3, 2)") == "c2"


def test_toward_a_negative_distance_stays_put_on_a_table():
    assert values(TABLE, "toward(@e5, @h5, -2)", "toward(@a1, @d5, -1)") == ["e5", "a1"]


def test_toward_on_a_table_never_gives_a_hole():
    board = "board table(5, 5) holes(c) where c == @c3"
    assert values(board, "toward(@a1, @e5, 3) in cells()",
                  "toward(@a3, @e3, 2) in cells()") == ["true", "true"]


@pytest.mark.parametrize("cell, edge_distance, nearest_edge", [
    ("a1", 0, "south"),          # south and west tie: south comes first
    ("ad20", 0, "north"),        # north and east tie: north first
    ("ad1", 0, "east"),          # east and south tie: east first
    ("a20", 0, "north"),         # north and west
    ("c10", 2, "west"),
    ("ab10", 2, "east"),
    ("o3", 2, "south"),
    ("o18", 2, "north"),
    ("j10", 9, "south"),         # 9 to the south and west, 10 to the north: south first
    ("o11", 9, "north"),         # 9 to the north, 10 to the south
    ("e5", 4, "south"),          # 4 to the south and west: south before west
])
def test_edge_distance_and_nearest_edge_on_a_table(cell, edge_distance, nearest_edge):
    assert values(TABLE, f"edge_distance(@{cell})", f"nearest_edge(@{cell})") == [
        str(edge_distance), nearest_edge]


def test_nearest_edge_on_a_square_board():
    board = "board square(5, 4) directions 4"
    assert values(board, "nearest_edge(@c1)", "nearest_edge(@c4)", "nearest_edge(@a2)",
                  "nearest_edge(@e3)", "edge_distance(@c2)", "edge_distance(@c3)") == [
        "south", "north", "west", "east", "1", "1"]


def test_nearest_edge_on_a_hex_board_is_a_check_error():
    """A hex board has no east and west edges (nor directions) to name."""
    with pytest.raises(GdlRuleError) as info:
        values("board hex(5, 5)", "nearest_edge(@c1)")
    assert "nearest_edge() needs a square or table board" in str(info.value)


def test_a_skirmish_on_the_table():
    game = rule("table.gdl")
    state = game.new_state(0)
    assert texts(game, state).count("run Scout#1") == 1
    walks = [t for t in texts(game, state) if t.startswith("walk Scout#1 ")]
    reachable = [name(c, r) for r in range(12) for c in range(24)
                 if 0 < inches(c - 2, r - 3) <= 6]         # within 6 of c4, the table's edges
    assert walks == [f"walk Scout#1 {cell}" for cell in reachable]
    act(game, state, "run Scout#1")                  # c4 toward v4, the nearest red: 9 east
    assert game.view(state, None)["pieces"][0]["cell"] == "l4"
    assert "shoot Scout#3 Scout#1" in texts(game, state)     # v4 to l4: 10 inches
    assert "shoot Scout#4 Scout#1" in texts(game, state)     # v9 to l4: sqrt(125), 12
    assert "shoot Scout#3 Scout#2" not in texts(game, state)  # v4 to c9: sqrt(386), 20


def test_a_scout_slips_off_by_the_nearest_edge():
    game = rule("table.gdl")
    state = game.new_state(0)
    act(game, state, "walk Scout#1 c1")
    act(game, state, "walk Scout#3 x4")
    assert logs(act(game, state, "slip Scout#1")) == ["Scout#1 slips off the south edge"]
    assert logs(act(game, state, "slip Scout#3")) == ["Scout#3 slips off the east edge"]


def test_a_table_is_drawn_like_a_square_board():
    game = load_source(VALID.replace("square(3, 3)", "table(3, 2)"), "t.gdl")
    drawing = render(game, game.view(game.new_state(0), None)).splitlines()
    assert drawing[1:5] == ["     a  b  c ", "  2  .  .  .", "  1  .  .  .", "     a  b  c "]


def test_a_table_has_eight_directions_only():
    assert rule_error(VALID.replace("square(3, 3)", "table(3, 3) directions 4")) == lines(
        "bad.gdl:3:1: error: a table board has 8 directions, not 4",
        "    board table(3, 3) directions 4",
        "    ^")


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("table.gdl"), "table.gdl", 300, draw=True)
