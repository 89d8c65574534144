"""Engine features, each proven on a small rule file under tests/rules/.

Chance through the one seeded generator, simultaneous choices, per-seat views, sub-procedures
that ask another seat, enter triggers, timed values, 2 to 4 seats with elimination, square and
hex board built-ins, and exact JSON round trips of Space War playouts. Tests marked xfail show
what looks like an engine bug; each reason says what happens and what was expected.
"""

from __future__ import annotations

import functools
import json
import random
import textwrap
from pathlib import Path

import pytest

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.engine import TERMINAL
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import render
from gdl.interpreter.runtime.events import as_json

TESTS = Path(__file__).parent
RULES = TESTS / "rules"
SPACE_WAR = TESTS.parent / "games" / "space_war.gdl"


@functools.lru_cache(maxsize=None)
def rule(name):
    return load_game(str(RULES / name))


def act(game, state, text):
    """Play the legal action whose text is `text`; return its events."""
    return game.apply(state, game.parse_action(state, text))


def texts(game, state):
    return [game.action_text(state, a) for a in game.legal_actions(state)]


def cell_names(game, cells):
    return [game.rules.board.names[c] for c in cells]


# ----- chance ---------------------------------------------------------------------------------

def _dice_session(seed, forced=()):
    """A fixed list of chance actions; returns the final state and every event."""
    game = rule("dice.gdl")
    state = game.new_state(seed, forced=forced)
    events = []
    for text in ["d6"] * 10 + ["die 4", "die 20", "d20x3", "mix", "deal", "d6"]:
        events.extend(act(game, state, text))
    return state, events


def test_same_seed_gives_same_rolls_and_shuffles():
    first, first_events = _dice_session(7)
    second, second_events = _dice_session(7)
    assert first_events == second_events
    assert first.to_json() == second.to_json()


def test_different_seeds_differ_somewhere():
    base = _dice_session(1)[0].globals
    others = [_dice_session(seed)[0].globals for seed in range(2, 7)]
    assert all(other != base for other in others)


def test_dice_of_every_size_stay_in_range():
    game = rule("dice.gdl")
    state = game.new_state(3)
    for sides in (4, 6, 8, 10, 12, 20):
        seen = set()
        for _ in range(30 * sides):
            events = act(game, state, f"die {sides}")
            assert as_json(events) == [["roll", sides, state.globals["last"]]]
            seen.add(state.globals["last"])
        assert seen == set(range(1, sides + 1))


def test_forced_rolls_are_used_first_and_marked():
    game = rule("dice.gdl")
    state = game.new_state(11, forced=[[6, 3], [None, 20]])
    assert as_json(act(game, state, "d6")) == [["roll", 6, 3, "fixed"]]
    events = act(game, state, "d20x3")
    assert as_json(events)[0] == ["roll", 20, 20, "fixed"]
    assert [e[:2] for e in as_json(events[1:])] == [["roll", 20], ["roll", 20]]
    assert all(len(e) == 3 for e in as_json(events[1:]))
    assert state.globals["total"] == sum(e.value for e in events)
    assert state.forced == []


def test_forced_roll_waits_for_a_die_of_its_size():
    game = rule("dice.gdl")
    state = game.new_state(11, forced=[[20, 13]])
    (event,) = act(game, state, "d6")
    assert not event.fixed and event.sides == 6 and 1 <= event.value <= 6
    assert act(game, state, "d20x3")[0].to_json() == ["roll", 20, 13, "fixed"]


@pytest.mark.parametrize("seed", range(6))
def test_shuffles_are_seeded_permutations(seed):
    game = rule("dice.gdl")
    orders = []
    for _ in range(2):
        state = game.new_state(seed)
        assert as_json(act(game, state, "mix")) == [["shuffle", 8]]
        act(game, state, "deal")
        assert sorted(state.globals["deck"]) == list(range(1, 9))
        assert sorted(state.globals["dealt"]) == list(range(1, 9))
        orders.append((state.globals["deck"], state.globals["dealt"]))
    assert orders[0] == orders[1]


def test_shuffles_differ_between_seeds():
    game = rule("dice.gdl")
    decks = set()
    for seed in range(6):
        state = game.new_state(seed)
        act(game, state, "mix")
        decks.add(tuple(state.globals["deck"]))
    assert len(decks) > 1


def test_shuffled_copy_leaves_the_list_alone():
    game = rule("dice.gdl")
    state = game.new_state(5)
    act(game, state, "deal")
    assert state.globals["deck"] == list(range(1, 9))


def test_shuffles_and_dice_share_one_generator():
    """A shuffle moves the generator, so the roll after it changes."""
    game = rule("dice.gdl")
    plain, shuffled = game.new_state(9), game.new_state(9)
    act(game, shuffled, "mix")
    assert plain.rng != shuffled.rng
    rolls = []
    for state in (plain, shuffled):
        for _ in range(8):
            act(game, state, "d6")
        rolls.append(state.globals["rolls"])
    assert rolls[0] != rolls[1]


def test_saved_state_continues_the_same_dice():
    game = rule("dice.gdl")
    state = game.new_state(21)
    act(game, state, "d20x3")
    copy = State.from_json(state.to_json())
    for s in (state, copy):
        for _ in range(5):
            act(game, s, "d6")
        act(game, s, "mix")
    assert copy.to_json() == state.to_json()


# ----- simultaneous choices -------------------------------------------------------------------

def test_simultaneous_choices_stay_hidden_until_all_have_chosen():
    game = rule("hands.gdl")
    state = game.new_state(0)
    assert game.current_player(state) == 0
    assert texts(game, state) == ["show rock", "show paper", "show scissors"]

    act(game, state, "show rock")
    assert game.current_player(state) == 1
    assert texts(game, state) == ["show rock", "show paper", "show scissors"]
    # nothing has happened yet: the effect waits for every seat
    assert [v["hand"] for v in state.seat_vars] == [None, None]
    other = game.view(state, 1)
    assert other["chosen"] == {"a": "yes", "b": "no"}
    assert "rock" not in json.dumps(other)
    assert "rock" not in render(game, other)
    assert game.view(state, 0)["chosen"] == {"a": "show rock", "b": "no"}

    act(game, state, "show scissors")
    assert [v["hand"] for v in state.seat_vars] == ["rock", "scissors"]
    assert state.result == {"winners": [0], "draw": False}
    assert game.returns(state) == [1.0, -1.0]
    assert game.current_player(state) == TERMINAL


def test_simultaneous_tie_is_replayed():
    game = rule("hands.gdl")
    state = game.new_state(0)
    act(game, state, "show paper")
    act(game, state, "show paper")
    assert state.globals["ties"] == 1
    assert state.result is None
    assert game.current_player(state) == 0
    assert game.view(state, 0)["chosen"] == {"a": "no", "b": "no"}
    act(game, state, "show paper")
    act(game, state, "show rock")
    assert state.result == {"winners": [0], "draw": False}


def test_pending_simultaneous_choice_survives_json():
    game = rule("hands.gdl")
    state = game.new_state(0)
    act(game, state, "show scissors")
    restored = State.from_json(state.to_json())
    assert game.view(restored, 1)["chosen"] == {"a": "yes", "b": "no"}
    act(game, restored, "show paper")
    assert restored.result == {"winners": [0], "draw": False}


# ----- hidden information ---------------------------------------------------------------------

SECRETS = {"a": "8675309", "b": "1234567"}
PIECE_VALUES = {"a": "5550001", "b": "5550002"}


@pytest.mark.parametrize("seat, other", [(0, 1), (1, 0)])
def test_each_seat_sees_its_own_secret_only(seat, other):
    game = rule("secret.gdl")
    state = game.new_state(0)
    view = game.view(state, seat)
    me, them = game.seats[seat], game.seats[other]
    assert view["seats"][seat]["vars"] == {"secret": SECRETS[me], "open": "0"}
    assert view["seats"][other]["vars"] == {"secret": "?", "open": "0"}
    by_owner = {p["owner"]: p["vars"]["value"] for p in view["pieces"]}
    assert by_owner == {me: PIECE_VALUES[me], them: "?"}
    for leak in (SECRETS[them], PIECE_VALUES[them]):
        assert leak not in json.dumps(view)
        assert leak not in render(game, view)


def test_global_visible_to_one_seat():
    game = rule("secret.gdl")
    state = game.new_state(0)
    act(game, state, "stash")
    assert game.view(state, 0)["globals"] == {"pot": "9990001"}
    assert game.view(state, 1)["globals"] == {"pot": "?"}
    assert "9990001" not in json.dumps(game.view(state, 1))


def test_full_view_shows_everything():
    game = rule("secret.gdl")
    view = game.view(game.new_state(0), None)
    assert [s["vars"]["secret"] for s in view["seats"]] == [SECRETS["a"], SECRETS["b"]]
    assert [p["vars"]["value"] for p in view["pieces"]] == [PIECE_VALUES["a"],
                                                            PIECE_VALUES["b"]]


# ----- sub-procedures -------------------------------------------------------------------------

def test_call_asks_another_seat_and_return_comes_back():
    game = rule("ask.gdl")
    state = game.new_state(0)
    assert game.current_player(state) == 0
    turn = state.turn
    act(game, state, "ask 3")
    assert [f["phase"] for f in state.frames] == ["main", "reply"]
    assert game.current_player(state) == 1
    assert texts(game, state) == ["pick 1", "pick 2", "pick 3"]
    with pytest.raises(GdlError) as err:
        game.parse_action(state, "pick 4")
    assert str(err.value) == "error: 4 is not a possible 'x' now (not in range(1, n))"

    act(game, state, "pick 2")
    assert [f["phase"] for f in state.frames] == ["main"]
    assert game.current_player(state) == 0
    assert state.turn == turn                      # returning starts no new turn
    assert state.globals == {"asked": 3, "answer": 2, "answered_by": 1}
    assert texts(game, state) == ["ask 2", "ask 3", "done"]


def test_called_seat_follows_the_asker():
    game = rule("ask.gdl")
    state = game.new_state(0)
    act(game, state, "done")
    act(game, state, "ask 2")                      # b asks, so c answers
    assert game.current_player(state) == 2
    act(game, state, "pick 1")
    assert game.current_player(state) == 1
    assert [v["asks"] for v in state.seat_vars] == [0, 1, 0]


CALL_THEN_READ = textwrap.dedent("""\
    game "Call then read"
    seats a, b
    board square(1, 1)
    var answer = 0
    var seen = 0
    setup {
      goto main for a
    }
    phase main {
      action ask() {
        call reply for b
        seen = answer
      }
    }
    phase reply {
      action pick(x in [7]) {
        answer = x
        return
      }
    }
    """)


def test_statements_after_call_are_refused():
    """A `call` must come last: what followed it would run before the called seat
    answers (the checker's rule, since decisions cannot suspend a running action)."""
    with pytest.raises(GdlError) as info:
        load_source(CALL_THEN_READ, "call.gdl")
    assert str(info.value) == (
        "call.gdl:12:5: error: this would run before the 'call' on line 11 is answered: a "
        "'call' must come last; move this into the called phase or an 'on resume' block\n"
        "        seen = answer\n"
        "        ^")


def test_on_resume_reads_the_answer():
    text = CALL_THEN_READ.replace("""
    call reply for b
    seen = answer
""", """
    call reply for b
  }
  on resume {
    seen = answer
""")
    assert "on resume" in text
    game = load_source(text, "call.gdl")
    state = game.new_state(0)
    act(game, state, "ask")
    act(game, state, "pick 7")
    assert state.globals["seen"] == 7


RETURN_AT_BOTTOM = textwrap.dedent("""\
    game "Return at bottom"
    seats a, b
    board square(1, 1)
    setup {
      goto main for a
    }
    phase main {
      action leave() {
        return
      }
    }
    """)


def test_return_from_the_bottom_phase_is_an_error():
    game = load_source(RETURN_AT_BOTTOM, "ret.gdl")
    state = game.new_state(0)
    try:
        act(game, state, "leave")
    except GdlError:
        return
    assert game.is_terminal(state) == (game.current_player(state) == TERMINAL)


# ----- enter triggers -------------------------------------------------------------------------

def _run(text):
    game = rule("walk.gdl")
    state = game.new_state(0)
    act(game, state, text)
    return game, state


def _runner(game, state, label):
    (piece,) = [p for p in state.pieces.values() if p["label"] == label]
    cell = None if piece["cell"] is None else game.rules.board.names[piece["cell"]]
    return piece["alive"], cell, cell_names(game, piece["trail"]), piece["entered"]


def test_enter_triggers_run_for_every_cell_of_a_move():
    game, state = _run("run Runner#1 f1")
    assert _runner(game, state, "Runner#1") == (True, "f1", ["b1", "c1", "d1", "e1", "f1"], 5)
    assert _runner(game, state, "Runner#2") == (True, "a2", [], 0)


def test_stop_ends_the_move_on_that_cell():
    game, state = _run("run Runner#2 f2")
    alive, cell, trail, _ = _runner(game, state, "Runner#2")
    assert (alive, cell, trail) == (True, "d2", ["b2", "c2", "d2"])
    assert state.at[game.rules.board.parse("d2")] == [2]


def test_removal_ends_the_move():
    game, state = _run("run Runner#3 f3")
    assert _runner(game, state, "Runner#3") == (False, None, ["b3", "c3", "d3"], 2)
    assert game.rules.board.parse("d3") not in state.at
    assert "Runner#3" not in [p["label"] for p in game.view(state, 0)["pieces"]]


def test_where_clause_limits_a_trigger():
    game, state = _run("run Runner#2 c2")
    assert _runner(game, state, "Runner#2") == (True, "c2", ["b2", "c2"], 2)


STOP_IN_ACTION = textwrap.dedent("""\
    game "Stop in action"
    seats a, b
    board square(1, 1)
    setup {
      goto main for a
    }
    phase main {
      action halt() {
        stop
      }
    }
    """)


def test_stop_outside_a_move_is_a_gdl_error():
    try:
        game = load_source(STOP_IN_ACTION, "stop.gdl")
        state = game.new_state(0)
        act(game, state, "halt")
    except GdlError:
        return
    except Exception as exc:               # noqa: BLE001 - the point of the test
        raise AssertionError(f"not a GdlError: {type(exc).__name__}") from exc
    raise AssertionError("'stop' outside a move was accepted")


# ----- timed values ---------------------------------------------------------------------------

def test_value_lasts_until_the_next_turn_of_a_seat():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")                      # a: shield 5 until a's next turn
    act(game, state, "bless")                      # a: b.boost 3 until b's next turn
    assert state.globals["shield"] == 5
    assert [v["boost"] for v in state.seat_vars] == [1, 3]
    act(game, state, "pass")                       # b's turn starts
    assert state.globals["shield"] == 5
    assert [v["boost"] for v in state.seat_vars] == [1, 1]
    act(game, state, "pass")                       # a's turn starts
    assert state.globals["shield"] == 0
    assert state.timers == []


def test_timed_value_survives_json():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")
    act(game, state, "pass")
    restored = State.from_json(state.to_json())
    act(game, restored, "pass")
    assert restored.globals["shield"] == 0


def test_stacked_timed_values_restore_the_original():
    game = rule("timer.gdl")
    state = game.new_state(0)
    act(game, state, "guard")                      # shield 0 -> 5 until a's turn
    act(game, state, "guard_more")                 # shield 5 -> 7 until a's turn
    act(game, state, "pass")
    act(game, state, "pass")
    assert state.globals["shield"] == 0


# ----- seats, order and elimination -----------------------------------------------------------

SEAT_FILES = [("standing2.gdl", ["north", "south"]),
              ("standing3.gdl", ["north", "east", "south"]),
              ("standing.gdl", ["north", "east", "south", "west"])]


@pytest.mark.parametrize("name, seats", SEAT_FILES)
def test_next_goes_round_the_seats(name, seats):
    game = rule(name)
    assert game.seats == seats
    state = game.new_state(0)
    order = [game.current_player(state)]
    for _ in range(2 * len(seats)):
        act(game, state, "pass")
        order.append(game.current_player(state))
    n = len(seats)
    assert order == [i % n for i in range(2 * n + 1)]
    assert state.turn == 2 * n + 1
    assert [v["turns"] for v in state.seat_vars] == [3] + [2] * (n - 1)


@pytest.mark.parametrize("name, seats", SEAT_FILES)
def test_previous_goes_the_other_way(name, seats):
    game = rule(name)
    state = game.new_state(0)
    order = []
    for _ in range(len(seats)):
        act(game, state, "back")
        order.append(game.current_player(state))
    n = len(seats)
    assert order == [(-k) % n for k in range(1, n + 1)]


@pytest.mark.parametrize("name, seats", SEAT_FILES)
def test_last_seat_standing_wins(name, seats):
    game = rule(name)
    state = game.new_state(0)
    n = len(seats)
    # north knocks out east, then south knocks out west, ...: each knock removes the next
    # seat and passes the turn to the one after it.
    while game.current_player(state) != TERMINAL:
        before = sum(state.out)
        act(game, state, "knock")
        assert sum(state.out) == before + 1
        assert not state.out[state.current] or state.result is not None
    assert sum(state.out) == n - 1
    (winner,) = state.result["winners"]
    assert not state.out[winner]
    assert state.result["draw"] is False
    assert game.returns(state) == [1.0 if s == winner else -1.0 for s in range(n)]
    assert game.legal_actions(state) == []


def test_next_skips_eliminated_seats():
    game = rule("standing.gdl")
    state = game.new_state(0)
    act(game, state, "knock")                      # north knocks out east
    assert state.out == [False, True, False, False]
    assert game.current_player(state) == 2
    act(game, state, "pass")
    act(game, state, "pass")
    assert game.current_player(state) == 0
    act(game, state, "back")                       # previous(north) is west
    assert game.current_player(state) == 3


def test_concede_by_a_waiting_seat():
    game = rule("standing3.gdl")
    state = game.new_state(0)
    game.concede(state, 1)
    assert state.out == [False, True, False] and state.result is None
    act(game, state, "pass")
    assert game.current_player(state) == 2
    game.concede(state, 0)
    assert state.result == {"winners": [2], "draw": False}
    assert game.current_player(state) == TERMINAL


def test_concede_by_the_deciding_seat_passes_the_decision():
    """`on out(s)` hands the turn on when the deciding seat concedes."""
    game = rule("standing3.gdl")
    state = game.new_state(0)
    game.concede(state, 0)
    assert state.result is None
    assert game.current_player(state) == 1
    assert state.turn == 2


# ----- boards ---------------------------------------------------------------------------------

def _probe(name, text):
    """Run one probe action; return (cells, number, flag) it stored."""
    game = rule(name)
    state = game.new_state(0)
    act(game, state, text)
    values = state.globals
    return cell_names(game, values["cells_out"]), values["number_out"], values["flag_out"]


SQUARE_CASES = [
    ("distance a1 e5", 4), ("distance a1 c4", 3), ("distance c3 c3", 0),
    ("neighbors c3", ["c4", "d4", "d3", "d2", "c2", "b2", "b3", "b4"]),
    ("neighbors a1", ["a2", "b2", "b1"]),
    ("orthogonal c3", ["c4", "d3", "c2", "b3"]),
    ("orthogonal a1", ["a2", "b1"]),
    ("line a1 e5", ["b2", "c3", "d4", "e5"]),
    ("line a1 c2", ["b2", "c2"]),
    ("line a1 e3", ["b2", "c2", "d3", "e3"]),
    ("line c3 c3", []),
    # rocks at c4 and d3: reach may end on a rock, sight stops before one
    ("reach c3 2", ["c4", "d4", "e5", "d3", "d2", "e1", "c2", "c1", "b2", "a1", "b3",
                    "a3", "b4", "a5"]),
    ("reach c3 0", []),
    ("reach a1 1", ["a2", "b2", "b1"]),
    ("sight c3 2", ["d4", "e5", "d2", "e1", "c2", "c1", "b2", "a1", "b3", "a3", "b4",
                    "a5"]),
    ("sight c2 3", ["c3", "d2", "e2", "d1", "c1", "b1", "b2", "a2", "b3", "a4"]),
    ("clear c3 c5", False), ("clear c3 e5", True), ("clear c3 d3", False),
    ("clear a1 e3", False), ("clear a1 e1", True),
]

HEX_CASES = [
    ("distance a1 e5", 6), ("distance a1 c4", 4), ("distance c3 d3", 1),
    ("distance c3 e3", 2),
    # c3 is in an even column: its side neighbours are in rows 2 and 3
    ("neighbors c3", ["c2", "d2", "d3", "c4", "b3", "b2"]),
    # d3 is in an odd column (half a cell lower): side neighbours in rows 3 and 4
    ("neighbors d3", ["d2", "e3", "e4", "d4", "c4", "c3"]),
    ("neighbors a1", ["b1", "a2"]),
    ("orthogonal c3", ["c2", "d2", "d3", "c4", "b3", "b2"]),
    ("line a1 e3", ["b1", "c2", "d2", "e3"]),
    ("line c3 c5", ["c4", "c5"]),
    ("line c3 c3", []),
    # rocks at c4 and d2
    ("reach c3 2", ["c2", "c1", "d2", "d3", "e4", "c4", "b3", "a4", "b2", "a2"]),
    ("sight c3 2", ["c2", "c1", "d3", "e4", "b3", "a4", "b2", "a2"]),
    ("clear c3 c5", False), ("clear c3 e4", True), ("clear a1 e3", False),
    ("clear c3 d2", False),
]


def _check_probe(name, text, expected):
    cells, number, flag = _probe(name, text)
    if isinstance(expected, bool):
        assert flag is expected
    elif isinstance(expected, int):
        assert number == expected
    else:
        assert cells == expected


@pytest.mark.parametrize("text, expected", SQUARE_CASES, ids=[c[0] for c in SQUARE_CASES])
def test_square_board_builtins(text, expected):
    _check_probe("square_board.gdl", text, expected)


@pytest.mark.parametrize("text, expected", HEX_CASES, ids=[c[0] for c in HEX_CASES])
def test_hex_board_builtins(text, expected):
    _check_probe("hex_board.gdl", text, expected)




@pytest.mark.parametrize("name", [
    "square_board.gdl",
    "hex_board.gdl",
])
def test_lines_step_between_neighbours(name):
    """Every line runs from one cell to the next through neighbours, `distance` steps."""
    game = rule(name)
    board = game.rules.board
    for a in board.all_cells:
        for b in board.all_cells:
            cells = board.line(a, b)
            assert len(cells) == board.distance(a, b)
            path = [a] + cells
            assert path[-1] == b
            for here, there in zip(path, path[1:]):
                assert there in board.neighbors(here)


@pytest.mark.parametrize("name", ["square_board.gdl", "hex_board.gdl"])
def test_distance_and_neighbours_agree(name):
    board = rule(name).rules.board
    for a in board.all_cells:
        assert sorted(board.neighbors(a)) == [b for b in board.all_cells
                                              if board.distance(a, b) == 1]
        assert all(board.distance(a, b) == board.distance(b, a) for b in board.all_cells)


def test_hex_line_along_the_edge_stays_on_the_board():
    game = rule("hex_board.gdl")
    board = game.rules.board
    assert board.line(board.parse("b5"), board.parse("d5")) == [board.parse("c5"),
                                                               board.parse("d5")]


def test_square_line_of_sight_is_symmetric():
    assert _probe("square_board.gdl", "clear a1 e3") == _probe("square_board.gdl",
                                                                 "clear e3 a1")


def test_view_names_cells_in_a_list_variable():
    game = rule("hex_board.gdl")
    state = game.new_state(0)
    act(game, state, "line b5 e5")
    assert game.view(state, 0)["globals"]["cells_out"] == "[c5, d5, e5]"


def test_cell_names_parse_back():
    for name in ("square_board.gdl", "hex_board.gdl"):
        board = rule(name).rules.board
        assert board.names[:6] == ["a1", "b1", "c1", "d1", "e1", "a2"]
        assert [board.parse(n) for n in board.names] == list(board.all_cells)
        assert board.parse("C3") == board.parse("c3") == 12
        assert board.parse("f1") is None and board.parse("a6") is None


# ----- state: JSON round trip, clone, replay --------------------------------------------------

def _space_war():
    return load_game(str(SPACE_WAR))


def _playout(game, seed, check=None, limit=400):
    """A random playout; returns the actions taken. `check(state)` runs before each step."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    actions = []
    while game.current_player(state) != TERMINAL and len(actions) < limit:
        if check:
            check(state)
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        game.apply(state, action)
        actions.append(action)
    if check:
        check(state)
    return state, actions


@pytest.mark.parametrize("seed", range(8))
def test_space_war_json_round_trip_at_every_step(seed):
    game = _space_war()

    def check(state):
        text = state.to_json()
        restored = State.from_json(text)
        assert restored.to_json() == text
        assert restored == state
        assert restored.at == state.at
        assert game.legal_actions(restored) == game.legal_actions(state)
        assert game.current_player(restored) == game.current_player(state)
        for seat in (0, 1):
            assert game.view(restored, seat) == game.view(state, seat)
        legal = game.legal_actions(state)
        if legal:
            other = state.clone()
            action = legal[len(legal) // 2]
            assert game.apply(restored, action) == game.apply(other, action)
            assert restored.to_json() == other.to_json()

    state, actions = _playout(game, seed, check)
    assert actions


@pytest.mark.parametrize("seed", range(4))
def test_space_war_clone_plays_on_like_the_original(seed):
    game = _space_war()
    final, actions = _playout(game, seed)
    state = game.new_state(seed)
    middle = len(actions) // 2
    for action in actions[:middle]:
        game.apply(state, action)
    clone = state.clone()
    assert clone == state and clone is not state
    for action in actions[middle:]:
        assert game.apply(clone, action) == game.apply(state, action)
        assert clone.to_json() == state.to_json()
    assert state.to_json() == final.to_json()


def test_clone_is_independent():
    game = _space_war()
    state = game.new_state(3)
    clone = state.clone()
    game.apply(clone, game.legal_actions(clone)[0])
    assert clone != state
    assert state.to_json() == game.new_state(3).to_json()


def test_json_keeps_the_order_of_pieces_on_a_cell():
    game = rule("stack.gdl")
    state = game.new_state(0)
    act(game, state, "slide Disc#2")
    act(game, state, "slide Disc#1")
    restored = State.from_json(state.to_json())
    for s in (state, restored):
        act(game, s, "look")
    assert restored.globals == state.globals


# ----- run-time failures a loaded file must not have ------------------------------------------

def _tiny(body, extra=""):
    return textwrap.dedent("""\
        game "Tiny"
        seats a, b
        board square(2, 2)
        var n = 0
        setup {
          goto main for a
        }
        phase main {
          action go() {
            BODY
          }
        }
        """).replace("BODY", body) + extra


def _go(source):
    game = load_source(source, "tiny.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    return game, state


def test_division_by_zero_is_a_located_gdl_error():
    with pytest.raises(GdlError) as err:
        _go(_tiny("n = 5 / (n - n)"))
    assert str(err.value) == ("tiny.gdl:10:9: error: run-time error: division by zero\n"
                              "        n = 5 / (n - n)\n"
                              "            ^")


def test_bad_die_error_names_its_place():
    with pytest.raises(GdlError) as err:
        _go(_tiny("n = roll(n)"))
    assert str(err.value).startswith("tiny.gdl:10:")


@pytest.mark.parametrize("body, extra", [
    ("n = f(1)", "fn f(x) = f(x) + 1\n"),
    ("loop()", "def loop() {\n  loop()\n}\n"),
])
def test_endless_recursion_is_a_gdl_error(body, extra):
    try:
        _go(_tiny(body, extra))
    except GdlError:
        return
    except RecursionError as exc:
        raise AssertionError("RecursionError escaped") from exc
    raise AssertionError("endless recursion finished")


def test_goto_for_no_seat_is_an_error():
    try:
        game, state = _go(_tiny("goto main for first(s in seats where s == none)"))
    except GdlError:
        return
    assert game.current_player(state) in (TERMINAL, 0, 1)


END_WITHOUT_TURNS = textwrap.dedent("""\
    game "No turns"
    seats a, b
    board square(1, 1)
    var seat.ticks = 0
    setup {
      goto main for a
    }
    phase main {
      action tick() {
        me.ticks += 1
      }
    }
    end {
      win when seat.ticks >= 2
    }
    """)


def test_end_rules_hold_without_turn_phases():
    game = load_source(END_WITHOUT_TURNS, "noturn.gdl")
    state = game.new_state(0)
    for _ in range(3):
        if game.current_player(state) == TERMINAL:
            break
        act(game, state, "tick")
    assert state.result == {"winners": [0], "draw": False}


def test_a_row_label_may_read_the_state():
    """`show row(r)` is computed as the view is made, with the state bound, so a label can
    show a variable; the text drawing reads it from the view."""
    from gdl.interpreter.runtime.view import render
    game = load_source("""game "t"
seats a, b
board square(2, 2)
var score = 3
show row(r) = "row " + text(r) + " score " + text(score)
setup { goto p for a }
phase p { action go() { score += 1 } }
""", "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    view = game.view(state, 0)
    assert view["row_labels"] == ["row 1 score 4", "row 2 score 4"]
    assert "row 2 score 4" in render(game, view)
