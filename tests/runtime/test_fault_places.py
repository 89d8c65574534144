"""Every run-time rule error names FILE:LINE:COL of what failed: inside a phase's
`on enter`, inside an action, inside a trigger, and when the game gets stuck."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.playing import run_game

BASE = """game "t"
seats a, b
board square(3, 3)
kinds (speed) {{ Pawn = 1 }}
var n = 0
{extra}
setup {{
  create Pawn for a at @a1
  goto main for a
}}
phase main {{
  on enter {{
    {enter}
  }}
  action go() {{
    {body}
  }}
}}
"""


def fault(enter="n = n", body="n = 1", extra=""):
    game = load_source(BASE.format(enter=enter, body=body, extra=extra), "t.gdl")
    with pytest.raises(GdlRuntimeError) as info:
        state = game.new_state(0)
        game.apply(state, game.legal_actions(state)[0])
    return str(info.value)


@pytest.mark.parametrize("enter, body, extra, expected", [
    ("stop", "n = 1", "",
     "t.gdl:13:5: error: run-time error: 'stop' ran outside an 'on enter' trigger of a move\n"
     "        stop\n"
     "        ^"),
    ("n = n", "n = 2\n    stop", "",
     "t.gdl:17:5: error: run-time error: 'stop' ran outside an 'on enter' trigger of a move\n"
     "        stop\n"
     "        ^"),
    ("n = 10 / n", "n = 1", "",
     "t.gdl:13:9: error: run-time error: division by zero\n"
     "        n = 10 / n\n"
     "            ^"),
    ("n = n", "n = 2\n    win first(s in [a]: none)", "",
     "t.gdl:17:5: error: run-time error: none is not a seat\n"
     "        win first(s in [a]: none)\n"
     "        ^"),
    ("n = n", "move first(p in pieces(a): p) along [@a2]",
     "on enter(p, c) where c == @a2 {\n  n = roll(n)\n}",
     "t.gdl:7:7: error: run-time error: cannot roll 1 dice of 0 sides\n"
     "      n = roll(n)\n"
     "          ^"),
    ("n = n", "move first(p in pieces(a): p) along [@a2]",
     "var l = [1]\non enter(p, c) where c == @a2 {\n  n = roll(nth(l, 2))\n}",
     "t.gdl:8:7: error: run-time error: cannot roll 1 dice of none sides\n"
     "      n = roll(nth(l, 2))\n"
     "          ^"),
])
def test_a_fault_names_its_place(enter, body, extra, expected):
    assert fault(enter, body, extra) == expected


def test_a_game_left_without_a_legal_action_names_the_phase():
    text = BASE.format(enter="n = n", body="n = 1", extra="").replace(
        "action go() {", "action go() where n > 0 {")
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:
        run_game(game, state, lambda seat, legal: legal[0])
    assert str(info.value) == (
        "t.gdl:11:1: error: run-time error: no legal action for a in phase 'main': the rules "
        "leave the game stuck\n"
        "    phase main {\n"
        "    ^\n"
        "hint: if the rules let this happen, say what happens then with an 'on no action { ... }' "
        "block in phase 'main' (docs/language.md, 4.12)")


def test_a_simultaneous_phase_left_without_a_legal_action_has_no_hint():
    # 'on no action' is not allowed there: the hint would send the designer astray
    text = BASE.format(enter="n = n", body="n = 1", extra="").replace(
        "phase main {", "phase main simultaneous {").replace(
        "action go() {", "action go() where n > 0 {")
    game = load_source(text, "t.gdl")
    with pytest.raises(GdlRuntimeError) as info:
        run_game(game, game.new_state(0), lambda seat, legal: legal[0])
    assert str(info.value).splitlines()[-1] == "    ^"
    assert "the rules leave the game stuck" in str(info.value)
