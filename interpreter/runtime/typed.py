"""Typed native engine: a rule file inside a subset of the language -> a Cython module whose
state is C arrays and whose engine (listing, apply, the end check) is compiled with it.

    unsupported(program) -> the first construct outside the subset, "FILE:LINE:COL: what",
                            or None
    outside_all(program) -> every construct outside it that a unit shows, in that form
    generate(program)    -> the module's Cython source (`typed_engine.pyx.in` filled in,
                            the rules appended)
    load(program)        -> the module's `Engine`, built through `native_cache` (or None,
                            and why)
    TypedState           -> the `State` the typed engine plays on

The subset is what the engine can hold in C integers: cells, pieces, seats, directions,
numbers, true/false and kinds are C `long`s (none is -1 for cells, pieces, seats and
directions); a list is never a value, only what a loop runs over (a constant list, a row of
a constant list of lists, `cells()`, `pieces_at(c)`, `pieces(s)`, `ray`, `column_cells`,
`range` of constants, a list written out, a comprehension, a fn that gives a list: each
written as a loop). Whole file or nothing: a file with anything else runs as before.

A `TypedState` is a `State` whose fields are properties: while the typed core (`_core`)
holds the position, reading any field (a view, a text, `to_json`, a tool) writes the
fields from the core and lets the core go; the next `legal_actions` or `apply` loads a
new core from the fields (`core_of`). The hot path (legal actions, apply, is_terminal,
current player, returns, clone) never makes a dictionary.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeGuard, TypeVar

import attrs

from . import native, native_cache, tables
from .typed_trim import trimmed
from .codegen import TOO_MANY_ACTIONS, _calling_themselves, _cheap, _impure_fns, _pure_in
from .state import ALL, State
from ..language import program as ir
from ..language.tree import Span
from ..language.errors import GdlRuntimeError, IllegalAction
from ..language.limits import (EVENT_WORK, FREE_SCAN, MAX_ACTIONS, MAX_AUTO, MAX_DEPTH,
                               MAX_DICE, MAX_ENTRIES, MAX_LIST, MAX_NUMBER, MAX_PIECES,
                               MAX_TEXT, MAX_WORK, TEXT_STEP)
from ..language.builtins import BUILTINS, short_texts
from ..language.types import (ANY, BOOL, CELL, DIR, INT, KIND, NONE, PIECE, PLACEMENT, SEAT, STR,
                              SYMBOL, Type, element as _element, holds_texts, is_list)

ENVIRONMENT = "GDL_TYPED"       # "0": the native backend plays no file typed
NULLABLE = (CELL, PIECE, SEAT, DIR, KIND, SYMBOL)     # none is -1
# a variable's type -> its name in the engine's tables (typed_engine.pyx.in: _to_py, _from_py)
VAR_TYPES: dict[Type, str] = {INT: "int", BOOL: "bool", CELL: "cell", PIECE: "piece",
                              SEAT: "seat", DIR: "dir", SYMBOL: "sym", KIND: "kind"}
SCALARS = (INT, BOOL, CELL, PIECE, SEAT, DIR, KIND, SYMBOL)
_LIMIT = 1 << 62
# connected() of cells keeps its arrays on the C stack (9 bytes a cell) up to this many
# cells: 200 fns deep (limits.MAX_DEPTH) each calling it, under 2 MB; a set beyond
_CONNECTED_CELLS = 1024
MAX_KEPT = 1 << 16      # at most this many kept action tuples per action (Emitter.action_maker)
KEPT_PIECES = 256       # pieces of ids below this have their action tuples kept
GEO_RAY_TABLE = 100_000  # the most numbers of a table of every ray written into a module
_LIST_OF_ANY: Type = ("list", ANY)
SMALL_NONE = -(1 << 62)     # a number or true/false that is none (Emitter.small_find_nones)


def enabled() -> bool:
    """Does the native backend play the files of the subset on the typed engine? Yes,
    unless $GDL_TYPED is 0."""
    return os.environ.get(ENVIRONMENT) != "0"


class _Outside(Exception):
    """A construct outside the subset: the node (for its place) and what it is."""

    def __init__(self, where: ir.Node | Span | None, what: str) -> None:
        super().__init__(what)
        self.span = where.span if isinstance(where, ir.Node) else where
        self.what = what


def unsupported(program: ir.Program) -> str | None:
    """The first construct of `program` outside the typed subset, as "FILE:LINE:COL: what"
    (None: the whole file is inside)."""
    try:
        _Emitter(program).module()
    except _Outside as exc:
        return _said(exc, program)
    return None


def outside_all(program: ir.Program) -> list[str]:
    """Every construct of `program` outside the typed subset, as `unsupported` says the
    first, which comes first; the others in the order of the file. The checks of the whole
    program come first, then each unit (an action's listing and body, setup, the end
    rules, the `on` blocks, the hooks) on its own, so a designer sees them all at once. A
    unit written after another stopped halfway may trip over what that one left; the list
    then ends with what was found."""
    emitter = _Emitter(program, collect=True)
    try:
        emitter.module()
    except Exception:       # a consequence of an earlier unit's stop (above), never the first
        if not emitter.outside:
            raise
    noted = emitter.outside or []
    others = sorted(noted[1:], key=lambda exc: (exc.span.line, exc.span.column)
                    if exc.span else (0, 0))
    return list(dict.fromkeys(_said(exc, program) for exc in noted[:1] + others))


def _said(exc: _Outside, program: ir.Program) -> str:
    span = exc.span or program.setup_span
    where = f"{span.file}:{span.line}:{span.column}: " if span is not None else ""
    return f"{where}{exc.what} is outside the typed subset"


def generate(program: ir.Program) -> str:
    """The Cython source of `program`'s typed engine (raises _Outside outside the subset)."""
    return _Emitter(program).module()


def load(program: ir.Program, endless: str,
         overworked: str) -> tuple[Any | None, str | None]:
    """(the typed engine of `program`, None), or (None, why not). `endless` and
    `overworked` are the engine's messages for phases entered without end and for too much
    work between two decisions."""
    reason = native.missing_tools()
    if reason is not None:
        return None, reason
    emitter = _Emitter(program)
    try:
        source = emitter.module()       # once: outside the subset raises at its first step
    except _Outside:
        return None, unsupported(program)
    files = tuple(emitter.files)
    module, reason = native_cache.module(source)
    if module is not None and module.FILES not in (None, files):
        # the same rules read from other paths earlier in this process (its faults name
        # those): a module of their own, whose text names its files
        module, reason = native_cache.module(f"{source}\n# the rules of {files!r}\n")
    if module is None:
        return None, reason
    module.bind_files(files)
    module.bind(_fault, _out_event(), IllegalAction, endless, overworked)
    from .events import Auto
    module.bind_control(Auto)
    module.bind_log(_log_event())
    from .events import Roll, Shuffle
    module.bind_chance(Roll, Shuffle, MAX_DICE, EVENT_WORK)
    from .events import Pick
    module.bind_hidden(Pick)
    from .events import Reveal
    from ..language.builtins import placement_work, placements, placed_borrowed
    from ..language.errors import RuleFault
    module.bind_simul(Reveal, placements, placed_borrowed, RuleFault, placement_work)
    return module.Engine(), None


def _out_event() -> Any:
    from .events import Out
    return Out


def _log_event() -> Any:
    from .events import Log
    return Log


def _fault(message: str, where: tuple[str, int, int, str | None] | None) -> GdlRuntimeError:
    if where is None:
        return GdlRuntimeError(f"run-time error: {message}")
    file, line, column, source_line = where
    return GdlRuntimeError(f"run-time error: {message}", file=file, line=line, column=column,
                           source_line=source_line)


# ----- the state ---------------------------------------------------------------------------

_CORE_FIELDS = ("globals", "seat_vars", "pieces", "numbers", "frames", "rng", "turn",
                "current", "timers", "out", "result", "decisions", "at", "owned", "zoned",
                "end_checked")
# Read from the core as they are, without writing the fields: numbers, and the result (a
# new dict each time; a game loop asks for it after every decision)
_SCALAR_FIELDS = ("rng", "turn", "current", "decisions")


def sizing(t: Type, texts: bool | None = None) -> int:
    """How typed_engine's `lists_size` counts the elements of a list of type `t` (as
    builtins.elements does): 2 a list of scalars (its length), 3 a list of such lists (their
    lengths), else 1 when texts may be in it (their characters count), 0 lists walked."""
    if is_list(t) and _element(t) in SCALARS:
        return 2
    if is_list(t) and is_list(_element(t)) and _element(_element(t)) in SCALARS:
        return 3
    return int(holds_texts(t) if texts is None else texts)


class TypedState(State):
    """A `State` played by the typed engine: `_core` holds the position (None: the fields
    do, after a tool read them), `_engine` makes cores."""

    __slots__ = ("_core", "_engine")
    _core: Any
    _engine: Any

    def clone(self) -> State:
        core = core_of(self)
        if core is None:
            return State.clone(self)
        return _typed_state(self._engine, core.copy(), self)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as the plain `State` of its JSON (the core is C memory)."""
        return State.from_json, (self.to_json(),)


def _typed_state(engine: Any, core: Any, like: State | None = None,
                 narrate: bool = False) -> TypedState:
    state = TypedState.__new__(TypedState)
    state._core = core
    state._engine = engine
    if like is None:
        state.forced, state.forced_picks, state.forced_shuffles = [], [], []
        state.narrate = narrate
    else:
        state.forced = [list(f) for f in like.forced]
        state.forced_picks = [list(f) for f in like.forced_picks]
        state.forced_shuffles = [list(f) for f in like.forced_shuffles]
        state.narrate = like.narrate
    state.events = []
    return state


def new_state(engine: Any, seed: int, narrate: bool = False,
              forced: tuple[list[list[Any]], list[list[Any]], list[list[int]]] | None = None
              ) -> TypedState:
    """The position after setup, on the typed engine; `forced`: engine.py `split_forced`'s
    (dice, picks, shuffles), used from the setup on (see `holds_forced`)."""
    events: list[Any] = []
    if forced is None:
        core = engine.new_core(seed, events)
        state = _typed_state(engine, core, narrate=narrate)
    else:
        dice, picks, shuffles = forced
        core = engine.hidden_new_core(seed, events, dice, shuffles, picks)
        state = _typed_state(engine, core, narrate=narrate)
        # the lists the core takes from (set on the core too: see _chance_field)
        state.forced, state.forced_picks, state.forced_shuffles = dice, picks, shuffles
    state.events = events
    return state


def adopted(engine: Any, state: State) -> TypedState | None:
    """A copy of the Python engine's `state` held by the typed engine `engine` (of the
    same rule file), without narration; None when the typed engine cannot hold it (see
    `core_of`)."""
    return taken(engine, state.clone())


def taken(engine: Any, state: State) -> TypedState | None:
    """`adopted` of a state no one else holds: its fields become the typed state's, not
    copied (`state` is not to be used afterwards)."""
    adopted = TypedState.__new__(TypedState)
    for name in State.__slots__:
        _STATE_SLOTS[name].__set__(adopted, _STATE_SLOTS[name].__get__(state, State))
    adopted._core = None
    adopted._engine = engine
    adopted.narrate = False
    adopted.events = []
    return adopted if core_of(adopted) is not None else None


def plain_copy(state: State) -> State:
    """A copy of `state` as the Python engine holds a position (for a typed state, its
    fields read from a copy of its core)."""
    copy = state.clone()
    if copy.__class__ is TypedState:
        assert isinstance(copy, TypedState)
        if copy._core is not None:
            _materialise(copy)
        return State.clone(copy)
    return copy


def patcher(state: State) -> Callable[[dict[int, Any], list[Any], list[Any], int],
                                      TypedState | None] | None:
    """For a state the typed engine holds: a function making a new typed state from a copy
    of its core (taken now) with a determinization's changes, `Core.patch(pieces,
    variables, moves)` and the random generator's state (None: the core cannot hold
    them). None when `state` is not held by a typed core."""
    core = core_of(state)
    if core is None:
        return None
    assert isinstance(state, TypedState)
    base, engine = core.copy(), state._engine

    def patched(pieces: dict[int, Any], variables: list[Any], moves: list[Any],
                rng: int) -> TypedState | None:
        core = base.copy()
        if not core.patch(pieces, variables, moves):
            return None
        core.rng = rng
        made = _typed_state(engine, core, state)
        made.narrate = False        # (as `taken`)
        return made
    return patched


def holds_forced(dice: list[list[Any]]) -> bool:
    """Can the typed engine use these forced dice (each [sides or None, a whole number
    below 2^62])? Else the Python engine plays the game."""
    return all(len(d) == 2 and (d[0] is None or d[0].__class__ is int)
               and d[1].__class__ is int and -_LIMIT < d[1] < _LIMIT for d in dice)


def core_of(state: State) -> Any | None:
    """The typed core of `state` (loaded from its fields when a tool read them), or None:
    not a typed state, or one holding what the typed engine cannot (the Python engine plays
    it)."""
    if state.__class__ is not TypedState:
        return None
    assert isinstance(state, TypedState)
    core = state._core
    if core is None:
        core = state._engine.core()
        fields = {name: _SLOTS[name].__get__(state, State) for name in _CORE_FIELDS}
        if fields["timers"] or not core.from_fields(
                fields["pieces"], fields["numbers"], fields["frames"], fields["at"],
                fields["out"], fields["result"], fields["globals"], fields["seat_vars"]):
            return None
        core.rng, core.turn = fields["rng"], fields["turn"]
        core.current, core.decisions = fields["current"], fields["decisions"]
        if not holds_forced(state.forced):
            return None
        core.chance_forced = state.forced
        core.chance_shuffles = state.forced_shuffles
        core.hidden_picks = state.forced_picks
        state._core = core
    return core


_SLOTS = {name: State.__dict__[name] for name in _CORE_FIELDS}
_STATE_SLOTS = {name: State.__dict__[name] for name in State.__slots__}


def _materialise(state: TypedState) -> None:
    """Write the fields from the core; the fields hold the position from now on."""
    core = state._core
    pieces, numbers, frames, at, owned, out, result, globals_, seat_vars = core.to_fields()
    values = {"globals": globals_, "seat_vars": seat_vars, "pieces": pieces,
              "numbers": numbers, "frames": frames, "rng": core.rng, "turn": core.turn,
              "current": core.current, "timers": [], "out": out, "result": result,
              "decisions": core.decisions, "at": at, "owned": owned,
              "zoned": core.hooks_zoned_field(),
              "end_checked": False}
    for name, value in values.items():
        _SLOTS[name].__set__(state, value)
    state._core = None


def _field(name: str) -> property:
    slot = _SLOTS[name]

    def get(state: TypedState) -> Any:
        core = state._core
        if core is not None:
            if name in _SCALAR_FIELDS:
                return getattr(core, name)
            if name == "result":
                return core.result()
            _materialise(state)
        return slot.__get__(state, State)

    def set_(state: TypedState, value: Any) -> None:
        core = state._core
        if core is not None:
            if name in _SCALAR_FIELDS and value.__class__ is int:   # a determinization's rng
                setattr(core, name, value)
                return
            _materialise(state)
        slot.__set__(state, value)
    return property(get, set_)


for _name in _CORE_FIELDS:
    setattr(TypedState, _name, _field(_name))

# The forced dice and shuffles: the core takes from the state's own lists (a scenario
# appends to them), so setting one on the state sets it on the core too.
_SLOTS_CHANCE = {name: State.__dict__[name] for name in ("forced", "forced_shuffles",
                                                          "forced_picks")}
_CORE_CHANCE = {"forced": "chance_forced", "forced_shuffles": "chance_shuffles",
                "forced_picks": "hidden_picks"}


def _chance_field(name: str) -> property:
    slot = _SLOTS_CHANCE[name]

    def get(state: TypedState) -> Any:
        return slot.__get__(state, State)

    def set_(state: TypedState, value: Any) -> None:
        slot.__set__(state, value)
        core = state._core
        if core is not None:
            setattr(core, _CORE_CHANCE[name], value)
    return property(get, set_)


for _name in _SLOTS_CHANCE:
    setattr(TypedState, _name, _chance_field(_name))


# ----- the generator -----------------------------------------------------------------------

class _Row:
    """A local bound to a row of a constant list of lists: the table and the row's C name."""

    def __init__(self, table: str, index: str) -> None:
        self.table = table
        self.index = index


class _Made:
    """A local bound to a list a `let` made (a Python list of C values): its C name."""

    def __init__(self, name: str, ctype: str = "list", type_: Type | None = None,
                 owned: bool = False) -> None:
        self.name = name
        self.ctype = ctype      # "str": a text local (a Python str)
        self.type = type_       # what it holds, when its `let` said less (lists_refined)
        self.owned = owned      # a list no other value shares: grown in place (lists_owned)


class _Slice:
    """A local a `let` bound to `ray(c, d, n)` (lists_slices): the first `count` cells of
    the board's ray table row `base` (C longs both), no list made; `item` is the C element
    with `{i}` for its index."""

    def __init__(self, base: str, count: str, item: str) -> None:
        self.base = base
        self.count = count
        self.item = item


Bound = str | _Row | _Made | _Slice
Env = dict[int, Bound]


_GLOBAL = "global"      # a _Body declaration: a module-level name the function assigns


class _Body:
    """One cdef function being written: its C declarations and its lines."""

    def __init__(self, head: str, stops: bool = False) -> None:
        self.head = head
        self.decls: dict[str, str] = {}
        self.lines: list[str] = []
        self.stops = stops      # an `on enter` trigger's body: `stop` returns 1
        self.listing = False    # an action's listing: the position does not change in it
        self.lists_returns: Type = INT     # a fn's block: the type its `return` gives
        self.hoist: _Hoist | None = None    # a listing's tests computed once (see _Hoist)

    def declare(self, name: str, ctype: str = "long") -> str:
        self.decls[name] = ctype
        return name

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def text(self) -> str:
        decls = [f"    global {name}" if ctype == _GLOBAL else f"    cdef {ctype} {name}"
                 for name, ctype in self.decls.items()]
        return "\n".join([self.head, *decls, *self.lines]) + "\n"


_TOLD = (ir.Log, ir.PlaceAt, ir.Move, ir.Put, ir.Give, ir.Change)
"""Statements that leave an event (when narrated, but for `log`): each counts
limits.EVENT_WORK steps (codegen `told`)."""


class _Hoist:
    """While writing one action's listing: the values its tests read that depend on outer
    binders only, computed once per binding of the innermost binder they read, on first use
    (the same values Python's listing keeps, `codegen._Memo.hoist`, so both count the same
    work). Each level's resets go at a mark, a line replaced when the listing is done."""

    def __init__(self, action: ir.Action, body: _Body) -> None:
        self.body = body
        self.level_slots = {b.slot: i + 1 for i, b in enumerate(action.binders)}
        self.level = 0              # the level of the part or domain being written
        self.inside: set[int] = set()   # slots its quantifiers bind
        self.marks: dict[int, str] = {}     # level -> the mark of its resets, as written now
        self.resets: dict[str, list[str]] = {}      # mark -> its reset lines
        self.names: dict[tuple[str, int], str] = {}     # (mark, node) -> its value's name
        self.envs: list[Env] = []   # the listing's own scopes (not an inlined fn's)
        # kept values read in a cdef function of their own (a quantifier's test, len()'s
        # list): module-level names, the listing's resets and the function both reach
        self.shared: dict[str, str] = {}    # name -> its C type

    def at(self, level: int, node: ir.Node | None) -> None:
        """Writing a part (or a domain) of `level` now."""
        self.level = level
        self.inside = set() if node is None else {
            n.slot for n in ir.walk(node) if isinstance(n, (ir.Quant, ir.Comprehension))}

    def open(self, level: int, indent: int) -> None:
        """A level's code starts here: its resets go on this line."""
        mark = f"#hoist {len(self.resets)}"
        self.marks[level] = mark
        self.resets[mark] = []
        self.body.emit(indent, mark)

    def declare(self, name: str, ctype: str, body: _Body) -> None:
        """`name` keeps a value for the listing; `body` reads it (the listing's own, or a
        cdef function written for a part of a test: then the name is module-level)."""
        self.body.declare(name, ctype)
        if body is not self.body:
            self.shared[name] = ctype
            body.declare(name, _GLOBAL)

    def finish(self) -> list[str]:
        """Write the resets at their marks; the module-level declarations of the shared
        names."""
        for name in self.shared:
            self.body.decls[name] = _GLOBAL
        lines = []
        for line in self.body.lines:
            mark = line.lstrip()
            if mark.startswith("#hoist "):
                indent = line[:len(line) - len(mark)]
                lines += [indent + reset for reset in self.resets[mark]]
            else:
                lines.append(line)
        self.body.lines = lines
        return [f"cdef {ctype} {name}" for name, ctype in self.shared.items()]


_BINDING = Callable[[Bound, int], None]
_T = TypeVar("_T")


class _Emitter:
    """Writes the typed engine of one program; raises _Outside at the first construct
    outside the subset."""

    def __init__(self, program: ir.Program, collect: bool = False) -> None:
        self.prog = program
        # collect: every construct outside the subset, unit by unit (`outside_all`), not
        # only the first; the module is then not written
        self.outside: list[_Outside] | None = [] if collect else None
        self.board = program.board
        self.nd = len(self.board.directions)
        self.kinds = list(program.kinds)
        self.symbols = sorted(program.symbols)     # a symbol is its index here
        self.phases = list(program.phases)
        self.functions: list[str] = []
        self.consts: list[str] = []
        self.const_ids: dict[Any, str] = {}
        self.locs: list[tuple[int, int, int, str | None]] = []
        self.files: list[str] = []      # the files the places of `locs` are in, by number
        self.count = 0
        self.impure = _impure_fns(program.fns)     # fns that roll dice (never kept: _Hoist)
        self.fns_done: set[str] = set()
        self.tabled = tables.tabled(program)    # fns answered from a table (tabled_fn)
        self.fill: list[str] = []               # `_fill_tables`'s lines
        self.inlining: list[str] = []
        self.recurse_cyclic: set[str] = set()     # fns and defs ("def NAME") calling themselves
        self.control: dict[str, str] = {}       # the template's tables of the phases
        # phase -> the types of its parameters (VAR_TYPES names), from the gotos into it
        self.param_types: dict[str, tuple[str, ...]] = {}
        # the `passes` a block reads: only an `on no action` block's own (engine.py keeps
        # it on the runtime, not in the state: anywhere else it is another state's count)
        self.lists_cache: tuple[dict[int, Type], dict[str, Type]] | None = None
        self.owned_cache: set[int] | None = None
        self.slices_cache: set[int] | None = None
        self.small_held: dict[str, Type] = {}   # a C local of type `any` -> what it holds
        # numbers and true/false that may be none (small_find_nones): a node read where
        # none faults -> (the node that reads it, the fault's message); nodes read as tests
        self.small_nones = False
        self.has_score = False      # `show score` compiled (hooks_score)
        self.small_guards: dict[int, tuple[ir.Node, str]] = {}
        self.small_tests: set[int] = set()
        self.small_skip: set[int] = set()
        self.simul_locals: dict[str, Type] = {}     # a `let` local of `any`: its type
        # a loop variable over range(1, n), n known: (the id of each Local reading it) -> n
        self.simul_ranges: dict[int, int] | None = None
        self.passes_ok = {id(n) for phase in program.phases.values()
                          for s in phase.on_no_action or () for n in ir.walk(s)
                          if isinstance(n, ir.StateValue) and n.what == "passes"}

    def unit(self, make: Callable[[], _T], instead: _T) -> _T:
        """`make()`, a unit of the module; when collecting, a unit outside the subset is
        noted and `instead` stands for it, so the next unit is written too."""
        if self.outside is None:
            return make()
        try:
            return make()
        except _Outside as exc:
            self.outside.append(exc)
            return instead

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def loc(self, node: ir.Node) -> int:
        span = node.span
        if span is None:
            return -1
        if span.file not in self.files:
            self.files.append(span.file)
        self.locs.append((self.files.index(span.file), span.line, span.column,
                          span.source_line))
        return len(self.locs) - 1

    # ----- the module --------------------------------------------------------------------
    def module(self) -> str:
        self.unit(self.check_program, None)
        if self.outside:
            return ""       # (the units build on what the program's checks refused)
        self.unit(self.fn_cycles, None)
        listing = _Body("cdef int _listing(Core S, list out) except -1:")
        act = _Body("cdef int _act(Core S, long index, object args) except -1:")
        simul_act = _Body("cdef int _simul_act(Core S, long me, long index, object args) "
                          "except -1:")
        for p, (name, phase) in enumerate(self.prog.phases.items()):
            if not phase.actions:       # (hidden: a phase its `on enter` always leaves)
                continue
            listing.emit(1, f"if S.phase == {p}:")
            act.emit(1, f"if S.phase == {p}:")
            simul = phase.mode == "simultaneous"    # the seat yet to choose lists
            if simul:
                simul_act.emit(1, f"if S.phase == {p}:")
            for action in phase.actions:
                listed = self.unit(functools.partial(self.listing, p, action), "")
                listing.emit(2, f"{listed}(S, "
                             f"{'S.simul_seat()' if simul else 'S.seat'}, out)")
                listing.emit(2, "if S.pick >= 0 and out:")
                listing.emit(3, "return 0")
                if phase.on_no_action is not None and not phase.auto:
                    listing.emit(2, "if S.first_only and out:")
                    listing.emit(3, "return 0")
                body = self.unit(functools.partial(self.action_body, p, action), "")
                args = ", ".join(self.small_param(b, f"args[{i}]")
                                 for i, b in enumerate(action.binders))
                act.emit(2, f"if index == {action.index}:")
                act.emit(3, f"return {body}(S, S.seat{', ' if args else ''}{args})")
                if simul:
                    simul_act.emit(2, f"if index == {action.index}:")
                    simul_act.emit(3, f"return {body}(S, me{', ' if args else ''}{args})")
            if not phase.actions:       # (its `on enter` moves on: nothing to list)
                listing.emit(2, "pass")
                act.emit(2, "pass")
            if any(b.by_cell for action in phase.actions for b in action.binders):
                listing.emit(2, "if len(out) > 1:")
                listing.emit(3, "_same_texts(S, out)")
        listing.emit(1, "return 0")
        act.emit(1, "raise IndexError(index)")
        simul_act.emit(1, "raise IndexError(index)")
        whole = [int(any(b.by_cell for action in phase.actions for b in action.binders))
                 for phase in self.prog.phases.values()]     # the check of texts reads all
        self.consts.append(f"cdef long *PHASE_WHOLE = _array({_packed(whole)})")
        self.functions += [listing.text(), act.text(), simul_act.text(), self.simul_on_reveal()]
        setup = _Body("cdef int _setup(Core S) except -1:")
        setup.declare("me")
        setup.emit(1, "me = 0")
        self.unit(functools.partial(self.statements, self.prog.setup, {0: "me"}, setup, 1),
                  None)
        setup.emit(1, "return 0")
        self.functions.append(setup.text())
        self.functions.append(self.unit(self.check_end, ""))
        self.functions.append(self.unit(self.no_action, ""))
        self.functions += self.unit(self.hooks_units, [])
        if self.outside is not None:
            return ""       # (collected: `outside_all`)
        self.control = self.control_tables()
        self.control.update(self.hooks_tables())
        self.control["SIMUL"] = str(int(any(phase.mode == "simultaneous"
                                            for phase in self.prog.phases.values())))
        fill = ["def _fill_tables(dict tables):", "    cdef long k, v, w", *self.fill,
                "    return None"]
        return trimmed(self.filled_template() + "\n".join(self.consts) + "\n\n"
                       + "\n".join(self.functions) + "\n" + "\n".join(fill) + "\n")

    def filled_template(self) -> str:
        text = resources.files(__package__).joinpath("typed_engine.pyx.in").read_text("utf-8")
        values = {"NCELLS": str(self.board.size), "NSEATS": str(len(self.prog.seats)),
                  "NKINDS": str(max(len(self.kinds), 1)), "MAX_WORK": str(MAX_WORK),
                  "FREE_SCAN": str(FREE_SCAN), "TEXT_STEP": str(TEXT_STEP),
                  "MAX_DEPTH": str(MAX_DEPTH),
                  "MAX_ENTRIES": str(MAX_ENTRIES), "MAX_PIECES": str(MAX_PIECES),
                  "MAX_ACTIONS": str(MAX_ACTIONS), "TOO_MANY_ACTIONS": repr(TOO_MANY_ACTIONS),
                  "KIND_NAMES": repr(tuple(self.kinds)), "PHASE_NAMES": repr(tuple(self.phases)),
                  "LOCS": repr(tuple(self.locs)), "ALL": repr(ALL),
                  "NDIRS": str(self.nd), "MAX_NUMBER": str(MAX_NUMBER), **self.var_tables(),
                  "SYMBOL_NAMES": repr(tuple(self.symbols)), "MAX_TEXT": str(MAX_TEXT),
                  **self.control, **self.lists_tables(),
                  "SMALL_NONES": str(int(self.small_nones))}
        for name, value in values.items():
            text = text.replace(f"@{name}@", value)
        return text

    def var_index(self, scope: str, name: str) -> int:
        return list(self.prog.vars[scope]).index(name)

    def var_tables(self) -> dict[str, str]:
        """The template's tables of the variables: names, types and initial values (a
        table of piece variables per kind: a variable may start as its kind's column)."""
        tables: dict[str, str] = {}
        for scope, names, size_name, init_name in (("global", "GLOBAL_VARS", "NG", "G_INIT"),
                                                   ("seat", "SEAT_VARS", "NSV", "SV_INIT"),
                                                   ("piece", "PIECE_VARS", "NPV", "PV_INIT")):
            vars_ = self.prog.vars[scope]
            tables[names] = repr(tuple((v.name, VAR_TYPES.get(v.type) or _lists_type(v.type))
                                       for v in vars_.values()))
            size = max(len(vars_), 1)
            tables[size_name] = str(size)
            pad = [0] * (size - len(vars_))
            kinds: list[str | None] = [*self.kinds] or [None]
            rows = [[self.initial(v, kind) for v in vars_.values()] + pad for kind in kinds]
            tables[init_name] = repr(tuple(tuple(r) for r in rows) if scope == "piece"
                                     else tuple(rows[0]))
        return tables

    def initial(self, var: ir.Variable, kind: str | None) -> int:
        """A variable's initial value as C (a piece's may be its kind's column)."""
        value = var.init
        if var.type not in VAR_TYPES:       # a list or text: lists_tables
            return 0
        if var.column is not None and kind is not None:
            value = self.prog.kinds[kind][var.column]
        return int(self.value(value, var.type, var.span))

    def check_program(self) -> None:
        """The checks of the whole program; when collecting, each variable, phase and
        action on its own (`unit`)."""
        prog = self.prog
        for scope, table in prog.vars.items():
            for var in table.values():
                self.unit(functools.partial(self.check_variable, scope, var), None)
        if prog.payoff is not None and prog.payoff.expr.type != INT:
            raise _Outside(prog.payoff, f"a payoff of type {prog.payoff.expr.type}")
        if prog.board.size > 4096:
            raise _Outside(None, "a board of more than 4096 cells")
        for lets in prog.end_lets:
            for let in lets:
                if let.expr.type not in SCALARS:
                    self.unit(functools.partial(_refuse, let, f"a 'let' of an end block of "
                                                f"type {let.expr.type}"), None)
        if self.outside:
            return
        self.find_param_types()
        self.unit(self.chance_check, None)
        for phase in prog.phases.values():
            self.unit(functools.partial(self.check_phase, phase), None)
        if not self.outside:
            self.small_find_nones()

    @staticmethod
    def check_variable(scope: str, var: ir.Variable) -> None:
        if var.type not in VAR_TYPES and _lists_type(var.type) is None:
            raise _Outside(var.span, f"a {scope} variable of type {var.type} ('{var.name}')")

    def check_phase(self, phase: ir.Phase) -> None:
        if phase.mode not in ("turn", None, "secret", "simultaneous"):
            raise _Outside(phase, f"a {phase.mode} phase ('{phase.name}')")
        for action in phase.actions:
            if not action.body:
                self.unit(functools.partial(_refuse, action, f"an action with an empty body "
                                            f"('{action.name}')"), None)
            for binder in action.binders:
                if binder.type not in (CELL, PIECE, SEAT, INT, DIR, SYMBOL, KIND, PLACEMENT):
                    self.unit(functools.partial(_refuse, binder, f"an action parameter of "
                                                f"type {binder.type}"), None)

    def fn_cycles(self) -> None:
        """The fns and defs that call themselves (through others too, and through the `on
        enter` triggers a move runs): the Python backend's set (codegen
        `_calling_themselves`). Each call of one counts a step of work and a level of gdl's
        depth count, as on Python (`recurse_head`). A fn giving a list stays outside: its
        loops are written in place."""
        cyclic = _calling_themselves(self.prog)
        for name, fn in self.prog.fns.items():
            if ("fn", name) in cyclic:
                if not isinstance(fn.body, ir.FnBlock) and is_list(fn.type):
                    raise _Outside(fn, f"a fn giving a list that calls itself ('{fn.name}')")
                self.recurse_cyclic.add(name)
        self.recurse_cyclic.update(f"def {name}" for name in self.prog.defs
                                   if ("def", name) in cyclic)

    def recurse_head(self, unit: ir.Fn | ir.Def, body: _Body) -> int:
        """The start of a fn or def that calls itself: a step of work (engine.py's count, at
        the unit), then a level of gdl's own depth count (limits.MAX_DEPTH, codegen.py
        `counted_unit`), faulting at the unit past it; the indent of its body (inside `try`,
        which `recurse_tail` closes)."""
        key = unit.name if isinstance(unit, ir.Fn) else f"def {unit.name}"
        if key not in self.recurse_cyclic:
            return 1
        body.emit(1, f"recurse_enter(S, {self.loc(unit)}, {unit.name!r})")
        body.emit(1, "try:")
        return 2

    def recurse_tail(self, unit: ir.Fn | ir.Def, body: _Body) -> None:
        key = unit.name if isinstance(unit, ir.Fn) else f"def {unit.name}"
        if key in self.recurse_cyclic:
            body.emit(1, "finally:")
            body.emit(2, "S.recurse_depth -= 1")

    # ----- code units -----------------------------------------------------------------------
    def listing(self, p: int, action: ir.Action) -> str:
        name = f"list_{p}_{action.index}"
        body = _Body(f"cdef int {name}(Core S, long me, list out) except -1:")
        body.listing = True
        phase = list(self.prog.phases.values())[p]
        env: Env = self.phase_env(phase, body)
        binders = action.binders
        first_only = phase.on_no_action is not None and not phase.auto
        maker = self.action_maker(p, action)
        hoist = body.hoist = _Hoist(action, body)
        listed = f"S.listed(out, {self.loc(action)})"     # limits.MAX_ACTIONS, as Python

        def level(k: int, env: Env, indent: int) -> None:
            hoist.open(k, indent)
            hoist.envs.append(env)
            tests = []
            for part in action.where_parts:
                if part.level == k:
                    hoist.at(k, part.expr)
                    tests.append(self.expr(part.expr, env, body))
            for test in tests:
                body.emit(indent, f"if {test}:")
                indent += 1
            if k == len(binders) - 1 and k > 0:    # ahead of the innermost loop
                body.emit(indent, listed)
            if k == len(binders):
                made = f"{maker}({', '.join(_c_name(env[b.slot]) for b in binders)})"
                body.emit(indent, "if S.pick == -1:")      # every action (else: a playout's)
                body.emit(indent + 1, f"out.append({made})")
                if first_only:          # Core.has_action asks
                    body.emit(indent + 1, "if S.first_only:")
                    body.emit(indent + 2, "return 0")
                body.emit(indent, "elif S.found == S.pick:")   # the one picked: no more
                body.emit(indent + 1, f"out.append({made})")
                body.emit(indent + 1, "return 0")
                body.emit(indent, "else:")                     # counted
                body.emit(indent + 1, "S.found += 1")
                return
            binder = binders[k]

            def bind(value: Bound, indent: int) -> None:
                if isinstance(value, _Row):
                    raise _Outside(binder, "an action parameter that is a list")
                level(k + 1, {**env, binder.slot: value}, indent)
                hoist.at(k, binder.domain)
            hoist.at(k, binder.domain)
            kept = self.hoisted_list(binder.domain, env, body, "list")
            if kept is None:
                self.loop(binder.domain, env, body, indent, bind, binder)
                return
            domain = binder.domain          # made once for its level, as Python's
            counted = ir.loop_counts(domain, self.prog.fns)
            place = self.loc(domain if domain.span is not None else binder)
            self.indexed(body, indent, f"len({kept})", f"{kept}[{{i}}]", bind,
                         f"S.spend({{n}}, {place})" if counted else None)
        level(0, env, 1)
        self.consts += hoist.finish()
        body.hoist = None
        body.emit(1, listed)
        body.emit(1, "return 0")
        self.functions.append(body.text())
        return name

    def action_maker(self, p: int, action: ir.Action) -> str:
        """A cdef function making the Python tuple `(index, (args...))` of one listed
        action. When every argument has a small range of C values (cells, seats,
        directions, symbols, pieces of the first ids), the tuples are kept in a list
        indexed by the arguments and each is made once per module: a decision's listing
        then makes no Python object but its list (the same values, so the same actions)."""
        name = f"_action_{p}_{action.index}"
        binders = action.binders
        params = ", ".join(f"{'str' if b.type == PLACEMENT else 'long'} a{i}"
                           for i, b in enumerate(binders))
        args = "".join(self.small_arg(b, f"a{i}") for i, b in enumerate(binders))
        fresh = f"({action.index}, ({args}))"
        sizes = [self.arg_range(b.type) for b in binders]
        unit = _Body(f"cdef inline object {name}({params}):")
        if any(size is None for size in sizes) or math.prod(s or 1 for s in sizes) > MAX_KEPT:
            unit.emit(1, f"return {fresh}")
            self.functions.append(unit.text())
            return name
        kept = f"_KEPT_{p}_{action.index}"
        self.consts.append(f"cdef list {kept} = [None] * {math.prod(s or 1 for s in sizes)}")
        unit.declare("key", "Py_ssize_t")
        unit.declare("made", "object")
        key = "0"
        for i, size in enumerate(sizes):
            key = f"({key}) * {size} + a{i}" if i else f"a{i}"
        inside = " and ".join(f"0 <= a{i} < {size}" for i, size in enumerate(sizes)) or "True"
        unit.emit(1, f"if not ({inside}):")
        unit.emit(2, f"return {fresh}")
        unit.emit(1, f"key = {key}")
        unit.emit(1, f"made = {kept}[key]")
        unit.emit(1, "if made is None:")
        unit.emit(2, f"made = {fresh}")
        unit.emit(2, f"{kept}[key] = made")
        unit.emit(1, "return made")
        self.functions.append(unit.text())
        return name

    def arg_range(self, t: Type) -> int | None:
        """How many C values an action argument of type `t` keeps tuples for (values
        outside are made each time); None: not kept (numbers)."""
        sizes: dict[Type, int] = {CELL: self.board.size, SEAT: len(self.prog.seats),
                                  DIR: self.nd, SYMBOL: len(self.symbols), PIECE: KEPT_PIECES,
                                  KIND: len(self.kinds)}
        return sizes.get(t)

    def action_body(self, p: int, action: ir.Action) -> str:
        name = f"act_{p}_{action.index}"
        params = "".join(f", {'str' if b.type == PLACEMENT else 'long'} {self.binder_name(b)}"
                         for b in action.binders)
        body = _Body(f"cdef int {name}(Core S, long me{params}) except -1:")
        env: Env = {**self.phase_env(list(self.prog.phases.values())[p], body),
                    **{b.slot: _Made(self.binder_name(b), "str", PLACEMENT)
                       if b.type == PLACEMENT else self.binder_name(b) for b in action.binders}}
        self.statements(action.body, env, body, 1)
        body.emit(1, "return 0")
        self.functions.append(body.text())
        return name

    @staticmethod
    def binder_name(binder: ir.Binder) -> str:
        return f"v{binder.slot}"

    def check_end(self) -> str:
        """`_check_end(S)`: the end rules, their work counted on its own (engine.py
        `_check_end`: Python runs them only when something they read changed), the
        decision's count kept for the work after them."""
        wrapper = _Body("cdef int _check_end(Core S) except -1:")
        wrapper.declare("work")
        wrapper.emit(1, "work = S.work")
        wrapper.emit(1, "S.work = 0")
        wrapper.emit(1, "_end_rules(S)")
        wrapper.emit(1, "S.work = work")
        wrapper.emit(1, "return 0")
        self.functions.append(wrapper.text())
        body = _Body("cdef int _end_rules(Core S) except -1:")
        body.declare("s")
        body.declare("holding", "list")
        body.declare("live", "list")
        computed = [0] * len(self.prog.end_lets)
        for i, rule in enumerate(self.prog.end_rules):
            shared = [f"e{rule.block}_{k}" for k in range(1, rule.shared + 1)]
            seat = 'v' + str(rule.shared + 1)
            fn = _Body(f"cdef long end_{i}(Core S, long me"
                       + "".join(f", long v{k}" for k in range(1, rule.shared + 1))
                       + f"{'' if rule.kind == 'draw' else ', long ' + seat}) except? -2:")
            env: Env = {0: "me", **{k: f"v{k}" for k in range(1, rule.shared + 1)}}
            if rule.kind != "draw":
                env[rule.shared + 1] = seat
            fn.emit(1, f"return {self.expr(rule.expr, env, fn)}")
            self.functions.append(fn.text())
            body.emit(1, "if S.over:")
            body.emit(2, "return 0")
            # the block's values a rule reads, each computed once per check, when a rule
            # first needs it (as on Python: every rule before this one ran)
            while computed[rule.block] < rule.shared:
                computed[rule.block] += 1
                body.declare(shared[computed[rule.block] - 1])
                body.emit(1, f"{shared[computed[rule.block] - 1]} = "
                          f"{self.end_let(rule.block, computed[rule.block])}"
                          f"(S, 0{''.join(', ' + v for v in shared[:computed[rule.block] - 1])})")
            given = "".join(f", {v}" for v in shared)
            if rule.kind == "draw":
                body.emit(1, f"if end_{i}(S, 0{given}):")
                body.emit(2, "S.declare([])")
                continue
            body.emit(1, "live = S.live()")
            body.emit(1, f"holding = [s for s in live if end_{i}(S, s{given}, s)]")
            if rule.kind == "lose":
                body.emit(1, "if holding and holding == live:")
                body.emit(2, "S.declare([])")
                body.emit(1, "for s in holding:")
                body.emit(2, "S.eliminate(s)")
            else:
                body.emit(1, "if holding:")
                body.emit(2, "S.declare(holding)")
        body.emit(1, "return 0")
        return body.text()

    def end_let(self, block: int, slot: int) -> str:
        """The `let` of an end block in `slot` as a cdef function of the lets before it."""
        let = self.prog.end_lets[block][slot - 1]
        assert let.slot == slot
        params = "".join(f", long v{k}" for k in range(1, slot))
        fn = _Body(f"cdef long end_let_{block}_{slot}(Core S, long me{params}) except? -2:")
        env: Env = {0: "me", **{k: f"v{k}" for k in range(1, slot)}}
        fn.emit(1, f"return {self.expr(let.expr, env, fn)}")
        self.functions.append(fn.text())
        return f"end_let_{block}_{slot}"

    def scalar_fn(self, name: str) -> str:
        fn = self.prog.fns[name]
        cname = f"fn_{name}"
        if name in self.fns_done:
            return cname
        self.fns_done.add(name)
        if isinstance(fn.body, ir.FnBlock):
            self.fns_done.discard(name)
            return self.lists_fn(name)
        env, params = self.params(fn)
        run = f"{cname}_run" if name in self.tabled else cname
        body = _Body(f"cdef long {run}(Core S, long me{params}) except? -2:")
        indent = self.recurse_head(fn, body)
        body.emit(indent, f"return {self.expr(fn.body, env, body)}")
        self.recurse_tail(fn, body)
        self.functions.append(body.text())
        if name in self.tabled:
            self.tabled_fn(name, params)
        return cname

    def tabled_fn(self, name: str, params: str) -> None:
        """A fn answered from a table (runtime/tables.py): C arrays of its values and work
        by its arguments' index, filled by the engine when it loads the game
        (`_fill_tables`); an entry not there runs the fn (`fn_NAME_run`), as does one whose
        work would pass the limit (it faults where it counts)."""
        sizes = self.tabled[name]
        total = math.prod(sizes)
        index = "0"
        for i, size in enumerate(sizes):
            index = f"({index}) * {size} + v{i + 1} + 1" if i else f"v{i + 1} + 1"
        values, works, known = (f"TAB{x}_{name}" for x in "VWK")
        self.consts += [f"cdef long {values}[{total}]", f"cdef long {works}[{total}]",
                        f"cdef char {known}[{total}]"]
        body = _Body(f"cdef long fn_{name}(Core S, long me{params}) except? -2:")
        body.declare("k")
        body.emit(1, f"k = {index}")
        body.emit(1, f"if {known}[k] and S.work + {works}[k] <= MAX_WORK:")
        body.emit(2, f"S.work += {works}[k]")
        body.emit(2, f"return {values}[k]")
        args = "".join(f", v{i + 1}" for i in range(len(sizes)))
        body.emit(1, f"return fn_{name}_run(S, me{args})")
        self.functions.append(body.text())
        self.fill.append(f"    for k, v, w in tables.get({name!r}, ()):")
        self.fill.append(f"        {values}[k] = v")
        self.fill.append(f"        {works}[k] = w")
        self.fill.append(f"        {known}[k] = 1")

    @staticmethod
    def params(unit: ir.Fn | ir.Def) -> tuple[Env, str]:
        """The locals and C parameters of a fn or def: scalars as C longs, a list of them as
        the Python list its caller made."""
        env: Env = {0: "me"}
        params = ""
        for i, t in enumerate(unit.param_types):
            if t in SCALARS or t == ANY:     # any: a value of an untyped column (a C long)
                env[i + 1] = f"v{i + 1}"
                params += f", long v{i + 1}"
            elif is_list(t) and _element(t) in SCALARS:
                env[i + 1] = _Made(f"v{i + 1}")
                params += f", list v{i + 1}"
            elif t == STR or is_list(t) and _element(t) == STR:
                ctype = "str" if t == STR else "list"
                env[i + 1] = _Made(f"v{i + 1}", ctype)
                params += f", {ctype} v{i + 1}"
            else:
                word = "def" if isinstance(unit, ir.Def) else "fn"
                raise _Outside(unit, f"a {word} with a parameter of type {t} ('{unit.name}')")
        return env, params

    def def_unit(self, name: str) -> str:
        """A `def` (not calling itself: see fn_cycles) as a cdef function of its arguments."""
        unit = self.prog.defs[name]
        cname = f"def_{name}"
        if cname in self.fns_done:
            return cname
        self.fns_done.add(cname)
        env, params = self.params(unit)
        body = _Body(f"cdef int {cname}(Core S, long me{params}) except -1:")
        indent = self.recurse_head(unit, body)
        self.statements(unit.body, env, body, indent)
        body.emit(indent, "return 0")
        self.recurse_tail(unit, body)
        self.functions.append(body.text())
        return cname

    # ----- statements ---------------------------------------------------------------------
    def statements(self, stmts: tuple[ir.Stmt, ...], env: Env, body: _Body,
                   indent: int) -> None:
        env = dict(env)
        if not stmts:
            body.emit(indent, "pass")
        for stmt in stmts:
            self.statement(stmt, env, body, indent)

    def statement(self, s: ir.Stmt, env: Env, body: _Body, indent: int) -> None:
        if isinstance(s, _TOLD):        # its event (narrated), first: as on Python (`told`)
            body.emit(indent, f"S.spend(CHANCE_EVENT_WORK, {self.loc(s)})")
        if isinstance(s, ir.Let) and id(s) in self.lists_slices():
            self.lists_slice(s, env, body, indent)
        elif isinstance(s, ir.Let) and (s.expr.type == STR or self.lists_loops(s.expr, env)
                                      or id(s) in self.lists_refined()[0]
                                      or _element(s.expr.type) in SCALARS
                                      and self.lists_fn_whole(s.expr)):
            self.lists_let(s, env, body, indent)
        elif self.lists_statement(s, env, body, indent):
            pass
        elif isinstance(s, ir.Let) and is_list(s.expr.type):
            if is_list(_element(s.expr.type)):
                raise _Outside(s, "a 'let' of a list of lists")
            env[s.slot] = _Made(self.made_here(s.expr, env, body, indent, s,
                                               "a 'let' of a list of lists"),
                                owned=id(s) in self.lists_owned())
        elif isinstance(s, ir.Let):
            name = body.declare(self.fresh("l"))
            body.emit(indent, f"{name} = {self.expr(s.expr, env, body)}")
            env[s.slot] = name
            if s.expr.type == ANY:      # a variable the checker typed later
                self.simul_locals[name] = self.simul_typed(s.expr)
        elif isinstance(s, ir.If):
            body.emit(indent, f"if {self.expr(s.cond, env, body)}:")
            self.statements(s.then, env, body, indent + 1)
            if s.otherwise:
                body.emit(indent, "else:")
                self.statements(s.otherwise, env, body, indent + 1)
        elif isinstance(s, ir.For):
            def bind(value: Bound, indent: int) -> None:
                inner = {**env, s.slot: value}
                if s.where is not None:
                    body.emit(indent, f"if {self.expr(s.where, inner, body)}:")
                    indent += 1
                self.statements(s.body, inner, body, indent)
            self.loop(s.domain, env, body, indent, bind, s, copy=True)
        elif isinstance(s, ir.Create):
            if not isinstance(s.kind, ir.Const) or s.kind.value not in self.kinds:
                raise _Outside(s.kind, "a 'create' of a kind not known before play")
            body.emit(indent, f"S.create({self.kinds.index(s.kind.value)}, "
                      f"{self.expr(s.owner, env, body)}, {self.expr(s.cell, env, body)}, "
                      f"{self.loc(s)})")
        elif isinstance(s, ir.Remove):
            body.emit(indent, f"S.remove({self.expr(s.piece, env, body)}, {self.loc(s)})")
        elif isinstance(s, ir.Move):
            self.move(s, env, body, indent)
        elif isinstance(s, ir.Stop) and body.stops:
            body.emit(indent, "return 1")
        elif isinstance(s, ir.Log):
            body.emit(indent, f"S.events.append(_Log({self.text(s.text, env, body)}))")
        elif isinstance(s, ir.Give):
            body.emit(indent, f"S.give({self.expr(s.piece, env, body)}, "
                      f"{self.expr(s.seat, env, body)}, {self.loc(s)})")
        elif isinstance(s, ir.PlaceAt):
            body.emit(indent, f"S.place({self.expr(s.piece, env, body)}, "
                      f"{self.expr(s.cell, env, body)}, {self.loc(s)})")
        elif isinstance(s, ir.Assign):
            self.assign(s, env, body, indent)
        elif isinstance(s, ir.CallDef):
            args = "".join(f", {self.made(a, env) if is_list(a.type) else self.expr(a, env, body)}"
                           for a in s.args)
            body.emit(indent, f"{self.def_unit(s.name)}(S, {env[0]}{args})")
        elif isinstance(s, ir.Shuffle):
            self.small_shuffle(s, env, body, indent)
        elif isinstance(s, ir.Goto) and not s.push and not s.args and s.seat is not None \
                and self.prog.phases[s.phase].mode == "turn":
            body.emit(indent, f"S.enter({self.phases.index(s.phase)}, "
                      f"{self.expr(s.seat, env, body)}, {self.loc(s)})")
            self.on_enter(s.phase, body, indent)
        else:
            self.control_statement(s, env, body, indent)

    def control_statement(self, s: ir.Stmt, env: Env, body: _Body, indent: int) -> None:
        """`goto` into a phase with parameters or that is not a turn, `call`, `return`,
        `win`, `lose`, `draw`, `change`."""
        if isinstance(s, ir.Goto) and s.seat is not None:
            self.enter_phase(s, env, body, indent)
        elif isinstance(s, ir.Return) and self.hooks_rounds():
            body.emit(indent, f"if not S.hooks_return({self.loc(s)}):")
            body.emit(indent + 1, f"{self.resume()}(S)")
        elif isinstance(s, ir.Return):
            body.emit(indent, f"S.pop({self.loc(s)})")
            if any(phase.on_resume for phase in self.prog.phases.values()):
                body.emit(indent, f"{self.resume()}(S)")
        elif isinstance(s, ir.CallEach):
            self.hooks_call_each(s, env, body, indent)
        elif isinstance(s, ir.Put):
            zone = list(self.prog.zones).index(s.zone)
            seat = "-1" if s.seat is None else self.expr(s.seat, env, body)
            body.emit(indent, f"S.hooks_put({self.expr(s.piece, env, body)}, {zone}, {seat}, "
                      f"{self.loc(s)})")
        else:
            self.result_statement(s, env, body, indent)

    def enter_phase(self, s: ir.Goto, env: Env, body: _Body, indent: int) -> None:
        """`goto`/`call`: the arguments, then the seat (as on Python), the frame, then the
        phase's `on enter`."""
        target = self.prog.phases[s.phase]
        assert s.seat is not None           # the checker requires `for SEAT`
        values = []
        for arg in s.args:          # the arguments first, then the seat (as on Python)
            value = body.declare(self.fresh("a"))
            body.emit(indent, f"{value} = {self.expr(arg, env, body)}")
            values.append(value)
        body.emit(indent, f"S.enter_frame({self.phases.index(s.phase)}, "
                  f"{self.expr(s.seat, env, body)}, {self.loc(s)}, "
                  f"{int(target.mode == 'turn')}, {int(s.push)})")
        for k, value in enumerate(values):
            body.emit(indent, f"S.A[{k}] = {value}")
        self.on_enter(s.phase, body, indent)

    def on_enter(self, name: str, body: _Body, indent: int) -> None:
        """Run the `on enter` block of phase `name` (one that enters no phase: see
        check_program), if it has one, for the seat just entered."""
        phase = self.prog.phases[name]
        if not phase.on_enter:
            return
        p = self.phases.index(name)
        unit = f"entered_{p}"
        if unit not in self.fns_done:
            self.fns_done.add(unit)
            self.phase_block(unit, phase, phase.on_enter)
        body.emit(indent, f"{unit}(S, S.seat)")

    def phase_block(self, name: str, phase: ir.Phase, block: tuple[ir.Stmt, ...]) -> None:
        """Write a block of `phase` (`on enter`, `on resume`, `on no action`) as the cdef
        function `name(S, me)`."""
        unit = _Body(f"cdef int {name}(Core S, long me) except -1:")
        self.statements(block, self.phase_env(phase, unit), unit, 1)
        unit.emit(1, "return 0")
        self.functions.append(unit.text())

    def resume(self) -> str:
        """`_resume(S)`: the `on resume` block of the phase back on top after `return`."""
        if "_resume" not in self.fns_done:
            self.fns_done.add("_resume")
            self.functions.append(self.block_dispatch("_resume", "on_resume", "on_resume"))
        return "_resume"

    def simul_on_reveal(self) -> str:
        """`_simul_on_reveal(S)`: the `on reveal` block of the top frame's simultaneous
        phase (its seat `me`), after every choice was played."""
        return self.block_dispatch("_simul_on_reveal", "on_reveal", "simul_reveal")

    def block_dispatch(self, name: str, block: str, stem: str) -> str:
        """`name(S)`: the phase block `block` (`on_resume`, `on_reveal`) of the phase on
        top, run for its seat; each block a cdef function `stem_<phase number>`."""
        code = _Body(f"cdef int {name}(Core S) except -1:")
        for p, phase in enumerate(self.prog.phases.values()):
            if getattr(phase, block):
                self.phase_block(f"{stem}_{p}", phase, getattr(phase, block))
                code.emit(1, f"if S.phase == {p}:")
                code.emit(2, f"return {stem}_{p}(S, S.seat)")
        code.emit(1, "return 0")
        return code.text()

    def result_statement(self, s: ir.Stmt, env: Env, body: _Body, indent: int) -> None:
        """`win`, `lose`, `draw`, `change`."""
        if isinstance(s, (ir.Win, ir.Lose)):
            seat = body.declare(self.fresh("w"))
            body.emit(indent, f"{seat} = {self.expr(s.seat, env, body)}")
            body.emit(indent, f"S.seat_ok({seat}, {self.loc(s)})")
            body.emit(indent, f"S.declare([{seat}])" if isinstance(s, ir.Win)
                      else f"S.eliminate({seat})")
        elif isinstance(s, ir.Draw):
            body.emit(indent, "S.declare([])")
        elif isinstance(s, ir.Change):
            if not isinstance(s.kind, ir.Const) or s.kind.value not in self.kinds:
                raise _Outside(s.kind, "a 'change' to a kind not known before play")
            body.emit(indent, f"S.change({self.expr(s.piece, env, body)}, "
                      f"{self.kinds.index(s.kind.value)}, {self.loc(s)})")
        else:
            raise _Outside(s, f"the statement '{_words(s)}'")

    # ----- hooks: `on out`, payoff, `call ... for each` -------------------------------------
    def hooks_rounds(self) -> bool:
        """Does a `call ... for each` start rounds (then every `return` asks whether the
        frame left was a round's)?"""
        return any(isinstance(n, ir.CallEach) for n in self.hooks_nodes())

    def hooks_nodes(self) -> list[ir.Node]:
        prog = self.prog
        roots: list[ir.Node] = [*prog.setup, *(s for d in prog.defs.values() for s in d.body),
                                *(s for hook in (*prog.outs, *prog.concedes) for s in hook.body),
                                *(s for t in prog.triggers for s in t.body)]
        for phase in prog.phases.values():
            roots += [*(phase.on_no_action or ()), *phase.on_enter, *phase.on_resume,
                      *phase.on_reveal,
                      *(s for action in phase.actions for s in action.body)]
        return [n for root in roots for n in ir.walk(root)]

    def hooks_tables(self) -> dict[str, str]:
        zones = self.prog.zones
        return {"HOOKS_PAYOFF": str(int(self.prog.payoff is not None)),
                "HOOKS_SCORE": str(int(self.has_score)),
                "HOOKS_RULES": str(len(self.prog.each_rules)),
                "HOOKS_NZONES": str(len(zones)), "HOOKS_ZONE_NAMES": repr(tuple(zones)),
                "HOOKS_PER_SEAT": repr(tuple(int(z.per_seat) for z in zones.values())),
                "HOOKS_SEAT_LABELS": str(int(any(z.visible is not None
                                                 for z in zones.values())
                                             or self.hidden_hides())),
                "HOOKS_NCLASSES": str(1 + len(self.prog.sights)),
                "HOOKS_KIND_CLASS": repr(tuple(
                    next((i + 1 for i, sight in enumerate(self.prog.sights)
                          if kind in sight.kinds), 0) for kind in self.kinds) or (0,))}

    def hooks_units(self) -> list[str]:
        """`_hooks_out(S, seat)`: the `on out` hooks in order (engine.py `eliminate`);
        `_hooks_payoff(S, s)`: seat s's return at the end; `_hooks_next(S, each, loc)`: a
        round's next seat (engine.py `next_of_each`)."""
        prog = self.prog
        out = _Body("cdef int _hooks_out(Core S, long seat) except -1:")
        for i, hook in enumerate(prog.outs):
            unit = _Body(f"cdef int hooks_out_{i}(Core S, long me, long v1) except -1:")
            self.statements(hook.body, {0: "me", 1: "v1"}, unit, 1)
            unit.emit(1, "return 0")
            self.functions.append(unit.text())
            out.emit(1, f"hooks_out_{i}(S, seat, seat)")
        out.emit(1, "return 0")
        payoff = _Body("cdef long _hooks_payoff(Core S, long s) except? -2:")
        if prog.payoff is not None:
            unit = _Body("cdef long hooks_payoff(Core S, long me, long v1) except? -2:")
            unit.emit(1, f"return {self.expr(prog.payoff.expr, {0: 'me', 1: 'v1'}, unit)}")
            self.functions.append(unit.text())
            payoff.emit(1, "return hooks_payoff(S, s, s)")
        else:
            payoff.emit(1, "return 0")
        return [out.text(), payoff.text(), self.hooks_score(), self.hooks_next(),
                self.hooks_hidden()]

    def hooks_score(self) -> str:
        """`_hooks_score(S, s)`: seat s's `show score(s)` (mcts judges a rollout cut short
        by it: `Core.scores`), when the rule is a number inside the subset; else the core
        has no score (`HOOKS_SCORE` 0) and a tool reads it from the fields, on Python."""
        score = _Body("cdef long _hooks_score(Core S, long s) except? -2:")
        rule = self.prog.shows.get("score")
        self.has_score = False
        if rule is not None and rule.expr.type == INT:
            unit = _Body("cdef long hooks_score(Core S, long me, long v1) except? -2:")
            try:
                unit.emit(1, f"return {self.expr(rule.expr, {0: 'me', 1: 'v1'}, unit)}")
            except _Outside:
                pass
            else:
                self.functions.append(unit.text())
                score.emit(1, "return hooks_score(S, s, s)")
                self.has_score = True
        if not self.has_score:
            score.emit(1, "return 0")
        return score.text()

    def hooks_hidden(self) -> str:
        """`_hooks_hidden(S, pid, viewer)`: is living piece `pid` in a zone whose `visible
        to` keeps it from `viewer` (engine.py `_hidden_from`: the rule's `viewer`, then
        `owner`, the zone's seat)?"""
        code = _Body("cdef bint _hooks_hidden(Core S, long pid, long viewer) except -1:")
        code.declare("key")
        code.declare("seat")
        if self.hidden_hides():
            return self.hidden_hidden(code)
        code.emit(1, "if pid < 1 or pid > S.npieces or not S.alive[pid] "
                  "or pid not in S.hooks_where:")
        code.emit(2, "return 0")
        code.emit(1, "key = S.hooks_where[pid][0]")
        code.emit(1, "seat = key % (NSEATS + 1) - 1")
        for z, sees in self.hooks_zone_sights():
            code.emit(1, f"if key // (NSEATS + 1) == {z}:")
            code.emit(2, f"return not {sees}")
        code.emit(1, "return 0")
        return code.text()

    def hooks_zone_sights(self) -> list[tuple[int, str]]:
        """(zone index, the call of its `visible to` rule for the viewer and the zone's
        seat) of each zone that has one; the rule is a cdef function of its own."""
        found = []
        for z, zone in enumerate(self.prog.zones.values()):
            if zone.visible is None:
                continue
            unit = _Body(f"cdef long hooks_sees_{z}(Core S, long me, long v1, long v2) "
                         "except? -2:")
            env: Env = {0: "me", 1: "v1", 2: "v2"}
            unit.emit(1, f"return {self.expr(zone.visible.expr, env, unit)}")
            self.functions.append(unit.text())
            found.append((z, f"hooks_sees_{z}(S, viewer, viewer, seat)"))
        return found

    # ----- hidden: `hide piece` and a kinds table's `visible to` -----------------------------
    def hidden_hides(self) -> bool:
        """Does a `hide piece` rule or a kinds table's `visible to` keep pieces from seats
        (engine.py `_hides_pieces`, with a zone's `visible to`)?"""
        return self.prog.hide is not None or bool(self.prog.sights)

    def hidden_hidden(self, code: _Body) -> str:
        """`_hooks_hidden(S, pid, viewer)` of a file that hides pieces (engine.py
        `_hidden_from`): out of the viewer's sight (its kind's `visible to`: the viewer, the
        owner, the piece), else in a zone the viewer may not see, else the `hide piece`
        rule (the viewer, the piece, the viewer)."""
        code.emit(1, "if pid < 1 or pid > S.npieces or not S.alive[pid]:")
        code.emit(2, "return 0")
        for i, sight in enumerate(self.prog.sights):
            unit = _Body(f"cdef long hidden_sees_{i}(Core S, long me, long v1, long v2, "
                         "long v3) except? -2:")
            env: Env = {0: "me", 1: "v1", 2: "v2", 3: "v3"}
            unit.emit(1, f"return {self.expr(sight.rule.expr, env, unit)}")
            self.functions.append(unit.text())
            kinds = ", ".join(str(self.kinds.index(k)) for k in sight.kinds)
            code.emit(1, f"if S.kind[pid] in ({kinds},) and "
                      f"not hidden_sees_{i}(S, viewer, viewer, S.owner[pid], pid):")
            code.emit(2, "return 1")
        code.emit(1, "if pid in S.hooks_where:")
        code.emit(2, "key = S.hooks_where[pid][0]")
        code.emit(2, "seat = key % (NSEATS + 1) - 1")
        for z, sees in self.hooks_zone_sights():
            code.emit(2, f"if key // (NSEATS + 1) == {z} and not {sees}:")
            code.emit(3, "return 1")
        hide = self.prog.hide
        if hide is None:
            code.emit(1, "return 0")
            return code.text()
        unit = _Body("cdef long hidden_hide(Core S, long me, long v1, long v2) except? -2:")
        unit.emit(1, f"return {self.expr(hide.expr, {0: 'me', 1: 'v1', 2: 'v2'}, unit)}")
        self.functions.append(unit.text())
        code.emit(1, "return hidden_hide(S, viewer, pid, viewer)")
        return code.text()

    def hidden_compare(self, e: ir.Compare, env: Env, body: _Body) -> str | None:
        """`x == k`: a value read as `any` (a loop's name over a list variable the checker
        typed after it read it) compared with a kind or a symbol, when the loop's list
        holds that type (both C longs then, as Python's two names); None for the others."""
        sides = (e.left, e.right)
        if e.op not in ("==", "!=") or e.lists:
            return None
        types = {self.hidden_typed(side) for side in sides}
        if len(types) != 1 or not types <= {KIND, SYMBOL} or \
                ANY not in (e.left.type, e.right.type):
            return None
        return f"({self.expr(e.left, env, body)} {e.op} {self.expr(e.right, env, body)})"

    def hidden_typed(self, e: ir.Expr) -> Type:
        """The type of `e` (lists_typed), a loop's name over a list of a known element type
        as that type."""
        if e.type == ANY and isinstance(e, ir.Local):
            return self.hidden_loop_names.get(id(e), ANY)
        return self.lists_typed(e)

    def hidden_pick(self, e: ir.CallBuiltin, env: Env) -> str:
        """`pick(xs)` of cells, pieces, seats or directions (none, -1, from an empty list):
        the list made where Python makes it, then one of it drawn (engine.py `pick`)."""
        if e.type not in NULLABLE:
            raise _Outside(e, f"pick() of a list of {_element(e.args[0].type)}")
        return f"hidden_pick(S, {self.made(e.args[0], env)}, {self.loc(e)})"

    def hidden_held(self, xs: ir.Expr) -> Type:
        """The type of the list `xs`, a variable's read as a list of `any` (before the
        checker met the assignment that typed it) as its variable's type."""
        if xs.type == _LIST_OF_ANY and isinstance(xs, (ir.Global, ir.SeatVar, ir.PieceField)):
            scope = "global" if isinstance(xs, ir.Global) else \
                "seat" if isinstance(xs, ir.SeatVar) else "piece"
            var = self.prog.vars[scope].get(xs.name)
            return var.type if var is not None else xs.type
        return xs.type

    @functools.cached_property
    def hidden_loop_names(self) -> dict[int, Type]:
        """id of a name read as `any` -> its type, for the names a loop (a quantifier, a
        comprehension, `for`) binds over a list whose elements have a known type."""
        prog = self.prog
        roots: list[Any] = [*prog.fns.values(), *prog.defs.values(), *prog.phases.values(),
                            *prog.triggers, *prog.outs, *prog.concedes, *prog.end_rules,
                            *(let for lets in prog.end_lets for let in lets), *prog.setup,
                            *prog.shows.values(), prog.hide, *(s.rule for s in prog.sights),
                            *prog.each_rules, *prog.invariants, *prog.stats.values(),
                            prog.payoff]
        found: dict[int, Type] = {}
        for root in roots:
            if not isinstance(root, ir.Node):
                continue
            for n in ir.walk(root):
                if not isinstance(n, (ir.Quant, ir.Comprehension, ir.For)):
                    continue
                held = self.hidden_held(n.domain)
                if not is_list(held) or _element(held) == ANY:
                    continue
                for m in ir.walk(n):
                    if isinstance(m, ir.Local) and m.slot == n.slot and m.type == ANY:
                        found[id(m)] = _element(held)
        return found

    def hooks_next(self) -> str:
        """`_hooks_next(S, each, loc)`: enter the phase of round `each` for the next seat
        still playing whose where-condition holds (1), or none is left (0)."""
        code = _Body("cdef int _hooks_next(Core S, list each, int loc) except -1:")
        code.declare("seat")
        code.declare("rule")
        code.emit(1, "rule = each[3]")
        code.emit(1, "while each[2]:")
        code.emit(2, "seat = each[2].pop(0)")
        code.emit(2, "if S.out[seat]:")
        code.emit(3, "continue")
        for i, rule in enumerate(self.prog.each_rules):
            unit = _Body(f"cdef long hooks_rule_{i}(Core S, long me, long v1) except? -2:")
            unit.emit(1, f"return {self.expr(rule.expr, {0: 'me', 1: 'v1'}, unit)}")
            self.functions.append(unit.text())
            code.emit(2, f"if rule == {i} and not hooks_rule_{i}(S, each[4], seat):")
            code.emit(3, "continue")
        targets = sorted({self.phases.index(n.phase) for n in self.hooks_nodes()
                          if isinstance(n, ir.CallEach)})
        for p in targets:
            phase = self.phases[p]
            code.emit(2, f"if each[0] == {p}:")
            code.emit(3, f"S.enter_frame({p}, seat, loc, "
                      f"{int(self.prog.phases[phase].mode == 'turn')}, 1)")
            for k in range(len(self.prog.phases[phase].params)):
                code.emit(3, f"S.A[{k}] = each[1][{k}]")
            code.emit(3, "S.hooks_each = each")
            self.on_enter(phase, code, 3)
        code.emit(2, "return 1")
        code.emit(1, "return 0")
        return code.text()

    def hooks_round_loop(self, call: ir.CallBuiltin, x: str, env: Env, body: _Body,
                         indent: int, counted: Callable[[str], None]) -> None:
        """`for x in clockwise_from(s)` (or counter-): the seats still playing from `s`
        round the table, listed first (as Python makes the list)."""
        s = body.declare(self.fresh("s"))
        k = body.declare(self.fresh("k"))
        body.emit(indent, f"{s} = {self.expr(call.args[0], env, body)}")
        body.emit(indent, f"S.seat_ok({s}, {self.loc(call)})")
        seat = f"({s} + {k}) % NSEATS" if call.name == "clockwise_from" else \
            f"({s} - {k} + NSEATS) % NSEATS"
        made = body.declare(self.fresh("m"), "list")
        body.emit(indent, f"{made} = [{seat} for {k} in range(NSEATS) if not S.out[{seat}]]")
        counted(f"len({made})")
        body.emit(indent, f"for {x} in {made}:")

    def hooks_zone_loop(self, call: ir.CallBuiltin, x: str, env: Env, body: _Body,
                        indent: int, counted: Callable[[str], None]) -> None:
        """`for x in pieces_in(ZONE[, s])`: the pieces in it, oldest first (a copy, as
        Python's)."""
        zone = call.args[0]
        if not isinstance(zone, ir.Const) or zone.value not in self.prog.zones or \
                self.prog.zones[zone.value].per_seat != (len(call.args) == 2):
            raise _Outside(call, f"the list '{_words(call)}'")
        z = list(self.prog.zones).index(zone.value)
        key = "0"
        if len(call.args) == 2:
            s = body.declare(self.fresh("s"))
            body.emit(indent, f"{s} = {self.expr(call.args[1], env, body)}")
            message = (f"zone '{zone.value}' is per seat: say whose (pieces_in({zone.value}, "
                       "SEAT))")
            body.emit(indent, f"if {s} < 0:")
            body.emit(indent + 1, f"_raise({message!r}, {self.loc(call)})")
            key = f"{s} + 1"
        made = body.declare(self.fresh("m"), "list")
        body.emit(indent, f"{made} = list(S.hooks_zoned.get({z} * (NSEATS + 1) + {key}, ()))")
        counted(f"len({made})")
        body.emit(indent, f"for {x} in {made}:")

    def hooks_call_each(self, s: ir.CallEach, env: Env, body: _Body, indent: int) -> None:
        """`call P(args) for each x in SEATS where C` (engine.py `call_each`): the
        arguments, then the seats (each a seat), then the first seat's frame, or the
        caller's `on resume` at once when none qualifies."""
        loc = self.loc(s)
        values = []
        for arg in s.args:
            value = body.declare(self.fresh("a"))
            body.emit(indent, f"{value} = {self.expr(arg, env, body)}")
            values.append(value)
        seats = self.made_here(s.seats, env, body, indent, s, "a round of lists")
        x = body.declare(self.fresh("x"))
        body.emit(indent, f"for {x} in {seats}:")
        body.emit(indent + 1, f"S.seat_ok({x}, {loc})")
        rule = -1 if s.rule is None else s.rule
        args = "".join(f"{v}, " for v in values)
        body.emit(indent, f"if not _hooks_next(S, [{self.phases.index(s.phase)}, ({args}), "
                  f"{seats}, {rule}, {env[0]}], {loc}):")
        body.emit(indent + 1, f"S.hooks_resumed({loc})")
        body.emit(indent + 1, f"{self.resume()}(S)")

    def phase_env(self, phase: ir.Phase, body: _Body) -> Env:
        """The locals of a unit of `phase`: `me`, and its parameters (slots 1..n) read
        from the frame when the unit starts (a `goto` in it may change the frame)."""
        env: Env = {0: "me"}
        for k in range(len(phase.params)):
            name = body.declare(f"a{k + 1}_")
            body.emit(1, f"{name} = S.A[{k}]")
            env[k + 1] = name
        return env

    def find_param_types(self) -> None:
        """The type of each phase parameter: the one type of the arguments the gotos and
        calls into its phase give (none goes with any type that may be none)."""
        prog = self.prog
        seen: dict[str, list[set[Type]]] = {name: [set() for _ in phase.params]
                                            for name, phase in prog.phases.items()}
        roots = [*prog.setup, *(s for d in prog.defs.values() for s in d.body)]
        for phase in prog.phases.values():
            roots += [*(phase.on_no_action or ()), *phase.on_enter, *phase.on_resume,
                      *phase.on_reveal,
                      *(s for action in phase.actions for s in action.body)]
        for root in roots:
            for node in ir.walk(root):
                if isinstance(node, (ir.Goto, ir.CallEach)):
                    for k, arg in enumerate(node.args):
                        seen[node.phase][k].add(arg.type)
        for name, phase in prog.phases.items():
            types = []
            for k, found in enumerate(seen[name]):
                if len(found) > 1 and found - {NONE} <= set(NULLABLE):
                    found = found - {NONE}
                if len(found) != 1 or next(iter(found)) not in VAR_TYPES:
                    raise _Outside(phase, f"a phase parameter of type "
                                   f"{' or '.join(sorted(map(str, found))) or 'unknown'} "
                                   f"('{phase.params[k]}' of '{name}')")
                types.append(VAR_TYPES[next(iter(found))])
            self.param_types[name] = tuple(types)

    def no_action(self) -> str:
        """`_no_action(S)`: the `on no action` block of the phase of the top frame."""
        body = _Body("cdef int _no_action(Core S) except -1:")
        for p, phase in enumerate(self.prog.phases.values()):
            if phase.on_no_action is None:
                continue
            self.phase_block(f"no_action_{p}", phase, phase.on_no_action)
            body.emit(1, f"if S.phase == {p}:")
            body.emit(2, f"return no_action_{p}(S, S.seat)")
        body.emit(1, "return 0")
        return body.text()

    def control_tables(self) -> dict[str, str]:
        """The tables of the phases (typed_engine.pyx.in, "Control flow"): the template's
        values, and constants after the rules."""
        phases = list(self.prog.phases.values())
        for p, phase in enumerate(phases):
            if [a.index for a in phase.actions] != list(range(len(phase.actions))):
                raise _Outside(phase, "a phase whose actions are not numbered in order")
        texts = tuple(tuple((a.name, tuple((VAR_TYPES.get(b.type, str(b.type) if b.type ==
                                                             PLACEMENT else "kind"), b.by_cell)
                                           for b in a.binders))
                            for a in phase.actions) for phase in phases)
        by_cell = tuple(tuple(tuple((i, b.name, self.loc(b)) for i, b in enumerate(a.binders)
                                    if b.by_cell) for a in phase.actions) for phase in phases)
        self.consts += [
            f"PHASE_PARAMS = {tuple(self.param_types[phase.name] for phase in phases)!r}",
            f"cdef long *PHASE_AUTO = _array({_packed([int(phase.auto) for phase in phases])})",
            f"cdef long *PHASE_NO_ACTION = "
            f"_array({_packed([int(phase.on_no_action is not None) for phase in phases])})",
            f"cdef long *PHASE_LOCS = _array({_packed([self.loc(phase) for phase in phases])})",
            f"cdef long *PHASE_SIMUL = "
            f"_array({_packed([int(phase.mode == 'simultaneous') for phase in phases])})",
            f"ACTION_TEXTS = {texts!r}", f"BY_CELL = {by_cell!r}"]
        board = self.board
        return {"NPARAMS": str(max([len(phase.params) for phase in phases] + [1])),
                "HAS_TURNS": str(int(any(phase.mode == "turn" for phase in phases))),
                "MAX_AUTO": str(MAX_AUTO),
                "CELL_NAMES": repr(tuple(board.names[c] for c in range(board.size))),
                "SEAT_NAMES": repr(tuple(self.prog.seats)),
                "DIR_NAMES": repr(tuple(board.direction_names))}

    def move(self, s: ir.Move, env: Env, body: _Body, indent: int) -> None:
        """`move p along PATH`: the path made whole, then cell by cell while the piece
        lives, the `on enter` triggers after each step (a `stop` ends the move)."""
        pid = body.declare(self.fresh("o"))
        body.emit(indent, f"{pid} = {self.expr(s.piece, env, body)}")
        made = self.made_here(s.path, env, body, indent, s, "a move along a list of lists")
        body.emit(indent, f"S.piece({pid}, {self.loc(s)})")
        x = body.declare(self.fresh("x"))
        body.emit(indent, f"for {x} in {made}:")
        body.emit(indent + 1, f"if not S.alive[{pid}]:")
        body.emit(indent + 2, "break")
        body.emit(indent + 1, f"S.place({pid}, {x}, {self.loc(s)})")
        if self.prog.triggers:
            body.emit(indent + 1, f"if {self.triggers()}(S, {env[0]}, {pid}, {x}):")
            body.emit(indent + 2, "break")

    def triggers(self) -> str:
        """The `on enter(p, c)` triggers, in order, as one cdef function: 1 when the move
        ends there (a `stop`, or the piece gone)."""
        name = "_on_enter"
        if name in self.fns_done:
            return name
        self.fns_done.add(name)
        unit = _Body(f"cdef int {name}(Core S, long me, long v1, long v2) except -1:")
        for i, trigger in enumerate(self.prog.triggers):
            fn = _Body(f"cdef int on_enter_{i}(Core S, long me, long v1, long v2) except -1:",
                       stops=True)
            env: Env = {0: "me", 1: "v1", 2: "v2"}
            fn.emit(1, f"S.tick({self.loc(trigger)})")
            if trigger.where is not None:
                fn.emit(1, f"if not {self.expr(trigger.where, env, fn)}:")
                fn.emit(2, "return 0")
            # a level of the depth count of fns calling themselves (codegen `trigger`)
            fn.emit(1, f"recurse_enter_trigger(S, {self.loc(trigger)})")
            fn.emit(1, "try:")
            self.statements(trigger.body, env, fn, 2)
            fn.emit(1, "finally:")
            fn.emit(2, "S.recurse_depth -= 1")
            fn.emit(1, "return 0")
            self.functions.append(fn.text())
            unit.emit(1, f"if on_enter_{i}(S, me, v1, v2) or not S.alive[v1]:")
            unit.emit(2, "return 1")
        unit.emit(1, "return 0")
        self.functions.append(unit.text())
        return name

    def text(self, e: ir.Expr, env: Env, body: _Body) -> str:
        """A text (a Python string, made at the boundary: a `log`'s)."""
        if isinstance(e, ir.Const) and isinstance(e.value, str):
            return repr(e.value)
        if body.hoist is not None:
            level = self.hoist_level(e, env, body)
            if level is not None:       # kept for its level, as Python's (`hoisted`)
                name = self.kept_name(e, body, level, "str", "{name}_ = 0")
                body.hoist.declare(f"{name}_", "char", body)
                made = self.unkept(lambda: self.text(e, env, body), body)
                return f"({name} if {name}_ else (({name}_ := 1) and ({name} := {made})))"
        if isinstance(e, ir.Concat):
            joined = f"{self.text(e.left, env, body)} + {self.text(e.right, env, body)}"
            if isinstance(e.left, ir.Const) and isinstance(e.right, ir.Const):
                return f"({joined})"
            return f"_long(S, {joined}, {self.loc(e)})"
        if isinstance(e, ir.Text) and e.expr.type == STR:
            return self.text(e.expr, env, body)
        if isinstance(e, ir.Text) and e.expr.type in SCALARS:
            kind = VAR_TYPES[e.expr.type]
            return f"_text_of(S, {self.expr(e.expr, env, body)}, {kind!r})"
        if isinstance(e, ir.Text) and e.expr.type == ANY and \
                self.simul_side(e.expr, env) in (*NULLABLE, INT):
            # as Python writes a value of `any`: its number (a cell's too), or none
            nullable = int(self.simul_side(e.expr, env) in NULLABLE)
            return f"simul_text_any({self.expr(e.expr, env, body)}, {nullable})"
        found = self.lists_text(e, env, body)
        if found is not None:
            return found
        if isinstance(e, ir.CallBuiltin) and e.name == "plural":
            return self.geo_plural(e, env, body)
        raise _Outside(e, f"the text '{_words(e)}'")

    def assign(self, s: ir.Assign, env: Env, body: _Body, indent: int) -> None:
        """`place = / += / -= value`: a number grown by it is held to limits.MAX_NUMBER as
        on Python (the value is checked before it is kept: a C long never overflows)."""
        place = s.place
        if self.lists_var(place) is not None:
            self.lists_assign(s, env, body, indent)
            return
        if s.until is not None:
            raise _Outside(s, "an assignment 'until turn of' (a timer)")
        if isinstance(place, ir.GlobalPlace):
            target = f"S.G[{self.var_index('global', place.name)}]"
        elif isinstance(place, (ir.SeatVarPlace, ir.PieceVarPlace)):
            obj = body.declare(self.fresh("o"))
            value = body.declare(self.fresh("w"))
            # Python reads the object first unless it is a local or a constant, and for `=`
            # the value before the place
            early = not isinstance(place.obj, (ir.Local, ir.Const))
            if early:
                body.emit(indent, f"{obj} = {self.expr(place.obj, env, body)}")
            if s.op == "=":
                body.emit(indent, f"{value} = {self.expr(s.expr, env, body)}")
            if not early:
                body.emit(indent, f"{obj} = {self.expr(place.obj, env, body)}")
            text = s.span.text if s.span is not None else "it"
            if isinstance(place, ir.SeatVarPlace):
                message = f"'{text}' uses a value that is none"
                target = (f"S.V[_seat({obj}, {self.loc(s)}, {message!r}) * NSV + "
                          f"{self.var_index('seat', place.name)}]")
            else:
                message = f"'{text}' is none here, not a piece"
                target = (f"S.PV[_pid(S, {obj}, {self.loc(s)}, {message!r}) * NPV + "
                          f"{self.var_index('piece', place.name)}]")
            if s.op != "=":
                body.emit(indent, f"{obj} = {target.split('[', 1)[1].rsplit(']', 1)[0]}")
                body.emit(indent, f"{value} = {self.expr(s.expr, env, body)}")
                target = f"S.{'V' if isinstance(place, ir.SeatVarPlace) else 'PV'}[{obj}]"
            self.store(s, target, value, body, indent)
            return
        else:
            raise _Outside(s, f"an assignment to '{_words(s)}'")
        value = body.declare(self.fresh("w"))
        body.emit(indent, f"{value} = {self.expr(s.expr, env, body)}")
        self.store(s, target, value, body, indent)

    def store(self, s: ir.Assign, target: str, value: str, body: _Body, indent: int) -> None:
        if s.op == "=" and not isinstance(s.expr, ir.Binary):
            if s.expr.type == INT and not isinstance(s.expr, ir.Const):
                # a number kept is at most MAX_NUMBER, whatever computed it (the Python
                # backend checks where magnitude.py cannot rule it out); none passes
                body.emit(indent, f"if not -{MAX_NUMBER} <= {value} <= {MAX_NUMBER} "
                          f"and {value} != SMALL_NONE:")
                body.emit(indent + 1, f"_big({value}, {self.loc(s)})")
            body.emit(indent, f"{target} = {value}")
            return
        if s.expr.type != INT:
            raise _Outside(s, f"'{_words(s)}' of a value that is not a number")
        grown = body.declare(self.fresh("g"))
        if self.small_nones and s.op != "=":    # none faults (either side)
            message = f"'{s.span.text if s.span is not None else 'it'}' uses a value that is none"
            value = f"small_some({value}, {self.loc(s)}, {message!r})"
            target_read = f"small_some({target}, {self.loc(s)}, {message!r})"
            body.emit(indent, f"{grown} = {target_read} {s.op[0]} {value}")
        else:
            body.emit(indent, f"{grown} = {value}" if s.op == "=" else
                      f"{grown} = {target} {s.op[0]} {value}")
        body.emit(indent, f"if not -{MAX_NUMBER} <= {grown} <= {MAX_NUMBER}:")
        body.emit(indent + 1, f"_big({grown}, {self.loc(s)})")
        body.emit(indent, f"{target} = {grown}")

    # ----- loops ----------------------------------------------------------------------------
    def loop(self, domain: ir.Expr, env: Env, body: _Body, indent: int, bind: _BINDING,
             at: ir.Node, copy: bool = False, spend: str | None = "S.spend",
             early: bool = False, place: ir.Node | None = None) -> None:
        """Write a loop over the list `domain` (never made: each form of list is its own
        loop); `bind(element, indent)` writes what runs for each element. With `copy` (a
        `for` statement, whose body may move pieces) the pieces are listed first. The
        domain's length is counted as work before the loop starts, as on Python
        (codegen `emit_for`): not a constant list's, a list written out or a
        comprehension's (which counts its own domain). `spend`: what counts it (a scan by
        `in` counts only a long list: `lists_spent`); None: a list made as a value, which
        counts nothing itself, as on Python (a comprehension in it counts its domain).
        `early`: the loop may stop before its end, so a comprehension is made whole first,
        as Python makes it (and counts the work of all its tests). `place`: where a fault of
        the count is located, as on Python (the domain written, through a fn or if/else)."""
        if place is None or place.span is None:
            place = domain if domain.span is not None else at
        tick = None if spend is None else f"S.spend({{n}}, {self.loc(place)})" \
            if spend in ("S.spend", "S.spend_made") else f"{spend}(S, {{n}}, {self.loc(place)})"
        if tick is None and isinstance(domain, ir.CallBuiltin) and domain.name == "range":
            tick = f"S.spend({{n}}, {self.loc(domain)})"   # a range made counts its length
        # a branch of an if/else Python counts (`ir.loop_counts`) is counted whatever it is
        branch = tick if spend == "S.spend_made" else None
        # a constant list or one written out: its length is the rule file's, counted as
        # a loop's (ir.loop_counts), not as a scan's (`in` reads a set on Python)
        fixed = tick if spend in ("S.spend", "S.spend_made") else branch
        if isinstance(domain, ir.Const) and isinstance(domain.value, (tuple, list)):
            self.const_loop(domain, body, indent, bind, fixed)
        elif isinstance(domain, ir.CallBuiltin) and domain.name == "take" and \
                isinstance(domain.args[0], ir.Local) and \
                isinstance(env.get(domain.args[0].slot), _Slice):
            ray = env[domain.args[0].slot]      # the prefix, counted as lists_take's copy
            assert isinstance(ray, _Slice)
            taken = body.declare(self.fresh("n"))
            body.emit(indent, f"{taken} = min(max({self.expr(domain.args[1], env, body)}, 0), "
                      f"{ray.count})")
            body.emit(indent, f"lists_spent(S, {taken}, {self.loc(domain)})")
            self.indexed(body, indent, taken, ray.item, bind, tick)
        elif self.lists_loops(domain, env):
            self.lists_loop(domain, env, body, indent, bind, tick)
        elif isinstance(domain, ir.PieceStat) and is_list(domain.type):
            table = self.lists_kind_column(domain)
            kind = body.declare(self.fresh("k"))
            obj = self.expr(domain.obj, env, body)
            body.emit(indent, f"{kind} = S.kind[{self.piece_of(domain, obj)}]")
            self.indexed(body, indent, f"{table}_n[{kind}]", f"{table}[{kind}][{{i}}]", bind,
                         tick)
        elif isinstance(domain, ir.KindStat) and is_list(domain.type):
            self.small_kind_stat_loop(domain, env, body, indent, bind, tick)
        elif isinstance(domain, ir.Local) and isinstance(env.get(domain.slot), _Row):
            row = env[domain.slot]
            assert isinstance(row, _Row)
            self.indexed(body, indent, f"{row.table}_n[{row.index}]",
                         f"{row.table}[{row.index}][{{i}}]", bind, tick)
        elif isinstance(domain, ir.Local) and isinstance(env.get(domain.slot), _Made):
            made = env[domain.slot]
            assert isinstance(made, _Made)
            self.indexed(body, indent, f"len({made.name})", f"{made.name}[{{i}}]", bind, tick)
        elif isinstance(domain, ir.Local) and isinstance(env.get(domain.slot), _Slice):
            ray = env[domain.slot]
            assert isinstance(ray, _Slice)
            self.indexed(body, indent, ray.count, ray.item, bind, tick)
        elif isinstance(domain, ir.StateValue) and domain.what == "seats":
            made = body.declare(self.fresh("m"), "list")   # the seats still in, made first
            body.emit(indent, f"{made} = S.live()")
            self.indexed(body, indent, f"len({made})", f"{made}[{{i}}]", bind, tick)
        elif isinstance(domain, ir.CallBuiltin) and (domain.name in ("shuffled", "rolls") or (
                domain.name == "range" and not all(isinstance(a, ir.Const) for a in domain.args))):
            self.chance_loop(domain, env, body, indent, bind, at, tick)
        elif isinstance(domain, ir.CallBuiltin):
            self.builtin_loop(domain, env, body, indent, bind, tick, copy)
        elif isinstance(domain, ir.StateValue) and domain.what in ("seats", "winners"):
            x = body.declare(self.fresh("x"))
            test = "not S.out[{x}]" if domain.what == "seats" else "S.over and S.winner[{x}]"
            made = body.declare(self.fresh("m"), "list")
            body.emit(indent, f"{made} = [{x} for {x} in range(NSEATS) if {test.format(x=x)}]")
            _spend(body, indent, tick, f"len({made})")
            body.emit(indent, f"for {x} in {made}:")
            bind(x, indent + 1)
        elif isinstance(domain, ir.ListOf):
            if any(is_list(item.type) for item in domain.items):
                raise _Outside(domain, "a list of lists written out")
            items = body.declare(self.fresh("a"), f"long[{max(len(domain.items), 1)}]")
            for k, item in enumerate(domain.items):
                body.emit(indent, f"{items}[{k}] = {self.expr(item, env, body)}")
            self.indexed(body, indent, str(len(domain.items)), f"{items}[{{i}}]", bind, fixed)
        elif isinstance(domain, ir.Comprehension) and (copy or early or spend == "S.spend_made"):
            # (a scan by `in` counts the list made, as engine `_in` counts any list; and
            # so does a loop over an if/else Python counts: `ir.loop_counts`)
            self.made_loop(domain, env, body, indent, bind, at,
                           tick if spend in ("lists_spent", "S.spend_made") else None)
        elif isinstance(domain, ir.Comprehension):
            if is_list(domain.expr.type) and not domain.flatten:
                raise _Outside(domain, "a comprehension making a list of lists")

            # the listing's values are kept in its test and item (their scope is the
            # listing's own when `env` is), not in its domain (as Python's: codegen `_loop`)
            outer = body.hoist
            own = self.nested_hoist(env, body) is not None

            def each(value: Bound, indent: int) -> None:
                inner = {**env, domain.slot: value}
                if own and outer is not None:
                    outer.envs.append(inner)
                body.hoist = outer
                try:
                    clause(inner, indent)
                finally:
                    body.hoist = None

            def clause(inner: Env, indent: int) -> None:
                assert isinstance(domain, ir.Comprehension)
                if domain.where is not None:
                    body.emit(indent, f"if {self.expr(domain.where, inner, body)}:")
                    indent += 1
                if domain.flatten:      # the next clause's lists, joined
                    self.loop(domain.expr, inner, body, indent, bind, at)
                    return
                text = domain.expr.type == STR      # a comprehension of texts
                y = body.declare(self.fresh("y"), "str" if text else "long")
                body.emit(indent, f"{y} = {self.expr(domain.expr, inner, body)}")
                bind(_Made(y, "str") if text else y, indent)
            body.hoist = None
            try:
                self.loop(domain.domain, env, body, indent, each, at, copy)
            finally:
                body.hoist = outer
        elif isinstance(domain, ir.Cond):     # a list chosen by if/else: a loop in each branch
            if spend == "S.spend" and ir.loop_counts(domain, self.prog.fns):
                spend = "S.spend_made"  # a comprehension in it counts its list, as Python's
            body.emit(indent, f"if {self.expr(domain.cond, env, body)}:")
            self.loop(domain.then, env, body, indent + 1, bind, at, copy, spend, early, place)
            body.emit(indent, "else:")
            self.loop(domain.otherwise, env, body, indent + 1, bind, at, copy, spend, early,
                      place)
        elif isinstance(domain, ir.CallFn) and is_list(domain.type):
            fn = self.prog.fns[domain.name]
            if isinstance(fn.body, ir.FnBlock):
                raise _Outside(fn, f"a fn with a block ('{fn.name}')")
            inner: Env = {0: env[0]}
            for k, arg in enumerate(domain.args):
                if is_list(arg.type):
                    made = body.declare(self.fresh("p"), "list")
                    body.emit(indent, f"{made} = {self.made(arg, env)}")
                    inner[k + 1] = _Made(made)
                    continue
                name = body.declare(self.fresh("p"))
                body.emit(indent, f"{name} = {self.expr(arg, env, body)}")
                inner[k + 1] = name
            self.loop(fn.body, inner, body, indent, bind, at, copy, spend, early, place)
        else:
            raise _Outside(domain, f"a list made by '{_words(domain)}'")

    def made_loop(self, domain: ir.Comprehension, env: Env, body: _Body, indent: int,
                  bind: _BINDING, at: ir.Node, tick: str | None) -> None:
        """A `for` statement over a comprehension: the list is made whole first, as on
        Python (the body may change what its tests read); the comprehension counted its
        domain, the loop counts nothing more (`tick` None) but a scan's."""
        made = self.made_here(domain, env, body, indent, at,
                              "a comprehension making a list of lists", domain)
        self.indexed(body, indent, f"len({made})", f"{made}[{{i}}]", bind, tick)

    def made_here(self, xs: ir.Expr, env: Env, body: _Body, indent: int, at: ir.Node,
                  what: str, where: ir.Node | None = None) -> str:
        """A list made whole in place: a fresh local Python list of C values, filled by
        a loop over `xs` (a list of lists is outside: `what`, at `where` or `at`)."""
        made = body.declare(self.fresh("m"), "list")
        body.emit(indent, f"{made} = []")

        def keep(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(where or at, what)
            body.emit(indent, f"{made}.append({value})")
        self.loop(xs, env, body, indent, keep, at, spend=None)
        return made

    def indexed(self, body: _Body, indent: int, count: str, item: str, bind: _BINDING,
                tick: str | None) -> None:
        """`for i in range(count)`, each element `item` (with `{i}` for the index) bound to
        a fresh local; `count` first counted as work by `tick` (None: not counted)."""
        i = body.declare(self.fresh("i"))
        x = body.declare(self.fresh("x"))
        if tick is not None:
            _spend(body, indent, tick, count)
        body.emit(indent, f"for {i} in range({count}):")
        body.emit(indent + 1, f"{x} = {item.format(i=i)}")
        bind(x, indent + 1)

    def const_loop(self, domain: ir.Const, body: _Body, indent: int, bind: _BINDING,
                   tick: str | None = None) -> None:
        """A loop over a constant list, its length counted by `tick` (None: not, as for a
        scan by `in`)."""
        values = list(domain.value)
        if values and all(isinstance(v, (tuple, list)) for v in values):
            table = self.row_table(domain, values, _element(_element(domain.type)))
            i = body.declare(self.fresh("i"))
            _spend(body, indent, tick, str(len(values)))
            body.emit(indent, f"for {i} in range({len(values)}):")
            bind(_Row(table, i), indent + 1)
            return
        array = self.array([self.value(v, _element(domain.type), domain) for v in values])
        self.indexed(body, indent, str(len(values)), f"{array}[{{i}}]", bind, tick)

    def builtin_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                     bind: _BINDING, tick: str | None, copy: bool) -> None:
        name, args = call.name, call.args
        if name in ("placements", "placed"):
            self.simul_dice_loop(call, env, body, indent, bind, tick)
            return
        if name == "within":
            self.geo_within_loop(call, env, body, indent, bind, tick)
            return
        x = body.declare(self.fresh("x"))

        def counted(n: str) -> None:     # the domain's length, counted before the loop
            _spend(body, indent, tick, n)
        if name == "cells":
            array = self.array(list(self.board.all_cells))
            i = body.declare(self.fresh("i"))
            counted(str(len(self.board.all_cells)))
            body.emit(indent, f"for {i} in range({len(self.board.all_cells)}):")
            body.emit(indent + 1, f"{x} = {array}[{i}]")
        elif name == "pieces_at" and copy:
            made = body.declare(self.fresh("m"), "list")
            body.emit(indent, f"{made} = S.at_list({self.expr(args[0], env, body)})")
            counted(f"len({made})")
            body.emit(indent, f"for {x} in {made}:")
        elif name == "pieces_at":
            c = body.declare(self.fresh("c"))
            nxt = body.declare(self.fresh("n"))
            body.emit(indent, f"{c} = {self.expr(args[0], env, body)}")
            counted(f"_at_count(S, {c})")
            body.emit(indent, f"{nxt} = S.at_first[{c}] if {c} >= 0 else -1")
            body.emit(indent, f"while {nxt} >= 0:")
            body.emit(indent + 1, f"{x} = {nxt}")
            body.emit(indent + 1, f"{nxt} = S.at_next[{nxt}]")
        elif name == "pieces":
            seat = self.expr(args[0], env, body) if args else "0"
            every = "False" if args else "True"
            if copy:
                made = body.declare(self.fresh("m"), "list")
                body.emit(indent, f"{made} = S.owned_list({seat}, {every})")
                counted(f"len({made})")
                body.emit(indent, f"for {x} in {made}:")
            else:
                s = body.declare(self.fresh("s"))
                body.emit(indent, f"{s} = {seat}")
                counted(f"_owned_count(S, {s})" if args else "S.alive_count")
                body.emit(indent, f"for {x} in range(1, S.npieces + 1):")
                test = "S.alive[{x}]" if not args else f"S.alive[{x}] and S.owner[{x}] == {s}"
                body.emit(indent + 1, f"if not ({test.format(x=x)}):")
                body.emit(indent + 2, "continue")
        elif name == "ray" and isinstance(args[2], ir.Const) and args[2].value >= 0 and \
                not self.geo_large_rays():
            base = body.declare(self.fresh("r"))
            i = body.declare(self.fresh("i"))
            rays, lengths, longest = self.ray_tables()
            body.emit(indent, f"{base} = {self.cell_dir(args[0], args[1], env, body, call)}")
            counted(f"min({lengths}[{base}], {args[2].value})")
            body.emit(indent, f"for {i} in range(min({lengths}[{base}], {args[2].value})):")
            body.emit(indent + 1, f"{x} = {rays}[{base} * {longest} + {i}]")
        elif name == "ray":             # a count computed, or a large board
            self.geo_ray_loop(call, env, body, indent, bind, tick)
            return
        elif name in ("orthogonal", "neighbors") and hasattr(self.board, name):
            cells = set(self.board.all_cells)
            rows = [getattr(self.board, name)(c) if c in cells else []
                    for c in range(self.board.size)]
            table = self.row_table(call, rows, CELL)
            c = body.declare(self.fresh("c"))
            i = body.declare(self.fresh("i"))
            none = f"{name}() cannot work with a value that is none"
            cell = self.expr(args[0], env, body)
            body.emit(indent, f"{c} = _value({cell}, {self.loc(call)}, {none!r})")
            counted(f"{table}_n[{c}]")
            body.emit(indent, f"for {i} in range({table}_n[{c}]):")
            body.emit(indent + 1, f"{x} = {table}[{c}][{i}]")
        elif name in ("reach", "sight") and not isinstance(args[2], ir.Const):
            self.geo_stops_loop(call, env, body, indent, bind, tick)
            return
        elif name in ("reach", "sight"):
            table, lengths, longest, width = self.stops_tables(call)
            base = body.declare(self.fresh("r"))
            i = body.declare(self.fresh("i"))
            none = f"{name}() cannot work with a value that is none"
            cell = f"_value({self.expr(args[0], env, body)}, {self.loc(call)}, {none!r})"
            steps = body.declare(self.fresh("k"))
            body.emit(indent, f"{base} = {cell}")
            body.emit(indent, f"{steps} = {self.expr(args[1], env, body)}")
            body.emit(indent, f"{base} = {base} * {longest + 1} + "
                      f"(0 if {steps} < 0 else {longest} if {steps} > {longest} else {steps})")
            counted(f"{lengths}[{base}]")
            body.emit(indent, f"for {i} in range({lengths}[{base}]):")
            body.emit(indent + 1, f"{x} = {table}[{base} * {width} + {i}]")
        elif name == "line":
            table, lengths, longest = self.line_tables(call)
            base = body.declare(self.fresh("r"))
            i = body.declare(self.fresh("i"))
            none = "line() cannot work with a value that is none"
            body.emit(indent, f"{base} = _pair({self.expr(args[0], env, body)}, "
                      f"{self.expr(args[1], env, body)}, {self.loc(call)}, {none!r})")
            counted(f"({lengths}[{base}] if {base} >= 0 else 0)")
            body.emit(indent, f"for {i} in range({lengths}[{base}] if {base} >= 0 else 0):")
            body.emit(indent + 1, f"{x} = {table}[{base} * {longest} + {i}]")
        elif name in ("column_cells", "row_cells"):
            count = self.board.width if name == "column_cells" else self.board.height
            lines = [getattr(self.board, name)(k) for k in range(1, count + 1)]
            table = self.row_table(call, lines, CELL)
            k = body.declare(self.fresh("k"))
            i = body.declare(self.fresh("i"))
            body.emit(indent, f"{k} = {self.expr(args[0], env, body)} - 1")
            counted(f"({table}_n[{k}] if 0 <= {k} < {count} else 0)")
            body.emit(indent, f"for {i} in range({table}_n[{k}] if 0 <= {k} < {count} else 0):")
            body.emit(indent + 1, f"{x} = {table}[{k}][{i}]")
        elif name == "directions":
            counted(str(self.nd))
            body.emit(indent, f"for {x} in range({self.nd}):")
        elif name in ("clockwise_from", "counterclockwise_from"):
            self.hooks_round_loop(call, x, env, body, indent, counted)
        elif name == "pieces_in":
            self.hooks_zone_loop(call, x, env, body, indent, counted)
        elif name in ("exits", "intersections"):
            self.simul_board_loop(call, x, env, body, indent, counted)
        elif name == "range" and all(isinstance(a, ir.Const) for a in args):
            first, last = (a.value for a in args if isinstance(a, ir.Const))
            if last - first >= 1_000_000:
                raise _Outside(call, "a range of a million numbers or more")
            counted(str(max(0, last - first + 1)))
            body.emit(indent, f"for {x} in range({first}, {last + 1}):")
        else:
            raise _Outside(call, f"a list made by '{_words(call)}'")
        bind(x, indent + 1)

    def simul_dice_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                        bind: _BINDING, tick: str | None) -> None:
        """`for p in placements(dice, slots)` (each a text, as on Python: builtins.py
        `placements`) or `for d in placed(p, slot)` (the dice, low first)."""
        i = body.declare(self.fresh("i"))
        made = body.declare(self.fresh("m"), "tuple")
        if call.name == "placed":
            x = body.declare(self.fresh("x"))
            body.emit(indent, f"{made} = {self.simul_placed(call, env, body)}")
        else:
            x = body.declare(self.fresh("x"), "str")
            dice, slots = (self.lists_expr(a, env, body) for a in call.args)
            found = f"simul_placements(S, {dice}, {slots}, {self.loc(call)})"
            level = self.hoist_level(call, env, body)
            if level is not None:   # (of outer binders only: made once for them, as Python's)
                kept = self.kept_name(call, body, level, "tuple", "{name} = None")
                found = f"({kept} if {kept} is not None else ({kept} := {found}))"
            body.emit(indent, f"{made} = {found}")
        _spend(body, indent, tick, f"len({made})")
        body.emit(indent, f"for {i} in range(len({made})):")
        body.emit(indent + 1, f"{x} = {made}[{i}]")
        bind(_Made(x, "str", PLACEMENT) if call.name == "placements" else x, indent + 1)

    def simul_placed(self, call: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`placed(p, slot)`: the tuple of dice (builtins.py `placed_borrowed`)."""
        placement, slot = call.args
        bound = env.get(placement.slot) if isinstance(placement, ir.Local) else None
        if not isinstance(bound, _Made) or bound.type != PLACEMENT:
            raise _Outside(call, f"'{_words(call)}' of what is not an action's placement")
        return (f"simul_placed({bound.name}, SYMBOL_NAMES[{self.expr(slot, env, body)}], "
                f"{self.loc(call)})")

    def simul_board_loop(self, call: ir.CallBuiltin, x: str, env: Env, body: _Body,
                         indent: int, counted: Callable[[str], None]) -> None:
        """`for x in exits(c)` (the directions of the cell's rays that hold a cell: a
        table by cell) or `intersections()` (a constant list of cells)."""
        i = body.declare(self.fresh("i"))
        if call.name == "intersections":
            cells = list(self.board.intersection_cells)
            array = self.array(cells)
            counted(str(len(cells)))
            body.emit(indent, f"for {i} in range({len(cells)}):")
            body.emit(indent + 1, f"{x} = {array}[{i}]")
            return
        rows = [self.board.exits(c) for c in range(self.board.size)]
        table = self.row_table(call, rows, DIR)
        c = body.declare(self.fresh("c"))
        none = "exits() cannot work with a value that is none"
        cell = self.expr(call.args[0], env, body)
        body.emit(indent, f"{c} = _value({cell}, {self.loc(call)}, {none!r})")
        counted(f"{table}_n[{c}]")
        body.emit(indent, f"for {i} in range({table}_n[{c}]):")
        body.emit(indent + 1, f"{x} = {table}[{c}][{i}]")

    # ----- expressions ------------------------------------------------------------------------
    def hoist_level(self, e: ir.Expr, env: Env, body: _Body) -> int | None:
        """The level of the innermost binder `e` reads, when Python's listing keeps `e`'s
        value for that level (`codegen._Memo.hoist`: a call or loop in a test of deeper
        binders, of outer ones only, that rolls no die); else None."""
        hoist = body.hoist
        if hoist is None or not any(env is own for own in hoist.envs) or _cheap(e) or \
                not _pure_in(e, self.impure):
            return None
        own = {n.slot for n in ir.walk(e) if isinstance(n, (ir.Quant, ir.Comprehension))}
        read = ir.locals_read(e) - own
        if read & hoist.inside:
            return None
        level = max((hoist.level_slots.get(s, 0) for s in read), default=0)
        return level if level < hoist.level else None

    def kept_name(self, e: ir.Expr, body: _Body, level: int, ctype: str,
                  reset: str) -> str:
        """The local keeping `e`'s value for `level`: set to `reset` where the level's
        code starts (each binding)."""
        hoist = body.hoist
        assert hoist is not None
        mark = hoist.marks[level]
        name = hoist.names.get((mark, id(e)))
        if name is None:
            name = hoist.names[(mark, id(e))] = self.fresh("hv")
            hoist.resets[mark].append(reset.format(name=name))
        hoist.declare(name, ctype, body)
        return name

    def unkept(self, make: Callable[[], str], body: _Body) -> str:
        """`make()` written with nothing inside it kept apart (as Python's)."""
        hoist, body.hoist = body.hoist, None
        try:
            return make()
        finally:
            body.hoist = hoist

    def hoisted(self, e: ir.Expr, env: Env, body: _Body) -> str | None:
        """`e` read from the value kept for its level (`hoist_level`); else None."""
        if e.type not in SCALARS:
            return None
        level = self.hoist_level(e, env, body)
        if level is None:
            return None
        name = self.kept_name(e, body, level, "long", "{name}_ = 0")
        assert body.hoist is not None
        body.hoist.declare(f"{name}_", "char", body)
        inner = self.unkept(lambda: self.expr(e, env, body), body)
        return f"({name} if {name}_ else _hoisted(&{name}_, &{name}, {inner}))"

    def hoisted_list(self, xs: ir.Expr, env: Env, body: _Body, ctype: str) -> str | None:
        """The list `xs` (`ctype` "list") or its set ("frozenset"), made once for its level
        as Python's listing keeps it (`hoist_level`); else None."""
        element = _element(xs.type)
        if not is_list(xs.type) or is_list(element) or element not in SCALARS or \
                isinstance(xs, ir.CallBuiltin) and xs.name == "range":
            return None     # (a range: the loop over it counts it, as Python's, once)
        level = self.hoist_level(xs, env, body)
        if level is None:
            return None
        name = self.kept_name(xs, body, level, ctype, "{name} = None")
        made = self.unkept(lambda: self.made(xs, env), body)
        if ctype == "frozenset":
            made = f"frozenset({made})"
        return f"({name} if {name} is not None else ({name} := {made}))"

    def expr(self, e: ir.Expr, env: Env, body: _Body) -> str:
        if body.hoist is not None:
            kept = self.hoisted(e, env, body)
            if kept is not None:
                return kept
        if self.small_nones and id(e) not in self.small_skip and self.small_maybe(e) and \
                (id(e) in self.small_guards or id(e) in self.small_tests):
            return self.small_checked(e, env, body)
        if e.type == STR:           # a text: a Python str (an argument, a branch, ...)
            return self.text(e, env, body)
        if is_list(e.type) and not isinstance(e, ir.Const):
            raise _Outside(e, f"a list as a value ('{_words(e)}')")
        if isinstance(e, ir.Const):
            return self.value(e.value, e.type, e)
        if isinstance(e, ir.Local):
            bound = env.get(e.slot)
            if not isinstance(bound, str):
                raise _Outside(e, f"'{e.name}' here")
            return bound
        if isinstance(e, ir.PieceField) and e.name in ("owner", "cell", "kind"):
            return f"S.{e.name}[{self.piece_of(e, self.expr(e.obj, env, body))}]"

        if isinstance(e, ir.PieceStat) and self.small_column_of_values(e):
            return self.small_kind_stat(e, env, body)
        if isinstance(e, ir.PieceStat):
            return f"{self.kind_column(e)}[S.kind[{self.piece_of(e, self.expr(e.obj, env, body))}]]"
        if isinstance(e, ir.KindStat):
            return self.small_kind_stat(e, env, body)
        if isinstance(e, ir.StateValue):
            return self.state_value(e)
        if isinstance(e, ir.Global):
            return f"S.G[{self.var_index('global', e.name)}]"
        if isinstance(e, (ir.SeatVar, ir.PieceField)):
            return self.var_place(e, self.expr(e.obj, env, body))
        if isinstance(e, ir.CallBuiltin):
            return self.builtin(e, env, body)
        if isinstance(e, ir.CallFn):
            if is_list(self.prog.fns[e.name].type):
                raise _Outside(e, "a fn's list as a value")
            if self.lists_block_fn(e):
                return self.lists_call(e, env, body)
            args = "".join(", " + (self.fn_list(a, env, body) if is_list(a.type) else
                                   self.expr(a, env, body)) for a in e.args)
            return f"{self.scalar_fn(e.name)}(S, {env[0]}{args})"
        if isinstance(e, ir.Quant):
            return self.quant(e, env, outer=body)
        if isinstance(e, ir.Compare) and not e.lists:
            return self.compare(e, env, body)
        if isinstance(e, ir.And):
            return f"({self.expr(e.left, env, body)} and {self.expr(e.right, env, body)})"
        if isinstance(e, ir.Or):
            return f"({self.expr(e.left, env, body)} or {self.expr(e.right, env, body)})"
        if isinstance(e, ir.Not):
            return f"(not {self.expr(e.operand, env, body)})"
        if isinstance(e, ir.Binary) and e.type == INT and self.small_late(e):
            return self.small_arithmetic(e, env, body)
        if isinstance(e, ir.Binary) and e.type == INT:
            left, right = self.expr(e.left, env, body), self.simul_operand(e, env, body)
            loc = self.loc(e)
            if e.op in "+-":
                return f"_add({left}, {'-' if e.op == '-' else ''}({right}), {loc})"
            if e.op == "*":
                held = not isinstance(e.left, ir.Const) and not isinstance(e.right, ir.Const)
                return f"_mul({left}, {right}, {loc}, {int(held)})"
            return f"{'_div' if e.op == '/' else '_mod'}({left}, {right}, {loc})"
        if isinstance(e, ir.Neg) and e.type == INT:
            return f"(-{self.expr(e.operand, env, body)})"
        if isinstance(e, ir.In) and e.item.type in SCALARS:
            return self.membership(e, env, body)
        if isinstance(e, ir.Cond):
            return (f"({self.expr(e.then, env, body)} if {self.expr(e.cond, env, body)} "
                    f"else {self.expr(e.otherwise, env, body)})")
        found = self.lists_test(e, env, body)
        if found is not None:
            return found
        raise _Outside(e, f"the expression '{_words(e)}'")

    def state_value(self, e: ir.StateValue) -> str:
        if e.what == "passes" and id(e) not in self.passes_ok:
            raise _Outside(e, "'passes' outside an 'on no action' block")
        values = {"current": "S.current", "turn_number": "S.turn",
                  "decision_number": "S.decisions", "deciding": "(S.seat if S.has_frame else -1)",
                  "passes": "S.passes"}
        if e.what not in values:
            raise _Outside(e, f"'{e.what}' as a value")
        return values[e.what]

    def phase_compare(self, e: ir.Compare) -> str | None:
        """`current_phase == "NAME"` (or !=) as a test of the phase's number."""
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if isinstance(a, ir.StateValue) and a.what == "current_phase" and \
                    isinstance(b, ir.Const) and isinstance(b.value, str) and e.op in ("==", "!="):
                number = self.phases.index(b.value) if b.value in self.phases else \
                    -1 if b.value == "" else -2
                return f"((S.phase if S.has_frame else -1) {e.op} {number})"
        return None

    def var_place(self, e: ir.SeatVar | ir.PieceField, obj: str) -> str:
        """The C place of a seat's or a piece's variable, its seat or piece `obj` checked
        (none faults as on Python, naming `e`)."""
        text = e.span.text if e.span is not None else e.name
        if isinstance(e, ir.SeatVar):
            message = f"'{text}' reads a variable of no seat (the seat is none)"
            return (f"S.V[_seat({obj}, {self.loc(e)}, {message!r}) * NSV + "
                    f"{self.var_index('seat', e.name)}]")
        if e.name not in self.prog.vars["piece"]:
            raise _Outside(e, f"the piece field '{e.name}'")
        return f"S.PV[{self.piece_of(e, obj)} * NPV + {self.var_index('piece', e.name)}]"

    def piece_of(self, e: ir.PieceField | ir.PieceStat, obj: str) -> str:
        """`obj`, the piece whose field `e` reads, checked: none faults as on Python (which
        names the piece's expression)."""
        if self.small_held.get(obj) == KIND:   # a kind of a column of `any` (Python faults)
            raise _Outside(e, f"'{_words(e)}' of a kind")
        at = e.obj if e.obj.span is not None else e
        message = f"'{_words(at)}' is none here, not a piece"
        if isinstance(e.obj, ir.CallBuiltin):      # Python names the built-in (small_)
            message = f"{e.obj.name}() cannot work with a value that is none"
        return f"_pid(S, {obj}, {self.loc(at)}, {message!r})"

    def value(self, v: Any, t: Type, at: ir.Node | Span | None) -> str:
        """A constant as C: numbers and true/false as they are, none as -1, a kind as its
        number."""
        if v is None and t in (*NULLABLE, NONE):
            return "-1"
        if isinstance(v, bool):
            return "1" if v else "0"
        if isinstance(v, int) and -_LIMIT < v < _LIMIT and t in (INT, CELL, PIECE, SEAT, DIR):
            return str(v)
        if isinstance(v, str) and v in self.kinds and t == KIND:
            return str(self.kinds.index(v))
        if isinstance(v, str) and v in self.symbols and t == SYMBOL:
            return str(self.symbols.index(v))
        raise _Outside(at, f"the value {v!r} ({t})")

    def compare(self, e: ir.Compare, env: Env, body: _Body) -> str:
        phase = self.phase_compare(e)
        if phase is not None:
            return phase
        found = self.small_compare(e, env, body)
        if found is None:
            found = self.hidden_compare(e, env, body)
        if found is None:
            found = self.simul_none_test(e, env, body)
        if found is None:
            found = self.lists_test(e, env, body)
        if found is not None:
            return found
        sides = (e.left, e.right)
        nones = [isinstance(s, ir.Const) and s.value is None for s in sides]
        types = {s.type for s, none in zip(sides, nones) if not none}
        if any(nones):
            if e.op not in ("==", "!=") or not types <= set(NULLABLE) | {NONE}:
                raise _Outside(e, f"'{_words(e)}' (none compared with a number)")
        elif e.op not in ("==", "!=") and not types <= {INT}:
            raise _Outside(e, f"'{_words(e)}' (an order of what is not a number)")
        elif not types <= set(SCALARS):
            raise _Outside(e, f"'{_words(e)}'")
        if self.small_late(e):      # (a - b < 0 for a < b: both are below 2^62 either way)
            message = f"'{_words(e)}' uses a value that is none"
            return (f"(small_order({self.small_raw(e.left, env, body)}, "
                    f"{self.small_raw(e.right, env, body)}, {self.loc(e)}, {message!r}) "
                    f"{e.op} 0)")
        return f"({self.expr(e.left, env, body)} {e.op} {self.expr(e.right, env, body)})"

    def builtin(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        name, args = e.name, e.args
        loc = self.loc(e)
        none = f"{name}() cannot work with a value that is none"
        if name == "cell_at":       # (numbers are never none on this engine)
            column, row = (self.expr(a, env, body) for a in args)
            return f"{self.geo_cell_at()}({column}, {row})"
        if name in ("row", "column"):
            cell = f"_value({self.expr(args[0], env, body)}, {loc}, {none!r})"
            op = "//" if name == "row" else "%"
            return f"({cell} {op} {self.board.width} + 1)"
        if name == "step":
            table = self.step_table()
            return f"{table}[{self.cell_dir(args[0], args[1], env, body, e)}]"
        if name == "turn":
            d = f"_value({self.expr(args[0], env, body)}, {loc}, {none!r})"
            return f"_pymod({d} + {self.expr(args[1], env, body)}, {self.nd})"
        if name == "next":
            return f"S.next_seat({self.expr(args[0], env, body)}, {loc})"
        if name == "previous":
            return f"S.hooks_previous({self.expr(args[0], env, body)}, {loc})"
        placed = isinstance(args[0], ir.CallBuiltin) and args[0].name == "placed" \
            if args else False
        if name == "total" or name == "len" and placed:     # of the dice: no work counted
            xs = self.simul_placed(args[0], env, body) if placed and isinstance(
                args[0], ir.CallBuiltin) else self.lists_expr(args[0], env, body)
            return f"len({xs})" if name == "len" else f"simul_total(S, {xs}, {loc})"
        if name == "len":
            return self.length(args[0], env, body, e)
        if name == "nth" and (e.type in NULLABLE or e.type == KIND):
            return self.nth(e, env, body)
        if name == "direction":
            rays, lengths, longest = self.ray_tables()
            return (f"_between({self.expr(args[0], env, body)}, {self.expr(args[1], env, body)}, "
                    f"{rays}, {lengths}, {longest}, {loc})")
        if name == "alive":
            at = args[0] if args[0].span is not None else e
            message = f"'{_words(at)}' is none here, not a piece"
            return f"S.alive[_pid(S, {self.expr(args[0], env, body)}, {self.loc(at)}, {message!r})]"
        if name == "distance" and self.board.size > 256:
            return self.geo_distance(e, env, body)
        if name == "distance":
            return self.lists_distance(e, env, body)
        if name == "opposite":
            d = f"_value({self.expr(args[0], env, body)}, {loc}, {none!r})"
            return f"_pymod({d} + {self.nd // 2}, {self.nd})"
        if name == "last" and e.type in NULLABLE:
            return self.quant(ir.Quant(op="last", slot=-1, name="_", domain=args[0], where=None,
                                       value=None, type=e.type, span=e.span), env,
                              spend=None, outer=body)   # a list read as a value, as last()
        if name == "nth" and e.type == INT and self.simul_within(e):
            return self.nth(e, env, body)       # never none
        if name in ("roll", "successes") or name == "nth" and e.type == INT:
            return self.chance_builtin(e, env, body)
        if name == "pick":
            return self.hidden_pick(e, env)
        found = self.small_builtin(e, env, body)
        if found is not None:
            return found
        if name == "nth" and e.type == ANY and \
                _element(self.simul_typed(args[0])) in (*NULLABLE, KIND):
            return self.nth(e, env, body)       # of a variable the checker typed later
        raise _Outside(e, f"the built-in {name}()")

    def simul_typed(self, e: ir.Expr) -> Type:
        """The type of `e`; a variable read as a list of anything (the checker met the
        assignment that typed it later) as its variable's type."""
        if e.type == _LIST_OF_ANY and isinstance(e, (ir.Global, ir.SeatVar, ir.PieceField)):
            return self.lists_typed(attrs.evolve(e, type=ANY))
        return self.lists_typed(e)

    def simul_side(self, e: ir.Expr, env: Env) -> Type:
        """The type of a compared side: a local of `any` as its `let` found it."""
        if e.type == ANY and isinstance(e, ir.Local):
            bound = env.get(e.slot)
            if isinstance(bound, str):
                return self.simul_locals.get(bound, ANY)
        return self.simul_typed(e)

    def simul_none_test(self, e: ir.Compare, env: Env, body: _Body) -> str | None:
        """`x == none` / `x != none` of a local or variable of `any` that holds cells,
        pieces, seats or directions (none is -1); None for other tests."""
        sides = (e.left, e.right)
        if e.op not in ("==", "!=") or e.lists or ANY not in (e.left.type, e.right.type) \
                or not any(isinstance(s, ir.Const) and s.value is None for s in sides):
            return None
        if not all(self.simul_side(s, env) in NULLABLE or isinstance(s, ir.Const)
                   and s.value is None for s in sides):
            return None
        return f"({self.expr(e.left, env, body)} {e.op} {self.expr(e.right, env, body)})"

    def simul_within(self, e: ir.CallBuiltin) -> bool:
        """Is `nth(xs, k)` never none: `xs` of a length known before play, `k` the
        variable of a loop over `range(1, n)`, n a number or `len(seats)` within it?"""
        length = self.chance_length(e.args[0])
        if self.simul_ranges is None:
            self.simul_ranges = {}
            for node in self.hooks_nodes():
                if not isinstance(node, ir.For) or not isinstance(node.domain, ir.CallBuiltin) \
                        or node.domain.name != "range":
                    continue
                first, last = node.domain.args
                if not isinstance(first, ir.Const) or first.value != 1:
                    continue
                seats = isinstance(last, ir.CallBuiltin) and last.name == "len" and isinstance(
                    last.args[0], ir.StateValue) and last.args[0].what == "seats"
                most = len(self.prog.seats) if seats else \
                    last.value if isinstance(last, ir.Const) else None
                nodes = [n for s in node.body for n in ir.walk(s)]
                if any(isinstance(n, ir.Assign) and isinstance(n.place, ir.LocalPlace)
                       and n.place.slot == node.slot for n in nodes):
                    continue        # the loop's variable changed in it: not known
                if most.__class__ is int:
                    self.simul_ranges.update({id(n): most for n in nodes
                                              if isinstance(n, ir.Local) and n.slot == node.slot})
        return length is not None and self.simul_ranges.get(id(e.args[1]), length + 1) <= length

    def simul_operand(self, e: ir.Binary, env: Env, body: _Body) -> str:
        """The right operand of arithmetic; `nth(xs, k)` of numbers there is the element,
        or (none) Python's fault at the arithmetic: '... uses a value that is none' (the
        left operand computed first, as on Python)."""
        xs = e.right.args[0] if isinstance(e.right, ir.CallBuiltin) and \
            e.right.name == "nth" else None
        if xs is None or _element(self.simul_typed(xs)) != INT \
                or self.chance_length(xs) is not None:
            return self.expr(e.right, env, body)
        assert isinstance(e.right, ir.CallBuiltin)
        message = f"'{e.span.text if e.span is not None else ''}' uses a value that is none"
        return (f"simul_nth({self.lists_expr(xs, env, body)}, "
                f"{self.expr(e.right.args[1], env, body)}, {self.loc(e)}, {message!r})")

    # ----- chance -----------------------------------------------------------------------------
    def chance_check(self) -> None:
        """Dice and shuffles are drawn by statements, end rules and the fns they call, never
        by a listing (which the typed engine runs again to count, to pick, to find one)."""
        prog = self.prog
        random = {name for name, fn in prog.fns.items() if _chance_draws(fn.body)}
        grown = True
        while grown:
            grown = False
            for name, fn in prog.fns.items():
                if name not in random and any(isinstance(n, ir.CallFn) and n.name in random
                                              for n in ir.walk(fn.body)):
                    random.add(name)
                    grown = True
        for phase in prog.phases.values():
            for action in phase.actions:
                for part in [*(p.expr for p in action.where_parts),
                             *(b.domain for b in action.binders)]:
                    for n in ir.walk(part):
                        if _chance_draws(n, top=True) or isinstance(n, ir.CallFn) \
                                and n.name in random:
                            raise _Outside(n, "a die or shuffle drawn while listing the "
                                           "actions")

    def chance_builtin(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`roll(n)`, `roll(n, k)`, `successes(k, n, t)` (dice from the state's generator or
        its forced dice, each an event), `nth(xs, k)` of numbers (a constant k within a
        list whose length is known: never none)."""
        args = [self.expr(a, env, body) for a in e.args if e.name != "nth"]
        loc = self.loc(e)
        if e.name == "roll":
            return f"chance_roll(S, {args[0]}, {args[1] if len(args) > 1 else 1}, {loc})"
        if e.name == "successes":
            return f"chance_successes(S, {', '.join(args)}, {loc})"
        length = self.chance_length(e.args[0])
        k = e.args[1]
        if length is None or not isinstance(k, ir.Const) or k.value.__class__ is not int \
                or not 1 <= k.value <= length:
            if self.small_nones:
                return self.small_pick(e, env, body)
            raise _Outside(e, "nth() of numbers that may be none")
        return self.nth(e, env, body)

    def chance_length(self, xs: ir.Expr) -> int | None:
        """The length of a list known before play (None: not known)."""
        if isinstance(xs, ir.Const) and isinstance(xs.value, (tuple, list)):
            return len(xs.value)
        if isinstance(xs, ir.ListOf):
            return len(xs.items)
        if isinstance(xs, ir.CallBuiltin) and xs.name == "range" and all(
                isinstance(a, ir.Const) and a.value.__class__ is int for a in xs.args):
            first, last = (int(a.value) for a in xs.args if isinstance(a, ir.Const))
            return max(0, last - first + 1)
        if isinstance(xs, ir.CallBuiltin) and xs.name == "shuffled":
            return self.chance_length(xs.args[0])
        return None

    def chance_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                    bind: _BINDING, at: ir.Node, tick: str | None) -> None:
        """A loop over `shuffled(xs)` (xs made whole, then shuffled in place) or
        `rolls(k, n)` (the dice in the order rolled)."""
        if call.name == "range":        # of numbers known in play: held to MAX_LIST
            first, last = body.declare(self.fresh("a")), body.declare(self.fresh("b"))
            body.emit(indent, f"{first} = {self.expr(call.args[0], env, body)}")
            body.emit(indent, f"{last} = {self.expr(call.args[1], env, body)}")
            body.emit(indent, f"if {last} - {first} + 1 > MAX_LIST:")
            body.emit(indent + 1, f"range_too_long({first}, {last}, {self.loc(call)})")
            x = body.declare(self.fresh("x"))
            _spend(body, indent, tick, f"max(0, {last} - {first} + 1)")
            body.emit(indent, f"for {x} in range({first}, {last} + 1):")
            bind(x, indent + 1)
            return
        if call.name == "shuffled":
            made = self.made_here(call.args[0], env, body, indent, at,
                                  "a shuffle of a list of lists", call)
            body.emit(indent, f"lists_spent(S, len({made}), {self.loc(call)})")    # read whole
            body.emit(indent, f"chance_shuffle(S, {made}, {self.loc(call)})")
        else:
            made = body.declare(self.fresh("m"), "list")
            body.emit(indent, f"{made} = chance_rolls(S, {self.expr(call.args[0], env, body)}, "
                      f"{self.expr(call.args[1], env, body)}, {self.loc(call)})")
        self.indexed(body, indent, f"len({made})", f"{made}[{{i}}]", bind, tick)

    def cell_dir(self, cell: ir.Expr, d: ir.Expr, env: Env, body: _Body, at: ir.Node) -> str:
        """cell * directions + direction, each checked (not none, a direction)."""
        loc = self.loc(at)
        name = at.name if isinstance(at, ir.CallBuiltin) else "it"
        none = f"{name}() cannot work with a value that is none"
        cell_value = f"_value({self.expr(cell, env, body)}, {loc}, {none!r})"
        direction = self.expr(d, env, body)
        if not isinstance(d, ir.Const):     # none faults in Python's words
            direction = f"_value({direction}, {loc}, {none!r})"
        return f"({cell_value} * {self.nd} + _direction({direction}, {self.nd}, {loc}))"

    def length(self, xs: ir.Expr, env: Env, body: _Body, at: ir.CallBuiltin) -> str:
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Slice):
            ray = env[xs.slot]
            assert isinstance(ray, _Slice)
            return ray.count
        if xs.type == STR or self.lists_loops(xs, env):
            return f"len({self.lists_value(xs, env, body)})"
        if isinstance(xs, ir.Const) and isinstance(xs.value, (tuple, list)):
            return str(len(xs.value))
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made):
            made = env[xs.slot]
            assert isinstance(made, _Made)
            return f"len({made.name})"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "pieces_at":
            return f"_at_count(S, {self.expr(xs.args[0], env, body)})"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "pieces" and not xs.args:
            return "S.alive_count"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "pieces":
            return f"_owned_count(S, {self.expr(xs.args[0], env, body)})"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "ray" and self.geo_large_rays():
            base = self.cell_dir(xs.args[0], xs.args[1], env, body, xs)
            return f"{self.geo_ray_length()}({base}, {self.expr(xs.args[2], env, body)})"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "ray" and \
                isinstance(xs.args[2], ir.Const) and xs.args[2].value >= 0:
            _, lengths, _ = self.ray_tables()
            return (f"min({lengths}[{self.cell_dir(xs.args[0], xs.args[1], env, body, xs)}], "
                    f"{xs.args[2].value})")
        counting = ir.Quant(op="count", slot=-1, name="_", domain=xs, where=None, value=None,
                            type=INT, span=at.span)
        return self.quant(counting, env, spend=None, outer=body)  # as Python's len(): no work

    @staticmethod
    def scope(env: Env) -> tuple[list[str], str]:
        """The locals in scope a cdef function of them is given (not `me`, always first):
        their names, sorted, and its parameters (`, long x3, list m7`...)."""
        names = sorted({n for v in env.values()
                        for n in ((v.base, v.count) if isinstance(v, _Slice) else
                                  (_c_name(v),))} - {"me"})
        made = {v.name: v.ctype for v in env.values() if isinstance(v, _Made)}
        return names, "".join(f", {made.get(n, 'long')} {n}" for n in names)

    def fn_list(self, xs: ir.Expr, env: Env, body: _Body) -> str:
        """A list given to a fn in an expression: the one the listing keeps for its level
        (as Python's keeps a call's arguments, `codegen._Memo.hoist`), else made here."""
        kept = self.hoisted_list(xs, env, body, "list")
        return self.made(xs, env) if kept is None else kept

    def made(self, xs: ir.Expr, env: Env) -> str:
        """A list given to a fn: made once, where Python makes it, by a cdef function of the
        locals in scope (a Python list of C values)."""
        if isinstance(xs, ir.Const) and isinstance(xs.value, (list, tuple)) and not xs.value:
            return self.lists_const(xs)       # `[]`, of no element type
        if is_list(_element(xs.type)) or _element(xs.type) not in SCALARS:
            raise _Outside(xs, "a list of lists given to a fn")
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made):
            held = env[xs.slot]
            assert isinstance(held, _Made)
            if held.ctype == "list":
                return held.name        # a list a let made (never changed in place)
        if self.lists_fn_whole(xs):
            return self.lists_fn_expr(xs, env)
        name = self.fresh("m")
        names, params = self.scope(env)
        unit = _Body(f"cdef list {name}(Core S, long me{params}):")
        unit.declare("found", "list")
        unit.emit(1, "found = []")

        def keep(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(xs, "a list of lists given to a fn")
            unit.emit(indent, f"found.append({value})")
        self.loop(xs, env, unit, 1, keep, xs, spend=None)
        unit.emit(1, "return found")
        self.functions.append(unit.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    def nth(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`nth(xs, n)` of a list of what may be none: a cdef function given `n` and the
        locals in scope that walks the list to its n-th element (-1: none). A list the
        listing keeps for its level (as Python's keeps nth()'s list), and one at hand whole
        (`held_list`), is read by index."""
        kept = self.hoisted_list(e.args[0], env, body, "list") or self.held_list(e.args[0], env)
        if kept is not None:
            wanted = self.expr(e.args[1], env, body)
            return f"{self.kept_nth()}({kept}, {wanted})"
        name = self.fresh("q")
        names, params = self.scope(env)
        unit = _Body(f"cdef long {name}(Core S, long me{params}, long wanted) except? -2:")
        unit.hoist = self.nested_hoist(env, body)     # kept in its list, as Python's
        unit.declare("found")
        unit.emit(1, "found = 0")

        def each(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(e, "nth() of a list of lists")
            unit.emit(indent, "found += 1")
            unit.emit(indent, "if found == wanted:")
            unit.emit(indent + 1, f"return {value}")
        self.loop(e.args[0], env, unit, 1, each, e, spend=None, early=True)
        unit.emit(1, "return -1")
        self.functions.append(unit.text())
        wanted = self.expr(e.args[1], env, body)
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)}, {wanted})"

    def held_list(self, xs: ir.Expr, env: Env) -> str | None:
        """A list that is at hand whole, read without a fault or work: a global list
        variable, or a list a local holds (nth() then reads its element by index, where
        walking it would count and return the same); None for any other."""
        if isinstance(xs, ir.Global) and self.lists_var(xs) is not None:
            return f"S.LG[{self.var_index('global', xs.name)}]"
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made):
            made = env[xs.slot]
            assert isinstance(made, _Made)
            return made.name
        return None

    def kept_nth(self, none: str = "-1") -> str:
        """`kept_nth(xs, k)`: the k-th element of a list (1 = the first), -1 (none) past
        either end; with `none` SMALL_NONE, `small_nth` (numbers that may be none)."""
        name = "kept_nth" if none == "-1" else "small_nth"
        if name not in self.fns_done:
            self.fns_done.add(name)
            unit = _Body(f"cdef inline long {name}(list xs, long k) except? -2:")
            unit.emit(1, f"return xs[k - 1] if 1 <= k <= len(xs) else {none}")
            self.functions.append(unit.text())
        return name

    def membership(self, e: ir.In, env: Env, body: _Body) -> str:
        """`x in xs` as a cdef function given `x` (computed once, before the list, as on
        Python) and the locals in scope."""
        item = self.expr(e.item, env, body)
        xs = e.collection
        if isinstance(xs, ir.CallBuiltin) and xs.name == "range" and e.item.type == INT:
            test = self.in_numbers(xs, item, env, body)
            return f"(not {test})" if e.negated else test
        if isinstance(xs, ir.Const) and isinstance(xs.value, (tuple, list)) and \
                e.item.type == CELL and all(v is None or isinstance(v, int) for v in xs.value):
            table = self.cell_table(e, list(xs.value))
            none = -1 if None in xs.value else 0
            test = f"_flag({table}, {item}, {none})"
            return f"(not {test})" if e.negated else test
        level = self.hoist_level(xs, env, body)
        if level == 0 and _element(xs.type) == CELL and not any(
                isinstance(n, ir.Local) and n.slot != 0 and n.slot in env for n in ir.walk(xs)):
            test = self.memo(xs, body, item)
            return f"(not {test})" if e.negated else test
        kept = None if level is None else self.hoisted_list(xs, env, body, "frozenset")
        if kept is not None:        # a set made once for its level, as Python's
            return f"({item} {'not in' if e.negated else 'in'} {kept})"
        if _element(xs.type) == CELL and self.board.size <= _CONNECTED_CELLS and (
                isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made)
                or isinstance(xs, (ir.Global, ir.SeatVar, ir.PieceField))
                and self.lists_var(xs) is not None):
            # a list held whole: flags by cell once it is read twice running
            site = self.fresh("cs")
            self.consts.append(f"cdef CellSet {site} = CellSet()")
            place = e if e.span is not None else xs if xs.span is not None else e
            test = (f"lists_has_cell(S, {site}, {item}, {self.lists_expr(xs, env, body)}, "
                    f"{self.loc(place)})")
            return f"(not {test})" if e.negated else test
        name = self.fresh("q")
        names, params = self.scope(env)
        unit = _Body(f"cdef long {name}(Core S, long me{params}, long it) except? -2:")
        unit.hoist = self.nested_hoist(env, body)     # kept in its list, as Python's

        def each(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(e, "'in' a list of lists")
            unit.emit(indent, f"if {value} == it:")
            unit.emit(indent + 1, "return 1")
        if isinstance(xs, ir.ListOf) and len(xs.items) > FREE_SCAN:   # a scan (engine `_in`)
            unit.emit(1, f"lists_spent(S, {len(xs.items)}, {self.loc(e)})")
        self.loop(e.collection, env, unit, 1, each, e, spend="lists_spent", early=True,
                  place=e)
        unit.emit(1, "return 0")
        self.functions.append(unit.text())
        found = f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)}, {item})"
        return f"(not {found})" if e.negated else found

    def in_numbers(self, xs: ir.CallBuiltin, item: str, env: Env, body: _Body) -> str:
        """`item in range(a, b)` as a comparison, no list made (builtins.in_numbers)."""
        if all(isinstance(a, ir.Const) for a in xs.args):     # not too long: checked
            first, last = (a.value for a in xs.args if isinstance(a, ir.Const))
            return f"({first} <= {item} <= {last})"
        if self.small_nones:        # both computed, then a none faults
            (a, check_a), (b, check_b) = (self.small_unchecked(x, env, body) for x in xs.args)
            return f"small_in_numbers({item}, {a}, {b}, {self.loc(xs)}, {check_a}, {check_b})"
        return (f"lists_in_numbers({item}, {self.expr(xs.args[0], env, body)}, "
                f"{self.expr(xs.args[1], env, body)}, {self.loc(xs)})")

    def memo(self, xs: ir.Expr, body: _Body, item: str) -> str:
        """`item in xs` in a listing, `xs` a list of cells that reads no binder: made once
        per listing, when first needed, as flags by cell (as Python's memo makes it a set)."""
        size = self.board.size
        flags = body.declare(self.fresh("f"), f"char[{size + 1}]")
        have = body.declare(self.fresh("h"), "int")
        body.lines.insert(0, f"    {have} = 0")
        name = self.fresh("memo")
        unit = _Body(f"cdef long {name}(Core S, long me, char *flags, int *have, long it) "
                     "except? -2:")
        unit.declare("c")
        unit.emit(1, "if not have[0]:")
        unit.emit(2, f"for c in range({size + 1}):")
        unit.emit(3, "flags[c] = 0")

        def each(value: Bound, indent: int) -> None:
            assert isinstance(value, str)
            unit.emit(indent, f"flags[{value} if {value} >= 0 else {size}] = 1")
        self.loop(xs, {0: "me"}, unit, 2, each, xs, spend=None)
        unit.emit(2, "have[0] = 1")
        unit.emit(1, f"return flags[it if it >= 0 else {size}]")
        self.functions.append(unit.text())
        return f"{name}(S, me, {flags}, &{have}, {item})"

    def nested_hoist(self, env: Env, outer: _Body | None) -> _Hoist | None:
        """The values the listing keeps, for a cdef function written for a part of its test
        (in `outer`, with `env`): Python's listing keeps values inside a quantifier's test,
        in len()'s list, ... too (`codegen._Memo.hoist`); not in an inlined fn's."""
        hoist = None if outer is None else outer.hoist
        if hoist is None or not any(env is own for own in hoist.envs):
            return None
        return hoist

    def quant(self, q: ir.Quant, env: Env, spend: str | None = "S.spend",
              outer: _Body | None = None) -> str:
        """A quantifier as a cdef function of the locals in scope (a return ends its loops);
        `spend` as `loop`'s. A quantifier of the rules (slot >= 0) keeps nothing in its
        domain, as Python's (`codegen._loop`); one standing for a built-in's list does."""
        name = self.fresh("q")
        names, params = self.scope(env)
        body = _Body(f"cdef long {name}(Core S, long me{params}) except? -2:")
        hoist = self.nested_hoist(env, outer)
        body.hoist = hoist if q.slot < 0 else None
        if q.op in ("count", "last"):
            body.declare("found")
            body.emit(1, f"found = {0 if q.op == 'count' else -1}")
        elif q.op in ("sum", "min_of", "max_of"):
            if q.type != INT or q.value is None or q.value.type != INT:
                raise _Outside(q, f"{q.op}() of what is not a number")
            body.declare("found")
            body.declare("seen")
            body.declare("y")
            body.emit(1, "found = 0")
            body.emit(1, "seen = 0")
        elif q.op not in ("exists", "all", "first"):
            raise _Outside(q, f"the quantifier {q.op}()")
        if q.op == "first" and q.type not in NULLABLE:
            raise _Outside(q, f"first() of a list of {q.type}")

        def each(value: Bound, indent: int) -> None:
            inner = {**env, q.slot: value}
            if hoist is not None:
                hoist.envs.append(inner)
            domain, body.hoist = body.hoist, hoist
            try:
                test(value, inner, indent)
            finally:
                body.hoist = domain

        def test(value: Bound, inner: Env, indent: int) -> None:
            if q.where is not None:
                body.emit(indent, f"if {self.expr(q.where, inner, body)}:")
                indent += 1
            if q.op == "exists":
                body.emit(indent, "return 1")
            elif q.op == "all":
                assert q.value is not None
                body.emit(indent, f"if not {self.expr(q.value, inner, body)}:")
                body.emit(indent + 1, "return 0")
            elif q.op in ("sum", "min_of", "max_of"):
                assert q.value is not None
                body.emit(indent, f"y = {self.expr(q.value, inner, body)}")
                if q.op == "sum":
                    body.emit(indent, f"found = _add(found, y, {self.loc(q)})")
                else:
                    better = ">" if q.op == "max_of" else "<"
                    body.emit(indent, f"if not seen or y {better} found:")
                    body.emit(indent + 1, "found = y")
                    body.emit(indent + 1, "seen = 1")
            elif q.op == "last":
                if not isinstance(value, str):
                    raise _Outside(q, "last() of a list of lists")
                body.emit(indent, f"found = {value}")
            elif q.op == "first":
                if isinstance(value, _Row):
                    raise _Outside(q, "first() of a list of lists")
                result = value if q.value is None else self.expr(q.value, inner, body)
                body.emit(indent, f"return {result}")
            else:
                body.emit(indent, "found += 1")
        self.loop(q.domain, env, body, 1, each, q, spend=spend,
                  early=q.op in ("exists", "all", "first"))
        body.emit(1, {"exists": "return 0", "all": "return 1", "first": "return -1",
                      "count": "return found", "last": "return found", "sum": "return found",
                      "min_of": "return found", "max_of": "return found"}[q.op])
        self.functions.append(body.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    # ----- tables -----------------------------------------------------------------------------
    def array(self, values: list[Any]) -> str:
        values = [int(v) for v in values]
        key = ("array", tuple(values))
        if key not in self.const_ids:
            name = self.const_ids[key] = f"C{len(self.const_ids)}"
            self.consts.append(f"cdef long *{name} = _array({_packed(list(values) or [0])})")
        return self.const_ids[key]

    def row_table(self, at: ir.Node, rows: list[Any], element: Type) -> str:
        """A constant list of lists as rows of C arrays: `T[row][i]`, `T_n[row]`."""
        key = ("rows", tuple(tuple(r) for r in rows))
        if key not in self.const_ids:
            name = self.const_ids[key] = f"T{len(self.const_ids)}"
            cells = [[self.value(v, element, at) for v in row] for row in rows]
            packed = ", ".join(_packed(row) for row in cells)
            self.consts.append(f"cdef long **{name} = _rows([{packed}])")
            lengths = _packed([len(r) for r in rows] or [0])
            self.consts.append(f"cdef long *{name}_n = _array({lengths})")
        return self.const_ids[key]

    def step_table(self) -> str:
        key = ("step",)
        if key not in self.const_ids:
            name = self.const_ids[key] = "STEP"
            values = [ray[0] if ray else -1 for rays in self.board.rays for ray in rays]
            self.consts.append(f"cdef long *{name} = _array({_packed(values)})")
        return self.const_ids[key]

    def line_tables(self, at: ir.Node) -> tuple[str, str, int]:
        """`line(a, b)` of every two cells: LINE[(a * NCELLS + b) * longest + i], LINE_n."""
        size = self.board.size
        key = ("line",)
        if key not in self.const_ids:
            if size > 256:
                raise _Outside(at, "line() on a board of more than 256 cells")
            lines = [self.board.line(a, b) for a in range(size) for b in range(size)]
            longest = max((len(x) for x in lines), default=1) or 1
            self.const_ids[key] = f"LINE{longest}"
            flat = [-1 if c is None else c for x in lines
                    for c in (list(x) + [None] * (longest - len(x)))]
            self.consts.append(f"cdef long *LINE = _array({_packed(flat)})")
            self.consts.append(f"cdef long *LINE_n = _array({_packed([len(x) for x in lines])})")
        return "LINE", "LINE_n", int(self.const_ids[key][4:])

    def kind_column(self, e: ir.PieceStat | ir.KindStat) -> str:
        """A column of the kinds table as a C array by kind (numbers and true/false)."""
        values = [self.prog.kinds[k][e.name] for k in self.kinds]
        if e.type not in (INT, BOOL) or not all(isinstance(v, int) for v in values):
            raise _Outside(e, f"the kinds table's column '{e.name}' of type {e.type}")
        return self.array([self.value(v, e.type, e) for v in values])

    # ----- small: `shuffle`; min, max, abs; kinds as values, the kinds table's columns read from a kind ---------------
    def small_shuffle(self, s: ir.Shuffle, env: Env, body: _Body, indent: int) -> None:
        """`shuffle PLACE` (engine.py `Runtime.shuffled`): the list a local or a list
        variable holds, shuffled as a new list (the seat or piece checked as on Python)."""
        place = s.place
        if isinstance(place, ir.LocalPlace) and isinstance(env.get(place.slot), _Made):
            made = env[place.slot]
            assert isinstance(made, _Made)
            if made.ctype != "list":
                raise _Outside(s, f"the statement '{_words(s)}'")
            body.emit(indent, f"{made.name} = list({made.name})")
            body.emit(indent, f"chance_shuffle(S, {made.name}, {self.loc(s)})")
            return
        where = self.lists_var(place)
        if where is None or not isinstance(place, (ir.GlobalPlace, ir.SeatVarPlace,
                                                   ir.PieceVarPlace)):
            raise _Outside(s, f"the statement '{_words(s)}'")
        table, scope = where
        index = self.var_index(scope, place.name)
        if isinstance(place, ir.GlobalPlace):
            target = f"S.LG[{index}]"
        else:
            obj = body.declare(self.fresh("o"))
            body.emit(indent, f"{obj} = {self.expr(place.obj, env, body)}")
            text = s.span.text if s.span is not None else "it"
            if isinstance(place, ir.PieceVarPlace):
                message = f"'{text}' is none here, not a piece"
                target = f"S.LPV[_pid(S, {obj}, {self.loc(s)}, {message!r}) * NPV + {index}]"
            else:
                message = f"'{text}' uses a value that is none"
                target = f"S.LV[_seat({obj}, {self.loc(s)}, {message!r}) * NSV + {index}]"
        made = body.declare(self.fresh("m"), "list")
        body.emit(indent, f"{made} = list({target})")
        body.emit(indent, f"chance_shuffle(S, {made}, {self.loc(s)})")
        body.emit(indent, f"{target} = {made}")

    def small_compare(self, e: ir.Compare, env: Env, body: _Body) -> str | None:
        """`==`/`!=` of a variable of kinds or symbols read as `any` (before the checker
        met the assignment that typed it) with a kind or symbol (or none); None for the
        others."""
        types = {self.small_typed(e.left, env), self.small_typed(e.right, env)}
        if self.small_nones and e.op in ("==", "!=") and len(types) == 2 and \
                NONE in types and types - {NONE} <= {INT, BOOL}:
            sides = [SMALL_NONE if isinstance(x, ir.Const) and x.value is None
                     else self.expr(x, env, body) for x in (e.left, e.right)]
            return f"({sides[0]} {e.op} {sides[1]})"
        if e.op not in ("==", "!=") or ANY not in (e.left.type, e.right.type) or \
                not (types in ({KIND}, {SYMBOL}, {KIND, NONE}, {SYMBOL, NONE})):
            return None
        return f"({self.expr(e.left, env, body)} {e.op} {self.expr(e.right, env, body)})"

    def small_typed(self, e: ir.Expr, env: Env) -> Type:
        """The type of `e`, a variable or a local read as `any` as what it holds."""
        bound = env.get(e.slot) if isinstance(e, ir.Local) else None
        if e.type == ANY and isinstance(bound, str) and bound in self.small_held:
            return self.small_held[bound]
        return self.lists_typed(e)

    def small_arg(self, binder: ir.Binder, value: str) -> str:
        """An action argument's C `value` as the action tuple holds it (`, ` after it): a
        symbol or kind by name, none (a list of them holding none) as None."""
        if binder.type in (SYMBOL, KIND):
            names = "SYMBOL_NAMES" if binder.type == SYMBOL else "KIND_NAMES"
            return f"({names}[{value}] if {value} >= 0 else None), "
        if binder.type == INT and self.small_nones:
            return f"(None if {value} == SMALL_NONE else {value}), "
        if binder.type in (CELL, PIECE, SEAT, DIR):     # none (-1) is None, as on Python
            return f"(None if {value} < 0 else {value}), "
        return f"{value}, "

    def small_param(self, binder: ir.Binder, value: str) -> str:
        """An action tuple's argument `value` as the C value an action's body is given."""
        if binder.type in (SYMBOL, KIND):
            index = "SYMBOL_INDEX" if binder.type == SYMBOL else "KIND_INDEX"
            return f"(-1 if {value} is None else {index}[{value}])"
        if binder.type == INT and self.small_nones:
            return f"(SMALL_NONE if {value} is None else {value})"
        if binder.type in (CELL, PIECE, SEAT, DIR):
            return f"(-1 if {value} is None else {value})"
        return value

    def small_find_nones(self) -> None:
        """Numbers and true/false that may be none (nth() or last() of them, a column of
        them some kinds have no value for): each is none as SMALL_NONE, and where Python
        faults on none (arithmetic, an order, a built-in's argument, a sum) the value read
        is checked; where it tests none (an `if`, `and`, a where) none is false."""
        nodes = [n for root in ir.rule_roots(self.prog) for n in ir.walk(root)]
        self.small_nones = any(self.small_produces(n) for n in nodes)
        if not self.small_nones:
            return
        for n in nodes:
            text = n.span.text if n.span is not None else ""
            uses = f"'{text}' uses a value that is none"
            read: list[ir.Expr] = []
            if isinstance(n, ir.Binary) and n.type == INT or isinstance(n, ir.Compare) and \
                    n.op not in ("==", "!="):
                read = [n.left, n.right]
            elif isinstance(n, ir.Neg):
                read = [n.operand]
            elif isinstance(n, ir.Quant) and n.op in ("sum", "min_of", "max_of") and \
                    n.value is not None:
                read = [n.value]
            elif isinstance(n, ir.CallBuiltin) and n.name not in ("roll", "rolls", "successes"):
                read = [a for a in n.args if a.type == INT]
                uses = f"{n.name}() cannot work with a value that is none"
            elif isinstance(n, ir.CallBuiltin) and n.name == "roll" and len(n.args) == 1:
                read, uses = list(n.args), "cannot roll 1 dice of none sides"
            for x in read:
                self.small_guards[id(x)] = (n, uses)
        self.small_tests |= ir.truth_tested(nodes)

    def small_produces(self, n: ir.Node) -> bool:
        """Does `n` give a number or true/false that may be none?"""
        if isinstance(n, ir.CallBuiltin) and n.name in ("nth", "last") and \
                n.type in (INT, BOOL):
            length = self.chance_length(n.args[0])
            k = n.args[1] if n.name == "nth" else None
            return not (isinstance(k, ir.Const) and k.value.__class__ is int and
                        length is not None and 1 <= k.value <= length)
        if isinstance(n, (ir.KindStat, ir.PieceStat)) and n.type in (INT, BOOL):
            return any(self.prog.kinds[k][n.name] is None for k in self.kinds)
        return False

    @staticmethod
    def small_maybe(e: ir.Expr) -> bool:
        """May `e` be a number or true/false that is none (a value read, not computed)?"""
        return e.type in (INT, BOOL, ANY) and (
            isinstance(e, (ir.Local, ir.Global, ir.SeatVar, ir.PieceField, ir.KindStat,
                           ir.PieceStat, ir.CallFn, ir.Cond)) or
            isinstance(e, ir.CallBuiltin) and e.name in ("nth", "last"))

    def small_raw(self, e: ir.Expr, env: Env, body: _Body) -> str:
        """`e` as it is, SMALL_NONE when none (its reader checks it)."""
        self.small_skip.add(id(e))
        try:
            return self.expr(e, env, body)
        finally:
            self.small_skip.discard(id(e))

    def small_checked(self, e: ir.Expr, env: Env, body: _Body) -> str:
        """`e` read where none faults (checked) or as a test (none is false)."""
        value = self.small_raw(e, env, body)
        if id(e) in self.small_tests:
            return f"({value} > 0)"
        at, message = self.small_guards[id(e)]
        return f"small_some({value}, {self.loc(at)}, {message!r})"

    def small_unchecked(self, e: ir.Expr, env: Env, body: _Body) -> tuple[str, str]:
        """(`e` as it is, SMALL_NONE when none; "LOC, MESSAGE" of the fault its reader
        raises on none, "0, None" when it cannot be none): a built-in's argument whose check
        waits for the arguments after it (Python computes them all first)."""
        guard = self.small_guards.get(id(e))
        if guard is None or not self.small_maybe(e) or id(e) in self.small_tests:
            return self.expr(e, env, body), "0, None"
        at, message = guard
        return self.small_raw(e, env, body), f"{self.loc(at)}, {message!r}"

    def small_late(self, e: ir.Binary | ir.Compare) -> bool:
        """Must `e` check its left operand for none once its right one is computed? Python
        computes both before it meets the none: a fault on the right comes first."""
        left, right = e.left, e.right
        return self.small_nones and self.small_maybe(left) and \
            self.small_guards.get(id(left), (None, ""))[0] is e and \
            not isinstance(right, (ir.Const, ir.Local, ir.Global))

    def small_arithmetic(self, e: ir.Binary, env: Env, body: _Body) -> str:
        """`a + b`, `a - b`, ... whose operands are checked for none once both are known
        (`small_late`)."""
        held = not isinstance(e.left, ir.Const) and not isinstance(e.right, ir.Const)
        operator = {"+": 0, "-": 1, "*": 2, "/": 3, "%": 4}[e.op]
        message = f"'{_words(e)}' uses a value that is none"
        return (f"small_arithmetic({self.small_raw(e.left, env, body)}, "
                f"{self.small_raw(e.right, env, body)}, {operator}, {int(held)}, "
                f"{self.loc(e)}, {message!r})")

    def small_pick(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`nth(xs, n)` or `last(xs)` of numbers or true/false: a cdef function given `n`
        and the locals in scope walking the list (SMALL_NONE: there is none); nth() of a
        list at hand whole (`held_list`) reads it by index (`small_nth`)."""
        held = self.held_list(e.args[0], env) if e.name == "nth" else None
        if held is not None:
            return f"{self.kept_nth('SMALL_NONE')}({held}, {self.expr(e.args[1], env, body)})"
        name = self.fresh("small_q")
        names, params = self.scope(env)
        unit = _Body(f"cdef long {name}(Core S, long me{params}, long wanted) except? -2:")
        unit.declare("found")
        unit.declare("seen")
        unit.emit(1, "found = 0")
        unit.emit(1, "seen = SMALL_NONE")

        def each(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(e, f"{e.name}() of a list of lists")
            unit.emit(indent, "found += 1")
            if e.name == "last":
                unit.emit(indent, f"seen = {value}")
                return
            unit.emit(indent, "if found == wanted:")
            unit.emit(indent + 1, f"return {value}")
        self.loop(e.args[0], env, unit, 1, each, e, spend=None, early=True)
        unit.emit(1, "return seen")
        self.functions.append(unit.text())
        wanted = self.expr(e.args[1], env, body) if e.name == "nth" else "0"
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)}, {wanted})"

    def small_builtin(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str | None:
        """`min(a, b)`, `max(a, b)`, `abs(x)` of numbers (None for the other built-ins)."""
        if e.name == "last" and e.type in (INT, BOOL) and self.small_nones:
            return self.small_pick(e, env, body)
        if e.name in ("min", "max") and e.type == INT:    # both computed, then none faults
            a, b = (self.small_raw(x, env, body) for x in e.args)
            message = f"{e.name}() cannot work with a value that is none"
            return (f"small_least({a}, {b}, {int(e.name == 'max')}, {self.loc(e)}, "
                    f"{message!r})")
        if e.name == "abs" and e.type == INT:
            return f"abs({self.expr(e.args[0], env, body)})"
        return None

    def small_column_of_values(self, e: ir.PieceStat) -> bool:
        """Is `e` a column kind_column does not hold: of symbols or kinds, or with no value
        for some kinds (a second kinds table's)?"""
        values = [self.prog.kinds[k][e.name] for k in self.kinds]
        return e.type in (SYMBOL, KIND) or e.type in (INT, BOOL) and None in values

    def small_kind_stat(self, e: ir.KindStat | ir.PieceStat, env: Env, body: _Body) -> str:
        """`x.COLUMN` of a kind value or a piece's kind (none faults as on Python; a kind
        the column has no value for gives none)."""
        values = [self.prog.kinds[k][e.name] for k in self.kinds]
        if None in values and e.type not in NULLABLE and not self.small_nones:
            raise _Outside(e, f"the kinds table's column '{e.name}' of type {e.type} some "
                           "kinds have no value for")
        table = self.array([SMALL_NONE if v is None and e.type in (INT, BOOL)
                            else self.value(v, e.type, e) for v in values])
        obj = self.expr(e.obj, env, body)
        if isinstance(e, ir.PieceStat):
            return f"{table}[S.kind[{self.piece_of(e, obj)}]]"
        message = f"'{_words(e)}' is none here, not a piece"
        return f"{table}[_value({obj}, {self.loc(e)}, {message!r})]"

    def small_kind_stat_loop(self, e: ir.KindStat, env: Env, body: _Body, indent: int,
                             bind: _BINDING, tick: str | None) -> None:
        """A loop over `k.COLUMN`, a column of lists, of a kind value `k` (none faults as
        on Python)."""
        rows = [self.prog.kinds[k][e.name] for k in self.kinds]
        element = _element(e.type)
        if element == ANY:     # (a kind so found read as a piece: piece_of)
            found = {self.small_constant_type(v) for r in rows if r is not None for v in r}
            element = found.pop() if len(found) == 1 else ANY
        if element not in VAR_TYPES:
            raise _Outside(e, f"the kinds table's column '{e.name}' of type {e.type}")
        table = self.row_table(e, [row or [] for row in rows], element)
        kind = body.declare(self.fresh("k"))
        message = f"'{_words(e)}' is none here, not a piece"
        body.emit(indent, f"{kind} = _value({self.expr(e.obj, env, body)}, {self.loc(e)}, "
                  f"{message!r})")
        if None in rows:        # a kind the column has no list for: Python's loop faults
            missing = self.array([int(row is None) for row in rows])
            body.emit(indent, f"if {missing}[{kind}]:")
            body.emit(indent + 1, f"_raise(\"'{_words(e)}' uses a value that is none\", "
                      f"{self.loc(e)})")

        def held(value: Bound, indent: int) -> None:
            if element != _element(e.type) and isinstance(value, str):
                self.small_held[value] = element
            bind(value, indent)
        self.indexed(body, indent, f"{table}_n[{kind}]", f"{table}[{kind}][{{i}}]", held, tick)

    def small_constant_type(self, v: Any) -> Type:
        """The type of a constant in an untyped column of lists (a kind, a symbol, ...)."""
        if isinstance(v, str):
            return KIND if v in self.kinds else SYMBOL if v in self.symbols else ANY
        return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else ANY

    def stops_tables(self, call: ir.CallBuiltin) -> tuple[str, str, int, int]:
        """`reach` or `sight` with constant stops, for every cell and every number of
        steps up to the longest ray (more steps give the same cells): T[(c * (L + 1) + n) *
        W + i], T_n[c * (L + 1) + n]; (T, T_n, L, W)."""
        stops = call.args[2]
        assert isinstance(stops, ir.Const)      # computed stops: `geo_stops_loop`
        key = (call.name, tuple(sorted(stops.value)))
        longest = max((len(r) for rays in self.board.rays for r in rays), default=0)
        if key not in self.const_ids:
            what = getattr(self.board, call.name)
            lists = [what(c, n, stops.value) for c in range(self.board.size)
                     for n in range(longest + 1)]
            width = max((len(x) for x in lists), default=1) or 1
            name = self.const_ids[key] = f"W{len(self.const_ids)}_{width}"
            flat = [c for x in lists for c in list(x) + [-1] * (width - len(x))]
            self.consts.append(f"cdef long *{name} = _array({_packed(flat)})")
            self.consts.append(f"cdef long *{name}_n = _array({_packed([len(x) for x in lists])})")
        name = self.const_ids[key]
        return name, f"{name}_n", longest, int(name.rsplit("_", 1)[1])

    def cell_table(self, at: ir.Node, cells: list[Any]) -> str:
        """A constant list of cells as a table of NCELLS flags (membership)."""
        wanted = {c for c in cells if c is not None}
        return self.array([int(c in wanted) for c in range(self.board.size)])

    def ray_tables(self) -> tuple[str, str, int]:
        rays = [ray for per_cell in self.board.rays for ray in per_cell]
        longest = max((len(r) for r in rays), default=1) or 1
        key = ("ray",)
        if key not in self.const_ids:
            self.const_ids[key] = "RAY"
            flat = [r[i] if i < len(r) else -1 for r in rays for i in range(longest)]
            self.consts.append(f"cdef long *RAY = _array({_packed(flat)})")
            self.consts.append(f"cdef long *RAY_n = _array({_packed([len(r) for r in rays])})")
        return "RAY", "RAY_n", longest

    # ----- list and text variables (the "lists" slice) ------------------------------------
    # A list value is a Python list of C values (a text element: a str), a text a Python
    # str. Neither is ever changed in place once made: an assignment keeps a new one, so a
    # variable, a local and a copied core may share one.
    def lists_tables(self) -> dict[str, str]:
        """The template's tables of the list and text variables: (index, name, type), and
        the initial values as the core holds them (None for the other variables)."""
        tables = {"MAX_LIST": str(MAX_LIST)}
        for scope, names, init_name in (("global", "LISTS_GLOBALS", "LISTS_G_INIT"),
                                        ("seat", "LISTS_SEATS", "LISTS_SV_INIT"),
                                        ("piece", "LISTS_PIECES", "LISTS_PV_INIT")):
            vars_ = list(self.prog.vars[scope].values())
            kinds: list[str | None] = ([*self.kinds] or [None]) if scope == "piece" else [None]
            rows: list[list[Any]] = [[None] * max(len(vars_), 1) for _ in kinds]
            held = []
            for i, var in enumerate(vars_):
                if var.type not in VAR_TYPES:
                    held.append((i, var.name, _lists_type(var.type)))
                    for row, kind in zip(rows, kinds):
                        value = var.init if var.column is None or kind is None else \
                            self.prog.kinds[kind][var.column]
                        row[i] = self.lists_constant(value, var.type, var.span)
            tables[names] = repr(tuple(held))
            tables[init_name] = repr(tuple(tuple(r) for r in rows) if scope == "piece"
                                     else tuple(rows[0]))
        tables["LISTS"] = str(int(any(var.type not in VAR_TYPES
                                      for vars_ in self.prog.vars.values()
                                      for var in vars_.values())))
        return tables

    def lists_constant(self, value: Any, t: Type, at: ir.Node | Span | None) -> Any:
        """A constant list or text as the core holds it."""
        if t == STR and isinstance(value, str):
            return value
        if is_list(t) and isinstance(value, (list, tuple)):
            element = _element(t)
            if element == STR and all(isinstance(v, str) for v in value):
                return list(value)
            if is_list(element) and not is_list(_element(element)):
                return [self.lists_constant(v, element, at) for v in value]
            if element in VAR_TYPES or element == KIND:
                return [int(self.value(v, element, at)) for v in value]
        raise _Outside(at, f"the value {value!r} ({t})")

    def lists_var(self, place: ir.Node) -> tuple[str, str] | None:
        """(the C place's table, 'global' or 'seat') of a list or text variable named by a
        read or an assignment; None for the other variables."""
        if isinstance(place, (ir.Global, ir.GlobalPlace)):
            scope = "global"
        elif isinstance(place, (ir.SeatVar, ir.SeatVarPlace)):
            scope = "seat"
        elif isinstance(place, (ir.PieceField, ir.PieceVarPlace)):
            scope = "piece"
        else:
            return None
        name = place.name
        var = self.prog.vars[scope].get(name)
        if var is None or var.type in VAR_TYPES:
            return None
        return {"global": "LG", "seat": "LV", "piece": "LPV"}[scope], scope

    def lists_read(self, e: ir.Global | ir.SeatVar | ir.PieceField, env: Env,
                   body: _Body) -> str:
        """A list or text variable's value (the seat or piece checked as on Python)."""
        if isinstance(e, ir.Global):
            return f"S.LG[{self.var_index('global', e.name)}]"
        if isinstance(e, ir.PieceField):
            pid = self.piece_of(e, self.expr(e.obj, env, body))
            return f"S.LPV[{pid} * NPV + {self.var_index('piece', e.name)}]"
        index = self.var_index("seat", e.name)
        text = e.span.text if e.span is not None else e.name
        message = f"'{text}' reads a variable of no seat (the seat is none)"
        obj = self.expr(e.obj, env, body)
        return f"S.LV[_seat({obj}, {self.loc(e)}, {message!r}) * NSV + {index}]"

    def lists_loops(self, xs: ir.Expr, env: Env) -> bool:
        """Is `xs` a list that lists_loop runs over (one made whole first)?"""
        if not is_list(xs.type):
            return False
        if isinstance(xs, (ir.Global, ir.SeatVar, ir.PieceField)):
            return self.lists_var(xs) is not None
        if isinstance(xs, ir.Binary) and xs.op == "+":
            return True
        if isinstance(xs, ir.CallBuiltin) and xs.name in ("take", "reversed", "unique"):
            return True
        if isinstance(xs, ir.CallBuiltin) and xs.name == "range" and \
                not all(isinstance(a, ir.Const) for a in xs.args):
            return True
        if isinstance(xs, ir.Quant) and xs.op in ("sorted", "connected"):
            return True
        if self.lists_block_fn(xs) and is_list(xs.type):
            return True
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made):
            return True     # a local an assignment may change while the loop runs
        return isinstance(xs, (ir.Local, ir.ListOf)) and \
            (_element(xs.type) == STR or is_list(_element(xs.type)))

    def lists_loop(self, xs: ir.Expr, env: Env, body: _Body, indent: int, bind: _BINDING,
                   tick: str | None) -> None:
        """A loop over a list made whole first (a variable's, a join, ...): each element a
        C long, or a text local, counted as work (a range made for the loop counts nothing
        itself, as on Python)."""
        element = _element(self.lists_held(xs, env))
        made = body.declare(self.fresh("m"), "list")
        value = self.lists_range(xs, env, body, counted=False) \
            if isinstance(xs, ir.CallBuiltin) and xs.name == "range" else \
            self.lists_expr(xs, env, body)
        body.emit(indent, f"{made} = {value}")
        i = body.declare(self.fresh("i"))
        ctype = "str" if element == STR else "list" if is_list(element) else "long"
        x = body.declare(self.fresh("x"), ctype)
        _spend(body, indent, tick, f"len({made})")
        body.emit(indent, f"for {i} in range(len({made})):")
        body.emit(indent + 1, f"{x} = {made}[{i}]")
        bind(x if ctype == "long" else _Made(x, ctype), indent + 1)

    def lists_expr(self, xs: ir.Expr, env: Env, body: _Body) -> str:
        """A list as a value: a C expression of a Python list of C values (never changed in
        place, but for one a `let` alone holds, which grows: `lists_owned`; a shared one is
        fine)."""
        element = _element(xs.type)
        if is_list(element) and is_list(_element(element)):
            raise _Outside(xs, "a list of lists of lists as a value")
        if isinstance(xs, ir.Const):
            return self.lists_const(xs)
        if body.hoist is not None:
            level = self.hoist_level(xs, env, body)
            if level is not None:       # kept for its level, as Python's (`hoisted_list`)
                name = self.kept_name(xs, body, level, "list", "{name} = None")
                whole = self.unkept(lambda: self.lists_expr(xs, env, body), body)
                return f"({name} if {name} is not None else ({name} := {whole}))"
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Made):
            made = env[xs.slot]
            assert isinstance(made, _Made)
            return made.name
        if isinstance(xs, ir.Local) and isinstance(env.get(xs.slot), _Slice):
            ray = env[xs.slot]
            assert isinstance(ray, _Slice)
            i = self.fresh("i")
            return f"[{ray.item.format(i=i)} for {i} in range({ray.count})]"
        if isinstance(xs, (ir.Global, ir.SeatVar, ir.PieceField)) and \
                self.lists_var(xs) is not None:
            return self.lists_read(xs, env, body)
        if isinstance(xs, ir.Binary) and xs.op == "+":
            return (f"lists_join(S, {self.lists_expr(xs.left, env, body)}, "
                    f"{self.lists_expr(xs.right, env, body)}, {self.loc(xs)})")
        if isinstance(xs, ir.ListOf):
            items = [self.lists_expr(x, env, body) if is_list(element) else
                     self.text(x, env, body) if element == STR else self.expr(x, env, body)
                     for x in xs.items]
            return f"[{', '.join(items)}]"
        if isinstance(xs, ir.Cond):
            return (f"({self.lists_expr(xs.then, env, body)} if {self.expr(xs.cond, env, body)} "
                    f"else {self.lists_expr(xs.otherwise, env, body)})")
        if isinstance(xs, ir.CallBuiltin) and xs.name == "take":
            return (f"lists_take(S, {self.lists_expr(xs.args[0], env, body)}, "
                    f"{self.expr(xs.args[1], env, body)}, {self.loc(xs)})")
        if isinstance(xs, ir.CallBuiltin) and xs.name == "range":
            return self.lists_range(xs, env, body, counted=True)
        if isinstance(xs, ir.CallBuiltin) and xs.name == "reversed":
            listed = self.lists_expr(xs.args[0], env, body)
            return f"lists_reversed(S, {listed}, {self.loc(xs)})"
        if isinstance(xs, ir.CallBuiltin) and xs.name == "unique":
            listed = self.lists_expr(xs.args[0], env, body)
            if element == CELL and self.board.size <= _CONNECTED_CELLS:
                return f"lists_unique_cells(S, {listed}, {self.loc(xs)})"
            if element in SCALARS:
                return f"lists_unique_flat(S, {listed}, {self.loc(xs)})"
            return f"lists_unique(S, {listed}, {sizing(xs.args[0].type)}, {self.loc(xs)})"
        if isinstance(xs, ir.Quant) and xs.op == "sorted":
            return self.lists_made(xs, env, sort=True, outer=body)
        if isinstance(xs, ir.Quant) and xs.op == "connected":
            return self.lists_connected(xs, env)
        if isinstance(xs, ir.CallFn) and self.lists_block_fn(xs):
            return self.lists_call(xs, env, body)
        if self.lists_fn_whole(xs):
            return self.lists_fn_expr(xs, env)
        return self.lists_made(xs, env)

    def lists_fn_whole(self, e: ir.Expr) -> TypeGuard[ir.CallFn]:
        """Is `e` a call of a fn of an expression (through others) whose expression gives a
        list made whole (a connected(), a unique(), a join, a block fn's...), better given as
        it is than copied element by element?"""
        seen: set[str] = set()
        while isinstance(e, ir.CallFn) and not self.lists_block_fn(e) and e.name not in seen:
            seen.add(e.name)
            e = self.prog.fns[e.name].body
        return bool(seen) and is_list(e.type) and self.lists_loops(e, {})

    def lists_fn_expr(self, xs: ir.CallFn, env: Env) -> str:
        """A fn of an expression giving a list: a cdef function of the locals in scope that
        gives its arguments to the fn's expression as a value (a list it makes, or one it
        names, is not copied)."""
        fn = self.prog.fns[xs.name]
        name = self.fresh("lists_f")
        names, params = self.scope(env)
        unit = _Body(f"cdef list {name}(Core S, long me{params}):")
        inner: Env = {0: env[0]}
        for k, arg in enumerate(xs.args):
            if is_list(arg.type):
                made = unit.declare(self.fresh("p"), "list")
                unit.emit(1, f"{made} = {self.made(arg, env)}")
                inner[k + 1] = _Made(made)
                continue
            value = unit.declare(self.fresh("p"))
            unit.emit(1, f"{value} = {self.expr(arg, env, unit)}")
            inner[k + 1] = value
        unit.emit(1, f"return {self.lists_expr(fn.body, inner, unit)}")
        self.functions.append(unit.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    def lists_range(self, xs: ir.CallBuiltin, env: Env, body: _Body, counted: bool) -> str:
        """`range(a, b)` made whole; `counted`: its length counted as work (not when a loop
        over it counts its items)."""
        if self.small_nones:        # both computed, then a none faults
            (a, check_a), (b, check_b) = (self.small_unchecked(x, env, body) for x in xs.args)
            return (f"small_range(S, {a}, {b}, {self.loc(xs)}, {int(counted)}, {check_a}, "
                    f"{check_b})")
        return (f"lists_range(S, {self.expr(xs.args[0], env, body)}, "
                f"{self.expr(xs.args[1], env, body)}, {self.loc(xs)}, {int(counted)})")

    def lists_const(self, xs: ir.Const) -> str:
        """A constant list as a module constant (a Python list of C values)."""
        value = self.lists_constant(xs.value, xs.type, xs) if xs.value else []
        key = ("lists", repr(value))
        if key not in self.const_ids:
            name = self.const_ids[key] = f"LISTS_K{len(self.const_ids)}"
            self.consts.append(f"{name} = {value!r}")
        return self.const_ids[key]

    def lists_made(self, xs: ir.Expr, env: Env, sort: bool = False,
                   outer: _Body | None = None) -> str:
        """A list made whole by a cdef function of the locals in scope, from a loop over
        `xs` (with `sort`: `xs` a `sorted` quantifier, its elements ordered by its key,
        which reads the values the listing writing `outer` keeps, as Python's)."""
        name = self.fresh("lists_m")
        names, params = self.scope(env)
        unit = _Body(f"cdef list {name}(Core S, long me{params}):")
        hoist = self.nested_hoist(env, outer) if sort else None
        unit.declare("found", "list")
        unit.emit(1, "found = []")
        domain = xs
        if sort:
            assert isinstance(xs, ir.Quant) and xs.value is not None
            if xs.value.type != INT:
                raise _Outside(xs, "sorted() by what is not a number")
            domain = xs.domain

        def keep(value: Bound, indent: int) -> None:
            if isinstance(value, _Row):
                raise _Outside(xs, "a list of lists as a value")
            item = _c_name(value)
            if not sort:
                unit.emit(indent, f"found.append({item})")
                return
            assert isinstance(xs, ir.Quant) and xs.value is not None
            inner = {**env, xs.slot: value}
            if hoist is not None:       # kept in its test and key, not its domain
                hoist.envs.append(inner)
            unit.hoist = hoist
            try:
                if xs.where is not None:
                    unit.emit(indent, f"if {self.expr(xs.where, inner, unit)}:")
                    indent += 1
                key = self.expr(xs.value, inner, unit)
            finally:
                unit.hoist = None
            unit.emit(indent, f"found.append(({key}, {item}))")
        # a sorted() loops over its domain (counted); a list made as a value counts nothing
        self.loop(domain, env, unit, 1, keep, xs, spend="S.spend" if sort else None)
        if sort and self.small_nones:       # a key that is none faults as on Python
            message = f"'{_words(xs)}' uses a value that is none"
            unit.emit(1, f"return small_sorted(found, {self.loc(xs)}, {message!r})")
        else:
            unit.emit(1, "return lists_sorted(found)" if sort else "return found")
        self.functions.append(unit.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    def lists_let(self, s: ir.Let, env: Env, body: _Body, indent: int) -> None:
        """`let x = LIST` (made whole first, as on Python) or `let x = TEXT`."""
        ctype = "str" if s.expr.type == STR else "list"
        name = body.declare(self.fresh("l"), ctype)
        value = self.text(s.expr, env, body) if ctype == "str" else \
            self.lists_expr(s.expr, env, body)
        owned = ctype == "list" and id(s) in self.lists_owned()
        if owned and not (isinstance(s.expr, ir.ListOf) and value.startswith("[")):
            value = f"list({value})"       # its own list, never a shared constant
        body.emit(indent, f"{name} = {value}")
        env[s.slot] = _Made(name, ctype, self.lists_refined()[0].get(id(s)), owned)

    def lists_assign(self, s: ir.Assign, env: Env, body: _Body, indent: int) -> None:
        """`VAR = LIST` or `VAR = TEXT` of a global or a seat's variable: a new value kept
        (the object first unless a local or a constant, then the value, as on Python)."""
        place = s.place
        where = self.lists_var(place)
        if where is None or s.op != "=" or s.until is not None or s.expr.type == NONE:
            raise _Outside(s, f"an assignment to '{_words(s)}'")
        assert isinstance(place, (ir.GlobalPlace, ir.SeatVarPlace, ir.PieceVarPlace))
        table, scope = where
        index = self.var_index(scope, place.name)
        ctype = "str" if s.expr.type == STR else "list"
        value = body.declare(self.fresh("w"), ctype)
        if isinstance(place, ir.GlobalPlace):
            body.emit(indent, f"{value} = {self.lists_value(s.expr, env, body)}")
            body.emit(indent, f"S.LG[{index}] = {value}")
            return
        obj = body.declare(self.fresh("o"))
        early = not isinstance(place.obj, (ir.Local, ir.Const))
        if early:
            body.emit(indent, f"{obj} = {self.expr(place.obj, env, body)}")
        body.emit(indent, f"{value} = {self.lists_value(s.expr, env, body)}")
        if not early:
            body.emit(indent, f"{obj} = {self.expr(place.obj, env, body)}")
        text = s.span.text if s.span is not None else "it"
        if isinstance(place, ir.PieceVarPlace):
            message = f"'{text}' is none here, not a piece"
            body.emit(indent, f"S.LPV[_pid(S, {obj}, {self.loc(s)}, {message!r}) * NPV + "
                      f"{index}] = {value}")
            return
        message = f"'{text}' uses a value that is none"
        body.emit(indent, f"S.LV[_seat({obj}, {self.loc(s)}, {message!r}) * NSV + {index}] = "
                  f"{value}")

    def lists_value(self, e: ir.Expr, env: Env, body: _Body) -> str:
        return self.text(e, env, body) if e.type == STR else self.lists_expr(e, env, body)

    def lists_text(self, e: ir.Expr, env: Env, body: _Body) -> str | None:
        """A text the lists slice writes: a text local or variable, `text()` of a list,
        `join`; None for the others."""
        if isinstance(e, ir.Local) and isinstance(env.get(e.slot), _Made):
            made = env[e.slot]
            assert isinstance(made, _Made)
            return made.name if made.ctype == "str" else None
        if isinstance(e, (ir.Global, ir.SeatVar, ir.PieceField)) and \
                self.lists_var(e) is not None:
            return self.lists_read(e, env, body)
        if isinstance(e, ir.Text) and is_list(e.expr.type) and not is_list(_element(e.expr.type)):
            element = _element(e.expr.type)
            kind = "text" if element == STR else VAR_TYPES.get(element)
            if kind is None:
                return None
            xs = self.lists_expr(e.expr, env, body)
            return f"lists_text(S, {xs}, {kind!r}, {self.loc(e)})"
        if isinstance(e, ir.Cond):
            return (f"({self.text(e.then, env, body)} if {self.expr(e.cond, env, body)} "
                    f"else {self.text(e.otherwise, env, body)})")
        if isinstance(e, ir.CallFn):
            return self.lists_call(e, env, body)
        if isinstance(e, ir.CallBuiltin) and e.name == "join":
            xs = self.lists_expr(e.args[0], env, body)
            sep = self.text(e.args[1], env, body)
            return f"lists_join_texts(S, {xs}, {sep}, {self.loc(e)})"
        return None

    def lists_test(self, e: ir.Expr, env: Env, body: _Body) -> str | None:
        """A test on texts or lists: `==`/`!=` of two texts or two lists, `x in xs` of a
        text; None for the others."""
        if isinstance(e, ir.Compare) and e.op in ("==", "!=") and \
                (e.lists or e.left.type == STR and e.right.type == STR):
            if e.lists:
                left = self.lists_expr(e.left, env, body)
                right = self.lists_expr(e.right, env, body)
                hows = f"{sizing(e.left.type)}, {sizing(e.right.type)}"
                same = f"lists_same(S, {left}, {right}, {hows}, {self.loc(e)})"
            else:
                left, right = self.text(e.left, env, body), self.text(e.right, env, body)
                same = f"texts_same(S, {left}, {right}, {self.loc(e)})"
            return same if e.op == "==" else f"(not {same})"
        if isinstance(e, ir.Compare) and e.op in ("==", "!=") and not e.lists and \
                ANY in (e.left.type, e.right.type):
            types = {self.lists_typed(e.left), self.lists_typed(e.right)}
            if not (types <= {*SCALARS, ANY} - {BOOL, KIND, SYMBOL} or
                    NONE in types and len(types) == 2 and types - {NONE} <= set(NULLABLE)):
                raise _Outside(e, f"'{_words(e)}'")
            # a value of an untyped column or list (a cell, a direction: a C long)
            return f"({self.expr(e.left, env, body)} {e.op} {self.expr(e.right, env, body)})"
        if isinstance(e, ir.In) and e.item.type == ANY and not is_list(_element(e.collection.type)):
            return self.membership(e, env, body)
        if isinstance(e, ir.In) and (is_list(e.item.type) or e.item.type == STR):
            item = self.lists_expr(e.item, env, body) if is_list(e.item.type) else \
                self.text(e.item, env, body)
            xs = self.lists_expr(e.collection, env, body)
            if isinstance(e.collection, ir.Const) and not is_list(e.item.type) and \
                    short_texts(e.collection.value):
                found = f"({item} in {xs})"    # a constant's set, as on Python: not counted
            elif is_list(e.item.type):
                texts = holds_texts(e.item.type)     # one flag for both, as Python's
                hows = f"{sizing(e.item.type, texts)}, {sizing(e.collection.type, texts)}"
                found = f"lists_in_lists(S, {item}, {xs}, {hows}, {self.loc(e)})"
            else:
                found = f"lists_in(S, {item}, {xs}, {self.loc(e)})"
            return f"(not {found})" if e.negated else found
        return None

    def lists_fn(self, name: str) -> str:
        """A fn with a block (its statements, each path ending in a `return`) as a cdef
        function giving a C long, a list or a text."""
        fn = self.prog.fns[name]
        cname = f"fn_{name}"
        if name in self.fns_done:
            return cname
        self.fns_done.add(name)
        env, params = self.params(fn)
        if is_list(fn.type):
            head = f"cdef list {cname}(Core S, long me{params}):"
        elif fn.type == STR:
            head = f"cdef str {cname}(Core S, long me{params}):"
        else:
            head = f"cdef long {cname}(Core S, long me{params}) except? -2:"
        body = _Body(head)
        body.lists_returns = fn.type
        indent = self.recurse_head(fn, body)
        if isinstance(fn.body, ir.FnBlock):
            self.statements(fn.body.body, env, body, indent)
        else:
            self.lists_statement(ir.Result(fn.body, span=fn.body.span), env, body, indent)
        self.recurse_tail(fn, body)
        self.functions.append(body.text())
        return cname

    def lists_call(self, e: ir.CallFn, env: Env, body: _Body) -> str:
        """A call of a fn with a block."""
        args = "".join(", " + (self.lists_expr(a, env, body) if is_list(a.type)
                               else self.expr(a, env, body)) for a in e.args)
        return f"{self.lists_fn(e.name)}(S, {env[0]}{args})"

    def lists_block_fn(self, e: ir.Expr) -> bool:
        return isinstance(e, ir.CallFn) and isinstance(self.prog.fns[e.name].body, ir.FnBlock)

    def lists_statement(self, s: ir.Stmt, env: Env, body: _Body, indent: int) -> bool:
        """`return VALUE` in a fn's block, an assignment to a local: False for the other
        statements."""
        if isinstance(s, ir.Result):
            t = body.lists_returns
            value = self.lists_value(s.expr, env, body) if is_list(t) or t == STR else \
                self.expr(s.expr, env, body)
            body.emit(indent, f"return {value}")
            return True
        if isinstance(s, (ir.Change, ir.Create)) and not isinstance(s.kind, ir.Const) \
                and s.kind.type == KIND:
            # a kind that is a value (a binder, nth() of a list of kinds): none faults
            word = "change" if isinstance(s, ir.Change) else "create"
            values = [body.declare(self.fresh("k")) for _ in range(3)]
            parts = (s.piece, s.kind) if isinstance(s, ir.Change) else (s.kind, s.owner, s.cell)
            for value, part in zip(values, parts):
                body.emit(indent, f"{value} = {self.expr(part, env, body)}")
            kind = values[1] if isinstance(s, ir.Change) else values[0]
            body.emit(indent, f"if {kind} < 0:")
            body.emit(indent + 1, f"_raise(\"'{word}' was given no piece kind (none)\", "
                      f"{self.loc(s)})")
            if isinstance(s, ir.Change):
                body.emit(indent, f"S.change({values[0]}, {values[1]}, {self.loc(s)})")
            else:
                body.emit(indent, f"S.create({values[0]}, {values[1]}, {values[2]}, {self.loc(s)})")
            return True
        if not isinstance(s, ir.Assign) or not isinstance(s.place, ir.LocalPlace):
            return False
        bound = env.get(s.place.slot)
        if isinstance(bound, _Made):
            if s.op != "=":
                raise _Outside(s, f"an assignment to '{_words(s)}'")
            grown = s.expr
            if bound.owned and isinstance(grown, ir.Binary) and grown.op == "+" and \
                    isinstance(grown.left, ir.Local) and grown.left.slot == s.place.slot:
                body.emit(indent, f"lists_extend(S, {bound.name}, "
                          f"{self.lists_expr(grown.right, env, body)}, {self.loc(grown)})")
                return True
            body.emit(indent, f"{bound.name} = {self.lists_value(s.expr, env, body)}")
            return True
        if not isinstance(bound, str) or bound == "me" or is_list(s.expr.type) \
                or s.expr.type == STR:
            raise _Outside(s, f"an assignment to '{_words(s)}'")
        value = body.declare(self.fresh("w"))
        body.emit(indent, f"{value} = {self.expr(s.expr, env, body)}")
        self.store(s, bound, value, body, indent)
        return True

    def lists_kind_column(self, e: ir.PieceStat) -> str:
        """A column of lists of the kinds table as a table of rows by kind."""
        rows = [self.prog.kinds[k][e.name] for k in self.kinds]
        if not all(isinstance(r, (list, tuple)) for r in rows):
            raise _Outside(e, f"the kinds table's column '{e.name}' of type {e.type}")
        element = _element(e.type)
        if element not in VAR_TYPES and all(v.__class__ is int for r in rows for v in r):
            element = INT       # a column of lists of numbers (directions) typed by no rule
        return self.row_table(e, rows, element)

    def lists_distance(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`distance(a, b)` from a table of every two cells (either none faults)."""
        size = self.board.size
        if size > 256:
            raise _Outside(e, "distance() on a board of more than 256 cells")
        key = ("distance",)
        if key not in self.const_ids:
            cells = set(self.board.all_cells)
            self.const_ids[key] = "DISTANCE"
            table = [self.board.distance(a, b) if a in cells and b in cells else 0
                     for a in range(size) for b in range(size)]
            self.consts.append(f"cdef long *DISTANCE = _array({_packed(table)})")
        none = "distance() cannot work with a value that is none"
        pair = (f"_pair({self.expr(e.args[0], env, body)}, {self.expr(e.args[1], env, body)}, "
                f"{self.loc(e)}, {none!r})")
        return f"DISTANCE[_lists_both({pair}, {self.loc(e)}, {none!r})]"

    def lists_typed(self, e: ir.Expr) -> Type:
        """The type of `e`, a variable read as `any` (before the checker met the assignment
        that typed it) as its variable's type."""
        if e.type == ANY and isinstance(e, (ir.Global, ir.SeatVar, ir.PieceField)):
            scope = "global" if isinstance(e, ir.Global) else \
                "seat" if isinstance(e, ir.SeatVar) else "piece"
            var = self.prog.vars[scope].get(e.name)
            return var.type if var is not None else ANY
        return e.type

    def lists_connected(self, q: ir.Quant, env: Env) -> str:
        """`connected(x in STARTS where TEST: NEXT)` as a cdef function of the locals in
        scope (engine.py `_connector`): the starts that pass the test, then breadth first
        every value NEXT gives from one found that passes it, each once, in order found.
        Its locals are named afresh: a connected() in the TEST or NEXT of another is given
        the other's element among the locals in scope."""
        if _element(q.type) not in SCALARS or q.value is None:
            raise _Outside(q, "connected() of what is not a cell, a piece, ...")
        if _element(q.type) == CELL and self.board.size <= _CONNECTED_CELLS:
            return self.lists_connected_cells(q, env)
        name = self.fresh("lists_c")
        names, params = self.scope(env)
        unit = _Body(f"cdef list {name}(Core S, long me{params}):")
        found, seen, following, at, x, y = (
            unit.declare(self.fresh(local), ctype)
            for local, ctype in (("found", "list"), ("seen", "set"), ("following", "list"),
                                 ("at", "long"), ("x", "long"), ("y", "long")))
        unit.emit(1, f"{found} = []")
        unit.emit(1, f"{seen} = set()")
        inner = {**env, q.slot: x}
        test = "1" if q.where is None else self.expr(q.where, inner, unit)

        def start(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(q, "connected() of a list of lists")
            unit.emit(indent, f"{x} = {value}")
            unit.emit(indent, f"if {x} not in {seen} and {test}:")
            unit.emit(indent + 1, f"{seen}.add({x})")
            unit.emit(indent + 1, f"{found}.append({x})")
        self.loop(q.domain, env, unit, 1, start, q)
        loc = self.loc(q)
        unit.emit(1, f"{at} = 0")
        unit.emit(1, f"while {at} < len({found}):")
        unit.emit(2, f"{x} = {found}[{at}]")
        unit.emit(2, f"{at} += 1")
        unit.emit(2, f"{following} = {self.lists_expr(q.value, inner, unit)}")
        unit.emit(2, f"S.work += len({following})")
        unit.emit(2, "if S.work > MAX_WORK:")
        unit.emit(3, f"_raise(OVERWORKED, {loc})")
        unit.emit(2, f"for {y} in {following}:")
        unit.emit(3, f"if {y} not in {seen}:")
        unit.emit(4, f"{seen}.add({y})")
        unit.emit(4, f"{x} = {y}")
        unit.emit(4, f"if {test}:")
        unit.emit(5, f"{found}.append({y})")
        unit.emit(1, f"return {found}")
        self.functions.append(unit.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    def lists_connected_cells(self, q: ir.Quant, env: Env) -> str:
        """lists_connected of cells with C arrays on the stack (a TEST or NEXT may call
        connected again): `seen` by cell + 1 (none is -1), `found` with its count, the
        Python list made once at the end; NEXT a geometry table (orthogonal(x), ...) read
        in place, else made as a list. The same order, work counted and faults. Its locals
        are named afresh, as lists_connected's."""
        assert q.value is not None      # lists_connected checked
        name = self.fresh("lists_c")
        names, params = self.scope(env)
        size = self.board.size + 1
        unit = _Body(f"cdef list {name}(Core S, long me{params}):")
        found, seen, nfound, at, x, y = (
            unit.declare(self.fresh(local), ctype)
            for local, ctype in (("found", f"long[{size}]"), ("seen", f"char[{size}]"),
                                 ("nfound", "long"), ("at", "long"), ("x", "long"),
                                 ("y", "long")))
        unit.emit(1, f"memset({seen}, 0, {size})")
        unit.emit(1, f"{nfound} = 0")
        inner = {**env, q.slot: x}
        test = "1" if q.where is None else self.expr(q.where, inner, unit)

        def start(value: Bound, indent: int) -> None:
            if not isinstance(value, str):
                raise _Outside(q, "connected() of a list of lists")
            unit.emit(indent, f"{x} = {value}")
            unit.emit(indent, f"if not {seen}[{x} + 1] and {test}:")
            unit.emit(indent + 1, f"{seen}[{x} + 1] = 1")
            unit.emit(indent + 1, f"{found}[{nfound}] = {x}")
            unit.emit(indent + 1, f"{nfound} += 1")
        self.loop(q.domain, env, unit, 1, start, q)
        loc = self.loc(q)
        unit.emit(1, f"{at} = 0")
        unit.emit(1, f"while {at} < {nfound}:")
        unit.emit(2, f"{x} = {found}[{at}]")
        unit.emit(2, f"{at} += 1")
        call = q.value
        if isinstance(call, ir.CallBuiltin) and call.name in ("orthogonal", "neighbors") \
                and hasattr(self.board, call.name):
            cells = set(self.board.all_cells)
            rows = [getattr(self.board, call.name)(c) if c in cells else []
                    for c in range(self.board.size)]
            table = self.row_table(call, rows, CELL)
            c = unit.declare(self.fresh("c"))
            i = unit.declare(self.fresh("i"))
            none = f"{call.name}() cannot work with a value that is none"
            cell = self.expr(call.args[0], inner, unit)
            unit.emit(2, f"{c} = _value({cell}, {self.loc(call)}, {none!r})")
            unit.emit(2, f"S.work += {table}_n[{c}]")
            each, value = f"for {i} in range({table}_n[{c}]):", f"{table}[{c}][{i}]"
        else:
            following = unit.declare(self.fresh("following"), "list")
            unit.emit(2, f"{following} = {self.lists_expr(q.value, inner, unit)}")
            unit.emit(2, f"S.work += len({following})")
            each, value = f"for {y} in {following}:", y
        unit.emit(2, "if S.work > MAX_WORK:")
        unit.emit(3, f"_raise(OVERWORKED, {loc})")
        unit.emit(2, each)
        if value != y:
            unit.emit(3, f"{y} = {value}")
        unit.emit(3, f"if not {seen}[{y} + 1]:")
        unit.emit(4, f"{seen}[{y} + 1] = 1")
        unit.emit(4, f"{x} = {y}")
        unit.emit(4, f"if {test}:")
        unit.emit(5, f"{found}[{nfound}] = {y}")
        unit.emit(5, f"{nfound} += 1")
        unit.emit(1, f"return [{found}[{at}] for {at} in range({nfound})]")
        self.functions.append(unit.text())
        return f"{name}(S, {env[0]}{''.join(f', {n}' for n in names)})"

    def lists_refined(self) -> tuple[dict[int, Type], dict[str, Type]]:
        """What a local list holds when its `let` says less (`let found = []`, then
        `found = found + [xs]`): (by id of the `let`, the type its assignments give), and
        (by fn, the type of the local its block returns)."""
        if self.lists_cache is not None:
            return self.lists_cache
        lets: dict[int, Type] = {}
        fns: dict[str, Type] = {}
        units = self.lists_units()
        for name, roots in units:
            nodes = [n for root in roots for n in ir.walk(root)]
            given: dict[int, set[Type]] = {}
            for n in nodes:
                if isinstance(n, ir.Assign) and isinstance(n.place, ir.LocalPlace) and \
                        is_list(n.expr.type) and _element(n.expr.type) != ANY:
                    given.setdefault(n.place.slot, set()).add(n.expr.type)
            typed_lets: dict[int, Type] = {}
            for n in nodes:
                if isinstance(n, ir.Let) and n.expr.type == _LIST_OF_ANY \
                        and len(given.get(n.slot, ())) == 1:
                    lets[id(n)] = typed_lets[n.slot] = next(iter(given[n.slot]))
            if name is not None and self.prog.fns[name].type == _LIST_OF_ANY:
                returned = {typed_lets.get(n.expr.slot) for n in nodes
                            if isinstance(n, ir.Result) and isinstance(n.expr, ir.Local)}
                found = returned.pop() if len(returned) == 1 else None
                if found is not None:
                    fns[name] = found
        for name, roots in units:         # a let of a fn's list the fn's block typed
            for n in (n for root in roots for n in ir.walk(root)):
                if isinstance(n, ir.Let) and isinstance(n.expr, ir.CallFn) and \
                        n.expr.name in fns and n.expr.type == _LIST_OF_ANY:
                    lets[id(n)] = fns[n.expr.name]
        self.lists_cache = (lets, fns)
        return self.lists_cache

    def lists_units(self) -> list[tuple[str | None, list[ir.Node]]]:
        """Each unit whose locals are numbered apart (a fn, a def, setup, an action, a
        block), by its fn's name (None: not a fn) and its roots."""
        units: list[tuple[str | None, list[ir.Node]]] = [
            (n, [f.body]) for n, f in self.prog.fns.items()]
        units += [(None, [d]) for d in self.prog.defs.values()]
        units.append((None, list(self.prog.setup)))
        for phase in self.prog.phases.values():
            units += [(None, [a]) for a in phase.actions]
            units += [(None, list(block)) for block in (phase.on_enter, phase.on_resume,
                                                        phase.on_no_action or (),
                                                        phase.on_reveal)]
        return units

    def lists_owned(self) -> set[int]:
        """The `let`s (by id) of a list grown in place: `let xs = [...]` (a new list) whose
        local is only ever assigned `xs = xs + LIST` (LIST not reading it) and otherwise
        only read where no value can keep it: looped over, scanned by `in`, compared,
        joined into a new list, given to a built-in that makes a new list or a value, or
        returned. No other value then holds the list, so `xs + LIST` may extend it in place
        (`lists_extend`: the same work counted and the same limit as a join)."""
        if self.owned_cache is not None:
            return self.owned_cache
        owned: set[int] = set()
        safe_builtins = {"len", "nth", "take", "reversed", "unique", "last", "first"}
        for _, roots in self.lists_units():
            nodes, parents = _nodes_and_parents(roots)

            def grows(n: ir.Node, slot: int) -> bool:
                """Is `n` the `xs + LIST` of `xs = xs + LIST`?"""
                return isinstance(n, ir.Binary) and n.op == "+" and \
                    isinstance(n.left, ir.Local) and n.left.slot == slot and \
                    slot not in ir.locals_read(n.right) and all(
                        isinstance(a, ir.Assign) and a.expr is n and a.op == "=" and
                        isinstance(a.place, ir.LocalPlace) and a.place.slot == slot
                        for a in parents.get(id(n), ()))

            def reads_only(local: ir.Local, by: ir.Node) -> bool:
                if isinstance(by, ir.Binary):
                    return by.op == "+"         # a join: a new list (or the growing one)
                if isinstance(by, ir.In):
                    return by.collection is local and by.item is not local
                if isinstance(by, (ir.For, ir.Comprehension, ir.Quant)):
                    return by.domain is local
                if isinstance(by, ir.CallBuiltin):
                    return by.name in safe_builtins
                return isinstance(by, (ir.Compare, ir.Result))

            for n in nodes:
                if not isinstance(n, ir.Let) or not is_list(n.expr.type) or not (
                        isinstance(n.expr, ir.ListOf) or isinstance(n.expr, ir.Const)
                        and n.expr.value in ([], ())):
                    continue
                slot = n.slot
                if all(not isinstance(m, ir.Assign) or not isinstance(m.place, ir.LocalPlace)
                       or m.place.slot != slot or grows(m.expr, slot) for m in nodes) and all(
                        not isinstance(m, ir.Local) or m.slot != slot or
                        all(reads_only(m, by) for by in parents.get(id(m), ()))
                        for m in nodes):
                    owned.add(id(n))
        self.owned_cache = owned
        return owned

    def lists_slices(self) -> set[int]:
        """The `let`s (by id) of `ray(c, d, n)` kept as a slice of the ray table, no list
        made (`_Slice`): the local never assigned, and only looped over (`for`, a
        quantifier, a comprehension, `in`), its length read, a prefix of it looped over
        (`take(x, k)`) or returned (a list made then)."""
        if self.slices_cache is not None:
            return self.slices_cache
        found: set[int] = set()
        if self.geo_large_rays():
            self.slices_cache = found
            return found
        for _, roots in self.lists_units():
            nodes, parents = _nodes_and_parents(roots)

            def looped(n: ir.Node) -> bool:
                return all(isinstance(by, (ir.For, ir.Comprehension, ir.Quant)) and
                           by.domain is n or isinstance(by, ir.Result) or
                           isinstance(by, ir.In) and by.collection is n and by.item is not n
                           for by in parents.get(id(n), ()))

            def read(local: ir.Local, by: ir.Node) -> bool:
                if isinstance(by, ir.CallBuiltin) and by.args and by.args[0] is local:
                    return by.name in ("len", "last") or by.name == "take" and looped(by)
                return looped(local)

            for n in nodes:
                if not isinstance(n, ir.Let) or not isinstance(n.expr, ir.CallBuiltin) or \
                        n.expr.name != "ray" or len(n.expr.args) != 3:
                    continue
                slot = n.slot
                if any(isinstance(m, ir.Assign) and isinstance(m.place, ir.LocalPlace) and
                       m.place.slot == slot for m in nodes):
                    continue
                if all(not isinstance(m, ir.Local) or m.slot != slot or
                       all(read(m, by) for by in parents.get(id(m), ())) for m in nodes):
                    found.add(id(n))
        self.slices_cache = found
        return found

    def lists_slice(self, s: ir.Let, env: Env, body: _Body, indent: int) -> None:
        """`let x = ray(c, d, n)` as a `_Slice`: the arguments computed (a none faulting) as
        the loop over the ray computes them; no work counted, as for a list made."""
        assert isinstance(s.expr, ir.CallBuiltin)
        cell, d, n = s.expr.args
        rays, lengths, longest = self.ray_tables()
        base = body.declare(self.fresh("r"))
        count = body.declare(self.fresh("n"))
        body.emit(indent, f"{base} = {self.cell_dir(cell, d, env, body, s.expr)}")
        body.emit(indent, f"{count} = min({lengths}[{base}], max({self.expr(n, env, body)}, 0))")
        env[s.slot] = _Slice(base, count, f"{rays}[{base} * {longest} + {{i}}]")

    def lists_held(self, xs: ir.Expr, env: Env) -> Type:
        """The type of the list `xs`, a local's or a fn's as lists_refined found it."""
        bound = env.get(xs.slot) if isinstance(xs, ir.Local) else None
        if isinstance(bound, _Made) and bound.type is not None:
            return bound.type
        if isinstance(xs, ir.CallFn):
            return self.lists_refined()[1].get(xs.name, xs.type)
        return xs.type

    # ----- large boards, rays of computed length, plural() (the geo_ names) -------------
    def geo_distance_fn(self, at: ir.Node) -> str:
        """`geo_distance(a, b)`: the board's distance of two cells (neither none) in C,
        from their columns and rows, as boards.py's (a board too large for a table of every
        two cells)."""
        name = "geo_distance"
        if name in self.fns_done:
            return name
        board, width = self.board, self.board.width
        unit = _Body(f"cdef long {name}(long a, long b) except -1:")
        for local in ("dc", "dr", "ac", "bc"):
            unit.declare(local)
        unit.emit(1, f"ac, bc = a % {width}, b % {width}")
        if board.kind == "hex":         # cube coordinates: x the column
            unit.emit(1, f"dr = (a // {width} - (ac - (ac & 1)) // 2) - "
                      f"(b // {width} - (bc - (bc & 1)) // 2)")
            unit.emit(1, "dc = ac - bc")
            unit.emit(1, "return max(labs(dc), labs(dr), labs(dc + dr))")
        else:
            unit.emit(1, "dc = labs(ac - bc)")
            unit.emit(1, f"dr = labs(a // {width} - b // {width})")
        if board.kind == "table":       # the straight line, rounded up
            unit.declare("squared")
            unit.declare("root")
            unit.emit(1, "squared = dc * dc + dr * dr")
            unit.emit(1, "root = geo_isqrt(squared)")
            unit.emit(1, "return root if root * root == squared else root + 1")
            self.geo_isqrt()
        elif board.kind == "square":
            unit.emit(1, "return dc + dr" if len(board.directions) == 4 else
                      "return dc if dc > dr else dr")
        elif board.kind != "hex":
            raise _Outside(at, f"distance() on a {board.kind} board of more than 256 cells")
        self.fns_done.add(name)
        self.functions.append(unit.text())
        return name

    def geo_isqrt(self) -> str:
        """`geo_isqrt(n)`: math.isqrt of a number n >= 0 below 2^52 (the root as a
        double, then made exact)."""
        name = "geo_isqrt"
        if name not in self.fns_done:
            self.fns_done.add(name)
            unit = _Body(f"cdef long {name}(long n):")
            unit.declare("root")
            unit.emit(1, "root = <long>sqrt(<double>n)")
            unit.emit(1, "while root * root > n:")
            unit.emit(2, "root -= 1")
            unit.emit(1, "while (root + 1) * (root + 1) <= n:")
            unit.emit(2, "root += 1")
            unit.emit(1, "return root")
            self.functions.append("from libc.math cimport sqrt\n\n" + unit.text())
        return name

    def geo_plural(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`plural(n, word[, words])`: builtins.py's own function, imported by the module."""
        if "geo_plural" not in self.fns_done:
            self.fns_done.add("geo_plural")
            package = __package__.rsplit(".", 1)[0]
            self.functions.append(f"from {package}.language.builtins import plural as "
                                  "geo_plural\n")
        n, *words = e.args
        texts = "".join(f", {self.text(w, env, body)}" for w in words)
        return f"_long(S, geo_plural({self.expr(n, env, body)}{texts}), {self.loc(e)})"

    def geo_large_rays(self) -> bool:
        """Is the board's table of every ray too large to write into the module (rays are
        then walked step by step)?"""
        longest = max((len(r) for rays in self.board.rays for r in rays), default=0)
        return bool(self.board.size * self.nd * longest > GEO_RAY_TABLE)

    def geo_ray_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                        bind: _BINDING, tick: str | None) -> None:
        """`for x in ray(c, d, n)` with n computed (or on a board of large rays): the cells
        step by step from c, at most n of them (none when n < 0), to the edge or a hole."""
        base, count, x, i = (body.declare(self.fresh(n)) for n in "rnxi")
        cell_dir = self.cell_dir(call.args[0], call.args[1], env, body, call)
        body.emit(indent, f"{base} = {cell_dir}")
        body.emit(indent, f"{count} = {self.expr(call.args[2], env, body)}")
        _spend(body, indent, tick, f"{self.geo_ray_length()}({base}, {count})")
        body.emit(indent, f"{i} = 0")
        body.emit(indent, f"while {i} < {count}:")
        body.emit(indent + 1, f"{x} = {self.step_table()}[{base}]")
        body.emit(indent + 1, f"if {x} < 0:")
        body.emit(indent + 2, "break")
        body.emit(indent + 1, f"{base} = {x} * {self.nd} + {base} % {self.nd}")
        body.emit(indent + 1, f"{i} += 1")
        bind(x, indent + 1)

    def geo_stops_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                       bind: _BINDING, tick: str | None) -> None:
        """`for x in reach(c, n, stops)` or `sight(...)` with stops computed: the arguments
        in Python's order, the stops as flags by cell (a none in them stops nothing), then
        each direction walked step by step into a list made whole, whose length is counted
        before the loop (as Python makes the list); a cell none faults once every argument
        is computed, as the Python built-in does."""
        size, nd = self.board.size, self.nd
        longest = max((len(r) for rays in self.board.rays for r in rays), default=0)
        flags = body.declare(self.fresh("f"), f"char[{size + 1}]")
        made = body.declare(self.fresh("o"), f"long[{max(nd * longest, 1)}]")
        cell, steps, count, base, d, j, t, i, x = (body.declare(self.fresh(n))
                                                   for n in "cknbdjtix")
        body.emit(indent, f"{cell} = {self.expr(call.args[0], env, body)}")
        body.emit(indent, f"{steps} = {self.expr(call.args[1], env, body)}")
        body.emit(indent, f"for {i} in range({size + 1}):")
        body.emit(indent + 1, f"{flags}[{i}] = 0")

        def stop(value: Bound, indent: int) -> None:
            assert isinstance(value, str)       # a cell
            body.emit(indent, f"{flags}[{value} if {value} >= 0 else {size}] = 1")
        listed = self.hoisted_list(call.args[2], env, body, "list")
        if listed is None:
            self.loop(call.args[2], env, body, indent, stop, call, spend=None)
        else:                   # made once for its level, as Python's listing keeps it
            self.indexed(body, indent, f"len({listed})", f"{listed}[{{i}}]", stop, None)
        none = f"{call.name}() cannot work with a value that is none"
        body.emit(indent, f"{cell} = _value({cell}, {self.loc(call)}, {none!r})")
        body.emit(indent, f"{count} = 0")
        body.emit(indent, f"for {d} in range({nd}):")
        body.emit(indent + 1, f"{base} = {cell} * {nd} + {d}")
        body.emit(indent + 1, f"{j} = 0")
        body.emit(indent + 1, f"while {j} < {steps}:")
        body.emit(indent + 2, f"{t} = {self.step_table()}[{base}]")
        kept = [f"{made}[{count}] = {t}", f"{count} += 1"]
        stopped = [f"if {flags}[{t}]:", "    break"]
        # a line of `reach` ends on a stop, one of `sight` just before it
        walk = kept + stopped if call.name == "reach" else stopped + kept
        for line in [f"if {t} < 0:", "    break", *walk, f"{base} = {t} * {nd} + {d}",
                     f"{j} += 1"]:
            body.emit(indent + 2, line)
        _spend(body, indent, tick, count)
        body.emit(indent, f"for {i} in range({count}):")
        body.emit(indent + 1, f"{x} = {made}[{i}]")
        bind(x, indent + 1)

    def geo_ray_length(self) -> str:
        """`geo_ray_length(base, n)`: len(ray(c, d, n)), base c * directions + d, by
        steps (a board of large rays)."""
        name = "geo_ray_length"
        if name not in self.fns_done:
            self.fns_done.add(name)
            unit = _Body(f"cdef long {name}(long base, long n):")
            unit.declare("i")
            unit.emit(1, "i = 0")
            unit.emit(1, f"while i < n and {self.step_table()}[base] >= 0:")
            unit.emit(2, f"base = {self.step_table()}[base] * {self.nd} + base % {self.nd}")
            unit.emit(2, "i += 1")
            unit.emit(1, "return i")
            self.functions.append(unit.text())
        return name

    def geo_cell_at(self) -> str:
        """`geo_cell_at(k, r)`: the cell of column k and row r, -1 (none) off the board or
        in a hole."""
        name = "geo_cell_at"
        if name not in self.fns_done:
            self.fns_done.add(name)
            width, height = self.board.width, self.board.height
            unit = _Body(f"cdef inline long {name}(long k, long r):")
            unit.emit(1, f"if k < 1 or k > {width} or r < 1 or r > {height}:")
            unit.emit(2, "return -1")
            cell = f"(r - 1) * {width} + k - 1"
            unit.emit(1, f"return -1 if {self.geo_holes()}[{cell}] else {cell}"
                      if self.board.holes else f"return {cell}")
            self.functions.append(unit.text())
        return name

    def geo_holes(self) -> str:
        """A table of flags by cell: is it a hole?"""
        key = ("holes",)
        if key not in self.const_ids:
            self.const_ids[key] = "GEO_HOLES"
            flags = [int(c in self.board.holes) for c in range(self.board.size)]
            self.consts.append(f"cdef long *GEO_HOLES = _array({_packed(flags)})")
        return self.const_ids[key]

    def geo_distance(self, e: ir.CallBuiltin, env: Env, body: _Body) -> str:
        """`distance(a, b)` on a board of more than 256 cells: computed (either none
        faults)."""
        none = "distance() cannot work with a value that is none"
        a, b = (f"_value({self.expr(x, env, body)}, {self.loc(e)}, {none!r})" for x in e.args)
        return f"{self.geo_distance_fn(e)}({a}, {b})"

    def geo_within_loop(self, call: ir.CallBuiltin, env: Env, body: _Body, indent: int,
                           bind: _BINDING, tick: str | None) -> None:
        """`for x in within(c, r)` (boards.py `within`): the cells of the square around
        `c` row by row whose distance from it is at most r (holes left out); on a table
        only the columns within the circle are visited."""
        board, width, height = self.board, self.board.width, self.board.height
        if board.kind not in ("table", "square", "hex"):
            raise _Outside(call, f"within() on a {board.kind} board")
        none = "within() cannot work with a value that is none"
        c, steps, r, lo, hi, k, x = (body.declare(self.fresh(n)) for n in "cksalix")
        body.emit(indent, f"{c} = _value({self.expr(call.args[0], env, body)}, "
                  f"{self.loc(call)}, {none!r})")
        body.emit(indent, f"{steps} = {self.expr(call.args[1], env, body)}")
        body.emit(indent, f"if {steps} > {2 * (width + height)}:")    # the whole board
        body.emit(indent + 1, f"{steps} = {2 * (width + height)}")
        row, column = f"{c} // {width}", f"{c} % {width}"
        size = body.declare(self.fresh("n"))
        body.emit(indent, f"{size} = 0")
        for counting in (True, False):  # the cells counted first (the loop's length)
            body.emit(indent, f"for {r} in range(max(0, {row} - {steps}), "
                      f"min({height}, {row} + {steps} + 1)):")
            reach = steps
            if board.kind == "table":       # the columns whose centre is in the circle
                reach = body.declare(self.fresh("h"))
                body.emit(indent + 1, f"{reach} = {self.geo_isqrt()}({steps} * {steps} - "
                          f"({r} - {row}) * ({r} - {row}))")
            body.emit(indent + 1, f"{lo} = max(0, {column} - {reach})")
            body.emit(indent + 1, f"{hi} = min({width}, {column} + {reach} + 1)")
            body.emit(indent + 1, f"for {k} in range({lo}, {hi}):")
            body.emit(indent + 2, f"{x} = {r} * {width} + {k}")
            tests = []
            if board.holes:
                tests.append(f"{self.geo_holes()}[{x}]")
            if board.kind != "table":
                tests.append(f"{self.geo_distance_fn(call)}({c}, {x}) > {steps}")
            if tests:
                body.emit(indent + 2, f"if {' or '.join(tests)}:")
                body.emit(indent + 3, "continue")
            if counting:
                body.emit(indent + 2, f"{size} += 1")
                _spend(body, indent, tick, size)
            else:
                bind(x, indent + 2)


def _refuse(where: ir.Node, what: str) -> None:
    """Raise `_Outside` (a unit of `check_program` that is only a refusal)."""
    raise _Outside(where, what)


def _packed(values: list[int] | list[str]) -> str:
    """A table of C longs as the text of a Cython string literal, numbers between commas
    (`_array` reads it at import): a list literal would be one C statement per number, and
    the C compiler takes minutes on the tables of a large board."""
    return '"' + ",".join(str(int(v)) for v in values) + '"'


def _chance_draws(node: ir.Node, top: bool = False) -> bool:
    """Does `node` (only itself with `top`, else anything in it) draw dice or shuffle?"""
    nodes = [node] if top else ir.walk(node)
    return any(isinstance(n, ir.CallBuiltin) and BUILTINS[n.name].random for n in nodes)


def _nodes_and_parents(roots: list[ir.Node]) -> tuple[list[ir.Node], dict[int, list[ir.Node]]]:
    """Every node under `roots`, and each node's parents by its id (a node shared by two
    parents has both)."""
    nodes = [n for root in roots for n in ir.walk(root)]
    parents: dict[int, list[ir.Node]] = {}
    for n in nodes:
        for child in ir.children(n):
            parents.setdefault(id(child), []).append(n)
    return nodes, parents


def _c_name(bound: Bound) -> str:
    """The C name a quantifier's function is given a local by."""
    assert not isinstance(bound, _Slice), "a slice is given by its base and count (scope)"
    if isinstance(bound, _Row):
        return bound.index
    return bound.name if isinstance(bound, _Made) else bound


def _spend(body: _Body, indent: int, tick: str | None, n: str) -> None:
    """A loop's domain of `n` elements counted before it starts (`tick`, None: not)."""
    if tick is not None:
        body.emit(indent, tick.format(n=n))


def _words(node: ir.Node) -> str:
    """A node as its rule-file text (its class name when it has no span)."""
    text = node.span.text if node.span is not None else ""
    return text or type(node).__name__




def _lists_type(t: Type) -> str | None:
    """The engine's name of a list or text variable's type ("text", "list ELEMENT"), or
    None: a type the typed engine does not hold."""
    if t == STR:
        return "text"
    if is_list(t) and (_element(t) in VAR_TYPES or _element(t) in (STR, KIND)):
        return f"list {VAR_TYPES.get(_element(t), 'text' if _element(t) == STR else 'kind')}"
    inner = _lists_type(_element(t)) if is_list(t) and is_list(_element(t)) else None
    return None if inner is None or is_list(_element(_element(t))) else f"list {inner}"
