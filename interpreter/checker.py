"""Static checker: `ast.Program` -> `Checked` (symbol tables, a type for every expression,
a resolution for every name), or a `GdlRuleError` at the first problem.

It checks names (with "did you mean"), types, the number of arguments, duplicate
definitions and that every phase can be reached from `setup`. Parameters, tables, terrain
and initial values are constants, evaluated here. The compiler trusts what this module
recorded and never re-checks it.
"""

from __future__ import annotations

import difflib

from . import ast
from .boards import BOARD_KINDS
from .builtins import BUILTINS
from .errors import GdlError, GdlRuleError, error_at
from .types import (ANY, BOOL, CELL, INT, KIND, NONE, PIECE, SEAT, STR, SYMBOL, compatible,
                    describe, element, is_list, join, list_of)

PIECE_PROPERTIES = {"owner": SEAT, "cell": CELL, "kind": KIND}
SHOW_PARAMS = {"piece": PIECE, "row": INT}     # what `show X(p)` draws, and p's type
_BUILTIN_VALUES = ("current", "deciding", "current_phase", "turn_number", "seats")
QUANT_TYPES = {"count": INT, "exists": BOOL, "all": BOOL}


class Checked:
    """Everything the compiler needs to know about a checked program."""

    def __init__(self):
        self.game_name = "game"
        self.seats = []
        self.symbols = set()
        self.params = {}            # name -> (value, type)
        self.board = None
        self.terrain = {}           # name -> (tuple of cells, symbol)
        self.kind_columns = {}      # column -> type
        self.kinds = {}             # kind -> {column: value}
        self.vars = {"global": {}, "seat": {}, "piece": {}}   # name -> (init, type, decl)
        self.fns = {}
        self.defs = {}
        self.phases = {}
        self.triggers = []
        self.outs = []
        self.end_rules = []
        self.setup = ()
        self.setup_node = None
        self.shows = {}
        self.hides = {}
        self.types = {}             # id(expr node) -> type
        self.names = {}             # id(Name / Field / Call / target node) -> resolution
        self.slots = {}             # id(unit node) -> number of local slots
        self.keep = []              # nodes made by the checker, kept alive for their ids
        self.fn_params = {}         # fn/def name -> tuple of param types


class Scope:
    """Local names of one code unit: name -> (slot, type). Slot 0 is always `me`."""

    def __init__(self, counter, names=None):
        self.counter = counter
        self.names = dict(names or {})

    def child(self):
        return Scope(self.counter, self.names)

    def bind(self, name, t):
        slot = self.counter[0]
        self.counter[0] += 1
        self.names[name] = (slot, t)
        return slot


def check_program(program):
    checker = _Checker(program)
    checked = checker.run()
    checked.expression_checker = checker.check_expression
    return checked


class _Checker:
    def __init__(self, program):
        self.program = program
        self.out = Checked()
        self.declared = {}          # name -> decl node, for duplicate detection
        self.param_nodes = {}
        self.phase_param_types = {}

    # ----- entry ---------------------------------------------------------------------
    def run(self):
        items = self.program.items
        by_type = {}
        for item in items:
            by_type.setdefault(type(item), []).append(item)
        self._single(by_type, ast.GameDecl, required=False)
        game = by_type.get(ast.GameDecl)
        if game:
            self.out.game_name = game[0].name
        self._declare_seats(by_type)
        for decl in by_type.get(ast.SymbolsDecl, []):
            for name in decl.names:
                self._declare(name, decl)
                self.out.symbols.add(name)
        for decl in by_type.get(ast.ParamDecl, []):
            self._declare(decl.name, decl)
            self.param_nodes[decl.name] = decl
        self._make_board(by_type)
        for decl in by_type.get(ast.ParamDecl, []):
            self._param(decl.name)
        for decl in by_type.get(ast.TerrainDecl, []):
            self._declare(decl.name, decl)
            value, t = self._const(decl.expr)
            if not compatible(list_of(CELL), t):
                raise self._type_error(decl.expr, "terrain must be a list of cells", t)
            self.out.terrain[decl.name] = (tuple(value), decl.symbol)
        self._kinds(by_type)
        for decl in by_type.get(ast.VarDecl, []):
            self._var(decl)
        for decl in by_type.get(ast.VarDecl, []):
            if decl.visible is not None:
                self._visibility(decl)
        for decl in by_type.get(ast.FnDecl, []) + by_type.get(ast.DefDecl, []):
            self._declare(decl.name, decl)
            if decl.name in BUILTINS:
                raise error_at(GdlRuleError, f"'{decl.name}' is a built-in function and "
                               "cannot be redefined", decl.span)
            (self.out.fns if isinstance(decl, ast.FnDecl) else self.out.defs)[decl.name] = decl
            self._check_params_unique(decl.params, decl)
        for decl in by_type.get(ast.PhaseDecl, []):
            self._declare(decl.name, decl)
            self.out.phases[decl.name] = decl
        setups = self._single(by_type, ast.SetupDecl, required=True)
        self.out.setup = setups.body
        self.out.setup_node = setups
        self.out.triggers = by_type.get(ast.TriggerDecl, [])
        self.out.outs = by_type.get(ast.OutDecl, [])
        for decl in by_type.get(ast.EndDecl, []):
            self.out.end_rules.extend(decl.rules)
        for decl in by_type.get(ast.HideDecl, []):
            if decl.what != "piece" or decl.what in self.out.hides:
                raise error_at(GdlRuleError, "expected one 'hide piece(p) when ...'", decl.span)
            self.out.hides[decl.what] = decl
        for decl in by_type.get(ast.ShowDecl, []):
            if decl.what not in SHOW_PARAMS:
                raise error_at(GdlRuleError, f"'show {decl.what}' is unknown; expected "
                               "'show piece(p) = ...' or 'show row(r) = ...'", decl.span)
            self.out.shows[decl.what] = decl

        self._unit(setups, (), lambda scope: self._block(setups.body, scope))
        pending = dict(self.out.phases)
        while pending:
            ready = [n for n, d in pending.items()
                     if not d.params or n in self.phase_param_types]
            name = ready[0] if ready else next(iter(pending))
            self._phase(pending.pop(name))
        for trigger in self.out.triggers:
            self._trigger(trigger)
        for hook in self.out.outs:
            self._unit(hook, [(hook.seat, SEAT)], lambda scope, h=hook: self._block(
                h.body, scope.child()))
        for rule in self.out.end_rules:
            self._end_rule(rule)
        for decl in self.out.shows.values():
            self._unit(decl, [(decl.param, SHOW_PARAMS[decl.what])],
                       lambda scope, d=decl: self._expect(d.expr, STR, scope, "'show'"))
        for decl in self.out.hides.values():
            self._unit(decl, [(decl.param, PIECE), ("viewer", SEAT)],
                       lambda scope, d=decl: self._expect(d.expr, BOOL, scope, "'hide'"))
        for decl in list(self.out.fns.values()) + list(self.out.defs.values()):
            if decl.name not in self.out.fn_params:
                self._check_callable(decl, (ANY,) * len(decl.params))
        self._reachability()
        self._calls_last()
        return self.out

    def check_expression(self, expr, local_types, want=None):
        """Check a stand-alone expression (a scenario's expectation) with extra locals;
        returns (its type, number of slots, slot of each local)."""
        counter = [0]
        scope = Scope(counter)
        scope.bind("me", SEAT)
        slots = {name: scope.bind(name, t) for name, t in local_types.items()}
        t = self._expect(expr, want, scope, "this") if want else self._expr(expr, scope)
        return t, counter[0], slots

    # ----- declarations ---------------------------------------------------------------
    def _single(self, by_type, cls, required):
        found = by_type.get(cls, [])
        word = {ast.GameDecl: "game", ast.SetupDecl: "setup", ast.BoardDecl: "board",
                ast.SeatsDecl: "seats"}[cls]
        if len(found) > 1:
            raise error_at(GdlRuleError, f"'{word}' is declared twice; the first is at "
                           f"line {found[0].span.line}", found[1].span)
        if required and not found:
            message = f"the rule file has no '{word}' declaration"
            if not self.program.items:
                message = ("the rule file is empty: it needs at least 'seats', 'board' and "
                           "'setup'")
            raise GdlRuleError(message, file=self._file(), line=1, column=1,
                               source_line=self._first_line())
        return found[0] if found else None

    def _file(self):
        return self.program.span.file if self.program.span else "<string>"

    def _first_line(self):
        if self.program.span and self.program.span.lines:
            return self.program.span.lines[0]
        return None

    def _declare(self, name, decl):
        if name in self.declared:
            first = self.declared[name]
            line = first.span.line if first.span else "?"
            raise error_at(GdlRuleError, f"'{name}' is defined twice; the first definition "
                           f"is at line {line}", decl.span)
        self.declared[name] = decl

    def _declare_seats(self, by_type):
        decl = self._single(by_type, ast.SeatsDecl, required=True)
        if not 2 <= len(decl.names) <= 4:
            raise error_at(GdlRuleError, f"a game has 2 to 4 seats, not {len(decl.names)}",
                           decl.span)
        for name in decl.names:
            self._declare(name, decl)
        self.out.seats = list(decl.names)

    def _make_board(self, by_type):
        decl = self._single(by_type, ast.BoardDecl, required=True)
        if decl.kind not in BOARD_KINDS:
            raise error_at(GdlRuleError, f"unknown board kind '{decl.kind}'", decl.span,
                           self._suggest(decl.kind, BOARD_KINDS))
        if len(decl.args) != 2:
            raise error_at(GdlRuleError, f"board {decl.kind}(width, height) takes 2 "
                           f"arguments, not {len(decl.args)}", decl.span)
        size = []
        for arg in decl.args:
            value, t = self._const(arg)
            if t != INT:
                raise self._type_error(arg, "a board size must be a number", t)
            size.append(value)
        try:
            self.out.board = BOARD_KINDS[decl.kind](*size)
        except GdlError as exc:
            raise error_at(GdlRuleError, exc.message, decl.span) from None

    def _param(self, name):
        if name in self.out.params:
            return self.out.params[name]
        decl = self.param_nodes[name]
        self.out.params[name] = None      # marks "being evaluated" to catch cycles
        value, t = self._const(decl.expr)
        self.out.params[name] = (value, t)
        return value, t

    def _kinds(self, by_type):
        tables = by_type.get(ast.KindsDecl, [])
        for table in tables:
            for column in table.columns:
                if column in PIECE_PROPERTIES:
                    raise error_at(GdlRuleError, f"'{column}' is a built-in piece property "
                                   "and cannot be a table column", table.span)
            for row in table.rows:
                self._declare(row.name, row)
                if len(row.values) != len(table.columns):
                    raise error_at(GdlRuleError, f"kind '{row.name}' has {len(row.values)} "
                                   f"values but the table has {len(table.columns)} columns "
                                   f"({', '.join(table.columns)})", row.span)
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

    def _var(self, decl):
        if decl.scope not in ("global", "seat", "piece"):
            raise error_at(GdlRuleError, f"a variable is 'var name', 'var seat.name' or "
                           f"'var piece.name', not 'var {decl.scope}.{decl.name}'", decl.span)
        table = self.out.vars[decl.scope]
        key = decl.name if decl.scope == "global" else f"{decl.scope}.{decl.name}"
        if decl.name in table or (decl.scope == "global" and decl.name in self.declared):
            first = table[decl.name][2] if decl.name in table else self.declared[decl.name]
            raise error_at(GdlRuleError, f"'{key}' is defined twice; the first definition "
                           f"is at line {first.span.line}", decl.span)
        if decl.scope == "global":
            self.declared[decl.name] = decl
        if decl.scope == "piece" and (decl.name in PIECE_PROPERTIES
                                      or decl.name in self.out.kind_columns):
            raise error_at(GdlRuleError, f"'piece.{decl.name}' clashes with a piece "
                           "property or table column of the same name", decl.span)
        value, t = self._const(decl.expr)
        table[decl.name] = (value, ANY if t == NONE else t, decl)

    def _visibility(self, decl):
        """`visible to COND`: `viewer` is the seat looking; for seat and piece variables
        `owner` is the owning seat and `it` the seat or piece the variable belongs to."""
        def check(scope):
            scope.bind("viewer", SEAT)
            if decl.scope != "global":
                scope.bind("owner", SEAT)
                scope.bind("it", PIECE if decl.scope == "piece" else SEAT)
            self._expect(decl.visible, BOOL, scope, "a visibility condition")
        self._unit(decl, (), check)

    def _check_params_unique(self, params, decl):
        seen = set()
        for name in params:
            if name in seen:
                raise error_at(GdlRuleError, f"parameter '{name}' is named twice", decl.span)
            seen.add(name)

    # ----- constants -------------------------------------------------------------------
    def _const(self, expr):
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
                if join(ta, tb) is None:
                    raise self._type_error(expr.right, f"cannot join {describe(ta)} with", tb)
                return a + b, join(ta, tb)
            if ta != INT or tb != INT:
                raise self._type_error(expr, f"'{expr.op}' needs numbers",
                                       ta if ta != INT else tb)
            if expr.op in "/%" and b == 0:
                raise error_at(GdlRuleError, "division by zero", expr.span)
            return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                    "%": a % b if b else 0}[expr.op], INT
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
            known = list(self.param_nodes) + list(self.out.symbols) + self.out.seats
            raise error_at(GdlRuleError, f"unknown name '{expr.name}' in a constant",
                           expr.span, self._suggest(expr.name, known))
        raise error_at(GdlRuleError, "this must be a constant: numbers, text, cells, "
                       "lists, parameters and + - * / %", expr.span)

    def _is_kind_name(self, name):
        return any(isinstance(i, ast.KindsDecl) and any(r.name == name for r in i.rows)
                   for i in self.program.items)

    def _cell(self, expr):
        if self.out.board is None:
            raise error_at(GdlRuleError, "a cell cannot be used before the board is known",
                           expr.span)
        cell = self.out.board.parse(expr.name)
        if cell is None:
            b = self.out.board
            raise error_at(GdlRuleError, f"@{expr.name} is not a cell of the {b.width}x"
                           f"{b.height} {b.kind} board", expr.span)
        return cell

    # ----- code units --------------------------------------------------------------------
    def _unit(self, node, params, body):
        counter = [0]
        scope = Scope(counter)
        scope.bind("me", SEAT)
        for name, t in params:
            scope.bind(name, t)
        body(scope)
        self.out.slots[id(node)] = counter[0]

    def _phase(self, phase):
        self._check_params_unique(phase.params, phase)
        types = self.phase_param_types.get(phase.name, (ANY,) * len(phase.params))
        params = list(zip(phase.params, types))

        def body(scope):
            self._block(phase.on_enter, scope.child())
            self._block(phase.on_reveal, scope.child())
            self._block(phase.on_resume, scope.child())
        self._unit(phase, params, body)
        names = set()
        for action in phase.actions:
            if action.name in names:
                raise error_at(GdlRuleError, f"action '{action.name}' is defined twice in "
                               f"phase '{phase.name}'", action.span)
            names.add(action.name)
            self._action(phase, action, params)

    def _action(self, phase, action, params):
        def body(scope):
            # Binders take the slots right after the phase parameters, whatever the
            # domains themselves bind (a comprehension's variable, say).
            first = scope.counter[0]
            scope.counter[0] += len(action.binders)
            for i, binder in enumerate(action.binders):
                t = self._expr(binder.domain, scope)
                if not is_list(t) and t != ANY:
                    raise self._type_error(binder.domain, f"'{binder.name} in ...' needs a "
                                           "list", t)
                scope.names[binder.name] = (first + i, element(t))
            if action.where is not None:
                self._expect(action.where, BOOL, scope, "a 'where' condition")
            self._block(action.body, scope.child())
        self._unit(action, params, body)

    def _trigger(self, trigger):
        def body(scope):
            if trigger.where is not None:
                self._expect(trigger.where, BOOL, scope, "a 'where' condition")
            self._block(trigger.body, scope.child())
        self._unit(trigger, [(trigger.piece, PIECE), (trigger.cell, CELL)], body)

    def _end_rule(self, rule):
        params = [("seat", SEAT)] if rule.kind != "draw" else []
        self._unit(rule, params, lambda scope: self._expect(rule.expr, BOOL, scope,
                                                            f"a '{rule.kind} when' condition"))

    def _check_callable(self, decl, arg_types):
        self.out.fn_params[decl.name] = tuple(arg_types)
        params = list(zip(decl.params, arg_types))
        if isinstance(decl, ast.FnDecl):
            result = []
            self._unit(decl, params, lambda scope: result.append(self._expr(decl.expr, scope)))
            self.out.types[id(decl)] = result[0]
        else:
            self._unit(decl, params, lambda scope: self._block(decl.body, scope))

    # ----- statements ------------------------------------------------------------------
    def _block(self, statements, scope):
        for statement in statements:
            getattr(self, "_stmt_" + type(statement).__name__)(statement, scope)

    def _stmt_Assign(self, stmt, scope):
        target_t = self._target(stmt.target, scope)
        value_t = self._expr(stmt.expr, scope)
        if stmt.op in ("+=", "-="):
            if not compatible(INT, target_t):
                raise self._type_error(stmt.target, f"'{stmt.op}' needs a number variable",
                                       target_t)
            if not compatible(INT, value_t):
                raise self._type_error(stmt.expr, f"'{stmt.op}' needs a number", value_t)
        elif not compatible(target_t, value_t):
            raise self._type_error(stmt.expr, f"'{'.'.join(stmt.target.names)}' holds "
                                   f"{describe(target_t)}", value_t)
        else:
            self._refine(stmt.target, target_t, value_t)
        if stmt.until is not None:
            self._expect(stmt.until, SEAT, scope, "'until turn of'")

    def _target(self, target, scope):
        first = target.names[0]
        if len(target.names) == 1:
            if first in scope.names:
                slot, t = scope.names[first]
                if first == "me":
                    raise error_at(GdlRuleError, "'me' cannot be assigned", target.span)
                self.out.names[id(target)] = ("local", slot)
                return t
            if first in self.out.vars["global"]:
                self.out.names[id(target)] = ("global", first)
                return self.out.vars["global"][first][1]
            raise error_at(GdlRuleError, f"'{first}' is not a variable that can be assigned",
                           target.span, self._suggest(first, list(scope.names) +
                                                      list(self.out.vars["global"])))
        obj = ast.Name(first, span=target.span)
        for name in target.names[1:-1]:
            obj = ast.Field(obj, name, span=target.span)
        self.out.keep.append(obj)
        obj_t = self._expr(obj, scope)
        field = target.names[-1]
        scope_name = {PIECE: "piece", SEAT: "seat"}.get(obj_t)
        if obj_t == ANY:
            scope_name = "piece" if field in self.out.vars["piece"] else "seat"
        if scope_name is None or field not in self.out.vars[scope_name]:
            if scope_name == "piece" and (field in PIECE_PROPERTIES
                                          or field in self.out.kind_columns):
                raise error_at(GdlRuleError, f"'{field}' of a piece cannot be assigned; use "
                               "move, place or remove", target.span)
            known = list(self.out.vars[scope_name]) if scope_name else []
            raise error_at(GdlRuleError, f"{describe(obj_t)} has no variable '{field}'",
                           target.span, self._suggest(field, known))
        self.out.names[id(target)] = (scope_name, obj, field)
        return self.out.vars[scope_name][field][1]

    def _refine(self, target, declared, assigned):
        """A variable declared with `none` or `[]` takes the type of its first assignment
        that says more (so its values print as cells, pieces, ...)."""
        resolved = self.out.names.get(id(target))
        if resolved is None or resolved[0] == "local":
            return
        scope = "global" if resolved[0] == "global" else resolved[0]
        name = resolved[1] if scope == "global" else resolved[2]
        better = join(declared, assigned)
        if better is not None and better != declared and declared in (ANY, list_of(ANY)):
            init, _, decl = self.out.vars[scope][name]
            self.out.vars[scope][name] = (init, better, decl)

    def _stmt_CallStmt(self, stmt, scope):
        decl = self.out.defs.get(stmt.name)
        if decl is None:
            hint = (f"'{stmt.name}' is a function; a statement calls a 'def'"
                    if stmt.name in self.out.fns or stmt.name in BUILTINS else None)
            raise error_at(GdlRuleError, f"unknown procedure '{stmt.name}'", stmt.span,
                           [f"hint: {hint}"] if hint else
                           self._suggest(stmt.name, self.out.defs))
        self._call_user(decl, stmt.args, scope, stmt)

    def _stmt_If(self, stmt, scope):
        self._expect(stmt.cond, BOOL, scope, "an 'if' condition")
        self._block(stmt.then, scope.child())
        self._block(stmt.otherwise, scope.child())

    def _stmt_For(self, stmt, scope):
        t = self._expr(stmt.domain, scope)
        if not is_list(t) and t != ANY:
            raise self._type_error(stmt.domain, "'for ... in' needs a list", t)
        inner = scope.child()
        inner.bind(stmt.name, element(t))
        if stmt.where is not None:
            self._expect(stmt.where, BOOL, inner, "a 'where' condition")
        self._block(stmt.body, inner)
        self.out.names[id(stmt)] = ("local", inner.names[stmt.name][0])

    def _stmt_Let(self, stmt, scope):
        t = self._expr(stmt.expr, scope)
        self.out.names[id(stmt)] = ("local", scope.bind(stmt.name, t))

    def _stmt_Move(self, stmt, scope):
        self._expect(stmt.piece, PIECE, scope, "'move'")
        self._expect(stmt.path, list_of(CELL), scope, "'along'")

    def _stmt_Place(self, stmt, scope):
        self._expect(stmt.piece, PIECE, scope, "'place'")
        self._expect(stmt.cell, CELL, scope, "'at'")

    def _stmt_Give(self, stmt, scope):
        self._expect(stmt.piece, PIECE, scope, "'give'")
        self._expect(stmt.seat, SEAT, scope, "'give ... to'")

    def _stmt_Remove(self, stmt, scope):
        self._expect(stmt.piece, PIECE, scope, "'remove'")

    def _stmt_Create(self, stmt, scope):
        if isinstance(stmt.kind, ast.Name) and stmt.kind.name not in self.out.kinds \
                and stmt.kind.name not in scope.names:
            raise error_at(GdlRuleError, f"unknown piece kind '{stmt.kind.name}'", stmt.span,
                           self._suggest(stmt.kind.name, self.out.kinds))
        self._expect(stmt.kind, KIND, scope, "'create'")
        self._expect(stmt.owner, SEAT, scope, "'create ... for'")
        self._expect(stmt.cell, CELL, scope, "'create ... at'")

    def _stmt_Goto(self, stmt, scope):
        phase = self.out.phases.get(stmt.phase)
        if phase is None:
            raise error_at(GdlRuleError, f"unknown phase '{stmt.phase}'", stmt.span,
                           self._suggest(stmt.phase, self.out.phases))
        if len(stmt.args) != len(phase.params):
            raise error_at(GdlRuleError, f"phase '{phase.name}' takes {len(phase.params)} "
                           f"argument(s), not {len(stmt.args)}", stmt.span)
        types = tuple(self._expr(arg, scope) for arg in stmt.args)
        known = self.phase_param_types.setdefault(phase.name, types)
        for i, (want, got, arg) in enumerate(zip(known, types, stmt.args)):
            if not compatible(want, got):
                raise self._type_error(arg, f"argument {i + 1} of phase '{phase.name}' was "
                                       f"{describe(want)} at its first use", got)
        self._expect(stmt.seat, SEAT, scope, "'for'")

    def _stmt_Return(self, stmt, scope):
        pass

    _stmt_Stop = _stmt_Draw = _stmt_Return

    def _stmt_Win(self, stmt, scope):
        self._expect(stmt.seat, SEAT, scope, "'win'")

    def _stmt_Lose(self, stmt, scope):
        self._expect(stmt.seat, SEAT, scope, "'lose'")

    def _stmt_Log(self, stmt, scope):
        self._expr(stmt.expr, scope)

    def _stmt_Shuffle(self, stmt, scope):
        t = self._target(stmt.target, scope)
        if not is_list(t):
            raise self._type_error(stmt.target, "'shuffle' needs a list variable", t)

    # ----- expressions -----------------------------------------------------------------
    def _expect(self, expr, want, scope, what):
        t = self._expr(expr, scope)
        if not compatible(want, t):
            raise self._type_error(expr, f"{what} needs {describe(want)}", t)
        return t

    def _expr(self, expr, scope):
        t = getattr(self, "_expr_" + type(expr).__name__)(expr, scope)
        self.out.types[id(expr)] = t
        return t

    def _expr_Number(self, e, scope):
        return INT

    def _expr_String(self, e, scope):
        return STR

    def _expr_Bool(self, e, scope):
        return BOOL

    def _expr_NoneLit(self, e, scope):
        return NONE

    def _expr_CellLit(self, e, scope):
        self.out.names[id(e)] = ("const", self._cell(e))
        return CELL

    def _expr_Name(self, e, scope):
        name = e.name
        if name in scope.names:
            slot, t = scope.names[name]
            self.out.names[id(e)] = ("local", slot)
            return t
        resolved = self._global_name(name)
        if resolved is None:
            known = (list(scope.names) + list(self.out.params) + list(self.out.terrain)
                     + list(self.out.symbols) + list(self.out.kinds) + self.out.seats
                     + list(self.out.vars["global"]) + list(_BUILTIN_VALUES))
            hint = []
            if name in BUILTINS or name in self.out.fns:
                hint = [f"hint: '{name}' is a function; call it as {name}(...)"]
            raise error_at(GdlRuleError, f"unknown name '{name}'", e.span,
                           hint or self._suggest(name, known))
        self.out.names[id(e)] = resolved[0]
        return resolved[1]

    def _global_name(self, name):
        if name in self.out.params:
            value, t = self.out.params[name]
            return ("const", value), t
        if name in self.out.terrain:
            return ("const", self.out.terrain[name][0]), list_of(CELL)
        if name in self.out.symbols:
            return ("const", name), SYMBOL
        if name in self.out.kinds:
            return ("const", name), KIND
        if name in self.out.seats:
            return ("const", self.out.seats.index(name)), SEAT
        if name in self.out.vars["global"]:
            return ("global", name), self.out.vars["global"][name][1]
        if name == "current":
            return ("current",), SEAT
        if name == "deciding":
            return ("deciding",), SEAT
        if name == "current_phase":
            return ("current_phase",), STR
        if name == "turn_number":
            return ("turn_number",), INT
        if name == "seats":
            return ("seats",), list_of(SEAT)
        return None

    def _expr_ListExpr(self, e, scope):
        t = ANY
        for item in e.items:
            item_t = self._expr(item, scope)
            joined = join(t, item_t)
            if joined is None:
                raise self._type_error(item, f"a list holds one type of value: "
                                       f"{describe(t)}", item_t)
            t = joined
        return list_of(t)

    def _expr_Comprehension(self, e, scope):
        t = self._expr(e.domain, scope)
        if not is_list(t) and t != ANY:
            raise self._type_error(e.domain, "'for ... in' needs a list", t)
        inner = scope.child()
        self.out.names[id(e)] = ("local", inner.bind(e.name, element(t)))
        if e.where is not None:
            self._expect(e.where, BOOL, inner, "a 'where' condition")
        return list_of(self._expr(e.expr, inner))

    def _expr_Quant(self, e, scope):
        t = self._expr(e.domain, scope)
        if not is_list(t) and t != ANY:
            raise self._type_error(e.domain, f"'{e.op}(... in ...)' needs a list", t)
        inner = scope.child()
        self.out.names[id(e)] = ("local", inner.bind(e.name, element(t)))
        if e.where is not None:
            self._expect(e.where, BOOL, inner, "a 'where' condition")
        if e.op == "all":
            if e.value is None:
                raise error_at(GdlRuleError, "all(x in xs: condition) needs ': condition'",
                               e.span)
            self._expect(e.value, BOOL, inner, "all(...: condition)")
            return BOOL
        if e.op in ("count", "exists"):
            if e.value is not None:
                raise error_at(GdlRuleError, f"{e.op}(...) takes no ': value' part; use "
                               "'where'", e.value.span)
            return QUANT_TYPES[e.op]
        if e.op == "first":
            if e.value is not None:
                return self._expr(e.value, inner)
            return element(t)
        if e.op == "sorted":
            if e.value is None:
                raise error_at(GdlRuleError, "sorted(x in xs: key) needs ': key'", e.span)
            self._expect(e.value, INT, inner, "sorted(...: key)")
            return t
        if e.value is None:
            raise error_at(GdlRuleError, f"{e.op}(x in xs: value) needs ': value'", e.span)
        self._expect(e.value, INT, inner, f"{e.op}(...: value)")
        return INT

    def _expr_Field(self, e, scope):
        obj_t = self._expr(e.obj, scope)
        name = e.name
        if obj_t == PIECE or obj_t == ANY:
            if name in PIECE_PROPERTIES:
                self.out.names[id(e)] = ("piece_prop", name)
                return PIECE_PROPERTIES[name]
            if name in self.out.vars["piece"]:
                self.out.names[id(e)] = ("piece_var", name)
                return self.out.vars["piece"][name][1]
            if name in self.out.kind_columns:
                self.out.names[id(e)] = ("piece_stat", name)
                return self.out.kind_columns[name]
            known = list(PIECE_PROPERTIES) + list(self.out.vars["piece"]) + list(
                self.out.kind_columns)
            if obj_t == ANY and name in self.out.vars["seat"]:      # an untyped parameter
                self.out.names[id(e)] = ("seat_var", name)
                return self.out.vars["seat"][name][1]
        elif obj_t == SEAT:
            if name in self.out.vars["seat"]:
                self.out.names[id(e)] = ("seat_var", name)
                return self.out.vars["seat"][name][1]
            known = list(self.out.vars["seat"])
        elif obj_t == KIND:
            if name in self.out.kind_columns:
                self.out.names[id(e)] = ("kind_stat", name)
                return self.out.kind_columns[name]
            known = list(self.out.kind_columns)
        else:
            raise error_at(GdlRuleError, f"{describe(obj_t)} has no fields (asked for "
                           f"'.{name}')", e.span)
        raise error_at(GdlRuleError, f"{describe(obj_t)} has no field '{name}'", e.span,
                       self._suggest(name, known))

    def _expr_Call(self, e, scope):
        if e.name in self.out.fns:
            self.out.names[id(e)] = ("fn", e.name)
            return self._call_user(self.out.fns[e.name], e.args, scope, e)
        builtin = BUILTINS.get(e.name)
        if builtin is None:
            hint = (f"hint: '{e.name}' is a procedure (def); call it as a statement"
                    if e.name in self.out.defs else None)
            raise error_at(GdlRuleError, f"unknown function '{e.name}'", e.span,
                           [hint] if hint else self._suggest(e.name, list(BUILTINS) +
                                                             list(self.out.fns)))
        if len(e.args) not in builtin.arities:
            counts = " or ".join(map(str, builtin.arities))
            raise error_at(GdlRuleError, f"{e.name}() takes {counts} argument(s), not "
                           f"{len(e.args)}", e.span)
        arg_types = [self._expr(arg, scope) for arg in e.args]
        result = builtin.typer(arg_types)
        if isinstance(result, str) and result not in (INT, BOOL, STR, SYMBOL, CELL, PIECE,
                                                     SEAT, KIND, NONE, ANY):
            raise error_at(GdlRuleError, f"{e.name}(): {result}", e.span)
        self.out.names[id(e)] = ("builtin", e.name)
        return result

    def _call_user(self, decl, args, scope, at):
        if len(args) != len(decl.params):
            kind = "function" if isinstance(decl, ast.FnDecl) else "procedure"
            raise error_at(GdlRuleError, f"{kind} '{decl.name}' takes {len(decl.params)} "
                           f"argument(s), not {len(args)}", at.span)
        arg_types = tuple(self._expr(arg, scope) for arg in args)
        known = self.out.fn_params.get(decl.name)
        if known is None:
            self._check_callable(decl, arg_types)
        else:
            for i, (want, got, arg) in enumerate(zip(known, arg_types, args)):
                if not compatible(want, got):
                    raise self._type_error(arg, f"argument {i + 1} of '{decl.name}' was "
                                           f"{describe(want)} at its first use", got)
        return self.out.types.get(id(decl), ANY)

    def _expr_Binary(self, e, scope):
        a, b = self._expr(e.left, scope), self._expr(e.right, scope)
        if e.op == "+":
            if compatible(STR, a) and compatible(STR, b) and STR in (a, b):
                return STR
            if is_list(a) and is_list(b):
                joined = join(a, b)
                if joined is None:
                    raise self._type_error(e.right, f"cannot join {describe(a)} with", b)
                return joined
        for side, t in ((e.left, a), (e.right, b)):
            if not compatible(INT, t):
                raise self._type_error(side, f"'{e.op}' needs numbers", t)
        return INT

    def _expr_Neg(self, e, scope):
        self._expect(e.operand, INT, scope, "'-'")
        return INT

    def _expr_Compare(self, e, scope):
        a, b = self._expr(e.left, scope), self._expr(e.right, scope)
        if e.op in ("==", "!="):
            if join(a, b) is None:
                raise self._type_error(e.right, f"cannot compare {describe(a)} with", b)
        else:
            for side, t in ((e.left, a), (e.right, b)):
                if not compatible(INT, t):
                    raise self._type_error(side, f"'{e.op}' compares numbers", t)
        return BOOL

    def _expr_In(self, e, scope):
        item = self._expr(e.item, scope)
        collection = self._expr(e.collection, scope)
        if not is_list(collection) and collection != ANY:
            raise self._type_error(e.collection, "'in' needs a list on its right", collection)
        if join(item, element(collection)) is None:
            raise self._type_error(e.item, f"the list holds {describe(element(collection))}",
                                   item)
        return BOOL

    def _expr_And(self, e, scope):
        self._expect(e.left, BOOL, scope, "'and'")
        self._expect(e.right, BOOL, scope, "'and'")
        return BOOL

    _expr_Or = _expr_And

    def _expr_Not(self, e, scope):
        self._expect(e.operand, BOOL, scope, "'not'")
        return BOOL

    def _expr_CondExpr(self, e, scope):
        self._expect(e.cond, BOOL, scope, "'if ... then'")
        a, b = self._expr(e.then, scope), self._expr(e.otherwise, scope)
        joined = join(a, b)
        if joined is None:
            raise self._type_error(e.otherwise, f"both branches must have one type; the "
                                   f"'then' branch is {describe(a)}", b)
        return joined

    # ----- 'call' comes last --------------------------------------------------------------
    def _calls_last(self):
        """A `call` starts a phase whose decisions come after the current action; any
        statement after it would run first, which is never what a rule means. So a
        `call` (or a procedure that may call) must be the last thing its code does."""
        calling = set()
        changed = True
        while changed:
            changed = False
            for name, decl in self.out.defs.items():
                if name not in calling and self._may_call(decl.body, calling):
                    calling.add(name)
                    changed = True
        bodies = [self.out.setup] + [d.body for d in self.out.defs.values()]
        for phase in self.out.phases.values():
            bodies += [phase.on_enter, phase.on_reveal, phase.on_resume]
            bodies += [a.body for a in phase.actions]
        bodies += [t.body for t in self.out.triggers] + [h.body for h in self.out.outs]
        for body in bodies:
            self._tail(body, calling)

    def _may_call(self, statements, calling):
        for node in _walk(statements):
            if (isinstance(node, ast.Goto) and node.push) or (
                    isinstance(node, ast.CallStmt) and node.name in calling):
                return True
        return False

    def _tail(self, statements, calling):
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
                               f"{stmt.span.line} is answered: a 'call' must come last; move "
                               "this into the called phase or an 'on resume' block",
                               nxt.span)
            if isinstance(stmt, ast.If):
                self._tail(stmt.then, calling)
                self._tail(stmt.otherwise, calling)

    # ----- reachability ----------------------------------------------------------------
    def _reachability(self):
        units = {"setup": self.out.setup}
        for name, decl in self.out.defs.items():
            units["def " + name] = decl.body
        for name, phase in self.out.phases.items():
            units["phase " + name] = phase.on_enter + phase.on_reveal + phase.on_resume + tuple(
                s for a in phase.actions for s in a.body)
        for i, trigger in enumerate(self.out.triggers):
            units[f"trigger {i}"] = trigger.body
        for i, hook in enumerate(self.out.outs):
            units[f"trigger out {i}"] = hook.body
        edges = {unit: set() for unit in units}
        for unit, body in units.items():
            for node in _walk(body):
                if isinstance(node, ast.Goto):
                    edges[unit].add("phase " + node.phase)
                elif isinstance(node, ast.CallStmt):
                    edges[unit].add("def " + node.name)
        seen = set()
        todo = ["setup"] + [f"trigger {i}" for i in range(len(self.out.triggers))] + [
            f"trigger out {i}" for i in range(len(self.out.outs))]
        while todo:
            unit = todo.pop()
            if unit in seen:
                continue
            seen.add(unit)
            todo.extend(edges.get(unit, ()))
        if not any(unit.startswith("phase ") for unit in seen) and self.out.end_rules == []:
            raise error_at(GdlRuleError, "setup never enters a phase: end it with "
                           "'goto PHASE for SEAT'", self.out.setup_node.span)
        for name, phase in self.out.phases.items():
            inherited = phase.span is not None and phase.span.file != self._file()
            if "phase " + name not in seen and not inherited:   # a variant may drop phases
                raise error_at(GdlRuleError, f"phase '{name}' can never be reached: no "
                               "'goto' or 'call' from setup leads to it", phase.span)

    # ----- messages ----------------------------------------------------------------------
    def _type_error(self, node, message, got):
        return error_at(GdlRuleError, f"type mismatch: {message}, but this is "
                        f"{describe(got)}", node.span)

    def _suggest(self, name, known):
        match = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
        return [f"did you mean '{match[0]}'?"] if match else []


def _walk(statements):
    """Every statement in a block, nested ones included."""
    for statement in statements:
        yield statement
        if isinstance(statement, ast.If):
            yield from _walk(statement.then)
            yield from _walk(statement.otherwise)
        elif isinstance(statement, ast.For):
            yield from _walk(statement.body)
