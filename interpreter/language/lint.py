"""What a checked program says that is only likely wrong, or wrong only when it runs.

    idle_actions(program)   -> [(phase, action)] actions whose playing changes nothing
    warnings(program)       -> [Warning] for `gdl check --strict` and the language server

Three kinds of warning. An action with an empty body, outside a simultaneous phase, leaves
the position as it was: the same seat is asked again, with the same choices (unless
something else moves with each decision: a rule that reads `decision_number` or `passes`,
or an end rule that draws randomness). When such actions are all a seat may do, the game
is stuck, which the engine reports at run time at the phase; when the seat has other
choices, the action is only a choice that changes nothing, so this is a warning.

Another is a place where a built-in that faults on `none` (`step`, `ray`, `row`, ...) is
given a value that can be none (the result of `step`, `first`, `last`, `none` itself, a
local or a fn that can give one) with no test of it in sight: `c != none and ...`, `if c !=
none`, a `where c != none`, or a call of a fn whose body starts `c != none and ...` (the
value passed for `c` is then tested). The types do not say whether a value can be none, so
this is a warning, not an error: a value can be known not to be none for reasons of the game.

And an action's `where` part that is false whatever the position, as written (`where false`,
`where not true`, `where 1 > 2`): the action is never legal. One false only through a
param's value (`where OPTIONAL_RULE`, a variant turning it on) is not flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from . import program as ir
from .builtins import BUILTINS
from .errors import GdlWarning, error_at
from .tree import children as _children

# Built-ins that fault when the argument at one of these positions is none (a test in
# tests/language/test_lint.py runs each with none).
NONE_FAULTS: dict[str, tuple[int, ...]] = {
    "step": (0, 1), "ray": (0, 1), "distance": (0, 1), "line": (0, 1), "neighbors": (0,),
    "orthogonal": (0,), "row": (0,), "column": (0,), "exits": (0,), "turn": (0,),
}
_MAYBE_NONE_BUILTINS = frozenset({"step", "last", "cell_at"})


class Warning(NamedTuple):
    message: str
    node: ir.Node           # its span is the place

    def as_error(self) -> GdlWarning:
        """The warning as `gdl check --strict` prints it (`GdlWarning.render`)."""
        return error_at(GdlWarning, self.message, self.node.span)


def idle_actions(program: ir.Program) -> list[tuple[ir.Phase, ir.Action]]:
    """Actions with an empty body outside a simultaneous phase, unless something else
    changes with each decision (see the module docstring)."""
    found = [(phase, action) for phase in program.phases.values()
             if phase.mode != "simultaneous" for action in phase.actions if not action.body]
    if not found or _counts_decisions(program):
        return []
    return found


def _counts_decisions(program: ir.Program) -> bool:
    """Does a rule read `decision_number` or `passes`, or an end rule draw randomness?"""
    for node in _all_nodes(program):
        if isinstance(node, ir.StateValue) and node.what in ("decision_number", "passes"):
            return True
    seen: set[str] = set()
    todo: list[ir.Node] = [rule.expr for rule in program.end_rules]
    while todo:
        for node in ir.walk(todo.pop()):
            if isinstance(node, ir.CallBuiltin) and BUILTINS[node.name].random:
                return True
            if isinstance(node, ir.CallFn) and node.name not in seen:
                seen.add(node.name)
                todo.append(program.fns[node.name].body)
    return False


def _all_nodes(program: ir.Program) -> Iterator[ir.Node]:
    roots: list[ir.Node] = [*program.fns.values(), *program.defs.values(),
                            *program.phases.values(), *program.end_rules, *program.triggers,
                            *program.outs, *program.concedes, *program.invariants]
    roots += [s for s in program.setup]
    if program.payoff is not None:
        roots.append(program.payoff)
    for root in roots:
        yield from ir.walk(root)


# ----- values that can be none ---------------------------------------------------------------

def warnings(program: ir.Program) -> list[Warning]:
    """The warnings of a checked program, in source order."""
    return _Linter(program).run()


def _key(node: ir.Expr) -> str:
    """Two expressions with one key give the same value at one place (locals by slot)."""
    if isinstance(node, ir.Local):
        return f"v{node.slot}"
    if isinstance(node, ir.Const):
        return repr(node.value)
    if isinstance(node, ir.CallBuiltin):
        return f"{node.name}({','.join(_key(a) for a in node.args)})"
    if isinstance(node, ir.PieceField):
        return f"{_key(node.obj)}.{node.name}"
    if isinstance(node, ir.Global):
        return f"G.{node.name}"
    return f"#{id(node)}"


class _Linter:
    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self.found: list[Warning] = []
        self.fn_maybe: dict[str, bool] = {}         # fn -> can it give none?
        self.guards = {name: _tested_params(fn) for name, fn in program.fns.items()}
        self.lets: dict[int, bool] = {}             # local slot -> can it hold none? (per unit)

    def run(self) -> list[Warning]:
        program = self.program
        for phase, action in idle_actions(program):
            self.found.append(Warning(
                f"action '{action.name}' does nothing: its body is empty, so playing it "
                f"leaves the position as it was and the same seat is asked again (phase "
                f"'{phase.name}')", action))
        for phase in program.phases.values():
            for action in phase.actions:
                for part in action.where_parts:
                    if _never(part):
                        self.found.append(Warning(
                            f"action '{action.name}' is never legal: its condition "
                            f"'{part.text}' is always false (phase '{phase.name}')", part))
        for fn in program.fns.values():
            self.unit()
            self.expr(fn.body, frozenset())
        for d in program.defs.values():
            self.unit()
            self.block(d.body, frozenset())
        self.unit()
        self.block(program.setup, frozenset())
        for phase in program.phases.values():
            for body in (phase.on_enter, phase.on_reveal, phase.on_resume,
                         phase.on_no_action or ()):
                self.unit()
                self.block(body, frozenset())
            for action in phase.actions:
                self.unit()
                known: frozenset[str] = frozenset()
                for binder in action.binders:
                    self.expr(binder.domain, known)
                for part in action.where_parts:
                    self.expr(part.expr, known)
                    known = known | _tested(part.expr, self.guards)
                self.block(action.body, known)
        for rule in program.end_rules:
            self.unit()
            self.expr(rule.expr, frozenset())
        hooks: list[ir.Trigger | ir.OutHook] = [*program.triggers, *program.outs,
                                                *program.concedes]
        for hook in hooks:
            self.unit()
            if isinstance(hook, ir.Trigger) and hook.where is not None:
                self.expr(hook.where, frozenset())
            self.block(hook.body, frozenset())
        unique = {(w.message, id(w.node)): w for w in self.found}
        return sorted(unique.values(), key=lambda w: (
            (w.node.span.line, w.node.span.column) if w.node.span is not None else (0, 0)))

    def unit(self) -> None:
        self.lets = {}

    # statements ------------------------------------------------------------------------
    def block(self, body: tuple[ir.Stmt, ...], known: frozenset[str]) -> None:
        for stmt in body:
            known = self.stmt(stmt, known)

    def stmt(self, stmt: ir.Stmt, known: frozenset[str]) -> frozenset[str]:
        """Check one statement; what is known not to be none after it."""
        if isinstance(stmt, ir.If):
            self.expr(stmt.cond, known)
            self.block(stmt.then, known | _tested(stmt.cond, self.guards))
            self.block(stmt.otherwise, known | _tested(ir.Not(stmt.cond, type=stmt.cond.type),
                                                       self.guards))
            if _leaves(stmt.then) and not stmt.otherwise:    # `if c == none { leave }`
                return known | _tested(ir.Not(stmt.cond, type=stmt.cond.type), self.guards)
            return known
        if isinstance(stmt, ir.For):
            self.expr(stmt.domain, known)
            inner = known
            if stmt.where is not None:
                self.expr(stmt.where, known)
                inner = known | _tested(stmt.where, self.guards)
            self.block(stmt.body, inner)
            return known
        if isinstance(stmt, ir.Let):
            self.expr(stmt.expr, known)
            self.lets[stmt.slot] = self.maybe_none(stmt.expr, known)
            return known - {f"v{stmt.slot}"}
        for child in _children(stmt):
            if isinstance(child, ir.Expr):
                self.expr(child, known)
        if isinstance(stmt, ir.Assign) and isinstance(stmt.place, ir.LocalPlace):
            self.lets[stmt.place.slot] = self.maybe_none(stmt.expr, known)
            return known - {f"v{stmt.place.slot}"}
        return known

    # expressions -----------------------------------------------------------------------
    def expr(self, node: ir.Expr, known: frozenset[str]) -> None:
        if isinstance(node, ir.And):
            self.expr(node.left, known)
            self.expr(node.right, known | _tested(node.left, self.guards))
            return
        if isinstance(node, ir.Or):
            self.expr(node.left, known)
            self.expr(node.right, known | _tested(ir.Not(node.left, type=node.left.type),
                                                  self.guards))
            return
        if isinstance(node, ir.Cond):
            self.expr(node.cond, known)
            self.expr(node.then, known | _tested(node.cond, self.guards))
            self.expr(node.otherwise, known | _tested(ir.Not(node.cond, type=node.cond.type),
                                                      self.guards))
            return
        if isinstance(node, (ir.Quant, ir.Comprehension)):
            self.expr(node.domain, known)
            inner = known - {f"v{node.slot}"}
            if node.where is not None:
                self.expr(node.where, inner)
                inner = inner | _tested(node.where, self.guards)
            value = node.value if isinstance(node, ir.Quant) else node.expr
            if value is not None:
                self.expr(value, inner)
            return
        if isinstance(node, ir.FnBlock):
            self.block(node.body, known)
            return
        if isinstance(node, ir.CallBuiltin) and node.name in NONE_FAULTS:
            for at in NONE_FAULTS[node.name]:
                if at < len(node.args) and _key(node.args[at]) not in known \
                        and self.maybe_none(node.args[at], known):
                    self.found.append(Warning(
                        f"{node.name}() faults when its argument is none, and this value "
                        "can be none here (test it first: '... != none and ...')",
                        node.args[at]))
        for child in _children(node):
            if isinstance(child, ir.Expr):
                self.expr(child, known)

    def maybe_none(self, node: ir.Expr, known: frozenset[str]) -> bool:
        """Can `node` give none where `known` holds?"""
        if _key(node) in known:
            return False
        if isinstance(node, ir.Const):
            return node.value is None
        if isinstance(node, ir.Local):
            return self.lets.get(node.slot, False)
        if isinstance(node, ir.CallBuiltin):
            return node.name in _MAYBE_NONE_BUILTINS
        if isinstance(node, ir.Quant):
            return node.op == "first"
        if isinstance(node, ir.Cond):
            return self.maybe_none(node.then, known) or self.maybe_none(node.otherwise, known)
        if isinstance(node, ir.CallFn):
            return self.fn_gives_none(node.name)
        return False

    def fn_gives_none(self, name: str) -> bool:
        if name not in self.fn_maybe:
            self.fn_maybe[name] = False         # a fn that calls itself: assume not
            body = self.program.fns[name].body
            saved, self.lets = self.lets, {}
            if isinstance(body, ir.FnBlock):
                gives = any(self.maybe_none(r.expr, frozenset())
                            for r in ir.walk(body) if isinstance(r, ir.Result))
            else:
                gives = self.maybe_none(body, frozenset())
            self.lets = saved
            self.fn_maybe[name] = gives
        return self.fn_maybe[name]


# ----- conditions that are always false ------------------------------------------------------

_CONSTANT_WORDS = frozenset({"true", "false", "not", "and", "or"})
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _never(part: ir.WherePart) -> bool:
    """Is a `where` part false whatever the position, as written: `false`, `not true`, `1 >
    2`? One false only through a param's value (an optional rule that a variant turns on
    with `param RULE = true`) names the param, and is no warning."""
    if not set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", part.text)) <= _CONSTANT_WORDS:
        return False
    return _truth(part.expr) is False


def _truth(node: ir.Expr) -> bool | None:
    """The value of a condition made of constants only (None: not known before play)."""
    if isinstance(node, ir.Const):
        return node.value if isinstance(node.value, bool) else None
    if isinstance(node, ir.Not):
        operand = _truth(node.operand)
        return None if operand is None else not operand
    if isinstance(node, (ir.And, ir.Or)):
        left, right = _truth(node.left), _truth(node.right)
        stops = isinstance(node, ir.Or)     # the value that decides: true for or
        if stops in (left, right):
            return stops
        return None if left is None or right is None else not stops
    if isinstance(node, ir.Compare) and node.op in _COMPARE and isinstance(
            node.left, ir.Const) and isinstance(node.right, ir.Const):
        a, b = node.left.value, node.right.value
        if type(a) is type(b) and isinstance(a, (int, str)):
            return bool(_COMPARE[node.op](a, b))
    return None


def _tested(cond: ir.Expr, guards: dict[str, set[int]]) -> frozenset[str]:
    """The keys of the values `cond` being true shows are not none."""
    if isinstance(cond, ir.And):
        return _tested(cond.left, guards) | _tested(cond.right, guards)
    if isinstance(cond, ir.Not) and isinstance(cond.operand, ir.Or):
        inner = cond.operand
        return (_tested(ir.Not(inner.left, type=inner.left.type), guards)
                | _tested(ir.Not(inner.right, type=inner.right.type), guards))
    if isinstance(cond, ir.Not) and isinstance(cond.operand, ir.Compare):
        flipped = {"==": "!=", "!=": "=="}.get(cond.operand.op)
        if flipped is None:
            return frozenset()
        cond = ir.Compare(flipped, cond.operand.left, cond.operand.right, cond.operand.lists,
                          type=cond.type)
    if isinstance(cond, ir.Compare) and cond.op == "!=":
        if isinstance(cond.right, ir.Const) and cond.right.value is None:
            return frozenset({_key(cond.left)})
        if isinstance(cond.left, ir.Const) and cond.left.value is None:
            return frozenset({_key(cond.right)})
    if isinstance(cond, ir.CallFn) and guards.get(cond.name):
        return frozenset(_key(cond.args[i]) for i in guards[cond.name] if i < len(cond.args))
    return frozenset()


def _tested_params(fn: ir.Fn) -> set[int]:
    """The parameters a fn's body tests against none before anything else: the fn being
    true shows the values passed for them are not none."""
    tested = _tested(fn.body, {}) if not isinstance(fn.body, ir.FnBlock) else frozenset()
    return {i for i in range(len(fn.params)) if f"v{i + 1}" in tested}


def _leaves(body: tuple[ir.Stmt, ...]) -> bool:
    return bool(body) and isinstance(body[-1], (ir.Leave, ir.Result, ir.Return, ir.Stop))
