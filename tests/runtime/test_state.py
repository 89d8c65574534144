"""The state: an exact JSON round trip, clones, replays; `apply` leaves the state as it was
when it refuses an action."""

from __future__ import annotations

import random

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import IllegalAction
from gdl.interpreter.runtime.engine import TERMINAL
from gdl.interpreter.runtime.state import State

from tests.helpers import RULES, SPACE_WAR, act, rule


def _space_war():
    return load_game(str(SPACE_WAR))


def _playout(game, seed, check=None, limit=400):
    """A random playout; returns the actions taken. `check(state)` runs before each step."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    actions = []
    while game.current_player(state) != TERMINAL and len(actions) < limit:
        if check:
            check(state)
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        game.apply(state, action)
        actions.append(action)
    if check:
        check(state)
    return state, actions


@pytest.mark.parametrize("seed", range(8))
def test_space_war_json_round_trip_at_every_step(seed):
    game = _space_war()

    def check(state):
        text = state.to_json()
        restored = State.from_json(text)
        assert restored.to_json() == text
        assert restored == state
        assert restored.at == state.at
        assert game.legal_actions(restored) == game.legal_actions(state)
        assert game.current_player(restored) == game.current_player(state)
        for seat in (0, 1):
            assert game.view(restored, seat) == game.view(state, seat)
        legal = game.legal_actions(state)
        if legal:
            other = state.clone()
            action = legal[len(legal) // 2]
            assert game.apply(restored, action) == game.apply(other, action)
            assert restored.to_json() == other.to_json()

    state, actions = _playout(game, seed, check)
    assert actions


@pytest.mark.parametrize("seed", range(4))
def test_space_war_clone_plays_on_like_the_original(seed):
    game = _space_war()
    final, actions = _playout(game, seed)
    state = game.new_state(seed)
    middle = len(actions) // 2
    for action in actions[:middle]:
        game.apply(state, action)
    clone = state.clone()
    assert clone == state and clone is not state
    for action in actions[middle:]:
        assert game.apply(clone, action) == game.apply(state, action)
        assert clone.to_json() == state.to_json()
    assert state.to_json() == final.to_json()


def test_clone_is_independent():
    game = _space_war()
    state = game.new_state(3)
    clone = state.clone()
    game.apply(clone, game.legal_actions(clone)[0])
    assert clone != state
    assert state.to_json() == game.new_state(3).to_json()


def test_json_keeps_the_order_of_pieces_on_a_cell():
    game = rule("stack.gdl")
    state = game.new_state(0)
    act(game, state, "slide Disc#2")
    act(game, state, "slide Disc#1")
    restored = State.from_json(state.to_json())
    for s in (state, restored):
        act(game, s, "look")
    assert restored.globals == state.globals


REGRESSIONS = str(RULES / "regressions.gdl")


def test_apply_refuses_an_illegal_action():
    game = load_game(REGRESSIONS)
    state = game.new_state(1)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        game.apply(state, (0, ("South",)))        # 's != South' forbids it
    assert state.to_json() == before


def test_a_clones_values_are_copies_not_shared():
    """`copied`, the clone's copy of variables, frames and timers: equal values, nothing
    mutable shared, tuples kept as tuples, anything else deep-copied."""
    from gdl.interpreter.runtime.state import copied
    value = {"a": [1, [2, "x"], {"b": None}], "t": (1, [2]), "s": {3}, "f": 1.5}
    copy = copied(value)
    assert copy == value
    assert copy["a"] is not value["a"] and copy["a"][1] is not value["a"][1]
    assert copy["a"][2] is not value["a"][2]
    assert isinstance(copy["t"], tuple) and copy["t"][1] is not value["t"][1]
    assert copy["s"] == {3} and copy["s"] is not value["s"]
    copy["a"][1].append(3)
    assert value["a"][1] == [2, "x"]


def test_a_clone_of_every_shipped_game_equals_its_original_mid_game():
    for path in sorted(SPACE_WAR.parent.glob("*.gdl")):
        game = load_game(str(path))
        state, rng = game.new_state(5), random.Random(5)
        for _ in range(40):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.randrange(len(legal))])
        clone = state.clone()
        assert clone.to_json() == state.to_json(), path.name
        for name in ("globals", "seat_vars", "frames", "timers"):
            assert getattr(clone, name) == getattr(state, name)


def test_a_loaded_state_s_names_are_the_game_s_own_objects():
    """The generated code finds a variable's key by identity (`Game.__init__` interns the
    names): a state loaded from JSON has the same key objects, and the same kind objects,
    as a new game's (equal strings of their own would be found only by comparing text)."""
    game = load_game(str(SPACE_WAR), "python")
    new = game.new_state(3)
    for _ in range(12):
        game.apply(new, game.legal_actions(new)[0])
    loaded = State.from_json(new.to_json())
    names = {key: key for piece in new.pieces.values() for key in piece}
    names.update((p["kind"], p["kind"]) for p in new.pieces.values())
    assert loaded.pieces
    for piece in loaded.pieces.values():
        assert all(key is names[key] for key in piece)
        assert piece["kind"] is names[piece["kind"]]
    seat_names = {key: key for key in new.seat_vars[0]}
    assert all(key is seat_names[key] for v in loaded.seat_vars for key in v)
