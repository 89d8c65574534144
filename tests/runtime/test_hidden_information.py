"""Hidden information stays hidden, on every shipped game that hides something.

From positions reached by random play, a twin position is made that differs only in what a
seat may not see: two pieces hidden from it (same owner and place) exchange everything but
their identity, owner and place, the numbers of every piece hidden from it change, and every
variable hidden from it by `visible to` takes another value. Everything the seat receives must be the same in both: its view, the number
of legal actions and their texts as it reads them (when it decides), and the answer to a
typed action.
"""

import glob
import os
import random

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import IllegalAction
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.view import HIDDEN

from tests.helpers import ROOT
# The games that hide pieces or variables (a game whose only secret is a simultaneous choice,
# as Galaxy Grid's, is tested by its own reveal tests).
GAMES = [path for path in sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl")))
         if load_game(path).rules.hides_pieces_or_variables]
KEEP = ("id", "owner", "cell", "alive", "zone")


def positions(game, seed, count=80):
    """Up to `count` positions of one random game, a few decisions apart."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    found = []
    while not game.is_terminal(state) and len(found) < count and state.decisions < 600:
        game.apply(state, rng.choice(game.legal_actions(state)), check=False)
        if state.decisions % 4 == 0:
            found.append(state.clone())
    return found


def twin(game, state, seat):
    """A copy of `state` differing only in what `seat` may not see, or None."""
    other = state.clone()
    changed = False
    hidden = [pid for pid, p in state.pieces.items()
              if p["alive"] and introspect.hidden_from(game, state, pid, seat)]
    for i, a in enumerate(hidden):
        for b in hidden[i + 1:]:
            pa, pb = other.pieces[a], other.pieces[b]
            same_place = (pa["owner"], pa["cell"], (pa.get("zone") or [None, None])[:2]) == (
                pb["owner"], pb["cell"], (pb.get("zone") or [None, None])[:2])
            if same_place and pa["kind"] != pb["kind"]:
                for key in set(pa) | set(pb):
                    if key not in KEEP:
                        pa[key], pb[key] = pb.get(key), pa.get(key)
                changed = True
                break
        if changed:
            break
    for pid in hidden:                  # a hidden piece's numbers are not seen either
        for key, value in other.pieces[pid].items():
            if key not in KEEP and isinstance(value, int) and not isinstance(value, bool):
                other.pieces[pid][key] = value + 1
                changed = True
    view = game.view(state, seat)
    for entry, values in zip(view["seats"], other.seat_vars):
        for name, shown in entry["vars"].items():
            if shown == HIDDEN and isinstance(values[name], int) and not isinstance(
                    values[name], bool):
                values[name] += 1
                changed = True
    for name, shown in view["globals"].items():
        if shown == HIDDEN and isinstance(other.globals[name], int):
            other.globals[name] += 1
            changed = True
    if not changed:             # (owners and places are kept: the indexes stay right)
        return None
    # the twin must hide the same pieces (what is hidden may depend on what was changed)
    for pid in hidden:
        if not introspect.hidden_from(game, other, pid, seat):
            return None
    return other


def received(game, state, seat):
    """Everything `seat` gets from the engine in `state`."""
    got = {"view": game.view(state, seat)}
    if game.current_player(state) == seat:
        legal = game.legal_actions(state)
        got["count"] = len(legal)
        got["texts"] = [game.action_text(state, a, seat) for a in legal]
        for typed in got["texts"][:3] + ["nothing here"]:
            try:
                got[typed] = game.action_text(state, game.parse_action(state.clone(), typed),
                                              seat)
            except IllegalAction as exc:
                got[typed] = exc.message
    return got


def twins(game, limit=None):
    """(seed, position, its twin for a seat, the seat), from random games of seeds 0 to 3;
    at most `limit` of them. Fails the test when there is none."""
    found = 0
    for seed in range(4):
        for state in positions(game, seed):
            for seat in range(len(game.seats)):
                other = twin(game, state, seat)
                if other is None:
                    continue
                yield seed, state, other, seat
                found += 1
                if found == limit:
                    return
    assert found > 0, "no position hid anything: the test tested nothing"


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_a_seat_receives_the_same_in_twin_positions(path):
    game = load_game(path)
    for seed, state, other, seat in twins(game):
        assert received(game, state, seat) == received(game, other, seat), (
            f"seed {seed}, decision {state.decisions}, seat {game.seats[seat]}")
