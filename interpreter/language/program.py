"""The resolved program: what the checker hands to the code generator.

Every name is resolved (a local slot, a global, a piece or seat variable, a table column, a
built-in), every expression carries its static type and source span, and constant
sub-expressions are folded. Nodes are frozen attrs classes derived from `tree.Node`
(expressions from `Expr`, which adds the static `type`; statements from `Stmt`; assignable
places from `Place`); equality ignores spans. Nothing here refers to the Lark tree or the AST: the code generator and the engine see
only this.

Locals of a code unit are numbered slots; slot 0 is always `me` (the seat the code runs
for). A unit's parameters take the slots after it, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

import attrs

from .limits import MAX_FOLDED, MAX_LIST, MAX_NUMBER, MAX_TEXT
from .look import Look
from .references import References
from .tree import Node, Span, children, walk
from .types import BOOL, Type

__all__ = ["Node", "Expr", "Place", "Stmt", "children", "walk"]


@attrs.frozen
class Expr(Node):
    """The base of every resolved expression: `type` is its static type."""

    type: Type = attrs.field(kw_only=True)


@attrs.frozen
class Place(Node):
    """The base of an assignable place (the left side of `=`, `+=`, `-=`, a `shuffle`)."""


@attrs.frozen
class Stmt(Node):
    """The base of every resolved statement."""


# ----- expressions ---------------------------------------------------------------------

@attrs.frozen
class Const(Expr):
    """A value known before play: a literal, parameter, symbol, kind, seat or cell."""
    value: Any

@attrs.frozen
class Local(Expr):
    """A local slot: `me`, a parameter, a binder, a `let` or a loop variable."""
    slot: int
    name: str

@attrs.frozen
class Global(Expr):
    """A global variable (`var name`)."""
    name: str

@attrs.frozen
class StateValue(Expr):
    """A value of the position: current, deciding, current_phase, turn_number,
    decision_number, seats, winners."""
    what: str

@attrs.frozen
class PieceField(Expr):
    """A piece's property (owner, cell, kind) or variable (`var piece.x`)."""
    obj: Expr
    name: str

@attrs.frozen
class PieceStat(Expr):
    """A column of the kinds table, read through a piece's kind."""
    obj: Expr
    name: str

@attrs.frozen
class KindStat(Expr):
    """A column of the kinds table, read from a kind."""
    obj: Expr
    name: str

@attrs.frozen
class SeatVar(Expr):
    """A seat variable (`var seat.x`)."""
    obj: Expr
    name: str

@attrs.frozen
class ListOf(Expr):
    items: tuple[Expr, ...]

@attrs.frozen
class Comprehension(Expr):
    """`[expr for name in domain where cond]`; `name` is bound in `slot`. With `flatten`,
    `expr` is the comprehension of the next `for` clause, whose lists are joined."""
    slot: int
    name: str
    domain: Expr
    where: Expr | None
    expr: Expr
    flatten: bool = False

@attrs.frozen
class Quant(Expr):
    """`op(name in domain where cond : value)`; op in count, sum, exists, all, min_of,
    max_of, first, sorted."""
    op: str
    slot: int
    name: str
    domain: Expr
    where: Expr | None
    value: Expr | None

@attrs.frozen
class CallFn(Expr):
    """A call of a user `fn`."""
    name: str
    args: tuple[Expr, ...]

@attrs.frozen
class CallBuiltin(Expr):
    """A call of a built-in function (see builtins.py)."""
    name: str
    args: tuple[Expr, ...]

@attrs.frozen
class Text(Expr):
    """A value written as text (`text(x)`, a `log`, a string join)."""
    expr: Expr

@attrs.frozen
class Binary(Expr):
    """Arithmetic (+ - * / %) on numbers; `+` also joins lists. `length`: the length of a
    joined list that the rule file fixes (lists written out, constant lists, `range` of
    constants and these joined), else None."""
    op: str
    left: Expr
    right: Expr
    length: int | None = attrs.field(default=None, kw_only=True)

@attrs.frozen
class Concat(Expr):
    """`+` on text."""
    left: Expr
    right: Expr

@attrs.frozen
class Compare(Expr):
    """== != < <= > >=; `lists` when either side is a list (compared element-wise)."""
    op: str
    left: Expr
    right: Expr
    lists: bool

@attrs.frozen
class In(Expr):
    item: Expr
    collection: Expr
    negated: bool

@attrs.frozen
class And(Expr):
    left: Expr
    right: Expr

@attrs.frozen
class Or(Expr):
    left: Expr
    right: Expr

@attrs.frozen
class Not(Expr):
    operand: Expr

@attrs.frozen
class Neg(Expr):
    operand: Expr

@attrs.frozen
class Cond(Expr):
    """`if cond then a else b`."""
    cond: Expr
    then: Expr
    otherwise: Expr

@attrs.frozen
class FnBlock(Expr):
    """A fn's block (only ever a `Fn.body`): statements whose every path ends in a
    `Result`; `type` joins the results' types."""
    body: tuple[Stmt, ...]


# ----- places and statements ------------------------------------------------------------

@attrs.frozen
class LocalPlace(Place):
    slot: int

@attrs.frozen
class GlobalPlace(Place):
    name: str

@attrs.frozen
class PieceVarPlace(Place):
    obj: Expr
    name: str

@attrs.frozen
class SeatVarPlace(Place):
    obj: Expr
    name: str

@attrs.frozen
class Assign(Stmt):
    """`place op expr [until turn of seat]`; op is =, += or -=."""
    place: Place
    op: str
    expr: Expr
    until: Expr | None

@attrs.frozen
class CallDef(Stmt):
    name: str
    args: tuple[Expr, ...]

@attrs.frozen
class If(Stmt):
    cond: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]

@attrs.frozen
class For(Stmt):
    slot: int
    domain: Expr
    where: Expr | None
    body: tuple[Stmt, ...]

@attrs.frozen
class Let(Stmt):
    slot: int
    expr: Expr

@attrs.frozen
class Move(Stmt):
    """Move a piece cell by cell along a path, running `on enter` triggers."""
    piece: Expr
    path: Expr

@attrs.frozen
class PlaceAt(Stmt):
    piece: Expr
    cell: Expr

@attrs.frozen
class Give(Stmt):
    piece: Expr
    seat: Expr

@attrs.frozen
class Remove(Stmt):
    piece: Expr

@attrs.frozen
class Create(Stmt):
    kind: Expr
    owner: Expr
    cell: Expr

@attrs.frozen
class Goto(Stmt):
    """Enter a phase; `push` keeps the current one below it (a `call`)."""
    phase: str
    args: tuple[Expr, ...]
    seat: Expr | None
    push: bool

@attrs.frozen
class Put(Stmt):
    """`put PIECE into ZONE [of SEAT]` (seat None for a shared zone)."""
    piece: Expr
    zone: str
    seat: Expr | None

@attrs.frozen
class CallEach(Stmt):
    """`call P(args) for each x in SEATS where ...`: P runs for each seat in turn; `rule`
    is the index of the where-condition in `Program.each_rules` (None without one)."""
    phase: str
    args: tuple[Expr, ...]
    seats: Expr
    rule: int | None

@attrs.frozen
class Return(Stmt):
    pass

@attrs.frozen
class Change(Stmt):
    """`change PIECE to KIND`."""
    piece: Expr
    kind: Expr

@attrs.frozen
class Leave(Stmt):
    """`leave`: the def running ends."""

@attrs.frozen
class Result(Stmt):
    """`return VALUE` in a fn's block."""
    expr: Expr

@attrs.frozen
class Stop(Stmt):
    pass

@attrs.frozen
class Win(Stmt):
    seat: Expr

@attrs.frozen
class Lose(Stmt):
    seat: Expr

@attrs.frozen
class Draw(Stmt):
    pass

@attrs.frozen
class Log(Stmt):
    text: Expr

@attrs.frozen
class Shuffle(Stmt):
    place: Place


# ----- code units -------------------------------------------------------------------------

@attrs.frozen
class Fn(Node):
    """`fn name(params) = body` (or `{ ... }`, a `FnBlock`); params are slots 1..n, typed
    by the first call."""
    name: str
    params: tuple[str, ...]
    param_types: tuple[Type, ...]
    body: Expr
    type: Type

@attrs.frozen
class Def(Node):
    """`def name(params) { body }`; params are slots 1..n, typed by the first call."""
    name: str
    params: tuple[str, ...]
    param_types: tuple[Type, ...]
    body: tuple[Stmt, ...]

@attrs.frozen
class Binder(Node):
    """An action parameter `name in domain`; `type` is the element type; `by_cell`: a
    piece the action's text writes by the cell it stands on (`by cell`), not its label."""
    name: str
    slot: int
    domain: Expr
    text: str
    type: Type
    by_cell: bool = False

@attrs.frozen
class WherePart(Node):
    """One conjunct of an action's `where`, tested once `level` binders are bound."""
    expr: Expr
    level: int
    text: str

@attrs.frozen
class Action(Node):
    name: str
    index: int
    binders: tuple[Binder, ...]
    where_parts: tuple[WherePart, ...]
    body: tuple[Stmt, ...]

@attrs.frozen
class Phase(Node):
    """mode: None, 'turn', 'simultaneous' or 'secret'; params are slots 1..n, of the types
    param_types (ANY for a phase no `goto` enters)."""
    name: str
    mode: str | None
    params: tuple[str, ...]
    on_enter: tuple[Stmt, ...]
    on_reveal: tuple[Stmt, ...]
    on_resume: tuple[Stmt, ...]
    actions: tuple[Action, ...]
    auto: bool = False
    on_no_action: tuple[Stmt, ...] | None = None    # what a seat without a legal action does
    param_types: tuple[Type, ...] = ()

@attrs.frozen
class Trigger(Node):
    """`on enter(piece, cell) where cond`: piece in slot 1, cell in slot 2."""
    where: Expr | None
    body: tuple[Stmt, ...]

@attrs.frozen
class OutHook(Node):
    """`on out(s)`: s in slot 1."""
    body: tuple[Stmt, ...]

@attrs.frozen
class EndRule(Node):
    """`win|lose|draw when expr`. It reads the first `shared` values of its end block
    (`block`, an index into `Program.end_lets`) in slots 1..shared; for win and lose `seat`
    is the slot after them (and `me`)."""
    kind: str
    expr: Expr
    block: int = 0
    shared: int = 0

@attrs.frozen
class EndLet(Node):
    """A `let NAME = expr` of an end block: a value computed once per end check, for no
    seat, in slot `slot` (1, 2, ...: the block's lets in order; it reads those before it)."""
    name: str
    slot: int
    expr: Expr

@attrs.frozen
class Invariant(Node):
    """`invariant "name": expr`: a condition that must hold after every decision."""
    name: str
    expr: Expr

@attrs.frozen
class Rule(Node):
    """A condition or value with named parameters in slots 1..n: visibility (`viewer`,
    then `owner` and `it`), `show` and `hide` rules."""
    params: tuple[str, ...]
    expr: Expr


@attrs.define
class Variable:
    """A declared variable: its initial value, type and visibility rule (or None)."""
    name: str
    init: Any
    type: Type
    visible: Rule | None = None
    span: Span | None = None
    column: str | None = None       # a piece variable that starts as its kind's value here


@attrs.define
class Zone:
    """A zone off the board; `visible` (a Rule of viewer and owner, or None) says who may
    identify the pieces in it."""
    name: str
    per_seat: bool
    visible: Rule | None = None
    span: Span | None = None


@attrs.define
class Sight:
    """A kinds table's `visible to` condition (a Rule of viewer, owner and it): a seat for
    which it is false does not see a piece of these `kinds` at all."""
    kinds: tuple[str, ...]
    rule: Rule
    span: Span | None = None


def _no_vars() -> dict[str, dict[str, Variable]]:
    return {"global": {}, "seat": {}, "piece": {}}


@attrs.define
class Program:
    """A checked game: tables and constants, and every code unit resolved."""
    game_name: str = "game"
    seats: list[str] = attrs.Factory(list)
    symbols: set[str] = attrs.Factory(set)
    params: dict[str, tuple[Any, Type]] = attrs.Factory(dict)    # name -> (value, type)
    board: Any = None                           # a `boards.Board`
    terrain: dict[str, tuple[tuple[int, ...], str]] = attrs.Factory(dict)  # (cells, symbol)
    kind_columns: dict[str, Type] = attrs.Factory(dict)          # column -> type
    kinds: dict[str, dict[str, Any]] = attrs.Factory(dict)       # kind -> {column: value}
    vars: dict[str, dict[str, Variable]] = attrs.Factory(_no_vars)   # scope -> name -> var
    fns: dict[str, Fn] = attrs.Factory(dict)
    defs: dict[str, Def] = attrs.Factory(dict)
    phases: dict[str, Phase] = attrs.Factory(dict)
    triggers: list[Trigger] = attrs.Factory(list)
    outs: list[OutHook] = attrs.Factory(list)
    concedes: list[OutHook] = attrs.Factory(list)   # `on concede(s)` hooks
    end_rules: list[EndRule] = attrs.Factory(list)
    end_lets: list[list[EndLet]] = attrs.Factory(list)   # per end block, its shared values
    setup: tuple[Stmt, ...] = ()
    setup_span: Span | None = None              # the `setup` declaration
    shows: dict[str, Rule] = attrs.Factory(dict)    # 'piece' / 'row' -> Rule
    look: Look = attrs.Factory(Look)            # the key's notes and the shapes' files
    hide: Rule | None = None
    sights: list[Sight] = attrs.Factory(list)   # kinds tables' `visible to`, in file order
    each_rules: list[Rule] = attrs.Factory(list)    # the where-conditions of `call ... for each`
    zones: dict[str, Zone] = attrs.Factory(dict)
    docs: dict[tuple[str, str | None], str] = attrs.Factory(dict)   # (phase, action) -> doc
    invariants: list[Invariant] = attrs.Factory(list)
    stats: dict[str, Rule] = attrs.Factory(dict)    # `stat` name -> Rule (no params, or a seat)
    payoff: Rule | None = None                  # `payoff(s) = ...`: a seat's return at the end
    references: References = attrs.Factory(References)  # each name -> its declaration


# ----- walking ---------------------------------------------------------------------------

def locals_read(node: Node) -> set[int]:
    """Local slots an expression reads (a fn call reads `me`, slot 0)."""
    found: set[int] = set()
    for n in walk(node):
        if isinstance(n, Local):
            found.add(n.slot)
        elif isinstance(n, CallFn):
            found.add(0)
    return found


def rule_roots(prog: Program) -> list[Node]:
    """Every node of `prog` that rule code hangs from: phases, fns, defs, setup, triggers,
    outs, concessions, end rules and their shared values, `each` conditions, zones'
    visibility and the payoff."""
    roots: list[Node] = [*prog.phases.values(), *prog.fns.values(), *prog.defs.values(),
                         *prog.setup, *prog.triggers, *prog.outs, *prog.concedes,
                         *prog.end_rules, *(let for lets in prog.end_lets for let in lets),
                         *prog.each_rules, *(z.visible for z in prog.zones.values()
                                             if z.visible is not None)]
    if prog.payoff is not None:
        roots.append(prog.payoff)
    return roots


def truth_tested(nodes: Iterable[Node]) -> frozenset[int]:
    """Ids of the true/false expressions among `nodes`' parts whose truth alone is read:
    an `if`'s, a where's, an end rule's or a rule's, an operand of `and`, `or` or `not`, the
    test of `exists` and `all` (the engines may give such a test as any truthy value)."""
    found: list[Expr | None] = []
    for n in nodes:
        if isinstance(n, (If, Cond)):
            found.append(n.cond)
        elif isinstance(n, (And, Or)):
            found += (n.left, n.right)
        elif isinstance(n, Not):
            found.append(n.operand)
        elif isinstance(n, (WherePart, EndRule, Rule)):
            found.append(n.expr)
        if isinstance(n, (For, Comprehension, Trigger, Quant)):
            found.append(n.where)
        if isinstance(n, Quant) and n.op in ("exists", "all"):
            found.append(n.value)
    return frozenset(id(x) for x in found if x is not None and x.type == BOOL)


# ----- the one constant evaluator ----------------------------------------------------------

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class Oversized(ValueError):
    """A constant past the limits (limits.MAX_LIST, MAX_NUMBER, MAX_TEXT): the checker
    reports it at the expression that made it."""


def loop_counts(domain: Expr, fns: dict[str, Fn],
                seen: frozenset[str] = frozenset()) -> bool:
    """Does a loop over `domain` count its length as work (limits.MAX_WORK), on both
    backends? Not a comprehension's, which counted its own domain (nor a fn's whose body is
    one, nor an if/else's whose branches both are). A constant list's and a list written
    out count too: the rule file fixes each one's size, but not how many loops over them
    nest (fns calling fns), so uncounted they could run for hours."""
    if isinstance(domain, Comprehension):
        return False
    if isinstance(domain, Cond):
        return loop_counts(domain.then, fns, seen) or loop_counts(domain.otherwise, fns, seen)
    if isinstance(domain, CallFn) and domain.name not in seen:
        body = fns[domain.name].body
        return isinstance(body, FnBlock) or loop_counts(body, fns, seen | {domain.name})
    return True


def joined_length(a: int, b: int) -> int:
    """The length of lists of lengths `a` and `b` joined; Oversized past limits.MAX_LIST."""
    if a + b > MAX_LIST:
        raise Oversized(f"joining lists of {a} and {b} elements: a list holds at most "
                        f"{MAX_LIST:,}")
    return a + b


def known_length(expr: Expr) -> int | None:
    """The length of the list `expr` gives when the rule file fixes it (see Binary.length),
    else None."""
    if isinstance(expr, Const):
        return len(expr.value) if isinstance(expr.value, (list, tuple)) else None
    if isinstance(expr, ListOf):
        return len(expr.items)
    if isinstance(expr, Binary):
        return expr.length
    if isinstance(expr, CallBuiltin) and expr.name == "range":
        ends = [arg.value for arg in expr.args if isinstance(arg, Const)]
        if len(ends) == 2 and all(type(end) is int for end in ends):
            first, last = cast(list[int], ends)
            return max(0, last - first + 1)
    return None


_FOLDED: ContextVar[list[int] | None] = ContextVar("gdl_folded", default=None)
"""The list elements and text characters `fold_binary` has joined in the check under way
(`folding`); None outside one."""


@contextmanager
def folding() -> Iterator[None]:
    """The constants `fold_binary` joins while this runs (one check of a rule file) hold at
    most limits.MAX_FOLDED elements and characters in all: each join makes a new list or
    text, so a file of a few kB joining a list of 524,288 elements again and again held
    gigabytes before it was checked."""
    token = _FOLDED.set([0])
    try:
        yield
    finally:
        _FOLDED.reset(token)


def _spend(size: int) -> None:
    spent = _FOLDED.get()
    if spent is None:
        return
    spent[0] += size
    if spent[0] > MAX_FOLDED:
        raise Oversized(f"the constants this rule file joins hold more than {MAX_FOLDED:,} "
                        "list elements and text characters in all (each list or text "
                        "joined with '+' counts whole)")


def _held(value: int) -> int:
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise Oversized(f"a number of about {int(value.bit_length() * 0.30103) + 1} digits: "
                        f"a constant is at most {MAX_NUMBER:,} either way")
    return value


def fold_binary(op: str, a: Any, b: Any) -> Any:
    """The value of `a op b` for constants: `+ - * / %` on numbers (`+` also joins lists
    and texts) and the comparisons `== != < <= > >=`; None for a division by zero (the
    caller reports it where it knows the place). The checker folds constant
    sub-expressions, works out parameters and tables, and tests `holes(c) where` conditions
    with this one function. A result past the limits raises Oversized: constants that
    multiply or join one another cannot grow without end while the file is checked."""
    if op == "+":
        if isinstance(a, (list, tuple)):
            _spend(joined_length(len(a), len(b)))
            return list(a) + list(b)
        if isinstance(a, str):
            if len(a) + len(b) > MAX_TEXT:
                raise Oversized(f"a text of {len(a) + len(b):,} characters: a constant text "
                                f"is at most {MAX_TEXT:,} long")
            _spend(len(a) + len(b))
            return a + b
        return _held(a + b)
    if op == "-":
        return _held(a - b)
    if op == "*":
        return _held(a * b)
    if op in "/%":
        if b == 0:
            return None
        return a // b if op == "/" else a % b
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    raise ValueError(f"not a binary operator: {op!r}")
