"""Phases that play forced actions: `auto` (docs/language.md 4.9): in setup, after a decision,
at the end of a game, with a concession, in transcripts and scenarios; a small game
(tests/rules/auto.gdl) plays to the end."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.runtime.events import as_json

from tests.helpers import (
    RULES, ROOT, VALID_3, act_json, deciding, gdl, lines, play_to_the_end, rule, rule_error, texts)


def test_setup_plays_the_forced_actions():
    """Blue's fuel 1 drives a2 to a3 and parks; red's 2 drives g6 to g4 and parks; blue's 3
    drives to a4, a crossing: blue decides."""
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3)])
    assert as_json(state.events) == [
        ["roll", 3, 1, "fixed"], ["auto", 0, "go Courier#1 north"], ["auto", 0, "park"],
        ["roll", 3, 2, "fixed"], ["auto", 1, "go Courier#2 south"],
        ["auto", 1, "go Courier#2 south"], ["auto", 1, "park"],
        ["roll", 3, 3, "fixed"], ["auto", 0, "go Courier#1 north"]]
    assert (state.turn, state.decisions, deciding(game, state)) == (3, 0, "blue")
    assert texts(game, state) == ["go Courier#1 north", "go Courier#1 east"]


def test_a_decision_is_followed_by_the_forced_actions():
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3), (3, 3)])
    assert act_json(game, state, "go Courier#1 east") == [
        ["auto", 0, "go Courier#1 east"], ["auto", 0, "park"], ["roll", 3, 3, "fixed"]]
    assert [p["cell"] for p in game.view(state, None)["pieces"]] == ["c4", "g4"]
    assert (state.turn, state.decisions, deciding(game, state)) == (4, 1, "red")
    assert texts(game, state) == ["go Courier#2 south", "go Courier#2 west"]


def test_auto_stops_when_the_game_ends():
    game = rule("auto.gdl")
    state = game.new_state(0, forced=[(3, 1), (3, 2), (3, 3), (3, 1), (3, 3)])
    act_json(game, state, "go Courier#1 east")          # blue parks on c4; red's fuel is 1
    events = act_json(game, state, "go Courier#2 west")  # f4; blue's 3: d4 is the depot
    assert events == [["auto", 1, "park"], ["roll", 3, 3, "fixed"],
                      ["auto", 0, "go Courier#1 east"]]
    assert game.returns(state) == [1.0, -1.0]


def test_the_end_rules_run_before_the_forced_actions_that_follow_a_decision():
    """The end rules run after the decision's body, its goto and the on enter of the phase it
    enters (docs/language.md 9), before any auto action: a game they end plays none."""
    game = load_source('game "End first"\nseats north, south\nvar score = 0\n'
                       "setup {\n  goto play for north\n}\n"
                       "phase play turn {\n  action go() {\n    score = 1\n"
                       "    goto bonus for me\n  }\n}\n"
                       'phase bonus auto {\n  on enter {\n    log "entered"\n  }\n'
                       '  action take() {\n    log "played"\n    goto play for next(me)\n'
                       "  }\n}\nend {\n  win when score > 0\n}\n", "end_first.gdl")
    state = game.new_state(0)
    assert act_json(game, state, "go") == [["log", "entered"]]
    assert game.is_terminal(state)


def test_a_phase_that_never_stops_playing_by_itself():
    source = VALID_3.replace("phase play {", "phase play auto {")
    with pytest.raises(GdlRuntimeError) as info:
        load_source(source, "spin.gdl").new_state(0)
    assert str(info.value) == (
        "spin.gdl:7:1: error: run-time error: phase 'play' played more than 10,000 actions "
        "on its own ('auto') after one decision\n"
        "    phase play auto {\n"
        "    ^")


def test_auto_on_a_simultaneous_phase_is_an_error():
    bad = VALID_3 + "phase vote simultaneous auto {\n  action yes() { }\n}\n"
    assert rule_error(bad) == lines(
        "bad.gdl:12:1: error: a simultaneous phase cannot be 'auto': an action played on its "
        "own is shown to every seat",
        "    phase vote simultaneous auto {",
        "    ^")


def test_a_concession_that_leaves_one_action_plays_it():
    source = VALID_3.replace("phase play {", "phase play auto {").replace(
        "action pass() {", "action wait() where len(seats) == 3 {\n  }\n  action pass() {"
    ).replace("goto play for next(me)", "win me")
    game = load_source(source, "concede.gdl")
    state = game.new_state(0)
    assert texts(game, state) == ["wait", "pass"]
    game.concede(state, 2)
    assert as_json(state.events) == [["out", 2], ["auto", 0, "pass"]]


def test_record_and_replay_with_forced_actions(tmp_path):
    out = tmp_path / "couriers.txt"
    result = gdl("record", str(RULES / "auto.gdl"), "--seed", "3", "-o", str(out))
    assert result.returncode == 0, result.stderr
    recorded = out.read_text().splitlines()
    decisions = [line for line in recorded if line[:1].isdigit()]
    autos = [line for line in recorded if line.startswith("  auto: ")]
    assert decisions and autos
    assert not [line for line in decisions if " park" in line]   # park is never a choice
    ok = gdl("replay", str(out))
    assert ok.returncode == 0, ok.stderr
    assert f"{len(decisions)} decisions replay identically" in ok.stdout
    index = recorded.index(autos[-1])
    recorded[index] += " again"                      # an auto action that was not played
    out.write_text("\n".join(recorded) + "\n")
    bad = gdl("replay", str(out))
    assert bad.returncode == 1
    assert f"{out}:{index + 1}: replay differs at step" in bad.stderr


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("auto.gdl"), "auto.gdl", 500)


def test_a_scenario_entering_an_auto_phase_plays_the_forced_actions(tmp_path):
    """Blue's courier on a2 heading north with 1 fuel: a3 is the only way, then `park` the
    only action; red's, on g6 heading south with 3 fuel, goes to the crossing g4 and waits
    there for red's choice. The scenario's `phase` line plays all of it."""
    scenario = tmp_path / "forced.scenario"
    scenario.write_text("\n".join([
        f"rules {ROOT / 'tests' / 'rules' / 'auto.gdl'}",
        "clear",
        "piece Courier blue a2 heading=north",
        "piece Courier red g6 heading=south",
        "roll 3 1",
        "roll 3 3",
        "phase drive for blue",
        "expect Courier#1 at a3",
        "expect Courier#2 at g4",
        "expect phase drive for red",
        "expect red.fuel == 1",
        ""]))
    result = gdl("test", str(scenario))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
