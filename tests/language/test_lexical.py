"""Lexical structure (docs/language.md 2): names that start with a reserved word; list
equality."""

from __future__ import annotations

from gdl.interpreter import load_game

from tests.helpers import RULES


REGRESSIONS = str(RULES / "regressions.gdl")


def test_names_starting_with_a_quantifier_word_and_list_equality():
    game = load_game(REGRESSIONS)
    state = game.new_state(1)
    # `allowed`, `counter`, `[me] == [blue]`, `range(1, 2) == [1, 2]` all hold
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == ["face North"]
