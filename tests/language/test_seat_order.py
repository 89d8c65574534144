"""Seat order (docs/language.md 4.8): `clockwise_from`, `counterclockwise_from` and
`call ... for each`; the checker's messages; a small game (tests/rules/seat_order.gdl)
plays to the end."""

from __future__ import annotations

import textwrap

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.events import as_json

from tests.helpers import VALID_3, act_json, deciding, lines, play_to_the_end, rule, rule_error


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
    assert act_json(game, state, toast) == []
    asked = []
    for _ in order[:-1]:
        asked.append(deciding(game, state))
        assert act_json(game, state, "drink") == []        # the round goes on: no 'on resume'
    asked.append(deciding(game, state))
    events = act_json(game, state, "drink")               # the last seat returns: the host resumes
    assert asked == order
    assert events == [["log", "answered: [red, green, yellow]"]]      # in seat order
    assert [s["chips"] for s in state.seat_vars] == [6, 2, 2, 2]
    assert deciding(game, state) == "red" and state.turn == 2     # the host's 'goto'


def test_a_seat_knocked_over_earlier_in_the_round_is_skipped():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    act_json(game, state, "toast_left")
    assert deciding(game, state) == "red"
    act_json(game, state, "knock")                        # green falls before its answer
    assert deciding(game, state) == "yellow"
    assert act_json(game, state, "drink") == [["log", "answered: [red, yellow]"]]
    assert deciding(game, state) == "red"            # the next host
    assert state.turn == 2


def test_when_no_seat_qualifies_the_caller_resumes_at_once():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    for seat in state.seat_vars:
        seat["standing"] = False
    assert act_json(game, state, "toast_right") == [["log", "answered: []"]]
    assert deciding(game, state) == "red"


def test_a_seat_out_of_the_game_is_skipped():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    game.concede(state, 2)                           # green
    act_json(game, state, "toast_left")
    act_json(game, state, "drink")
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
    act_json(game, state, "ask")
    assert deciding(game, state) == "a"              # the list starts with the caller
    act_json(game, state, "ok")
    act_json(game, state, "drop c")
    act_json(game, state, "again")                        # a goto stays in b's slot of the round
    assert deciding(game, state) == "b"
    act_json(game, state, "ok")
    assert deciding(game, state) == "d"              # c was dropped
    act_json(game, state, "ok")
    assert state.globals == {"order": [0, 1, 3], "seen": [11, 21, 11], "resumed": 1}
    assert deciding(game, state) == "b"
    assert state.turn == 2


def test_call_for_each_of_a_turn_phase_starts_a_turn_for_each_seat():
    game = load_source(EACH.replace(" MODE", " turn"), "each.gdl")
    state = game.new_state(0)
    act_json(game, state, "ask")
    for _ in range(4):
        act_json(game, state, "ok")
    # every entry started a turn; the argument was worked out once, at the call (turn 1)
    assert state.globals == {"order": [0, 1, 2, 3], "seen": [12, 13, 14, 15], "resumed": 1}
    assert state.turn == 6 and deciding(game, state) == "b"


def test_a_round_survives_a_json_round_trip():
    game = rule("seat_order.gdl")
    state = game.new_state(0)
    act_json(game, state, "toast_left")
    act_json(game, state, "knock")
    copy = State.from_json(state.to_json())
    for each in (state, copy):
        assert act_json(game, each, "drink") == [["log", "answered: [red, yellow]"]]
    assert copy.to_json() == state.to_json()


def test_the_condition_may_not_read_locals():
    bad = VALID_3.replace("goto play for next(me)",
                        "let n = 2\n    call play for each s in seats where n > 1")
    assert rule_error(bad) == lines(
        "bad.gdl:10:41: error: unknown name 'n'",
        "        call play for each s in seats where n > 1",
        "                                            ^")


def test_call_for_each_must_come_last():
    bad = VALID_3.replace("goto play for next(me)",
                        "call play for each s in seats\n    log \"asked\"")
    assert rule_error(bad) == lines(
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
        "bad.gdl:9:5: error: phase 'play' takes 0 arguments, not 1",
        "        call play(1) for each s in seats",
        "        ^"]),
])
def test_call_for_each_errors(stmt, expected):
    assert rule_error(VALID_3.replace("goto play for next(me)", stmt)) == lines(*expected)


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("seat_order.gdl"), "seat_order.gdl", 500)
