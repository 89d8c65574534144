"""Actions (docs/language.md 4.4): a `where` part guards the domains after it."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import IllegalAction


def test_a_where_part_guards_the_domains_after_it_when_explaining():
    game = load_source("""
seats a, b
board square(3, 1)
kinds (power) { Pawn = 1 }
setup { create Pawn for a at none  create Pawn for a at @a1  goto main for a }
phase main {
  action go(p in pieces(me), to in neighbors(p.cell)) where p.cell != none { return }
}
""", "guard.gdl")
    state = game.new_state(0)
    assert [game.action_text(state, x) for x in game.legal_actions(state)] == ["go Pawn#2 b1"]
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, "go Pawn#1 b1")
    assert info.value.message == "the rule 'p.cell != none' does not hold"
