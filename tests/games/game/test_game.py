"""Galactic Adventures of Military Empires (games/game.gdl).

The rules are tested one by one by the scenarios in tests/scenarios/game/ (run by
tests/test_scenarios.py), the rulebook's "Example of a Player Turn" included. This file adds
what a scenario cannot say:

- what each seat sees: a seat's view (and its JSON and text) never shows another seat's
  secret allocation before the reveal ("players, all at the same time, allocate points")
  nor a token it may not see (face-down tokens show only to the seats that looked at
  them: "may secretly look at the moon's tokens");
- invariants of random legal play, with hypothesis: points spent never exceed the points
  available, a territory has at most one controller, the tokens are conserved;
- random games end (or reach the cap) without error, also through `gdl simulate`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdl.interpreter import load_game
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.view import render

from tests.helpers import ROOT
PATH = ROOT / "games" / "game.gdl"
GAME = load_game(str(PATH))
KINDS = GAME.rules.kinds
SEATS = GAME.seats
SECRET = ("spent", "attack_die", "defence_die", "diplomacy", "peeked")
TOKENS = ("DiceToken", "IpecToken")
DICE_TOKENS = Counter({4: 9, 6: 8, 8: 4, 10: 2, 12: 1})
MAX_SPEND = 11
PROPERTY = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ----- helpers -----------------------------------------------------------------------------
def play(state, *texts):
    for text in texts:
        GAME.apply(state, GAME.parse_action(state, text))


def after_research(seed):
    state = GAME.new_state(seed)
    play(state, "done", "done", "done", "done")
    return state


def seat_vars(view, seat):
    return next(s["vars"] for s in view["seats"] if s["name"] == seat)


def pieces_of(state, kinds):
    return [p for p in state.pieces.values() if p["kind"] in kinds]


def territory_at(state, cell):
    return [p for p in state.pieces.values() if p["alive"] and p["cell"] == cell
            and p["kind"] in ("Planet", "Moon")]


def may_see(state, seat, token):
    return token["face_up"] or token["id"] in state.seat_vars[seat]["peeked"]


def check_view_hides(state, seat):
    """The seat's view shows exactly the tokens it may see and none of the other seats'
    secrets that the rules keep hidden at this moment."""
    view = GAME.view(state, seat)
    shown = {p["label"] for p in view["pieces"] if p["label"] != "?"}
    hidden = sum(1 for p in view["pieces"] if p["label"] == "?")
    tokens = pieces_of(state, TOKENS)
    visible = {t["label"] for t in tokens if may_see(state, seat, t)}
    assert visible <= shown
    assert not (shown & {t["label"] for t in tokens if not may_see(state, seat, t)})
    assert hidden == len(tokens) - len(visible)
    assert all(p["vars"] == {} and p["kind"] == "?" for p in view["pieces"]
               if p["label"] == "?")
    # The map marks of uncontrolled moons (ally, Dice token, IPEC token) show a token's face
    # exactly when the seat may see it.
    marks = {p["cell"]: p["mark"] for p in view["pieces"] if p["kind"] == "Moon"}
    for token in tokens:
        if token["moon"] is None:
            continue
        mark = marks[GAME.rules.board.names[token["moon"]]]
        face = mark[1:-1] if token["kind"] == "DiceToken" else mark[-1]
        assert (face != "?") == may_see(state, seat, token)
    for other, name in enumerate(SEATS):
        if other == seat:
            continue
        own = state.seat_vars[other]
        values = seat_vars(view, name)
        assert values["spent"] == "?" and values["peeked"] == "?"
        if not own["attack_shown"]:
            assert values["attack_die"] == "?"
        if not own["defence_shown"]:
            assert values["defence_die"] == "?"
        if not state.globals["allies_known"]:
            assert values["diplomacy"] == "?"


# ----- hidden information --------------------------------------------------------------------
def test_no_seat_sees_another_allocation_before_the_reveal():
    state = after_research(3)
    play(state, "attack_die D8", "diplomacy a1")
    assert introspect.is_private(GAME, state)
    for seat in (1, 2, 3):
        view = GAME.view(state, seat)
        text = json.dumps(view) + render(GAME, view)
        assert all(seat_vars(view, "red")[name] == "?" for name in SECRET)
        assert "D8" not in text and "[a1]" not in text
    own = seat_vars(GAME.view(state, 0), "red")
    assert own["attack_die"] == "D8" and own["diplomacy"] == "[a1]" and own["spent"] == "5"
    play(state, "done", "defence_die D6", "done", "done", "done")
    # The reveal: the diplomacy points are public, the dice only once rolled.
    view = GAME.view(state, 1)
    assert seat_vars(view, "red")["diplomacy"] == "[a1]"
    assert seat_vars(view, "red")["attack_die"] == "?"
    assert seat_vars(GAME.view(state, 0), "yellow")["defence_die"] == "?"
    play(state, "attack infantry d1 c1")
    view = GAME.view(state, 1)
    assert seat_vars(view, "red")["attack_die"] == "D8"


def test_face_down_tokens_show_only_to_the_seat_that_looked():
    state = after_research(3)
    for seat in range(4):
        view = GAME.view(state, seat)
        assert sum(p["label"] == "?" for p in view["pieces"]) == 48
        assert "Token" not in json.dumps(view)
    play(state, "diplomacy a1", "done", "done", "done", "done")
    moon = next(p for p in state.pieces.values() if p["label"] == "Moon#1")
    assert moon["ally"] == 0
    red = GAME.view(state, 0)
    assert {"DiceToken#1", "IpecToken#1"} <= {p["label"] for p in red["pieces"]}
    assert next(p for p in red["pieces"] if p["label"] == "Moon#1")["mark"] != "r??"
    for seat in (1, 2, 3):
        view = GAME.view(state, seat)
        assert "DiceToken#1" not in json.dumps(view)
        assert next(p for p in view["pieces"] if p["label"] == "Moon#1")["mark"] == "r??"
        check_view_hides(state, seat)
    # An attack on an uncontrolled moon shows both its tokens to everyone.
    play(state, "ally infantry a1 b1")
    for seat in range(4):
        labels = {p["label"] for p in GAME.view(state, seat)["pieces"]}
        assert {"DiceToken#1", "DiceToken#2", "IpecToken#2"} <= labels
        assert ("IpecToken#1" in labels) == (seat == 0)


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2**32), skip=st.integers(0, 5))
def test_views_never_leak_in_random_play(seed, skip):
    state = GAME.new_state(seed)
    agent = RandomAgent(seed)
    while not GAME.is_terminal(state) and state.decisions < 250:
        GAME.apply(state, agent.choose(GAME, state, GAME.legal_actions(state)))
        if state.decisions % 6 == skip and not GAME.is_terminal(state):
            for seat in range(4):
                check_view_hides(state, seat)


# ----- invariants of random play -----------------------------------------------------------
def check_invariants(state):
    budget = []
    for values in state.seat_vars:
        spendable = min(values["points"], MAX_SPEND)
        dice = [KINDS[values["attack_die"]]["price"] if values["attack_die"] else 0,
                KINDS[values["defence_die"]]["price"] if values["defence_die"] != "D4"
                else 0]
        assert values["spent"] == sum(dice) + len(values["diplomacy"])
        assert values["spent"] <= spendable, "points spent never exceed points available"
        budget.append(spendable)
    # One territory per cell, at most one controller each; allies only on uncontrolled moons.
    lands = pieces_of(state, ("Planet", "Moon"))
    assert sorted(p["cell"] for p in lands) == list(range(28))
    for cell in range(28):
        assert len(territory_at(state, cell)) == 1
    for land in lands:
        assert land["ctrl"] is None or land["ctrl"] in range(4)
        assert land["ally"] is None or (land["kind"] == "Moon" and land["ctrl"] is None)
    for seat, values in enumerate(state.seat_vars):
        held = [p for p in lands if p["ctrl"] == seat]
        if not state.out[seat]:
            assert values["territories"] == len(held)
            assert values["value"] == sum(KINDS[p["kind"]]["worth"] for p in held)
    # Tokens: all kept; one Dice and one IPEC token next to each uncontrolled moon only.
    dice = pieces_of(state, ("DiceToken",))
    ipec = pieces_of(state, ("IpecToken",))
    assert all(t["alive"] and t["cell"] is None for t in dice + ipec)
    assert Counter(t["faces"] for t in dice) == DICE_TOKENS
    assert len(ipec) == 24 and sum(t["controlled"] for t in ipec) == 5
    open_moons = sorted(p["cell"] for p in lands if p["kind"] == "Moon" and p["ctrl"] is None)
    assert sorted(t["moon"] for t in dice if t["moon"] is not None) == open_moons
    assert sorted(t["moon"] for t in ipec if t["moon"] is not None) == open_moons


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2**32),
       choices=st.lists(st.integers(min_value=0, max_value=10**6), max_size=600))
def test_random_play_keeps_the_invariants(seed, choices):
    state = GAME.new_state(seed)
    check_invariants(state)
    picks = iter(choices)
    while not GAME.is_terminal(state) and state.decisions < 600:
        legal = GAME.legal_actions(state)
        assert legal
        GAME.apply(state, legal[(next(picks, None) or 0) % len(legal)])
        check_invariants(state)


def test_random_games_end_with_a_winner_of_twelve_points_or_the_last_seat():
    for seed in range(12):
        state = GAME.new_state(seed)
        agent = RandomAgent(seed)
        while not GAME.is_terminal(state) and state.turn <= 1000:
            GAME.apply(state, agent.choose(GAME, state, GAME.legal_actions(state)))
        assert GAME.is_terminal(state), f"seed {seed} did not end in 1000 turns"
        (winner,) = state.result["winners"]
        assert (state.seat_vars[winner]["value"] >= 12
                or state.out.count(False) == 1)


def test_the_seed_deals_the_tokens():
    deals = {tuple(t["faces"] for t in pieces_of(GAME.new_state(seed), ("DiceToken",)))
             for seed in range(5)}
    assert len(deals) == 5


def test_simulate_runs_clean():
    games = 20
    out = subprocess.run(
        [sys.executable, "-m", "gdl.cli.main", "simulate", str(PATH), "--games", str(games),
         "--seed", "1", "--json"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=120)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == games
    assert summary["finished"] + summary["capped"] == games
    assert sum(summary["wins"].values()) + summary["draws"] == summary["finished"]


def test_a_variant_replaces_the_research_tree(tmp_path):
    variant = tmp_path / "game_dear_research.gdl"
    variant.write_text(f'extends "{PATH}"\n'
                       'game "GAME (dear research)"\n'
                       'param research_points = 6\n'
                       'kinds (rp, after) {\n'
                       '  InfantryAgain = 4, []\n'
                       '}\n', encoding="utf-8")
    game = load_game(str(variant))
    state = game.new_state(1)
    assert state.seat_vars[0]["rp"] == 6
    game.apply(state, game.parse_action(state, "research InfantryAgain"))
    assert state.seat_vars[0]["unlocked"] == ["InfantryAgain"]
    assert state.seat_vars[0]["rp"] == 2
