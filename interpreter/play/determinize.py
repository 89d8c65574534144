"""Determinization: a full state an agent may search, made from what one seat may know.

An agent that plays fair decides from its seat's view. A search needs whole states to play
on, so `determinize(game, state, seat, rng)` makes one: a copy of `state` in which
everything the seat may not see is drawn again, from the agent's own random stream `rng`
(a `Stream`), and nothing hidden from the seat survives as it was:

- the dice: the state's random generator is seeded afresh, so no future roll is known;
- a simultaneous phase: the choices other seats made and have not revealed are dropped;
  the seats before the agent choose again at random, so the agent is the one to decide;
- variables that `visible to` hides: another seat's takes the value the agent's own seat
  has (of the right type and stage of play, and known to the agent), a global its declared
  initial value;
- pieces the seat may not identify (`hide piece`, a zone): in each place (owner and cell,
  or owner and zone) their identities (kind, label and variables) are dealt out again among
  them at random, and then each variable's values again among the pieces of each kind
  there. The agent is taken to know what is hidden in a place as a whole (the rules and the
  game so far usually tell it: which tokens are still face down, what a stack was built
  from), never which piece is which. Pieces off the board and in no zone keep their kinds
  (rules reach such pieces by their number, e.g. "the 2nd token": their kinds are where the
  rules put them) and only their variables are dealt again, kind by kind.

Every draw starts from a canonical order of what is drawn (sorted), so the result depends
only on what the seat may see, the multisets of hidden identities and values per place,
and `rng`: two states that give the seat the same view and differ in which hidden piece is
which, in the hidden variables, the dice or the others' unrevealed choices give the same
determinization (tests/test_agents.py checks it on the shipped games).
"""

from __future__ import annotations

import json

from ..runtime import introspect
from ..runtime.state import splitmix64

KEEP = ("id", "owner", "cell", "alive", "zone")   # what the view shows of a hidden piece


class Stream:
    """An agent's own random numbers (SplitMix64), the same on every Python version."""

    def __init__(self, seed):
        self.state = seed & ((1 << 64) - 1)

    def next64(self):
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n):
        return (self.next64() * n) >> 64

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def determinize(game, state, seat, rng, hidden=None):
    """A copy of `state` with what `seat` may not know drawn again from `rng`. `hidden`:
    whether the game hides anything (`introspect.has_hidden_information`), when known."""
    other = state.clone()
    other.rng = rng.next64()
    if hidden is None:
        hidden = introspect.has_hidden_information(game)
    if not hidden:
        return other
    _variables(game, other, seat)
    _pieces(game, other, seat, rng)
    _choices(game, other, seat, rng)
    return other


def _variables(game, state, seat):
    for scope, owner, name in introspect.hidden_variables(game, state, seat):
        if scope == "global":
            state.globals[name] = introspect.initial_value(game, "global", name)
        elif scope == "seat":
            state.seat_vars[owner][name] = _copy(state.seat_vars[seat][name])
        else:
            state.pieces[owner][name] = introspect.initial_value(game, "piece", name)


def _pieces(game, state, seat, rng):
    places = {}
    for pid in sorted(state.pieces):
        piece = state.pieces[pid]
        if piece["alive"] and introspect.hidden_from(game, state, pid, seat):
            zone = (piece.get("zone") or [None, None])[:2]
            places.setdefault((piece["owner"], piece["cell"], *zone), []).append(piece)
    for (owner, cell, zone, _), pieces in places.items():
        if len(pieces) < 2:
            continue
        if cell is not None or zone is not None:
            _deal_identities(pieces, rng)
        by_kind = {}
        for piece in pieces:
            by_kind.setdefault(piece["kind"], []).append(piece)
        for same in by_kind.values():
            for name in sorted(set(same[0]) - set(KEEP) - {"kind", "label"}):
                values = rng.shuffle(sorted((piece.get(name) for piece in same),
                                            key=_canonical))
                for piece, value in zip(same, values):
                    piece[name] = value


def _deal_identities(pieces, rng):
    identities = rng.shuffle(sorted(
        ({k: v for k, v in piece.items() if k not in KEEP} for piece in pieces),
        key=_canonical))
    for piece, identity in zip(pieces, identities):
        for key in [k for k in piece if k not in KEEP]:
            del piece[key]
        piece.update(identity)


def _choices(game, state, seat, rng):
    if not introspect.is_simultaneous(game, state):
        return
    pending = state.frames[-1]["pending"]
    for other in range(len(pending)):
        if other != seat:
            pending[other] = None
    while game.current_player(state) not in (seat, -1) and not game.is_terminal(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))], check=False)


def _canonical(value):
    return json.dumps(value, sort_keys=True)


def _copy(value):
    return json.loads(json.dumps(value))
