"""Chance (docs/language.md 10): dice and shuffles through the one seeded generator, forced
rolls, and a saved state that continues the same dice."""

from __future__ import annotations

import pytest

from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.events import as_json

from tests.helpers import act, rule


def _dice_session(seed, forced=()):
    """A fixed list of chance actions; returns the final state and every event."""
    game = rule("dice.gdl")
    state = game.new_state(seed, forced=forced)
    events = []
    for text in ["d6"] * 10 + ["die 4", "die 20", "d20x3", "mix", "deal", "d6"]:
        events.extend(act(game, state, text))
    return state, events


def test_same_seed_gives_same_rolls_and_shuffles():
    first, first_events = _dice_session(7)
    second, second_events = _dice_session(7)
    assert first_events == second_events
    assert first.to_json() == second.to_json()


def test_different_seeds_differ_somewhere():
    base = _dice_session(1)[0].globals
    others = [_dice_session(seed)[0].globals for seed in range(2, 7)]
    assert all(other != base for other in others)


def test_dice_of_every_size_stay_in_range():
    game = rule("dice.gdl")
    state = game.new_state(3)
    for sides in (4, 6, 8, 10, 12, 20):
        seen = set()
        for _ in range(30 * sides):
            events = act(game, state, f"die {sides}")
            assert as_json(events) == [["roll", sides, state.globals["last"]]]
            seen.add(state.globals["last"])
        assert seen == set(range(1, sides + 1))


def test_forced_rolls_are_used_first_and_marked():
    game = rule("dice.gdl")
    state = game.new_state(11, forced=[[6, 3], [None, 20]])
    assert as_json(act(game, state, "d6")) == [["roll", 6, 3, "fixed"]]
    events = act(game, state, "d20x3")
    assert as_json(events)[0] == ["roll", 20, 20, "fixed"]
    assert [e[:2] for e in as_json(events[1:])] == [["roll", 20], ["roll", 20]]
    assert all(len(e) == 3 for e in as_json(events[1:]))
    assert state.globals["total"] == sum(e.value for e in events)
    assert state.forced == []


def test_forced_roll_waits_for_a_die_of_its_size():
    game = rule("dice.gdl")
    state = game.new_state(11, forced=[[20, 13]])
    (event,) = act(game, state, "d6")
    assert not event.fixed and event.sides == 6 and 1 <= event.value <= 6
    assert act(game, state, "d20x3")[0].to_json() == ["roll", 20, 13, "fixed"]


@pytest.mark.parametrize("seed", range(6))
def test_shuffles_are_seeded_permutations(seed):
    game = rule("dice.gdl")
    orders = []
    for _ in range(2):
        state = game.new_state(seed)
        assert as_json(act(game, state, "mix")) == [["shuffle", 8]]
        act(game, state, "deal")
        assert sorted(state.globals["deck"]) == list(range(1, 9))
        assert sorted(state.globals["dealt"]) == list(range(1, 9))
        orders.append((state.globals["deck"], state.globals["dealt"]))
    assert orders[0] == orders[1]


def test_shuffles_differ_between_seeds():
    game = rule("dice.gdl")
    decks = set()
    for seed in range(6):
        state = game.new_state(seed)
        act(game, state, "mix")
        decks.add(tuple(state.globals["deck"]))
    assert len(decks) > 1


def test_shuffled_copy_leaves_the_list_alone():
    game = rule("dice.gdl")
    state = game.new_state(5)
    act(game, state, "deal")
    assert state.globals["deck"] == list(range(1, 9))


def test_shuffles_and_dice_share_one_generator():
    """A shuffle moves the generator, so the roll after it changes."""
    game = rule("dice.gdl")
    plain, shuffled = game.new_state(9), game.new_state(9)
    act(game, shuffled, "mix")
    assert plain.rng != shuffled.rng
    rolls = []
    for state in (plain, shuffled):
        for _ in range(8):
            act(game, state, "d6")
        rolls.append(state.globals["rolls"])
    assert rolls[0] != rolls[1]


def test_saved_state_continues_the_same_dice():
    game = rule("dice.gdl")
    state = game.new_state(21)
    act(game, state, "d20x3")
    copy = State.from_json(state.to_json())
    for s in (state, copy):
        for _ in range(5):
            act(game, s, "d6")
        act(game, s, "mix")
    assert copy.to_json() == state.to_json()
