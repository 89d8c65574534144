"""Static checker: `ast.Program` -> `program.Program` (the resolved, typed program), or a
`GdlRuleError` at the first problem.

It checks names (with "did you mean"), types, the number of arguments, duplicate
definitions and that every phase can be reached from `setup`, and builds the resolved
program as it goes: every expression becomes a `program` node with its type, every name a
local slot or a resolved reference. Parameters, tables, terrain and initial values are
constants, evaluated here. The code generator trusts what this module built and never
re-checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, TypeAlias, TypeVar, cast, overload

from . import ast
from . import program as ir
from .boards import BOARD_KINDS, Board
from .builtins import BUILTINS, plural, static_fault
from .errors import GdlError, GdlRuleError, counted, did_you_mean, error_at
from .limits import MAX_TITLE, MAX_USED
from .look import Look, badge_note, colour_of, colour_words, mark_notes, read_shape, shape_names
from .references import Declaration, References
from .types import (ANY, BOOL, CELL, DIR, INT, KIND, NONE, PIECE, SCALARS, SEAT, STR, SYMBOL,
                    ZONE, Type, compatible, describe, element, is_list, join, list_of)

PIECE_PROPERTIES = {"owner": SEAT, "cell": CELL, "kind": KIND, "zone": ZONE}
# `show X(p)`: the types of its parameters, what it gives when it is not text, and how the
# messages name its parameters (in the order the messages list the forms)
SHOW_PARAMS = {"piece": (PIECE,), "row": (INT,), "status": (PIECE,), "seat": (SEAT,),
               "game": (SEAT,), "score": (SEAT,), "colour": (SEAT,), "badge": (PIECE,),
               "cell": (CELL,), "shape": (PIECE,), "side": (CELL, DIR)}
SHOW_TYPES = {"score": INT, "cell": SEAT, "side": BOOL}
SHOW_NAMES = {"piece": "p", "status": "p", "seat": "s", "game": "s", "row": "r", "score": "s",
              "colour": "s", "badge": "p", "cell": "c", "shape": "p", "side": "c, d"}
_FORMS = [f"'show {what}({names}) = ...'" for what, names in SHOW_NAMES.items()]
SHOW_FORMS = ", ".join(_FORMS[:-1]) + " or " + _FORMS[-1]
BUILTIN_VALUES = ("current", "deciding", "current_phase", "turn_number", "decision_number",
                  "seats", "all_seats", "winners", "passes")
QUANT_TYPES = {"count": INT, "exists": BOOL, "all": BOOL}

LocalName: TypeAlias = tuple[int, Type, Declaration | None]
"""A local name in a `Scope`: (slot, type, declaration or None)."""
Param: TypeAlias = tuple[str, Type, Declaration | None]
"""A parameter of a code unit, as `_scope` takes it: (name, type, declaration or None)."""
_ByType: TypeAlias = dict[type[ast.Decl], list[ast.Decl]]
"""A rule file's declarations by class, in file order (read through `_of`)."""
_D = TypeVar("_D", bound=ast.Decl)


class Scope:
    """Local names of one code unit: name -> (slot, type, declaration: None for a name the
    rule file does not declare, such as `me`). Slot 0 is always `me`. `end` is the last
    statement of the block the scope is checking (where a `let` stops being visible).
    `results` gathers the types of a fn block's `return VALUE`s (None outside a fn block);
    `in_def` is true in a def's body (where `leave` may end it)."""

    def __init__(self, counter: list[int], names: Mapping[str, LocalName] | None = None,
                 results: list[Type] | None = None, in_def: bool = False) -> None:
        self.counter = counter
        self.names = dict(names or {})
        self.end: ast.Span | None = None
        self.results = results
        self.in_def = in_def

    def child(self) -> Scope:
        return Scope(self.counter, self.names, self.results, self.in_def)

    def bind(self, name: str, t: Type, declaration: Declaration | None = None) -> int:
        slot = self.counter[0]
        self.counter[0] += 1
        self.names[name] = (slot, t, declaration)
        return slot


def _ends_in_result(body: Sequence[ast.Stmt]) -> bool:
    """Does every path through a fn block's statements end in a `return VALUE`? A statement
    after one that always does is an error: it would never run."""
    ends = False
    for stmt in body:
        if ends:
            raise error_at(GdlRuleError, "this statement never runs: the fn has returned "
                           "before it", stmt.span)
        if isinstance(stmt, ast.Result):
            ends = True
        elif isinstance(stmt, ast.If):
            then, otherwise = _ends_in_result(stmt.then), _ends_in_result(stmt.otherwise)
            ends = then and otherwise
        elif isinstance(stmt, ast.For):
            _ends_in_result(stmt.body)      # the loop may run no round
    return ends


def _open(t: Type) -> bool:
    """Is `t` the type of a variable whose first assignment may say more: anything, or a
    list of anything (`[]`), or of lists of anything (`[[none]]`), ...?"""
    return t == ANY or (is_list(t) and _open(element(t)))


def _local_key(declaration: Declaration) -> tuple[str, str]:
    """The key of a `let` local in the types learnt from assignments (`_refine`): where its
    name is written."""
    span = declaration.span
    return "local", f"{span.file}:{span.line}:{span.column}"


def _may_be_none(e: ir.Expr) -> bool:
    """May a list-typed expression give none? An element taken out of a list of lists
    (`first`, `last`, `nth`, `pick`) may, and so may what a fn gives or a local or parameter
    holds (bound to such an element); a list written out, made, joined or held in a
    variable never does."""
    if isinstance(e, ir.Quant):
        return e.op == "first"
    if isinstance(e, ir.CallBuiltin):
        return e.name in ("last", "nth", "pick")
    if isinstance(e, ir.Cond):
        return _may_be_none(e.then) or _may_be_none(e.otherwise)
    return isinstance(e, (ir.CallFn, ir.Local, ir.FnBlock))


def check_program(program: ast.Program) -> ir.Program:
    """Check a parsed rule file; returns the resolved `program.Program`.

    A variable declared with `none` or `[]` takes the type of its first assignment that says
    more (`_refine`). A use checked before that assignment would have only the declared type
    (`text()` of a cell would print its number), so the file is checked again with the types
    learnt, until no variable learns more (at most once per variable)."""
    learnt: dict[tuple[str, str], Type] = {}
    while True:
        checker = _Checker(program, learnt)
        with ir.folding():
            resolved = checker.run()
        _used_constants(program, resolved)
        if not checker.learnt.keys() - learnt.keys():
            if checker.waiting:     # no assignment gave the variable a type after all
                raise checker.waiting[0]
            return resolved
        learnt = {**learnt, **checker.learnt}


def check_expression(resolved: ir.Program, expr: ast.Expr, local_types: Mapping[str, Type],
                     want: Type | None = None) -> ir.Expr:
    """Check a stand-alone expression (a scenario's expectation) against a checked program,
    with extra typed locals in slots 1..n. Returns the resolved expression."""
    checker = _Checker(ast.Program(()))     # its reference table is dropped
    checker.out = resolved
    checker.fn_types = {name: fn.type for name, fn in resolved.fns.items()}
    checker.fn_params = {name: fn.param_types for name, fn in resolved.fns.items()}
    scope = Scope([0])
    scope.bind("me", SEAT)
    for name, t in local_types.items():
        scope.bind(name, t)
    return checker._expect(expr, want, scope, "this") if want else checker._expr(expr, scope)


class _Checker:
    def __init__(self, program: ast.Program,
                 learnt: Mapping[tuple[str, str], Type] | None = None) -> None:
        self.program = program
        # (scope, name) -> the type a variable declared with `none` or `[]` takes from an
        # assignment: given (from an earlier pass, `check_program`) and found (`_refine`)
        self.given = dict(learnt or {})
        self.learnt: dict[tuple[str, str], Type] = {}
        # errors of a use that needs a variable typed by an assignment written later in the
        # file: raised only when a pass learns nothing more (`check_program`)
        self.waiting: list[GdlRuleError] = []
        self.out = ir.Program()
        self.declared: dict[str, ast.Node] = {}     # name -> decl node, for duplicate detection
        self.param_nodes: dict[str, ast.ParamDecl] = {}
        # param name -> its value frozen (`_frozen`), made once: a copy at each use of a
        # long list filled gigabytes (`len(p)` written 300 times, p of 524,288 elements)
        self.frozen_params: dict[str, Any] = {}
        self.frozen_lists: dict[int, tuple[list[Any], tuple[Any, ...]]] = {}  # (`_frozen`)
        self.phase_param_types: dict[str, tuple[Type, ...]] = {}
        self.fn_decls: dict[str, ast.FnDecl] = {}
        self.def_decls: dict[str, ast.DefDecl] = {}
        self.phase_decls: dict[str, ast.PhaseDecl] = {}
        # fn/def name -> parameter types from its first use
        self.fn_params: dict[str, tuple[Type, ...]] = {}
        self.fn_types: dict[str, Type] = {}         # fn name -> result type
        self.references = References()
        # global name -> its Declaration (one namespace)
        self.named: dict[str, Declaration | None] = {}
        # (piece, seat or kind, name) -> Declaration of a field
        self.fields: dict[tuple[str, str], Declaration | None] = {}

    # ----- entry ---------------------------------------------------------------------
    def run(self) -> ir.Program:
        items = self.program.items
        by_type: _ByType = {}
        for item in items:
            by_type.setdefault(type(item), []).append(item)
        self._single(by_type, ast.GameDecl, required=False)
        game = _of(by_type, ast.GameDecl)
        if game:
            if len(game[0].name) > MAX_TITLE:
                raise error_at(GdlRuleError, f"a game title of {len(game[0].name):,} characters "
                               f"is too long: a title is at most {MAX_TITLE} characters",
                               game[0].span)
            self.out.game_name = game[0].name
        self._declare_seats(by_type)
        for symbols in _of(by_type, ast.SymbolsDecl):
            for name, span in zip(symbols.names, symbols.name_spans or _no_spans(symbols.names)):
                self._declare(name, symbols, span)
                self._named("symbol", name, span)
                self.out.symbols.add(name)
        for param in _of(by_type, ast.ParamDecl):
            self._declare(param.name, param)
            self._named("param", param.name, param.name_span)
            self.param_nodes[param.name] = param
        self._make_board(by_type)
        for param in _of(by_type, ast.ParamDecl):
            self._param(param.name)
        for terrain in _of(by_type, ast.TerrainDecl):
            self._declare(terrain.name, terrain)
            self._named("terrain", terrain.name, terrain.name_span)
            self._constant_names(terrain.expr)
            value, t = self._const(terrain.expr)
            if not compatible(list_of(CELL), t):
                raise self._type_error(terrain.expr, "terrain must be a list of cells", t)
            self.out.terrain[terrain.name] = (tuple(value), terrain.symbol)
        self._kinds(by_type)
        for zone in _of(by_type, ast.ZoneDecl):
            self._declare(zone.name, zone)
            self._named("zone", zone.name, zone.name_span)
            self.out.zones[zone.name] = ir.Zone(zone.name, zone.per_seat, span=zone.span)
        for param in _of(by_type, ast.ParamDecl):     # all they may name is declared now
            self._constant_names(param.expr)
        for var in _of(by_type, ast.VarDecl):
            self._var(var)
        for var in _of(by_type, ast.VarDecl):
            if var.visible is not None:
                self._visibility(var)
        for table in _of(by_type, ast.KindsDecl):
            if table.visible is not None:
                self._sight(table)
        for zone in _of(by_type, ast.ZoneDecl):
            if zone.visible is not None:
                expr = self._expect(zone.visible, BOOL, _scope(
                    [("viewer", SEAT, None), ("owner", SEAT, None)]), "a visibility condition")
                self.out.zones[zone.name].visible = ir.Rule(("viewer", "owner"), expr,
                                                            span=zone.visible.span)
        for routine in _of(by_type, ast.FnDecl) + _of(by_type, ast.DefDecl):
            self._declare(routine.name, routine)
            if routine.name in BUILTINS:
                raise error_at(GdlRuleError, f"'{routine.name}' is a built-in function and "
                               "cannot be redefined", routine.span)
            if isinstance(routine, ast.FnDecl):
                self.fn_decls[routine.name] = routine
                self._named("fn", routine.name, routine.name_span)
            else:
                self.def_decls[routine.name] = routine
                self._named("def", routine.name, routine.name_span)
            self._check_params_unique(routine.params, routine.param_spans, routine)
        for phase_decl in _of(by_type, ast.PhaseDecl):
            self._declare(phase_decl.name, phase_decl)
            self._named("phase", phase_decl.name, phase_decl.name_span)
            self.phase_decls[phase_decl.name] = phase_decl
        setup = self._single(by_type, ast.SetupDecl, required=True)
        self.setup_decl = setup
        end_decls = _of(by_type, ast.EndDecl)
        hides = _of(by_type, ast.HideDecl)
        for hide in hides:
            if hide.what != "piece":
                raise error_at(GdlRuleError, "expected one 'hide piece(p) when ...'",
                               hide.what_span or hide.span)
        if len(hides) > 1:
            raise error_at(GdlRuleError, "expected one 'hide piece(p) when ...'; the first is "
                           f"at {_first_at(hides[0], hides[1].span)}", hides[1].span)
        shows: dict[str, ast.ShowDecl] = {}
        for show in _of(by_type, ast.ShowDecl):
            if show.what not in SHOW_PARAMS:
                hint = " (write 'colour')" if show.what == "color" else ""
                raise error_at(GdlRuleError, f"'show {show.what}' is unknown{hint}; expected "
                               + SHOW_FORMS, show.what_span or show.span)
            wanted = len(SHOW_PARAMS[show.what])
            if len(show.params) != wanted:
                raise error_at(GdlRuleError, f"'show {show.what}' takes "
                               f"{counted(wanted, 'parameter')}, as in 'show {show.what}("
                               f"{SHOW_NAMES[show.what]}) = ...', not {len(show.params)}",
                               show.what_span or show.span)
            if show.what == "side" and self.out.board.kind == "hex":
                raise error_at(GdlRuleError, "'show side' needs a square or table board: the "
                               "sides of a hex cell are not drawn", show.what_span or show.span)
            if show.what in shows:
                raise error_at(GdlRuleError, f"'show {show.what}' is declared twice; the first "
                               f"is at {_first_at(shows[show.what], show.span)}", show.span)
            shows[show.what] = show

        out = self.out
        out.setup = self._block(setup.body, _scope(()))
        out.setup_span = setup.span
        pending = dict(self.phase_decls)
        while pending:
            ready = [n for n, d in pending.items()
                     if not d.params or n in self.phase_param_types]
            name = ready[0] if ready else next(iter(pending))
            out.phases[name] = self._phase(pending.pop(name))
        out.phases = {name: out.phases[name] for name in self.phase_decls}
        self.trigger_decls = _of(by_type, ast.TriggerDecl)
        self.out_decls = _of(by_type, ast.OutDecl)
        self.concede_decls = _of(by_type, ast.ConcedeDecl)
        out.concedes = [ir.OutHook(self._block(h.body, self._hook_scope(h)), span=h.span)
                        for h in self.concede_decls]
        out.triggers = [self._trigger(t) for t in self.trigger_decls]
        out.outs = [ir.OutHook(self._block(h.body, self._hook_scope(h)), span=h.span)
                    for h in self.out_decls]
        for block, end_decl in enumerate(end_decls):
            self._end_block(end_decl, block)
        names = set()
        for invariant in _of(by_type, ast.InvariantDecl):
            if invariant.name in names:
                raise error_at(GdlRuleError, f"invariant \"{invariant.name}\" is declared twice",
                               invariant.span)
            names.add(invariant.name)
            out.invariants.append(ir.Invariant(invariant.name, self._expect(
                invariant.expr, BOOL, _scope(()), "an invariant"), span=invariant.span))
        for phase in self.phase_decls.values():
            if phase.doc is not None:
                out.docs[(phase.name, None)] = phase.doc
            for action in phase.actions:
                if action.doc is not None:
                    out.docs[(phase.name, action.name)] = action.doc
        for what, show in shows.items():
            self._check_params_unique(show.params, show.param_spans, show)
            scope = _scope([(name, t, self._parameter(name, span, show)) for name, t, span
                            in zip(show.params, SHOW_PARAMS[what],
                                   show.param_spans or _no_spans(show.params))])
            out.shows[what] = ir.Rule(show.params, self._expect(
                show.expr, SHOW_TYPES.get(what, STR), scope, f"'show {what}'"), span=show.span)
            if what == "colour":
                _check_colours(show.expr)
        out.look = _look(shows)
        self._stats(_of(by_type, ast.StatDecl))
        self._payoff(_of(by_type, ast.PayoffDecl))
        for hide in hides:
            scope = _scope([(hide.param, PIECE, self._parameter(hide.param, hide.param_span,
                                                                hide)), ("viewer", SEAT, None)])
            out.hide = ir.Rule((hide.param, "viewer"), self._expect(
                hide.expr, BOOL, scope, "'hide'"), span=hide.span)
        for routine in list(self.fn_decls.values()) + list(self.def_decls.values()):
            if routine.name not in self.fn_params:
                self._check_callable(routine, (ANY,) * len(routine.params))
        self._reachability()
        self._calls_last()
        out.references = self.references
        return out

    # ----- declarations ---------------------------------------------------------------
    def _stats(self, decls: list[ast.StatDecl]) -> None:
        """`stat NAME = expr` and `stat NAME(s) = expr`: a number, truth value or text of
        the final position, per game or per seat; names of their own namespace."""
        for decl in decls:
            if decl.name in self.out.stats:
                first = _first_at(self.out.stats[decl.name], decl.span)
                raise error_at(GdlRuleError, f"'stat {decl.name}' is declared twice; the "
                               f"first is at {first}", decl.span)
            params = () if decl.param is None else (decl.param,)
            expr = self._expr(decl.expr, _scope([(p, SEAT, self._parameter(
                p, decl.param_span, decl)) for p in params]))
            if not any(compatible(t, expr.type) for t in (INT, BOOL, STR)):
                raise self._type_error(decl.expr, "a 'stat' needs a number, true or false, "
                                       "or text", expr.type)
            self.out.stats[decl.name] = ir.Rule(params, expr, span=decl.span)

    def _payoff(self, decls: list[ast.PayoffDecl]) -> None:
        """`payoff(s) = expr`: a number, each seat's return when the game ends."""
        if len(decls) > 1:
            raise error_at(GdlRuleError, f"'payoff' is declared twice; the first is at "
                           f"{_first_at(decls[0], decls[1].span)}", decls[1].span)
        for decl in decls:
            scope = _scope([(decl.param, SEAT, self._parameter(decl.param, decl.param_span,
                                                               decl))])
            self.out.payoff = ir.Rule((decl.param,), self._expect(
                decl.expr, INT, scope, "a 'payoff'"), span=decl.span)

    @overload
    def _single(self, by_type: _ByType, cls: type[_D], required: Literal[True]) -> _D: ...

    @overload
    def _single(self, by_type: _ByType, cls: type[_D], required: Literal[False]) -> _D | None:
        ...

    def _single(self, by_type: _ByType, cls: type[_D], required: bool) -> _D | None:
        found = _of(by_type, cls)
        word = {ast.GameDecl: "game", ast.SetupDecl: "setup", ast.BoardDecl: "board",
                ast.SeatsDecl: "seats"}[cls]
        if len(found) > 1:
            raise error_at(GdlRuleError, f"'{word}' is declared twice; the first is at "
                           f"{_first_at(found[0], found[1].span)}", found[1].span)
        if required and not found:
            message = f"the rule file has no '{word}' declaration"
            if not self.program.items:
                message = ("the rule file is empty: it needs at least 'seats', 'board' and "
                           "'setup'")
            raise GdlRuleError(message, file=self._file(), line=1, column=1,
                               source_line=self._first_line())
        return found[0] if found else None

    def _file(self) -> str:
        return self.program.span.file if self.program.span else "<string>"

    def _first_line(self) -> str | None:
        if self.program.span and self.program.span.lines:
            return self.program.span.lines[0]
        return None

    def _declare(self, name: str, decl: ast.Node, span: ast.Span | None = None) -> None:
        """Declare `name`, written at `span` in `decl` (a declaration of several names)
        or at the start of `decl`."""
        if name in self.declared:
            raise error_at(GdlRuleError, f"'{name}' is defined twice; the first definition "
                           f"is at {_first_at(self.declared[name], span or decl.span)}",
                           span or decl.span)
        self.declared[name] = decl

    def _named(self, kind: str, name: str, span: ast.Span | None) -> None:
        """Record a declaration of the global namespace (what `_declare` guards)."""
        self.named[name] = self.references.declare(kind, name, span)

    def _parameter(self, name: str, span: ast.Span | None, decl: ast.Node
                   ) -> Declaration | None:
        """Record a parameter of `decl`, visible in the whole of it."""
        return self.references.declare("parameter", name, span, visible=decl.span)

    def _parameters(self, decl: ast.FnDecl | ast.DefDecl | ast.PhaseDecl
                    ) -> list[Declaration | None]:
        """The declarations of the parameters of a fn, def or phase, in order."""
        spans = decl.param_spans or _no_spans(decl.params)
        return [self._parameter(name, span, decl) for name, span in zip(decl.params, spans)]

    def _hook_scope(self, hook: ast.OutDecl | ast.ConcedeDecl) -> Scope:
        """The scope of `on out(s)` and `on concede(s)`: the seat."""
        return _scope([(hook.seat, SEAT, self._parameter(hook.seat, hook.seat_span, hook))])

    def _constant_names(self, expr: ast.Node,
                        bound: dict[str, Declaration | None] | None = None) -> None:
        """Record what the names of a constant expression refer to: the constant evaluator
        resolves them on its own; `bound` holds the names bound around it (a cell, a
        comprehension's variable)."""
        bound = bound or {}
        if isinstance(expr, ast.Name):
            self.references.use(expr.span, bound.get(expr.name) or self.named.get(expr.name))
        elif isinstance(expr, (ast.Comprehension, ast.Quant)):
            self._constant_names(expr.domain, bound)
            inner = dict(bound)
            inner[expr.name] = self.references.declare("local", expr.name, expr.name_span,
                                                       visible=expr.span)
            for part in (expr.where, getattr(expr, "expr", None), getattr(expr, "value", None)):
                if part is not None:
                    self._constant_names(part, inner)
        else:
            for child in ast.children(expr):
                self._constant_names(child, bound)

    def _declare_seats(self, by_type: _ByType) -> None:
        decl = self._single(by_type, ast.SeatsDecl, required=True)
        if not 2 <= len(decl.names) <= 4:
            raise error_at(GdlRuleError, f"a game has 2 to 4 seats, not {len(decl.names)}",
                           decl.span)
        for name, span in zip(decl.names, decl.name_spans or _no_spans(decl.names)):
            self._declare(name, decl, span)
            self._named("seat", name, span)
        self.out.seats = list(decl.names)

    def _make_board(self, by_type: _ByType) -> None:
        decl = self._single(by_type, ast.BoardDecl, required=False)
        if decl is None:        # a game without a board (dice, cards): a board of no cells
            self.out.board = BOARD_KINDS["square"](1, 1).with_holes((0,))
            return
        if decl.kind not in BOARD_KINDS:
            raise error_at(GdlRuleError, f"unknown board kind '{decl.kind}'",
                           decl.kind_span or decl.span,
                           did_you_mean(decl.kind, BOARD_KINDS))
        if len(decl.args) != 2:
            raise error_at(GdlRuleError, f"board {decl.kind}(width, height) takes 2 "
                           f"arguments, not {len(decl.args)}", decl.span)
        size = []
        for arg in decl.args:
            self._constant_names(arg)
            value, t = self._const(arg)
            if t != INT:
                raise self._type_error(arg, "a board size must be a number", t)
            size.append(value)
        width, height = size
        try:
            board = BOARD_KINDS[decl.kind](width, height, decl.directions)
        except GdlError as exc:
            raise error_at(GdlRuleError, exc.message, decl.span) from None
        self.out.board = board          # without holes yet: cell names in the condition
        if decl.hole_expr is not None:
            assert decl.hole_param is not None      # the grammar names the cell
            cell = self._parameter(decl.hole_param, decl.hole_param_span, decl)
            self._constant_names(decl.hole_expr, {decl.hole_param: cell})
            holes = self._cells_where(decl.hole_expr, decl.hole_param, board,
                                      "'holes(...) where'")
            if len(holes) == board.size:
                raise error_at(GdlRuleError, "every cell of the board is a hole",
                               decl.hole_expr.span)
            board.with_holes(holes)
        self.out.board = board

    def _cells_where(self, expr: ast.Expr, name: str, board: Board, what: str) -> list[int]:
        """The cells of `board` for which `expr` (with `name` the cell) holds: constants,
        the cell, `row(c)`, `column(c)`, arithmetic, comparisons, `in`, `and`, `or`, `not`.
        The condition is turned into a Python function once, then run for every cell."""
        test, t = self._cell_function(expr, name, board)
        if t != BOOL:
            raise self._type_error(expr, f"{what} needs true/false", t)
        return [cell for cell in range(board.size) if cell not in board.holes and test(cell)]

    def _cell_function(self, expr: ast.Expr, name: str, board: Board
                       ) -> tuple[Callable[[int], Any], Type]:
        """(function of a cell, static type) for a condition of `_cells_where`."""
        def sub(e: ast.Expr) -> tuple[Callable[[int], Any], Type]:
            return self._cell_function(e, name, board)
        if not any(isinstance(n, ast.Name) and n.name == name for n in ast.walk(expr)):
            value, t = self._const(expr)            # no cell in it: worked out once
            return (lambda cell: value), t
        if isinstance(expr, ast.Neg):
            operand, t = sub(expr.operand)
            if t != INT:
                raise self._type_error(expr.operand, "'-' needs a number", t)
            return (lambda cell: -operand(cell)), INT
        if isinstance(expr, ast.Name) and expr.name == name:
            return (lambda cell: cell), CELL
        if isinstance(expr, ast.Call) and expr.name in ("row", "column") and len(expr.args) == 1:
            arg, t = sub(expr.args[0])
            if t != CELL:
                raise self._type_error(expr.args[0], f"{expr.name}() needs a cell", t)
            width = board.width
            if expr.name == "row":
                return (lambda cell: arg(cell) // width + 1), INT
            return (lambda cell: arg(cell) % width + 1), INT
        if isinstance(expr, ast.Binary):
            (a, ta), (b, tb) = sub(expr.left), sub(expr.right)
            if ta != INT or tb != INT:
                raise self._type_error(expr, f"'{expr.op}' needs numbers",
                                       ta if ta != INT else tb)
            return (lambda cell: _folded(expr, a(cell), b(cell))), INT
        if isinstance(expr, ast.Compare):
            (a, ta), (b, tb) = sub(expr.left), sub(expr.right)
            if expr.op not in ("==", "!=") and (ta != INT or tb != INT):
                raise self._type_error(expr, f"'{expr.op}' needs numbers",
                                       ta if ta != INT else tb)
            if join(ta, tb) is None:
                raise self._type_error(expr.right, _compares(expr.op, ta), tb)
            op = expr.op
            return (lambda cell: ir.fold_binary(op, a(cell), b(cell))), BOOL
        if isinstance(expr, ast.In):
            (a, ta), (b, tb) = sub(expr.item), sub(expr.collection)
            if not is_list(tb):
                raise self._type_error(expr.collection, "'in' needs a list", tb)
            if join(ta, element(tb)) is None:
                raise self._type_error(expr.item, f"'in' looks in {describe(tb)}", ta)
            negated = expr.negated
            return (lambda cell: (a(cell) in b(cell)) != negated), BOOL
        if isinstance(expr, (ast.And, ast.Or, ast.Not)):
            parts = [expr.operand] if isinstance(expr, ast.Not) else [expr.left, expr.right]
            tests = []
            for part in parts:
                test, t = sub(part)
                if t != BOOL:
                    raise self._type_error(part, "'and', 'or' and 'not' need true/false", t)
                tests.append(test)
            if isinstance(expr, ast.Not):
                return (lambda cell: not tests[0](cell)), BOOL
            if isinstance(expr, ast.And):
                return (lambda cell: tests[0](cell) and tests[1](cell)), BOOL
            return (lambda cell: tests[0](cell) or tests[1](cell)), BOOL
        if isinstance(expr, ast.CellLit):
            found = board.parse(expr.name)
            if found is None:
                raise error_at(GdlRuleError, f"@{expr.name} is not a cell of the "
                               f"{board.width}x{board.height} {board.kind} board", expr.span)
            return (lambda cell: found), CELL
        if isinstance(expr, ast.ListExpr):
            typed = [sub(item) for item in expr.items]
            t = ANY
            for (_, item_t), item in zip(typed, expr.items):
                joined = join(t, item_t)
                if joined is None:
                    raise self._type_error(item, f"a list holds one type of value: "
                                           f"{describe(t)}", item_t)
                t = joined
            items = [f for f, _ in typed]
            return (lambda cell: [item(cell) for item in items]), list_of(t)
        value, t = self._const(expr)
        return (lambda cell: value), t

    def _param(self, name: str) -> tuple[Any, Type] | None:
        if name in self.out.params:
            return self.out.params[name]
        decl = self.param_nodes[name]
        # marks "being evaluated" to catch cycles (never left in a checked program)
        self.out.params[name] = None      # type: ignore[assignment]
        value, t = self._const(decl.expr)
        self.out.params[name] = (value, t)
        return value, t

    def _kinds(self, by_type: _ByType) -> None:
        tables = _of(by_type, ast.KindsDecl)
        for table in tables:
            for i, (column, span) in enumerate(zip(table.columns, table.column_spans
                                                   or _no_spans(table.columns))):
                if column in table.columns[:i]:
                    raise error_at(GdlRuleError, f"the column '{column}' is named twice in "
                                   "this table", span or table.span)
                if column in PIECE_PROPERTIES:
                    raise error_at(GdlRuleError, f"'{column}' is a built-in piece property "
                                   "and cannot be a table column", span or table.span)
                if ("kind", column) not in self.fields:
                    self.fields["kind", column] = self.references.declare("stat", column, span)
            for row in table.rows:
                self._declare(row.name, row)
                self._named("kind", row.name, row.name_span)
                for expr in row.values:
                    self._constant_names(expr)
                if len(row.values) != len(table.columns):
                    raise error_at(GdlRuleError, row_length(row, table), row.span)
                stats = {}
                for column, expr in zip(table.columns, row.values):
                    value, t = self._const(expr)
                    known = self.out.kind_columns.get(column)
                    if known is not None and join(known, t) is None:
                        raise self._type_error(expr, f"column '{column}' holds "
                                               f"{describe(known)}", t)
                    self.out.kind_columns[column] = t if known in (None, NONE) else known
                    stats[column] = value
                self.out.kinds[row.name] = stats
        for stats in self.out.kinds.values():
            for column in self.out.kind_columns:
                stats.setdefault(column, None)

    def _var(self, decl: ast.VarDecl) -> None:
        if decl.scope not in ("global", "seat", "piece"):
            raise error_at(GdlRuleError, f"a variable is 'var name', 'var seat.name' or "
                           f"'var piece.name', not 'var {decl.scope}.{decl.name}'", decl.span)
        table = self.out.vars[decl.scope]
        key = decl.name if decl.scope == "global" else f"{decl.scope}.{decl.name}"
        if decl.name in table or (decl.scope == "global" and decl.name in self.declared):
            first = table[decl.name] if decl.name in table else self.declared[decl.name]
            raise error_at(GdlRuleError, f"'{key}' is defined twice; the first definition "
                           f"is at {_first_at(first, decl.span)}", decl.span)
        if decl.scope == "global":
            self.declared[decl.name] = decl
        declaration = self.references.declare("var", decl.name, decl.name_span, decl.scope)
        if decl.scope == "global":
            self.named[decl.name] = declaration
        else:
            self.fields[decl.scope, decl.name] = declaration
        if decl.scope == "piece" and (decl.name in PIECE_PROPERTIES
                                      or decl.name in self.out.kind_columns):
            raise error_at(GdlRuleError, f"'piece.{decl.name}' clashes with a piece "
                           "property or table column of the same name",
                           decl.name_span or decl.span)
        if decl.column is not None:
            if decl.scope != "piece":
                raise error_at(GdlRuleError, f"only a piece variable can start from its "
                               f"kind's table ('var piece.{decl.name} from {decl.column}')",
                               decl.name_span or decl.span)
            if decl.column not in self.out.kind_columns:
                raise error_at(GdlRuleError, f"the kinds have no column '{decl.column}'",
                               decl.column_span or decl.span,
                               did_you_mean(decl.column, self.out.kind_columns))
            self.references.use(decl.column_span, self.fields.get(("kind", decl.column)))
            t = self.out.kind_columns[decl.column]
            table[decl.name] = ir.Variable(decl.name, None, self._declared(decl, t),
                                           span=decl.span, column=decl.column)
            return
        assert decl.expr is not None        # the grammar: `= expr` or `from COLUMN`
        self._constant_names(decl.expr)
        value, t = self._const(decl.expr)
        table[decl.name] = ir.Variable(decl.name, value, self._declared(decl, t),
                                       span=decl.span)

    def _declared(self, decl: ast.VarDecl, t: Type) -> Type:
        """A variable's type as declared, or as an assignment later in the file makes it
        (`_refine`, on an earlier pass)."""
        t = ANY if t == NONE else t
        if _open(t):
            return self.given.get((decl.scope, decl.name), t)
        return t

    def _visibility(self, decl: ast.VarDecl) -> None:
        """`visible to COND`: `viewer` is the seat looking; for seat and piece variables
        `owner` is the owning seat and `it` the seat or piece the variable belongs to."""
        params = [("viewer", SEAT, None)]
        if decl.scope != "global":
            params += [("owner", SEAT, None),
                       ("it", PIECE if decl.scope == "piece" else SEAT, None)]
        assert decl.visible is not None
        expr = self._expect(decl.visible, BOOL, _scope(params), "a visibility condition")
        rule = ir.Rule(tuple(name for name, _, _ in params), expr, span=decl.visible.span)
        self.out.vars[decl.scope][decl.name].visible = rule

    def _sight(self, table: ast.KindsDecl) -> None:
        """A kinds table's `visible to COND`: `viewer` is the seat looking, `owner` the
        piece's owner and `it` the piece; a seat for which it is false sees no such piece."""
        assert table.visible is not None
        params = [("viewer", SEAT, None), ("owner", SEAT, None), ("it", PIECE, None)]
        expr = self._expect(table.visible, BOOL, _scope(params), "a visibility condition")
        self.out.sights.append(ir.Sight(
            tuple(row.name for row in table.rows),
            ir.Rule(tuple(name for name, _, _ in params), expr, span=table.visible.span),
            span=table.visible.span))

    def _check_params_unique(self, params: Sequence[str], spans: Sequence[ast.Span | None],
                             decl: ast.Node) -> None:
        seen = set()
        for name, span in zip(params, spans or _no_spans(params)):
            if name in seen:
                raise error_at(GdlRuleError, f"parameter '{name}' is named twice",
                               span or decl.span)
            seen.add(name)

    # ----- constants -------------------------------------------------------------------
    def _const(self, expr: ast.Expr) -> tuple[Any, Type]:
        """Evaluate a constant expression (params, tables, terrain, initial values)."""
        if isinstance(expr, ast.Number):
            return expr.value, INT
        if isinstance(expr, ast.String):
            return expr.value, STR
        if isinstance(expr, ast.Bool):
            return expr.value, BOOL
        if isinstance(expr, ast.NoneLit):
            return None, NONE
        if isinstance(expr, ast.CellLit):
            return self._cell(expr), CELL
        if isinstance(expr, ast.Neg):
            value, t = self._const(expr.operand)
            if t != INT:
                raise self._type_error(expr.operand, "'-' needs a number", t)
            return -value, INT
        if isinstance(expr, ast.ListExpr):
            values, t = [], ANY
            for item in expr.items:
                value, item_t = self._const(item)
                joined = join(t, item_t)
                if joined is None:
                    raise self._type_error(item, f"a list holds one type of value: "
                                           f"{describe(t)}", item_t)
                t = joined
                values.append(value)
            return values, list_of(t)
        if isinstance(expr, ast.Binary):
            (a, ta), (b, tb) = self._const(expr.left), self._const(expr.right)
            if expr.op == "+" and is_list(ta) and is_list(tb):
                joined = join(ta, tb)
                if joined is None:
                    raise self._type_error(expr.right, f"cannot join {describe(ta)} with", tb)
                return _folded(expr, a, b), joined
            if expr.op == "+" and ta == STR and tb == STR:
                return _folded(expr, a, b), STR
            if ta != INT or tb != INT:
                raise self._type_error(expr, f"'{expr.op}' needs numbers",
                                       ta if ta != INT else tb)
            return _folded(expr, a, b), INT
        if isinstance(expr, ast.Comprehension) and isinstance(expr.domain, ast.Call) \
                and expr.domain.name == "cells" and not expr.domain.args \
                and isinstance(expr.expr, ast.Name) and expr.expr.name == expr.name:
            # `[c for c in cells() where COND]`: the cells for which COND holds, COND as in
            # `holes(c) where` (constants, row(c), column(c), arithmetic, comparisons, ...)
            board = self.out.board
            if board is None:
                raise error_at(GdlRuleError, "cells cannot be listed before the board is "
                               "known", expr.span)
            if expr.where is None:
                return list(board.all_cells), list_of(CELL)
            return self._cells_where(expr.where, expr.name, board,
                                     "a 'where' condition"), list_of(CELL)
        if isinstance(expr, ast.Name):
            if expr.name in self.param_nodes:
                found = self._param(expr.name)
                if found is None:
                    raise error_at(GdlRuleError, f"parameter '{expr.name}' depends on itself",
                                   expr.span)
                return found
            if expr.name in self.out.symbols:
                return expr.name, SYMBOL
            if expr.name in self.out.seats:
                return self.out.seats.index(expr.name), SEAT
            if expr.name in self.out.terrain:
                return list(self.out.terrain[expr.name][0]), list_of(CELL)
            if expr.name in self.out.kinds or self._is_kind_name(expr.name):
                return expr.name, KIND
            if self.out.board is not None and expr.name in self.out.board.direction_names:
                return self.out.board.direction_names.index(expr.name), DIR
            known = list(self.param_nodes) + list(self.out.symbols) + self.out.seats
            raise error_at(GdlRuleError, f"unknown name '{expr.name}' in a constant",
                           expr.span, did_you_mean(expr.name, known))
        raise error_at(GdlRuleError, "this must be a constant: numbers, text, cells, "
                       "lists, parameters and + - * / %", expr.span)

    def _is_kind_name(self, name: str) -> bool:
        return any(isinstance(i, ast.KindsDecl) and any(r.name == name for r in i.rows)
                   for i in self.program.items)

    def _cell(self, expr: ast.CellLit) -> int:
        if self.out.board is None:
            raise error_at(GdlRuleError, "a cell cannot be used before the board is known",
                           expr.span)
        cell: int | None = self.out.board.parse(expr.name)
        if cell is None:
            b = self.out.board
            if expr.name.lower() in b.names:
                raise error_at(GdlRuleError, f"@{expr.name} is a hole of the board, not a "
                               "cell", expr.span)
            raise error_at(GdlRuleError, f"@{expr.name} is not a cell of the {b.width}x"
                           f"{b.height} {b.kind} board", expr.span)
        return cell

    # ----- code units --------------------------------------------------------------------
    def _phase(self, phase: ast.PhaseDecl) -> ir.Phase:
        self._check_params_unique(phase.params, phase.param_spans, phase)
        types = self.phase_param_types.get(phase.name, (ANY,) * len(phase.params))
        params = list(zip(phase.params, types, self._parameters(phase)))
        scope = _scope(params)
        on_enter = self._block(phase.on_enter, scope.child())
        on_reveal = self._block(phase.on_reveal, scope.child())
        on_resume = self._block(phase.on_resume, scope.child())
        on_no_action = None
        if len(phase.on_no_action) > 1:
            raise error_at(GdlRuleError, f"phase '{phase.name}' has two 'on no action' blocks: "
                           "one says what a seat without a legal action does", phase.span)
        if phase.on_no_action:
            if phase.mode == "simultaneous":
                raise error_at(GdlRuleError, "'on no action' is for a phase in which one seat "
                               "decides: in a simultaneous phase every seat chooses at once",
                               phase.span)
            on_no_action = self._block(phase.on_no_action[0], scope.child())
        names = set()
        actions = []
        for index, action in enumerate(phase.actions):
            if action.name in names:
                raise error_at(GdlRuleError, f"action '{action.name}' is defined twice in "
                               f"phase '{phase.name}'", action.span)
            names.add(action.name)
            self.references.declare("action", action.name, action.name_span)
            actions.append(self._action(action, index, params))
        if phase.auto and phase.mode in ("simultaneous", "secret"):
            raise error_at(GdlRuleError, f"a {phase.mode} phase cannot be 'auto': an action "
                           "played on its own is shown to every seat", phase.span)
        return ir.Phase(phase.name, phase.mode, tuple(phase.params), on_enter, on_reveal,
                        on_resume, tuple(actions), phase.auto, on_no_action, tuple(types),
                        span=phase.span)

    def _action(self, action: ast.ActionDecl, index: int, params: list[Param]
                ) -> ir.Action:
        scope = _scope(params)
        # Binders take the slots right after the phase parameters, whatever the domains
        # themselves bind (a comprehension's variable, say).
        first = scope.counter[0]
        scope.counter[0] += len(action.binders)
        self._check_params_unique([b.name for b in action.binders],
                                  [b.name_span for b in action.binders], action)
        binders = []
        for i, binder in enumerate(action.binders):
            domain = self._expr(binder.domain, scope)
            if not is_list(domain.type) and domain.type != ANY:
                raise self._type_error(binder.domain, f"'{binder.name} in ...' needs a list",
                                       domain.type)
            scope.names[binder.name] = (first + i, element(domain.type), self._parameter(
                binder.name, binder.name_span, action))
            binders.append(ir.Binder(binder.name, first + i, domain, _source(binder.domain),
                                     element(domain.type), self._by_cell(binder, domain),
                                     span=binder.span))
        parts = []
        if action.where is not None:
            where = self._expect(action.where, BOOL, scope.child(), "a 'where' condition")
            slots = [b.slot for b in binders]
            for conj in _conjuncts(where):
                level = max((slots.index(s) + 1 for s in ir.locals_read(conj) if s in slots),
                            default=0)
                parts.append(ir.WherePart(conj, level, _source(conj), span=conj.span))
        body = self._block(action.body, scope.child())
        return ir.Action(action.name, index, tuple(binders), tuple(parts), body,
                         span=action.span)

    @staticmethod
    def _by_cell(binder: ast.Binder, domain: ir.Expr) -> bool:
        """Is the binder's piece written by its cell (`by cell`)? Only a piece can be."""
        if binder.written is None:
            return False
        at = binder.written_span or binder.span
        if binder.written != "cell":
            raise error_at(GdlRuleError, f"'by {binder.written}' is no way to write an "
                           "action's argument; expected 'by cell' (a piece written by the "
                           "cell it stands on)", at)
        if element(domain.type) not in (PIECE, ANY):
            raise error_at(GdlRuleError, f"'by cell' writes a piece by the cell it stands "
                           f"on, but '{binder.name}' is {describe(element(domain.type))}",
                           at, ["hint: a cell is written by its name already; 'by cell' "
                                "goes with a binder over pieces"])
        return True

    def _trigger(self, trigger: ast.TriggerDecl) -> ir.Trigger:
        scope = _scope([(trigger.piece, PIECE, self._parameter(trigger.piece,
                                                               trigger.piece_span, trigger)),
                        (trigger.cell, CELL, self._parameter(trigger.cell, trigger.cell_span,
                                                             trigger))])
        where = None
        if trigger.where is not None:
            where = self._expect(trigger.where, BOOL, scope, "a 'where' condition")
        return ir.Trigger(where, self._block(trigger.body, scope.child()), span=trigger.span)

    def _end_block(self, decl: ast.EndDecl, block: int) -> None:
        """An `end` block's rules onto `out.end_rules` and its shared values (`let`s) onto
        `out.end_lets[block]`: each rule reads the lets above it, as the slots after `me`."""
        shared: list[Param] = []
        lets: list[ir.EndLet] = []
        last_rule = max((i for i, item in enumerate(decl.items)
                         if isinstance(item, ast.EndRule)), default=-1)
        for i, item in enumerate(decl.items):
            if isinstance(item, ast.EndRule):
                self.out.end_rules.append(self._end_rule(item, shared, block))
                continue
            self._check_end_let(item, shared, i > last_rule)
            value = self._expr(item.expr, _scope(shared))
            declaration = self.references.declare("local", item.name, item.name_span,
                                                  visible=_until(item.span, decl.span))
            shared.append((item.name, value.type, declaration))
            lets.append(ir.EndLet(item.name, len(shared), value, span=item.span))
        self.out.end_lets.append(lets)

    @staticmethod
    def _check_end_let(let: ast.Let, shared: Sequence[Param], after_rules: bool) -> None:
        """What a shared value of an end block may not be: read by no rule, named twice or
        as `seat`, or reading the seat a rule is tested for."""
        if after_rules:
            raise error_at(GdlRuleError, f"'let {let.name}' comes after the last rule of its "
                           "'end' block, so no rule reads it", let.span,
                           ["hint: a rule reads the 'let's above it: put the 'let' first"])
        if let.name in ("seat", "me"):
            raise error_at(GdlRuleError, f"'{let.name}' is a built-in name of the end rules: "
                           "name the shared value otherwise", let.name_span or let.span)
        if any(name == let.name for name, _, _ in shared):
            raise error_at(GdlRuleError, f"'let {let.name}' is declared twice in this 'end' "
                           "block", let.name_span or let.span)
        seat = next((n for n in ast.walk(let.expr) if isinstance(n, ast.Name)
                     and n.name in ("seat", "me")), None)
        if seat is not None:
            raise error_at(GdlRuleError, f"an 'end' block's 'let' is computed once for every "
                           f"seat, so it cannot read '{seat.name}'", seat.span,
                           ["hint: compute what depends on the seat in the 'win when' or "
                            "'lose when' rule itself"])

    def _end_rule(self, rule: ast.EndRule, shared: Sequence[Param], block: int) -> ir.EndRule:
        params = list(shared) + ([("seat", SEAT, None)] if rule.kind != "draw" else [])
        expr = self._expect(rule.expr, BOOL, _scope(params), f"a '{rule.kind} when' condition")
        return ir.EndRule(rule.kind, expr, block, len(shared), span=rule.span)

    def _check_callable(self, decl: ast.FnDecl | ast.DefDecl, arg_types: Sequence[Type]
                        ) -> None:
        self.fn_params[decl.name] = tuple(arg_types)
        scope = _scope(list(zip(decl.params, arg_types, self._parameters(decl))))
        if isinstance(decl, ast.FnDecl):
            body = self._expr(decl.expr, scope)
            self.fn_types[decl.name] = body.type
            self.out.fns[decl.name] = ir.Fn(decl.name, tuple(decl.params), tuple(arg_types),
                                            body, body.type, span=decl.span)
        else:
            scope.in_def = True
            self.out.defs[decl.name] = ir.Def(decl.name, tuple(decl.params), tuple(arg_types),
                                              self._block(decl.body, scope), span=decl.span)

    # ----- statements ------------------------------------------------------------------
    def _block(self, statements: Sequence[ast.Stmt], scope: Scope) -> tuple[ir.Stmt, ...]:
        if statements:
            scope.end = statements[-1].span
        return tuple(getattr(self, "_stmt_" + type(statement).__name__)(statement, scope)
                     for statement in statements)

    def _stmt_Assign(self, stmt: ast.Assign, scope: Scope) -> ir.Assign:
        name = stmt.target.names[0]
        if scope.results is not None and (len(stmt.target.names) > 1 or name not in scope.names):
            raise error_at(GdlRuleError, f"a fn cannot change the game: '"
                           f"{'.'.join(stmt.target.names)}' is not a local of the fn",
                           stmt.span, ["hint: a fn's block assigns only its own locals (a "
                                       "'let', a parameter, a loop variable); a 'def' changes "
                                       "variables"])
        place, target_t = self._target(stmt.target, scope)
        value = self._expr(stmt.expr, scope)
        if stmt.op in ("+=", "-="):
            if not compatible(INT, target_t):
                raise self._type_error(stmt.target, f"'{stmt.op}' needs a number variable",
                                       target_t)
            if not compatible(INT, value.type):
                raise self._type_error(stmt.expr, f"'{stmt.op}' needs a number", value.type)
        elif not compatible(target_t, value.type):
            raise self._type_error(stmt.expr, f"'{'.'.join(stmt.target.names)}' holds "
                                   f"{describe(target_t)}", value.type)
        else:
            self._refine(place, target_t, value.type, scope.names.get(name))
        until = None
        if stmt.until is not None:
            until = self._expect(stmt.until, SEAT, scope, "'until turn of'")
        return ir.Assign(place, stmt.op, value, until, span=stmt.span)

    def _target(self, target: ast.Target, scope: Scope) -> tuple[ir.Place, Type]:
        """(the place a target names, its type)."""
        first = target.names[0]
        if len(target.names) == 1:
            if first in scope.names:
                slot, t, declaration = scope.names[first]
                if first == "me":
                    raise error_at(GdlRuleError, "'me' cannot be assigned", target.span)
                self.references.use(target.span, declaration)
                return ir.LocalPlace(slot, span=target.span), t
            if first in self.out.vars["global"]:
                self.references.use(target.span, self.named.get(first))
                return (ir.GlobalPlace(first, span=target.span),
                        self.out.vars["global"][first].type)
            raise error_at(GdlRuleError, f"'{first}' is not a variable that can be assigned",
                           target.span, did_you_mean(first, list(scope.names) +
                                                      list(self.out.vars["global"])))
        spans = target.name_spans or _no_spans(target.names)
        obj_ast: ast.Expr = ast.Name(first, span=spans[0] or target.span)
        for name, span in zip(target.names[1:-1], spans[1:-1]):
            obj_ast = ast.Field(obj_ast, name, span=target.span, name_span=span)
        obj = self._expr(obj_ast, scope)
        field = target.names[-1]
        scope_name = _VAR_SCOPES.get(obj.type)
        if obj.type == ANY:
            scope_name = "piece" if field in self.out.vars["piece"] else "seat"
        if scope_name is None or field not in self.out.vars[scope_name]:
            if scope_name == "piece" and (field in PIECE_PROPERTIES
                                          or field in self.out.kind_columns):
                if field in PIECE_PROPERTIES:
                    how = {"kind": "use change PIECE to KIND", "owner": "use give PIECE to "
                           "SEAT", "zone": "use put PIECE into ZONE"}.get(
                               field, "use move, place or remove")
                else:   # a column of the kinds table: the same for every piece of a kind
                    how = ("it is a column of the kinds table, the same for every piece of a "
                           "kind: keep a value that changes in a piece variable of another "
                           "name ('var piece.NAME = ...'), or change the piece's kind")
                raise error_at(GdlRuleError, f"'{field}' of a piece cannot be assigned; {how}",
                               spans[-1] or target.span)
            known = list(self.out.vars[scope_name]) if scope_name else []
            raise error_at(GdlRuleError, f"{describe(obj.type)} has no variable '{field}'",
                           spans[-1] or target.span, did_you_mean(field, known))
        self.references.use(spans[-1], self.fields.get((scope_name, field)))
        cls = ir.PieceVarPlace if scope_name == "piece" else ir.SeatVarPlace
        return cls(obj, field, span=target.span), self.out.vars[scope_name][field].type

    def _refine(self, place: ir.Place, declared: Type, assigned: Type,
                local: LocalName | None = None) -> None:
        """A variable declared with `none` or `[]` takes the type of its first assignment
        that says more (so its values print as cells, pieces, ...), and so does a local
        made by `let NAME = []` given single values (on the next pass, `check_program`)."""
        if isinstance(place, ir.LocalPlace):
            declaration = local[2] if local is not None else None
            better = join(declared, assigned)
            if declaration is not None and declaration.kind == "local" \
                    and declared == list_of(ANY) and better is not None and better != declared \
                    and not is_list(element(better)):   # a list of lists stays as it was
                self.learnt.setdefault(_local_key(declaration), better)
            return
        if not isinstance(place, (ir.GlobalPlace, ir.PieceVarPlace, ir.SeatVarPlace)):
            return
        scope = {ir.GlobalPlace: "global", ir.PieceVarPlace: "piece",
                 ir.SeatVarPlace: "seat"}[type(place)]
        better = join(declared, assigned)
        if better is not None and better != declared and _open(declared):
            self.out.vars[scope][place.name].type = better
            self.learnt[scope, place.name] = better

    def _stmt_CallStmt(self, stmt: ast.CallStmt, scope: Scope) -> ir.CallDef:
        decl = self.def_decls.get(stmt.name)
        if decl is None:
            hint = (f"'{stmt.name}' is a function; a statement calls a 'def'"
                    if stmt.name in self.fn_decls or stmt.name in BUILTINS else None)
            raise error_at(GdlRuleError, f"unknown procedure '{stmt.name}'",
                           stmt.name_span or stmt.span,
                           [f"hint: {hint}"] if hint else
                           did_you_mean(stmt.name, self.def_decls))
        self.references.use(stmt.name_span, self.named.get(stmt.name))
        return ir.CallDef(stmt.name, self._call_user(stmt.name, stmt.args, scope, stmt),
                          span=stmt.span)

    def _stmt_If(self, stmt: ast.If, scope: Scope) -> ir.If:
        cond = self._expect(stmt.cond, BOOL, scope, "an 'if' condition")
        return ir.If(cond, self._block(stmt.then, scope.child()),
                     self._block(stmt.otherwise, scope.child()), span=stmt.span)

    def _stmt_For(self, stmt: ast.For, scope: Scope) -> ir.For:
        domain = self._expr(stmt.domain, scope)
        if not is_list(domain.type) and domain.type != ANY:
            raise self._type_error(stmt.domain, "'for ... in' needs a list", domain.type)
        inner = scope.child()
        slot = inner.bind(stmt.name, element(domain.type), self.references.declare(
            "local", stmt.name, stmt.name_span, visible=stmt.span))
        where = None
        if stmt.where is not None:
            where = self._expect(stmt.where, BOOL, inner, "a 'where' condition")
        return ir.For(slot, domain, where, self._block(stmt.body, inner), span=stmt.span)

    def _stmt_Leave(self, stmt: ast.Leave, scope: Scope) -> ir.Leave:
        if not scope.in_def:
            raise error_at(GdlRuleError, "'leave' ends a def, and this is not in one",
                           stmt.span, ["hint: 'return' leaves the phase; 'stop' ends the move"])
        return ir.Leave(span=stmt.span)

    def _stmt_Result(self, stmt: ast.Result, scope: Scope) -> ir.Result:
        assert scope.results is not None     # the grammar has `return VALUE` in fns only
        value = self._expr(stmt.expr, scope)
        if scope.results:
            joined = join(scope.results[0], value.type)
            if joined is None:
                raise self._type_error(stmt.expr, "every 'return' of a fn gives one type; the "
                                       f"first gives {describe(scope.results[0])}", value.type)
            scope.results[0] = joined
        else:
            scope.results.append(value.type)
        return ir.Result(value, span=stmt.span)

    def _stmt_Let(self, stmt: ast.Let, scope: Scope) -> ir.Let:
        value = self._expr(stmt.expr, scope)
        declaration = self.references.declare("local", stmt.name, stmt.name_span,
                                              visible=_until(stmt.span, scope.end))
        learnt = self.given.get(_local_key(declaration)) if declaration is not None else None
        if learnt is not None and isinstance(value, ir.Const) and value.value == () \
                and value.type == list_of(ANY):
            value = ir.Const((), type=learnt, span=value.span)     # `let xs = []`, refined
        return ir.Let(scope.bind(stmt.name, value.type, declaration), value, span=stmt.span)

    def _stmt_Move(self, stmt: ast.Move, scope: Scope) -> ir.Move:
        return ir.Move(self._expect(stmt.piece, PIECE, scope, "'move'"),
                       self._expect(stmt.path, list_of(CELL), scope, "'along'"),
                       span=stmt.span)

    def _stmt_Place(self, stmt: ast.Place, scope: Scope) -> ir.PlaceAt:
        return ir.PlaceAt(self._expect(stmt.piece, PIECE, scope, "'place'"),
                          self._expect(stmt.cell, CELL, scope, "'at'"), span=stmt.span)

    def _stmt_Give(self, stmt: ast.Give, scope: Scope) -> ir.Give:
        return ir.Give(self._expect(stmt.piece, PIECE, scope, "'give'"),
                       self._expect(stmt.seat, SEAT, scope, "'give ... to'"), span=stmt.span)

    def _stmt_Remove(self, stmt: ast.Remove, scope: Scope) -> ir.Remove:
        return ir.Remove(self._expect(stmt.piece, PIECE, scope, "'remove'"), span=stmt.span)

    def _kind_named(self, kind: ast.Expr, scope: Scope) -> None:
        """A bare name where a kind is wanted must name a kind (or a local)."""
        if isinstance(kind, ast.Name) and kind.name not in self.out.kinds \
                and kind.name not in scope.names:
            raise error_at(GdlRuleError, f"unknown piece kind '{kind.name}'", kind.span,
                           did_you_mean(kind.name, self.out.kinds))

    def _stmt_Change(self, stmt: ast.Change, scope: Scope) -> ir.Change:
        self._kind_named(stmt.kind, scope)
        return ir.Change(self._expect(stmt.piece, PIECE, scope, "'change'"),
                         self._expect(stmt.kind, KIND, scope, "'change ... to'"),
                         span=stmt.span)

    def _stmt_Create(self, stmt: ast.Create, scope: Scope) -> ir.Create:
        self._kind_named(stmt.kind, scope)
        return ir.Create(self._expect(stmt.kind, KIND, scope, "'create'"),
                         self._expect(stmt.owner, SEAT, scope, "'create ... for'"),
                         self._expect(stmt.cell, CELL, scope, "'create ... at'"),
                         span=stmt.span)

    def _stmt_Put(self, stmt: ast.Put, scope: Scope) -> ir.Put:
        zone = self.out.zones.get(stmt.zone)
        if zone is None:
            raise error_at(GdlRuleError, f"unknown zone '{stmt.zone}'",
                           stmt.zone_span or stmt.span,
                           did_you_mean(stmt.zone, self.out.zones))
        if zone.per_seat and stmt.seat is None:
            raise error_at(GdlRuleError, f"zone '{zone.name}' is per seat: say whose "
                           f"('put ... into {zone.name} of SEAT')", stmt.span)
        if not zone.per_seat and stmt.seat is not None:
            raise error_at(GdlRuleError, f"zone '{zone.name}' is shared: it has no 'of SEAT'",
                           stmt.seat.span)
        self.references.use(stmt.zone_span, self.named.get(stmt.zone))
        seat = None if stmt.seat is None else self._expect(stmt.seat, SEAT, scope,
                                                           "'put ... of'")
        return ir.Put(self._expect(stmt.piece, PIECE, scope, "'put'"), zone.name, seat,
                      span=stmt.span)

    def _stmt_CallEach(self, stmt: ast.CallEach, scope: Scope) -> ir.CallEach:
        args = self._phase_args(stmt, scope)
        seats = self._expect(stmt.seats, list_of(SEAT), scope, "'call ... for each ... in'")
        rule = None
        if stmt.where is not None:
            # Tested when each seat's turn comes, after this code has finished: it may read
            # the seat, `me` and the game, but none of this code's locals.
            inner = _scope([(stmt.name, SEAT, self.references.declare(
                "local", stmt.name, stmt.name_span, visible=stmt.span))])
            rule = len(self.out.each_rules)
            self.out.each_rules.append(ir.Rule((stmt.name,), self._expect(
                stmt.where, BOOL, inner, "a 'where' condition"), span=stmt.where.span))
        return ir.CallEach(stmt.phase, args, seats, rule, span=stmt.span)

    def _phase_args(self, stmt: ast.Goto | ast.CallEach, scope: Scope) -> tuple[ir.Expr, ...]:
        phase = self.phase_decls.get(stmt.phase)
        if phase is None:
            raise error_at(GdlRuleError, f"unknown phase '{stmt.phase}'",
                           stmt.phase_span or stmt.span,
                           did_you_mean(stmt.phase, self.phase_decls))
        if len(stmt.args) != len(phase.params):
            raise error_at(GdlRuleError, f"phase '{phase.name}' takes "
                           f"{counted(len(phase.params), 'argument')}, not {len(stmt.args)}",
                           stmt.span)
        args = tuple(self._expr(arg, scope) for arg in stmt.args)
        known = self.phase_param_types.setdefault(phase.name, tuple(a.type for a in args))
        for i, (want, got, arg) in enumerate(zip(known, args, stmt.args)):
            if not compatible(want, got.type):
                raise self._type_error(arg, f"argument {i + 1} of phase '{phase.name}' was "
                                       f"{describe(want)} at its first use", got.type)
        self.references.use(stmt.phase_span, self.named.get(stmt.phase))
        return args

    def _stmt_Goto(self, stmt: ast.Goto, scope: Scope) -> ir.Goto:
        args = self._phase_args(stmt, scope)
        assert stmt.seat is not None        # the grammar: `goto PHASE for SEAT`
        seat = self._expect(stmt.seat, SEAT, scope, "'for'")
        if seat.type == NONE or isinstance(seat, ir.Const) and seat.value is None:
            # it would stop the game at run time: "phase ... was entered for no seat"
            raise error_at(GdlRuleError, f"'{stmt.phase}' would be entered for no seat: the "
                           "seat after 'for' is always none here (write a seat: me, "
                           "next(me), a seat's name, a variable set to a seat)",
                           stmt.seat.span)
        return ir.Goto(stmt.phase, args, seat, stmt.push, span=stmt.span)

    def _stmt_Return(self, stmt: ast.Return, scope: Scope) -> ir.Return:
        return ir.Return(span=stmt.span)

    def _stmt_Stop(self, stmt: ast.Stop, scope: Scope) -> ir.Stop:
        return ir.Stop(span=stmt.span)

    def _stmt_Draw(self, stmt: ast.Draw, scope: Scope) -> ir.Draw:
        return ir.Draw(span=stmt.span)

    def _stmt_Win(self, stmt: ast.Win, scope: Scope) -> ir.Win:
        assert stmt.seat is not None        # the grammar: `win SEAT`
        return ir.Win(self._expect(stmt.seat, SEAT, scope, "'win'"), span=stmt.span)

    def _stmt_Lose(self, stmt: ast.Lose, scope: Scope) -> ir.Lose:
        assert stmt.seat is not None        # the grammar: `lose SEAT`
        return ir.Lose(self._expect(stmt.seat, SEAT, scope, "'lose'"), span=stmt.span)

    def _stmt_Log(self, stmt: ast.Log, scope: Scope) -> ir.Log:
        return ir.Log(_as_text(self._expr(stmt.expr, scope)), span=stmt.span)

    def _stmt_Shuffle(self, stmt: ast.Shuffle, scope: Scope) -> ir.Shuffle:
        place, t = self._target(stmt.target, scope)
        if not is_list(t):
            error = self._type_error(stmt.target, "'shuffle' needs a list variable", t)
            if t != ANY or not isinstance(place, (ir.GlobalPlace, ir.PieceVarPlace,
                                                  ir.SeatVarPlace)):
                raise error
            self.waiting.append(error)      # declared `none`: a later assignment may tell
        return ir.Shuffle(place, span=stmt.span)

    # ----- expressions -----------------------------------------------------------------
    def _expect(self, expr: ast.Expr, want: Type, scope: Scope, what: str) -> ir.Expr:
        checked = self._expr(expr, scope)
        if not compatible(want, checked.type):
            raise self._type_error(expr, f"{what} needs {describe(want)}", checked.type)
        return checked

    def _expr(self, expr: ast.Expr, scope: Scope) -> ir.Expr:
        checked: ir.Expr = getattr(self, "_expr_" + type(expr).__name__)(expr, scope)
        return checked

    def _expr_Number(self, e: ast.Number, scope: Scope) -> ir.Expr:
        return ir.Const(e.value, type=INT, span=e.span)

    def _expr_String(self, e: ast.String, scope: Scope) -> ir.Expr:
        return ir.Const(e.value, type=STR, span=e.span)

    def _expr_Bool(self, e: ast.Bool, scope: Scope) -> ir.Expr:
        return ir.Const(e.value, type=BOOL, span=e.span)

    def _expr_NoneLit(self, e: ast.NoneLit, scope: Scope) -> ir.Expr:
        return ir.Const(None, type=NONE, span=e.span)

    def _expr_CellLit(self, e: ast.CellLit, scope: Scope) -> ir.Expr:
        return ir.Const(self._cell(e), type=CELL, span=e.span)

    def _expr_Name(self, e: ast.Name, scope: Scope) -> ir.Expr:
        name = e.name
        if name in scope.names:
            slot, t, declaration = scope.names[name]
            self.references.use(e.span, declaration)
            return ir.Local(slot, name, type=t, span=e.span)
        resolved = self._global_name(name, e.span)
        if resolved is None:
            known = (list(scope.names) + list(self.out.params) + list(self.out.terrain)
                     + list(self.out.symbols) + list(self.out.kinds) + self.out.seats
                     + list(self.out.vars["global"]) + list(BUILTIN_VALUES)
                     + list(self.out.board.direction_names) + list(self.out.zones))
            hint = []
            if name in BUILTINS or name in self.fn_decls or name in self.out.fns:
                hint = [f"hint: '{name}' is a function; call it as {name}(...)"]
            raise error_at(GdlRuleError, f"unknown name '{name}'", e.span,
                           hint or did_you_mean(name, known))
        self.references.use(e.span, self.named.get(name))
        return resolved

    def _global_name(self, name: str, span: ast.Span | None) -> ir.Expr | None:
        out = self.out
        if name in out.params:
            value, t = out.params[name]
            if name not in self.frozen_params:
                self.frozen_params[name] = _frozen(value, self.frozen_lists)
            return ir.Const(self.frozen_params[name], type=t, span=span)
        if name in out.terrain:
            return ir.Const(out.terrain[name][0], type=list_of(CELL), span=span)
        if name in out.symbols:
            return ir.Const(name, type=SYMBOL, span=span)
        if name in out.kinds:
            return ir.Const(name, type=KIND, span=span)
        if name in out.zones:
            return ir.Const(name, type=ZONE, span=span)
        if name in out.seats:
            return ir.Const(out.seats.index(name), type=SEAT, span=span)
        if name in out.vars["global"]:
            return ir.Global(name, type=out.vars["global"][name].type, span=span)
        if name in out.board.direction_names:
            return ir.Const(out.board.direction_names.index(name), type=DIR, span=span)
        if name == "all_seats":         # those out of the game too: a constant
            return ir.Const(list(range(len(out.seats))), type=list_of(SEAT), span=span)
        types = {"current": SEAT, "deciding": SEAT, "current_phase": STR,
                 "turn_number": INT, "decision_number": INT, "seats": list_of(SEAT),
                 "winners": list_of(SEAT), "passes": INT}
        if name in types:
            return ir.StateValue(name, type=types[name], span=span)
        return None

    def _expr_ListExpr(self, e: ast.ListExpr, scope: Scope) -> ir.Expr:
        t: Type = ANY
        items = []
        for item in e.items:
            checked = self._expr(item, scope)
            joined = join(t, checked.type)
            if joined is None:
                raise self._type_error(item, f"a list holds one type of value: "
                                       f"{describe(t)}", checked.type)
            t = joined
            items.append(checked)
        if all(isinstance(i, ir.Const) for i in items):
            return ir.Const(tuple(i.value for i in items if isinstance(i, ir.Const)),
                            type=list_of(t), span=e.span)
        return ir.ListOf(tuple(items), type=list_of(t), span=e.span)

    def _binding(self, e: ast.Comprehension | ast.Quant, scope: Scope, what: str
                 ) -> tuple[ir.Expr, int, Scope, ir.Expr | None]:
        """The domain of a comprehension or quantifier, and the scope with its variable."""
        domain = self._expr(e.domain, scope)
        if not is_list(domain.type) and domain.type != ANY:
            raise self._type_error(e.domain, what, domain.type)
        inner = scope.child()
        slot = inner.bind(e.name, element(domain.type), self.references.declare(
            "local", e.name, e.name_span, visible=e.span))
        where = None
        if e.where is not None:
            where = self._expect(e.where, BOOL, inner, "a 'where' condition")
        return domain, slot, inner, where

    def _expr_Comprehension(self, e: ast.Comprehension, scope: Scope) -> ir.Expr:
        domain, slot, inner, where = self._binding(e, scope, "'for ... in' needs a list")
        value = self._expr(e.expr, inner)
        joined = value.type if e.flatten else list_of(value.type)
        return ir.Comprehension(slot, e.name, domain, where, value, e.flatten, type=joined,
                                span=e.span)

    def _expr_Quant(self, e: ast.Quant, scope: Scope) -> ir.Expr:
        domain, slot, inner, where = self._binding(e, scope,
                                                   f"'{e.op}(... in ...)' needs a list")
        value = None
        t: Type
        if e.op == "all":
            if e.value is None:
                raise error_at(GdlRuleError, "all(x in xs: condition) needs ': condition'",
                               e.span)
            value = self._expect(e.value, BOOL, inner, "all(...: condition)")
            t = BOOL
        elif e.op in ("count", "exists"):
            if e.value is not None:
                raise error_at(GdlRuleError, f"{e.op}(...) takes no ': value' part; use "
                               "'where'", e.value.span)
            t = QUANT_TYPES[e.op]
        elif e.op == "first":
            t = element(domain.type)
            if e.value is not None:
                value = self._expr(e.value, inner)
                t = value.type
        elif e.op == "connected":
            t = domain.type
            if is_list(element(domain.type)):
                raise self._type_error(e.domain, "connected(x in STARTS: NEXT) joins single "
                                       "values (cells, pieces, seats, numbers, texts)",
                                       domain.type)
            if e.value is None:
                raise error_at(GdlRuleError, "connected(x in STARTS: NEXT) needs ': NEXT', "
                               "the list of values one step on from x (e.g. orthogonal(x))",
                               e.span)
            value = self._expect(e.value, domain.type, inner,
                                 "connected's ': NEXT' (values like its starts)")
        elif e.op == "sorted":
            if e.value is None:
                raise error_at(GdlRuleError, "sorted(x in xs: key) needs ': key'", e.span)
            value = self._expect(e.value, INT, inner, "sorted(...: key)")
            t = domain.type
        else:
            if e.value is None:
                raise error_at(GdlRuleError, f"{e.op}(x in xs: value) needs ': value'",
                               e.span)
            value = self._expect(e.value, INT, inner, f"{e.op}(...: value)")
            t = INT
        return ir.Quant(e.op, slot, e.name, domain, where, value, type=t, span=e.span)

    def _expr_Field(self, e: ast.Field, scope: Scope) -> ir.Expr:
        obj = self._expr(e.obj, scope)
        checked = self._field(e, obj)
        if not isinstance(checked, ir.PieceField) or e.name not in PIECE_PROPERTIES:
            scope_name = _FIELD_SCOPES[type(checked)]
            self.references.use(e.name_span, self.fields.get((scope_name, e.name)))
        return checked

    def _field(self, e: ast.Field, obj: ir.Expr) -> ir.Expr:
        name, vars_ = e.name, self.out.vars
        span = e.span
        if obj.type == PIECE or obj.type == ANY:
            if name in PIECE_PROPERTIES:
                return ir.PieceField(obj, name, type=PIECE_PROPERTIES[name], span=span)
            if name in vars_["piece"]:
                return ir.PieceField(obj, name, type=vars_["piece"][name].type, span=span)
            if name in self.out.kind_columns:
                return ir.PieceStat(obj, name, type=self.out.kind_columns[name], span=span)
            known = list(PIECE_PROPERTIES) + list(vars_["piece"]) + list(
                self.out.kind_columns)
            if obj.type == ANY and name in vars_["seat"]:      # an untyped parameter
                return ir.SeatVar(obj, name, type=vars_["seat"][name].type, span=span)
        elif obj.type == SEAT:
            if name in vars_["seat"]:
                return ir.SeatVar(obj, name, type=vars_["seat"][name].type, span=span)
            known = list(vars_["seat"])
        elif obj.type == KIND:
            if name in self.out.kind_columns:
                return ir.KindStat(obj, name, type=self.out.kind_columns[name], span=span)
            known = list(self.out.kind_columns)
        else:
            raise error_at(GdlRuleError, f"{describe(obj.type)} has no fields (asked for "
                           f"'.{name}')", span)
        raise error_at(GdlRuleError, f"{describe(obj.type)} has no field '{name}'", span,
                       did_you_mean(name, known))

    def _expr_Call(self, e: ast.Call, scope: Scope) -> ir.Expr:
        if e.name in self.fn_types or e.name in self.fn_decls:
            self.references.use(e.name_span, self.named.get(e.name))
            args = self._call_user(e.name, e.args, scope, e)
            return ir.CallFn(e.name, args, type=self.fn_types.get(e.name, ANY), span=e.span)
        builtin = BUILTINS.get(e.name)
        if builtin is None:
            hint = (f"hint: '{e.name}' is a procedure (def); call it as a statement"
                    if e.name in self.def_decls else None)
            raise error_at(GdlRuleError, f"unknown function '{e.name}'", e.span,
                           [hint] if hint else did_you_mean(e.name, list(BUILTINS) +
                                                             list(self.fn_decls)))
        if len(e.args) not in builtin.arities:
            raise error_at(GdlRuleError, f"{e.name}() takes {builtin.takes()}, not "
                           f"{len(e.args)}", e.span)
        args = tuple(self._expr(arg, scope) for arg in e.args)
        result = builtin.typer([a.type for a in args])
        if isinstance(result, str) and result not in SCALARS:
            raise error_at(GdlRuleError, f"{e.name}(): {result}", e.span)
        fault = static_fault(e.name, [a.value if isinstance(a, ir.Const) else None
                                      for a in args])
        if fault is not None:
            raise error_at(GdlRuleError, f"{e.name}(): {fault}", e.span)
        if e.name == "text":
            return ir.Text(args[0], type=STR, span=e.span)
        if e.name == "nearest_edge" and self.out.board.kind == "hex":
            raise error_at(GdlRuleError, "nearest_edge() needs a square or table board: a hex "
                           "board has no east and west edges to name", e.span)
        return ir.CallBuiltin(e.name, args, type=result, span=e.span)

    def _call_user(self, name: str, args: Sequence[ast.Expr], scope: Scope, at: ast.Node
                   ) -> tuple[ir.Expr, ...]:
        """The checked arguments of a call of a user fn or def. A fn or def takes the
        parameter types of its first use."""
        known = self.fn_params.get(name)
        decl = self.fn_decls.get(name) or self.def_decls.get(name)
        if known is not None:
            count = len(known)
        else:
            assert decl is not None     # not called yet: a fn or def of this file
            count = len(decl.params)
        if len(args) != count:
            kind = "function" if name in self.fn_types or name in self.fn_decls else \
                "procedure"
            raise error_at(GdlRuleError, f"{kind} '{name}' takes "
                           f"{counted(count, 'argument')}, not {len(args)}", at.span)
        checked = tuple(self._expr(arg, scope) for arg in args)
        if known is None:
            assert decl is not None
            self._check_callable(decl, tuple(a.type for a in checked))
        else:
            for i, (want, got, arg) in enumerate(zip(known, checked, args)):
                if not compatible(want, got.type):
                    raise self._type_error(arg, f"argument {i + 1} of '{name}' was "
                                           f"{describe(want)} at its first use", got.type)
        return checked

    def _expr_Binary(self, e: ast.Binary, scope: Scope) -> ir.Expr:
        a, b = self._expr(e.left, scope), self._expr(e.right, scope)
        if e.op == "+":
            if compatible(STR, a.type) and compatible(STR, b.type) and STR in (a.type, b.type):
                return ir.Concat(_as_text(a), _as_text(b), type=STR, span=e.span)
            # A fn calling itself has no type yet at that call (ANY): a list joined to it
            # makes it a list (`upto(n - 1) + [n]`).
            if (is_list(a.type) or is_list(b.type)) and ANY in (a.type, b.type) or (
                    is_list(a.type) and is_list(b.type)):
                joined = join(a.type, b.type)
                if joined is None:
                    raise self._type_error(e.right, f"cannot join {describe(a.type)} with",
                                           b.type)
                return _fold(ir.Binary(e.op, a, b, type=joined, span=e.span,
                                       length=_joined_length(e, a, b)))
        for side, checked in ((e.left, a), (e.right, b)):
            if not compatible(INT, checked.type):
                raise self._type_error(side, f"'{e.op}' needs numbers", checked.type)
        return _fold(ir.Binary(e.op, a, b, type=INT, span=e.span))

    def _expr_Neg(self, e: ast.Neg, scope: Scope) -> ir.Expr:
        operand = self._expect(e.operand, INT, scope, "'-'")
        if isinstance(operand, ir.Const) and isinstance(operand.value, int):
            return ir.Const(-operand.value, type=INT, span=e.span)
        return ir.Neg(operand, type=INT, span=e.span)

    def _expr_Compare(self, e: ast.Compare, scope: Scope) -> ir.Expr:
        a, b = self._expr(e.left, scope), self._expr(e.right, scope)
        if e.op in ("==", "!="):
            if join(a.type, b.type) is None:
                raise self._type_error(e.right, _compares(e.op, a.type), b.type)
        else:
            for side, checked in ((e.left, a), (e.right, b)):
                if not compatible(INT, checked.type):
                    raise self._type_error(side, f"'{e.op}' compares numbers", checked.type)
        for one, two in ((a, b), (b, a)):
            if e.op in ("==", "!=") and one.type == NONE and is_list(two.type) \
                    and not _may_be_none(two):
                raise error_at(GdlRuleError, f"a list is never none: compare it with the "
                               f"empty list, '{'==' if e.op == '==' else '!='} []', or test "
                               f"'len(...) {'==' if e.op == '==' else '>'} 0'", e.span)
        lists = is_list(a.type) or is_list(b.type)
        return ir.Compare(e.op, a, b, lists, type=BOOL, span=e.span)

    def _expr_In(self, e: ast.In, scope: Scope) -> ir.Expr:
        item = self._expr(e.item, scope)
        collection = self._expr(e.collection, scope)
        if not is_list(collection.type) and collection.type != ANY:
            raise self._type_error(e.collection, "'in' needs a list on its right",
                                   collection.type)
        if join(item.type, element(collection.type)) is None:
            raise self._type_error(e.item, f"the list holds "
                                   f"{describe(element(collection.type))}", item.type)
        return ir.In(item, collection, e.negated, type=BOOL, span=e.span)

    def _expr_And(self, e: ast.And, scope: Scope) -> ir.Expr:
        return ir.And(self._expect(e.left, BOOL, scope, "'and'"),
                      self._expect(e.right, BOOL, scope, "'and'"), type=BOOL, span=e.span)

    def _expr_Or(self, e: ast.Or, scope: Scope) -> ir.Expr:
        return ir.Or(self._expect(e.left, BOOL, scope, "'or'"),
                     self._expect(e.right, BOOL, scope, "'or'"), type=BOOL, span=e.span)

    def _expr_Not(self, e: ast.Not, scope: Scope) -> ir.Expr:
        return ir.Not(self._expect(e.operand, BOOL, scope, "'not'"), type=BOOL, span=e.span)

    def _expr_FnBlock(self, e: ast.FnBlock, scope: Scope) -> ir.Expr:
        inner = Scope(scope.counter, scope.names, [])
        body = self._block(e.body, inner)
        if not _ends_in_result(e.body):
            last = e.body[-1].span if e.body else e.span
            raise error_at(GdlRuleError, "this fn's block can end without a result", last,
                           ["hint: end it with 'return VALUE' (an 'if' ends it only when it "
                            "has an 'else' and both branches end in a 'return')"])
        assert inner.results       # a block that ends in a result has one
        return ir.FnBlock(body, type=inner.results[0], span=e.span)

    def _expr_CondExpr(self, e: ast.CondExpr, scope: Scope) -> ir.Expr:
        cond = self._expect(e.cond, BOOL, scope, "'if ... then'")
        a, b = self._expr(e.then, scope), self._expr(e.otherwise, scope)
        joined = join(a.type, b.type)
        if joined is None:
            raise self._type_error(e.otherwise, f"both branches must have one type; the "
                                   f"'then' branch is {describe(a.type)}", b.type)
        return ir.Cond(cond, a, b, type=joined, span=e.span)

    # ----- 'call' comes last --------------------------------------------------------------
    def _calls_last(self) -> None:
        """A `call` starts a phase whose decisions come after the current action; any
        statement after it would run first, which is never what a rule means. So a
        `call` (or a procedure that may call) must be the last thing its code does."""
        calling: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, decl in self.def_decls.items():
                if name not in calling and self._may_call(decl.body, calling):
                    calling.add(name)
                    changed = True
        bodies = [self.setup_decl.body] + [d.body for d in self.def_decls.values()]
        for phase in self.phase_decls.values():
            bodies += [phase.on_enter, phase.on_reveal, phase.on_resume, *phase.on_no_action]
            bodies += [a.body for a in phase.actions]
        bodies += [t.body for t in self.trigger_decls] + [h.body for h in self.out_decls]
        bodies += [h.body for h in self.concede_decls]
        for body in bodies:
            self._tail(body, calling)

    def _may_call(self, statements: Iterable[ast.Stmt], calling: set[str]) -> bool:
        for node in _walk(statements):
            if (isinstance(node, ast.Goto) and node.push) or isinstance(node, ast.CallEach) or (
                    isinstance(node, ast.CallStmt) and node.name in calling):
                return True
        return False

    def _tail(self, statements: Sequence[ast.Stmt], calling: set[str]) -> None:
        for i, stmt in enumerate(statements):
            if not self._may_call((stmt,), calling):
                continue
            if isinstance(stmt, ast.For):
                raise error_at(GdlRuleError, "a 'call' cannot be inside a 'for' loop: the "
                               "called phase's decisions come after this code has finished",
                               stmt.span)
            if i != len(statements) - 1:
                nxt = statements[i + 1]
                raise error_at(GdlRuleError, "this would run before the 'call' on line "
                               f"{_line(stmt)} is answered: a 'call' must come last; move "
                               "this into the called phase or an 'on resume' block",
                               nxt.span)
            if isinstance(stmt, ast.If):
                self._tail(stmt.then, calling)
                self._tail(stmt.otherwise, calling)

    # ----- reachability ----------------------------------------------------------------
    def _reachability(self) -> None:
        units = {"setup": self.setup_decl.body}
        for name, decl in self.def_decls.items():
            units["def " + name] = decl.body
        for name, phase in self.phase_decls.items():
            units["phase " + name] = phase.on_enter + phase.on_reveal + phase.on_resume + sum(
                phase.on_no_action, ()) + tuple(s for a in phase.actions for s in a.body)
        for i, trigger in enumerate(self.trigger_decls):
            units[f"trigger {i}"] = trigger.body
        for i, hook in enumerate(self.out_decls):
            units[f"trigger out {i}"] = hook.body
        for i, concede in enumerate(self.concede_decls):
            units[f"trigger concede {i}"] = concede.body
        edges: dict[str, set[str]] = {unit: set() for unit in units}
        for unit, body in units.items():
            for node in _walk(body):
                if isinstance(node, (ast.Goto, ast.CallEach)):
                    edges[unit].add("phase " + node.phase)
                elif isinstance(node, ast.CallStmt):
                    edges[unit].add("def " + node.name)
        seen = set()
        todo = ["setup"] + [f"trigger {i}" for i in range(len(self.trigger_decls))] + [
            f"trigger out {i}" for i in range(len(self.out_decls))] + [
            f"trigger concede {i}" for i in range(len(self.concede_decls))]
        while todo:
            unit = todo.pop()
            if unit in seen:
                continue
            seen.add(unit)
            todo.extend(edges.get(unit, ()))
        if not _setup_enters(units):
            raise error_at(GdlRuleError, "setup never enters a phase: end it with "
                           "'goto PHASE for SEAT'", self.setup_decl.span)
        for name, phase in self.phase_decls.items():
            inherited = phase.span is not None and phase.span.file != self._file()
            if "phase " + name not in seen and not inherited:   # a variant may drop phases
                raise error_at(GdlRuleError, f"phase '{name}' can never be reached: no "
                               "'goto' or 'call' from setup leads to it", phase.span)

    # ----- messages ----------------------------------------------------------------------
    def _type_error(self, node: ast.Node, message: str, got: Type) -> GdlRuleError:
        return error_at(GdlRuleError, f"type mismatch: {message}, but this is "
                        f"{describe(got)}", node.span)


def _of(by_type: _ByType, cls: type[_D]) -> list[_D]:
    """The declarations of class `cls`, in file order."""
    return cast(list[_D], by_type.get(cls, []))      # keyed by their class


def _folded(expr: ast.Binary, a: Any, b: Any) -> Any:
    """`a op b` of constants by the one evaluator, `program.fold_binary`; a division by zero
    is a rule error at `expr`."""
    try:
        value = ir.fold_binary(expr.op, a, b)
    except ir.Oversized as exc:
        raise error_at(GdlRuleError, str(exc), expr.span) from None
    if value is None:
        raise error_at(GdlRuleError, "division by zero", expr.span)
    return value


def _compares(op: str, left: Type) -> str:
    """What `left op right` with `==` or `!=` needs of the right side: the left's type."""
    return f"'{op}' compares {describe(left)} with {describe(left)}"


def _walk(statements: Iterable[ast.Stmt]) -> Iterator[ast.Stmt]:
    """Every statement in a block, nested ones included."""
    for statement in statements:
        yield statement
        if isinstance(statement, ast.If):
            yield from _walk(statement.then)
            yield from _walk(statement.otherwise)
        elif isinstance(statement, ast.For):
            yield from _walk(statement.body)


def _setup_enters(units: dict[str, tuple[ast.Stmt, ...]]) -> bool:
    """Can setup enter a phase, or end the game? Directly, through the procedures it calls,
    or through the `on enter` triggers of the moves it makes (units: name -> body)."""
    triggers = [u for u in units if u.startswith("trigger ") and not u.startswith("trigger out")]
    todo, seen = ["setup"], set()
    while todo:
        unit = todo.pop()
        if unit in seen:
            continue
        seen.add(unit)
        for node in _walk(units[unit]):
            if isinstance(node, (ast.Goto, ast.CallEach, ast.Win, ast.Lose, ast.Draw)):
                return True
            if isinstance(node, ast.CallStmt) and "def " + node.name in units:
                todo.append("def " + node.name)
            elif isinstance(node, ast.Move):
                todo.extend(triggers)
    return False


def _scope(params: Iterable[Param]) -> Scope:
    """The scope of a code unit: `me` in slot 0, then its parameters, each a (name, type,
    declaration or None)."""
    scope = Scope([0])
    scope.bind("me", SEAT)
    for name, t, declaration in params:
        scope.bind(name, t, declaration)
    return scope


_VAR_SCOPES: dict[Type, str] = {PIECE: "piece", SEAT: "seat"}   # whose variables a value has
_FIELD_SCOPES: dict[type[ir.Expr], str] = {ir.PieceField: "piece", ir.PieceStat: "kind",
                                            ir.KindStat: "kind", ir.SeatVar: "seat"}


def _no_spans(names: Sequence[str]) -> tuple[None, ...]:
    """The name spans of a node made without them (by a tool): none known."""
    return (None,) * len(names)


def _until(start: ast.Span | None, last: ast.Span | None) -> ast.Span | None:
    """From the start of `start` to the end of `last` (a `let` to the end of its block)."""
    if start is None or last is None:
        return start
    return ast.Span(start.file, start.line, start.column, last.end_line, last.end_column,
                    start.lines)


def _line(node: ast.Node | ir.Variable) -> int:
    """The line `node` starts on (one read from a file: it has a span)."""
    assert node.span is not None
    return node.span.line


def row_length(row: ast.KindRow, table: ast.KindsDecl) -> str:
    """The error of a kinds row with more or fewer values than its table has columns."""
    return (f"kind '{row.name}' has {plural(len(row.values), 'value')} but the table has "
            f"{plural(len(table.columns), 'column')} ({', '.join(table.columns)})")


def _first_at(first: ast.Node | ir.Node | ir.Variable, later: ast.Span | None) -> str:
    """Where the first of two declarations is, for a message at the second: `line N`, or
    `FILE:N` when it is in another file (the base a variant extends)."""
    if first.span is None:
        return "line ?"
    if later is not None and first.span.file != later.file:
        return f"{first.span.file}:{first.span.line}"
    return f"line {first.span.line}"


def _source(node: ast.Node) -> str:
    return node.span.text if node.span else "?"


def _conjuncts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.And):
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _as_text(expr: ir.Expr) -> ir.Expr:
    return expr if expr.type == STR else ir.Text(expr, type=STR, span=expr.span)


def _frozen(value: Any, memo: dict[int, tuple[list[Any], tuple[Any, ...]]] | None = None
            ) -> Any:
    """Constant lists as tuples, so no rule can change a constant. A list met again (in
    `memo`: a param's list named many times in another, `[p, p, p]`) is frozen once: each
    copy of a list of 524,288 elements is 4 MB."""
    if not isinstance(value, list):
        return value
    if memo is None:
        memo = {}
    found = memo.get(id(value))
    if found is None:        # (the list is kept with its tuple: its id is not reused)
        found = memo[id(value)] = (value, tuple(_frozen(v, memo) for v in value))
    return found[1]


def _used_constants(program: ast.Program, resolved: ir.Program) -> None:
    """A rule error at the kind or the constant of the rules past which the kinds tables'
    values and the constants the rules use hold more than MAX_USED list elements in all,
    each use counted, and each list inside another each time it is there: the code
    generator writes each one out element by element (a text, written at once, counts
    nothing) (a list of 524,288 elements named in 300
    rules took 73 s to load; `[p, p, ...]`, a list naming one 300 times, 7 s and 500 MB; a
    kinds table of 300 kinds whose column is that list, as long)."""
    roots: list[ir.Node] = [*ir.rule_roots(resolved), *resolved.shows.values(),
                            *resolved.stats.values(), *resolved.invariants,
                            *(sight.rule for sight in resolved.sights)]
    if resolved.hide is not None:
        roots.append(resolved.hide)
    sizes: dict[int, tuple[Any, int]] = {}
    total = 0
    too_many = (f"the constants the rules use hold more than {MAX_USED:,} list elements in "
                "all, each use counted (a long list named in many places, or a list that "
                "names another many times)")
    rows = [row for item in program.items if isinstance(item, ast.KindsDecl)
            for row in item.rows]
    for row in rows:
        for value in resolved.kinds.get(row.name, {}).values():
            total += _size(value, sizes)
            if total > MAX_USED:
                raise error_at(GdlRuleError, too_many.replace(
                    "the constants the rules use", "the kinds tables' values and the "
                    "constants the rules use"), row.span)
    for root in roots:
        for node in ir.walk(root):
            if isinstance(node, ir.Const) and isinstance(node.value, (list, tuple)):
                total += _size(node.value, sizes)
                if total > MAX_USED:
                    raise error_at(GdlRuleError, too_many, node.span)


def _size(value: Any, sizes: dict[int, tuple[Any, int]]) -> int:
    """The list elements of a constant, a list inside it counted each time it is there
    (worked out once for each list: `sizes`, the value kept with it)."""
    if not isinstance(value, (list, tuple)):
        return 0
    found = sizes.get(id(value))
    if found is None:
        found = sizes[id(value)] = (value, len(value) + sum(_size(v, sizes) for v in value
                                                            if isinstance(v, (list, tuple))))
    return found[1]


def _joined_length(e: ast.Binary, a: ir.Expr, b: ir.Expr) -> int | None:
    """The length of lists `a + b` when the rule file fixes it (`ir.known_length`); a rule
    error at `e` when that is past limits.MAX_LIST, which play would refuse."""
    left, right = ir.known_length(a), ir.known_length(b)
    if left is None or right is None:
        return None
    try:
        return ir.joined_length(left, right)
    except ir.Oversized as exc:
        raise error_at(GdlRuleError, str(exc), e.span) from None


def _fold(binary: ir.Binary) -> ir.Expr:
    """A Binary of two constants is a constant (a division by zero is left for run time,
    which names the place)."""
    a, b = binary.left, binary.right
    if isinstance(a, ir.Const) and isinstance(b, ir.Const) and a.value is not None \
            and b.value is not None:
        try:
            value = ir.fold_binary(binary.op, a.value, b.value)
        except ir.Oversized as exc:
            raise error_at(GdlRuleError, str(exc), binary.span) from None
        if value is not None:
            return ir.Const(_frozen(value), type=binary.type, span=binary.span)
    return binary


def _look(shows: Mapping[str, ast.ShowDecl]) -> Look:
    """What the drawings need of the `show` rules as written: the marks `show piece` adds
    and the `show badge` number in words, for the key, and the shapes `show shape` names,
    read from their files."""
    piece, badge, shape = shows.get("piece"), shows.get("badge"), shows.get("shape")
    return Look(marks={} if piece is None else mark_notes(piece.expr, piece.params[0]),
                badge=None if badge is None else badge_note(badge.expr, badge.params[0]),
                shapes={} if shape is None else {
                    name.value: read_shape(name) for name in shape_names(shape.expr)})


def _check_colours(expr: ast.Expr) -> None:
    """Every text a `show colour` rule can give as written (its branches' literal texts)
    must name a colour."""
    if isinstance(expr, ast.CondExpr):
        _check_colours(expr.then)
        _check_colours(expr.otherwise)
    elif isinstance(expr, ast.String) and colour_of(expr.value) is None:
        raise error_at(GdlRuleError, f"'show colour' needs a colour: \"{expr.value}\" is "
                       f"none of {colour_words()}, '#rgb' or '#rrggbb'", expr.span)
