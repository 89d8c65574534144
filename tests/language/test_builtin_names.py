"""Built-in names (docs/language.md 6.5): `deciding`, `current_phase`."""

from __future__ import annotations

from gdl.interpreter import load_source

from tests.helpers import COINS


def test_deciding_and_current_phase():
    game = load_source(COINS.replace("var resumed = 0", "var resumed = 0\nvar seen = \"\"")
                       .replace("action ok() { return }",
                                "action ok() { seen = current_phase + text(deciding)  return }"),
                       "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "ask"))
    game.apply(state, game.parse_action(state, "ok"))
    assert state.globals["seen"] == "replyb"
