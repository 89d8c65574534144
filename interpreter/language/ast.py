"""AST of the gdl language: frozen record nodes built by the parser from the Lark tree.

Every node carries a `span` (file, line, column) that is excluded from equality, so two
parses of the same text compare equal wherever they came from. Names follow the grammar:
rule `phase_decl` builds `PhaseDecl`. Children are tuples. Nodes are declared as attrs
classes would be, but made by `records`: attrs' behaviour without its start-up cost.
"""

from __future__ import annotations

from . import records


@records.frozen
class Span:
    """Where a node starts in its source file; `lines` is the whole text split in lines."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0
    lines: tuple = records.field(repr=False, eq=False, default=())

    @property
    def source_line(self):
        if 1 <= self.line <= len(self.lines):
            return self.lines[self.line - 1]
        return None

    @property
    def text(self):
        """The source text the node was parsed from, first line only."""
        line = self.source_line or ""
        end = self.end_column - 1 if self.end_line == self.line else len(line)
        return line[self.column - 1:end].strip()


def node(cls):
    """Declare an AST node: frozen, with a trailing `span` that equality ignores."""
    cls.__annotations__["span"] = "Span | None"
    cls.span = records.field(default=None, eq=False, repr=False, kw_only=True)
    return records.frozen(cls)


# ----- expressions ---------------------------------------------------------------------

@node
class Number:
    value: int

@node
class String:
    value: str

@node
class CellLit:
    """A board cell written `@d5`."""
    name: str

@node
class Bool:
    value: bool

@node
class NoneLit:
    pass

@node
class Name:
    """A reference to a parameter, variable, binder, symbol, kind, seat or built-in value."""
    name: str

@node
class ListExpr:
    items: tuple

@node
class Comprehension:
    """`[expr for name in domain where cond]`."""
    expr: object
    name: str
    domain: object
    where: object

@node
class Field:
    """`obj.name`: a piece or seat variable, a kind statistic, or a piece property."""
    obj: object
    name: str

@node
class Call:
    """A built-in function or a user `fn`."""
    name: str
    args: tuple

@node
class Quant:
    """`op(name in domain where cond : value)` with op in count, sum, exists, all, min_of,
    max_of, first, sorted (the elements ordered by value, stably)."""
    op: str
    name: str
    domain: object
    where: object
    value: object

@node
class Binary:
    """Arithmetic: op in + - * / %; `+` also joins strings and lists."""
    op: str
    left: object
    right: object

@node
class Compare:
    op: str
    left: object
    right: object

@node
class In:
    item: object
    collection: object
    negated: bool

@node
class And:
    left: object
    right: object

@node
class Or:
    left: object
    right: object

@node
class Not:
    operand: object

@node
class Neg:
    operand: object

@node
class CondExpr:
    """`if cond then a else b`."""
    cond: object
    then: object
    otherwise: object


# ----- statements (effects) ------------------------------------------------------------

@node
class Target:
    """An assignable place: `name` (a global or local) or `obj.field` chains."""
    names: tuple

@node
class Assign:
    """`target op expr [until turn of seat]`; op is =, += or -=."""
    target: Target
    op: str
    expr: object
    until: object

@node
class CallStmt:
    """Run a user `def` procedure."""
    name: str
    args: tuple

@node
class If:
    cond: object
    then: tuple
    otherwise: tuple

@node
class For:
    name: str
    domain: object
    where: object
    body: tuple

@node
class Let:
    name: str
    expr: object

@node
class Move:
    """Move a piece step by step along a list of cells, firing `on enter` triggers."""
    piece: object
    path: object

@node
class Place:
    """Put a piece on a cell at once (no triggers)."""
    piece: object
    cell: object

@node
class Remove:
    piece: object

@node
class Create:
    """`create KIND for SEAT at CELL`; KIND is any expression of type kind."""
    kind: object
    owner: object
    cell: object

@node
class Goto:
    """Replace the current phase; `push` pushes it (a sub-procedure) instead."""
    phase: str
    args: tuple
    seat: object
    push: bool

@node
class Put:
    """`put PIECE into ZONE [of SEAT]`: off the board, into a zone."""
    piece: object
    zone: str
    seat: object

@node
class CallEach:
    """`call P(args) for each x in SEATS where COND`: P for each seat in turn."""
    phase: str
    args: tuple
    name: str
    seats: object
    where: object

@node
class Give:
    """`give PIECE to SEAT`: the piece changes owner (a captured piece, a conquered territory)."""
    piece: object
    seat: object


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
    expr: object

@node
class Shuffle:
    target: Target


# ----- declarations --------------------------------------------------------------------

@node
class GameDecl:
    name: str

@node
class ExtendsDecl:
    path: str

@node
class SeatsDecl:
    names: tuple

@node
class ParamDecl:
    name: str
    expr: object

@node
class BoardDecl:
    """`board KIND(w, h) [directions N] [holes(c) where COND]`."""
    kind: str
    args: tuple
    directions: object = None
    hole_param: object = None
    hole_expr: object = None

@node
class TerrainDecl:
    """A named set of cells, drawn with `symbol` on the board."""
    name: str
    expr: object
    symbol: str

@node
class SymbolsDecl:
    names: tuple

@node
class KindRow:
    name: str
    values: tuple

@node
class KindsDecl:
    """A stat table: one row per piece kind, one column per statistic."""
    columns: tuple
    rows: tuple

@node
class VarDecl:
    """A variable: scope is global, seat or piece; `visible` limits who sees it."""
    scope: str
    name: str
    expr: object
    visible: object
    column: object = None       # `var piece.NAME from COLUMN`: the kind's value

@node
class DefDecl:
    name: str
    params: tuple
    body: tuple

@node
class FnDecl:
    name: str
    params: tuple
    expr: object

@node
class Binder:
    name: str
    domain: object

@node
class ActionDecl:
    name: str
    binders: tuple
    where: object
    body: tuple
    doc: object = None          # the text the block starts with, if any

@node
class PhaseDecl:
    """A phase: mode is None, 'turn' (entering it starts its seat's turn),
    'simultaneous' (every seat chooses in secret, then all are revealed) or 'secret' (the
    deciding seat's actions are not shown to the other seats)."""
    name: str
    params: tuple
    mode: object
    on_enter: tuple
    on_reveal: tuple
    actions: tuple
    on_resume: tuple = ()
    auto: bool = False
    doc: object = None          # the text the block starts with, if any

@node
class TriggerDecl:
    """`on enter(piece, cell) where cond { ... }`: runs on each step of a `move`."""
    piece: str
    cell: str
    where: object
    body: tuple

@node
class OutDecl:
    """`on out(s) { ... }`: runs when seat `s` leaves the game (lost, conceded) while the
    others play on."""
    seat: str
    body: tuple


@node
class ConcedeDecl:
    """`on concede(s) { ... }`: runs when seat `s` gives up, before it is out of the game
    (also when that ends the game)."""
    seat: str
    body: tuple


@node
class EndRule:
    kind: str
    expr: object

@node
class EndDecl:
    rules: tuple

@node
class SetupDecl:
    body: tuple

@node
class InvariantDecl:
    """`invariant "what must hold": condition`, checked after every decision."""
    name: str
    expr: object

@node
class ShowDecl:
    """`show piece(p) = expr`: how the board draws something."""
    what: str
    param: str
    expr: object

@node
class StatDecl:
    """`stat NAME = expr` or `stat NAME(s) = expr` (one value per seat `s`): a value of
    the final position that simulations record for balance reports."""
    name: str
    param: object       # the seat parameter's name, or None for one value a game
    expr: object

@node
class ZoneDecl:
    """`zone NAME [per seat] [visible to COND]`: a place off the board for pieces."""
    name: str
    per_seat: bool
    visible: object

@node
class HideDecl:
    """`hide piece(p) when cond`: a piece the viewer may not identify (`viewer` bound)."""
    what: str
    param: str
    expr: object


@node
class Program:
    items: tuple


def walk(node):
    """`node` and every node below it (expressions and statements)."""
    yield node
    for name in records.fields(type(node)):
        value = getattr(node, name)
        for item in (value if isinstance(value, tuple) else (value,)):
            if hasattr(type(item), "__match_args__") and not isinstance(item, Span):
                yield from walk(item)
