"""Chance and hidden information on the typed engine (runtime/typed.py, "chance"): dice drawn
from the state's own SplitMix64 generator exactly as the Python engine draws them (the
same numbers, events and rng after every decision), forced dice and shuffles used first
(set before the setup, appended later, kept apart by a clone), the dice faults at
Python's places; variables `visible to` some seats are stored as any other, and every
seat's view (and the public one) is Python's after every decision."""

import os
import random

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.balance import batch
from gdl.interpreter.runtime import typed
from gdl.interpreter.runtime.typed import TypedState
from gdl.interpreter.runtime.view import public_view
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _fault, _same, _typed_game, typed_on  # noqa: F401
from tests.runtime.test_typed_playout import _records

needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")
DICE = os.path.join(ROOT, "tests", "rules", "typed_chance_dice.gdl")
# rule file -> random games whose every view is compared
VIEWED = {"games/classic/pig.gdl": 6, "games/classic/liars_dice.gdl": 60,
          "tests/rules/typed_chance_dice.gdl": 20, "tests/rules/secret.gdl": 10,
          "tests/rules/hidden_die.gdl": 10, "tests/rules/typed_chance_secret.gdl": 20}


def _views(game, state):
    seats = range(len(game.seats))
    return ([game.view(state, s) for s in [None, *seats]], public_view(game, state),
            [[game.action_text(state, x, s) for x in game.legal_actions(state)] for s in seats])


def _play_alike(python, fast, seed, a, b, views=True, longest=200):
    """Play a random game on from `a` (Python) and `b` (typed): the same legal actions,
    events (dice), state JSON (rng) and, with `views`, every seat's views after each
    decision. Returns how many decisions were played."""
    choose = random.Random(seed)
    assert b.__class__ is TypedState
    for decisions in range(longest):
        assert b.clone().to_json() == a.to_json(), f"seed {seed} decision {decisions}"
        if views:
            assert _views(fast, b) == _views(python, a)
        if _same(lambda: python.legal_actions(a), lambda: fast.legal_actions(b)):
            return decisions
        legal = python.legal_actions(a)
        assert (fast.current_player(b), fast.is_terminal(b), fast.returns(b)) == \
            (python.current_player(a), python.is_terminal(a), python.returns(a))
        if not legal:
            return decisions
        action = legal[choose.randrange(len(legal))]
        if _same(lambda: python.apply(a, action, check=False),
                 lambda: fast.apply(b, action, check=False)):
            return decisions
    assert b.to_json() == a.to_json()
    return longest


@needs_tools
@pytest.mark.parametrize("path", sorted(VIEWED))
def test_every_seat_s_view_is_python_s(path, typed_on):
    python, fast = load_game(os.path.join(ROOT, path), "python"), _typed_game(
        os.path.join(ROOT, path))
    for seed in range(VIEWED[path]):
        if not _same(lambda: python.new_state(seed).to_json(),
                     lambda: fast.new_state(seed).to_json()):
            _play_alike(python, fast, seed, python.new_state(seed), fast.new_state(seed))


def test_liars_dice_hides_the_other_die():
    game = load_game(os.path.join(ROOT, "games", "classic", "liars_dice.gdl"), "python")
    assert typed.unsupported(game._program) is None
    state = game.new_state(4)
    dice = [v["die"] for v in state.seat_vars]
    for seat in range(2):
        shown = [s["vars"]["die"] for s in game.view(state, seat)["seats"]]
        assert shown[seat] == str(dice[seat]) and shown[1 - seat] == "?"


FORCED = [[6, 4], [None, 2], [20, 13], [6, 1], ["shuffle", [9, 8, 7, 6, 5, 4, 3, 2, 1]],
          ["shuffle", [2, 1, 3]], ["shuffle", [5, 4, 3, 2, 1]], ["pick", None, 1], [None, 5]]


@needs_tools
def test_forced_dice_and_shuffles_are_used_first(typed_on):
    """Forced results from the setup on (its shuffles and the pot's dice), a die waiting
    for one of its size, results appended while playing (as a scenario's `roll` lines)
    and a clone's own list: the same games as Python's."""
    python, fast = load_game(DICE, "python"), _typed_game(DICE)
    for seed in range(12):
        a, b = python.new_state(seed, forced=FORCED), fast.new_state(seed, forced=FORCED)
        assert b.__class__ is TypedState and b.clone().to_json() == a.to_json()
        for state, game in ((a, python), (b, fast)):
            game.apply(state, (0, (3,)), check=False)           # a d12 rolled
            state.forced.extend([[8, 8], [12, 12], [None, 3]])
        assert [e.to_json() for e in b.events] == [e.to_json() for e in a.events]
        c, d = a.clone(), b.clone()
        d.forced.append([6, 6])
        c.forced.append([6, 6])
        _play_alike(python, fast, seed, c, d, views=False, longest=20)
        _play_alike(python, fast, seed, a, b, views=seed < 3)
    state = fast.new_state(0, forced=[[6, 1], [6, 1], [6, 4], [6, 2], [20, 3], [20, 4]])
    fast.apply(state, (1, ()), check=False)     # roll(6) - roll(6) * 10 + roll(20, 2)
    assert [e.to_json()[1:3] for e in state.events][:4] == [[6, 4], [6, 2], [20, 3], [20, 4]]
    assert state.forced == [] and state.globals["total"] == 4 - 20 + 7


@needs_tools
def test_forced_dice_the_typed_engine_cannot_hold_play_on_python(typed_on):
    """`new_state` refuses them (engine.py `split_forced`: a die of 2.0, of true, past
    limits.MAX_NUMBER); one a tool appends to the list later leaves the state to Python,
    where a second die added to a die past 2^62 is a sum past limits.MAX_SUM, the fault
    native would give (docs/language.md 14.1)."""
    fast = _typed_game(DICE)
    state = fast.new_state(0)
    fast.apply(state, (0, (1,)), check=False)
    state.forced.append([None, 1 << 70])     # appended later: the Python engine plays on
    assert fast.legal_actions(state) and state.to_json() and state.__class__ is TypedState
    assert typed.core_of(state) is None
    state.forced[:] = [[6, 1], [6, 1], [None, 1 << 70], [20, 1]]
    with pytest.raises(GdlRuntimeError) as caught:
        fast.apply(state, (1, ()), check=False)     # roll(6) - roll(6) * 10 + roll(20, 2)
    assert "a sum, a difference or a multiple a rule computes" in str(caught.value)


def test_forced_dice_plan_for_new_state():
    assert typed.holds_forced([[6, 3], [None, -2]])
    assert not typed.holds_forced([[6, True]]) and not typed.holds_forced([["6", 3]])


CHANCE_FAULTS = """game "t"
seats a, b
var big = 0
var n = 0
setup {
  goto play for a
}
fn draw(k) = roll(k)
phase play turn {
ACTIONS}
"""
CHANCE_BODIES = [
    "big = roll(n)",
    "big = roll(6, n - 1)",
    "big = roll(6, n + 10001)",
    "big = roll(n - 3, 2)",
    "big = draw(n)",
    "big = successes(n - 1, 6, 4)",
    "big = successes(2, n, 4)",
    "for d in rolls(n + 10001, 6) {\n      big += d\n    }",
    "for d in rolls(3, n) {\n      big += d\n    }",
    "for x in range(1, n + 1000001) {\n      big += 1\n    }",
    "for x in range(n, n + 5) {\n      big += roll(6, 10000)\n    }\n"
    "    for x in range(1, 200) {\n      big += roll(6, 10000)\n    }",
    "big = roll(6) + roll(900000000000000000, 4)\n    big += big",
    "big = roll(6000000000000) + roll(9000000000) + roll(4294967296) + roll(4294967295)",
]


@needs_tools
def test_a_dice_fault_is_python_s(typed_on):
    """Dice of no sides, fewer than none or more than MAX_DICE, a pool's checks, a range of
    more than MAX_LIST numbers, too much work rolling: the same error at the same place."""
    source = CHANCE_FAULTS.replace("ACTIONS", "".join(
        f"  action f{k}() {{\n    {body}\n  }}\n" for k, body in enumerate(CHANCE_BODIES)))
    python = load_source(source, "chance_faults.gdl", "python")
    fast = load_source(source, "chance_faults.gdl", "native")
    assert fast._typed is not None
    for k, body in enumerate(CHANCE_BODIES):
        found = []
        for game in (python, fast):
            state = game.new_state(0)
            try:
                game.apply(state, (k, ()))
            except GdlRuntimeError as exc:
                found.append(_fault(exc))
            else:
                found.append(state.to_json())
        assert found[1] == found[0], body


def test_a_die_drawn_while_listing_is_outside():
    source = CHANCE_FAULTS.replace("ACTIONS", "  action f(k in range(1, 3)) where draw(k) > 1 {\n"
                                   "    big = k\n  }\n")
    found = typed.unsupported(load_source(source, "t.gdl", "python")._program)
    assert found is not None and "a die or shuffle drawn while listing the actions" in found


@needs_tools
@pytest.mark.parametrize("path", ["games/classic/pig.gdl", "games/classic/liars_dice.gdl",
                                  "tests/rules/typed_chance_dice.gdl"])
def test_a_random_playout_rolls_the_loop_s_dice(path, typed_on, monkeypatch):  # noqa: F811
    """`gdl simulate`'s one-call playouts: the agents' draws and the state's dice, the same
    records as the decision-by-decision loop and as the Python backend's."""
    native, python = load_game(os.path.join(ROOT, path), "native"), \
        load_game(os.path.join(ROOT, path), "python")
    settings = batch.RunSettings(spec="random", seed=0, max_turns=1000, max_decisions=100_000)
    fast, calls = _records(native, settings, range(8), True, monkeypatch)
    assert calls and all(calls)
    assert fast == _records(native, settings, range(8), False, monkeypatch)[0]
    assert fast == _records(python, settings, range(8), True, monkeypatch)[0]
