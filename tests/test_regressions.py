"""Regression tests for problems found while documenting the language."""

import os

import pytest

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "rules", "regressions.gdl")


def test_names_starting_with_a_quantifier_word_and_list_equality():
    game = load_game(RULES)
    state = game.new_state(1)
    # `allowed`, `counter`, `[me] == [blue]`, `range(1, 2) == [1, 2]` all hold
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == ["face North"]


def test_typed_symbols_ignore_case_and_the_failing_rule_is_named():
    game = load_game(RULES)
    state = game.new_state(1)
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, "face south")
    assert info.value.message == "the rule 's != South' does not hold"
    assert game.parse_action(state, "FACE north") == game.legal_actions(state)[0]


def test_every_seat_losing_at_once_is_a_draw():
    game = load_game(RULES)
    state = game.new_state(1)
    game.apply(state, game.parse_action(state, "face North"))
    assert state.result == {"winners": [], "draw": True}


def test_a_variant_column_that_the_base_lacks_is_an_error(tmp_path):
    base = os.path.join(HERE, "..", "games", "space_war.gdl")
    (tmp_path / "space_war.gdl").write_text(open(base).read())
    (tmp_path / "v.gdl").write_text('extends "space_war.gdl"\nkinds (sped) { Fighter = 5 }\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines() == [
        f"{tmp_path / 'v.gdl'}:2:1: error: the base table has no column 'sped'",
        "    kinds (sped) { Fighter = 5 }",
        "    ^",
        "did you mean 'speed'?"]


def test_an_error_while_listing_actions_is_a_gdl_error():
    text = """
game "t"
seats a, b
board square(3, 3)
kinds (speed) { Pawn = 1 }
setup { create Pawn for a at none  goto p for a }
phase p { action go(x in pieces(me), to in neighbors(x.cell)) { return } }
"""
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlError) as info:
        game.legal_actions(state)
    assert "run-time error in the rules" in info.value.message
