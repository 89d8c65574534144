"""How large a number an expression can be, known before play (docs/language.md, "Limits").

A number a rule keeps in a variable, writes as a constant or gets by multiplying two
computed numbers is at most limits.MAX_NUMBER either way; every other number it computes
(a sum, a difference, a multiple of a constant, each partial sum of `sum` and `total`) at
most limits.MAX_SUM. The native backend checks each of these in C, where a check costs
nothing; the Python backend checks a sum only where `Magnitudes.of` cannot rule out that it
passes MAX_SUM, so both backends fault at the same rule with the same message while the
common `x + 1` costs no more than before.

`of(e)` is an upper bound of `|e|` for a number expression `e`, and of each number in it
for a list (of lists, ...): exact for constants, the limit for kept values, the sum of the
operands' bounds for `+` and `-`, and WIDE (any number a rule computes) where nothing
smaller is known. It is worked out from the rules alone:

- a local by every place that binds its slot in its rule root (a phase, fn, def, ...);
- a parameter of a fn, def or phase by every argument a call gives it, and the numbers in
  a list variable by its first value and every list assigned to it, until that settles
  (`_settled`).

An expression from outside the rules (a scenario's `expect` line) may call a fn with an
argument no call of the rules gives it (`calls_beyond`): the bounds of that fn's body do not
hold for it, and codegen.generate_expression then writes the expression, and a copy of each
fn it reaches, with `Unbounded`: every sum checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping

from ..language import program as ir
from ..language.limits import MAX_DICE, MAX_NUMBER, MAX_SUM
from ..language.types import is_list

__all__ = ["MEASURE", "Magnitudes", "Unbounded", "WIDE"]

Bounds = Mapping[int, int] | Callable[[int], int] | None   # a bound of each local slot
WIDE = MAX_SUM          # any number a rule computes: a sum past it has faulted already
_ROUNDS = 8             # rounds of `_settle` before the list variables still growing are WIDE

# Built-ins whose number is a measure of the board, a list, a text or dice, and `count`: at
# most MEASURE (no machine holds a list or a board of 2^40 cells: 8 TB of references).
MEASURE = 1 << 40
_MEASURES = frozenset({"len", "distance", "row", "column", "edge_distance", "successes"})
# Built-ins whose list holds numbers of their first argument (a list) only.
_SAME = frozenset({"nth", "last", "take", "sorted", "reversed", "unique", "shuffled"})

_VarKey = tuple[str, str]       # (scope, name) of a variable


class Magnitudes:
    """Bounds of number expressions of one program (see the module's docstring)."""

    def __init__(self, prog: ir.Program) -> None:
        self.prog = prog
        self._fns: dict[str, int] = {}
        self._busy: set[object] = set()
        self._owners: dict[int, ir.Node] = {}     # id of an action's node -> its phase
        for phase in prog.phases.values():
            for action in phase.actions:
                for n in (action, *action.binders, *action.where_parts):
                    self._owners[id(n)] = phase
        self._table: dict[tuple[object, ...], int] | None = None    # see `_settled`
        self._done = False      # `_table` settled
        self._slots: dict[tuple[int, ...], dict[int, int]] = {}     # roots -> `slots`

    # ----- the program's roots, variables and parameters --------------------------------
    def _roots(self) -> Iterator[ir.Node]:
        """Every node rule code hangs from (a call or assignment anywhere below one is seen)."""
        prog = self.prog
        yield from prog.fns.values()
        yield from prog.defs.values()
        yield from prog.phases.values()
        yield from prog.setup
        yield from prog.triggers
        yield from prog.outs
        yield from prog.concedes
        yield from prog.end_rules
        for lets in prog.end_lets:
            yield from lets
        yield from prog.shows.values()
        yield from prog.stats.values()
        yield from prog.invariants
        yield from prog.each_rules
        yield from (sight.rule for sight in prog.sights)
        yield from (z.visible for z in prog.zones.values() if z.visible is not None)
        for table in prog.vars.values():
            yield from (v.visible for v in table.values() if v.visible is not None)
        if prog.hide is not None:
            yield prog.hide
        if prog.payoff is not None:
            yield prog.payoff

    def _var(self, key: _VarKey) -> int:
        """A bound of the numbers in list variable `key`."""
        return self._settled().get(("var",) + key, WIDE)

    def _param(self, owner: ir.Node, slot: int) -> int:
        """A bound of parameter `slot` (1..n) of a fn, def or phase: the largest argument
        any call gives it."""
        kind = "fn" if isinstance(owner, ir.Fn) else "def" if isinstance(owner, ir.Def) \
            else "phase"
        return self._settled().get((kind, getattr(owner, "name", ""), slot), WIDE)

    def _settled(self) -> dict[tuple[object, ...], int]:
        """The bounds of list variables (their numbers) and of parameters, raised round
        after round to what each assignment of a list and each call's argument can give
        (from the bounds of the round before) until none rises: a list variable starts at
        its first value, a parameter at 0 (WIDE when nothing calls it). From round
        `_ROUNDS` on, a bound that still rises is WIDE at once (so this ends)."""
        if self._table is not None:
            return self._table
        prog = self.prog
        table: dict[tuple[object, ...], int] = {}
        for scope, variables in prog.vars.items():
            for name, var in variables.items():
                if is_list(var.type):
                    table[("var", scope, name)] = MAX_NUMBER if var.column is not None \
                        else _constant(var.init)
        roots = list(self._roots())
        sites: list[tuple[int, tuple[object, ...], ir.Expr]] = []   # (root, key, value)
        for i, root in enumerate(roots):
            for n in ir.walk(root):
                if isinstance(n, ir.Assign) and is_list(n.expr.type):
                    key = _place_key(n.place)
                    if key is not None:
                        sites.append((i, ("var",) + key, n.expr))
                callee = (("fn", n.name) if isinstance(n, ir.CallFn) else
                          ("def", n.name) if isinstance(n, ir.CallDef) else
                          ("phase", n.phase) if isinstance(n, (ir.Goto, ir.CallEach)) else None)
                if callee is not None:
                    args = n.args   # type: ignore[attr-defined]  # (every callee has)
                    for k, arg in enumerate(args):
                        sites.append((i, callee + (k + 1,), arg))
                        table[callee + (k + 1,)] = 0
        self._table = table
        for round_ in itertools.count():
            self._fns.clear()       # (a fn's bound reads parameters: again each round)
            local: dict[int, dict[int, int]] = {}
            risen = False
            for i, site, value in sites:
                if i not in local:
                    local[i] = self.slots([roots[i]])
                found = self.of(value, local[i])
                if found > table[site]:
                    table[site], risen = found if round_ < _ROUNDS else WIDE, True
            if not risen:
                self._done = True
                return table
        raise AssertionError("unreachable")     # (each bound is widened at most once)

    def slots(self, roots: Iterable[ir.Node]) -> dict[int, int]:
        """slot -> bound of every local bound in `roots` (one rule root's nodes): the
        largest of the values any binding of the slot there can give it; a parameter of
        the fn, def or phase a root is (or belongs to) by its calls' arguments."""
        roots = list(roots)
        key = tuple(id(root) for root in roots)
        if key in self._slots:
            return self._slots[key]
        sites: dict[int, list[tuple[str, ir.Expr]]] = {}
        owner: ir.Node | None = None
        for root in roots:
            if isinstance(root, (ir.Fn, ir.Def, ir.Phase)):
                owner = root
            elif id(root) in self._owners:
                owner = self._owners[id(root)]
            for n in ir.walk(root):
                if isinstance(n, ir.Let):
                    sites.setdefault(n.slot, []).append(("value", n.expr))
                elif isinstance(n, (ir.For, ir.Quant, ir.Comprehension, ir.Binder)):
                    sites.setdefault(n.slot, []).append(("element", n.domain))
                    if isinstance(n, ir.Quant) and n.op == "connected" and n.value is not None:
                        # (its variable also takes each value its `: next` gives)
                        sites[n.slot].append(("value", n.value))
                elif isinstance(n, ir.Assign) and isinstance(n.place, ir.LocalPlace):
                    kept = n.op != "=" or isinstance(n.expr, (ir.Binary, ir.Concat))
                    sites.setdefault(n.place.slot, []).append(
                        ("kept" if kept and not is_list(n.expr.type) else "value", n.expr))
        bounds: dict[int, int] = {}
        pending = set(sites)
        params = len(getattr(owner, "params", ())) if owner is not None else 0

        def given(slot: int) -> int | None:
            """The bound a parameter slot has from its calls' arguments (None: no parameter)."""
            if owner is None or not 1 <= slot <= params:
                return None
            return self._param(owner, slot)

        def bound(slot: int) -> int:
            if slot in bounds:
                return bounds[slot]
            if slot not in pending:     # a parameter, or a slot bound in a cycle
                found = given(slot) if slot not in sites else None
                if found is not None:
                    bounds[slot] = found
                return WIDE if found is None else found
            pending.discard(slot)
            # a parameter assigned in its body: its calls' arguments and its assignments
            found = given(slot) or 0
            for how, node in sites[slot]:     # (an element's numbers are its list's)
                found = max(found, MAX_NUMBER if how == "kept" else self.of(node, bound))
            bounds[slot] = min(found, WIDE)
            return bounds[slot]

        for slot in [*sites, *range(1, params + 1)]:
            bound(slot)
        if self._done:      # (while the bounds settle, a root's change round by round)
            self._slots[key] = bounds
        return bounds

    def calls_beyond(self, expr: ir.Expr) -> bool:
        """Does `expr`, an expression that is not part of the rules (a scenario's), call a
        fn with an argument that may be larger than any the rules' own calls give it?"""
        local = self.slots([expr])
        return any(self.of(arg, local) > self._param(self.prog.fns[n.name], k + 1)
                   for n in ir.walk(expr) if isinstance(n, ir.CallFn)
                   for k, arg in enumerate(n.args))

    # ----- bounds -----------------------------------------------------------------------
    def of(self, e: ir.Expr, local: Bounds = None,
           inlined: Mapping[int, ir.Expr] | None = None) -> int:
        """An upper bound of `|e|` (of each number in a list, at any depth); `local` bounds
        the locals (slot -> bound, a dict or a function; None: any local is WIDE); in an
        inlined fn, `inlined` maps its parameters to the caller's arguments, and its own
        locals are WIDE."""
        def slot_bound(slot: int) -> int:
            if inlined is not None:
                return self.of(inlined[slot], local) if slot in inlined else WIDE
            if local is None:
                return WIDE
            if callable(local):
                return local(slot)
            return local.get(slot, WIDE)

        def of(x: ir.Expr) -> int:
            return min(self._of(x, of, slot_bound), WIDE)
        return of(e)

    def passes(self, e: ir.Binary, local: Bounds = None,
               inlined: Mapping[int, ir.Expr] | None = None) -> bool:
        """Could `e` (`+`, `-`, or `*` by a constant) pass limits.MAX_SUM? (It must then
        be checked.)"""
        a, b = self.of(e.left, local, inlined), self.of(e.right, local, inlined)
        return (a * b if e.op == "*" else a + b) > MAX_SUM

    def _of(self, e: ir.Expr, of: Callable[[ir.Expr], int],
            slot_bound: Callable[[int], int]) -> int:
        if isinstance(e, ir.Const):
            return _constant(e.value)
        if isinstance(e, ir.Local):
            return slot_bound(e.slot)
        if isinstance(e, (ir.Global, ir.SeatVar, ir.PieceField)) and is_list(e.type):
            return self._var(("global" if isinstance(e, ir.Global) else "seat"
                              if isinstance(e, ir.SeatVar) else "piece", e.name))
        if isinstance(e, (ir.PieceStat, ir.KindStat)):
            return self._column(e.name)
        if isinstance(e, (ir.Global, ir.SeatVar, ir.PieceField, ir.StateValue)):
            return MAX_NUMBER       # kept values, counters
        if isinstance(e, ir.ListOf):
            return max((of(item) for item in e.items), default=0)
        if isinstance(e, ir.Binary):
            a, b = of(e.left), of(e.right)
            if is_list(e.type):
                return max(a, b)    # lists joined
            if e.op in "+-":
                return a + b
            if e.op == "*":
                if not isinstance(e.left, ir.Const) and not isinstance(e.right, ir.Const):
                    return MAX_NUMBER       # held (codegen `_big`)
                return a * b
            return a if e.op == "/" else b      # |a // b| <= |a|, |a % b| < |b|
        if isinstance(e, ir.Neg):
            return of(e.operand)
        if isinstance(e, ir.Cond):
            return max(of(e.then), of(e.otherwise))
        if isinstance(e, ir.Comprehension):
            return of(e.expr)
        if isinstance(e, ir.Quant):
            return self._quant(e, of)
        if isinstance(e, ir.CallBuiltin):
            return self._builtin(e, of)
        if isinstance(e, ir.CallFn):
            return self._fn(e.name)
        if isinstance(e, (ir.Compare, ir.In, ir.And, ir.Or, ir.Not)):
            return 1
        return WIDE

    @staticmethod
    def _quant(e: ir.Quant, of: Callable[[ir.Expr], int]) -> int:
        if e.op == "count":
            return MEASURE
        if e.op in ("exists", "all"):
            return 1
        if e.op in ("min_of", "max_of", "first") and e.value is not None:
            return of(e.value)
        if e.op in ("first", "sorted"):
            return of(e.domain)     # an element of the domain, or the domain sorted
        return WIDE

    @staticmethod
    def _builtin(e: ir.CallBuiltin, of: Callable[[ir.Expr], int]) -> int:
        if e.name in _MEASURES:
            return MEASURE
        if e.name in ("abs", "min", "max", "clamp"):
            return max(of(a) for a in e.args)
        if e.name in _SAME and e.args:
            return of(e.args[0])
        if e.name == "range":
            return max(of(a) for a in e.args)
        if e.name == "rolls":
            return of(e.args[1])
        if e.name == "roll":        # the sum of at most MAX_DICE dice
            return of(e.args[0]) * (min(of(e.args[1]), MAX_DICE) if len(e.args) > 1 else 1)
        return WIDE

    def _column(self, name: str) -> int:
        """A bound of a column of the kinds table (of its numbers, for lists)."""
        return max((_constant(row.get(name)) for row in self.prog.kinds.values()), default=0)

    def _fn(self, name: str) -> int:
        """A bound of what fn `name` returns."""
        if name in self._fns:
            return self._fns[name]
        if name in self._busy:      # it calls itself
            return WIDE
        self._busy.add(name)
        fn = self.prog.fns[name]
        local = self.slots([fn])
        if isinstance(fn.body, ir.FnBlock):
            found = max((self.of(n.expr, local) for n in ir.walk(fn.body)
                         if isinstance(n, ir.Result)), default=WIDE)
        else:
            found = self.of(fn.body, local)
        self._busy.discard(name)
        self._fns[name] = found
        return found


class Unbounded(Magnitudes):
    """No bounds but the constants': every other number may be any a rule computes (WIDE),
    so every sum, difference and multiple is checked (for an expression that calls a fn
    beyond its rules' bounds: `Magnitudes.calls_beyond`)."""

    def slots(self, roots: Iterable[ir.Node]) -> dict[int, int]:
        return {}

    def of(self, e: ir.Expr, local: Bounds = None,
           inlined: Mapping[int, ir.Expr] | None = None) -> int:
        return min(_constant(e.value), WIDE) if isinstance(e, ir.Const) else WIDE


def _constant(value: object) -> int:
    """A bound of a constant number, or of the numbers of a constant list."""
    if value is None:
        return 0
    if isinstance(value, int):      # (true/false too; cells and seats are numbers)
        return abs(value)
    if isinstance(value, (list, tuple)):
        return max((_constant(v) for v in value), default=0)
    return WIDE


def _place_key(place: ir.Place) -> _VarKey | None:
    if isinstance(place, ir.GlobalPlace):
        return ("global", place.name)
    if isinstance(place, ir.SeatVarPlace):
        return ("seat", place.name)
    if isinstance(place, ir.PieceVarPlace):
        return ("piece", place.name)
    return None
