"""The resolved program: what the checker hands to the code generator.

Every name is resolved (a local slot, a global, a piece or seat variable, a table column, a
built-in), every expression carries its static type and source span, and constant
sub-expressions are folded. Nodes are frozen record classes (declared as attrs classes would
be, but made by `records`: attrs' behaviour without its start-up cost); equality ignores
spans. Nothing here refers to the Lark tree or the AST: the code generator and the engine see
only this.

Locals of a code unit are numbered slots; slot 0 is always `me` (the seat the code runs
for). A unit's parameters take the slots after it, in order.
"""

from __future__ import annotations

from typing import Any

from . import records


def node(cls):
    """A resolved node: frozen, with keyword-only `type` (expressions) and `span`."""
    cls.__annotations__["span"] = "object"
    cls.span = records.field(default=None, eq=False, repr=False, kw_only=True)
    return records.frozen(cls)


def expression(cls):
    cls.__annotations__["type"] = "object"
    cls.type = records.field(kw_only=True)
    return node(cls)


# ----- expressions ---------------------------------------------------------------------

@expression
class Const:
    """A value known before play: a literal, parameter, symbol, kind, seat or cell."""
    value: object

@expression
class Local:
    """A local slot: `me`, a parameter, a binder, a `let` or a loop variable."""
    slot: int
    name: str

@expression
class Global:
    """A global variable (`var name`)."""
    name: str

@expression
class StateValue:
    """A value of the position: current, deciding, current_phase, turn_number, seats."""
    what: str

@expression
class PieceField:
    """A piece's property (owner, cell, kind) or variable (`var piece.x`)."""
    obj: object
    name: str

@expression
class PieceStat:
    """A column of the kinds table, read through a piece's kind."""
    obj: object
    name: str

@expression
class KindStat:
    """A column of the kinds table, read from a kind."""
    obj: object
    name: str

@expression
class SeatVar:
    """A seat variable (`var seat.x`)."""
    obj: object
    name: str

@expression
class ListOf:
    items: tuple

@expression
class Comprehension:
    """`[expr for name in domain where cond]`; `name` is bound in `slot`."""
    slot: int
    name: str
    domain: object
    where: object
    expr: object

@expression
class Quant:
    """`op(name in domain where cond : value)`; op in count, sum, exists, all, min_of,
    max_of, first, sorted."""
    op: str
    slot: int
    name: str
    domain: object
    where: object
    value: object

@expression
class CallFn:
    """A call of a user `fn`."""
    name: str
    args: tuple

@expression
class CallBuiltin:
    """A call of a built-in function (see builtins.py)."""
    name: str
    args: tuple

@expression
class Text:
    """A value written as text (`text(x)`, a `log`, a string join)."""
    expr: object

@expression
class Binary:
    """Arithmetic (+ - * / %) on numbers; `+` also joins lists."""
    op: str
    left: object
    right: object

@expression
class Concat:
    """`+` on text."""
    left: object
    right: object

@expression
class Compare:
    """== != < <= > >=; `lists` when either side is a list (compared element-wise)."""
    op: str
    left: object
    right: object
    lists: bool

@expression
class In:
    item: object
    collection: object
    negated: bool

@expression
class And:
    left: object
    right: object

@expression
class Or:
    left: object
    right: object

@expression
class Not:
    operand: object

@expression
class Neg:
    operand: object

@expression
class Cond:
    """`if cond then a else b`."""
    cond: object
    then: object
    otherwise: object


# ----- places and statements ------------------------------------------------------------

@node
class LocalPlace:
    slot: int

@node
class GlobalPlace:
    name: str

@node
class PieceVarPlace:
    obj: object
    name: str

@node
class SeatVarPlace:
    obj: object
    name: str

@node
class Assign:
    """`place op expr [until turn of seat]`; op is =, += or -=."""
    place: object
    op: str
    expr: object
    until: object

@node
class CallDef:
    name: str
    args: tuple

@node
class If:
    cond: object
    then: tuple
    otherwise: tuple

@node
class For:
    slot: int
    domain: object
    where: object
    body: tuple

@node
class Let:
    slot: int
    expr: object

@node
class Move:
    """Move a piece cell by cell along a path, running `on enter` triggers."""
    piece: object
    path: object

@node
class PlaceAt:
    piece: object
    cell: object

@node
class Give:
    piece: object
    seat: object

@node
class Remove:
    piece: object

@node
class Create:
    kind: object
    owner: object
    cell: object

@node
class Goto:
    """Enter a phase; `push` keeps the current one below it (a `call`)."""
    phase: str
    args: tuple
    seat: object
    push: bool

@node
class Put:
    """`put PIECE into ZONE [of SEAT]` (seat None for a shared zone)."""
    piece: object
    zone: str
    seat: object

@node
class CallEach:
    """`call P(args) for each x in SEATS where ...`: P runs for each seat in turn; `rule`
    is the index of the where-condition in `Program.each_rules` (None without one)."""
    phase: str
    args: tuple
    seats: object
    rule: object

@node
class Return:
    pass

@node
class Stop:
    pass

@node
class Win:
    seat: object

@node
class Lose:
    seat: object

@node
class Draw:
    pass

@node
class Log:
    text: object

@node
class Shuffle:
    place: object


# ----- code units -------------------------------------------------------------------------

@node
class Fn:
    """`fn name(params) = body`; params are slots 1..n, typed by the first call."""
    name: str
    params: tuple
    param_types: tuple
    body: object
    type: object

@node
class Def:
    """`def name(params) { body }`; params are slots 1..n, typed by the first call."""
    name: str
    params: tuple
    param_types: tuple
    body: tuple

@node
class Binder:
    """An action parameter `name in domain`; `type` is the element type."""
    name: str
    slot: int
    domain: object
    text: str
    type: object

@node
class WherePart:
    """One conjunct of an action's `where`, tested once `level` binders are bound."""
    expr: object
    level: int
    text: str

@node
class Action:
    name: str
    index: int
    binders: tuple
    where_parts: tuple
    body: tuple

@node
class Phase:
    """mode: None, 'turn', 'simultaneous' or 'secret'; params are slots 1..n."""
    name: str
    mode: object
    params: tuple
    on_enter: tuple
    on_reveal: tuple
    on_resume: tuple
    actions: tuple
    auto: bool = False

@node
class Trigger:
    """`on enter(piece, cell) where cond`: piece in slot 1, cell in slot 2."""
    where: object
    body: tuple

@node
class OutHook:
    """`on out(s)`: s in slot 1."""
    body: tuple

@node
class EndRule:
    """`win|lose|draw when expr`; for win and lose `seat` is slot 1 (and `me`)."""
    kind: str
    expr: object

@node
class Invariant:
    """`invariant "name": expr`: a condition that must hold after every decision."""
    name: str
    expr: object

@node
class Rule:
    """A condition or value with named parameters in slots 1..n: visibility (`viewer`,
    then `owner` and `it`), `show` and `hide` rules."""
    params: tuple
    expr: object


@records.define
class Variable:
    """A declared variable: its initial value, type and visibility rule (or None)."""
    name: str
    init: object
    type: object
    visible: object = None
    span: object = None
    column: object = None       # a piece variable that starts as its kind's value here


@records.define
class Zone:
    """A zone off the board; `visible` (a Rule of viewer and owner, or None) says who may
    identify the pieces in it."""
    name: str
    per_seat: bool
    visible: object = None
    span: object = None


@records.define
class Program:
    """A checked game: tables and constants, and every code unit resolved."""
    game_name: str = "game"
    seats: list = records.Factory(list)
    symbols: set = records.Factory(set)
    params: dict = records.Factory(dict)        # name -> (value, type)
    board: object = None
    terrain: dict = records.Factory(dict)       # name -> (tuple of cells, symbol)
    kind_columns: dict = records.Factory(dict)  # column -> type
    kinds: dict = records.Factory(dict)         # kind -> {column: value}
    vars: dict = records.Factory(lambda: {"global": {}, "seat": {}, "piece": {}})
    fns: dict = records.Factory(dict)           # name -> Fn
    defs: dict = records.Factory(dict)          # name -> Def
    phases: dict = records.Factory(dict)        # name -> Phase
    triggers: list = records.Factory(list)
    outs: list = records.Factory(list)
    concedes: list = records.Factory(list)      # `on concede(s)` hooks (OutHook nodes)
    end_rules: list = records.Factory(list)
    setup: tuple = ()
    setup_span: object = None                   # the `setup` declaration
    shows: dict = records.Factory(dict)         # 'piece' / 'row' -> Rule
    hide: object = None                         # Rule or None
    each_rules: list = records.Factory(list)    # the where-conditions of `call ... for each`
    zones: dict = records.Factory(dict)         # name -> Zone
    docs: dict = records.Factory(dict)          # (phase, action or None) -> doc string
    invariants: list = records.Factory(list)    # Invariant nodes
    stats: dict = records.Factory(dict)         # `stat` name -> Rule (no params, or a seat)


# ----- walking ---------------------------------------------------------------------------

def children(node):
    """The nodes directly below `node` (expressions, statements, places)."""
    for name in records.fields(type(node)):
        if name in ("span", "type"):
            continue
        value = getattr(node, name)
        if isinstance(value, tuple):
            for item in value:
                if isinstance(item, records.Record):
                    yield item
        elif isinstance(value, records.Record):
            yield value


def walk(node):
    """`node` and every node below it."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def locals_read(node):
    """Local slots an expression reads (a fn call reads `me`, slot 0)."""
    found = set()
    for n in walk(node):
        if isinstance(n, Local):
            found.add(n.slot)
        elif isinstance(n, CallFn):
            found.add(0)
    return found


# ----- the one constant evaluator ----------------------------------------------------------

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def fold_binary(op: str, a: Any, b: Any) -> Any:
    """The value of `a op b` for constants: `+ - * / %` on numbers (`+` also joins lists)
    and the comparisons `== != < <= > >=`; None for a division by zero (the caller reports
    it where it knows the place). The checker folds constant sub-expressions, works out
    parameters and tables, and tests `holes(c) where` conditions with this one function."""
    if op == "+":
        if isinstance(a, (list, tuple)):
            return list(a) + list(b)
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
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
