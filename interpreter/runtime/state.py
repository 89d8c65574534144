"""Game state as plain data, and the seeded random generator that lives inside it.

A `State` holds everything that changes during a game: variables, pieces, the phase stack
(the position in the turn structure), the random generator's state and the result. It
round-trips exactly through JSON and copies cheaply. `at` (cell -> pieces) and `owned`
(owner -> living pieces in id order, and `ALL` -> every living piece) are indexes rebuilt
from the pieces, not saved. (`json` is imported where a state is saved or loaded, so
loading a rule file does not pay for it.)
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NotRequired, TypeAlias, TypedDict

from ..language.builtins import ALL as ALL      # the engine imports it from here
from ..language.errors import GdlDataError, counted
from ..language.limits import MAX_NUMBER

if TYPE_CHECKING:
    from .events import Event

Piece: TypeAlias = dict[str, Any]
"""A piece's record: "id", "kind", "owner", "cell", "alive", "label", then its variables by
name (values of the rules: int, bool, str, None or lists of them)."""
Owner: TypeAlias = int | str | None
"""A key of `State.owned`: a seat, None (pieces of no seat) or `ALL`."""
Action: TypeAlias = tuple[int, tuple[Any, ...]]
"""A legal action as the engine lists it: (its number in the phase, its argument values)."""


class Each(TypedDict):
    """A `call ... for each` under way: its phase and arguments, the seats still to come,
    its where-condition's number in `Program.each_rules` (or None) and the caller's `me`."""
    phase: str
    args: list[Any]
    rest: list[int]
    rule: int | None
    me: int


class Frame(TypedDict):
    """A frame of the phase stack: the phase, the seat it was entered for and its arguments;
    `pending` the choices of a simultaneous phase (one per seat: None, or [action number,
    argument values]) else None; `each` in a frame of `call ... for each`."""
    phase: str
    seat: int
    args: list[Any]
    pending: list[list[Any] | None] | None
    each: NotRequired[Each]


class Timer(TypedDict):
    """A value restored at the start of `seat`'s next turn."""
    seat: int
    place: Any          # where the value lives, as the engine's `restore` reads it
    old: Any


class Result(TypedDict):
    winners: list[int]
    draw: bool


_MASK = (1 << 64) - 1
_PLAIN = frozenset((int, str, bool, float, type(None)))


def copied(value: Any) -> Any:
    """A copy of a value of the state (lists, dicts and tuples of plain values, as JSON
    holds them), as `copy.deepcopy` makes it but several times quicker; anything else is
    deep-copied. (No value of a state is shared within it: a state round-trips through
    JSON, which keeps no sharing, so none can matter.)"""
    kind = value.__class__
    if kind in _PLAIN:
        return value
    if kind is list:
        return [item if item.__class__ in _PLAIN else copied(item) for item in value]
    if kind is dict:
        return {key: item if item.__class__ in _PLAIN else copied(item)
                for key, item in value.items()}
    if kind is tuple:
        return tuple(item if item.__class__ in _PLAIN else copied(item) for item in value)
    return copy.deepcopy(value)


def _interned(record: dict[str, Any]) -> dict[str, Any]:
    """A record loaded from JSON with its keys (and a piece's kind) interned."""
    out = {sys.intern(k): v for k, v in record.items()}
    if out.get("kind").__class__ is str:
        out["kind"] = sys.intern(out["kind"])
    return out


def check_held(values: Iterable[Any], holder: str) -> None:
    """Numbers from outside the rules (a saved state, a scenario's line, `new_state`'s fixed
    dice) are numbers a rule could keep: each number of `values`, lists of them included,
    at most limits.MAX_NUMBER either way (docs/language.md, "Limits"), else a ValueError
    naming the place, `holder` ("a variable holds", "the turn number is"); a decimal
    number (2.5, 2.0: JSON's, never a rule's) is refused so too. True and false are not
    numbers here (a bool is an int to Python)."""
    for value in values:
        if value.__class__ is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise ValueError(f"a number of {len(str(abs(value)))} digits, where {holder} "
                             f"at most {MAX_NUMBER:,} either way")
        if value.__class__ is float:
            raise ValueError(f"a decimal number ({value!r}), where {holder} a whole number")
        if value.__class__ is list or value.__class__ is tuple:
            check_held(value, holder)


def _loaded_numbers(state: State) -> None:
    """Every number a loaded state brings into the game is no larger than a number a rule
    keeps (`check_held`: magnitude.py takes a kept value to be at most that, and the typed
    engine holds it in a C integer), and the random generator's state is one SplitMix64
    keeps (64 bits). A count or an index of the state itself is a whole number (`_whole`:
    not true, not 2.0), as a variable or an argument may not be (its type is the game's)."""
    _whole(state.turn, "the turn number is")
    _whole(state.decisions, "the decision number is")
    _whole(state.current, "the seat to play is")
    for value in state.numbers.values():
        _whole(value, "a piece label's number is")
    for frame in state.frames:
        _whole(frame["seat"], f"the seat of phase '{frame['phase']}' is")
    for piece in state.pieces.values():
        for field in ("owner", "cell"):
            if piece[field] is not None:
                _whole(piece[field], f"the {field} of piece {piece['label']} is")
    for record in [state.globals, *state.seat_vars, *state.pieces.values()]:
        check_held(record.values(), "a variable holds")
    for timer in state.timers:      # (a value it restores to a variable)
        check_held([timer["old"]], "a variable holds")
    for frame in state.frames:
        check_held(frame["args"], f"an argument of phase '{frame['phase']}' is")
        check_held(frame.get("pending") or [],
                   f"an argument of an action chosen in phase '{frame['phase']}' is")
        each = frame.get("each")
        if each is not None:
            check_held(each["args"], f"an argument of phase '{each['phase']}' is")
    check_held([state.turn], "the turn number is")
    check_held([state.decisions], "the decision number is")
    check_held(state.numbers.values(), "a piece label's number is")
    if state.rng.__class__ is not int or not 0 <= state.rng <= _MASK:
        raise ValueError(f"the random generator's state is a number from 0 to {_MASK}, not "
                         f"{state.rng!r}")


def _whole(value: Any, holder: str) -> None:
    """Refuse a `value` that is no int (true and false are ints to Python, 2.0 is not)."""
    if value.__class__ is not int:
        raise ValueError(f"{holder} a whole number, not {value!r}")


def _no_constant(name: str) -> Any:
    """`json.loads` reads NaN, Infinity and -Infinity as numbers: none is a state's."""
    raise ValueError(f"{name} is not a number a state holds (its numbers are whole)")


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, 64-bit output). Pure integer arithmetic, so the
    same seed gives the same numbers on every Python version."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


FIELDS = ("globals", "seat_vars", "pieces", "numbers", "frames", "rng", "turn", "current",
          "timers", "out", "result", "decisions")


class State:
    """One position of one game. Fields:

    globals    name -> value
    seat_vars  one dict per seat, name -> value
    pieces     piece id -> {"id", "kind", "owner", "cell", "alive", "label", vars...};
               a removed piece also has "last_cell", its cell when it was removed
    numbers    kind -> last number given to a piece of that kind (labels Kind#n)
    frames     phase stack, each {"phase", "seat", "args", "pending"} (pending: the
               choices of a simultaneous phase, one per seat, else None), and "each" for a
               frame of `call ... for each`: {"phase", "args", "rest" (seats still to
               come), "rule" (its where-condition's number, or None), "me"}
    rng        random generator state (an integer)
    turn       turns started so far; current: the seat whose turn it is
    timers     {"seat", "place", "old"}: values restored at that seat's next turn start
    out        per seat: true once eliminated
    result     None while playing, else {"winners": [...], "draw": bool}
    decisions  decisions applied so far
    """

    __slots__ = FIELDS + ("at", "owned", "zoned", "forced", "forced_picks", "forced_shuffles", "events",
                          "end_checked", "narrate")

    def __init__(self) -> None:
        self.globals: dict[str, Any] = {}
        self.seat_vars: list[dict[str, Any]] = []
        self.pieces: dict[int, Piece] = {}
        self.numbers: dict[str, int] = {}
        self.frames: list[Frame] = []
        self.rng = 0
        self.turn = 0
        self.current = 0
        self.timers: list[Timer] = []
        self.out: list[bool] = []
        self.result: Result | None = None
        self.decisions = 0
        self.at: dict[int, list[int]] = {}
        self.owned: dict[Owner, tuple[int, ...]] = {ALL: ()}
        # (zone, seat or None) -> the living pieces in it, oldest first (`pieces_in`)
        self.zoned: dict[tuple[str, int | None], list[int]] = {}
        # scenario-fixed dice: [sides or None, value], used first
        self.forced: list[list[Any]] = []
        # fixed picks, [items or None, index from 1], and shuffles, [an order of 1..n]
        self.forced_picks: list[list[Any]] = []
        self.forced_shuffles: list[list[int]] = []
        # chance and log events since the last decision (see `events`)
        self.events: list[Event] = []
        self.end_checked = False    # the end rules ran since anything changed outside play
        # events also tell what pieces did and who rolled (`Game.new_state(narrate=True)`);
        # not part of the position: not saved, compared or hashed
        self.narrate = False

    def rebuild_index(self) -> None:
        self.at = {}
        owned: dict[Owner, list[int]] = {ALL: []}
        zoned: dict[tuple[str, int | None], list[tuple[int, int]]] = {}
        for pid in sorted(self.pieces):
            piece = self.pieces[pid]
            if piece["alive"]:
                owned[ALL].append(pid)
                owned.setdefault(piece["owner"], []).append(pid)
                if piece["cell"] is not None:
                    self.at.setdefault(piece["cell"], []).append(pid)
                where = piece.get("zone")
                if where is not None:
                    zoned.setdefault((where[0], where[1]), []).append((where[2], pid))
        self.owned = {owner: tuple(pids) for owner, pids in owned.items()}
        self.zoned = {key: [pid for _, pid in sorted(found)] for key, found in zoned.items()}

    def clone(self) -> State:
        other = State.__new__(State)
        other.globals = copied(self.globals)
        other.seat_vars = copied(self.seat_vars)
        other.pieces = {pid: dict(p) for pid, p in self.pieces.items()}
        other.numbers = dict(self.numbers)
        other.frames = copied(self.frames)
        other.rng = self.rng
        other.turn = self.turn
        other.current = self.current
        other.timers = copied(self.timers)
        other.out = list(self.out)
        other.result = copied(self.result)
        other.decisions = self.decisions
        other.narrate = self.narrate
        other.at = {cell: list(pids) for cell, pids in self.at.items()}
        other.owned = dict(self.owned)
        other.zoned = {key: list(pids) for key, pids in self.zoned.items()}
        other.forced = [list(f) for f in self.forced]
        other.forced_picks = [list(f) for f in self.forced_picks]
        other.forced_shuffles = [list(f) for f in self.forced_shuffles]
        other.events = []
        other.end_checked = self.end_checked
        return other

    def to_data(self) -> dict[str, Any]:
        """The state as JSON data (a copy: changing it leaves the state alone)."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["pieces"] = [self.pieces[pid] for pid in sorted(self.pieces)]
        data["stacks"] = [[cell, pids] for cell, pids in sorted(self.at.items()) if len(pids) > 1]
        import json
        copied: dict[str, Any] = json.loads(json.dumps(data))
        return copied

    def to_json(self) -> str:
        import json
        return json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> State:
        import json
        try:
            data = json.loads(text, parse_constant=_no_constant)
            state = cls()
            for name in FIELDS:
                setattr(state, name, data[name])
            # names interned, as a new game's are (the engine's look-ups find them by
            # identity: `Game.__init__`)
            for piece in data["pieces"]:
                _whole(piece["id"], "a piece's id is")
            state.pieces = {p["id"]: _interned(p) for p in data["pieces"]}
            state.seat_vars = [_interned(v) for v in state.seat_vars]
            state.globals = _interned(state.globals)
            _loaded_numbers(state)
            state.rebuild_index()
            for cell, pids in data.get("stacks", []):
                if sorted(pids) != sorted(state.at.get(cell, [])):
                    raise ValueError(f"the stack on cell {cell} does not match its pieces")
                state.at[cell] = list(pids)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise GdlDataError(f"not a saved gdl state: {exc}") from None
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_data() == other.to_data()

    def __hash__(self) -> int:
        """Equal states hash alike (a position's hash, for tables of positions); a state
        changed after it was put in a set or dict is another position."""
        return hash(self.to_json())

    def __str__(self) -> str:
        """A short summary for people. Seats are numbers: a state does not know their
        names (`game.view(state, None)` and `view.render` give the full picture)."""
        phases = " > ".join(f"{frame['phase']} for seat {frame['seat']}"
                            for frame in self.frames) or "none"
        living = sum(1 for piece in self.pieces.values() if piece["alive"])
        values = ", ".join(f"{name}={value!r}" for name, value in self.globals.items())
        return "\n".join([
            f"turn {self.turn} (seat {self.current}), {counted(self.decisions, 'decision')}",
            f"  phases: {phases}",
            f"  result: {_result_words(self.result)}",
            f"  pieces: {living} living",
            f"  globals: {values or 'none'}",
        ])


def _result_words(result: Result | None) -> str:

    if result is None:
        return "playing"
    if result["draw"]:
        return "draw"
    winners = result["winners"]
    return f"seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} won"
