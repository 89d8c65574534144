"""Determinization: a full state an agent may search, made from what one seat may know.

An agent that plays fair decides from its seat's view. A search needs whole states to play
on, so `Determinizer(game, state, seat).sample(rng)` makes one (`determinize(game, state,
seat, rng)` for a single one): a copy of `state` in which
everything the seat may not see is drawn again, from the agent's own random stream `rng`
(a `Stream`), and nothing hidden from the seat survives as it was:

- the dice: the state's random generator is seeded afresh, so no future roll is known;
- a simultaneous phase: the choices other seats made and have not revealed are dropped;
  the seats before the agent choose again at random, so the agent is the one to decide;
- variables that `visible to` hides: another seat's takes the value the agent's own seat
  has (of the right type and stage of play, and known to the agent), a global its declared
  initial value;
- pieces out of the seat's sight (a kinds table's `visible to`) on the board: their
  identities are dealt out again among those of each owner, and each is put on a cell drawn
  at random among those where the seat sees no piece (a cell of its own while there are
  enough). The agent is taken to know how many pieces of each owner are out of its sight,
  never where;
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
determinization (tests/play/test_agents.py checks it on the shipped games).
"""

from __future__ import annotations

import json

from ...runtime import introspect
from ...runtime.state import splitmix64

KEEP = ("id", "owner", "cell", "alive", "zone")   # what the view shows of a hidden piece
_MASK = (1 << 64) - 1


class Stream:
    """An agent's own random numbers (SplitMix64), the same on every Python version."""

    def __init__(self, seed):
        self.state = seed & ((1 << 64) - 1)

    def next64(self):
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n):
        return (self.next64() * n) >> 64

    def skip(self, n):
        """Move on as `n` draws would (each adds the same constant to the state)."""
        self.state = (self.state + n * 0x9E3779B97F4A7C15) & _MASK

    def shuffle(self, items):
        """Fisher-Yates from the end, each j drawn as `below(i + 1)` (SplitMix64 written
        out: a shuffle draws many numbers)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state
        return items


class Determinizer:
    """What a seat may not know of one position, read once; `sample(rng)` then makes a
    determinization of it (a new state) per call, cheaply."""

    def __init__(self, game, state, seat):
        self.game, self.state, self.seat = game, state, seat
        self.hidden = game.rules.hidden_information
        self.variables, self.places = [], []
        if not self.hidden:
            return
        # A typed core's position: each sample is a copy of the core with the changes made
        # on it (`Core.patch`). Else the position as fields to edit, once: each sample edits
        # a copy of them, which then goes back to the engine that held the state (a typed
        # state's, when it can).
        self.patched = introspect.core_patcher(state)
        self.fast = introspect.shuffler(state)     # (shuffles in C: the same numbers)
        if self.patched is None:
            self.editable, self.held = introspect.editable_copy(state)
        for scope, owner, name in introspect.hidden_variables(game, state, seat):
            if scope == "seat":
                value = state.seat_vars[seat][name]
            else:
                value = game.rules.initial_value(scope, name)
            self.variables.append((scope, owner, name, value))
        places = {}
        self.unseen, seen_cells = [], set()
        for pid in sorted(state.pieces):
            piece = state.pieces[pid]
            if not piece["alive"]:
                continue
            if piece["cell"] is not None and introspect.unseen_by(game, state, pid, seat):
                self.unseen.append(pid)     # a place of its own: its owner's unseen pieces
                places.setdefault((piece["owner"], "unseen", None, None), []).append(piece)
            elif introspect.hidden_from(game, state, pid, seat):
                zone = (piece.get("zone") or [None, None])[:2]
                places.setdefault((piece["owner"], piece["cell"], *zone), []).append(piece)
            if piece["cell"] is not None and pid not in self.unseen:
                seen_cells.add(piece["cell"])
        for (_, cell, zone, _), pieces in places.items():
            if len(pieces) > 1:
                self.places.append(_Place(pieces, cell is not None or zone is not None))
        # the cells where the seat sees no piece: where an unseen piece may be
        self.free = [c for c in game.rules.board.all_cells if c not in seen_cells]
        # the pieces a sample may change, when it patches a core
        dealt = {pid for place in self.places for pid in place.pids}
        dealt.update(owner for scope, owner, _, _ in self.variables if scope == "piece")
        self.dealt = sorted(dealt)

    def sample(self, rng):
        if not self.hidden:
            other = self.state.clone()
            other.rng = rng.next64()
            return other
        if self.patched is not None:
            made = self._patched(rng)
            if made is not None:
                return made
        other = self.editable.clone()
        other.rng = rng.next64()
        for scope, owner, name, value in self.variables:
            holder = (other.globals if scope == "global" else
                      other.seat_vars[owner] if scope == "seat" else other.pieces[owner])
            holder[name] = _fresh(value)
        for place in self.places:
            place.deal(other, rng, self.fast)
        if self.unseen:
            _scatter(other, self.unseen, self.free, rng, self.fast)
        _choices(self.game, other, self.seat, rng)      # (played on the copy's fields)
        return self.held(other)

    def _patched(self, rng):
        """`sample` on a copy of the typed core (None: the core cannot hold this sample; the
        stream is then as it was, and every later sample edits fields)."""
        start = rng.state
        records = {pid: {} for pid in self.dealt}      # what changes in each
        seed = rng.next64()
        variables = []
        for scope, owner, name, value in self.variables:
            if scope == "piece":
                records[owner][name] = _fresh(value)
            else:
                variables.append((scope, owner, name, _fresh(value)))
        dealt = _Records(records)
        for place in self.places:
            place.deal(dealt, rng, self.fast)
        moves = _scattered(self.unseen, self.free, rng, self.fast) if self.unseen else []
        made = self.patched(records, variables, moves, seed)
        if made is None:
            rng.state = start
            self.patched = None
            self.editable, self.held = introspect.editable_copy(self.state)
            return None
        _choices(self.game, made, self.seat, rng)       # (played on the core)
        return made


class _Records:
    """What `_Place.deal` reads of a state: records of its pieces."""

    __slots__ = ("pieces",)

    def __init__(self, pieces):
        self.pieces = pieces


class _Place:
    """The hidden pieces of one place: their ids, their identities (kind and label, in a
    canonical order) when those are dealt again, and per kind each variable's values
    (sorted)."""

    def __init__(self, pieces, deal_kinds):
        self.pids = [piece["id"] for piece in pieces]
        self.kinds = [piece["kind"] for piece in pieces]
        self.identities = sorted((p["kind"], p["label"]) for p in pieces) if deal_kinds \
            else None
        by_kind = {}
        for piece in pieces:
            by_kind.setdefault(piece["kind"], []).append(piece)
        self.values = {kind: [(name, sorted((p.get(name) for p in same), key=json.dumps))
                              for name in sorted(set(same[0]) - set(KEEP) - {"kind", "label"})]
                       for kind, same in sorted(by_kind.items())}
        # (kind, name) whose values are all alike: a shuffle of them changes nothing but
        # the stream, which `deal` moves on as the shuffle would (`Stream.skip`)
        self.alike = {(kind, name) for kind, variables in self.values.items()
                      for name, values in variables
                      if len({json.dumps(v) for v in values}) <= 1}

    def deal(self, state, rng, fast=None):
        """Deal the place's identities and values again, into the records of its pieces
        in `state.pieces`. Where identities stay, a variable whose values are all alike
        keeps the value each piece of the kind holds: a record may then hold only what the
        deal changes (`Determinizer._patched`)."""
        pieces = [state.pieces[pid] for pid in self.pids]
        kept = self.identities is None
        if kept:
            kinds = self.kinds
        else:
            kinds = []
            for piece, (kind, label) in zip(pieces, _shuffle(rng, list(self.identities), fast)):
                piece["kind"], piece["label"] = kind, label
                kinds.append(kind)
        alike = self.alike
        for kind, variables in self.values.items():
            same = [piece for piece, of in zip(pieces, kinds) if of == kind]
            for name, values in variables:
                if (kind, name) in alike:       # any order deals the same
                    if len(values) > 1:
                        rng.skip(len(values) - 1)
                    if kept:
                        continue
                else:
                    values = _shuffle(rng, list(values), fast)
                for piece, value in zip(same, values):
                    piece[name] = value if value.__class__ in _SCALARS else _fresh(value)


def _scatter(state, pids, free, rng, fast=None):
    """Put the pieces `pids` (out of the seat's sight, in a canonical order) on cells drawn
    again among `free`, each on a cell of its own while there are enough."""
    moves = _scattered(pids, free, rng, fast)
    for pid, _ in moves:            # off their cells first, the others' stacks kept in order
        old = state.pieces[pid]["cell"]
        state.at[old].remove(pid)
        if not state.at[old]:
            del state.at[old]
    for pid, cell in moves:
        state.pieces[pid]["cell"] = cell
        state.at.setdefault(cell, []).append(pid)


def _scattered(pids, free, rng, fast=None):
    """(piece, cell) for the pieces `pids` put on cells drawn again among `free` (none when
    no cell is free)."""
    cells = _shuffle(rng, list(free), fast)
    return [(pid, cells[i % len(cells)]) for i, pid in enumerate(pids)] if cells else []


def _shuffle(rng, items, fast):
    """`rng.shuffle(items)`; by `fast`, a typed engine's `shuffled`, when given."""
    if fast is None:
        return rng.shuffle(items)
    rng.state = fast(rng.state, items)
    return items


def determinize(game, state, seat, rng):
    """One determinization of `state` for `seat` (see the module docstring)."""
    return Determinizer(game, state, seat).sample(rng)


def _choices(game, state, seat, rng):
    if not introspect.is_simultaneous(game, state):
        return
    introspect.forget_choices(state, seat)
    while game.current_player(state) not in (seat, -1) and not game.is_terminal(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))], check=False)


def _fresh(value):
    """A value of the state that no other state shares (lists are copied), as a round trip
    through JSON makes it (a tuple becomes a list)."""
    kind = value.__class__
    if kind is list or kind is tuple:
        return [item if item.__class__ in _SCALARS else _fresh(item) for item in value]
    if kind is dict:
        return json.loads(json.dumps(value))
    return value


_SCALARS = frozenset({int, str, bool, type(None)})
