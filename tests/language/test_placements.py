"""Placing dice: `placements` (docs/language.md 10.1): counted once, typed, kept across a JSON
round trip; a small game (tests/rules/placements.gdl) plays to the end."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuntimeError, IllegalAction
from gdl.interpreter.runtime.state import State

from tests.helpers import (
    VALID_3, act_json, lines, play_to_the_end, reason, rule, texts, value, values)


SLOTS = "symbols Move, Fire, Direction"


@pytest.mark.parametrize("dice, slots, count", [
    ("[3, 3, 5]", "[Move, Fire, Direction]", 18),   # 27 ways, less the 9 that swap the 3s
    ("[1, 2, 3, 4]", "[Move, Fire, Direction]", 81),  # distinct dice: 3 ** 4
    ("[2, 2, 2]", "[Move, Fire]", 4),              # 0, 1, 2 or 3 of them on Move
    ("[6]", "[Fire]", 1),
    ("[]", "[Move, Fire]", 1),                     # no dice: the one empty placement
    ("[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "[Move, Fire, Direction]", 66),   # 3 ** 10 tried
])
def test_placements_are_counted_once(dice, slots, count):
    found = values("board square(1, 1)", f"len(placements({dice}, {slots}))",
                   f"len(unique([text(p) for p in placements({dice}, {slots})]))",
                   extra=SLOTS)
    assert found == [str(count), str(count)]


def test_placement_texts():
    assert value("board square(1, 1)", "placements([5, 3, 3], [Move, Fire])", extra=SLOTS) == (
        "[Move 3+3+5, Move 3+3 Fire 5, Move 3+5 Fire 3, Move 3 Fire 3+5, Move 5 Fire 3+3, "
        "Fire 3+3+5]")


def test_placed_and_total():
    exprs = ["[placed(p, Move) for p in placements([4, 1], [Move, Fire])]",
             "[placed(p, Fire) for p in placements([4, 1], [Move, Fire])]",
             "[total(placed(p, Move)) for p in placements([4, 1], [Move, Fire])]",
             "total([])"]
    assert values("board square(1, 1)", *exprs, extra=SLOTS) == [
        "[[1, 4], [1], [4], []]", "[[], [4], [1], [1, 4]]", "[5, 1, 4, 0]", "0"]


def test_too_many_placements_is_a_run_time_error():
    """11 different dice on 3 slots: 3 ** 11 = 177147 placements."""
    source = VALID_3.replace("goto play for a", "n = len(placements(range(1, 11), [Move, Fire, "
                           "Direction]))\n  goto play for a") + SLOTS + "\nvar n = 0\n"
    with pytest.raises(GdlRuntimeError) as info:
        load_source(source, "many.gdl").new_state(0)
    assert str(info.value) == lines(
        "many.gdl:5:11: error: run-time error: 11 dice on 3 slots are too many ways to try "
        "(more than 1000000 steps)",
        "      n = len(placements(range(1, 11), [Move, Fire, Direction]))",
        "              ^")


def test_the_legal_placements_of_three_dice():
    """One die of 2, 5, 3 on Direction (3 ways), the other two on Move and Fire (4 ways)."""
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    assert texts(game, state) == [
        "place Move 2+3 Direction 5", "place Move 2 Fire 3 Direction 5",
        "place Move 2+5 Direction 3", "place Move 2 Fire 5 Direction 3",
        "place Move 3 Fire 2 Direction 5", "place Fire 2+3 Direction 5",
        "place Move 5 Fire 2 Direction 3", "place Fire 2+5 Direction 3",
        "place Move 3+5 Direction 2", "place Move 3 Fire 5 Direction 2",
        "place Move 5 Fire 3 Direction 2", "place Fire 3+5 Direction 2"]


def test_equal_dice_give_each_placement_once():
    """3, 3, 5: Direction takes a 3 (4 ways for 3 and 5 on Move and Fire) or the 5 (3 ways
    for the two 3s), 7 in all."""
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 3), (6, 3), (6, 5)])
    assert texts(game, state) == [
        "place Move 3+3 Direction 5", "place Move 3 Fire 3 Direction 5",
        "place Move 3+5 Direction 3", "place Move 3 Fire 5 Direction 3",
        "place Fire 3+3 Direction 5", "place Move 5 Fire 3 Direction 3",
        "place Fire 3+5 Direction 3"]


def test_typed_placements():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    assert game.action_text(state, game.parse_action(state, "PLACE move 2+5  direction 3")) == (
        "place Move 2+5 Direction 3")
    assert reason(game, state, "place Move 2+5 Direction 4") == (
        "Move 2+5 Direction 4 is not a possible 'p' now (not in placements(me.dice, [Move, "
        "Fire, Direction]))")
    assert reason(game, state, "place Move 2+3+5") == (
        "the rule 'len(placed(p, Direction)) == 1' does not hold")
    assert reason(game, state, "place Move 2+5 Direction") == (
        "'Move 2+5 Direction' is not a placement of dice")
    assert reason(game, state, "place Move 2 Move 5 Direction 3") == (
        "'Move 2 Move 5 Direction 3' is not a placement of dice")
    assert reason(game, state, "place Jump 2+5 Direction 3") == (
        "'Jump 2+5 Direction 3' is not a placement of dice")


def test_a_placement_moves_and_fires():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 4), (6, 6), (6, 6), (6, 1)])
    assert act_json(game, state, "place Move 2+5 Direction 4") == [
        ["roll", 6, 6, "fixed"], ["roll", 6, 6, "fixed"], ["roll", 6, 1, "fixed"]]
    assert game.view(state, None)["pieces"][0]["cell"] == "c1"     # even: two cells east
    assert act_json(game, state, "place Fire 6+6 Direction 1")[0] == ["log", "Skiff#1 is hit"]
    assert state.seat_vars[0]["hits"] == 1                  # 12 is more than 9 cells


def test_dice_typed_high_first():
    game = rule("placements.gdl")
    state = game.new_state(0, forced=[(6, 2), (6, 5), (6, 3)])
    try:
        action = game.parse_action(state, "place Move 5+2 Direction 3")
    except IllegalAction as exc:
        assert "not a legal action now" not in str(exc)
    else:
        assert game.action_text(state, action) == "place Move 2+5 Direction 3"


NO_DICE = VALID_3 + SLOTS + "\nvar dice = []\n"
NO_DICE = NO_DICE.replace("action pass() {", "action place(p in placements(dice, [Move])) {")


def test_the_empty_placement_can_be_typed():
    game = load_source(NO_DICE, "nodice.gdl")
    state = game.new_state(0)
    [action] = game.legal_actions(state)
    assert game.parse_action(state, game.action_text(state, action)) == action


def test_no_slots_give_no_placement():
    assert value("board square(1, 1)", "placements([4], [])", extra=SLOTS) == "[]"


def test_a_kept_placement_survives_a_json_round_trip():
    source = VALID_3 + SLOTS + "\nvar kept = none\nvar found = false\n"
    source = source.replace(
        "action pass() {",
        "action keep(p in placements([1, 2], [Move, Fire])) {\n    kept = p\n  }\n"
        "  action find() {\n    found = kept in placements([1, 2], [Move, Fire])\n  }\n"
        "  action pass() {")
    game = load_source(source, "kept.gdl")
    state = game.new_state(0)
    act_json(game, state, "keep Move 1 Fire 2")
    loaded = State.from_json(state.to_json())
    act_json(game, state, "find")
    act_json(game, loaded, "find")
    assert state.globals["found"] is True
    assert loaded.globals["found"] is True


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("placements.gdl"), "placements.gdl", 500)
