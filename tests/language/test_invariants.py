"""Invariants (`invariant "what": condition`, docs/language.md 9.1) and doc strings (4.11):
checked after every decision by run_game(check=True) and by scenario files; every shipped
game states its own (tests/test_properties.py checks them under random play)."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.play.playing import run_game
from gdl.interpreter.play.scenarios.runner import run_scenario
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT
RULES = os.path.join(ROOT, "tests", "rules", "invariants.gdl")


def test_an_invariant_holds_until_a_decision_breaks_it():
    game = load_game(RULES)
    state = game.new_state(0)
    assert list(game.rules.invariants) == ["money never negative"]
    for _ in range(4):                     # each seat spends its two coins
        game.apply(state, game.parse_action(state, "spend"))
        assert introspect.broken_invariants(game, state) == []
    game.apply(state, game.parse_action(state, "spend"))
    assert introspect.broken_invariants(game, state) == ["money never negative"]


def test_checked_play_names_the_decision_that_broke_it():
    game = load_game(RULES)
    state = game.new_state(0)
    spend = [a for a in game.legal_actions(state) if game.action_text(state, a) == "spend"][0]
    with pytest.raises(GdlRuntimeError) as info:
        run_game(game, state, lambda seat, legal: spend, check=True, max_decisions=20)
    assert str(info.value).splitlines() == [
        f"{RULES}:6:1: error: run-time error: the invariant \"money never negative\" does not "
        "hold after decision 5 (a: spend, turn 5)",
        '    invariant "money never negative": all(s in seats: s.money >= 0)',
        "    ^"]


SPEND_FIRST = """\
game "Inv"
seats a, b
var seat.money = 0
invariant "money never negative": all(s in seats: s.money >= 0)
setup {
  goto p for a
}
phase p {
  action spend() {
    me.money -= 1
    goto NEXT for next(me)
  }
}
"""


@pytest.mark.parametrize("next_phase, later, when", [
    ("p", "", ""),                                      # a game without turns
    ("q", "phase q turn {\n  action pass() {}\n}\n", ", before the first turn")])
def test_a_decision_before_any_turn_names_no_turn_0(next_phase, later, when):
    """A game without turn phases names no turn; one whose turns have not started says so,
    as every tool does (it was 'turn 0' for both)."""
    source = SPEND_FIRST.replace("NEXT", next_phase) + later
    game = load_source(source, "inv.gdl")
    state = game.new_state(0)
    spend = game.parse_action(state, "spend")
    with pytest.raises(GdlRuntimeError) as info:
        run_game(game, state, lambda seat, legal: spend, check=True, max_decisions=20)
    assert str(info.value).splitlines()[0] == (
        "inv.gdl:4:1: error: run-time error: the invariant \"money never negative\" does not "
        f"hold after decision 1 (a: spend{when})")


def test_unchecked_play_does_not_look():
    game = load_game(RULES)
    state = game.new_state(0)
    spend = [a for a in game.legal_actions(state) if game.action_text(state, a) == "spend"][0]
    status, _ = run_game(game, state, lambda seat, legal: spend, max_decisions=20)
    assert status == "capped" and state.seat_vars[0]["money"] < 0


def test_a_scenario_fails_at_the_line_after_which_it_broke(tmp_path):
    path = tmp_path / "spend.scenario"
    path.write_text(f"rules {RULES}\nplay spend\nplay spend\nplay spend\nplay spend\n"
                    "play spend\nexpect a.money == -1\n")
    assert run_scenario(str(path)) == [
        f'{path}:6: expected the invariant "money never negative" to hold after this line, '
        "got it does not"]


@pytest.mark.parametrize("text,message", [
    ('invariant "x": 3', "type mismatch: an invariant needs true/false"),
    ('invariant "x": true\ninvariant "x": false', 'invariant "x" is declared twice'),
])
def test_bad_invariants_are_check_errors(text, message):
    source = f'seats a, b\nboard square(1, 1)\n{text}\nsetup {{ goto p for a }}\n' \
             'phase p { action x() { } }\n'
    with pytest.raises(GdlRuleError) as info:
        load_source(source, "t.gdl")
    assert message in str(info.value)


def test_a_variant_replaces_an_invariant_of_the_same_name(tmp_path):
    variant = tmp_path / "v.gdl"
    variant.write_text(f'extends "{RULES}"\ninvariant "money never negative": true\n'
                       'invariant "two seats": len(all_seats) == 2\n')
    game = load_game(str(variant))
    assert list(game.rules.invariants) == ["money never negative", "two seats"]
    state = game.new_state(0)
    for _ in range(5):
        game.apply(state, game.parse_action(state, "spend"))
    assert introspect.broken_invariants(game, state) == []


def test_doc_strings_of_phases_and_actions():
    game = load_game(RULES)
    assert game.rules.doc("p") == "Spend or pass."
    assert game.rules.doc("p", "spend") == "Spend one coin."
    assert game.rules.doc("p", "pass") is None
    binders = load_source('seats a, b\nboard square(2, 1)\nsetup { goto p for a }\n'
                          'phase p { action go(c in cells()) where c != @a1 { "Go there."\n'
                          '  goto p for next(me) } }\n', "t.gdl")
    assert binders.rules.doc("p", "go") == "Go there."
    assert len(binders.legal_actions(binders.new_state(0))) == 1


def test_the_shipped_invariants_hold_in_checked_random_games():
    for name in ("space_war.gdl", "galaxy_grid_2.gdl"):
        game = load_game(os.path.join(ROOT, "games", name))
        state = game.new_state(3)
        agents = [RandomAgent(i) for i in range(len(game.seats))]
        status, _ = run_game(game, state, lambda seat, legal: agents[seat].choose(
            game, state, legal), check=True, max_decisions=2000)
        assert status in ("finished", "capped")


def test_a_scenario_set_up_that_breaks_an_invariant_blames_no_step(tmp_path):
    path = tmp_path / "owe.scenario"
    path.write_text(f"rules {RULES}\nset a.money = -3\nplay spend\nexpect a.money == -4\n")
    assert run_scenario(str(path)) == []


def test_simulate_check_stops_at_the_broken_invariant():
    from tests.play.test_cli import gdl
    result = gdl("simulate", RULES, "--games", "3", "--check", "--workers", "1")
    assert result.returncode == 1
    assert 'the invariant "money never negative" does not hold after decision' in result.stderr
    assert "in simulated game 1, seed 0" in result.stderr
    result = gdl("simulate", RULES, "--games", "3", "--workers", "1", "--max-turns", "20")
    assert result.returncode == 0


def test_simulate_check_with_workers_and_on_the_shipped_games():
    from tests.play.test_cli import gdl
    result = gdl("simulate", RULES, "--games", "4", "--check", "--workers", "2")
    assert result.returncode == 1 and "money never negative" in result.stderr
    result = gdl("simulate", os.path.join(ROOT, "games", "galaxy_grid_2.gdl"), "--games", "4",
                 "--check", "--workers", "2")
    assert result.returncode == 0, result.stderr
