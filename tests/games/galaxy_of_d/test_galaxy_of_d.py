"""Galaxy of D (games/galaxy_of_d.gdl and its Quick Setup games/galaxy_of_d_quick.gdl).

The rules are tested one by one by the scenarios in tests/scenarios/galaxy_of_d/ and
tests/scenarios/galaxy_of_d_quick/ (run by tests/test_scenarios.py). This file adds what a
scenario cannot say:

- what each seat sees: a seat's view (and its JSON) never shows a hidden enemy ship's
  label or kind (6.1 "you may not inspect enemy ships (so you can only see the top enemy
  ship in a sector)"), the other seat's secret starting ships before the reveal (5.3.1
  "Each Player secretly buys any ships he wants"), or the other seat's
  rock-paper-scissors throw before the reveal (5.2.1); a seat's own view shows all of its
  own ships;
- invariants of random legal play, with hypothesis, on both files;
- whole games with `gdl simulate`, as a user runs it;
- the rulebook's worked examples and FAQ answers exist as scenarios.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdl.interpreter import load_game
from gdl.interpreter.play.scenarios.runner import ScenarioRun
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.view import render

from tests.helpers import GAMES as GAMES_DIR, TESTS, gdl


ROOT = TESTS.parent
BASE_PATH = ROOT / "games" / "galaxy_of_d.gdl"
QUICK_PATH = ROOT / "games" / "galaxy_of_d_quick.gdl"
BASE = load_game(str(BASE_PATH))
QUICK = load_game(str(QUICK_PATH))
GAMES = {"galaxy_of_d": BASE, "galaxy_of_d_quick": QUICK}
SCENARIOS = TESTS / "scenarios"

SHIP_KINDS = ["Interceptor", "Scavenger", "Freighter", "Cruiser", "Bomber", "Assassin",
              "Destroyer"]
STARBASE_ARMOR = 20
# 6.5: each Starbase loses 1 Armor at the end of each of its owner's turns, so the 20th
# turn of the second player (turn 40) is the last; 2 turns of slack.
TURN_BOUND = 2 * STARBASE_ARMOR + 2


# ----- helpers ---------------------------------------------------------------------------
def position(tmp_path, game_path, lines):
    """Play scenario lines (rules line added) and return (game, state); every expectation
    in them must hold."""
    path = tmp_path / "position.scenario"
    path.write_text(f"rules {game_path}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    run = ScenarioRun(str(path))
    assert run.run() == []
    return run.game, run.state


def seen(game, state, seat):
    """A seat's view, as the JSON text an agent would get, and as drawn text (without the
    board's key, which lists every kind of the game)."""
    view = game.view(state, game.seats.index(seat))
    drawn = "\n".join(line for line in render(game, view).splitlines()
                       if not line.lstrip().startswith("key:"))
    return view, json.dumps(view), drawn


def labels(view):
    return [p["label"] for p in view["pieces"]]


# ----- 6.1: only the top enemy ship of a sector is seen ---------------------------------------
STACK = [
    "clear",
    "piece Starbase one c3",                   # one:Starbase#1
    "piece Starbase two g7",                   # two:Starbase#1
    "piece Cruiser one e5",                    # one:Cruiser#2, bottom of the stack
    "piece Freighter one e5 cargo=true",       # one:Freighter#3
    "piece Interceptor one e5",                # one:Interceptor#4, the top ship
    "piece Bomber two g7",                     # two:Bomber#2, two's own ships: hidden to one
    "piece Destroyer two g7",                  # two:Destroyer#3, the top of two's stack
    "phase movement for two",                  # two decides
    "expect phase movement for two",
]


@pytest.mark.parametrize("game_path", [BASE_PATH, QUICK_PATH], ids=["base", "quick"])
def test_hidden_enemy_ships_leak_nothing(tmp_path, game_path):
    game, state = position(tmp_path, game_path, STACK)
    view, text, drawn = seen(game, state, "two")
    for hidden in ("one:Cruiser#2", "one:Freighter#3"):
        assert hidden not in text
        assert hidden not in drawn
    # no hidden kind anywhere
    for kind in ("Cruiser", "Freighter"):
        assert kind not in text and kind not in drawn
    # two knows there are two more ships under the top one, nothing else
    hidden = [p for p in view["pieces"] if p["label"] == "?"]
    assert len(hidden) == 2
    assert all(p["kind"] == "?" and p["owner"] == "one" and p["cell"] == "e5"
               and p["vars"] == {} and p["mark"] == "?" for p in hidden)
    # the top ship and two's own pieces are seen
    assert {"one:Interceptor#4", "one:Starbase#1", "two:Starbase#1", "two:Destroyer#3",
            "two:Bomber#2"} <= set(labels(view))
    assert all("F" not in p["mark"] for p in view["pieces"])   # nor the cargo mark "Fc"


@pytest.mark.parametrize("game_path", [BASE_PATH, QUICK_PATH], ids=["base", "quick"])
def test_own_view_shows_every_own_ship(tmp_path, game_path):
    game, state = position(tmp_path, game_path, STACK)
    view, text, drawn = seen(game, state, "one")
    assert {"one:Cruiser#2", "one:Freighter#3", "one:Interceptor#4"} <= set(labels(view))
    freighter = next(p for p in view["pieces"] if p["label"] == "one:Freighter#3")
    assert freighter["kind"] == "Freighter" and freighter["vars"]["cargo"] == "true"
    # of two's stack, one sees the top ship only
    assert "two:Destroyer#3" in labels(view)
    assert "Bomber" not in text and labels(view).count("?") == 1
    # the deciding seat (two, in the position) sees all of its own ships
    assert game.current_player(state) == 1
    view, _, _ = seen(game, state, "two")
    assert {"two:Destroyer#3", "two:Bomber#2"} <= set(labels(view))


def test_top_enemy_ship_is_the_last_to_enter(tmp_path):
    game, state = position(tmp_path, BASE_PATH, STACK[:-2] + [
        "phase movement for one",
        "play move one:Cruiser#2 e6",                  # one:Cruiser#2 leaves the stack...
        "play move one:Cruiser#2 e5",                  # ...and comes back on top
        "expect one:Cruiser#2 at e5",
    ])
    view, text, _ = seen(game, state, "two")
    assert "one:Cruiser#2" in labels(view)
    assert "one:Interceptor#4" not in text and "one:Freighter#3" not in text


def test_last_moved_ship_is_not_leaked_once_hidden(tmp_path):
    game, state = position(tmp_path, BASE_PATH, [
        "clear",
        "piece Starbase one c3",
        "piece Starbase two g7",
        "piece Cruiser one c4",                    # one:Cruiser#2
        "set one.money = 10",
        "phase movement for one",
        "play move one:Cruiser#2 c3",                  # home, on top of the Starbase sector
        "play done",
        "expect phase buy_ships for one",
        "play buy Assassin",                       # the new ship is now the top ship
    ])
    view, text, _ = seen(game, state, "two")
    assert [p for p in view["pieces"] if p["label"] == "?"]      # one:Cruiser#2 is hidden...
    assert "Cruiser" not in text                                   # ...and not named


# ----- 5.3: secret starting ships -----------------------------------------------------------
SETUP_TO_STARTING_SHIPS = {
    "base": (BASE_PATH, [
        "seed 1",
        "play throw scissors",
        "play throw paper",
        "play side Redog",
        "play rise 2",
        "play pass",
        "play base e5",
        "play base i9",
        "expect phase starting_ships for one",
    ]),
    "quick": (QUICK_PATH, [
        "seed 1",
        "play base c3",
        "play base g7",
        "expect phase starting_ships for one",
    ]),
}


@pytest.mark.parametrize("variant", sorted(SETUP_TO_STARTING_SHIPS))
def test_starting_ships_stay_secret_until_the_reveal(tmp_path, variant):
    game_path, lines = SETUP_TO_STARTING_SHIPS[variant]
    game, state = position(tmp_path, game_path, lines)
    before_two, before_text, _ = seen(game, state, "two")
    for action in ("buy Assassin", "buy Destroyer"):
        game.apply(state, game.parse_action(state, action))
    # one's own view shows its order; two's view shows nothing of it
    own, _, _ = seen(game, state, "one")
    assert own["seats"][0]["vars"]["order"] == "[Assassin, Destroyer]"
    assert own["seats"][0]["vars"]["order_cost"] == "15"
    view, text, drawn = seen(game, state, "two")
    assert view["seats"][0]["vars"]["order"] == "?"
    assert view["seats"][0]["vars"]["order_cost"] == "?"
    for secret in ("Assassin", "Destroyer"):
        assert secret not in text and secret not in drawn
    assert view["seats"][0]["vars"]["money"] == before_two["seats"][0]["vars"]["money"]
    assert view == before_two                   # nothing two can see has changed
    # one is done; two now decides, and still sees nothing of one's order
    game.apply(state, game.parse_action(state, "done"))
    assert game.current_player(state) == 1
    view, text, drawn = seen(game, state, "two")
    for secret in ("Assassin", "Destroyer"):
        assert secret not in text and secret not in drawn
    assert view["seats"][0]["vars"]["money"] == before_two["seats"][0]["vars"]["money"]
    # two's order is as secret to one
    game.apply(state, game.parse_action(state, "buy Cruiser"))
    _, text, drawn = seen(game, state, "one")
    assert "Cruiser" not in text and "Cruiser" not in drawn
    # the reveal: both fleets on their Starbases; each sees the other's top ship
    game.apply(state, game.parse_action(state, "done"))
    view, text, _ = seen(game, state, "two")
    assert "one:Destroyer#3" in labels(view)       # the top of one's stack
    assert "one:Assassin#2" not in text            # under it
    view, _, _ = seen(game, state, "one")
    assert {"one:Assassin#2", "one:Destroyer#3", "two:Cruiser#2"} <= set(labels(view))


# ----- 5.2.1: the rock-paper-scissors throws ---------------------------------------------------
@pytest.mark.parametrize("throw", ["rock", "paper", "scissors"])
def test_rock_paper_scissors_throw_is_hidden_until_the_reveal(throw):
    state = BASE.new_state(3)
    before = BASE.view(state, 1)
    BASE.apply(state, BASE.parse_action(state, f"throw {throw}"))
    after = BASE.view(state, 1)
    assert after["chosen"] == {"one": "yes", "two": "no"}
    assert after["deciding"] == "two"
    strip = lambda v: {k: x for k, x in v.items() if k not in ("chosen", "deciding")}
    assert strip(after) == strip(before)        # one's throw changed nothing two sees
    if throw != "rock":                         # (rock is every seat's initial 'throw')
        _, text, drawn = seen(BASE, state, "two")   # (the phase is rock_paper_scissors)
        assert f'"{throw}"' not in text and f"throw {throw}" not in text
        assert f"={throw}" not in drawn and f"throw {throw}" not in drawn
    # one sees its own throw
    assert BASE.view(state, 0)["chosen"]["one"] == f"throw {throw}"
    # after the reveal both throws are public
    other = "paper" if throw == "rock" else "rock"
    BASE.apply(state, BASE.parse_action(state, f"throw {other}"))
    revealed = BASE.view(state, 1)["seats"]
    assert [s["vars"]["throw"] for s in revealed] == [throw, other]


# ----- invariants of random play -------------------------------------------------------------
SEEDS = st.integers(min_value=0, max_value=2**32)
CHOICES = st.lists(st.integers(min_value=0, max_value=10**6), max_size=400)
MAX_DECISIONS = 20000


def starbases(state):
    return {pid: p for pid, p in state.pieces.items() if p["kind"] == "Starbase"}


def check_invariants(game, before, after):
    supply = {k: game.rules.kinds[k]["supply"] for k in SHIP_KINDS}
    for s, variables in enumerate(after.seat_vars):
        # money is never negative
        assert variables["money"] >= 0, f"{game.seats[s]} has ${variables['money']}"
        # supply: pieces alive, and the secret order, within the chits of each kind
        for kind, most in supply.items():
            alive = sum(1 for p in after.pieces.values()
                        if p["alive"] and p["owner"] == s and p["kind"] == kind)
            assert alive <= most, f"{game.seats[s]} has {alive} {kind}"
            assert variables["order"].count(kind) <= most
    # a Starbase's armor only falls: its damage never decreases, and it is never removed
    old = starbases(before)
    for pid, base in starbases(after).items():
        if pid in old:
            assert base["damage"] >= old[pid]["damage"]
    assert all(after.pieces[pid]["alive"] for pid in old)
    # survivors heal (6.2.5): outside a Combat no ship or Pirate carries damage
    if after.frames and after.frames[-1]["phase"] not in ("combat", "absorb"):
        assert all(p["damage"] == 0 for p in after.pieces.values()
                   if p["alive"] and p["kind"] != "Starbase")
    # the Cargo Price never changes once play has started (5.1.6)
    if before.turn > 0:
        assert after.globals["cargo_price"] == before.globals["cargo_price"]
    # the self-destruct bound
    assert after.turn <= TURN_BOUND


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, choices=CHOICES)
def test_random_games_keep_the_rules_and_end_with_one_winner(name, seed, choices):
    game = GAMES[name]
    state = game.new_state(seed)
    rng = random.Random(seed)
    picks = iter(choices)
    while not game.is_terminal(state):
        assert state.decisions < MAX_DECISIONS
        legal = game.legal_actions(state)
        assert legal, f"no legal action in phase {state.frames[-1]['phase']}"
        index = next(picks, None)
        if index is None:
            index = rng.randrange(len(legal))
        before = state.clone()
        game.apply(state, legal[index % len(legal)])
        check_invariants(game, before, state)
    result = state.result
    assert not result["draw"] and len(result["winners"]) == 1
    winner = result["winners"][0]
    loser = 1 - winner
    assert state.out[loser] and not state.out[winner]
    # the loser's Starbase is destroyed (Armor 0 or less), the winner's is not
    armor = {p["owner"]: STARBASE_ARMOR - p["damage"] for p in starbases(state).values()}
    assert armor[loser] <= 0 < armor[winner]
    assert state.turn <= TURN_BOUND


# ----- whole games, as a user runs them ----------------------------------------------------------
@pytest.mark.parametrize("path", ["games/galaxy_of_d.gdl", "games/galaxy_of_d_quick.gdl"])
def test_simulate_200_games_all_finish_with_one_winner(path):
    result = gdl("simulate", path, "--games", "200", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 200
    assert summary["finished"] == 200
    assert summary["capped"] == 0
    assert summary["draws"] == 0
    assert sum(summary["wins"].values()) == 200
    assert set(summary["wins"]) == {"one", "two"}


# ----- the scenarios -------------------------------------------------------------------------------
def test_every_rule_has_scenarios():
    base = sorted(p.name for p in (SCENARIOS / "galaxy_of_d").glob("*.scenario"))
    quick = sorted(p.name for p in (SCENARIOS / "galaxy_of_d_quick").glob("*.scenario"))
    assert len(base) >= 60 and len(quick) >= 8
    for name in ("scavenger_example.scenario", "bomber_example.scenario",
                 "setup_bidding_example.scenario", "faq1_buy_before_produce.scenario",
                 "faq2_freighter_sells_then_stops.scenario",
                 "faq3_assassin_fights_again.scenario"):
        assert name in base
    assert "faq3_assassin_attacks_empty_starbase.scenario" in base
    assert not list(SCENARIOS.glob("galaxy_of_d*/*.xfail"))


def test_typing_a_hidden_piece_reads_as_typing_no_piece():
    """Of one's stack on e5, two sees the top ship only: naming the hidden Cruiser gets the
    answer a label of no piece gets, so typing labels probes nothing."""
    from gdl.interpreter.language.errors import IllegalAction
    from gdl.interpreter.runtime import introspect
    game = load_game(str(GAMES_DIR / "galaxy_of_d.gdl"))
    state = game.new_state(0)
    state.frames = []
    for pid in list(state.pieces):
        del state.pieces[pid]
    state.rebuild_index()
    cell = game.rules.board.parse
    introspect.create_piece(game, state, "Starbase", 0, cell("c3"))
    introspect.create_piece(game, state, "Starbase", 1, cell("g7"))
    introspect.create_piece(game, state, "Cruiser", 0, cell("e5"))
    introspect.create_piece(game, state, "Interceptor", 0, cell("e5"))
    introspect.create_piece(game, state, "Destroyer", 1, cell("g7"))
    introspect.enter_phase(game, state, "movement", 1)
    reasons = []
    for label in ("one:Cruiser#2", "one:Cruiser#9"):       # hidden from two / no such piece
        with pytest.raises(IllegalAction) as refused:
            game.parse_action(state, f"move {label} e6")
        reasons.append(refused.value.message.replace(label, "LABEL"))
    assert reasons[0] == reasons[1]
    assert "is not a piece" in reasons[0]


def test_twins_differing_only_in_a_hidden_ship_look_the_same_to_the_other_seat(tmp_path):
    """Two positions that differ only in the kind of a ship one cannot see (under two's top
    Destroyer): one's view, its legal actions and their texts, and the label of a ship two
    creates afterwards are the same in both; with labels numbered per kind across seats,
    the new Cruiser was Cruiser#1 in one twin and Cruiser#2 in the other."""
    from gdl.interpreter.runtime import introspect
    seen_by_one = []
    for hidden_kind in ("Bomber", "Cruiser"):
        game, state = position(tmp_path, BASE_PATH, [
            "clear",
            "piece Starbase one c3",
            "piece Starbase two g7",
            "piece Cruiser one e5",
            f"piece {hidden_kind} two f6",
            "piece Destroyer two f6",                # the top ship: one sees only it
            "phase movement for one",
            "expect phase movement for one",
        ])
        pid = introspect.create_piece(game, state, "Cruiser", 1, game.rules.board.parse("f6"))
        legal = game.legal_actions(state)
        seen_by_one.append((game.view(state, 0), len(legal),
                            [game.action_text(state, a, 0) for a in legal],
                            state.pieces[pid]["label"]))
    assert seen_by_one[0] == seen_by_one[1]
    assert seen_by_one[0][3] == "two:Cruiser#4"
