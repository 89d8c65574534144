"""Code generator: a resolved `program.Program` -> the Python source of one module, and
that module compiled and loaded once per game.

Every code unit becomes a plain Python function whose first two arguments are the state
`S` and the seat `me`, followed by the unit's parameters; locals are Python locals named
after their slots (`v3`). `gdl compile FILE` prints the source, so a maintainer can read
exactly what runs.

- An action's listing is nested `for` loops, one per binder; each `where` part is tested
  as soon as the binders it reads are bound. Inside a part, a sub-expression that depends
  only on outer binders is computed at most once per outer binding, on first use
  (`_m` variables), so short-circuiting still guards it. The plain test a loop's first
  part evaluates first, when it needs only outer binders, is computed once ahead of the
  loop (`_c` variables).
- Geometry with constant stops (`reach`, `sight`) reads tables filled once per board.
- Each generated line remembers which rule-file expression each stretch of it came from,
  so a fault while rules run is reported at that expression (see `locate`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Any, NamedTuple, TypeAlias

from ..language import program as ir
from ..language.builtins import (ALWAYS, BUILTINS, CELLS, FLOW, GLOBALS,
                                  PIECE_VARS, PIECES, SEAT_VARS, short_texts)
from ..language.limits import (EVENT_WORK, MAX_ACTIONS, MAX_DEPTH, MAX_NUMBER, MAX_SUM,
                               MAX_TEXT, MAX_WORK, TEXT_STEP)
from ..language.types import (BOOL, CELL, DIR, INT, KIND, PIECE, SEAT, STR, SYMBOL, Type,
                               holds_texts, is_list)
from .magnitude import Magnitudes, Unbounded

FILE_PREFIX = "<gdl "
MAX_KEPT = 1 << 16      # at most this many kept tuples of one action (`Generator.kept`)
KEPT_PIECES = 256       # a first argument that is a piece has its tuples kept below this id
# A listing past limits.MAX_ACTIONS (`Generator.listing`; the typed engine's `Core.listed`)
TOO_MANY_ACTIONS = (f"more than {MAX_ACTIONS:,} legal actions listed for one decision (an "
                    "action whose parameters range over long lists, one inside another: "
                    "narrow them with 'where' tests, or choose one parameter a decision)")


class UnitKey(NamedTuple):
    """Which code unit a generated function is. `kind` is one of: "fn", "def" (`name`);
    "setup", "hide", "payoff"; "on_enter", "on_reveal", "on_resume", "on_no_action" (`name` the phase); "act" (an
    action's body), "list" (its listing), "domain" and "part" (a binder's domain and a
    where-part, for explaining: `part` its index), each with `name` the phase and
    `position` the action's in it; "trigger", "trigger_cell", "concede", "out",
    "invariant", "end", "each", "sight" (a kinds table's `visible to`) (`position` the
    rule's); "end_let" (`position` its end block, `part` its slot); "visible" (`scope` and
    `name` the variable's); "show", "stat", "zone" (`name`)."""

    kind: str
    name: str = ""
    position: int = 0
    part: int = 0
    scope: str = ""


class ConstKind(Enum):
    """What a module-level constant of generated code holds; the value is the first letter of
    its name, so a reader of `gdl compile` sees the kind too."""

    VALUE = "C"             # a constant list, tuple or dict of the rules, as it is
    RAY_TABLE = "R"         # (builtin, stops[, steps]): the engine fills it with the board's
    #                         table, [cell][steps] (or [cell] for the steps given)
    BOARD_TABLE = "L"       # (builtin,): the engine fills it with the board's table
    KIND_COLUMN = "K"       # a kinds-table column: kind -> value
    MEMBERS = "S"           # a frozenset of constants, the right side of `in`
    KEPT = "A"              # ((phase, action index), size): a list of the action's tuples
    TYPE = "T"              # a static type, for `_text`


class Constant(NamedTuple):
    """A module-level constant of generated code: its kind and the value it is made from."""

    kind: ConstKind
    value: Any


class Frag:
    """Generated code for one resolved node: text pieces and nested fragments."""

    __slots__ = ("node", "parts")

    def __init__(self, node: ir.Node | None, parts: tuple[Part, ...]) -> None:
        self.node = node
        self.parts = parts


Part: TypeAlias = "str | Frag"
"""A piece of generated code: text, or the fragment of a node."""

Stretch: TypeAlias = tuple[int, int, ir.Node]
"""A stretch of a generated line that came from a rule-file node: (start, end, node)."""


def F(node: ir.Node | None, *parts: Part) -> Frag:
    return Frag(node, parts)


class Unit:
    """A generated function: its Python name and the rule-file node it came from."""

    def __init__(self, name: str, node: ir.Node | None) -> None:
        self.name = name
        self.node = node


class Source:
    """The module being written: lines, and for each line the stretches of it that came
    from rule-file nodes (start column, end column, node)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.places: dict[int, list[Stretch]] = {}  # line (1-based) -> [(start, end, node)]
        self.constants: dict[str, Constant] = {}        # Python name -> constant
        self._const_names: dict[tuple[ConstKind, str], str] = {}
        self.shift = 0      # levels added to every line's indent (a body inside `try`)

    def emit(self, indent: int, *parts: Part) -> None:
        indent += self.shift
        text: list[str] = []
        places: list[Stretch] = []
        column = [4 * indent]

        def flat(part: Part) -> None:
            if isinstance(part, str):
                text.append(part)
                column[0] += len(part)
                return
            start = column[0]
            for p in part.parts:
                flat(p)
            node = part.node
            if node is not None and node.span is not None:
                places.append((start, column[0], node))
        for part in parts:
            flat(part)
        self.lines.append("    " * indent + "".join(text))
        if places:
            self.places[len(self.lines)] = places

    def constant(self, value: Any, kind: ConstKind = ConstKind.VALUE) -> str:
        """A module-level name holding `value` (one name per distinct value and kind)."""
        key = (kind, repr(value))
        if key not in self._const_names:
            name = f"{kind.value}{len(self._const_names)}"
            self._const_names[key] = name
            self.constants[name] = Constant(kind, value)
        return self._const_names[key]

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def place_of(self, line: int, start: int, end: int) -> ir.Node | None:
        """The innermost rule-file node (with a span) covering columns start..end of a
        generated line."""
        best: Stretch | None = None
        for s, e, span in self.places.get(line, ()):
            if s <= start and end <= e and (best is None or e - s < best[1] - best[0]):
                best = (s, e, span)
        if best is None and self.places.get(line):
            best = max(self.places[line], key=lambda p: p[1] - p[0])
        return best[2] if best else None


class Frame(NamedTuple):
    """The context a node is written in, passed down the generator (as Jinja's compiler
    passes its `Frame`). Immutable: `Generator.within` writes the nodes below one in a
    changed copy and puts the one it found back afterwards, so nothing leaks to the next
    node."""

    memo: _Memo | None = None       # while listing: the memo state of the part being written
    iterating: ir.Expr | None = None    # a node whose list is only read (a loop's domain, a
    #                                 borrowing built-in's argument): it needs no copy
    inlined: Mapping[int, ir.Expr] | None = None    # in an inlined fn: slot -> the caller's
    #                                                 argument
    in_iterable: bool = False       # in a comprehension's iterable, where Python refuses
    #                                 an assignment expression (`:=`)
    looped: ir.Expr | None = None   # a loop's domain, whose items the loop counts as work:
    #                                 a range() made for it counts nothing itself


class Generator:
    def __init__(self, prog: ir.Program, file: str) -> None:
        self.prog = prog
        self.file = file
        self.defined: set[str] = set()      # names of the functions written so far
        self.src = Source()
        self.impure = _impure_fns(prog.fns)
        self.cyclic = _calling_themselves(prog)     # ("fn"|"def", name) that call themselves
        # ids of the true/false expressions only tested
        self.tested = ir.truth_tested(n for root in ir.rule_roots(prog) for n in ir.walk(root))
        self.frame = Frame()        # the context of the node being written (see `within`)
        self.uses: set[str] = set()         # module names a unit body uses (P, G, V)
        self.watched = 0            # state categories whose changes must be marked
        self.records: set[int] = set()      # slots of pieces whose record is in `p<slot>`
        self.magnitudes = Magnitudes(prog)
        self.slot_sizes: dict[int, int] = {}    # the unit's local slot -> its magnitude
        self.temps = 0              # `_e<N>` names of values computed once (ex_CallFn)
        # every fn call a call (no fn written in place, no call answered without it) while
        # a line tracer counts what runs: see `calling_every_fn`
        self.every_call = _EVERY_CALL[0] > 0

    @contextmanager
    def within(self, **changes: Any) -> Iterator[Frame]:
        """Write what the `with` block writes in the current frame changed by `changes`
        (fields of `Frame`); the frame found is restored afterwards, whatever happens."""
        found = self.frame
        self.frame = found._replace(**changes)
        try:
            yield self.frame
        finally:
            self.frame = found

    def pure(self, node: ir.Node) -> bool:
        return _pure_in(node, self.impure)

    # ----- the module ------------------------------------------------------------------
    def fn_unit(self, fn: ir.Fn) -> Unit:
        """`fn_<name>(S, me, v1..vn)`, the unit of a fn."""
        return self.function(
            f"fn_{fn.name}", ["v%d" % (i + 1) for i in range(len(fn.params))], fn,
            lambda: self.counted_unit(fn, ("fn", fn.name) in self.cyclic),
            _piece_slots(fn.param_types, 1))

    def module(self, watched: int = 0) -> dict[UnitKey, Unit]:
        self.watched = watched
        prog = self.prog
        units: dict[UnitKey, Unit] = {}
        cyclic = self.cyclic
        for fn in prog.fns.values():
            units[UnitKey("fn", fn.name)] = self.fn_unit(fn)
        for d in prog.defs.values():
            units[UnitKey("def", d.name)] = self.function(
                f"def_{d.name}", ["v%d" % (i + 1) for i in range(len(d.params))], d,
                lambda d=d: self.counted_unit(d, ("def", d.name) in cyclic),
                _piece_slots(d.param_types, 1))
        units[UnitKey("setup")] = self.function("setup", [], None,
                                                lambda: self.block(prog.setup, 1))
        for phase in prog.phases.values():
            params = ["v%d" % (i + 1) for i in range(len(phase.params))]
            for hook in ("on_enter", "on_reveal", "on_resume"):
                units[UnitKey(hook, phase.name)] = self.function(
                    f"{hook}_{phase.name}", params, phase,
                    lambda body=getattr(phase, hook): self.block(body, 1))
            if phase.on_no_action is not None:
                units[UnitKey("on_no_action", phase.name)] = self.function(
                    f"on_no_action_{phase.name}", params, phase,
                    lambda body=phase.on_no_action: self.block(body, 1))
            for action in phase.actions:
                self.action(phase, action, params, units)
        for i, trigger in enumerate(prog.triggers):
            units[UnitKey("trigger", position=i)] = self.function(
                f"trigger_{i}", ["v1", "v2"], trigger, lambda t=trigger: self.trigger(t))
            if trigger.where is None or _reads_only_cell(trigger.where, prog.fns):
                units[UnitKey("trigger_cell", position=i)] = self.function(
                    f"trigger_cell_{i}", ["v1", "v2"], trigger,
                    lambda t=trigger: self.return_(t.where or ir.Const(True, type=BOOL)))
        for i, concede in enumerate(prog.concedes):
            units[UnitKey("concede", position=i)] = self.function(f"concede_{i}", ["v1"], concede,
                                                  lambda h=concede: self.block(h.body, 1))
        for i, out in enumerate(prog.outs):
            units[UnitKey("out", position=i)] = self.function(f"out_{i}", ["v1"], out,
                                              lambda h=out: self.block(h.body, 1))
        for i, invariant in enumerate(prog.invariants):
            units[UnitKey("invariant", position=i)] = self.function(
                f"invariant_{i}", [], invariant, lambda inv=invariant: self.return_(inv.expr))
        for i, end_rule in enumerate(prog.end_rules):
            params = [f"v{slot}" for slot in range(1, end_rule.shared + 1)] + (
                [f"v{end_rule.shared + 1}"] if end_rule.kind != "draw" else [])
            units[UnitKey("end", position=i)] = self.function(f"end_{i}", params, end_rule,
                                              lambda r=end_rule: self.return_(r.expr))
        for block, lets in enumerate(prog.end_lets):
            for let in lets:
                units[UnitKey("end_let", position=block, part=let.slot)] = self.function(
                    f"end_let_{block}_{let.slot}", [f"v{slot}" for slot in range(1, let.slot)],
                    let, lambda e=let: self.return_(e.expr))
        for scope, table in prog.vars.items():
            for name, var in table.items():
                if var.visible is not None:
                    units[UnitKey("visible", name, scope=scope)] = self.rule(
                        f"visible_{scope}_{name}", var.visible)
        for what, rule in prog.shows.items():
            units[UnitKey("show", what)] = self.rule(f"show_{what}", rule)
        for name, rule in prog.stats.items():
            units[UnitKey("stat", name)] = self.rule(f"stat_{name}", rule)
        if prog.payoff is not None:
            units[UnitKey("payoff")] = self.rule("payoff", prog.payoff)
        if prog.hide is not None:
            units[UnitKey("hide")] = self.rule("hide_piece", prog.hide)
        for i, sight in enumerate(prog.sights):
            units[UnitKey("sight", position=i)] = self.rule(f"sight_{i}", sight.rule)
        for i, rule in enumerate(prog.each_rules):
            units[UnitKey("each", position=i)] = self.rule(f"each_{i}", rule)
        for name, zone in prog.zones.items():
            if zone.visible is not None:
                units[UnitKey("zone", name)] = self.rule(f"zone_visible_{name}", zone.visible)
        return units

    def function(self, name: str, params: list[str], node: ir.Node | None,
                 body: Callable[..., object], piece_params: Iterable[int] = ()) -> Unit:
        """Write `def name(S, me, params...)` with the body `body()` writes (a lambda
        whose defaults bind a loop's node, which mypy cannot type as taking no
        arguments); `piece_params` are the slots of parameters that hold pieces."""
        self.uses = set()
        self.records = set()
        base, count = name, 1
        while name in self.defined:         # phase `a` + action `b_c` and `a_b` + `c`
            count += 1
            name = f"{base}_{count}"
        self.defined.add(name)
        header_at = len(self.src.lines)
        self.src.emit(0, f"def {name}(S, me{''.join(', ' + p for p in params)}):")
        self.slot_sizes = self.magnitudes.slots([node] if node is not None else self.prog.setup)
        if node is not None:
            self.record(piece_params, node, 1)
        body()
        prologue = [f"    {short} = S.{field}" for short, field in
                    (("P", "pieces"), ("G", "globals"), ("V", "seat_vars"))
                    if short in self.uses or (short == "P" and self.records)]
        self._insert(header_at + 1, prologue)
        self.src.emit(0, "")
        return Unit(name, node)

    def record(self, slots: Iterable[int], node: ir.Node, indent: int,
               listed: bool = False) -> None:
        """`p<slot> = P.get(v<slot>)` for each piece slot whose fields `node` reads, so
        each field read is one dict look-up (a none piece gives none: reading its field
        is then the fault, as it would be without the record). `listed`: the slots run
        over `pieces(...)`, `pieces_at` or `pieces_in`, ids of pieces `P` always holds
        (a removed piece keeps its record): `P[v<slot>]`, a quicker look-up."""
        used = {n.obj.slot for n in ir.walk(node) if isinstance(
            n, (ir.PieceField, ir.PieceStat, ir.PieceVarPlace)) and isinstance(n.obj, ir.Local)}
        assigned = {n.slot for n in ir.walk(node) if isinstance(n, ir.LocalPlace)}
        for slot in sorted(set(slots) & used - assigned):     # a reassigned local: no record
            self.src.emit(indent, f"p{slot} = P[v{slot}]" if listed else
                          f"p{slot} = P.get(v{slot})")
            self.records.add(slot)

    def _insert(self, at: int, lines: list[str]) -> None:
        """Insert prologue lines, shifting the recorded places below them."""
        if not lines:
            return
        src = self.src
        src.lines[at:at] = lines
        moved: dict[int, list[Stretch]] = {}
        for line, places in src.places.items():
            moved[line + len(lines) if line > at else line] = places
        src.places = moved

    def rule(self, name: str, rule: ir.Rule) -> Unit:
        params = ["v%d" % (i + 1) for i in range(len(rule.params))]
        return self.function(name, params, rule, lambda: self.return_(rule.expr))

    def return_(self, expr: ir.Expr) -> None:
        """`return expr`; a quantifier (or its negation) at the top becomes a loop that
        returns as soon as the answer is known, which is faster than a generator. A fn's
        block is its statements, each `return VALUE` a `return`."""
        if isinstance(expr, ir.FnBlock):
            self.block(expr.body, 1)
            return
        if isinstance(expr, (ir.And, ir.Or)) and not self.frame.inlined \
                and _loops_at_top(expr.right):
            # `a and exists(...)`: `if not a: return False`, then the quantifier's loop
            early = isinstance(expr, ir.Or)
            self.src.emit(1, "if " if early else "if not ", self.ex(expr.left), ":")
            self.src.emit(2, F(expr, f"return {early}"))
            self.return_(expr.right)
            return
        quant = expr.operand if isinstance(expr, ir.Not) and isinstance(expr.operand, ir.Quant) \
            else expr
        negated = quant is not expr
        if isinstance(quant, ir.Quant) and quant.op in ("exists", "all") and \
                not self.frame.inlined:
            found = quant.op == "exists"        # the answer when the loop finds a case
            self.search(1, quant, F(expr, f"return {found != negated}"))
            self.src.emit(1, f"return {(not found) != negated}")
            return
        if isinstance(expr, ir.Comprehension) and not expr.flatten and \
                not self.frame.inlined and self.counts_length(expr.domain):
            # `[e for x in D where c]`: D counted against the work bound as `emit_for`
            # counts a loop's, written out rather than the comprehension's `_w(D)` call
            with self.within(memo=None, iterating=expr.domain, looped=expr.domain):
                domain = self.ex(expr.domain)
            slot = expr.slot
            self.src.emit(1, f"_d{slot} = ", domain)
            self.src.emit(1, F(expr.domain, f"rt.work += len(_d{slot})"))
            self.src.emit(1, F(expr.domain, f"if rt.work > {MAX_WORK}: rt.overworked()"))
            where: list[Part] = [] if expr.where is None else [" if ", self.ex(expr.where)]
            self.src.emit(1, "return ", F(expr, "[", self.ex(expr.expr),
                                          f" for v{slot} in _d{slot}", *where, "]"))
            return
        if isinstance(expr, ir.Quant) and expr.op == "first" and not self.frame.inlined:
            with self.within(iterating=expr.domain, looped=expr.domain):
                domain = self.ex(expr.domain)
            self.emit_for(1, expr.slot, domain, expr.domain)
            value = self.ex(expr.value) if expr.value is not None else f"v{expr.slot}"
            if expr.where is not None:
                self.src.emit(2, "if ", self.ex(expr.where), ":")
                self.src.emit(3, "return ", value)
            else:
                self.src.emit(2, "return ", value)
            self.src.emit(1, "return None")
            return
        self.src.emit(1, "return ", self.ex(expr))

    def search(self, indent: int, quant: ir.Quant, hit: Frag) -> None:
        """A loop over an `exists` or `all` quantifier's domain that runs `hit` for an item
        that decides it (one that holds for `exists`, one that fails for `all`). A test
        that is itself an `exists`, or ends in one after `and`, is a loop nested in this one
        rather than a generator: `exists(p in ps where exists(d in ds where f(p, d)))`; so is
        a test that is an `all` (`for ... else`)."""
        with self.within(iterating=quant.domain, looped=quant.domain):
            domain = self.ex(quant.domain)
        self.emit_for(indent, quant.slot, domain, quant.domain)
        tests = [] if quant.where is None else [quant.where]
        if quant.op == "all":
            assert quant.value is not None      # `all` has a value to test
            value = quant.value
            tests.append(value.operand if isinstance(value, ir.Not)
                         else ir.Not(value, type=value.type))
        self.test_then(indent + 1, tests, hit)

    def test_then(self, indent: int, tests: list[ir.Expr], hit: Frag) -> None:
        """Run `hit` when every test holds, each in turn (see `search`)."""
        if not tests:
            self.src.emit(indent, hit)
            return
        first, rest = tests[0], tests[1:]
        if isinstance(first, ir.And):
            self.test_then(indent, [first.left, first.right, *rest], hit)
        elif isinstance(first, ir.Quant) and first.op == "exists" and not rest:
            self.search(indent, first, hit)
        elif isinstance(first, ir.Quant) and first.op == "exists":
            self.search(indent, first, F(first, "break"))
            self.src.emit(indent, "else:")
            self.src.emit(indent + 1, "continue")       # no item holds: the test fails
            self.test_then(indent, rest, hit)
        elif isinstance(first, ir.Quant) and first.op == "all":
            self.search(indent, first, F(first, "break"))   # an item fails: the test fails
            self.src.emit(indent, "else:")
            self.test_then(indent + 1, rest, hit)
        else:
            self.src.emit(indent, "if ", self.ex(first), ":")
            self.test_then(indent + 1, rest, hit)

    def counted_unit(self, unit: ir.Fn | ir.Def, cyclic: bool) -> None:
        """The body of a fn or def, its calls counted when it can call itself, and then
        also how deep such calls run (limits.MAX_DEPTH, gdl's own count: Python's recursion
        limit differs between versions): its body inside `try` and `finally` going out."""
        self.counted_call(unit, cyclic)
        if cyclic:
            self.src.emit(1, F(unit, f"if rt.depth >= {MAX_DEPTH}: rt.too_deep({unit.name!r})"))
            self.src.emit(1, "rt.depth += 1")
            self.src.emit(1, "try:")
            self.src.shift += 1
        if isinstance(unit, ir.Fn):
            self.return_(unit.body)
        else:
            self.block(unit.body, 1)
        if cyclic:
            self.src.shift -= 1
            self.src.emit(1, "finally:")
            self.src.emit(2, "rt.depth -= 1")

    def counted_call(self, node: ir.Node, cyclic: bool) -> None:
        """A fn or def that calls itself (through others too) counts each call as work:
        a call that makes two calls could otherwise run for hours below the recursion
        limit. Triggers count each run (a move in a trigger can run triggers again)."""
        if cyclic:
            self.src.emit(1, F(node, "rt.work += 1"))
            self.src.emit(1, F(node, f"if rt.work > {MAX_WORK}: rt.overworked()"))

    def trigger(self, trigger: ir.Trigger) -> None:
        """An `on enter` trigger: each run counted as work, and its body (a move in it may
        run the triggers again, inside it) a level of the depth count fns and defs that
        call themselves keep (limits.MAX_DEPTH, `counted_unit`)."""
        self.counted_call(trigger, True)
        if trigger.where is not None:
            self.src.emit(1, "if not (", self.ex(trigger.where), "):")
            self.src.emit(2, "return False")
        self.src.emit(1, F(trigger, f"if rt.depth >= {MAX_DEPTH}: rt.too_deep_enter()"))
        self.src.emit(1, "rt.depth += 1")
        self.src.emit(1, "try:")
        self.src.shift += 1
        self.block(trigger.body, 1)
        self.src.shift -= 1
        self.src.emit(1, "finally:")
        self.src.emit(2, "rt.depth -= 1")
        self.src.emit(1, "return True")

    # ----- actions ---------------------------------------------------------------------
    def action(self, phase: ir.Phase, action: ir.Action, params: list[str],
               units: dict[UnitKey, Unit]) -> None:
        key = f"{phase.name}_{action.name}"
        binders = ["v%d" % b.slot for b in action.binders]
        units[UnitKey("act", phase.name, action.index)] = self.function(
            f"act_{key}", params + binders, action, lambda: self.block(action.body, 1),
            [b.slot for b in action.binders if b.type == PIECE])
        units[UnitKey("list", phase.name, action.index)] = self.function(
            f"list_{key}", params + ["out"], action,
            lambda: self.listing(action, (phase.name, action.index)))
        # For explaining an illegal action: each domain and part on its own, every binder
        # a parameter (those not yet bound are None).
        for i, binder in enumerate(action.binders):
            units[UnitKey("domain", phase.name, action.index, i)] = self.function(
                f"domain_{key}_{i}", params + binders, binder,
                lambda b=binder: self.return_(b.domain))
        for i, part in enumerate(action.where_parts):
            units[UnitKey("part", phase.name, action.index, i)] = self.function(
                f"part_{key}_{i}", params + binders, part,
                lambda p=part: self.return_(p.expr))

    def listing(self, action: ir.Action, key: tuple[str, int]) -> None:
        """Nested loops appending (index, args) for every legal binding; `key` (phase,
        action index) names its kept tuples. The actions listed, this action's and those
        listed before it, are at most limits.MAX_ACTIONS: counted once at the end and, with
        two binders or more, once ahead of each run of the innermost loop (not at each
        append: the list holds at most MAX_ACTIONS plus one such run before it stops)."""
        memo = _Memo(self)
        memo.bind(action)
        levels = len(action.binders)
        by_level = [[p for p in action.where_parts if p.level == k] for k in range(levels + 1)]
        kept = self.kept(action, key)
        # (no place on the line: a trace would count the action listed; the engine names it)
        too_many = f"if len(out) > {MAX_ACTIONS}: rt.too_many_actions({key[0]!r}, {key[1]})"
        for k in range(levels + 1):
            indent = k + 1
            for part in by_level[k]:
                if k == 0 and self.quantifier_guard(part.expr):
                    continue
                expr = part.expr
                with self.within(memo=memo.for_part(part)):
                    if isinstance(expr, ir.Not):    # `if not (not x)` reads `if x`
                        code, test = self.ex(expr.operand), "if "
                    else:
                        code, test = self.ex(expr), "if not "
                self.src.emit(indent, test, code, ":")
                self.src.emit(indent + 1, "return" if k == 0 else "continue")
            if k == levels - 1 and k > 0:
                self.src.emit(indent, too_many)
            memo.open_level(k, indent)         # values deeper parts need go here
            if k < levels:
                binder = action.binders[k]
                if kept is not None and k == levels - 1 and k > 0:
                    # the row of the outer binders' values, once ahead of the last loop
                    # (none, a value not a number or a later piece leaves none: each
                    # tuple is made afresh) (a piece of `pieces(...)`, `pieces_at`,
                    # `pieces_in` is a number)
                    tests = " and ".join(f"v{b.slot}.__class__ is int"
                                         for b in action.binders[:-1]
                                         if not _piece_list(b.domain))
                    table, terms, width = kept
                    outer = " + ".join(terms[:-1])
                    self.src.emit(indent, "try:")
                    if tests or len(terms) > 2:
                        self.src.emit(indent + 1, f"_k = {outer}"
                                      + (f" if {tests} else None" if tests else ""))
                        outer = "_k"
                    self.src.emit(indent + 1,
                                  f"_r = {table}[{outer}] or _row({table}, {outer}, {width})")
                    self.src.emit(indent, "except (IndexError, TypeError):")
                    self.src.emit(indent + 1, "_r = None")
                with self.within(memo=memo.for_domain(k + 1, binder.domain),
                                 looped=binder.domain):
                    domain = self.ex(binder.domain)
                first = by_level[k + 1][0] if by_level[k + 1] else None
                lead = memo.loop_invariant_lead(first, binder)
                self.emit_for(indent, binder.slot, domain, binder.domain,
                              None if lead is None else
                              F(lead, f"_c{binder.slot} = ", self.ex(lead)),
                              memo.members_lead(first, binder))
                if binder.type == PIECE:
                    self.record([binder.slot], action, indent + 1,
                                _piece_list(binder.domain))
        args = "".join(f"v{b.slot}, " for b in action.binders)
        made = f"({action.index}, ({args}))"
        # placed at the action, so a tool tracing lines sees each legal binding listed
        if kept is None:
            self.src.emit(levels + 1, F(action, f"out.append({made})"))
        else:
            self.kept_append(action, kept, made, levels)
        self.src.emit(1, too_many)

    def kept_append(self, action: ir.Action, kept: tuple[str, list[str], int], made: str,
                    levels: int) -> None:
        """The innermost line of a listing that keeps its tuples (`kept`): the one kept,
        else `made` afresh."""
        table, terms, _ = kept
        if len(terms) > 1:          # by its row (`_r`) and the last binder's value
            table = "_r"
        index = terms[-1]
        self.src.emit(levels + 1, "try:")
        self.src.emit(levels + 2, F(action, f"out.append({table}[{index}] or "
                                            f"_keep({table}, {index}, {made}))"))
        self.src.emit(levels + 1, "except (IndexError, TypeError):")   # a later piece, none
        self.src.emit(levels + 2, F(action, f"out.append({made})"))

    def kept(self, action: ir.Action, key: tuple[str, int]
             ) -> tuple[str, list[str], int] | None:
        """(the module list keeping an action's tuples, the terms of the index of one,
        binder by binder, the last binder's number of values) when its
        arguments have few values: cells and seats, the first a piece of an id below
        KEPT_PIECES too. Each tuple is made once per loaded module, and a listing then
        appends the one kept (the same values: the same actions). With one binder the list
        holds the tuples; with more, it holds rows (`_row`), one per value of the binders
        but the last, each a list of tuples by the last binder's value, so the last loop
        reads its row by that value alone. A later piece's index is past the list's end
        and none is no number: either makes the tuple afresh. None when not kept."""
        sizes: dict[Type, int] = {CELL: self.prog.board.size, SEAT: len(self.prog.seats)}
        binders = action.binders
        if not binders or not all(b.type in sizes or (i == 0 and b.type == PIECE)
                                  for i, b in enumerate(binders)):
            return None
        strides = [sizes[b.type] for b in binders[1:]]
        size = KEPT_PIECES if binders[0].type == PIECE else sizes[binders[0].type]
        for stride in strides:
            size *= stride
        if size > MAX_KEPT:
            return None
        width = strides[-1] if strides else size    # the last binder's values
        terms = []
        for i, b in enumerate(binders):     # the outer binders' index counts rows
            stride = 1
            for later in strides[i:-1]:
                stride *= later
            terms.append(f"v{b.slot} * {stride}" if stride > 1 else f"v{b.slot}")
        rows = size // width if len(binders) > 1 else size
        table = self.src.constant((key, rows), ConstKind.KEPT)
        return table, terms, width

    def quantifier_guard(self, expr: ir.Expr) -> bool:
        """A listing's first guard that is a quantifier (`exists`, `all`, or `not` of
        one), written as a loop that returns as soon as the guard fails."""
        quant = expr.operand if isinstance(expr, ir.Not) else expr
        negated = quant is not expr
        if not isinstance(quant, ir.Quant) or quant.op not in ("exists", "all"):
            return False
        # The loop looks for a witness: an item that decides the quantifier.
        with self.within(iterating=quant.domain, looped=quant.domain):
            domain = self.ex(quant.domain)
        witness: Part
        if quant.op == "all":
            assert quant.value is not None      # `all` has a value to test
            test = F(quant.value, "not ", self.ex(quant.value))
            witness = test if quant.where is None else F(quant, self.ex(quant.where), " and ",
                                                         test)
        else:
            witness = self.ex(quant.where) if quant.where is not None else "True"
        # exists holds with a witness; all fails with one
        fails_with_witness = negated if quant.op == "exists" else not negated
        self.emit_for(1, quant.slot, domain, quant.domain)
        self.src.emit(2, "if ", witness, ":")
        self.src.emit(3, F(expr, "return") if fails_with_witness else "break")
        if not fails_with_witness:
            self.src.emit(1, "else:")
            self.src.emit(2, F(expr, "return"))
        return True

    # ----- statements ------------------------------------------------------------------
    def block(self, statements: Sequence[ir.Stmt], indent: int) -> None:
        if not statements:
            self.src.emit(indent, "pass")
        for statement in statements:
            getattr(self, "st_" + type(statement).__name__)(statement, indent)

    def st_Assign(self, s: ir.Assign, indent: int) -> None:
        value = self.ex(s.expr)
        op = s.op
        place = s.place
        if isinstance(place, ir.LocalPlace):
            self.src.emit(indent, F(s, f"v{place.slot} {op} ", value))
            self.bound(s, f"v{place.slot}", indent)
            return
        target, timer = self.place(place, indent)
        if s.until is not None:
            self.src.emit(indent, F(s, "rt.add_timer(", self.ex(s.until), f", {timer}, "
                                    f"{target})"))
        self.src.emit(indent, F(s, f"{target} {op} ", value))
        self.bound(s, target, indent)
        self.mark(place, indent)

    def bound(self, s: ir.Assign, target: str, indent: int) -> None:
        """A number or text that an assignment can grow (`+=`, `-=`, or `x = x + x`) is
        held to limits.MAX_NUMBER / MAX_TEXT, so a value that doubles in a loop or at each
        decision stops with an error at the assignment instead of taking the machine."""
        if s.op == "=" and not isinstance(s.expr, (ir.Binary, ir.Concat)):
            if s.expr.type == INT and self.magnitudes.of(
                    s.expr, self.slot_sizes, self.frame.inlined) > MAX_NUMBER:
                # a number that may not be kept (a sum, a parameter): held once it is
                self.src.emit(indent, F(s, f"if {target} is not None and not -{MAX_NUMBER} "
                                        f"<= {target} <= {MAX_NUMBER}: _big({target})"))
            return
        if s.expr.type == INT:
            self.src.emit(indent, F(s, f"if not -{MAX_NUMBER} <= {target} <= {MAX_NUMBER}: "
                                    f"_big({target})"))
        elif s.expr.type == STR:
            self.src.emit(indent, F(s, f"if len({target}) > {MAX_TEXT}: _long(rt, {target})"))

    def place(self, place: ir.Place, indent: int) -> tuple[str, str]:
        """(Python target text, timer place text) of a global, piece or seat variable; the
        object is evaluated once, into a temporary."""
        assert isinstance(place, (ir.GlobalPlace, ir.PieceVarPlace, ir.SeatVarPlace))
        name = repr(place.name)
        if isinstance(place, ir.GlobalPlace):
            self.uses.add("G")
            return f"G[{name}]", f"['g', {name}]"
        if isinstance(place.obj, ir.Local):
            obj = "me" if place.obj.slot == 0 else f"v{place.obj.slot}"
        elif isinstance(place.obj, ir.Const) and isinstance(place.obj.value, int):
            obj = repr(place.obj.value)
        else:
            self.src.emit(indent, F(place, "_o = ", self.ex(place.obj)))
            obj = "_o"
        if isinstance(place, ir.PieceVarPlace):
            if isinstance(place.obj, ir.Local) and place.obj.slot in self.records:
                return f"p{place.obj.slot}[{name}]", f"['p', {obj}, {name}]"
            self.uses.add("P")
            return f"P[{obj}][{name}]", f"['p', {obj}, {name}]"
        self.uses.add("V")
        return f"V[{obj}][{name}]", f"['s', {obj}, {name}]"

    def mark(self, place: ir.Place, indent: int) -> None:
        bit = {ir.GlobalPlace: GLOBALS, ir.PieceVarPlace: PIECE_VARS,
               ir.SeatVarPlace: SEAT_VARS}[type(place)]
        if self.watched & bit:
            self.src.emit(indent, f"rt.changed |= {bit}")

    def st_Shuffle(self, s: ir.Shuffle, indent: int) -> None:
        if isinstance(s.place, ir.LocalPlace):
            target = f"v{s.place.slot}"
        else:
            target, _ = self.place(s.place, indent)
        self.src.emit(indent, F(s, f"{target} = rt.shuffled({target})"))
        if not isinstance(s.place, ir.LocalPlace):
            self.mark(s.place, indent)

    def st_CallDef(self, s: ir.CallDef, indent: int) -> None:
        self.src.emit(indent, F(s, f"def_{s.name}(S, me", *self.args(s.args), ")"))

    def args(self, args: Sequence[ir.Expr]) -> list[Part]:
        out: list[Part] = []
        for a in args:
            out += [", ", self.ex(a)]
        return out

    def st_If(self, s: ir.If, indent: int) -> None:
        self.src.emit(indent, "if ", self.ex(s.cond), ":")
        self.block(s.then, indent + 1)
        if s.otherwise:
            self.src.emit(indent, "else:")
            self.block(s.otherwise, indent + 1)

    def st_For(self, s: ir.For, indent: int) -> None:
        with self.within(looped=s.domain):
            domain = self.ex(s.domain)
        if not _fresh(s.domain):
            domain = F(s.domain, "list(", domain, ")")
        self.emit_for(indent, s.slot, domain, s.domain)
        if _element(s.domain.type) == PIECE:
            self.record([s.slot], s, indent + 1, _piece_list(s.domain))
        if s.where is not None:
            self.src.emit(indent + 1, "if not (", self.ex(s.where), "):")
            self.src.emit(indent + 2, "continue")
        self.block(s.body, indent + 1)

    def st_Let(self, s: ir.Let, indent: int) -> None:
        self.src.emit(indent, F(s, f"v{s.slot} = ", self.ex(s.expr)))
        self.records.discard(s.slot)

    def _call(self, s: ir.Stmt, indent: int, method: str, *exprs: ir.Expr) -> None:
        parts: list[Part] = [F(s, f"rt.{method}(")]
        for i, e in enumerate(exprs):
            parts += [", " if i else "", self.ex(e)]
        self.src.emit(indent, F(s, *parts, ")"))

    def st_Move(self, s: ir.Move, indent: int) -> None:
        self.told(s, indent)
        self.src.emit(indent, F(s, "rt.move_along(me, ", self.ex(s.piece), ", ",
                                self.ex(s.path), ")"))

    def st_PlaceAt(self, s: ir.PlaceAt, indent: int) -> None:
        self.told(s, indent)
        self._call(s, indent, "place", s.piece, s.cell)

    def st_Give(self, s: ir.Give, indent: int) -> None:
        self.told(s, indent)
        self._call(s, indent, "give", s.piece, s.seat)

    def st_Change(self, s: ir.Change, indent: int) -> None:
        self.told(s, indent)
        self._call(s, indent, "change", s.piece, s.kind)

    def st_Remove(self, s: ir.Remove, indent: int) -> None:
        self._call(s, indent, "remove", s.piece)

    def st_Create(self, s: ir.Create, indent: int) -> None:
        self._call(s, indent, "create", s.kind, s.owner, s.cell)

    def st_Goto(self, s: ir.Goto, indent: int) -> None:
        assert s.seat is not None           # the checker requires `for SEAT`
        self.src.emit(indent, F(s, f"rt.enter_phase({s.phase!r}, [", *self.args(s.args)[1:],
                                "], ", self.ex(s.seat), f", {s.push})"))

    def st_Put(self, s: ir.Put, indent: int) -> None:
        self.told(s, indent)
        seat = "None" if s.seat is None else self.ex(s.seat)
        self.src.emit(indent, F(s, "rt.put(", self.ex(s.piece), f", {s.zone!r}, ", seat, ")"))

    def st_CallEach(self, s: ir.CallEach, indent: int) -> None:
        self.src.emit(indent, F(s, f"rt.call_each(me, {s.phase!r}, [", *self.args(s.args)[1:],
                                "], ", self.ex(s.seats), f", {s.rule})"))

    def st_Return(self, s: ir.Return, indent: int) -> None:
        self.src.emit(indent, F(s, "rt.pop_phase()"))

    def st_Leave(self, s: ir.Leave, indent: int) -> None:
        self.src.emit(indent, F(s, "return"))

    def st_Result(self, s: ir.Result, indent: int) -> None:
        self.src.emit(indent, F(s, "return ", self.ex(s.expr)))

    def st_Stop(self, s: ir.Stop, indent: int) -> None:
        self.src.emit(indent, F(s, "raise StopMove()"))

    def st_Win(self, s: ir.Win, indent: int) -> None:
        self.src.emit(indent, F(s, "rt.declare_winners([", self.ex(s.seat), "])"))

    def st_Lose(self, s: ir.Lose, indent: int) -> None:
        self._call(s, indent, "eliminate", s.seat)

    def st_Draw(self, s: ir.Draw, indent: int) -> None:
        self.src.emit(indent, F(s, "rt.declare_winners([])"))

    def st_Log(self, s: ir.Log, indent: int) -> None:
        self.told(s, indent)
        self.src.emit(indent, F(s, "S.events.append(_Log(", self.ex(s.text), "))"))

    def told(self, s: ir.Stmt, indent: int) -> None:
        """A statement that leaves an event (`log`; a piece's move or change, when the game
        is narrated: every event costs memory) counts limits.EVENT_WORK steps of work, first,
        narrated or not, so the same game faults at the same place either way."""
        self.src.emit(indent, F(s, f"rt.work += {EVENT_WORK}"))
        self.src.emit(indent, F(s, f"if rt.work > {MAX_WORK}: rt.overworked()"))

    # ----- expressions -----------------------------------------------------------------
    def ex(self, node: ir.Expr) -> Frag:
        memo = self.frame.memo
        if memo is not None:
            hoisted = memo.hoist(node)
            if hoisted is not None:
                return hoisted
        write: Callable[[ir.Expr], Frag] = getattr(self, "ex_" + type(node).__name__)
        return write(node)

    def emit_for(self, indent: int, slot: int, code: Part, domain: ir.Expr,
                 before: Frag | None = None, members: Frag | None = None) -> None:
        """`for vN in DOMAIN:`, its items counted against the work of one decision (see
        limits.MAX_WORK; a constant list's or a list written out's length is the rule
        file's, counted as a number). Written out rather than a call: this is the hottest
        line of a listing. `before`, a
        line run once ahead of the loop when the domain has an item (see
        `_Memo.loop_invariant_lead`). `members`, the set every item must be in to pass the
        loop's first test (`_Memo.members_lead`): a domain with none of them is skipped
        whole, in one C-level `isdisjoint` rather than a test per item."""
        if isinstance(domain, (ir.Const, ir.ListOf)):
            items = domain.items if isinstance(domain, ir.ListOf) else domain.value
            if items:
                self.src.emit(indent, F(domain, f"rt.work += {len(items)}"))
                self.src.emit(indent, F(domain, f"if rt.work > {MAX_WORK}: rt.overworked()"))
            if before is not None and items:
                self.src.emit(indent, before)
            if members is not None and items:   # fills the `_m` set the first test reads
                self.src.emit(indent, members)
            self.src.emit(indent, f"for v{slot} in ", code, ":")
            return
        self.src.emit(indent, f"_d{slot} = ", code)
        if self.counts_length(domain):      # (a comprehension counted its own domain)
            self.src.emit(indent, F(domain, f"rt.work += len(_d{slot})"))
            self.src.emit(indent, F(domain, f"if rt.work > {MAX_WORK}: rt.overworked()"))
        if before is not None:
            self.src.emit(indent, f"if _d{slot}: ", before)
        if members is not None:
            self.src.emit(indent, f"if _d{slot} and ", members,
                          f".isdisjoint(_d{slot}): _d{slot} = ()")
        self.src.emit(indent, f"for v{slot} in _d{slot}:")

    def loop_domain(self, domain: ir.Expr) -> Frag:
        """A comprehension's domain, counted as `emit_for` counts (`_w`)."""
        with self.within(looped=domain):
            code = self.ex(domain)
        if not self.counts_length(domain):
            return code
        return F(domain, "_w(", code, ")")

    def counts_length(self, domain: ir.Expr) -> bool:
        """Does a loop over `domain` count its length as work (`ir.loop_counts`)?"""
        return ir.loop_counts(domain, self.prog.fns)

    def ex_Const(self, n: ir.Const) -> Frag:
        v = n.value
        if v is None or isinstance(v, (bool, int, str)):
            return F(n, repr(v))
        return F(n, self.src.constant(v))

    def ex_Local(self, n: ir.Local) -> Frag:
        inlined = self.frame.inlined
        if inlined and n.slot in inlined:
            target = inlined[n.slot]
            if isinstance(target, ir.Const):
                return F(n, self.ex_Const(target))
            assert isinstance(target, ir.Local)     # see `inlinable`
            n = target
        return F(n, f"v{n.slot}" if n.slot else "me")

    def ex_Global(self, n: ir.Global) -> Frag:
        self.uses.add("G")
        return F(n, f"G[{n.name!r}]")

    def ex_StateValue(self, n: ir.StateValue) -> Frag:
        return F(n, {"current": "S.current", "turn_number": "S.turn",
                     "decision_number": "S.decisions", "passes": "rt.passes",
                     "winners": "(S.result['winners'] if S.result is not None else [])",
                     "deciding": "(S.frames[-1]['seat'] if S.frames else None)",
                     "current_phase": "(S.frames[-1]['phase'] if S.frames else '')",
                     "seats": "rt.live_seats()"}[n.what])

    def piece_record(self, obj: ir.Expr) -> Frag:
        """Code for the record (dict) of a piece."""
        slot = None
        if isinstance(obj, ir.Local):
            inlined = self.frame.inlined
            target = inlined.get(obj.slot, obj) if inlined else obj
            slot = target.slot if isinstance(target, ir.Local) else None
        if slot in self.records:
            return F(obj, f"p{slot}")
        self.uses.add("P")
        return F(obj, "P[", self.ex(obj), "]")

    def ex_PieceField(self, n: ir.PieceField) -> Frag:
        if n.name == "zone":                # only a piece in a zone has the key
            return F(n, "_zone(", self.piece_record(n.obj), ")")
        return F(n, self.piece_record(n.obj), f"[{n.name!r}]")

    def ex_PieceStat(self, n: ir.PieceStat) -> Frag:
        column = self.src.constant({k: stats[n.name] for k, stats in self.prog.kinds.items()},
                                   ConstKind.KIND_COLUMN)
        return F(n, f"{column}[", self.piece_record(n.obj), "['kind']]")

    def ex_KindStat(self, n: ir.KindStat) -> Frag:
        column = self.src.constant({k: stats[n.name] for k, stats in self.prog.kinds.items()},
                                   ConstKind.KIND_COLUMN)
        return F(n, f"{column}[", self.ex(n.obj), "]")

    def ex_SeatVar(self, n: ir.SeatVar) -> Frag:
        self.uses.add("V")
        return F(n, "V[", self.ex(n.obj), f"][{n.name!r}]")

    def ex_ListOf(self, n: ir.ListOf) -> Frag:
        parts: list[Part] = []
        for i, item in enumerate(n.items):
            parts += [", " if i else "", self.ex(item)]
        return F(n, "[", *parts, "]")

    def _loop(self, slot: int, domain: ir.Expr, where: ir.Expr | None) -> list[Part]:
        """` for vN in DOMAIN if WHERE` (no memos in a comprehension's iterable)."""
        with self.within(memo=None, iterating=domain, in_iterable=True):
            dom = self.loop_domain(domain)
        parts: list[Part] = [f" for v{slot} in ", dom]
        if where is not None:
            parts += [" if ", self.ex(where)]
        return parts

    def ex_Comprehension(self, n: ir.Comprehension) -> Frag:
        """`[e for vA in A if c for vB in B ...]`: the clauses of a flattening one in turn."""
        loops: list[Part] = []
        clause = n
        while True:
            loops += self._loop(clause.slot, clause.domain, clause.where)
            if not clause.flatten:
                break
            assert isinstance(clause.expr, ir.Comprehension)    # the parser nests clauses
            clause = clause.expr
        return F(n, "[", self.ex(clause.expr), *loops, "]")

    def ex_Quant(self, n: ir.Quant) -> Frag:
        op = n.op
        if op == "connected":
            assert n.value is not None      # the checker asks for ': NEXT'
            with self.within(memo=None, iterating=n.domain):
                starts = self.loop_domain(n.domain)
            with self.within(memo=None):
                test: Part = "None" if n.where is None else \
                    F(n.where, f"lambda v{n.slot}: ", self.ex(n.where))
                step = F(n.value, f"lambda v{n.slot}: ", self.ex(n.value))
            return F(n, "_connected(", starts, ", ", test, ", ", step, ")")
        loop = self._loop(n.slot, n.domain, n.where)
        if op == "count":
            return F(n, "sum(1", *loop, ")")
        if op == "exists":
            return F(n, "any(True", *loop, ")")
        if op == "first":
            value = self.ex(n.value) if n.value is not None else f"v{n.slot}"
            return F(n, "next((", value, *loop, "), None)")
        assert n.value is not None      # the quantifiers below have a value
        if op == "all":
            return F(n, "all(", self.ex(n.value), *loop, ")")
        if op == "sum":     # each partial sum within limits.MAX_SUM (builtins.summed),
            # unless the values are too small to reach it (at most 2 x MAX_WORK of them:
            # a domain is counted as work, or is a constant list of at most MAX_LIST)
            small = self.magnitudes.of(n.value, self.slot_sizes,
                                       self.frame.inlined) * 2 * MAX_WORK <= MAX_SUM
            return F(n, "sum(" if small else "_sum(", self.ex(n.value), *loop, ")")
        if op in ("min_of", "max_of"):
            # (a lone value that is none faults in _extreme: min() compares no two)
            return F(n, f"_extreme({op[:3]}((", self.ex(n.value), *loop, "), default=0))")
        return F(n, "_sorted_by([(", self.ex(n.value), f", v{n.slot})", *loop, "])")

    def ex_CallFn(self, n: ir.CallFn) -> Frag:
        fn = self.prog.fns[n.name]
        if self.every_call:
            return F(n, f"fn_{n.name}(S, me", *self.args(n.args), ")")
        if self.inlinable(fn, n):
            # memo None: the body's slots are the fn's, not this unit's
            with self.within(inlined={i + 1: a for i, a in enumerate(n.args)}, memo=None):
                return F(n, self.ex(fn.body))
        empty = self.empty_cell_answer(fn, n)
        if empty is None:
            return F(n, f"fn_{n.name}(S, me", *self.args(n.args), ")")
        position, answer = empty
        cell = n.args[position]
        if isinstance(cell, (ir.Local, ir.Const)):
            call = F(n, f"fn_{n.name}(S, me", *self.args(n.args), ")")
            test: Part = self.ex(cell)
        else:       # computed once, first (the other arguments cost nothing and never fault)
            self.temps += 1
            name = f"_e{self.temps}"
            parts: list[Part] = []
            for i, a in enumerate(n.args):
                parts += [", ", name if i == position else self.ex(a)]
            call = F(n, f"fn_{n.name}(S, me", *parts, ")")
            test = F(cell, f"({name} := ", self.ex(cell), ")")
        # the answer stands for the fn's body: a tool tracing lines sees the fn run
        return F(n, "(", call, " if ", test, " in S.at else ", F(fn.body, answer), ")")

    def empty_cell_answer(self, fn: ir.Fn, call: ir.CallFn) -> tuple[int, str] | None:
        """(the position of the cell argument, the answer) when `fn` is `exists(q in
        pieces_at(c) ...)` or `all(...)` over them, or `TEST and exists(...)` with a TEST
        that cannot fault (`c != none`), c one of its parameters: called with a cell no
        piece stands on, the answer is known (false; true for `all`) and the call is
        skipped (`State.at` has no empty lists, and none is never a key); coverage counts
        the fn run where the line holding the call ran, as for a fn written in place. Only
        for a fn that does not call itself (its calls count as work), and a cell argument
        that costs nothing to read again or, when the others do, one that is pure: it is
        then computed once, ahead of the others (`_e<N>`), except in a comprehension's
        iterable, where Python has no `:=`."""
        body = fn.body
        if isinstance(body, ir.And) and isinstance(body.right, ir.Quant) and \
                body.right.op == "exists" and _never_faults(body.left):
            body = body.right           # TEST and exists(...): false as exists is
        if not isinstance(body, ir.Quant) or body.op not in ("exists", "all") or \
                ("fn", fn.name) in self.cyclic:
            return None
        cell = _pieces_at_argument(body.domain)
        if not isinstance(cell, ir.Local) or not 1 <= cell.slot <= len(call.args):
            return None
        position = cell.slot - 1
        argument = call.args[position]
        if not isinstance(argument, (ir.Local, ir.Const)) and (
                self.frame.in_iterable or not self.pure(argument) or
                any(isinstance(x, (ir.CallFn, ir.Quant, ir.Comprehension))
                    for x in ir.walk(argument)) or
                not all(isinstance(a, (ir.Local, ir.Const))
                        for i, a in enumerate(call.args) if i != position)):
            return None
        return position, "False" if body.op == "exists" else "True"

    def inlinable(self, fn: ir.Fn, call: ir.CallFn) -> bool:
        """A small fn whose arguments cost nothing to repeat is written in place: no call,
        no frame. It must bind no locals of its own and call no fn."""
        if self.frame.inlined or isinstance(fn.body, ir.FnBlock) or not all(isinstance(a, (ir.Local, ir.Const)) for a in call.args):
            return False
        nodes = list(ir.walk(fn.body))
        return len(nodes) <= 12 and not any(
            isinstance(x, (ir.Quant, ir.Comprehension, ir.CallFn)) for x in nodes)

    def ex_CallBuiltin(self, n: ir.CallBuiltin) -> Frag:
        """A call of a built-in: its row's inline template when it has one (see
        `builtins.Builtin.inline`), else a call of its implementation `B_<name>(rt, ...)`."""
        row = BUILTINS[n.name]
        if n.name == "last" and (cell := _pieces_at_argument(n.args[0])) is not None:
            # the piece on top of a cell, or none: no call (`State.at` has no empty lists)
            return F(n, "S.at.get(", self.ex(cell), ", (None,))[-1]")
        if row.borrows and n.args:          # reads its list: a pieces_at needs no copy
            with self.within(iterating=n.args[0]):
                args = [self.ex(a) for a in n.args]
        else:
            args = [self.ex(a) for a in n.args]
        if row.stops_table and isinstance(n.args[2], ir.Const):
            stops: Any = n.args[2].value
            steps = n.args[1]
            if isinstance(steps, ir.Const) and steps.value.__class__ is int:
                table = self.src.constant((n.name, frozenset(stops), steps.value),
                                          ConstKind.RAY_TABLE)
                return F(n, f"{table}[", args[0], "]")
            # by cell, then steps: the cell is looked up before the steps are computed,
            # and a fault (a none, say) comes from the same part as `reach(c, n, ...)`'s
            table = self.src.constant((n.name, frozenset(stops)), ConstKind.RAY_TABLE)
            return F(n, f"{table}[", args[0], "][", args[1], "]")
        template = row.template(len(args))
        if row.inline_borrowed is not None and self.frame.iterating is n:
            template = row.inline_borrowed  # only read (a loop, last(), len()): no copy
        if template is None:
            parts: list[str | Frag] = []
            for a in args:
                parts += [", ", a]
            if n.name == "range" and self.frame.looped is not n:    # its length is work
                return F(n, f"_w(B_{n.name}(rt", *parts, "))")
            if n.name == "unique" and holds_texts(n.type):     # their characters too
                parts.append(", True")
            return F(n, f"B_{n.name}(rt", *parts, ")")
        return F(n, *self.filled(template, n, args))

    def filled(self, template: str, n: ir.CallBuiltin, args: list[Frag]) -> list[str | Frag]:
        """The parts of an inline template (`builtins.Builtin.inline`) filled in."""
        parts: list[str | Frag] = []
        for i, piece in enumerate(_TEMPLATE_FIELD.split(template)):
            if not i % 2:
                if piece:
                    parts.append(piece)
            elif piece.isdigit():
                parts.append(args[int(piece)])
            elif piece == "width":
                parts.append(str(self.prog.board.width))
            elif piece == "table":
                parts.append(self.src.constant((n.name,), ConstKind.BOARD_TABLE))
            elif piece == "cells":
                parts.append(self.src.constant(tuple(self.prog.board.all_cells)))
            elif piece == "directions":
                parts.append(self.src.constant(tuple(range(len(self.prog.board.directions)))))
            elif piece == "ndirections":
                parts.append(str(len(self.prog.board.directions)))
            elif piece.startswith("steps"):
                at = int(piece[5:])
                count = n.args[at]
                if isinstance(count, ir.Const) and isinstance(count.value, int) \
                        and count.value >= 0:
                    parts.append(str(count.value))
                else:
                    parts += ["max(", args[at], ", 0)"]
            else:                           # "record"
                parts.append(self.piece_record(n.args[0]))
        return parts

    def ex_Text(self, n: ir.Text) -> Frag:
        inner = self.ex(n.expr)
        if n.expr.type == STR:
            return inner
        return F(n, "_text(", inner, f", {self.src.constant(n.expr.type, ConstKind.TYPE)})")

    def ex_Concat(self, n: ir.Concat) -> Frag:
        a, b = self.ex(n.left), self.ex(n.right)
        if isinstance(n.left, ir.Const) and isinstance(n.right, ir.Const):
            return F(n, "(", a, " + ", b, ")")
        return F(n, "_long(rt, ", a, " + ", b, ")")     # limits.MAX_TEXT, TEXT_STEP

    def ex_Binary(self, n: ir.Binary) -> Frag:
        a, b = self.ex(n.left), self.ex(n.right)
        if n.op == "+" and is_list(n.type):
            return F(n, "_join(rt, ", a, ", ", b, ")")
        if n.op in "/%":
            return F(n, "_divide(" if n.op == "/" else "_modulo(", a, ", ", b, ")")
        if n.op == "*" and not isinstance(n.left, ir.Const) \
                and not isinstance(n.right, ir.Const):
            return F(n, "_big(", a, " * ", b, ")")     # limits.MAX_NUMBER: x * x squares
        if n.op in "+-*" and n.type == INT and self.magnitudes.passes(
                n, self.slot_sizes, self.frame.inlined):
            return F(n, "_wide(", a, f" {n.op} ", b, ")")  # limits.MAX_SUM (magnitude.py)
        return F(n, "(", a, f" {n.op} ", b, ")")

    def ex_Neg(self, n: ir.Neg) -> Frag:
        return F(n, "(-", self.ex(n.operand), ")")

    def ex_Compare(self, n: ir.Compare) -> Frag:
        emptiness = _cell_emptiness(n)
        if emptiness is not None:   # `len(pieces_at(c)) == 0`, `pieces_at(c) != []`, ...
            cell, empty = emptiness     # `State.at` holds only cells with pieces on them
            return F(n, "(", self.ex(cell), " not in S.at)" if empty else " in S.at)")
        if n.lists and n.op in ("==", "!="):
            tested = n.left if _empty_list(n.right) else n.right if _empty_list(n.left) else None
            if tested is not None:      # `xs == []`: only read, and neither side normalised
                with self.within(iterating=tested):
                    listed = self.ex(tested)
                word = " in " if n.op == "==" else " not in "
                return F(n, "(", listed, f"{word}_EMPTY)")
        a, b = self.ex(n.left), self.ex(n.right)
        if n.lists and n.op in ("==", "!="):    # read whole, counted as work (engine `_same`)
            texts = ", True" if holds_texts(n.left.type) or holds_texts(n.right.type) else ""
            return F(n, "(not _same(rt, " if n.op == "!=" else "_same(rt, ", a, ", ", b,
                     texts, "))" if n.op == "!=" else ")")
        if n.op in ("==", "!=") and n.left.type == STR and n.right.type == STR and not (
                _short_text(n.left) or _short_text(n.right)):     # (engine `_same_text`)
            return F(n, "(not _same_text(rt, " if n.op == "!=" else "_same_text(rt, ", a, ", ",
                     b, "))" if n.op == "!=" else ")")
        if n.lists:
            a, b = F(n.left, "_plain(", a, ")"), F(n.right, "_plain(", b, ")")
        return F(n, "(", a, f" {n.op} ", b, ")")

    def ex_In(self, n: ir.In) -> Frag:
        """`x in xs`: a test of a constant set (of texts shorter than TEXT_STEP) or of a
        memoised one (`memoised`) as it is; of `range(a, b)` a comparison (`in_numbers`: no
        list made); of any other list a scan that counts as work when the list is long
        (engine `_in`), and for a text its characters (`_in_text`)."""
        item = self.ex(n.item)
        coll = n.collection
        word = " not in " if n.negated else " in "
        test: Frag
        if is_list(n.item.type):
            texts = ", True" if holds_texts(n.item.type) else ""
            test = F(n, "_in_lists(rt, ", item, ", ", self.ex(coll), texts, ")")
        elif isinstance(coll, ir.Const) and all(isinstance(v, (int, str, bool, type(None)))
                                                 for v in coll.value) \
                and (n.item.type != STR or short_texts(coll.value)):
            members = self.src.constant(frozenset(coll.value), ConstKind.MEMBERS)
            return F(n, "(", item, f"{word}{members})")
        elif isinstance(coll, ir.CallBuiltin) and coll.name == "range" and n.item.type == INT:
            first, last = (self.ex(a) for a in coll.args)
            test = F(coll, "_in_numbers(", item, ", ", first, ", ", last, ")")
        else:
            # a set of texts kept for the listing would look a long text up uncounted: a
            # text's `in` scans, counted (`_in_text`), as on the native backend
            found = None if n.item.type == STR else self.memoised(coll)
            if found is not None:
                return F(n, "(", item, word, found, ")")
            scan = "_in_text(rt, " if n.item.type == STR else "_in(rt, "
            test = F(n, scan, item, ", ", self.ex(coll), ")")
        return F(n, "(not ", test, ")") if n.negated else test

    def memoised(self, coll: ir.Expr) -> Frag | None:
        """The collection of an `in` as a set made once, when the listing memoises it (it is
        looked up often); else None."""
        memo = self.frame.memo
        return None if memo is None else memo.hoist(coll, as_set=True)

    def ex_And(self, n: ir.And) -> Frag:
        return F(n, *self.true_or_false(n, self.ex(n.left), " and ", self.ex(n.right)))

    def ex_Or(self, n: ir.Or) -> Frag:
        return F(n, *self.true_or_false(n, self.ex(n.left), " or ", self.ex(n.right)))

    def true_or_false(self, n: ir.And | ir.Or, *parts: Part) -> list[Part]:
        """`a and b`, `a or b` as true or false: an operand that may be none counts as
        false (Python's `and` would give the none itself). Where only its truth is read
        (`ir.truth_tested`) it is written as it is."""
        if id(n) in self.tested or self.never_none(n.left) and self.never_none(n.right):
            return ["(", *parts, ")"]
        return ["(True if ", *parts, " else False)"]

    def never_none(self, e: ir.Expr, seen: frozenset[str] = frozenset()) -> bool:
        """Is `e`, of true/false, never none: a test (`and`, `or`, `not`, a comparison,
        `in`, `exists`, `all`), a constant, or a fn whose body is one?"""
        if isinstance(e, ir.CallFn) and e.name not in seen:
            return self.never_none(self.prog.fns[e.name].body, seen | {e.name})
        return isinstance(e, (ir.And, ir.Or, ir.Not, ir.Compare, ir.In)) or \
            isinstance(e, ir.Const) and e.value is not None or \
            isinstance(e, ir.Quant) and e.op in ("exists", "all")

    def ex_Not(self, n: ir.Not) -> Frag:
        return F(n, "(not ", self.ex(n.operand), ")")

    def ex_Cond(self, n: ir.Cond) -> Frag:
        return F(n, "(", self.ex(n.then), " if ", self.ex(n.cond), " else ",
                 self.ex(n.otherwise), ")")


# ----- memoised sub-expressions of a listing ------------------------------------------------

class _Memo:
    """While writing one action's listing: which binder level each sub-expression needs,
    and the `_m` variables that hold sub-expressions computed once per outer binding."""

    def __init__(self, gen: Generator) -> None:
        self.gen = gen
        self.count = 0
        self.level_slots: dict[int, int] = {}   # binder slot -> its level (1-based)
        self.level = 0              # the level of the part being written
        self.inside: set[int] = set()   # slots bound inside the part (quantifiers)
        self.resets: dict[int, int] = {}    # level -> line index where its resets go
        self.indents: dict[int, int] = {}
        self.lead: ir.Expr | None = None    # the lead test of the next loop's first part,
        self.lead_name = ""                 # its variable and the part: see
        self.lead_part: ir.WherePart | None = None  # loop_invariant_lead
        self.members: ir.Expr | None = None     # the set of the next loop's first part,
        self.members_part: ir.WherePart | None = None   # its part and code: see
        self.members_code: Frag | None = None           # members_lead

    def open_level(self, k: int, indent: int) -> None:
        self.resets[k] = len(self.gen.src.lines)
        self.indents[k] = indent

    def for_part(self, part: ir.WherePart) -> _Memo:
        if part is not self.lead_part:
            self.lead = None
        if part is not self.members_part:
            self.members = None
        self.level = part.level
        self.inside = {n.slot for n in ir.walk(part.expr)
                       if isinstance(n, (ir.Quant, ir.Comprehension))}
        return self

    def for_domain(self, level: int, domain: ir.Expr) -> _Memo:
        self.lead = None
        self.level = level - 1
        self.inside = {n.slot for n in ir.walk(domain)
                       if isinstance(n, (ir.Quant, ir.Comprehension))}
        return self

    def bind(self, action: ir.Action) -> None:
        self.level_slots = {b.slot: i + 1 for i, b in enumerate(action.binders)}

    def loop_invariant_lead(self, part: ir.WherePart | None,
                            binder: ir.Binder) -> ir.Expr | None:
        """The test that `part` (the first where-part of `binder`'s loop) evaluates first,
        when it is a plain test of outer binders: computed once ahead of the loop, in
        `_c<slot>`, rather than at every item. The rule asks for it at the loop's first
        item whatever happens, so computing it there, when the loop has an item, faults
        only where the rule itself would. None when there is no such test."""
        self.lead = None
        if part is None:
            return None
        lead = part.expr.operand if isinstance(part.expr, ir.Not) else part.expr
        if not isinstance(lead, (ir.And, ir.Or)):
            return None
        while isinstance(lead, (ir.And, ir.Or, ir.Not)):
            lead = lead.operand if isinstance(lead, ir.Not) else lead.left
        if isinstance(lead, ir.Const) or not _cheap(lead) or not self.gen.pure(lead) or \
                self.level_of(lead) >= part.level:
            return None
        self.lead, self.lead_name, self.lead_part = lead, f"_c{binder.slot}", part
        return lead

    def members_lead(self, part: ir.WherePart | None, binder: ir.Binder) -> Frag | None:
        """The set `S` when `part`, the first where-part of `binder`'s loop, is `x in S`
        with x the binder and S a set of scalars that outer binders decide (a memoised
        `_m` set or a constant one): an item outside S fails the part, so a domain that
        shares no item with S lists nothing, and its loop is skipped (`emit_for`). The
        rule asks for S at the loop's first item whatever happens, so computing it ahead
        of the loop, when the loop has an item, faults only where the rule would. The
        part's own test reads the same `_m` variable, plainly: a loop with an item has
        filled it. None when the part is not such."""
        self.members, self.members_part = None, None
        if part is None or not isinstance(part.expr, ir.In) or part.expr.negated:
            return None
        item, coll = part.expr.item, part.expr.collection
        if not (isinstance(item, ir.Local) and item.slot == binder.slot) or \
                binder.type not in _HASHABLE or _element(coll.type) not in _HASHABLE or \
                binder.type == STR and not isinstance(coll, ir.Const):
            return None
        if isinstance(coll, ir.CallBuiltin) and coll.name == "range" and binder.type == INT:
            return None     # the test compares (`ex_In`): a set made of it would count work
        if isinstance(coll, ir.Const):
            if not all(isinstance(v, (int, str, bool, type(None))) for v in coll.value):
                return None
            return F(coll, self.gen.src.constant(frozenset(coll.value), ConstKind.MEMBERS))
        self.for_part(part)
        count = self.count
        found = self.hoist(coll, as_set=True)
        if found is not None:
            plain = F(coll, f"_m{count}") if self.count > count else found
            self.members, self.members_part, self.members_code = coll, part, plain
        return found

    def level_of(self, node: ir.Node) -> int:
        return max((self.level_slots.get(s, 0) for s in ir.locals_read(node)), default=0)

    def hoist(self, node: ir.Expr, as_set: bool = False) -> Frag | None:
        """Code for `node` computed at an outer level, in a `_m` variable filled on first
        use (so a test that short-circuits before it still guards it)."""
        if node is self.lead:
            return F(node, self.lead_name)
        if node is self.members:
            return self.members_code
        if _cheap(node) or not self.gen.pure(node):
            return None
        own = {n.slot for n in ir.walk(node) if isinstance(n, (ir.Quant, ir.Comprehension))}
        if (ir.locals_read(node) - own) & self.inside:
            return None
        level = self.level_of(node)
        if level >= self.level:
            return None
        with self.gen.within(memo=None):
            write: Callable[[ir.Expr], Frag] = getattr(self.gen, "ex_" + type(node).__name__)
            inner = write(node)
        name = f"_m{self.count}"
        self.count += 1
        unset = "_UNSET"
        if as_set and not is_list(_element(node.type)):
            # scalars of a known type hash: a frozenset at once (else `_as_set` tries)
            inner = F(node, "frozenset(" if _element(node.type) in _HASHABLE else "_as_set(",
                      inner, ")")
            unset = "None"          # a set is never none: a cheaper test
        self._insert(level, f"{name} = {unset}")
        return F(node, f"({name} if {name} is not {unset} else ({name} := ", inner, "))")

    def _insert(self, level: int, code: str) -> None:
        """Write a line at the start of a level's loop body (or of the function)."""
        src = self.gen.src
        at = self.resets[level]
        src.emit(self.indents[level], code)
        line = src.lines.pop()
        places = src.places.pop(len(src.lines) + 1, None)
        self.gen._insert(at, [line])
        if places:
            src.places[at + 1] = places
        for k in self.resets:
            if k > level or (k == level and self.resets[k] > at):
                self.resets[k] += 1


def _short_text(node: ir.Expr) -> bool:
    """Is `node` a text written in the rules shorter than limits.TEXT_STEP? Compared with
    it, a text counts no work (the two differ in length, or are short), so the comparison
    is written as it is."""
    return isinstance(node, ir.Const) and isinstance(node.value, str) and \
        len(node.value) < TEXT_STEP


def _empty_list(node: ir.Expr) -> bool:
    """Is `node` the empty list written as a constant (`[]`)?"""
    return (isinstance(node, ir.Const) and isinstance(node.value, (list, tuple))
            and not node.value) or (isinstance(node, ir.ListOf) and not node.items)


_EMPTY_WHEN = {("==", 0): True, ("<=", 0): True, ("<", 1): True,
               ("!=", 0): False, (">", 0): False, (">=", 1): False}
_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _cell_emptiness(n: ir.Compare) -> tuple[ir.Expr, bool] | None:
    """(c, true) for a test that holds when no piece stands on cell c (`len(pieces_at(c))
    == 0`, `pieces_at(c) == []`, `0 == len(pieces_at(c))`, `len(pieces_at(c)) < 1`), (c,
    false) for its opposite (`!= 0`, `> 0`, `>= 1`, `!= []`); else None."""
    for listed, other, op in ((n.left, n.right, n.op), (n.right, n.left, _MIRRORED[n.op])):
        if _empty_list(other) and op in ("==", "!="):
            cell = _pieces_at_argument(listed)
            if cell is not None:
                return cell, op == "=="
        if isinstance(other, ir.Const) and other.value.__class__ is int and \
                isinstance(listed, ir.CallBuiltin) and listed.name == "len":
            cell = _pieces_at_argument(listed.args[0])
            empty = _EMPTY_WHEN.get((op, other.value))
            if cell is not None and empty is not None:
                return cell, empty
    return None


def _never_faults(node: ir.Expr) -> bool:
    """A test of locals and constants by `==`, `!=`, `and`, `or` and `not` alone: it
    cannot fault and reads nothing of the state."""
    return all(isinstance(n, (ir.Local, ir.Const, ir.And, ir.Or, ir.Not)) or
               (isinstance(n, ir.Compare) and n.op in ("==", "!=") and not n.lists)
               for n in ir.walk(node))


def _pieces_at_argument(node: ir.Expr) -> ir.Expr | None:
    """c for `pieces_at(c)`, else None."""
    if isinstance(node, ir.CallBuiltin) and node.name == "pieces_at" and len(node.args) == 1:
        return node.args[0]
    return None


_PIECE_LISTS = frozenset({"pieces", "pieces_at", "pieces_in"})    # of ids, never none


def _piece_list(domain: ir.Expr) -> bool:
    """Is `domain` a call of `pieces(...)`, `pieces_at` or `pieces_in` (ids, never none)?"""
    return isinstance(domain, ir.CallBuiltin) and domain.name in _PIECE_LISTS


def _element(t: Type) -> Type:
    return t[1] if is_list(t) else t


_HASHABLE = (BOOL, CELL, INT, PIECE, SEAT, STR, SYMBOL, KIND, DIR)   # values of these types hash


def _cheap(node: ir.Node) -> bool:
    """Faster to compute again than to memoise: no call, no loop."""
    return not any(isinstance(n, (ir.CallFn, ir.CallBuiltin, ir.Quant, ir.Comprehension,
                                  ir.Text, ir.ListOf))
                   for n in ir.walk(node))


def _fresh(domain: ir.Expr) -> bool:
    return isinstance(domain, (ir.Comprehension, ir.ListOf, ir.Const)) or (
        isinstance(domain, ir.CallBuiltin) and BUILTINS[domain.name].fresh) or (
        isinstance(domain, ir.Quant) and domain.op == "sorted")


TRIGGERS = ("on enter", "")     # the `on enter` triggers, as one unit of the call graph


def _calling_themselves(prog: ir.Program) -> set[tuple[str, str]]:
    """("fn"|"def", name) of every fn and def that can call itself, directly or through
    other fns and defs, or through a `move` whose `on enter` triggers call it again (then
    TRIGGERS too). typed.py's `fn_cycles` reads the same set."""
    calls: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def called(roots: Iterable[ir.Node]) -> set[tuple[str, str]]:
        found: set[tuple[str, str]] = set()
        for n in (n for root in roots for n in ir.walk(root)):
            if isinstance(n, (ir.CallFn, ir.CallDef)):
                found.add(("fn" if isinstance(n, ir.CallFn) else "def", n.name))
            elif isinstance(n, ir.Move) and prog.triggers:
                found.add(TRIGGERS)
        return found
    tables: tuple[tuple[str, Mapping[str, ir.Fn | ir.Def]], ...] = (
        ("fn", prog.fns), ("def", prog.defs))
    for kind, table in tables:
        for name, node in table.items():
            calls[(kind, name)] = called([node.body] if isinstance(node, ir.Fn) else node.body)
    if prog.triggers:
        calls[TRIGGERS] = called([part for t in prog.triggers
                                  for part in (*([t.where] if t.where else []), *t.body)])
    cyclic: set[tuple[str, str]] = set()
    for start in calls:
        seen: set[tuple[str, str]] = set()
        stack = list(calls[start])
        while stack:
            at = stack.pop()
            if at == start:
                cyclic.add(start)
                break
            if at not in seen and at in calls:
                seen.add(at)
                stack.extend(calls[at])
    return cyclic


def _reads_only_cell(where: ir.Expr, fns: Mapping[str, ir.Fn]) -> bool:
    """Does a trigger's condition depend on nothing but the cell entered (slot 2), counting
    no work (a quantifier or comprehension counts its list each time the condition is
    tested: a move past its cells would not count it)?"""
    return ir.locals_read(where) <= {2} and reads(where, fns) == 0 and _pure_in(where, set())\
        and not any(isinstance(n, (ir.CallFn, ir.Quant, ir.Comprehension))
                    for n in ir.walk(where))


def _piece_slots(types: Sequence[Type], first: int) -> list[int]:
    return [first + i for i, t in enumerate(types) if t == PIECE]


_TEMPLATE_FIELD = re.compile(r"\{(\w+)\}")


def _impure_fns(fns: Mapping[str, ir.Fn]) -> set[str]:
    """Names of user fns that roll dice or shuffle, directly or through other fns."""
    impure: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, fn in fns.items():
            if name not in impure and not _pure_in(fn.body, impure):
                impure.add(name)
                changed = True
    return impure


def _pure_in(node: ir.Node, impure: set[str]) -> bool:
    for n in ir.walk(node):
        if isinstance(n, ir.CallBuiltin) and BUILTINS[n.name].random:
            return False
        if isinstance(n, ir.CallFn) and n.name in impure:
            return False
    return True


# ----- what end rules read -------------------------------------------------------------------


def reads(node: ir.Node, fns: Mapping[str, ir.Fn], seen: set[str] | None = None) -> int:
    """The state categories an expression reads (through fns too); ALWAYS when it rolls
    dice or reads something not tracked."""
    seen = set() if seen is None else seen
    mask = 0
    for n in ir.walk(node):
        if isinstance(n, ir.PieceField):
            mask |= {"cell": CELLS, "zone": CELLS, "owner": PIECES, "kind": PIECES}.get(n.name, PIECE_VARS)
        elif isinstance(n, ir.PieceStat):
            mask |= PIECES
        elif isinstance(n, ir.SeatVar):
            mask |= SEAT_VARS
        elif isinstance(n, ir.Global):
            mask |= GLOBALS
        elif isinstance(n, ir.StateValue):
            mask |= ALWAYS if n.what in ("decision_number", "passes") else FLOW
        elif isinstance(n, ir.CallFn) and n.name not in seen:
            seen.add(n.name)
            mask |= reads(fns[n.name].body, fns, seen)
        elif isinstance(n, ir.CallBuiltin):
            row = BUILTINS[n.name]
            mask |= ALWAYS if row.random else row.reads
    return mask


_EVERY_CALL = [0]       # > 0: `calling_every_fn` blocks open


def every_call_now() -> bool:
    """Is a `calling_every_fn` block open?"""
    return _EVERY_CALL[0] > 0


@contextmanager
def calling_every_fn() -> Iterator[None]:
    """In the `with` block, code generated calls every fn it calls: no small fn is written
    in place and no call is answered without it (`Generator.ex_CallFn`). The games are the
    same; a line tracer (`tracing.RuleTrace`) then sees a fn run exactly when it runs, not
    wherever the line that would call it runs (`and`/`or` may skip the call)."""
    _EVERY_CALL[0] += 1
    try:
        yield
    finally:
        _EVERY_CALL[0] -= 1


def generate(prog: ir.Program, file: str,
             watched: int) -> tuple[str, dict[UnitKey, Unit], Source]:
    """(source text, units by key, Source) of a checked program; `watched` are the state
    categories whose changes assignments must mark in `rt.changed`."""
    gen = Generator(prog, file)
    units = gen.module(watched)
    return gen.src.text(), units, gen.src


def generate_expression(prog: ir.Program, expr: ir.Expr, nparams: int, name: str,
                        file: str) -> tuple[str, Source]:
    """(source text, Source) of one function `name(S, me, v1..vn)` returning `expr`. One
    that calls a fn with an argument no call of the rules gives it (a scenario's
    `twice(total * 3)`) is written with every sum checked, after a copy of each fn it
    reaches, checked so too, which it calls in place of the game's (their bounds, worked out
    from the rules' calls, do not hold for it: magnitude.py); so a sum past
    limits.MAX_SUM faults where it would in a rule."""
    gen = Generator(prog, file)
    if gen.magnitudes.calls_beyond(expr):
        gen.magnitudes = Unbounded(prog)
        for fn in _fns_reached(prog, expr):
            gen.fn_unit(fn)
    gen.function(name, ["v%d" % (i + 1) for i in range(nparams)], expr,
                 lambda: gen.return_(expr))
    return gen.src.text(), gen.src


def _fns_reached(prog: ir.Program, expr: ir.Expr) -> list[ir.Fn]:
    """The fns `expr` calls, and those they call, and so on."""
    found: dict[str, ir.Fn] = {}
    todo: list[ir.Node] = [expr]
    while todo:
        for n in ir.walk(todo.pop()):
            if isinstance(n, ir.CallFn) and n.name not in found:
                found[n.name] = prog.fns[n.name]
                todo.append(found[n.name])
    return list(found.values())


def builtin_names() -> dict[str, Callable[..., Any]]:
    """Module names of the built-in implementations (`B_name`)."""
    return {f"B_{name}": b.impl for name, b in BUILTINS.items() if b.impl is not None}


def _loops_at_top(expr: ir.Expr) -> bool:
    """Does `Generator.return_` write `expr` as a loop (a quantifier, possibly negated or
    after `and`/`or`)?"""
    if isinstance(expr, ir.Not):
        expr = expr.operand
    if isinstance(expr, (ir.And, ir.Or)):
        return _loops_at_top(expr.right)
    return isinstance(expr, ir.Quant) and expr.op in ("exists", "all", "first")
