"""`on resume` blocks (docs/language.md 4.3): what runs when a called phase returns, and the
`call` that must come last because of it."""

from __future__ import annotations

import textwrap

import pytest

from gdl.interpreter import GdlError, load_source

from tests.helpers import COINS, act


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


def test_on_resume_runs_when_a_called_phase_returns():
    game = load_source(COINS, "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "ask"))
    assert game.current_player(state) == 1
    game.apply(state, game.parse_action(state, "ok"))
    assert state.globals["resumed"] == 1
    assert game.current_player(state) == 0
