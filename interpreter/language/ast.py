"""AST of the gdl language: frozen attrs nodes built by the parser from the Lark tree.

Every node derives from `tree.Node`: it carries a `span` (file, line, column) that is
excluded from equality, so two parses of the same text compare equal wherever they came from.
Expressions derive from `Expr`, statements from `Stmt`, declarations from `Decl`. Names follow
the grammar: rule `phase_decl` builds `PhaseDecl`. Children are tuples; `walk` and `children`
(from `tree`) find the nodes below a node.

Every name a node holds that declares or refers to something has the exact span of the name
as written beside it, named after the field: `name` -> `name_span`, `names` ->
`name_spans` (one a name), `params` -> `param_spans`, `phase` -> `phase_span`. Like `span`
they are keyword-only and left out of equality and repr. (A `Name` is its own name's span.)
The checker reads them to build the reference table the language server answers from.
"""

from __future__ import annotations

import attrs

from .tree import Node, Span, children, walk

__all__ = ["Node", "Span", "Expr", "Stmt", "Decl", "children", "walk"]


@attrs.frozen
class Expr(Node):
    """The base of every expression."""


@attrs.frozen
class Stmt(Node):
    """The base of every statement (an effect in a block)."""


@attrs.frozen
class Decl(Node):
    """The base of every top-level declaration and of the parts declarations are made of."""


# ----- expressions ---------------------------------------------------------------------

@attrs.frozen
class Number(Expr):
    value: int

@attrs.frozen
class String(Expr):
    value: str

@attrs.frozen
class CellLit(Expr):
    """A board cell written `@d5`."""
    name: str

@attrs.frozen
class Bool(Expr):
    value: bool

@attrs.frozen
class NoneLit(Expr):
    pass

@attrs.frozen
class Name(Expr):
    """A reference to a parameter, variable, binder, symbol, kind, seat or built-in value."""
    name: str

@attrs.frozen
class ListExpr(Expr):
    items: tuple[Expr, ...]

@attrs.frozen
class Comprehension(Expr):
    """`[expr for name in domain where cond]`. With `flatten`, `expr` is the comprehension of
    the next `for` clause (`[e for a in xs for b in f(a)]`), whose lists are joined."""
    expr: Expr
    name: str
    domain: Expr
    where: Expr | None
    flatten: bool = False
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Field(Expr):
    """`obj.name`: a piece or seat variable, a kind statistic, or a piece property."""
    obj: Expr
    name: str
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Call(Expr):
    """A built-in function or a user `fn`."""
    name: str
    args: tuple[Expr, ...]
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Quant(Expr):
    """`op(name in domain where cond : value)` with op in count, sum, exists, all, min_of,
    max_of, first, sorted (the elements ordered by value, stably)."""
    op: str
    name: str
    domain: Expr
    where: Expr | None
    value: Expr | None
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Binary(Expr):
    """Arithmetic: op in + - * / %; `+` also joins strings and lists."""
    op: str
    left: Expr
    right: Expr

@attrs.frozen
class Compare(Expr):
    op: str
    left: Expr
    right: Expr

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
class CondExpr(Expr):
    """`if cond then a else b`."""
    cond: Expr
    then: Expr
    otherwise: Expr


# ----- statements (effects) ------------------------------------------------------------

@attrs.frozen
class Target(Node):
    """An assignable place: `name` (a global or local) or `obj.field` chains."""
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class Assign(Stmt):
    """`target op expr [until turn of seat]`; op is =, += or -=."""
    target: Target
    op: str
    expr: Expr
    until: Expr | None

@attrs.frozen
class CallStmt(Stmt):
    """Run a user `def` procedure."""
    name: str
    args: tuple[Expr, ...]
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class If(Stmt):
    cond: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]

@attrs.frozen
class For(Stmt):
    name: str
    domain: Expr
    where: Expr | None
    body: tuple[Stmt, ...]
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Let(Stmt):
    name: str
    expr: Expr
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Move(Stmt):
    """Move a piece step by step along a list of cells, firing `on enter` triggers."""
    piece: Expr
    path: Expr

@attrs.frozen
class Place(Stmt):
    """Put a piece on a cell at once (no triggers)."""
    piece: Expr
    cell: Expr

@attrs.frozen
class Remove(Stmt):
    piece: Expr

@attrs.frozen
class Create(Stmt):
    """`create KIND for SEAT at CELL`; KIND is any expression of type kind."""
    kind: Expr
    owner: Expr
    cell: Expr

@attrs.frozen
class Goto(Stmt):
    """Replace the current phase; `push` pushes it (a sub-procedure) instead."""
    phase: str
    args: tuple[Expr, ...]
    seat: Expr | None
    push: bool
    phase_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Put(Stmt):
    """`put PIECE into ZONE [of SEAT]`: off the board, into a zone."""
    piece: Expr
    zone: str
    seat: Expr | None
    zone_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class CallEach(Stmt):
    """`call P(args) for each x in SEATS where COND`: P for each seat in turn."""
    phase: str
    args: tuple[Expr, ...]
    name: str
    seats: Expr
    where: Expr | None
    phase_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class Give(Stmt):
    """`give PIECE to SEAT`: the piece changes owner (a captured piece, a conquered territory)."""
    piece: Expr
    seat: Expr


@attrs.frozen
class Return(Stmt):
    pass

@attrs.frozen
class FnBlock(Expr):
    """The block of `fn name(params) { ... }`: its statements, every path ending in a
    `return VALUE` (`Result`). Only a fn's body is one."""
    body: tuple[Stmt, ...]

@attrs.frozen
class Change(Stmt):
    """`change PIECE to KIND`: the piece becomes of another kind, keeping its identity."""
    piece: Expr
    kind: Expr

@attrs.frozen
class Leave(Stmt):
    """`leave`: the def running ends; its caller goes on."""

@attrs.frozen
class Result(Stmt):
    """`return VALUE` in a fn's block: the fn's result."""
    expr: Expr

@attrs.frozen
class Stop(Stmt):
    pass

@attrs.frozen
class Win(Stmt):
    seat: Expr | None

@attrs.frozen
class Lose(Stmt):
    seat: Expr | None

@attrs.frozen
class Draw(Stmt):
    pass

@attrs.frozen
class Log(Stmt):
    expr: Expr

@attrs.frozen
class Shuffle(Stmt):
    target: Target


# ----- declarations --------------------------------------------------------------------

@attrs.frozen
class GameDecl(Decl):
    name: str

@attrs.frozen
class ExtendsDecl(Decl):
    path: str

@attrs.frozen
class SeatsDecl(Decl):
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class ParamDecl(Decl):
    name: str
    expr: Expr
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class BoardDecl(Decl):
    """`board KIND(w, h) [directions N] [holes(c) where COND]`."""
    kind: str
    args: tuple[Expr, ...]
    directions: int | None = None
    hole_param: str | None = None
    hole_expr: Expr | None = None
    kind_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    hole_param_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class TerrainDecl(Decl):
    """A named set of cells, drawn with `symbol` on the board."""
    name: str
    expr: Expr
    symbol: str
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class SymbolsDecl(Decl):
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class KindRow(Node):
    name: str
    values: tuple[Expr, ...]
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class KindsDecl(Decl):
    """A stat table: one row per piece kind, one column per statistic; `visible` (or None)
    is the `visible to` condition under which a seat may see a piece of these kinds at all."""
    columns: tuple[str, ...]
    rows: tuple[KindRow, ...]
    visible: Expr | None = None
    column_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class VarDecl(Decl):
    """A variable: scope is global, seat or piece; `visible` limits who sees it."""
    scope: str
    name: str
    expr: Expr | None
    visible: Expr | None
    column: str | None = None       # `var piece.NAME from COLUMN`: the kind's value
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    column_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class DefDecl(Decl):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class FnDecl(Decl):
    """`fn name(params) = expr`, or `fn name(params) { ... }` with an `FnBlock` as expr."""
    name: str
    params: tuple[str, ...]
    expr: Expr
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class Binder(Node):
    """`name in domain [by FORM]`: FORM (`cell`) says how an action's text writes the
    binder's value (None: as its type writes it, a piece by its label)."""
    name: str
    domain: Expr
    written: str | None = None
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    written_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class ActionDecl(Decl):
    name: str
    binders: tuple[Binder, ...]
    where: Expr | None
    body: tuple[Stmt, ...]
    doc: str | None = None          # the text the block starts with, if any
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class PhaseDecl(Decl):
    """A phase: mode is None, 'turn' (entering it starts its seat's turn),
    'simultaneous' (every seat chooses in secret, then all are revealed) or 'secret' (the
    deciding seat's actions are not shown to the other seats)."""
    name: str
    params: tuple[str, ...]
    mode: str | None
    on_enter: tuple[Stmt, ...]
    on_reveal: tuple[Stmt, ...]
    actions: tuple[ActionDecl, ...]
    on_resume: tuple[Stmt, ...] = ()
    auto: bool = False
    doc: str | None = None          # the text the block starts with, if any
    on_no_action: tuple[tuple[Stmt, ...], ...] = ()   # each `on no action { ... }` (one at most)
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class TriggerDecl(Decl):
    """`on enter(piece, cell) where cond { ... }`: runs on each step of a `move`."""
    piece: str
    cell: str
    where: Expr | None
    body: tuple[Stmt, ...]
    piece_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    cell_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class OutDecl(Decl):
    """`on out(s) { ... }`: runs when seat `s` leaves the game (lost, conceded) while the
    others play on."""
    seat: str
    body: tuple[Stmt, ...]
    seat_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class ConcedeDecl(Decl):
    """`on concede(s) { ... }`: runs when seat `s` gives up, before it is out of the game
    (also when that ends the game)."""
    seat: str
    body: tuple[Stmt, ...]
    seat_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class EndRule(Node):
    """`win|lose|draw when expr`."""
    kind: str
    expr: Expr

@attrs.frozen
class EndDecl(Decl):
    """`end { ... }`: its rules, and `let`s whose values every rule below them shares
    (computed once per end check, for no seat)."""
    items: tuple[EndRule | Let, ...]

@attrs.frozen
class SetupDecl(Decl):
    body: tuple[Stmt, ...]

@attrs.frozen
class InvariantDecl(Decl):
    """`invariant "what must hold": condition`, checked after every decision."""
    name: str
    expr: Expr

@attrs.frozen
class ShowDecl(Decl):
    """`show piece(p) = expr` (`show side(c, d) = expr`: two parameters): how the board
    draws something."""
    what: str
    params: tuple[str, ...]
    expr: Expr
    what_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

@attrs.frozen
class StatDecl(Decl):
    """`stat NAME = expr` or `stat NAME(s) = expr` (one value per seat `s`): a value of
    the final position that simulations record for balance reports."""
    name: str
    param: str | None       # the seat parameter's name, or None for one value a game
    expr: Expr
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class PayoffDecl(Decl):
    """`payoff(s) = expr`: each seat's return (a number) when the game ends, in place of
    1 for a win, -1 for a loss and 0 for a draw."""
    param: str
    expr: Expr
    param_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class ZoneDecl(Decl):
    """`zone NAME [per seat] [visible to COND]`: a place off the board for pieces."""
    name: str
    per_seat: bool
    visible: Expr | None
    name_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

@attrs.frozen
class HideDecl(Decl):
    """`hide piece(p) when cond`: a piece the viewer may not identify (`viewer` bound)."""
    what: str
    param: str
    expr: Expr
    what_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    param_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Program(Node):
    """A whole rule file: its declarations in file order."""
    items: tuple[Decl, ...]


