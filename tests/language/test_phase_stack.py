"""The phase stack (docs/language.md 4.1): `call` asks another seat and `return` comes back;
returning from the bottom phase."""

from __future__ import annotations

import textwrap

import pytest

from gdl.interpreter import GdlError, load_source
from gdl.interpreter.runtime.engine import TERMINAL

from tests.helpers import act, rule, texts


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
