"""Dice pools: `rolls` and `successes` (docs/language.md 10.2); a small game that rolls pools
(tests/rules/pools.gdl) plays to the end."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.runtime.events import as_json

from tests.helpers import (
    VALID, act, logs, play_to_the_end, rule, runtime_error, texts, value, values)


TABLE = "board table(30, 20)"        # the board of the pools (as in test_table_board.py)


def test_rolls_are_forced_dice_in_order():
    assert value(TABLE, "rolls(3, 6)", forced=[(6, 4), (6, 1), (6, 6)]) == "[4, 1, 6]"


def test_successes_count_the_dice_at_or_above():
    forced = [(6, 4), (6, 3), (6, 6), (6, 1), (6, 5)]
    assert value(TABLE, "successes(5, 6, 4)", forced=forced) == "3"
    assert value(TABLE, "successes(5, 6, 7)", forced=forced) == "0"
    assert value(TABLE, "successes(5, 6, 1)", forced=forced) == "5"


def test_every_die_of_a_pool_is_a_roll_event():
    source = VALID.replace("goto play for a\n", "log text(successes(3, 10, 5))\n  goto play for a\n")
    state = load_source(source, "t.gdl").new_state(0, forced=[(10, 5), (10, 4), (10, 10)])
    assert as_json(state.events) == [["roll", 10, 5, "fixed"], ["roll", 10, 4, "fixed"],
                            ["roll", 10, 10, "fixed"], ["log", "2"]]


def test_a_pool_of_no_dice():
    state_events = values(TABLE, "rolls(0, 6)", "successes(0, 6, 1)")
    assert state_events == ["[]", "0"]


def test_a_pool_of_the_most_dice():
    assert value(TABLE, "len(rolls(10000, 6))") == "10000"


@pytest.mark.parametrize("expr, words", [      # (len(cells()) * 0: known only as it runs)
    ("rolls(10001 + len(cells()) * 0, 6)", "10001 dice of 6 sides"),
    ("rolls(-1 + len(cells()) * 0, 6)", "-1 dice of 6 sides"),
    ("rolls(2, len(cells()) * 0)", "2 dice of 0 sides"),
    ("successes(3, len(cells()) * 0, 1)", "3 dice of 0 sides"),
    ("successes(10001 + len(cells()) * 0, 6, 1)", "10001 dice of 6 sides"),
])
def test_too_many_dice_or_too_few_sides(expr, words):
    assert runtime_error(TABLE, expr) == (
        f"values.gdl:5:12: error: run-time error: cannot roll {words} "
        "(0 to 10000 dice of 1 side or more)")


def test_a_squad_fires_a_pool_of_one_die_a_model():
    game = rule("pools.gdl")
    state = game.new_state(0, forced=[(6, 4), (6, 1), (6, 6), (6, 3), (6, 5)])
    events = act(game, state, "fire Squad#1 Team#2")
    assert [e[2] for e in as_json(events) if e[0] == "roll"] == [4, 1, 6, 3, 5]
    assert logs(events) == ["Squad#1 kills 3 of Team#2"]
    assert "Team#2" not in [p["label"] for p in game.view(state, None)["pieces"]]


def test_a_rally_rolls_two_dice():
    game = rule("pools.gdl")
    forced = [(6, 6), (6, 6), (6, 2), (6, 5), (6, 6)] + [(6, 5), (6, 1)]
    state = game.new_state(0, forced=forced)
    act(game, state, "fire Squad#1 Squad#2")        # four of five dice at 4 or more
    assert "rally Squad#2" in texts(game, state)
    act(game, state, "rally Squad#2")               # one 5 or 6 of two: a model back
    pieces = {p["label"]: p["vars"] for p in game.view(state, None)["pieces"]}
    assert pieces["Squad#2"]["models"] == "2"
    assert game.view(state, None)["seats"][1]["vars"]["rallied"] == "[5, 1]"


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("pools.gdl"), "pools.gdl", 300, draw=True)
