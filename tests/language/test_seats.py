"""`seats` (docs/language.md 3.2): `next` and `previous` go round them, skipping eliminated
seats; the last seat standing wins."""

from __future__ import annotations

import pytest

from gdl.interpreter.runtime.engine import TERMINAL

from tests.helpers import act, rule


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
