"""`stat NAME = expr` and `stat NAME(s) = expr`: values of a game's final position that
simulations record (docs/language.md, "Statistics"); the checker's errors, pinned."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT
RACE = os.path.join(ROOT, "tests", "rules", "balance", "race.gdl")

BASE = """seats a, b
board square(1, 1)
var seat.points = 0
setup { goto p for a }
phase p { action x() { me.points += 1 } }
"""


def play_to_the_end(game, seed, choice=0):
    state = game.new_state(seed)
    while not game.is_terminal(state):
        game.apply(state, game.legal_actions(state)[choice])
    return state


def test_stats_are_evaluated_on_the_final_position_per_game_and_per_seat():
    game = load_game(RACE)
    state = play_to_the_end(game, 3, choice=1)     # every seat walks: 2 steps a turn
    assert introspect.statistics(game, state) == {
        "runs": 0, "position": {"a": 20, "b": 18}, "close": True}


def test_a_rule_file_without_stats_has_none():
    assert introspect.statistics(load_source(BASE), load_source(BASE).new_state(0)) == {}


def test_a_variant_replaces_a_stat_of_the_same_name(tmp_path):
    variant = tmp_path / "v.gdl"
    variant.write_text(f'extends "{RACE}"\nstat runs = runs * 10\nstat goal = goal\n')
    game = load_game(str(variant))
    state = play_to_the_end(game, 3, choice=0)      # every seat runs
    found = introspect.statistics(game, state)
    assert list(found) == ["runs", "position", "close", "goal"]
    assert found["runs"] % 10 == 0 and found["runs"] > 0 and found["goal"] == 20


@pytest.mark.parametrize("line, message", [
    ("stat s = [1]", "<string>:6:10: error: type mismatch: a 'stat' needs a number, true or "
     "false, or text, but this is list of a number"),
    ("stat s(x) = x", "<string>:6:13: error: type mismatch: a 'stat' needs a number, true or "
     "false, or text, but this is a seat"),
    ("stat s = 1\nstat s = 2", "<string>:7:1: error: 'stat s' is declared twice; the first is at line 6"),
    ("stat s(x) = x.nope", "<string>:6:13: error: a seat has no field 'nope'"),
    ("stat s = me.points + x", "<string>:6:22: error: unknown name 'x'"),
])
def test_checker_errors(line, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(BASE + line + "\n")
    assert caught.value.render().startswith(message)


def test_a_fault_while_a_stat_is_evaluated_names_the_stat():
    game = load_source(BASE + "stat s = 10 / a.points\n")
    with pytest.raises(GdlRuntimeError) as caught:
        introspect.statistics(game, game.new_state(0))
    assert caught.value.line == 6
