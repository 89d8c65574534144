"""Engine: runs a compiled game. The OpenSpiel-shaped API every agent, test and the CLI use.

    game.new_state(seed)            -> State after setup
    game.current_player(state)      -> seat index, or TERMINAL
    game.legal_actions(state)       -> sorted, deterministic list of actions
    game.action_text(state, a)      -> the stable text a person types ("move Piece#2 c4")
    game.parse_action(state, text[, as_seat])  -> the legal action with that text, or
                                       IllegalAction (why)
    game.apply(state, action)       -> mutates state; returns the chance/log events it caused
                                       (refuses an action that is not legal)
    game.is_terminal / returns / view / concede

and, as data, `game.name`, `game.seats` (the seat names; len(seats) players), `game.path`,
`game.source_hash` and `game.rules`: the read-only description of the rules (`rules.Rules`:
board, kinds, terrain, zones, phases and actions, variables, show rules) that tools draw and
explain from. That is all that is public on a `Game`; what the interpreter's own tools need
beyond it (running a rule function, setting up a position by hand, the generated code as it
runs) they reach through `introspect` alone. The
engine imports neither parser nor checker: a scenario's expressions are compiled in
`expressions`.

An action is a tuple (action index within the current phase, argument values). All
decisions are made one at a time; in a simultaneous phase each seat's choice is stored
hidden until every seat has chosen, then all are revealed together.

The rules run as the Python functions `codegen` wrote for them. A fault while they run (a
value that is none, a die of no sides, an index out of range) becomes a `GdlRuntimeError`
at the rule-file expression that failed: see `_located`.
"""

from __future__ import annotations

import contextlib
import itertools
import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeAlias, TypeVar, cast

from . import codegen, events, native, tables, typed
from .codegen import ConstKind, UnitKey
from ..language import program
from ..language.boards import Board
from ..language.builtins import (ALWAYS, CELLS, FLOW, GLOBALS, PIECE_VARS, PIECES,
                                 SEAT_VARS, elements, number_too_big, plain, read, summed,
                                 text_too_long, written)
from ..language.errors import (GdlError, GdlRuntimeError, IllegalAction, RuleFault, counted,
                               error_at, shortened)
from ..language.limits import (EVENT_WORK, FREE_SCAN, MAX_AUTO, MAX_DEPTH, MAX_DICE, MAX_ENTRIES,
                               MAX_LIST, MAX_NUMBER, MAX_PIECES, MAX_SUM, MAX_TEXT, MAX_WORK,
                               TEXT_STEP)
from ..language.types import (CELL, DIR, INT, KIND, PIECE, PLACEMENT, SEAT, SYMBOL, Type,
                              describe, format_value, parse_placement)
from .rules import describe_rules
from .state import ALL, Action, Each, Frame, Piece, State, check_held, splitmix64
from .typed import TypedState

if TYPE_CHECKING:
    from .view import View

TERMINAL = -1

Function: TypeAlias = Callable[..., Any]


class Places(Protocol):
    """Where a generated module's code came from: `codegen.Source`, or a native module's
    lines mapped back to it (`native._Mapped`)."""

    def place_of(self, line: int, start: int, end: int) -> program.Node | None: ...
"""A generated function: `(S, me, *parameters) -> value` (see codegen)."""

_T = TypeVar("_T")
_Sized = TypeVar("_Sized", bound=Sized)


ENDLESS_CALLS = "a fn or def calls itself without end"
ENDLESS_ENTERS = "a move inside an 'on enter' rule runs 'on enter' rules without end"
ENDLESS_PHASES = (f"phases were entered more than {MAX_ENTRIES} times without reaching a "
                  "decision: their goto, call and return go round without end")
OVERWORKED = (f"the rules took more than {MAX_WORK:,} steps since the last decision (loops "
              "inside loops over long lists, a fn that calls itself many times, or many dice)")


class StopMove(Exception):
    """Raised by `stop` inside an `on enter` trigger: the moving piece stops here."""


FORCED_SHAPES = ("a die [sides or None, value], a pick ['pick', items or None, index] or a "
                 "shuffle ['shuffle', [an order of 1..n]]")


def split_forced(forced: Iterable[Sequence[Any]]
                 ) -> tuple[list[list[Any]], list[list[Any]], list[list[int]]]:
    """(dice, picks, shuffles) of `new_state`'s forced results, each checked: a die
    `[sides or None, value]` (from 1 to its sides), a pick `["pick", items or None, index]`
    (the index-th of the items, from 1) and a shuffle `["shuffle", order]` (the shuffled
    list holds the items at these places of the list, from 1: `[3, 1, 2]` puts the third
    first); the numbers at most limits.MAX_NUMBER, as a saved state's (`check_held`: the
    typed engine holds them in C integers). `forced` is a list (any iterable but a text or
    a mapping) of such lists (or tuples); any other shape is a GdlError saying so."""
    if isinstance(forced, (str, bytes, Mapping)) or not isinstance(forced, Iterable):
        raise GdlError(f"forced is a list of fixed chance results, each {FORCED_SHAPES}; "
                       f"not {forced!r}")
    dice: list[list[Any]] = []
    picks: list[list[Any]] = []
    shuffles: list[list[int]] = []
    for entry in forced:
        if not isinstance(entry, (list, tuple)):
            raise GdlError(f"a fixed chance result of forced is a list: {FORCED_SHAPES}; "
                           f"not {entry!r}")
        entry = list(entry)
        if entry and entry[0] == "pick":
            count, index = (entry + [None, None])[1:3]
            if len(entry) != 3 or not _whole(index) or index < 1 or (
                    count is not None and (not _whole(count) or index > count)):
                raise GdlError(f"a fixed pick is ['pick', items or None, index from 1 to "
                               f"items], not {entry!r}")
            _held_there(index, "the index of a fixed pick is")
            picks.append([count, index])
        elif entry and entry[0] == "shuffle":
            order = entry[1] if len(entry) == 2 else None
            if not isinstance(order, (list, tuple)) or not all(map(_whole, order)) or \
                    sorted(order) != list(range(1, len(order) + 1)):
                raise GdlError(f"a fixed shuffle is ['shuffle', an order of 1..n], not "
                               f"{entry!r}")
            shuffles.append(list(order))
        else:
            sides, value = (entry + [None, None])[:2]
            if len(entry) != 2 or not _whole(value) or value < 1 or (
                    sides is not None and (not _whole(sides) or value > sides)):
                raise GdlError(f"a fixed die is [sides or None, value from 1 to sides], not "
                               f"{entry!r}")
            _held_there(value, "a fixed die shows")
            dice.append(entry)
    return dice, picks, shuffles


def _whole(value: Any) -> bool:
    """A whole number (true and false are not: a bool is an int to Python)."""
    return value.__class__ is int


def _held_there(number: int, holder: str) -> None:
    """`state.check_held` of one number of `new_state`'s forced results."""
    try:
        check_held([number], holder)
    except ValueError as exc:
        raise GdlError(str(exc)) from None


class Runtime:
    """What compiled closures reach at run time: the current state and game tables."""

    # The state the rules see: set while they run (`bound`, `Game._run`), None between runs;
    # typed as the state it is whenever rules read it.
    state: State
    narrate: bool           # the bound state's `narrate`, read where events are made

    @contextlib.contextmanager
    def bound(self, state: State) -> Iterator[Runtime]:
        """Run the enclosed code with `state` as the state the rules see."""
        previous, self.state = self.state, state
        narrated, self.narrate = self.narrate, state.narrate
        try:
            yield self
        finally:
            self.state, self.narrate = previous, narrated

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board = game._board
        self.kinds = game._kinds
        self.state = cast(State, None)
        self.narrate = False
        self.changed = 0        # state categories changed since the end rules last ran
        self.entries = 0        # phases entered since the engine last started work
        self.work = 0           # steps of the rules since then (limits.MAX_WORK)
        self.depth = 0          # calls of fns and defs that call themselves, and `on enter`
                                # runs, running now (limits.MAX_DEPTH)
        self.quiet = 0          # inside a `move`: its steps are one event, at its end
        self.passes = 0         # `on no action` blocks run since the last decision
        self.end_values: dict[int, list[Any]] = {}  # end block -> its shared values so far
        self.templates: dict[str, tuple[Piece, tuple[str, ...]]] = {}     # `_template`

    # randomness -------------------------------------------------------------------------
    def next64(self) -> int:
        self.state.rng, out = splitmix64(self.state.rng)
        return out

    def below(self, n: int) -> int:
        return (self.next64() * n) >> 64

    def roll_dice(self, sides: int | None, count: int | None) -> int:
        if not isinstance(sides, int) or not isinstance(count, int) or sides < 1 or count < 0:
            raise RuleFault(f"cannot roll {_word(count)} dice of {_word(sides)} sides")
        if count > MAX_DICE:
            raise RuleFault(f"cannot roll {count} dice at once: at most {MAX_DICE:,}")
        if count == 1:
            return self.roll(sides)
        dice = [self.roll(sides) for _ in range(count)]
        total = sum(dice)
        if total > MAX_SUM:     # the first partial sum past it faults (native: _add)
            total = 0
            for die in dice:
                total += die
                if total > MAX_SUM:
                    raise RuleFault(number_too_big(total, False))
        return total

    def roll(self, sides: int) -> int:
        state = self.state
        value: int      # (a declaration: no code)
        self.work += EVENT_WORK
        if self.work > MAX_WORK:
            self.overworked()
        if state.forced:
            forced_sides, value = state.forced[0]
            if forced_sides in (None, sides):
                state.forced.pop(0)
                state.events.append(events.Roll(sides, value, True, self._by()))
                return value
        value = 1 + self.below(sides)
        state.events.append(events.Roll(sides, value, False, self._by()))
        return value

    def _by(self) -> events.By | None:
        """Which rule rolls, for whom, when narrating (else None)."""
        return events.By(*self.game._doing()) if self.narrate else None

    def pick(self, items: Sequence[Any]) -> Any:
        if not items:
            return None
        self.work += EVENT_WORK         # its event
        if self.work > MAX_WORK:
            self.overworked()
        forced = self.state.forced_picks
        if forced and forced[0][0] in (None, len(items)):
            index = forced.pop(0)[1] - 1
            if index >= len(items):
                raise RuleFault(f"a fixed pick takes item {index + 1}, but the list has "
                                f"{len(items)}")
            self.state.events.append(events.Pick(len(items), index + 1, True))
            return items[index]
        index = self.below(len(items))
        self.state.events.append(events.Pick(len(items), index + 1))
        return items[index]

    def shuffled(self, items: Sequence[Any] | None) -> list[Any]:
        if items is None:
            raise RuleFault("there is no list to shuffle (it is none)")
        self.work += EVENT_WORK         # its event
        if self.work > MAX_WORK:
            self.overworked()
        items = list(items)
        forced = self.state.forced_shuffles
        if forced and len(forced[0]) == len(items):
            items = [items[i - 1] for i in forced.pop(0)]
            self.state.events.append(events.Shuffle(len(items), True))
            return items
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        self.state.events.append(events.Shuffle(len(items)))
        return items

    def zone_per_seat(self, zone: str) -> bool | None:
        """Is the zone one per seat (True), shared (False), or no zone (None)?"""
        return self.game._zones.get(zone)

    # seats -------------------------------------------------------------------------------
    def live_seats(self) -> list[int]:
        return [s for s, out in enumerate(self.state.out) if not out]

    def next_seat(self, seat: int, step: int) -> int:
        n = len(self.state.out)
        for k in range(1, n + 1):
            other = (seat + step * k) % n
            if not self.state.out[other]:
                return other
        return seat

    # pieces ------------------------------------------------------------------------------
    def label_key(self, seat: int, kind: str) -> str:
        """The key in `State.numbers` of the last label number of `seat`'s pieces of `kind`
        (in a game that numbers labels per seat): `@SEAT`, or `@SEAT/T` for the kinds of
        the T-th kinds table that is `visible to`."""
        table = self.game._label_class.get(kind)
        return f"@{seat}" if table is None else f"@{seat}/{table}"

    def create(self, kind: str, owner: int | None, cell: int | None) -> int:
        state = self.state
        if kind not in self.kinds:
            raise RuleFault(f"'create' was given no piece kind (none)")
        self.changed |= PIECES | CELLS | PIECE_VARS
        pid = state.numbers.get("#", 0) + 1
        if pid > MAX_PIECES:
            raise RuleFault(f"more than {MAX_PIECES:,} pieces created in one game")
        if self.game._labels_per_seat and owner is not None:
            # A game that hides pieces numbers each seat's pieces apart, all kinds together
            # (but those of a kinds table `visible to`, numbered apart per table), and names
            # the seat: a number then counts only what the seat's piece count shows anyway,
            # never how many of a kind the hidden pieces are, nor that a piece no seat but
            # some may see at all was made.
            key, label = self.label_key(owner, kind), f"{self.game.seats[owner]}:{kind}#"
        else:
            key, label = kind, f"{kind}#"
        number = state.numbers.get(key, 0) + 1
        state.numbers[key] = number
        state.numbers["#"] = pid
        template, lists = self.templates.get(kind) or self._template(kind)
        piece = dict(template)
        piece["id"] = pid
        piece["owner"] = owner
        piece["label"] = f"{label}{number}"
        for name in lists:
            piece[name] = list(piece[name])
        state.pieces[pid] = piece
        owned = state.owned
        owned[ALL] = owned[ALL] + (pid,)         # ids only grow: the order stays by id
        owned[owner] = owned.get(owner, ()) + (pid,)
        if cell is not None:
            self.quiet += 1
            try:
                self.place(pid, cell)
            finally:
                self.quiet -= 1
        if self.narrate:
            self.tell("created", pid, self.where(pid))
        return pid

    def _template(self, kind: str) -> tuple[Piece, tuple[str, ...]]:
        """A new piece of `kind` as `create` makes it, but for its id, owner and label, and
        the names of its list values (a piece gets a copy of each): made once a kind."""
        piece: Piece = {"id": 0, "kind": kind, "owner": None, "cell": None, "alive": True,
                        "label": ""}
        copies: dict[str, bool] = {}
        for name, value in self.game._piece_defaults:
            piece[name] = value
            copies[name] = isinstance(value, list)
        for name, column in self.game._piece_columns:
            piece[name] = value = self.kinds[kind][column]
            copies[name] = isinstance(value, (list, tuple))
        made = self.templates[kind] = piece, tuple(n for n, c in copies.items() if c)
        return made

    def piece(self, pid: int) -> Piece:
        piece = self.state.pieces.get(pid)
        if piece is None:
            raise RuleFault("this is not a piece (it is none)" if pid is None else
                            f"there is no piece {pid!r}")
        return piece

    def place(self, pid: int, cell: int | None) -> None:
        state = self.state
        piece = state.pieces.get(pid) or self.piece(pid)
        if not piece["alive"]:
            return
        if cell is not None and (cell.__class__ is not int or not 0 <= cell < self.board.size):
            raise RuleFault(f"{cell!r} is not a cell")
        self.changed |= CELLS
        at = state.at
        old = piece["cell"]
        if old is not None:
            stack = at[old]
            if len(stack) == 1:         # [pid]
                del at[old]
            else:
                stack.remove(pid)
        if cell is not None:
            onto = at.get(cell)
            if onto is None:
                at[cell] = [pid]
            else:
                onto.append(pid)
            if "zone" in piece:
                self._unzone(pid, piece)
        piece["cell"] = cell
        if self.narrate and not self.quiet and cell is not None and cell != old:
            self.tell("moved", pid, self.where_cell(old), self.where_cell(cell))

    def remove(self, pid: int) -> None:
        piece = self.piece(pid)
        if piece["alive"]:
            if self.narrate:
                self.tell("removed", pid, self.where(pid))
            piece["last_cell"] = piece["cell"]     # where it was lost (scenario files)
            self.place(pid, None)
            if "zone" in piece:
                self._unzone(pid, piece)
            piece["alive"] = False
            owned = self.state.owned
            owned[ALL] = _without(owned[ALL], pid)
            owned[piece["owner"]] = _without(owned[piece["owner"]], pid)
            self.changed |= PIECES

    def put(self, pid: int, zone: str, seat: Any) -> None:
        """Off the board into a zone (of `seat`, for a zone per seat), as its newest piece.
        `seat` is as the rules gave it: None for a shared zone, else checked here."""
        piece = self.piece(pid)
        if not piece["alive"]:
            return
        if self.game._zones[zone] and (seat.__class__ is not int or
                                       not 0 <= seat < len(self.state.out)):
            raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat: zone "
                            f"'{zone}' is one per seat")
        self.place(pid, None)
        if "zone" in piece:
            self._unzone(pid, piece)
        numbers = self.state.numbers
        numbers["@"] = stamp = numbers.get("@", 0) + 1
        piece["zone"] = [zone, seat, stamp]
        self.state.zoned.setdefault((zone, seat), []).append(pid)   # the newest: last
        self.changed |= PIECES | CELLS
        if self.narrate:
            self.tell("put", pid, self.where(pid))

    def _unzone(self, pid: int, piece: Piece) -> None:
        """Take a piece out of the zone it is in (its record and `State.zoned`)."""
        where = piece.pop("zone")
        key = (where[0], where[1])
        pids = self.state.zoned[key]
        pids.remove(pid)
        if not pids:
            del self.state.zoned[key]

    def give(self, pid: int, seat: int | None) -> None:
        piece = self.piece(pid)
        if piece["alive"]:
            owned = self.state.owned
            owned[piece["owner"]] = _without(owned[piece["owner"]], pid)
            owned[seat] = tuple(sorted(owned.get(seat, ()) + (pid,)))
        piece["owner"] = seat
        self.changed |= PIECES
        if self.narrate:
            self.tell("given", pid, self.game.seats[seat] if seat is not None else None)

    def change(self, pid: int, kind: str) -> None:
        """`change P to KIND`: the piece keeps its id, owner, place and variables; its
        statistics are the new kind's. Its label names the new kind: a label numbered per
        seat (a game that hides pieces) keeps its number when the new kind is numbered in
        the same sequence (`label_key`; else it takes that one's next), so no count moves
        that could tell of a hidden piece; any other takes the kind's next number, as
        `create` would."""
        if kind not in self.kinds:
            raise RuleFault(f"'change' was given no piece kind (none)")
        piece = self.piece(pid)
        if not piece["alive"] or piece["kind"] == kind:
            return
        before = self.hidden_seats(pid) if self.narrate else ()
        was: str = piece["label"]
        classes = self.game._label_class
        same = classes.get(kind) == classes.get(piece["kind"])
        piece["kind"] = kind
        if ":" in was and same:
            piece["label"] = f"{was[:was.index(':') + 1]}{kind}{was[was.rindex('#'):]}"
        elif ":" in was:        # into another sequence of the seat the label names: its next
            seat = was[:was.index(":")]
            key = self.label_key(self.game.seats.index(seat), kind)
            numbers = self.state.numbers
            numbers[key] = number = numbers.get(key, 0) + 1
            piece["label"] = f"{seat}:{kind}#{number}"
        else:
            numbers = self.state.numbers
            numbers[kind] = number = numbers.get(kind, 0) + 1
            piece["label"] = f"{kind}#{number}"
        self.changed |= PIECES
        if self.narrate:
            # hidden from a seat that could not see it before or cannot now
            self.tell("changed", pid, was, also_hidden=before)

    def move_along(self, me: int, pid: int, path: Iterable[int] | None) -> None:
        state = self.state
        piece = state.pieces.get(pid) or self.piece(pid)
        if path is None:
            raise RuleFault("there is no path to move along (it is none)")
        path = path if path.__class__ is tuple else list(path)
        if not self.narrate:
            quiet = self.game._trigger_cells
            if path and quiet is not None and quiet.isdisjoint(path):
                self._quietly(pid, path)
            else:
                self._move_along(me, pid, piece, state, path)
            return
        start = piece["cell"]
        self.quiet += 1
        try:
            self._move_along(me, pid, piece, state, path)
        finally:
            self.quiet -= 1
        if piece["alive"] and piece["cell"] != start:
            self.tell("moved", pid, self.where_cell(start), self.where_cell(piece["cell"]))

    def _quietly(self, pid: int, path: Sequence[int]) -> None:
        """A move crossing no cell a trigger fires on: straight to its last cell, each
        trigger's runs counted as work all the same (as the native backend runs them)."""
        self.work += len(path) * len(self.game._triggers)
        if self.work > MAX_WORK:
            self.overworked()
        self.place(pid, path[-1])

    def _move_along(self, me: int, pid: int, piece: Piece, state: State,
                    path: Sequence[int]) -> None:
        quiet = self.game._trigger_cells
        if path and quiet is not None and quiet.isdisjoint(path):
            self._quietly(pid, path)
            return
        for cell in path:
            if not piece["alive"]:
                return
            self.place(pid, cell)
            for trigger in self.game._triggers:
                try:
                    trigger(state, me, pid, cell)
                except StopMove:
                    return
                if not piece["alive"]:
                    return

    def hidden_seats(self, pid: int) -> tuple[int, ...]:
        """The seats a piece is hidden from now."""
        game = self.game
        return tuple(s for s in range(len(game.seats))
                     if game._hidden_from(self.state, pid, s)) if game._hides_pieces else ()

    def tell(self, what: str, pid: int, *places: str | None,
             also_hidden: tuple[int, ...] = ()) -> None:
        """A narration event (`events.PieceEvent`): the piece's label and owner (names),
        where it happened (cell or zone names), the rule and the seat whose code did it,
        and the seats the piece is hidden from (their texts name no label; `also_hidden`
        adds seats, those it was hidden from before the change told)."""
        game = self.game
        piece = self.state.pieces[pid]
        hidden = self.hidden_seats(pid)
        if also_hidden:
            hidden = tuple(sorted(set(hidden) | set(also_hidden)))
        unseen = tuple(s for s in hidden if game._unseen_by(self.state, pid, s)) \
            if game._sights else ()
        owner = piece["owner"]
        self.state.events.append(events.PIECE_EVENTS[what](
            piece["label"], None if owner is None else game.seats[owner],
            events.By(*game._doing()), hidden, *places, unseen=unseen))

    def where_cell(self, cell: int | None) -> str | None:
        return None if cell is None else self.board.names[cell]

    def where(self, pid: int) -> str | None:
        """A piece's place as text: its cell, 'ZONE' or 'ZONE of SEAT', or None."""
        piece = self.state.pieces[pid]
        zone = piece.get("zone")
        if zone is not None:
            return zone[0] if zone[1] is None else f"{zone[0]} of {self.game.seats[zone[1]]}"
        return self.where_cell(piece["cell"])

    # flow --------------------------------------------------------------------------------
    def enter_phase(self, name: str, args: Iterable[Any], seat: int | None, push: bool,
                    each: Each | None = None) -> None:
        state = self.state
        phase = self.game._phases[name]
        self.entries += 1           # `entered`, written out: every turn comes this way
        if self.entries > MAX_ENTRIES:
            raise RuleFault(ENDLESS_PHASES)
        if not isinstance(seat, int) or not 0 <= seat < len(state.out):
            raise RuleFault(f"phase '{name}' was entered for no seat (the seat expression "
                            f"gave {'none' if seat is None else repr(seat)})")
        pending: list[list[Any] | None] | None = \
            [None] * len(state.out) if phase.mode == "simultaneous" else None
        frame: Frame = {"phase": name, "seat": seat, "args": list(args), "pending": pending}
        if each is None and not push and state.frames:
            each = state.frames[-1].get("each")     # a `goto` stays in the seat's turn
        if each is not None:
            frame["each"] = each
        if push or not state.frames:
            state.frames.append(frame)
        else:
            state.frames[-1] = frame
        self.changed |= FLOW
        if phase.mode == "turn":
            state.turn += 1         # `start_turn`, written out: every turn comes this way
            state.current = seat
            if state.timers:
                self.restore_timers(seat)
        if phase.on_enter is not None:
            if frame["args"]:
                phase.on_enter(state, seat, *frame["args"])
            else:                   # a plain call: far cheaper than a call with a *
                phase.on_enter(state, seat)

    def entered(self) -> None:
        """Count a phase entered or resumed; too many since the engine started work means
        the phases go round without ever asking for a decision."""
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            raise RuleFault(ENDLESS_PHASES)

    def pop_phase(self) -> None:
        state = self.state
        each = state.frames[-1].get("each") if state.frames else None
        if each is None and len(state.frames) <= 1:
            raise RuleFault("'return' from the only phase left: 'return' ends a phase "
                            "entered with 'call'; use 'goto' to move on")
        state.frames.pop()
        self.changed |= FLOW
        if each is not None and self.next_of_each(each):
            return
        self.resume()

    def resume(self) -> None:
        state = self.state
        if not state.frames:
            raise RuleFault("'call ... for each' from setup has no phase to return to")
        frame = state.frames[-1]
        self.entered()
        self.game._phases[frame["phase"]].on_resume(state, frame["seat"], *frame["args"])

    def call_each(self, me: int, name: str, args: Iterable[Any], seats: Iterable[int] | None,
                  rule: int | None) -> None:
        """`call P for each s in SEATS where ...`: P for the first seat that qualifies; each
        `return` from it moves on to the next (next_of_each); after the last, the calling
        phase resumes. When none qualifies the calling phase resumes at once."""
        if seats is None:
            raise RuleFault("'call ... for each' was given no list of seats (it is none)")
        seats = list(seats)
        for seat in seats:
            if seat.__class__ is not int or not 0 <= seat < len(self.state.out):
                raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
        each: Each = {"phase": name, "args": list(args), "rest": seats, "rule": rule, "me": me}
        if not self.next_of_each(each):
            self.resume()

    def next_of_each(self, each: Each) -> bool:
        """Enter the phase of a `call ... for each` for the next seat still playing whose
        condition holds now; False when none is left."""
        state = self.state
        rule = None if each["rule"] is None else self.game._each_rules[each["rule"]]
        while each["rest"]:
            seat = each["rest"].pop(0)
            if not isinstance(seat, int) or not 0 <= seat < len(state.out):
                raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
            if state.out[seat] or (rule is not None and not rule(state, each["me"], seat)):
                continue
            self.enter_phase(each["phase"], each["args"], seat, True, each)
            return True
        return False

    def restore_timers(self, seat: int) -> None:
        """A turn of `seat` started (`enter_phase`): its timers give back the values they
        keep."""
        state = self.state
        keep = []
        for timer in reversed(state.timers):     # newest first: the oldest value wins
            if timer["seat"] == seat:
                self.restore(timer["place"], timer["old"])
            else:
                keep.append(timer)
        state.timers = keep[::-1]

    def add_timer(self, seat: int, place: list[Any], old: Any) -> None:
        self.state.timers.append({"seat": seat, "place": place, "old": old})

    def restore(self, place: list[Any], old: Any) -> None:
        state = self.state
        self.changed |= GLOBALS | SEAT_VARS | PIECE_VARS
        if place[0] == "g":
            state.globals[place[1]] = old
        elif place[0] == "s":
            state.seat_vars[place[1]][place[2]] = old
        elif place[1] in state.pieces:
            state.pieces[place[1]][place[2]] = old

    # results -----------------------------------------------------------------------------
    def declare_winners(self, seats: list[int]) -> None:
        for seat in seats:
            if seat.__class__ is not int or not 0 <= seat < len(self.state.out):
                raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
        if self.state.result is None:
            self.state.result = {"winners": sorted(seats), "draw": not seats}

    def eliminate(self, seat: int) -> None:
        state = self.state
        if seat.__class__ is not int or not 0 <= seat < len(state.out):
            raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
        if state.result is not None or state.out[seat]:
            return
        state.out[seat] = True
        self.changed |= FLOW
        state.events.append(events.Out(seat))
        live = self.live_seats()
        if len(live) <= 1:
            self.declare_winners(live)
            return
        for hook in self.game._out_hooks:
            hook(state, seat, seat)

    # names for text ------------------------------------------------------------------------
    def too_deep(self, name: str) -> NoReturn:
        """A fn or def that calls itself called once more at MAX_DEPTH calls running (the
        generated code's check at its entry, `codegen.Generator.counted_unit`)."""
        raise RuleFault(f"{ENDLESS_CALLS} ('{name}' is {MAX_DEPTH} calls deep)")

    def too_deep_enter(self) -> NoReturn:
        """An `on enter` trigger run once more at MAX_DEPTH triggers and calls of fns and
        defs that call themselves running (`codegen.Generator.trigger`)."""
        raise RuleFault(f"{ENDLESS_ENTERS} ({MAX_DEPTH} deep)")

    def spend(self, steps: int) -> None:
        """`steps` of work a built-in did (builtins.read): past limits.MAX_WORK, a fault."""
        self.work += steps
        if self.work > MAX_WORK:
            self.overworked()

    def too_many_actions(self, phase: str, index: int) -> NoReturn:
        """A listing holds more than limits.MAX_ACTIONS actions (the generated code's
        check, `codegen.Generator.listing`): the error at the action listed then."""
        raise error_at(GdlRuntimeError, f"run-time error: {codegen.TOO_MANY_ACTIONS}",
                       self.game._phases[phase].actions[index].span)

    def overworked(self) -> NoReturn:
        """Each domain is bounded on its own (MAX_LIST, MAX_PIECES, the board); loops inside
        loops, whose product could run for hours, stop here."""
        raise RuleFault(OVERWORKED)

    def cell_name(self, cell: int) -> str:
        return self.board.names[cell]

    def piece_name(self, pid: int) -> str:
        label: str = self.state.pieces[pid]["label"]
        return label

    def seat_name(self, seat: int) -> str:
        return self.game.seats[seat]


class CompiledAction:
    """One action of a phase, as generated functions: `listing(S, me, *phase_args, out)`
    appends each legal (index, args) to the list `out` (`out.append`, which Python runs
    without a call: cheaper than passing the bound method); `body(S, me, *phase_args, *args)` plays it; `domains`
    and `parts` (with the text and binder level of each where-part) explain a refusal."""

    def __init__(self, action: program.Action, units: Mapping[UnitKey, Function],
                 phase: program.Phase) -> None:
        self.index = action.index
        self.name = action.name
        self.arg_types = [b.type for b in action.binders]
        self.by_cell = [b.by_cell for b in action.binders]     # a piece written by its cell
        # the binders written by cell, (position, name, span): two of its actions may read
        # alike when pieces share a cell (`Game._same_texts`)
        self.cell_written = [(i, b.name, b.span) for i, b in enumerate(action.binders)
                             if b.by_cell]
        self.binders = [(b.name, b.text) for b in action.binders]
        self.span = action.span
        at = phase.name, action.index
        self.listing = units[UnitKey("list", *at)]
        self.body = units[UnitKey("act", *at)]
        self.domains = [units[UnitKey("domain", *at, i)] for i in range(len(action.binders))]
        self.parts = [(p.text, units[UnitKey("part", *at, i)], p.level)
                      for i, p in enumerate(action.where_parts)]


class CompiledPhase:
    def __init__(self, phase: program.Phase, units: Mapping[UnitKey, Function]) -> None:
        self.name = phase.name
        self.mode = phase.mode
        self.auto = phase.auto
        self.nparams = len(phase.params)
        # None when the block is empty: nothing to call each time the phase is entered
        self.on_enter = units[UnitKey("on_enter", phase.name)] if phase.on_enter else None
        self.on_reveal = units[UnitKey("on_reveal", phase.name)]
        self.on_resume = units[UnitKey("on_resume", phase.name)]
        self.on_no_action = units.get(UnitKey("on_no_action", phase.name))
        self.actions = [CompiledAction(a, units, phase) for a in phase.actions]
        self.listings = tuple(a.listing for a in self.actions)     # read at every decision
        self.bodies = tuple(a.body for a in self.actions)
        self.cell_written = any(a.cell_written for a in self.actions)
        # Actions whose body is empty, outside a simultaneous phase: playing one leaves the
        # position as it was. When they are all a seat may do, it is asked for ever.
        self.no_ops = frozenset(i for i, a in enumerate(phase.actions) if not a.body) \
            if phase.mode != "simultaneous" else frozenset()
        self.span = phase.span


class Game:
    """A compiled, runnable game: the public API of the module docstring; every other
    member is private (see `introspect`)."""

    def __init__(self, program: program.Program, path: str, source_hash: str,
                 backend: str | None = None) -> None:
        self._program = program
        self.name = program.game_name
        self.path = path
        self.source_hash = source_hash
        self.seats = list(program.seats)
        self._board: Board = program.board
        self._kinds = program.kinds
        self._symbols = program.symbols
        # The variables' names as the keys of the state's dicts, interned: the generated
        # code's `p1['damage']` then finds its key by identity, not by comparing the text
        # (a name from the parser, or from the parse cache, is a string of its own)
        self._global_defaults = [(sys.intern(n), v.init)
                                 for n, v in program.vars["global"].items()]
        self._seat_defaults = [(sys.intern(n), v.init) for n, v in program.vars["seat"].items()]
        self._piece_defaults = [(sys.intern(n), v.init)
                                for n, v in program.vars["piece"].items()]
        self._piece_columns = [(sys.intern(n), v.column) for n, v in program.vars["piece"].items()
                               if v.column is not None]
        self._rt = Runtime(self)
        let_reads = [[codegen.reads(let.expr, program.fns) for let in lets]
                     for lets in program.end_lets]
        # A rule's mask covers the shared values it reads (those of its block above it).
        end_reads = [codegen.reads(r.expr, program.fns)
                     | _union(let_reads[r.block][:r.shared] if r.shared else [])
                     for r in program.end_rules]
        watched = 0
        for mask in end_reads:
            watched |= mask
        self._python_source, units, lines = codegen.generate(program, path, watched)
        self._sources: dict[str, Places] = {}     # module file name -> where its code came from
        self._module: dict[str, Any] = {}
        self._backend = native.requested(backend)   # "native" below if it compiled
        # The typed engine (runtime/typed.py) of a file inside its subset, on the native
        # backend (unless $GDL_TYPED=0); None: the engine below plays every state. With it,
        # the generated module stays Python: it plays only the positions the typed core
        # cannot hold, and a first load builds one module, not two.
        self._typed: Any = None
        if self._backend != "python" and typed.enabled():
            self._typed = typed.load(program, ENDLESS_PHASES, OVERWORKED)[0]
        module_backend = "python" if self._typed is not None else self._backend
        namespace = self._module = self._load(self._python_source, lines, path, module_backend)
        # fns of cells and seats that read nothing of the position, answered from a table
        # (runtime/tables.py); not while a tool traces what runs (codegen.calling_every_fn)
        if module_backend == "python" and not codegen.every_call_now():
            built = tables.install(program, namespace, self._rt,
                                   tables.tabled(program, typed=False))
            in_c = tables.tabled(program)       # those the typed engine reads too
            if self._typed is not None and built:
                self._typed.fill_tables({name: tables.typed_rows(program, program.fns[name],
                                                                 entries)
                                         for name, entries in built.items() if name in in_c})
        if self._typed is not None:
            self._backend = "native"
            # the four calls a driver makes per decision, in C for the typed engine's
            # states (a frame less each: 8-10% of a random playout driven from Python)
            self.__dict__.update(self._typed.entry_points(
                TypedState, self.legal_actions, self.apply, self.is_terminal,
                self.current_player))
        fns: dict[UnitKey, Function] = {key: namespace[unit.name] for key, unit in units.items()}
        self._functions = fns       # unit key -> generated function (introspect.code_units)
        self._rule_names = {unit.name: name for key, unit in units.items()
                            if (name := _rule_name(program, key)) is not None}
        self._phases = {name: CompiledPhase(p, fns) for name, p in program.phases.items()}
        self._setup = fns[UnitKey("setup")]
        self._triggers = [fns[UnitKey("trigger", position=i)]
                          for i in range(len(program.triggers))]
        self._trigger_cells = self._find_trigger_cells(fns, len(program.triggers))
        self._out_hooks = [fns[UnitKey("out", position=i)] for i in range(len(program.outs))]
        self._concede_hooks = [fns[UnitKey("concede", position=i)]
                               for i in range(len(program.concedes))]
        # What the end rules read; a rule that rolls dice runs after every decision.
        self._end_mask = -1 if watched & ALWAYS else watched
        if self._end_mask == -1 or "S.decisions" in self._python_source \
                or "rt.passes" in self._python_source:
            # End rules that roll dice, or rules that read the decision counter: a decision
            # that changes nothing else may still end the game or change what is legal.
            for phase in self._phases.values():
                phase.no_ops = frozenset()
        self._end_lets = [[fns[UnitKey("end_let", position=block, part=let.slot)]
                           for let in lets] for block, lets in enumerate(program.end_lets)]
        self._end_rules = [(r.kind, self._sharing(fns[UnitKey("end", position=i)], r), mask)
                           for i, (r, mask) in enumerate(zip(program.end_rules, end_reads))]
        self._visibility = {(scope, name): fns[UnitKey("visible", name, scope=scope)]
                            for scope, table in program.vars.items()
                            for name, var in table.items() if var.visible is not None}
        self._shows = {what: fns[UnitKey("show", what)] for what in program.shows}
        if program.hide is not None:
            self._shows["hide piece"] = fns[UnitKey("hide")]
        self._stats = [(name, bool(rule.params), fns[UnitKey("stat", name)])
                       for name, rule in program.stats.items()]
        self._payoff = None if program.payoff is None else fns[UnitKey("payoff")]
        self._has_turns = any(p.mode == "turn" for p in self._phases.values())
        # Has any phase `auto` or `on no action` (`_auto` has work to do after a decision)?
        self._autos = any(p.auto or p.on_no_action is not None for p in self._phases.values())
        # Phases whose listing needs no check after it (`_listing`): random playouts list
        # and play them without the engine's calls (`_loop_playout`)
        self._plain_phases = frozenset(name for name, p in self._phases.items()
                                       if not p.no_ops and not p.cell_written)
        self._invariants = [(inv.name, fns[UnitKey("invariant", position=i)])
                            for i, inv in enumerate(program.invariants)]
        self._each_rules = [fns[UnitKey("each", position=i)]
                            for i in range(len(program.each_rules))]
        self._zones = {name: zone.per_seat for name, zone in program.zones.items()}
        self._zone_rules = {name: fns[UnitKey("zone", name)]
                            for name, zone in program.zones.items()
                            if zone.visible is not None}
        # kind -> its table's `visible to` (a kind of no such table is always in sight)
        self._sights = {kind: fns[UnitKey("sight", position=i)]
                        for i, sight in enumerate(program.sights) for kind in sight.kinds}
        self._hides_pieces = (bool(self._zone_rules) or "hide piece" in self._shows
                              or bool(self._sights))
        self._labels_per_seat = self._hides_pieces
        # the label numbers a seat's pieces take, per seat: one sequence for the kinds of
        # each kinds table that is `visible to` (a seat may not see such pieces at all, so
        # their numbers must not leave gaps among those of pieces it does see), one for all
        # other kinds (`label_key`)
        self._label_class = {kind: i + 1 for i, sight in enumerate(program.sights)
                             for kind in sight.kinds}
        self.rules = describe_rules(program, self._hides_pieces)
        # A game moved to Python for narration keeps native searches: `search_position`
        self._native_asked = False
        self._twin: Game | None = None

    def _find_trigger_cells(self, fns: Mapping[UnitKey, Function],
                            count: int) -> frozenset[int | None] | None:
        """The cells on which some `on enter` trigger may fire, when every trigger's
        condition depends on the cell alone (else None): a move that crosses none of them
        can go straight to its last cell. None is among them: a path through none tests
        each condition on it (`row(none)` faults, as on the typed engine)."""
        cells: set[int | None] = {None}
        for i in range(count):
            condition = fns.get(UnitKey("trigger_cell", position=i))
            if condition is None:
                return None
            try:
                cells.update(c for c in self._board.all_cells if condition(None, 0, None, c))
            except Exception:   # noqa: BLE001 - only a probe: on any fault, moves take
                return None     # every step and the fault is reported where it happens
        return frozenset(cells)

    # ----- life cycle ---------------------------------------------------------------------
    def new_state(self, seed: int = 0, forced: Iterable[Sequence[Any]] = (),
                  narrate: bool = False) -> State:
        """The position after setup. `forced`: chance results to use first, each kind in
        its order: dice `[sides or None, value]`, picks `["pick", items or None, index from
        1]` and shuffles `["shuffle", [an order of 1..n]]` (see `split_forced`); `narrate`: its events, and those of every decision played on it (and on its
        clones), also tell what pieces did (created, moved, removed, put, given, changed)
        and which rule rolled each die, for whom: for players and replays; off for speed. Narration
        finds the rule at work in Python's frames: a game on the native backend moves to
        the Python one for it (its agents still search natively: `_search_position`)."""
        if seed.__class__ is not int or not 0 <= seed < 1 << 64:
            raise GdlError(f"a seed is a number from 0 to {(1 << 64) - 1}, not {seed}")
        if narrate and self._backend == "native":
            typed_inside = self._typed is not None
            native.tell_fallback("narration names rules through Python's frames" + (
                " (agents still search on the native backend)" if typed_inside else ""),
                "native")
            self.__init__(self._program, self.path, self.source_hash,  # type: ignore[misc]
                          "python")
            self._native_asked = typed_inside   # agents still search natively
        if self._typed is not None and not narrate:
            dice, picks, shuffles = split_forced(forced)
            if typed.holds_forced(dice):        # (else the Python engine plays them)
                return typed.new_state(self._typed, seed, forced=(dice, picks, shuffles))
        state = State()
        state.rng = seed
        state.globals = {n: _copy(v) for n, v in self._global_defaults}
        state.seat_vars = [{n: _copy(v) for n, v in self._seat_defaults} for _ in self.seats]
        state.out = [False] * len(self.seats)
        state.forced, state.forced_picks, state.forced_shuffles = split_forced(forced)
        state.narrate = narrate
        self._rt.work = 0
        self._run(state, self._setup_run)
        self._auto(state)
        return state

    def _setup_run(self, state: State) -> None:
        self._setup(state, 0)
        if not state.frames and state.result is None:
            raise error_at(GdlRuntimeError, "run-time error: setup did not enter any phase: "
                           "end it with 'goto PHASE for SEAT'", self._program.setup_span)

    def _run(self, state: State, fn: Callable[..., _T], *args: Any,
             check_end: bool = True) -> _T:
        """Run engine work on `state`, then check the end rules. A fault in the rules
        becomes a GdlRuntimeError at the rule-file expression that failed."""
        rt = self._rt
        previous, rt.state = rt.state, state
        narrated, rt.narrate = rt.narrate, state.narrate
        try:
            if check_end:
                rt.changed = 0
                rt.entries = 0
            elif previous is None:      # a tool's question (a view, a text): work of its own
                rt.work = 0
            result = fn(state, *args)
            if check_end:
                self._end_if_due(state)
            return result
        except RULE_FAULTS as exc:
            raise self._fault(exc) from None
        finally:
            rt.state, rt.narrate = previous, narrated

    def _play(self, state: State, frame: Frame, action: Action) -> None:
        """`_run(state, self._apply_run, action)` for a decision of a phase that is not
        simultaneous, in one call (every decision of most games comes this way)."""
        rt = self._rt
        previous, rt.state = rt.state, state
        narrated, rt.narrate = rt.narrate, state.narrate
        rt.changed = 0
        rt.entries = 0
        try:
            index, args = action
            body = self._phases[frame["phase"]].bodies[index]
            if frame["args"]:
                body(state, frame["seat"], *frame["args"], *args)
            elif len(args) == 2:    # plain calls: far cheaper than a call with a *
                body(state, frame["seat"], args[0], args[1])
            elif len(args) == 1:
                body(state, frame["seat"], args[0])
            else:
                body(state, frame["seat"], *args)
            self._end_if_due(state)
        except RULE_FAULTS as exc:
            raise self._fault(exc) from None
        finally:
            rt.state, rt.narrate = previous, narrated

    def _end_if_due(self, state: State) -> None:
        """After a decision's work: the end rules, when the game is on, its turns have
        started, and something they read changed (or they run after every decision)."""
        if state.result is None and (state.turn > 0 or not self._has_turns) \
                and (self._rt.changed & self._end_mask or self._end_mask == -1
                     or not state.end_checked):
            self._check_end(state)

    def _fault(self, exc: Exception) -> GdlRuntimeError:
        """The user's error for an exception raised while rules ran; an exception that is
        not the rules' fault is a bug of gdl and is raised again as it is."""
        if isinstance(exc, RuleFault):
            return self._located(exc, str(exc))
        if isinstance(exc, RecursionError):
            return self._located(exc, ENDLESS_PHASES if _through_phases(exc) else
                                 ENDLESS_CALLS)
        if isinstance(exc, StopMove):
            return self._located(exc, "'stop' ran outside an 'on enter' trigger of a move")
        if self._rule_frame(exc) is None:
            raise exc
        return self._located(exc, None, anywhere=False)

    def _load(self, source: str, lines: codegen.Source, name: str,
              backend: str = "python") -> dict[str, Any]:
        """Compile generated source once and run it; returns its module namespace. A
        game's module on the native backend is its compiled module's functions (or, when
        it cannot be, the Python's: `native.load`)."""
        # A game's module is named after its rule file (every load of one file shares the
        # name, so a trace adds their counts up); a tool's expression is unique in the
        # process (two games' expressions never share a name: traces tell them apart).
        number = 0 if not self._sources else next(_LOADED)
        filename = f"{codegen.FILE_PREFIX}{name}:{number}>"
        self._sources[filename] = lines
        namespace = dict(self._module)          # an expression calls the game's fns
        namespace.update(_namespace(self, lines))
        if backend != "python":
            functions = native.load(self, source, lines, namespace, backend)
            self._backend = "python" if functions is None else "native"
            if functions is not None:
                namespace.update(functions)
                return namespace
        exec(compile(source, filename, "exec"), namespace)
        return namespace

    def _function_of(self, expr: program.Expr, nparams: int,
                     name: str = "expression") -> Function:
        """A resolved expression as a function (state, me, *values) -> value, for tools
        (scenario expectations); run it with `_evaluate`."""
        source, lines = codegen.generate_expression(self._program, expr, nparams, name,
                                                    self.path)
        function: Function = self._load(source, lines, name)[name]
        return function

    def _doing(self) -> tuple[str | None, int | None]:
        """(rule, seat): the rule-file rule whose generated code is running now (the
        innermost: a def called by an action is the def) and its `me`; no seat when it runs
        for the setup (whose `me` is only the first seat)."""
        frame: FrameType | None = sys._getframe(2)
        found = None
        while frame is not None:
            code = frame.f_code
            if code.co_filename.startswith(codegen.FILE_PREFIX) and \
                    code.co_name in self._rule_names:
                rule = self._rule_names[code.co_name]
                if found is None:
                    found = rule, frame.f_locals.get("me")
                if rule == "setup":
                    return found[0], None
            frame = frame.f_back
        return found or (None, None)

    def _rule_frame(self, exc: BaseException,
                    anywhere: bool = False) -> tuple[str, int, int, int] | None:
        """(file, line, start, end) in the generated code where a fault happened: the
        innermost generated frame. A Python fault counts only when it happened in the
        rules' code or in a built-in function they called (else None: a bug of gdl);
        `anywhere` accepts any frames below (for faults gdl raised itself)."""
        found = None
        library_only = True     # every frame below the innermost generated one
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename.startswith(codegen.FILE_PREFIX):
                positions = list(code.co_positions())
                index = tb.tb_lasti // 2
                _, _, start, end = positions[index] if index < len(positions) else (0, 0, 0, 0)
                found = (code.co_filename, tb.tb_lineno, start or 0, end or 0)
                library_only = True
            elif found is not None and code not in _OPERATORS \
                    and not code.co_filename.endswith(("builtins.py", "boards.py")):
                library_only = False
            tb = tb.tb_next
        return found if anywhere or library_only else None

    def _located(self, exc: BaseException, message: str | None,
                 anywhere: bool = True) -> GdlRuntimeError:
        where = self._rule_frame(exc, anywhere)
        node = None
        if where is not None:
            node = self._sources[where[0]].place_of(*where[1:])
        if message is None:
            message = _fault_words(exc, node)
        span = node.span if node is not None else None
        if span is None:
            return GdlRuntimeError(f"run-time error: {message}")
        return GdlRuntimeError(f"run-time error: {message}", file=span.file, line=span.line,
                               column=span.column, source_line=span.source_line)

    def _sharing(self, cond: Function, rule: program.EndRule) -> Function:
        """An end rule's test as `cond(S, me[, seat])`: one that reads shared values of its
        block gets them from `rt.end_values`, each computed once per end check when a
        rule first needs it (a rule that reads none is its generated function itself)."""
        if not rule.shared:
            return cond
        rt, lets, block, reads = self._rt, self._end_lets[rule.block], rule.block, rule.shared

        def with_values(state: State, me: int, *seat: int) -> Any:
            computed = rt.end_values.setdefault(block, [])
            while len(computed) < reads:
                computed.append(lets[len(computed)](state, 0, *computed))
            return cond(state, me, *computed[:reads], *seat)
        return with_values

    def _check_end(self, state: State) -> None:
        """The end rules, their work counted on their own (they run only when something
        they read changed, while the native backend runs them after every decision: the
        work of a decision is the same either way); the decision's count goes on after."""
        rt = self._rt
        work, rt.work = rt.work, 0
        try:
            self._run_end_rules(state, rt)
        finally:
            rt.work = work

    def _run_end_rules(self, state: State, rt: Runtime) -> None:
        changed = (rt.changed | ALWAYS) if state.end_checked else -1
        rt.changed = 0
        rt.end_values.clear()
        for kind, cond, mask in self._end_rules:
            if state.result is not None:
                return
            if changed != -1 and not (mask & changed):
                continue        # nothing it reads changed since it last held false (a rule
                # that reads nothing that changes runs once, at the first check)
            if kind == "draw":
                if cond(state, 0):
                    rt.declare_winners([])
                continue
            live = rt.live_seats()
            holding = [s for s in live if cond(state, s, s)]
            if kind == "lose":
                if holding and holding == live:
                    rt.declare_winners([])      # everyone still playing loses at once
                for seat in holding:
                    rt.eliminate(seat)
            elif holding:
                rt.declare_winners(holding)
        # What the rules themselves changed (a seat out, an `on out` hook) was not seen by
        # the rules before them: all run again after the next decision.
        state.end_checked = rt.changed == 0

    # ----- queries --------------------------------------------------------------------------
    def is_terminal(self, state: State) -> bool:
        if state.__class__ is TypedState:
            core = state._core or typed.core_of(state)
            if core is not None:
                return bool(core.over)
        return state.result is not None

    def returns(self, state: State) -> list[float]:
        """Per seat: 0 for an unfinished game; at the end, the rule file's `payoff(s)`, or
        without one 1 for a win, -1 for a loss and 0 for a draw."""
        if state.__class__ is TypedState:        # a payoff too: the core computes it
            core = state._core or typed.core_of(state)
            if core is not None:
                return core.returns()  # type: ignore[no-any-return]
        if state.result is not None and self._payoff is not None:
            payoff = self._payoff
            values: list[int] = self._run(state, lambda st: [
                payoff(st, s, s) for s in range(len(self.seats))], check_end=False)
            return [float(v) for v in values]
        if state.result is None or state.result["draw"]:
            return [0.0] * len(self.seats)
        winners = state.result["winners"]
        return [1.0 if s in winners else -1.0 for s in range(len(self.seats))]

    def current_player(self, state: State) -> int:
        if state.__class__ is TypedState:
            core = state._core or typed.core_of(state)
            if core is not None:
                return core.current_player()  # type: ignore[no-any-return]
        if state.result is not None or not state.frames:
            return TERMINAL
        frame = state.frames[-1]
        if frame["pending"] is not None:
            for seat, choice in enumerate(frame["pending"]):
                if choice is None and not state.out[seat]:
                    return seat
        return frame["seat"]

    def _phase_of(self, state: State) -> CompiledPhase:
        return self._phases[state.frames[-1]["phase"]]

    def legal_actions(self, state: State) -> list[Action]:
        if state.__class__ is TypedState:
            core = state._core or typed.core_of(state)
            if core is not None:
                return core.legal_actions()  # type: ignore[no-any-return]
        self._rt.work = 0
        return self._listing(state)

    def _listing(self, state: State, out: list[Action] | None = None) -> list[Action]:
        if state.result is not None or not state.frames:
            return []
        frame = state.frames[-1]
        seat = frame["seat"] if frame["pending"] is None else self.current_player(state)
        if out is None:
            out = []
        args = frame["args"]
        rt = self._rt
        previous, rt.state = rt.state, state
        try:
            phase = self._phases[frame["phase"]]
            if args:
                for listing in phase.listings:
                    listing(state, seat, *args, out)
            else:       # a plain call: cheaper than unpacking no arguments
                for listing in phase.listings:
                    listing(state, seat, out)
        except LISTING_FAULTS as exc:
            raise self._fault(exc) from None
        finally:
            rt.state = previous
        if phase.no_ops and out and all(action[0] in phase.no_ops for action in out):
            self._stuck_on_no_ops(state, phase, out)
        if phase.cell_written and len(out) > 1:
            self._same_texts(state, phase, out)
        return out

    def _same_texts(self, state: State, phase: CompiledPhase, out: list[Action]) -> None:
        """Refuse a listing in which two actions read alike because a binder written `by
        cell` holds two pieces on one cell (their texts could not tell them apart)."""
        pieces, at, phases = state.pieces, state.at, phase.actions
        for action in out:      # quick: does any such piece share its cell at all?
            for position, _, _ in phases[action[0]].cell_written:
                piece = pieces.get(action[1][position])     # (none: no piece)
                cell = piece["cell"] if piece is not None else None
                if cell is not None and len(at[cell]) > 1:
                    break
            else:
                continue
            break
        else:
            return
        seen: dict[tuple[Any, ...], int] = {}
        for k, action in enumerate(out):    # by place: a listing may keep its tuples
            compiled = phase.actions[action[0]]
            if not compiled.cell_written:
                continue
            args = list(action[1])
            for position, _, _ in compiled.cell_written:
                piece = state.pieces.get(args[position])
                if piece is not None and piece["cell"] is not None:
                    args[position] = ("cell", piece["cell"])
            key = (action[0], *(repr(a) for a in args))
            first = seen.setdefault(key, k)
            if first == k:
                continue
            other = out[first]
            differs = next(((i, n, sp) for i, n, sp in compiled.cell_written
                            if action[1][i] != other[1][i]), None)
            if differs is None:     # the same pieces: a binder's list repeats a value
                continue
            position, name, span = differs
            cell = state.pieces[action[1][position]]["cell"]
            with self._rt.bound(state) as rt:
                where = format_value(cell, CELL, rt)
                both = "two pieces" if self._hides_pieces else " and ".join(
                    format_value(pid, PIECE, rt) for pid in sorted(
                        (other[1][position], action[1][position])))
            raise error_at(
                GdlRuntimeError, f"run-time error: two legal actions read "
                f"'{self.action_text(state, action)}': {both} stand on {where}, and "
                f"'{name}' writes its piece by the cell it stands on", span,
                hints=["hint: write such pieces by their labels (leave out 'by cell'), or keep them "
                       "on cells of their own"])

    def _has_action(self, state: State) -> bool:
        """Has the deciding seat a legal action? Listing stops at the first one. Its work
        is counted on its own (the native backend stops part way through a list a
        comprehension makes, where Python makes it whole): the decision's goes on after."""
        rt = self._rt
        work, rt.work = rt.work, 0
        try:
            self._listing(state, _FirstOnly())
        except _Found:
            return True
        finally:
            rt.work = work
        return False

    def _stuck_on_no_ops(self, state: State, phase: CompiledPhase,
                         legal: list[Action]) -> NoReturn:
        names = sorted({phase.actions[index].name for index, _ in legal})
        raise error_at(GdlRuntimeError, "run-time error: "
                       f"{self.seats[self.current_player(state)]} can only play "
                       f"{' or '.join(repr(n) for n in names)} in phase '{phase.name}', and "
                       f"{'its body is' if len(names) == 1 else 'their bodies are'} empty: "
                       "every choice leaves the position as it was, so the game can never go "
                       "on (give the action something to do, e.g. 'goto PHASE for next(me)')",
                       phase.span)

    def action_text(self, state: State, action: Action, viewer: int | None = None) -> str:
        """The action's text; for a `viewer` seat, pieces hidden from it read "?"."""
        index, args = action
        compiled = self._phase_of(state).actions[index]
        with self._rt.bound(state) as rt:
            return " ".join([compiled.name] + [
                "?" if t == PIECE and viewer is not None and self._hidden_from(state, v, viewer)
                else self._argument_text(state, v, t, by_cell, rt)
                for v, t, by_cell in zip(args, compiled.arg_types, compiled.by_cell)])

    def _argument_text(self, state: State, value: Any, t: Type, by_cell: bool,
                       rt: Runtime) -> str:
        """An argument as an action's text writes it: a piece `by cell` by the cell it
        stands on (by its label when it is on none), anything else as its type writes it."""
        if by_cell and value is not None:
            cell = state.pieces[value]["cell"]
            if cell is not None:
                return format_value(cell, CELL, rt)
        return format_value(value, t, rt)

    def _texts(self, state: State,
               action: Action) -> tuple[str] | tuple[str, tuple[str, ...]]:
        """(the action's text, and when the game hides pieces, its text as each seat may
        see it): what an event that shows a played action carries (`events.Played`)."""
        text = self.action_text(state, action)
        if not self._hides_pieces:
            return (text,)
        return (text, tuple(self.action_text(state, action, viewer)
                            for viewer in range(len(self.seats))))

    def _unseen_by(self, state: State, pid: int, viewer: int) -> bool:
        """Does the `visible to` of its kinds table keep living piece `pid` out of seat
        `viewer`'s sight altogether?"""
        piece = state.pieces[pid]
        rule = self._sights.get(piece["kind"])
        if rule is None or not piece["alive"]:
            return False
        return not self._run(state, lambda st: bool(rule(st, viewer, viewer, piece["owner"],
                                                         pid)), check_end=False)

    def _hidden_from(self, state: State, pid: int, viewer: int) -> bool:
        """Does the `hide piece` rule, the zone the piece is in, or its kind's `visible to`
        keep piece `pid` from seat `viewer`?"""
        rule = self._shows.get("hide piece")
        piece = state.pieces[pid]
        if not piece["alive"]:
            return False
        if self._unseen_by(state, pid, viewer):
            return True
        zone = piece.get("zone")
        if zone is not None and zone[0] in self._zone_rules:
            zone_rule = self._zone_rules[zone[0]]
            if not self._run(state, lambda st: bool(zone_rule(st, viewer, viewer, zone[1])),
                             check_end=False):
                return True
        if rule is None:
            return False
        return self._run(state, lambda st: bool(rule(st, viewer, pid, viewer)),
                         check_end=False)

    def parse_action(self, state: State, text: str, as_seat: bool = True) -> Action:
        """The legal action whose text is `text` (case and spacing ignored), else an
        IllegalAction that says why. Read as the deciding seat reads the actions, unless
        `as_seat` is false: then as the full texts read (a transcript, written by a tool
        that saw everything, names pieces the deciding seat may not see)."""
        typed = " ".join(text.split())
        wanted = typed.lower()
        legal = self.legal_actions(state)
        # As the deciding seat reads them: a piece hidden from it is '?', so typing a hidden
        # piece's label finds nothing, as a label of no piece does.
        viewer = self.current_player(state) if self._hides_pieces and as_seat else None
        if viewer is not None and viewer < 0:
            viewer = None
        texts = [self.action_text(state, action, viewer) for action in legal]
        for text_of, action in zip(texts, legal):       # exact spelling first
            if text_of == typed:
                return action
        for text_of, action in zip(texts, legal):
            if text_of.lower() == wanted:
                return action
        read = self._read_typed(state, wanted)      # the same values written another way
        if read is not None:
            for action in legal:
                if action[0] == read[0] and list(action[1]) == read[1]:
                    return action
        raise self._refusal(state, typed)

    def _read_typed(self, state: State, wanted: str) -> tuple[int, list[Any]] | None:
        """(action index, argument values) of a typed text, or None when it does not read."""
        phase = self._phase_of(state) if state.frames else None
        words = wanted.split()
        compiled = next((a for a in phase.actions if a.name == words[0]), None) if (
            phase and words) else None
        if compiled is None:
            return None
        try:
            return compiled.index, self._parse_args(state, compiled, words[1:])
        except IllegalAction:
            return None

    @staticmethod
    def _argument_words(compiled: CompiledAction, words: list[str]) -> list[str]:
        """The words of each argument: a placement, the last argument, takes the rest."""
        types = compiled.arg_types
        if types and types[-1] == PLACEMENT and len(words) >= len(types):
            return words[:len(types) - 1] + [" ".join(words[len(types) - 1:])]
        return words

    def _refusal(self, state: State, typed: str) -> IllegalAction:
        """The IllegalAction for a typed text that is no legal action. A text that is no
        action of the game (checked against the current phase, else any phase with an
        action of that name) is `malformed`; a well-formed one names the rule refusing it.
        A word of `typed` that the message quotes is `shortened` (a caller may have been given
        a line of thousands of characters)."""
        words = typed.split()
        if not words:
            return IllegalAction("empty input", malformed=True)
        name = words[0].lower()
        phase = self._phase_of(state) if state.frames else None
        here = [a for a in phase.actions if a.name == name] if phase else []
        named = here or [a for p in self._phases.values() for a in p.actions if a.name == name]
        if not named:
            where = f" in phase '{phase.name}'; actions here: " + ", ".join(
                a.name for a in phase.actions) if phase else ""
            return IllegalAction(f"there is no action '{shortened(words[0])}'{where}"
                                 + self._not_a_name(state, words[0]),
                                 unknown=(words[0], "action"))
        compiled = next((a for a in named if len(self._argument_words(a, words[1:]))
                         == len(a.arg_types)), named[0])
        try:
            args = self._parse_args(state, compiled, words[1:])
        except IllegalAction as exc:
            if compiled not in here or len(self._argument_words(compiled, words[1:])) \
                    == len(compiled.arg_types):
                raise
            raise IllegalAction(exc.message + self._legal_now(state, compiled),
                                malformed=True) from None
        if self.current_player(state) == TERMINAL:
            message = "the game is over"
        elif not here:
            assert phase is not None        # with no phase the game is over (above)
            message = (f"there is no action '{shortened(words[0])}' in phase '{phase.name}'; "
                       f"actions here: {', '.join(a.name for a in phase.actions)}")
        else:
            message = self._run(state, lambda st: self._failed_condition(st, compiled, args),
                                check_end=False)
        # A word that is no symbol or kind of the rules is refused by the domain, as the
        # message says; it is still no action of the game.
        return IllegalAction(message, unknown=self._stray(compiled, words[1:], args))

    def _stray(self, compiled: CompiledAction, words: list[str],
               args: list[Any]) -> tuple[str, Type] | None:
        """(the word as typed, its type) of the first argument read as a symbol or kind
        that is no symbol or kind of the rules (`_parse_value` leaves such a word for the
        domain to refuse); `words`: the text after the action's name, `args` read from it."""
        typed = self._argument_words(compiled, words)
        return next(((word, t) for word, value, t in zip(typed, args, compiled.arg_types)
                     if t in (SYMBOL, KIND) and value not in self._symbols
                     and value not in self._kinds), None)

    def _not_a_name(self, state: State, word: str) -> str:
        """For a first word that is a piece or a cell of the game rather than an action's
        name: a sentence saying so, with an action of this phase that takes one (else "")."""
        pid = self._parse_value(state, word.lower(), PIECE)
        cell = self._board.parse(word.lower())
        word = shortened(word)      # as the sentence quotes it
        if pid is not _NOTHING:
            what, t = "a piece", PIECE
            owner, seat = state.pieces[pid]["owner"], self.current_player(state)
            if owner is not None and owner != seat and seat != TERMINAL and not any(
                    pid in args for _, args in self.legal_actions(state)):
                return (f" ('{word}' is {self.seats[owner]}'s piece, and no action "
                        f"{self.seats[seat]} may play now takes it)")
        elif cell is not None:
            what, t = "a cell", CELL
        else:
            return ""
        phase = self._phase_of(state) if state.frames else None
        taking = next((a for a in phase.actions if t in a.arg_types), None) if phase else None
        if taking is None:
            return f" ('{word}' is {what}, and no action here takes one)"
        example = " ".join([taking.name] + [
            word if i == taking.arg_types.index(t) else name.upper()
            for i, (name, _) in enumerate(taking.binders)])
        return f" ('{word}' is {what}: the action's name comes first, as in '{example}')"

    def _legal_now(self, state: State, compiled: CompiledAction) -> str:
        """How many of `compiled`'s actions are legal now, and one of them as an example
        (the deciding seat's own list: nothing it may not see)."""
        if self.current_player(state) == TERMINAL:
            return ""
        legal = [a for a in self.legal_actions(state) if a[0] == compiled.index]
        if not legal:
            return f"; no '{compiled.name}' is legal now"
        example = self.action_text(state, legal[0], self.current_player(state))
        return f"; {len(legal)} legal now, e.g. '{example}'"

    def _parse_args(self, state: State, compiled: CompiledAction, words: list[str],
                    viewer: int | None = None) -> list[Any]:
        """The argument values of `words` (the text after the action's name); a malformed
        IllegalAction when their number or one of them is wrong. A piece label reads as
        `viewer` may read it (None: the deciding seat; -1: every piece reads)."""
        types = compiled.arg_types
        words = self._argument_words(compiled, words)
        if len(words) != len(types):
            names = ", ".join(name for name, _ in compiled.binders)
            raise IllegalAction(f"'{compiled.name}' takes {counted(len(types), 'argument')}"
                                f"{f' ({names})' if names else ''}, not {len(words)}",
                                malformed=True)
        values = []
        for word, t, by_cell in zip(words, types, compiled.by_cell):
            value = self._parse_value(state, word.lower(), t, viewer)
            if by_cell and value is _NOTHING:
                value = self._piece_on(state, word, viewer)
            if value is _NOTHING:
                raise IllegalAction(f"'{shortened(word)}' is not {describe(t)}",
                                    unknown=(word, t))
            values.append(value)
        return values

    def _piece_on(self, state: State, word: str, viewer: int | None) -> Any:
        """The piece a `by cell` argument's word names: the piece on that cell that `viewer`
        may see (as `_parse_value` reads a label); _NOTHING for a word that is no cell, and
        a refusal (well formed) for a cell with no such piece on it."""
        cell = self._board.parse(word.lower())
        if cell is None:
            return _NOTHING
        if viewer is None:
            viewer = self.current_player(state) if self._hides_pieces else -1
        for pid in state.at.get(cell, ()):
            if viewer < 0 or not self._hidden_from(state, pid, viewer):
                return pid
        raise IllegalAction(f"there is no piece on {shortened(word)}")

    def _parse_value(self, state: State, word: str, t: Type, viewer: int | None = None) -> Any:
        if t == CELL:
            cell = self._board.parse(word)
            return _NOTHING if cell is None else cell
        if t == PIECE:
            if not self._hides_pieces:
                viewer = -1
            elif viewer is None:
                viewer = self.current_player(state)
            for pid, piece in state.pieces.items():
                if piece["label"].lower() == word:
                    if viewer >= 0 and self._hidden_from(state, pid, viewer):
                        return _NOTHING     # told as of a label that names no piece
                    return pid
            return _NOTHING
        if t == SEAT:
            lowered = [s.lower() for s in self.seats]
            return lowered.index(word) if word in lowered else _NOTHING
        if t == INT:
            try:
                return int(word)
            except ValueError:
                return _NOTHING
        if t == DIR:
            names = self._board.direction_names
            return names.index(word) if word in names else _NOTHING
        if t == PLACEMENT:
            found = parse_placement(word.split(), sorted(self._symbols))
            return _NOTHING if found is None else found
        for name in list(self._symbols) + list(self._kinds):
            if name.lower() == word:
                return name
        return word     # refused by the action's domain (a symbol or kind it does not know)

    def _failed_condition(self, state: State, compiled: CompiledAction,
                          args: list[Any]) -> str:
        """Name the first rule that forbids an action whose arguments were well formed."""
        for kind, index, test in self._tests(state, compiled, args):
            if kind == "domain":
                if args[index] not in list(test()):
                    name, source = compiled.binders[index]
                    text = self._argument_text(state, args[index], compiled.arg_types[index],
                                               compiled.by_cell[index], self._rt)
                    return f"{shortened(text)} is not a possible '{name}' now (not in {source})"
            elif not test():
                return f"the rule '{compiled.parts[index][0]}' does not hold"
        return "not a legal action now"

    def _tests(self, state: State, compiled: CompiledAction,
               args: list[Any]) -> list[tuple[str, int, Callable[[], Any]]]:
        """The tests that decide whether `compiled` with `args` is legal, in the order a
        listing makes them: binder by binder, each where-part as soon as the binders it
        reads are bound (so it can guard the domains after it). Each is ("domain", binder
        index, test) or ("part", where-part index, test); `test()` gives the domain's
        values or the part's truth, with the binders before it bound to `args`."""
        seat = self.current_player(state)
        frame_args = state.frames[-1]["args"]
        tests: list[tuple[str, int, Callable[[], Any]]] = []
        for level in range(len(args) + 1):
            unbound = [None] * (len(args) - level)
            if level > 0:
                before = [*args[:level - 1], None, *unbound]
                tests.append(("domain", level - 1, functools.partial(
                    compiled.domains[level - 1], state, seat, *frame_args, *before)))
            for index, (_, cond, part_level) in enumerate(compiled.parts):
                if part_level == level:
                    tests.append(("part", index, functools.partial(
                        cond, state, seat, *frame_args, *args[:level], *unbound)))
        return tests

    def _typed_core(self, state: State) -> Any | None:
        """The typed engine's core holding `state` (None: the Python engine plays it)."""
        if state.__class__ is not TypedState:
            return None
        return state._core or typed.core_of(state)

    def _search_position(self, state: State) -> tuple[Game, State]:
        """The game and position an agent searches from `state`: on a game moved to Python
        for narration (native asked, `new_state`), the same game on the typed engine (made
        once) and a copy of the position there, so searches and rollouts run at native
        speed with the same choices; else this game and `state` itself (also when the typed
        engine cannot hold the position: `typed.adopted`)."""
        if not self._native_asked or state.__class__ is not State:
            return self, state
        twin = self._twin
        if twin is None:
            twin = self._twin = Game(self._program, self.path, self.source_hash, "native")
            if twin._typed is None:         # it no longer compiles: search on Python
                self._native_asked = False
                return self, state
        copy = typed.adopted(twin._typed, state)
        return (self, state) if copy is None else (twin, copy)

    def _random_rollout(self, state: State, stream: list[int], decisions: int) -> bool:
        """Play up to `decisions` uniformly random choices from `state` (fewer if the game
        ends), every seat drawing from the one SplitMix64 state `stream[0]` (updated) as
        `Stream.below` does, in one call to the typed engine's core or in `_loop_playout`:
        True. False when a position with no legal action stops it (the caller goes on from
        there)."""
        core = self._typed_core(state)
        if core is None:        # the Python engine's loop, drawing as the typed core does
            found, _ = self._loop_playout(state, stream, None, state.decisions + decisions,
                                          shared=True)
            return found != "stuck"
        how: int = core.random_playout(stream, -1, -1, decisions, True)[0]
        return how != 3

    def _random_playout(self, state: State, rngs: list[int], max_turns: int | None,
                       max_decisions: int | None) -> tuple[str, int | None]:
        """Play `state` on with uniformly random choices, seat s drawing from the
        SplitMix64 state `rngs[s]` (updated) exactly as a `RandomAgent` does, so the game is
        the one `run_game` plays with such agents: in one call to the typed engine's core,
        else in `_loop_playout`. Returns (how it stopped: "finished", "capped" by a cap or
        "stuck" with no legal action; the seat that played first: the one to play when
        turn 1 started, else the first to decide)."""
        core = self._typed_core(state)
        if core is None:
            return self._loop_playout(state, rngs, max_turns, max_decisions)
        how, first_turn, first_decider = core.random_playout(
            rngs, -1 if max_turns is None else max_turns,
            -1 if max_decisions is None else max_decisions)
        first = first_turn if first_turn >= 0 else first_decider
        return ("finished", "capped", "capped", "stuck")[how], None if first < 0 else first

    def _loop_playout(self, state: State, rngs: list[int], max_turns: int | None,
                      max_decisions: int | None,
                      shared: bool = False) -> tuple[str, int | None]:
        """`_random_playout` on the Python engine: `playing.run_game`'s loop with random
        agents, written out without the agents' and the observer's calls (the same caps,
        choices and faults, so the same games and records); `shared`: every seat draws
        from `rngs[0]` (`_random_rollout`)."""
        first_turn = first_decider = None
        last_turn = None
        current_player, legal_actions, apply = self.current_player, self.legal_actions, \
            self.apply
        how = "finished"
        rt, phases, plain = self._rt, self._phases, self._plain_phases
        has_turns, end_mask, autos = self._has_turns, self._end_mask, self._autos
        frames = state.frames
        previous, rt.state = rt.state, state
        narrated, rt.narrate = rt.narrate, state.narrate
        try:
            while state.result is None:
                if state.turn != last_turn:
                    last_turn = state.turn
                    if max_turns is not None and state.turn > max_turns:
                        how = "capped"
                        break
                    if state.turn >= 1 and first_turn is None:
                        first_turn = state.current
                if max_decisions is not None and state.decisions >= max_decisions:
                    how = "capped"
                    break
                frame = frames[-1] if frames else None
                # a plain phase's decision: listed and played here (`_listing`, `_play`,
                # written out: no frames of theirs, and rt.state set once for the playout)
                fast = frame is not None and frame["pending"] is None and \
                    frame["phase"] in plain
                if fast:
                    assert frame is not None
                    phase, seat, args = phases[frame["phase"]], frame["seat"], frame["args"]
                    rt.work = 0
                    legal: list[Action] = []
                    try:
                        if args:
                            for listing in phase.listings:
                                listing(state, seat, *args, legal)
                        else:       # a plain call: far cheaper than a call with a *
                            for listing in phase.listings:
                                listing(state, seat, legal)
                    except LISTING_FAULTS as exc:
                        raise self._fault(exc) from None
                else:
                    seat = current_player(state)
                    legal = legal_actions(state)
                if not legal:
                    how = "stuck"
                    break
                # agents.RandomAgent.choose: SplitMix64 from the seat's own state (shared:
                # every seat's from rngs[0], as an mcts rollout draws)
                r = 0 if shared else seat
                rngs[r] = z = (rngs[r] + 0x9E3779B97F4A7C15) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                if first_decider is None:
                    first_decider = seat
                action = legal[((z ^ (z >> 31)) * len(legal)) >> 64]
                if not fast:
                    apply(state, action, False)
                    frames = state.frames
                    continue
                index, chosen = action
                state.events = []
                rt.work = 0
                state.decisions += 1
                rt.changed = 0
                rt.entries = 0
                body = phase.bodies[index]
                try:
                    if args:
                        body(state, seat, *args, *chosen)
                    elif len(chosen) == 2:  # plain calls: far cheaper than with a *
                        body(state, seat, chosen[0], chosen[1])
                    elif len(chosen) == 1:
                        body(state, seat, chosen[0])
                    else:
                        body(state, seat, *chosen)
                    if state.result is None and (state.turn > 0 or not has_turns) and \
                            (rt.changed & end_mask or end_mask == -1
                             or not state.end_checked):     # `_end_if_due`
                        self._check_end(state)
                except RULE_FAULTS as exc:
                    raise self._fault(exc) from None
                if autos:
                    self._auto(state)
                frames = state.frames
        finally:
            rt.state, rt.narrate = previous, narrated
        return how, first_turn if first_turn is not None else first_decider

    # ----- acting ---------------------------------------------------------------------------
    def apply(self, state: State, action: Action, check: bool = True) -> list[events.Event]:
        """Play one decision and return its events. With `check`, an action that is not
        among the legal actions is refused (IllegalAction); drivers that took the action
        from `legal_actions` themselves pass check=False and skip listing them again."""
        if check and tuple(action) not in self.legal_actions(state):
            raise IllegalAction(f"{action!r} is not a legal action now")
        if state.__class__ is TypedState:
            core = state._core or typed.core_of(state)
            if core is not None:
                state.events = []
                return core.apply(action, state.events)  # type: ignore[no-any-return]
        state.events = []
        self._rt.work = 0
        state.decisions += 1        # counted first: `decision_number` is this decision's
        frames = state.frames
        if frames and state.result is None and frames[-1]["pending"] is None:
            self._play(state, frames[-1], action)       # the common case, written out
        else:
            self._run(state, self._apply_run, action)
        if self._autos:
            self._auto(state)
        return state.events

    def _auto(self, state: State) -> None:
        """In an `auto` phase, play the only legal action of the deciding seat, again and
        again, each with an `auto` event; for a deciding seat with no legal action, run its
        phase's `on no action` block (`passes` counts them); a bounded number of times per
        decision."""
        self._rt.passes = 0
        if state.result is not None or not state.frames:
            return
        first = self._phases[state.frames[-1]["phase"]]
        if not first.auto and first.on_no_action is None:
            return
        for _ in range(MAX_AUTO + 1):
            if state.result is not None or not state.frames:
                return
            frame = state.frames[-1]
            if frame["pending"] is not None:
                return
            phase = self._phases[frame["phase"]]
            if not phase.auto and phase.on_no_action is None:
                return
            if not phase.auto:      # only `on no action` may play: is anything legal?
                if self._has_action(state):
                    return
                legal = []
            else:
                legal = self._listing(state)
            if legal and (len(legal) != 1 or not phase.auto):
                return
            if not legal and phase.on_no_action is None:
                return
            if _ == MAX_AUTO:
                break
            if legal:
                state.events.append(events.Auto(frame["seat"], *self._texts(state, legal[0])))
                self._run(state, self._apply_run, legal[0])
            else:
                self._rt.passes += 1
                hook = phase.on_no_action
                assert hook is not None         # a phase without one returned above
                self._run(state, lambda st: hook(st, frame["seat"], *frame["args"]))
        name = state.frames[-1]["phase"]
        what = (f"ran 'on no action' more than {MAX_AUTO:,} times" if not self._listing(state)
                else f"played more than {MAX_AUTO:,} actions on its own ('auto')")
        raise error_at(GdlRuntimeError, f"run-time error: phase '{name}' {what} after one "
                       "decision", self._program.phases[name].span)

    def _apply_run(self, state: State, action: Action) -> None:
        frames = state.frames
        if state.result is not None or not frames:
            raise IllegalAction("the game is over")
        frame = frames[-1]
        if frame["pending"] is None:
            index, args = action
            self._phases[frame["phase"]].bodies[index](state, frame["seat"], *frame["args"],
                                                       *args)
            return
        seat = self.current_player(state)
        frame["pending"][seat] = [action[0], list(action[1])]
        self._reveal_if_complete(state)

    def _reveal_if_complete(self, state: State) -> None:
        """Once every live seat of a simultaneous phase has chosen: apply the choices in
        seat order, then the phase's `on reveal`. A choice that leaves the phase (or ends
        the game) ends the reveal there."""
        frame = state.frames[-1] if state.frames else None
        if frame is None or frame["pending"] is None or any(
                choice is None and not state.out[s] for s, choice in
                enumerate(frame["pending"])):
            return
        phase = self._phases[frame["phase"]]
        choices = frame["pending"]
        for chooser, choice in enumerate(choices):      # every choice is public from now on
            if choice is not None and not state.out[chooser]:
                state.events.append(events.Reveal(chooser, *self._texts(
                    state, (choice[0], tuple(choice[1])))))
        frame["pending"] = [None] * len(state.out)
        for chooser, choice in enumerate(choices):
            if choice is not None and not state.out[chooser]:
                self._run_action(phase, frame, chooser, (choice[0], tuple(choice[1])))
                if state.result is not None or not state.frames or state.frames[-1] is not frame:
                    return
        phase.on_reveal(state, frame["seat"], *frame["args"])

    def _run_action(self, phase: CompiledPhase, frame: Frame, seat: int,
                    action: Action) -> None:
        index, args = action
        phase.actions[index].body(self._rt.state, seat, *frame["args"], *args)

    def concede(self, state: State, seat: int) -> list[events.Event]:
        """A seat gives up at any time: it is out of the game. Returns the events (what
        its `on concede` and `on out` hooks did), as `apply` does."""
        state.events = []
        self._rt.work = 0

        def leave(state: State) -> None:
            if state.result is None and not state.out[seat]:
                for hook in self._concede_hooks:     # what giving up does, by the rules
                    hook(state, seat, seat)
            self._rt.eliminate(seat)
            self._reveal_if_complete(state)     # it may have been the last to choose
        self._run(state, leave)
        self._auto(state)
        return state.events

    def _evaluate(self, state: State, function: Function, *args: Any) -> Any:
        """Run a generated function (a scenario's expression, say) on `state`, with rule
        faults reported at their rule-file place."""
        return self._run(state, lambda st: function(st, *args), check_end=False)

    # ----- views ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        """What `seat` may see of `state`, as plain data (None = every seat's view)."""
        from .view import make_view
        return self._run(state, lambda st: make_view(self, st, seat), check_end=False)


def _namespace(game: Game, lines: codegen.Source) -> dict[str, Any]:
    """The module globals generated code runs with."""
    from ..language.builtins import (UNSET, as_set, in_numbers, last, nth, placed,
                                     placed_borrowed, extreme, sorted_by)
    rt = game._rt
    names: dict[str, Any] = codegen.builtin_names()
    names.update(_last=last, _nth=nth, _in_numbers=in_numbers, _zone=_zone, _Log=events.Log,
                 _placed=placed,
                 _placed_borrowed=placed_borrowed, _extreme=extreme)
    names.update(rt=rt, StopMove=StopMove, _UNSET=UNSET, _sorted_by=sorted_by,
                 _as_set=as_set, _plain=plain, _divide=_divide, _modulo=_modulo, _join=_join,
                 _in=_in, _same=_same, _in_lists=_in_lists, _same_text=_same_text,
                 _in_text=_in_text, _big=_big, _wide=_wide,
                 _sum=summed, _long=_long, _keep=_keep,
                 _row=_row,
                 _EMPTY=([], ()),       # `xs in _EMPTY`: xs is empty (never true of none)
                 _w=_counter(rt), _connected=_connector(rt),
                 _text=lambda value, t: _written(value, t, rt))
    for name, constant in lines.constants.items():
        kind, value = constant
        if kind is ConstKind.RAY_TABLE:
            names[name] = game._board.ray_table(*value)
        elif kind is ConstKind.BOARD_TABLE:
            names[name] = game._board.table(*value)
        elif kind is ConstKind.KEPT:
            names[name] = [None] * value[1]
        elif kind is ConstKind.KIND_COLUMN:     # keyed by the kinds' names, interned
            names[name] = {sys.intern(k): v for k, v in value.items()}    # (a piece's kind)
        else:
            names[name] = value
    return names


def _row(kept: list[Any], index: int, width: int) -> list[Action | None]:
    """The row of an action's kept tuples at `index` of its list, made empty on first
    use (the generated listing's `_row`: `Generator.kept`); returns it."""
    if index < 0:
        raise IndexError(index)
    row = kept[index] = [None] * width
    return row


def _keep(kept: list[Any], index: int, action: Action) -> Action:
    """Keep an action's tuple at its place in its action's list of kept tuples (the
    generated listing's `_keep`); returns it."""
    kept[index] = action
    return action


# What a rule's code may raise that `Game._fault` turns into the user's error at the rule.
RULE_FAULTS = (RuleFault, RecursionError, StopMove, KeyError, TypeError, IndexError,
               AttributeError, ValueError)
# What a listing's fault may be (no trigger runs there, so no StopMove)
LISTING_FAULTS = (RuleFault, RecursionError, KeyError, TypeError, IndexError, AttributeError,
                  ValueError)


def _without(pids: tuple[int, ...], pid: int) -> tuple[int, ...]:
    """`pids` (an index of living pieces, each once) without `pid`."""
    try:
        i = pids.index(pid)
    except ValueError:
        return pids
    return pids[:i] + pids[i + 1:]


_MASK64 = (1 << 64) - 1         # SplitMix64's arithmetic (`Game._loop_playout`)
_LOADED = itertools.count(1)    # tools' expression modules compiled in this process


def _union(masks: Iterable[int]) -> int:
    """The state categories any of `masks` reads."""
    found = 0
    for mask in masks:
        found |= mask
    return found


def _rule_name(program: program.Program, key: UnitKey) -> str | None:
    """How narration names the rule of a generated function (None: not one that acts)."""
    what = key.kind
    if what == "setup":
        return "setup"
    if what == "act":
        return program.phases[key.name].actions[key.position].name
    if what == "def":
        return key.name
    if what in ("on_enter", "on_reveal", "on_resume"):
        return f"{what.replace('_', ' ')} {key.name}"
    return {"trigger": "on enter", "concede": "on concede", "out": "on out"}.get(what)


def _counter(rt: Runtime) -> Callable[[_Sized], _Sized]:
    """`_w(items)`: count a comprehension's items against the work of one decision and
    return them (a `for` loop counts them inline, codegen.emit_for)."""
    def counted_as_work(items: _Sized) -> _Sized:
        rt.work += len(items)
        if rt.work > MAX_WORK:
            rt.overworked()
        return items
    return counted_as_work


def _connector(rt: Runtime) -> Callable[..., list[Any]]:
    """`_connected(starts, test, step)`, `connected(x in STARTS where TEST: STEP)`: the
    starts that pass the test, then breadth first every value one step on from a value
    found (`step(x)`) that passes it, each once, in the order found. Every value a step
    gives counts as work."""
    def connected(starts: Iterable[Any], test: Callable[[Any], Any] | None,
                  step: Callable[[Any], Sequence[Any] | None]) -> list[Any]:
        found: list[Any] = []
        seen: set[Any] = set()
        for value in starts:
            if value not in seen and (test is None or test(value)):
                seen.add(value)
                found.append(value)
        at = 0
        while at < len(found):
            following = step(found[at])
            at += 1
            if following is None:
                raise RuleFault("connected(...: NEXT) was given no list (it is none)")
            rt.work += len(following)
            if rt.work > MAX_WORK:
                rt.overworked()
            for value in following:
                if value not in seen:
                    seen.add(value)
                    if test is None or test(value):
                        found.append(value)
        return found
    return connected


def _zone(piece: Piece | None) -> str | None:
    """The zone a piece record is in, or None (not the record of a piece: a fault)."""
    if piece is None:
        raise KeyError(None)
    where = piece.get("zone")
    return None if where is None else where[0]


def _divide(a: int, b: int) -> int:
    if b == 0:
        raise RuleFault("division by zero")
    return a // b


class _Found(Exception):
    """A listing found an action (`Game._has_action`): no RuleFault, so nothing catches it."""


class _FirstOnly(list):  # type: ignore[type-arg]
    """A listing's output that stops the listing at its first action."""

    def append(self, item: object) -> None:
        raise _Found


def _big(value: int) -> int:
    """A number a rule computed, within limits.MAX_NUMBER (else a fault at that rule)."""
    if -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    raise RuleFault(number_too_big(value, True))


def _wide(value: int) -> int:
    """A sum, difference or multiple a rule computed that could pass limits.MAX_SUM (the
    generator writes it where `magnitude` cannot rule that out): within it, or a fault."""
    if -MAX_SUM <= value <= MAX_SUM:
        return value
    raise RuleFault(number_too_big(value, False))


def _long(rt: Runtime, text: str) -> str:
    """A text a rule joined, within limits.MAX_TEXT characters (else a fault there), its
    characters counted as work (`builtins.written`)."""
    if len(text) <= MAX_TEXT:
        return written(rt, text)
    raise RuleFault(text_too_long(len(text)))


def _written(value: Any, t: Type, rt: Runtime) -> str:
    """`text(x)`: `format_value`, a list's within MAX_TEXT characters, counted as it is
    written (a list of long texts, or of one list many times over, is refused before it
    takes the machine's memory), its elements and then its characters counted as work."""
    if value is None or not isinstance(t, tuple):
        return format_value(value, t, rt)
    read(rt, value, elements(value))
    parts: list[str] = []
    _write(value, t, rt, parts, [0])
    return written(rt, "".join(parts))


def _write(value: Any, t: Type, rt: Runtime, parts: list[str], used: list[int]) -> None:
    listed = value is not None and isinstance(t, tuple)
    part = "[" if listed else format_value(value, t, rt)
    # a list: its brackets and separators; else the value's text
    used[0] += 2 + 2 * max(len(value) - 1, 0) if listed else len(part)
    if used[0] > MAX_TEXT:
        raise RuleFault(f"text() of this list is more than {MAX_TEXT:,} characters: a text a "
                        "rule makes is at most that long")
    parts.append(part)
    if listed:
        for i, item in enumerate(value):
            if i:
                parts.append(", ")
            _write(item, t[1], rt, parts, used)
        parts.append("]")


def _join(rt: Runtime, a: Sequence[Any] | None, b: Sequence[Any] | None) -> list[Any]:
    """`a + b` of two lists: a new list, at most MAX_LIST long, its length counted as work
    (as a range() counts the list it makes: a join in a loop cannot fill the memory)."""
    if a is None or b is None:
        raise RuleFault("'+' cannot join a list with none")
    size = len(a) + len(b)
    if size > MAX_LIST:
        raise RuleFault(f"joining lists of {len(a)} and {len(b)} elements: a list holds at "
                        f"most {MAX_LIST:,}")
    rt.work += size
    if rt.work > MAX_WORK:
        rt.overworked()
    return [*a, *b]


def _same(rt: Runtime, a: Sequence[Any] | None, b: Sequence[Any] | None,
          texts: bool = False) -> bool:
    """`a == b` of two lists: of different lengths they differ at once; else both are read,
    their elements (and those of the lists in them; with `texts`, their characters too:
    `builtins.elements`) counted as work past FREE_SCAN (`builtins.read`), then compared, a
    constant (a tuple) equal to a list alike."""
    if a is None or b is None:
        return a is b
    if len(a) != len(b):
        return False
    read(rt, a, elements(a, texts) + elements(b, texts))
    return bool(plain(a) == plain(b))


def _in_lists(rt: Runtime, item: Sequence[Any] | None, items: Sequence[Any],
              texts: bool = False) -> bool:
    """`item in items` of a list in a list of lists: both read whole, their elements counted
    as work past FREE_SCAN (`_same`)."""
    read(rt, items, elements(item, texts) + elements(items, texts))
    return bool(plain(item) in plain(items))


def _same_text(rt: Runtime, a: str | None, b: str | None) -> bool:
    """`a == b` of two texts: of different lengths they differ at once; else their
    characters are compared, counted as work (`builtins.written`: a short text costs
    nothing)."""
    if a is not None and b is not None and len(a) == len(b):
        written(rt, a)
    return a == b


def _in_text(rt: Runtime, item: str | None, items: Sequence[Any]) -> bool:
    """`item in items` of a text: a scan (`_in`) that may compare the text with each element,
    its characters counted each time (one step for every TEXT_STEP: a short text costs
    nothing more)."""
    found = _in(rt, item, items)
    if item is not None and len(item) >= TEXT_STEP:
        rt.spend(len(items) * (len(item) // TEXT_STEP))
    return found


def _in(rt: Runtime, item: Any, items: Sequence[Any]) -> bool:
    """`item in items` of a list (not a set): a scan, so a list longer than FREE_SCAN counts
    its length as work (a short one costs one `len`)."""
    if len(items) > FREE_SCAN:
        rt.work += len(items)
        if rt.work > MAX_WORK:
            rt.overworked()
    return item in items


def _modulo(a: int, b: int) -> int:
    if b == 0:
        raise RuleFault("modulo by zero")
    return a % b


def _word(value: object) -> str:
    return "none" if value is None else repr(value)


def _through_phases(exc: BaseException) -> bool:
    """Did a recursion go round through phases entered or resumed (rather than a fn)?"""
    entries = (Runtime.enter_phase.__code__, Runtime.resume.__code__)
    tb, count = exc.__traceback__, 0
    while tb is not None:
        count += tb.tb_frame.f_code in entries
        tb = tb.tb_next
    return count > 20


def _fault_words(exc: BaseException, node: program.Node | None) -> str:
    """A Python fault in the rules' code, in words."""
    none = (isinstance(exc, KeyError) and exc.args and exc.args[0] is None) or (
        isinstance(exc, TypeError) and "NoneType" in str(exc))
    if isinstance(node, program.CallBuiltin):
        what = "a value that is none" if none else "these values"
        return f"{node.name}() cannot work with {what}"
    # (a node found in the generated code always has a span: see codegen.Source.emit)
    text = node.span.text if node is not None and node.span is not None else ""
    if isinstance(node, (program.PieceField, program.PieceStat)) and none:
        # named by the piece's expression, as everywhere else (its span starts at the field's)
        piece = node.obj.span.text if node.obj.span is not None else text
        return f"'{piece}' is none here, not a piece"
    if isinstance(node, program.SeatVar) and none:
        return f"'{text}' reads a variable of no seat (the seat is none)"
    if none and isinstance(exc, KeyError) and text:
        return f"'{text}' is none here, not a piece"
    if none and text:
        return f"'{text}' uses a value that is none"
    if none:
        return "a value here is none"
    if isinstance(exc, IndexError):
        return "an index is out of range"
    return "this cannot be computed with these values"


class _Nothing:
    pass


_NOTHING = _Nothing()


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


# The generated code's operators written as functions here: a Python fault inside one (none
# divided) is the rules' fault, located at the operator's expression (`Game._rule_frame`).
_OPERATORS = frozenset(f.__code__ for f in (_divide, _modulo, _big, _wide, _long, _join, _in,
                                            _same, _in_lists, _same_text, _in_text))
