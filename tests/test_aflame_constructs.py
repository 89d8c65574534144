"""The table board, zones off the board, dice pools and piece variables from the kinds table.

Each construct has a small playable game under tests/rules/ (table.gdl, zones.gdl, pools.gdl;
pools.gdl also uses `var piece.models from size`); the geometry of a table is checked against
values worked out here from the rule (straight line between centres, rounded up), and the
checker's messages are pinned whole.
"""

from __future__ import annotations

import functools
import math
import random
import textwrap
from pathlib import Path

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.play.transcript import play_game
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import render
from gdl.interpreter.runtime.events import as_json

RULES = Path(__file__).parent / "rules"


@functools.lru_cache(maxsize=None)
def rule(name):
    return load_game(str(RULES / name))


def act(game, state, text):
    """Play the legal action whose text is `text`; return its events."""
    return game.apply(state, game.parse_action(state, text))


def texts(game, state, viewer=None):
    return [game.action_text(state, a, viewer) for a in game.legal_actions(state)]


def logs(events):
    return [e[1] for e in as_json(events) if e[0] == "log"]


def values(board, *exprs, extra="", forced=()):
    """`text(e)` of each expression, worked out in the setup of a game on `board`."""
    lines = "\n".join(f"  log text({e})" for e in exprs)
    source = (f"seats a, b\n{board}\n{extra}\nsetup {{\n{lines}\n  goto play for a\n}}\n"
              "phase play turn { action pass() { goto play for next(me) } }\n")
    return logs(load_source(source, "values.gdl").new_state(0, forced=forced).events)


def value(board, expr, extra="", forced=()):
    return values(board, expr, extra=extra, forced=forced)[0]


def runtime_error(board, expr, extra=""):
    with pytest.raises(GdlRuntimeError) as info:
        values(board, expr, extra=extra)
    return str(info.value).splitlines()[0]


# A valid game of 11 lines (as in test_check_errors.py); cases add lines from line 12 on.
VALID = textwrap.dedent("""\
    game "T"
    seats a, b
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


# ----- the table board ------------------------------------------------------------------------

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


# ----- zones ----------------------------------------------------------------------------------

ZONES = textwrap.dedent("""\
    kinds (worth) {
      Card = 1
    }
    zone hand per seat visible to viewer == owner
    zone pile
    """)


def zone_values(*exprs, before=""):
    """`text(e)` of each expression after `before` ran in the setup; three cards of a on a1,
    b1, c1 and one of b off the board."""
    setup = ("create Card for a at @a1\n  create Card for a at @b1\n"
             "  create Card for a at @c1\n  create Card for b at none\n  cards = pieces()\n  "
             + before.replace("\n", "\n  "))
    extra = ZONES + "var cards = []\nfn card(n) = nth(cards, n)\n"
    lines_ = "\n".join(f"  log text({e})" for e in exprs)
    source = (f"seats a, b\nboard square(3, 3)\n{extra}\nsetup {{\n  {setup}\n{lines_}\n"
              "  goto play for a\n}\nphase play turn { action pass() { goto play for next(me) } }\n")
    return logs(load_source(source, "zones.gdl").new_state(0).events)


def test_put_takes_a_piece_off_the_board_into_a_zone_as_its_newest():
    before = "put card(3) into hand of a\nput card(1) into hand of a\nput card(4) into pile"
    assert zone_values("pieces_in(hand, a)", "pieces_in(hand, b)", "pieces_in(pile)",
                       "pieces_at(@a1)", "card(1).cell", "card(2).cell", before=before) == [
        "[a:Card#3, a:Card#1]", "[]", "[b:Card#1]", "[]", "none", "b1"]


def test_put_from_one_zone_into_another_makes_it_the_newest_there():
    before = ("put card(1) into hand of a\nput card(2) into hand of a\nput card(3) into pile\n"
              "put card(1) into pile\nput card(3) into hand of b\nput card(3) into pile")
    assert zone_values("pieces_in(hand, a)", "pieces_in(hand, b)", "pieces_in(pile)",
                       before=before) == ["[a:Card#2]", "[]", "[a:Card#1, a:Card#3]"]


def test_the_zone_of_a_piece():
    before = "put card(1) into hand of a\nput card(4) into pile"
    assert zone_values("card(1).zone", "card(4).zone", "card(2).zone", "card(1).zone == hand",
                       "card(1).zone == pile", "card(2).zone == none",
                       "[p for p in pieces() where p.zone == hand]", before=before) == [
        "hand", "pile", "none", "true", "false", "true", "[a:Card#1]"]


def test_place_move_and_remove_take_a_piece_out_of_its_zone():
    before = ("put card(1) into hand of a\nput card(2) into hand of a\n"
              "put card(3) into hand of a\nplace card(1) at @c3\nmove card(2) along [@b3]\n"
              "remove card(3)")
    assert zone_values("pieces_in(hand, a)", "card(1).zone", "card(1).cell", "card(2).zone",
                       "card(2).cell", "card(3).zone", "alive(card(3))", before=before) == [
        "[]", "none", "c3", "none", "b3", "none", "false"]


def test_place_at_none_and_give_leave_a_piece_in_its_zone():
    """`place p at none` is not a way out of a zone, and a piece given to another seat stays
    in the zone of the seat it was put in."""
    before = "put card(1) into hand of a\nplace card(1) at none\nput card(2) into hand of a\n" \
             "give card(2) to b"
    assert zone_values("card(1).zone", "pieces_in(hand, a)", "pieces_in(hand, b)",
                       "card(2).owner", before=before) == [
        "hand", "[a:Card#1, a:Card#2]", "[]", "b"]


def test_a_removed_piece_cannot_be_put_into_a_zone():
    assert zone_values("pieces_in(pile)", "card(1).zone",
                       before="remove card(1)\nput card(1) into pile") == ["[]", "none"]


@pytest.mark.parametrize("expr, expected", [
    ("pieces_in(hand)", "run-time error: zone 'hand' is per seat: say whose "
                        "(pieces_in(hand, SEAT))"),
    ("pieces_in(pile, a)", "run-time error: zone 'pile' is shared (no seat)"),
], ids=["per-seat-without-seat", "shared-with-seat"])
def test_pieces_in_with_or_without_a_seat_is_checked_when_it_runs(expr, expected):
    with pytest.raises(GdlRuntimeError) as info:
        zone_values(expr)
    assert str(info.value).splitlines()[0] == f"zones.gdl:18:12: error: {expected}"


def test_put_into_a_zone_of_no_seat_is_a_run_time_error():
    with pytest.raises(GdlRuntimeError):
        zone_values("card(1).zone", before="put card(1) into hand of none")


def test_lanterns_deal_a_hidden_hand():
    game = rule("zones.gdl")
    state = game.new_state(0)
    with_zones = {p["label"]: p.get("zone") for p in game.view(state, None)["pieces"]}
    assert list(with_zones.values()).count("deck of blue") == 4
    assert list(with_zones.values()).count("deck of red") == 5
    [drawn] = [label for label, zone in with_zones.items() if zone == "hand of blue"]
    assert drawn == "blue:Five#5"
    assert texts(game, state)[:2] == ["lay blue:Five#5 a1", "lay blue:Five#5 b1"]
    assert texts(game, state)[-1] == "throw blue:Five#5"


def test_a_hidden_zone_shows_its_count_but_not_its_pieces():
    game = rule("zones.gdl")
    state = game.new_state(0)
    blue = render(game, game.view(state, 0)).splitlines()
    red = render(game, game.view(state, 1)).splitlines()
    assert blue[-3:] == ["  hand of blue: blue:Five#5", "  deck of blue: ?, ?, ?, ?",
                         "  deck of red: ?, ?, ?, ?, ?"]
    assert red[-3:] == ["  deck of blue: ?, ?, ?, ?", "  hand of blue: ?",
                        "  deck of red: ?, ?, ?, ?, ?"]
    hidden = [p for p in game.view(state, 1)["pieces"] if p.get("zone") == "hand of blue"]
    assert hidden == [{"label": "?", "kind": "?", "owner": "blue", "cell": None,
                       "zone": "hand of blue", "vars": {}, "mark": "?"}]
    everything = render(game, game.view(state, None)).splitlines()
    assert "  hand of blue: blue:Five#5" in everything
    assert "  deck of red: red:One#1, red:Two#2, red:Three#3, red:Four#4, red:Five#5" in everything


def test_action_texts_hide_a_piece_in_a_hidden_zone_from_the_viewer():
    game = rule("zones.gdl")
    state = game.new_state(0)
    assert texts(game, state, 0)[:2] == ["lay blue:Five#5 a1", "lay blue:Five#5 b1"]
    assert texts(game, state, 1) == ["lay ? a1", "lay ? b1", "lay ? c1", "lay ? d1",
                                     "lay ? e1", "throw ?"]


def test_a_laid_or_thrown_lantern_is_seen_by_everyone():
    game = rule("zones.gdl")
    state = game.new_state(0)
    act(game, state, "lay blue:Five#5 a1")               # red draws red:Three#3
    act(game, state, "lay red:Three#3 b1")              # blue draws; a1 has no empty neighbour
    [blue_card] = [p for p in game.view(state, 0)["pieces"] if p.get("zone") == "hand of blue"]
    act(game, state, f"throw {blue_card['label']}")
    red = render(game, game.view(state, 1)).splitlines()
    assert f"  discard: {blue_card['label']}" in red
    laid = {p["label"]: p["cell"] for p in game.view(state, 1)["pieces"] if p["cell"]}
    assert laid == {"blue:Five#5": "a1", "red:Three#3": "b1"}


def test_a_state_with_zones_survives_a_json_round_trip():
    game = rule("zones.gdl")
    state = game.new_state(3)
    act(game, state, game.action_text(state, game.legal_actions(state)[-1]))   # a throw
    copy = State.from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    for seat in (None, 0, 1):
        assert game.view(copy, seat) == game.view(state, seat)
    for each in (state, copy):
        act(game, each, texts(game, each)[0])
    assert copy.to_json() == state.to_json()


def test_a_variant_replaces_a_zone_by_name(tmp_path):
    variant = tmp_path / "open_hands.gdl"
    variant.write_text(f'extends "{RULES / "zones.gdl"}"\n'
                       'game "Lanterns (open hands)"\n'
                       "zone hand per seat\n")
    game = load_game(str(variant))
    state = game.new_state(0)
    red = render(game, game.view(state, 1)).splitlines()
    assert "  hand of blue: blue:Five#5" in red
    assert "  deck of red: ?, ?, ?, ?, ?" in red
    assert texts(game, state, 1)[0] == "lay blue:Five#5 a1"


def test_a_transcript_of_a_game_with_a_hidden_zone_has_the_view_of_each_seat():
    game = rule("zones.gdl")
    lines_, _ = play_game(game, game.new_state(0), [RandomAgent(1), RandomAgent(2)],
                          max_turns=2)
    assert any(line.startswith("  view of blue") for line in lines_)


# ----- dice pools -----------------------------------------------------------------------------

def test_rolls_are_forced_dice_in_order():
    assert value(TABLE, "rolls(3, 6)", forced=[(6, 4), (6, 1), (6, 6)]) == "[4, 1, 6]"


def test_successes_count_the_dice_at_or_above():
    forced = [(6, 4), (6, 3), (6, 6), (6, 1), (6, 5)]
    assert value(TABLE, "successes(5, 6, 4)", forced=forced) == "3"
    assert value(TABLE, "successes(5, 6, 7)", forced=forced) == "0"
    assert value(TABLE, "successes(5, 6, 1)", forced=forced) == "5"


def test_every_die_of_a_pool_is_a_roll_event():
    source = VALID.replace("goto play for a\n", "log text(successes(3, 10, 5))\n  goto play for a\n")
    state = load_source(source, "t.gdl").new_state(0, forced=[(10, 5), (10, 4), (10, 10)])
    assert as_json(state.events) == [["roll", 10, 5, "fixed"], ["roll", 10, 4, "fixed"],
                            ["roll", 10, 10, "fixed"], ["log", "2"]]


def test_a_pool_of_no_dice():
    state_events = values(TABLE, "rolls(0, 6)", "successes(0, 6, 1)")
    assert state_events == ["[]", "0"]


def test_a_pool_of_the_most_dice():
    assert value(TABLE, "len(rolls(10000, 6))") == "10000"


@pytest.mark.parametrize("expr, words", [
    ("rolls(10001, 6)", "10001 dice of 6 sides"),
    ("rolls(-1, 6)", "-1 dice of 6 sides"),
    ("rolls(2, 0)", "2 dice of 0 sides"),
    ("successes(3, 0, 1)", "3 dice of 0 sides"),
    ("successes(10001, 6, 1)", "10001 dice of 6 sides"),
])
def test_too_many_dice_or_too_few_sides(expr, words):
    assert runtime_error(TABLE, expr) == (
        f"values.gdl:5:12: error: run-time error: cannot roll {words} "
        "(0 to 10000 dice of 1 side or more)")


def test_a_squad_fires_a_pool_of_one_die_a_model():
    game = rule("pools.gdl")
    state = game.new_state(0, forced=[(6, 4), (6, 1), (6, 6), (6, 3), (6, 5)])
    events = act(game, state, "fire Squad#1 Team#2")
    assert [e[2] for e in as_json(events) if e[0] == "roll"] == [4, 1, 6, 3, 5]
    assert logs(events) == ["Squad#1 kills 3 of Team#2"]
    assert "Team#2" not in [p["label"] for p in game.view(state, None)["pieces"]]


def test_a_rally_rolls_two_dice():
    game = rule("pools.gdl")
    forced = [(6, 6), (6, 6), (6, 2), (6, 5), (6, 6)] + [(6, 5), (6, 1)]
    state = game.new_state(0, forced=forced)
    act(game, state, "fire Squad#1 Squad#2")        # four of five dice at 4 or more
    assert "rally Squad#2" in texts(game, state)
    act(game, state, "rally Squad#2")               # one 5 or 6 of two: a model back
    pieces = {p["label"]: p["vars"] for p in game.view(state, None)["pieces"]}
    assert pieces["Squad#2"]["models"] == "2"
    assert game.view(state, None)["seats"][1]["vars"]["rallied"] == "[5, 1]"


# ----- piece variables from the kinds table ---------------------------------------------------

def test_a_piece_variable_starts_from_its_kinds_column():
    extra = ("kinds (size, name) {\n  Squad = 5, \"s\"\n  Team = 3, \"t\"\n  Rock = none, \"r\"\n}\n"
             "var piece.models from size\nvar piece.called from name\n")
    exprs = ["[p.models for p in pieces()]", "[p.called for p in pieces()]"]
    before = "create Squad for a at @a1\n  create Team for a at @a1\n  create Rock for none at @a1\n"
    source = (f"seats a, b\nboard square(3, 3)\n{extra}setup {{\n  {before}"
              + "".join(f"  log text({e})\n" for e in exprs)
              + "  let p = first(q in pieces())\n  p.models -= 2\n  log text(p.models)"
              + " + \" \" + text(p.size)\n  goto play for a\n}\n"
              "phase play turn { action pass() { goto play for next(me) } }\n")
    assert logs(load_source(source, "t.gdl").new_state(0).events) == [
        "[5, 3, none]", "[s, t, r]", "3 5"]


def test_a_variant_changes_the_column_a_variable_starts_from(tmp_path):
    variant = tmp_path / "big.gdl"
    variant.write_text(f'extends "{RULES / "pools.gdl"}"\nkinds (size) {{\n  Squad = 10\n}}\n')
    game = load_game(str(variant))
    models = {p["label"]: p["vars"]["models"] for p in game.view(game.new_state(0), None)["pieces"]}
    assert models == {"Squad#1": "10", "Team#1": "3", "Squad#2": "10", "Team#2": "3"}


# ----- check errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("extra, expected", [
    ("zone hand per seat\ndef f(p) { put p into hand }", [
        "bad.gdl:13:12: error: zone 'hand' is per seat: say whose "
        "('put ... into hand of SEAT')",
        "    def f(p) { put p into hand }",
        "               ^"]),
    ("zone pile\ndef f(p) { put p into pile of a }", [
        "bad.gdl:13:31: error: zone 'pile' is shared: it has no 'of SEAT'",
        "    def f(p) { put p into pile of a }",
        "                                  ^"]),
    ("zone pile\ndef f(p) { put p into pyle }", [
        "bad.gdl:13:12: error: unknown zone 'pyle'",
        "    def f(p) { put p into pyle }",
        "               ^",
        "did you mean 'pile'?"]),
    ("zone pile\ndef f(p) { put 3 into pile }", [
        "bad.gdl:13:16: error: type mismatch: 'put' needs a piece, but this is a number",
        "    def f(p) { put 3 into pile }",
        "                   ^"]),
    ("zone hand per seat\ndef f(p) { put p into hand of 3 }", [
        "bad.gdl:13:31: error: type mismatch: 'put ... of' needs a seat, but this is a number",
        "    def f(p) { put p into hand of 3 }",
        "                                  ^"]),
    ("zone pile visible to 3", [
        "bad.gdl:12:22: error: type mismatch: a visibility condition needs true/false, but "
        "this is a number",
        "    zone pile visible to 3",
        "                         ^"]),
    ("zone pile visible to it", [
        "bad.gdl:12:22: error: unknown name 'it'",
        "    zone pile visible to it",
        "                         ^"]),
    ("zone pile\nzone pile", [
        "bad.gdl:13:1: error: 'pile' is defined twice; the first definition is at line 12",
        "    zone pile",
        "    ^"]),
    ("kinds (size) { pile = 5 }\nzone pile", [
        "bad.gdl:13:1: error: 'pile' is defined twice; the first definition is at line 12",
        "    zone pile",
        "    ^"]),
    ("zone pile\nfn f() = pieces_in(3)\ndef g() { let n = len(f()) }", [
        "bad.gdl:13:10: error: pieces_in(): argument 1 must be a zone, not a number",
        "    fn f() = pieces_in(3)",
        "             ^"]),
    ("zone pile\nvar z = none\ndef g(p) { z = p.zone  z = 3 }", [
        "bad.gdl:14:28: error: type mismatch: 'z' holds a zone, but this is a number",
        "    def g(p) { z = p.zone  z = 3 }",
        "                               ^"]),
    ("kinds (size) { Squad = 5 }\nvar models from size", [
        "bad.gdl:13:1: error: only a piece variable can start from its kind's table "
        "('var piece.models from size')",
        "    var models from size",
        "    ^"]),
    ("kinds (size) { Squad = 5 }\nvar seat.models from size", [
        "bad.gdl:13:1: error: only a piece variable can start from its kind's table "
        "('var piece.models from size')",
        "    var seat.models from size",
        "    ^"]),
    ("kinds (size) { Squad = 5 }\nvar piece.models from sise", [
        "bad.gdl:13:1: error: the kinds have no column 'sise'",
        "    var piece.models from sise",
        "    ^",
        "did you mean 'size'?"]),
    ("kinds (size) { Squad = 5 }\nvar piece.models from owner", [
        "bad.gdl:13:1: error: the kinds have no column 'owner'",
        "    var piece.models from owner",
        "    ^"]),
    ("kinds (size) { Squad = 5 }\nvar piece.size from size", [
        "bad.gdl:13:1: error: 'piece.size' clashes with a piece property or table column of "
        "the same name",
        "    var piece.size from size",
        "    ^"]),
], ids=["per-seat-needs-of", "shared-refuses-of", "unknown-zone", "put-a-number",
        "of-a-number", "visibility-not-bool", "visibility-it", "zone-twice", "zone-and-kind",
        "pieces-in-a-number", "zone-variable", "from-global", "from-seat", "unknown-column",
        "from-property", "from-clash"])
def test_check_errors(extra, expected):
    assert message(VALID + extra + "\n") == lines(*expected)


def test_a_table_has_eight_directions_only():
    assert message(VALID.replace("square(3, 3)", "table(3, 3) directions 4")) == lines(
        "bad.gdl:3:1: error: a table board has 8 directions, not 4",
        "    board table(3, 3) directions 4",
        "    ^")


def test_the_new_words_are_still_names():
    source = VALID + "var per = 1\nvar into = 2\nvar put = 3\nvar zone = 4\nvar from = 5\n"
    assert load_source(source, "t.gdl").new_state(0).globals == {
        "per": 1, "into": 2, "put": 3, "zone": 4, "from": 5}


# ----- the three games play to the end --------------------------------------------------------

@pytest.mark.parametrize("name", ["table.gdl", "zones.gdl", "pools.gdl"])
def test_random_games_end_and_round_trip(name):
    game = rule(name)
    for seed in range(3):
        state = game.new_state(seed)
        chooser = random.Random(seed)
        while state.result is None and state.decisions < 300:
            legal = game.legal_actions(state)
            assert legal, f"{name}: stuck in {state.frames[-1]['phase']}"
            action = chooser.choice(legal)
            assert game.parse_action(state, game.action_text(state, action)) == action
            game.apply(state, action)
            assert State.from_json(state.to_json()).to_json() == state.to_json()
            for seat in range(len(game.seats)):
                render(game, game.view(state, seat))
        assert state.result is not None, f"{name} seed {seed} did not end"


def test_terrain_from_a_condition_over_the_cells():
    extra = ('terrain corner = [c for c in cells() where column(c) <= 2 and row(c) <= 2] "#"\n'
             'terrain rim = [c for c in cells() where c in [@a1, @c3] or row(c) == -1] "+"')
    assert values("board square(3, 3)", "corner", "rim", extra=extra) == [
        "[a1, b1, a2, b2]", "[a1, c3]"]


def test_terrain_from_a_condition_that_is_not_constant_is_refused():
    with pytest.raises(GdlRuleError) as info:
        values("board square(3, 3)", "bad",
               extra='terrain bad = [c for c in cells() where pieces_at(c) == []] "#"')
    assert "this must be a constant" in str(info.value)


def test_show_status_writes_a_line_per_piece_in_the_rule_files_words():
    from gdl.interpreter.runtime.view import render
    source = textwrap.dedent("""\
        seats a, b
        board table(6, 4)
        kinds (size) {
          Squad = 5
        }
        var piece.models from size
        show status(p) = if p.cell == none then "" else text(p.models) + " at " + text(p.cell)
        setup {
          create Squad for a at @b2
          create Squad for b at none
          goto play for a
        }
        phase play turn { action pass() { goto play for next(me) } }
        """)
    game = load_source(source, "status.gdl")
    lines = render(game, game.view(game.new_state(0), 0)).splitlines()
    assert "  Squad#1 (a): 5 at b2" in lines
    assert not any(line.startswith("  Squad#2") for line in lines)   # "": no line
    assert not any("models=" in line for line in lines)            # the status replaces it


def test_show_seat_writes_each_seats_line_in_the_rule_files_words():
    from gdl.interpreter.runtime.view import render
    source = textwrap.dedent("""\
        seats a, b
        board square(3, 3)
        var seat.gold = 3
        var seat.secret = 7 visible to viewer == owner
        show seat(s) = text(s.gold) + " gold" + (if s == me then " (you)" else "")
        setup {
          goto play for a
        }
        phase play turn { action pass() { goto play for next(me) } }
        """)
    game = load_source(source, "seatline.gdl")
    lines = render(game, game.view(game.new_state(0), 1)).splitlines()
    assert "  a: 3 gold" in lines and "  b: 3 gold (you)" in lines
    assert not any("secret" in line for line in lines)     # the line replaces the dump
