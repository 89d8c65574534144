"""What the interpreter's own tools may do with a `Game` beyond its public API: the one place
outside the engine that reads a game's private members.

An agent needs only the public API (`new_state`, `legal_actions`, `apply`, `view`, ...), and
tools read the game's description from `game.rules` (`rules.Rules`: board, kinds, terrain,
phases, actions, variables, docs). What is left here runs the engine's own functions on a
position, sets one up by hand, or watches the generated code run, by function:

    python_source(game)                    the Python the code generator wrote
    result_text(game, state)               'blue won', 'a and b won', 'draw', 'unfinished'
    is_private(game, state)                the next decision is secret or simultaneous
    with formatting(game, state) as text:  text(value, type): a run-time value as the rule
                                           files write it
    visibility_rule(game, scope, name), show_rule(game, what)
    hidden_from(game, state, piece, seat), unseen_by(game, state, piece, seat)
                                           the rules that draw the game, as functions
    hidden_from_any(game, state, piece), worded_for_nobody(game, state, rule, ...)
                                           what every seat may see (`view.public_view`)
    run_question(game, state, question)    a tool's question run in the engine
    statistics(game, state)                the `stat` values of a position, for simulations
    random_playout(game, state, ...), random_rollout(game, state, ...)
                                           random play in one call on the typed engine
    create_piece(game, state, ...), enter_phase(game, state, ...)    scenario set-up
    scores(game, state), hidden_variables(game, state, seat)         what agents may ask
    broken_invariants(game, state), current_phase(game, state)
    resolved_program(game), expression_function(game, expr, n)       scenario expressions
    twin(game)                             the same rules, compiled again: one per thread
    searches_natively(game)                on the typed engine: one search at a time
    read_action(game, state, text, viewer)
                                           why an action is legal or not, test by test
    is_generated(filename), game_of_code(frame), rule_nodes(game, file, line), main_code_file(game),
    code_units(game), placed_nodes(game)  the generated code as it runs (coverage, traces)
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ..language.errors import GdlRuntimeError, IllegalAction
from ..language.types import describe, format_value
from .codegen import Source, UnitKey  # UnitKey: the type of code_units' keys, for tools

if TYPE_CHECKING:
    from types import CodeType, FrameType

    from ..language import program as ir
    from ..language.types import Names, Type
    from .engine import CompiledAction, Game, Runtime
    from .state import State

Generated = Callable[..., Any]      # a function of the generated code: (state, me, ...) -> value

_PRIVATE_MODES = ("simultaneous", "secret")
_T = TypeVar("_T")


# ----- the game as a whole ------------------------------------------------------------------
def python_source(game: Game) -> str:
    """The Python source the code generator wrote for the game's rules."""
    source: str = game._python_source
    return source


def native_source(game: Game) -> str:
    """The source the native backend gives Cython for the game's rules (`native`), or a
    comment saying why the file runs on Python."""
    from . import native, typed
    outside = typed.unsupported(game._program) if typed.enabled() else "GDL_TYPED=0"
    if outside is None:
        return (f"# {game.path} runs on the typed native engine: its Cython source "
                "(GDL_TYPED=0 prints the untyped one)\n" + typed.generate(game._program))
    source = game._python_source
    reason = native.unsupported(source)
    if reason is not None:
        return f"# {game.path} runs on the Python backend: {reason}\n"
    text: str = native.native_source(source, game._module)
    also = typed.outside_all(game._program)[1:] if typed.enabled() else []
    return (f"# {game.path} runs on the native backend, untyped ({outside})\n"
            + "".join(f"# also {line}\n" for line in also) + text)


# ----- a position ---------------------------------------------------------------------------
def result_text(game: Game, state: State) -> str:
    """'blue won', 'a and b won', 'draw' or 'unfinished'."""
    if state.result is None:
        return "unfinished"
    if state.result["draw"]:
        return "draw"
    return " and ".join(game.seats[s] for s in state.result["winners"]) + " won"


def is_private(game: Game, state: State) -> bool:
    """Is the next decision one the other seats may not see (a simultaneous or a secret
    phase)?"""
    return bool(state.frames) and game._phase_of(state).mode in _PRIVATE_MODES


def is_simultaneous(game: Game, state: State) -> bool:
    """Is the next decision a choice in a simultaneous phase (which does nothing until every
    seat has chosen, and is then revealed to all)? (A typed state's core answers: no field
    is read.)"""
    core = _core(state)
    if core is not None and not core.over:
        return bool(core.has_frame) and core.simul_pending is not None
    return bool(state.frames) and state.frames[-1]["pending"] is not None


def forget_choices(state: State, seat: int) -> None:
    """In a simultaneous phase, forget the choices of every seat but `seat` (on a typed
    state's core when it has one)."""
    core = _core(state)
    if core is not None:
        assert core.simul_pending is not None, "not a simultaneous phase"
        core.simul_pending = [choice if other == seat else None
                              for other, choice in enumerate(core.simul_pending)]
        return
    pending = state.frames[-1]["pending"]
    assert pending is not None, "not a simultaneous phase"
    for other in range(len(pending)):
        if other != seat:
            pending[other] = None


def _core(state: State) -> Any:
    """The typed core holding `state` now, or None (its fields hold it, or it is not a typed
    state: none is loaded here)."""
    return getattr(state, "_core", None)


@contextlib.contextmanager
def formatting(game: Game, state: State, viewer: int | None = None,
               public: bool = False) -> Iterator[Callable[[Any, Type], str]]:
    """Within the block, `text(value, t)` is the text of `value`, of static type `t`, in
    `state` (cells, pieces and seats by name); for a `viewer` seat, a piece hidden from it
    reads `?`, wherever it is named (a variable that holds it, a list of pieces); `public`:
    a piece hidden from any seat reads `?`."""
    with game._rt.bound(state) as rt:
        viewers = tuple(range(len(game.seats))) if public else () if viewer is None \
            else (viewer,)
        names = _Seen(game, rt, viewers) if viewers and game._hides_pieces else rt
        yield lambda value, t: format_value(value, t, names)


class _Seen:
    """The runtime's names as some seats read them: a piece hidden from any of them is
    `?`."""

    def __init__(self, game: Game, rt: Runtime, viewers: tuple[int, ...]) -> None:
        self.game, self.rt, self.viewers = game, rt, viewers
        self.board = rt.board

    def cell_name(self, cell: int) -> str:
        name: str = self.rt.cell_name(cell)
        return name

    def seat_name(self, seat: int) -> str:
        name: str = self.rt.seat_name(seat)
        return name

    def piece_name(self, pid: int) -> str:
        if any(self.game._hidden_from(self.rt.state, pid, viewer) for viewer in self.viewers):
            return "?"
        name: str = self.rt.piece_name(pid)
        return name


# ----- the game's description ---------------------------------------------------------------


# ----- the rules that draw the game ---------------------------------------------------------
def visibility_rule(game: Game, scope: str, name: str) -> Generated | None:
    """The `visible to` condition of a variable as a generated function, or None."""
    rule: Generated | None = game._visibility.get((scope, name))
    return rule


def hidden_from(game: Game, state: State, pid: int, viewer: int | None) -> bool:
    """May seat `viewer` not identify piece `pid` (the `hide piece` rule, or the zone the
    piece is in)? No viewer (None) sees everything."""
    if viewer is None:
        return False
    hidden: bool = game._hidden_from(state, pid, viewer)
    return hidden


def unseen_by(game: Game, state: State, pid: int, viewer: int | None) -> bool:
    """Is piece `pid` out of seat `viewer`'s sight altogether (its kinds table's `visible
    to`)? Such a piece is not in the seat's view at all. No viewer (None) sees everything."""
    if viewer is None:
        return False
    unseen: bool = game._unseen_by(state, pid, viewer)
    return unseen


def hidden_from_any(game: Game, state: State, pid: int) -> bool:
    """Is piece `pid` hidden from some seat (so not public)?"""
    return any(game._hidden_from(state, pid, seat) for seat in range(len(game.seats)))


def run_question(game: Game, state: State, question: Callable[[State], _T]) -> _T:
    """A tool's question about `state` run in the engine (a fault in the rules is a
    GdlRuntimeError at its rule-file place), as `Game.view` runs a view."""
    answer: _T = game._run(state, question, check_end=False)
    return answer


def worded_for_nobody(game: Game, state: State, rule: Generated, *args: Any) -> Any:
    """A `show` rule worked out for no seat (`me` is none: `if me == current` is false),
    for the public view; None when it cannot be (it reads a variable of `me`)."""
    try:
        return game._run(state, lambda st: rule(st, None, *args), check_end=False)
    except GdlRuntimeError:
        return None


def show_rule(game: Game, what: str) -> Generated | None:
    """The `show piece` or `hide piece` rule as a generated function, or None."""
    rule: Generated | None = game._shows.get(what)
    return rule


def statistics(game: Game, state: State) -> dict[str, Any]:
    """The rule file's `stat` values of `state` (its final position, for a simulation): a
    dict, in declaration order, of name -> value, or of name -> {seat name: value} for a
    `stat NAME(s)`. Empty when the rule file declares none."""
    found: dict[str, Any] = {}
    for name, per_seat, function in game._stats:
        if per_seat:
            found[name] = {seat: game._evaluate(state, function, s, s)
                           for s, seat in enumerate(game.seats)}
        else:
            found[name] = game._evaluate(state, function, 0)
    return found


# ----- what agents may ask ------------------------------------------------------------------
def random_playout(game: Game, state: State, rngs: list[int], max_turns: int | None,
                   max_decisions: int | None) -> tuple[str, int | None]:
    """`Game._random_playout`: a game of random agents played on in one call (on the typed
    engine) or one loop (on Python)."""
    return game._random_playout(state, rngs, max_turns, max_decisions)


def search_position(game: Game, state: State) -> tuple[Game, State]:
    """`Game._search_position`: the game and position an agent searches (a game moved to
    Python for narration searches on the typed engine)."""
    return game._search_position(state)


def searches_natively(game: Game) -> bool:
    """Do agents search `game` on the typed engine (native backend)? Its compiled module is
    one per rule file per process, shared by every twin: some listings keep values in the
    module's globals, so no two threads may run its listings at once. In `gdl serve` only
    agents' searches do (a table's own moves are narrated: on the Python engine)."""
    return game._typed is not None or game._native_asked


def editable_copy(state: State) -> tuple[State, Callable[[State], State]]:
    """(a copy of `state` whose fields a tool may change, as the Python engine holds a
    position; the function that gives such a copy back to the engine that held `state`: a
    typed state's engine holds it again when it can, else it stays as it is). A
    determinization edits one copy per sample: reading a typed state's fields each time
    would cost more than the search on it."""
    from . import typed     # (here: `gdl check` imports this module, never the typed engine)
    if not isinstance(state, typed.TypedState):
        return state.clone(), _as_it_is
    engine = state._engine

    def held(copy: State) -> State:
        return typed.taken(engine, copy) or copy
    return typed.plain_copy(state), held


def core_patcher(state: State) -> Callable[[dict[int, Any], list[Any], list[Any], int],
                                           State | None] | None:
    """For a state a typed core holds: `typed.patcher`, a function making a determinization
    (a new state) from a copy of the core and the changes alone, without loading the whole
    position from its fields; None for any other state."""
    from . import typed     # (here: `gdl check` imports this module, never the typed engine)
    return typed.patcher(state) if isinstance(state, typed.TypedState) else None


def shuffler(state: State) -> Callable[[int, list[Any]], int] | None:
    """For a typed state: its engine's `shuffled(stream, items)`, a determinization's
    shuffle in C (the same order and stream as `Stream.shuffle`); None for any other."""
    from . import typed     # (here: `gdl check` imports this module, never the typed engine)
    if isinstance(state, typed.TypedState):
        found: Callable[[int, list[Any]], int] = state._engine.shuffled
        return found
    return None


def _as_it_is(state: State) -> State:
    return state


def random_rollout(game: Game, state: State, stream: list[int], decisions: int) -> bool:
    """`Game._random_rollout`: an mcts rollout in one call on the typed engine (False: the
    caller plays it)."""
    return game._random_rollout(state, stream, decisions)


def seats_out(state: State) -> list[bool]:
    """Per seat: is it out (`state.out`), read from a typed state's core when it has one
    (reading a field would read them all out of it)."""
    from . import typed     # (here: `gdl check` imports this module, never the typed engine)
    if state.__class__ is typed.TypedState:
        core = state._core or typed.core_of(state)
        if core is not None:
            return core.outs()  # type: ignore[no-any-return]
    return list(state.out)


def scores(game: Game, state: State) -> list[int] | None:
    """Each seat's `show score(s)` in `state` (a list of numbers, seat by seat), or None when
    the rule file declares no score."""
    rule = game._shows.get("score")
    if rule is None:
        return None
    from . import typed     # (here: `gdl check` imports this module, never the typed engine)
    if state.__class__ is typed.TypedState:     # compiled too: no fields read
        core = state._core or typed.core_of(state)
        if core is not None and (typed_scores := core.scores()) is not None:
            return typed_scores  # type: ignore[no-any-return]
    found: list[int] = game._run(
        state, lambda st: [rule(st, s, s) for s in range(len(game.seats))], check_end=False)
    return found


def hidden_variables(game: Game, state: State,
                     viewer: int) -> list[tuple[str, int | None, str]]:
    """The variables that `visible to` keeps from seat `viewer` in `state`: ("global", None,
    name), ("seat", seat, name) and ("piece", piece id, name) for pieces it may identify."""
    def find(st: State) -> list[tuple[str, int | None, str]]:
        found: list[tuple[str, int | None, str]] = []
        for (scope, name), rule in game._visibility.items():
            if scope == "global":
                found += [(scope, None, name)] if not rule(st, viewer, viewer) else []
            elif scope == "seat":
                found += [(scope, s, name) for s in range(len(game.seats))
                          if not rule(st, viewer, viewer, s, s)]
            else:
                found += [(scope, pid, name) for pid, piece in st.pieces.items()
                          if piece["alive"] and not game._hidden_from(st, pid, viewer)
                          and not rule(st, viewer, viewer, piece["owner"], pid)]
        return found
    if not game._visibility:
        return []
    hidden: list[tuple[str, int | None, str]] = game._run(state, find, check_end=False)
    return hidden


# ----- setting up a position by hand (scenario files) ---------------------------------------
def create_piece(game: Game, state: State, kind: str, owner: int | None,
                 cell: int | None) -> int:
    """Create a piece of `kind` for seat `owner` (None: no seat) on `cell`; its id."""
    with game._rt.bound(state) as rt:
        pid: int = rt.create(kind, owner, cell)
        return pid


def enter_phase(game: Game, state: State, name: str, seat: int) -> None:
    """Make phase `name` (one without parameters) the current phase of `seat`, running
    its `on enter`, in place of the current phase; then, as after a decision, an `auto`
    phase plays the actions that are the only legal one. A fault in its `on enter` is a
    GdlRuntimeError at the rule that failed, as in play."""
    rt = game._rt
    game._run(state, lambda _: rt.enter_phase(name, [], seat, False), check_end=False)
    game._auto(state)


def twin(game: Game) -> Game:
    """Another game of the same checked rules, compiled again, with a runtime of its own:
    a game holds what it is running in itself (`Game._rt`), so two threads must not run one
    game at once (`gdl serve`'s tables, whose agents search in threads, each get one)."""
    return type(game)(game._program, game.path, game.source_hash, game._backend)


def resolved_program(game: Game) -> ir.Program:
    """The checked program the game was compiled from, to check an expression against."""
    program: ir.Program = game._program
    return program


def expression_function(game: Game, expr: ir.Expr, nparams: int) -> Generated:
    """A checked expression as a function (state, me, *values) -> value; a fault in it is
    reported at its place in the rule file, as a rule's would be."""
    function = game._function_of(expr, nparams)

    def evaluate(state: State, me: int, *values: Any) -> Any:
        return game._evaluate(state, function, me, *values)
    return evaluate


def broken_invariants(game: Game, state: State) -> list[str]:
    """The names of the invariants that do not hold in `state` (a fault in one is a
    run-time error at its expression)."""
    return [name for name, rule in game._invariants
            if not game._run(state, lambda st: rule(st, 0), check_end=False)]


def current_phase(game: Game, state: State) -> str | None:
    """The name of the phase on top of the stack (None when the game is over)."""
    phase: str | None = state.frames[-1]["phase"] if state.frames else None
    return phase


# ----- why an action is legal or not (gdl explain) ------------------------------------------
class TypedAction:
    """A typed action text read against the current phase's action of that name:
    `name`, `args` (values) and `types`; `binders` [(name, domain text)] and `parts` (the
    where-parts' texts); `tests` [(kind, index, evaluate)] in the order a listing makes
    them, kind "domain" (evaluate() gives the binder's possible values) or "part" (its
    truth); `reason()` the engine's words for the first that fails. A test runs the
    rules on the state it was read from: run them on a copy when the rules may roll dice.
    A fault raises GdlRuntimeError at its rule-file place."""

    def __init__(self, game: Game, state: State, compiled: CompiledAction,
                 args: list[Any]) -> None:
        self._why: Callable[[], str] = lambda: game._run(
            state, lambda st: game._failed_condition(st, compiled, args), check_end=False)
        self.name: str = compiled.name
        self.index: int = compiled.index
        self.args = args
        self.types: list[Type] = list(compiled.arg_types)
        self.binders: list[tuple[str, str]] = list(compiled.binders)
        self.parts: list[str] = [text for text, _, _ in compiled.parts]
        evaluate: Generated = game._evaluate
        self.tests: list[tuple[str, int, Callable[[], Any]]] = [
            (kind, index, functools.partial(evaluate, state, lambda _, test=test: test()))
            for kind, index, test in game._tests(state, compiled, args)]

    def reason(self) -> str:
        why: str = self._why()
        return why


def read_action(game: Game, state: State, text: str,
                viewer: int | None = None) -> TypedAction:
    """The action of the current phase that `text` names, with its arguments read, as a
    `TypedAction`; IllegalAction (why) when the text is no action of the current phase or
    an argument does not read (a symbol or kind the rules do not have included). A piece
    label reads as seat `viewer` may read it (None: every label reads)."""
    words = text.split()
    phase = game._phase_of(state) if state.frames else None
    named = [a for a in phase.actions if a.name == words[0].lower()] if phase and words \
        else []
    if not named:
        raise game._refusal(state, " ".join(words))
    wanted = " ".join(words).lower()
    for action in game.legal_actions(state):    # a legal action's own text (a list in it
        # reads as one argument, though it has spaces)
        if phase is not None and game.action_text(state, action, viewer).lower() == wanted:
            return TypedAction(game, state, phase.actions[action[0]], list(action[1]))
    compiled = next((a for a in named if len(game._argument_words(a, words[1:]))
                     == len(a.arg_types)), named[0])
    args = game._parse_args(state, compiled, words[1:], -1 if viewer is None else viewer)
    stray = game._stray(compiled, words[1:], args)
    if stray is not None:
        raise IllegalAction(f"'{stray[0]}' is not {describe(stray[1])} of the game",
                            unknown=stray)
    return TypedAction(game, state, compiled, args)


# ----- the generated code at run time (coverage, tracing) -----------------------------------
def is_generated(filename: str) -> bool:
    """Is `filename` (a code object's) one of generated rule code?"""
    from .codegen import FILE_PREFIX
    return filename.startswith(FILE_PREFIX)


def game_of_code(frame: FrameType) -> Game:
    """The game whose generated code a frame (of an `is_generated` file) runs."""
    game: Game = frame.f_globals["rt"].game     # the module's `rt`, the game's Runtime
    return game


def rule_nodes(game: Game, filename: str, line: int) -> list[ir.Node]:
    """The resolved-program nodes (each with a span) whose code is on `line` of the
    generated file `filename` of `game` ([] for a line of no rule-file node)."""
    lines = game._sources.get(filename)
    if not isinstance(lines, Source):      # no such file, or a native module's (not traced)
        return []
    return [node for _, _, node in lines.places.get(line, ())]


def main_code_file(game: Game) -> str:
    """The file name of the game's generated module (its expressions have others)."""
    name: str = next(iter(game._sources))
    return name


def code_units(game: Game) -> dict[CodeType, UnitKey]:
    """Code object of each generated function -> its unit's key, a `UnitKey` (kind "act",
    "list", "fn", "def", "on_enter", "trigger", "end", "setup", ...: see there)."""
    return {fn.__code__: key for key, fn in game._functions.items()}


def placed_nodes(game: Game) -> list[ir.Node]:
    """Every resolved-program node whose code is somewhere in the game's generated module
    (each with a span): what a trace of that module can see run."""
    lines = game._sources[main_code_file(game)]
    if not isinstance(lines, Source):      # a native module's: tracing runs on Python
        return []
    places = lines.places
    return [node for line in places.values() for _, _, node in line]
