"""The public description of a compiled rule file: what `Game.rules` holds.

Tools (pictures, explain, coverage, narration, scenario files, the language server, the
replay page, the bridges) read the game's board, piece kinds and their columns, terrain,
zones, seats, phases and actions (with doc strings and parameter types), variables (with
types and initial values) and which `show` rules it declares from here, never from the
engine's private members. Everything is read-only: records are frozen, tables are
`MappingProxyType`s, and a value that could be changed (a list) is given as a tuple (a
value worked out on first use, `Rules.ownerless`, is kept in a record's private dict).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from ..language import program as ir
from ..language.boards import Board
from ..language.look import Look
from ..language.types import Type

_PRIVATE_MODES = ("simultaneous", "secret")


def _frozen_value(value: Any) -> Any:
    """A value no reader can change: lists as tuples (nested ones too)."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen_value(item) for item in value)
    return value


@attrs.frozen
class Param:
    """A parameter of an action (a binder: `name in domain`) or of a phase. `type` is the
    binder's element type, or the type of the phase's argument (ANY for a phase no `goto`
    enters)."""

    name: str
    type: Type | None
    domain: str = ""        # a binder's domain as the rule file writes it
    by_cell: bool = False   # a piece an action's text writes by its cell (`by cell`)


@attrs.frozen
class ActionInfo:
    """An action of a phase: its name, its position in the phase, its parameters and doc."""

    name: str
    phase: str
    index: int
    params: tuple[Param, ...]
    doc: str | None


@attrs.frozen
class PhaseInfo:
    """A phase: `mode` is None, "turn", "simultaneous" or "secret"; `auto` phases play their
    only legal action on their own."""

    name: str
    mode: str | None
    params: tuple[Param, ...]
    auto: bool
    actions: tuple[ActionInfo, ...]
    doc: str | None

    @property
    def private(self) -> bool:
        """Are the choices made in this phase hidden from the other seats until shown?"""
        return self.mode in _PRIVATE_MODES


@attrs.frozen
class VariableInfo:
    """A declared variable of scope "global", "seat" or "piece"; `visible_to` tells whether a
    `visible to` rule limits who sees it; `column` names the kinds-table column a piece
    variable starts from."""

    scope: str
    name: str
    type: Type
    initial: Any
    visible_to: bool
    column: str | None


@attrs.frozen
class ZoneInfo:
    """A zone off the board; `visible_to` tells whether a rule limits who may identify the
    pieces in it."""

    name: str
    per_seat: bool
    visible_to: bool


@attrs.frozen
class Rules:
    """The compiled rules as a description (see the module docstring)."""

    name: str
    seats: tuple[str, ...]
    board: Board
    kinds: Mapping[str, Mapping[str, Any]]          # kind -> column -> value
    columns: Mapping[str, Type]                     # kinds-table column -> type
    terrain: Mapping[str, tuple[tuple[int, ...], str]]   # name -> (cells, symbol)
    zones: Mapping[str, ZoneInfo]
    symbols: tuple[str, ...]                        # sorted
    phases: Mapping[str, PhaseInfo]
    variables: Mapping[str, Mapping[str, VariableInfo]]  # scope -> name -> variable
    shows: frozenset[str]                           # the `show X(...)` rules declared
    look: Look                                      # the key's notes, the shapes' drawings
    hides_pieces: bool          # a `hide piece` rule, a hiding zone or a kinds `visible to`
    invariants: tuple[str, ...]                     # their names, as declared
    stats: tuple[str, ...]                          # `stat` names, as declared
    payoff: bool                                    # a `payoff(s)` gives the returns
    variable_types: Mapping[str, Mapping[str, Type]]    # scope -> name -> type
    _program: ir.Program = attrs.field(repr=False, eq=False)    # for what is worked out late
    _late: dict[str, bool] = attrs.field(factory=dict, repr=False, eq=False, init=False)

    @property
    def ownerless(self) -> bool:
        """May a piece be of no seat (`may_own_nothing`)? Worked out on first use (a few ms
        on a large file; only a picture's key asks)."""
        late = self._late
        if "ownerless" not in late:
            late["ownerless"] = may_own_nothing(self._program)
        return late["ownerless"]

    @property
    def action_names(self) -> list[str]:
        """The names of the actions of every phase, sorted."""
        return sorted({a.name for phase in self.phases.values() for a in phase.actions})

    @property
    def hides_pieces_or_variables(self) -> bool:
        """Does some rule hide a piece (`hide piece`, a zone) or a variable (`visible to`)?"""
        return self.hides_pieces or any(
            v.visible_to for scope in self.variables.values() for v in scope.values())

    @property
    def hidden_information(self) -> bool:
        """Does some rule keep something from some seat (a hidden piece or variable, a
        secret or simultaneous phase)?"""
        return self.hides_pieces_or_variables or any(
            phase.private for phase in self.phases.values())

    def doc(self, phase: str | None, action: str | None = None) -> str | None:
        """The doc string of a phase (action None) or of one of its actions, else None (and
        for no phase: a game that is over)."""
        found = None if phase is None else self.phases.get(phase)
        if found is None or action is None:
            return None if found is None else found.doc
        return next((a.doc for a in found.actions if a.name == action), None)

    def initial_value(self, scope: str, name: str) -> Any:
        """The declared initial value of a variable, as a fresh list when it is one."""
        value = self.variables[scope][name].initial
        return list(value) if isinstance(value, tuple) else value


def describe_rules(program: ir.Program, hides_pieces: bool) -> Rules:
    """The description of a checked program (`hides_pieces`: as the engine worked it out)."""
    docs = program.docs
    phases = {name: PhaseInfo(
        name, phase.mode, tuple(Param(p, t) for p, t in zip(phase.params, phase.param_types)),
        phase.auto,
        tuple(ActionInfo(a.name, name, a.index,
                         tuple(Param(b.name, b.type, b.text, b.by_cell)
                               for b in a.binders),
                         docs.get((name, a.name))) for a in phase.actions),
        docs.get((name, None))) for name, phase in program.phases.items()}
    variables = {scope: MappingProxyType({name: VariableInfo(
        scope, name, v.type, _frozen_value(v.init), v.visible is not None, v.column)
        for name, v in table.items()}) for scope, table in program.vars.items()}
    return Rules(
        name=program.game_name, seats=tuple(program.seats), board=program.board,
        kinds=MappingProxyType({k: MappingProxyType(dict(row))
                                for k, row in program.kinds.items()}),
        columns=MappingProxyType(dict(program.kind_columns)),
        terrain=MappingProxyType(dict(program.terrain)),
        zones=MappingProxyType({name: ZoneInfo(name, z.per_seat, z.visible is not None)
                                for name, z in program.zones.items()}),
        symbols=tuple(sorted(program.symbols)), phases=MappingProxyType(phases),
        variables=MappingProxyType(variables), shows=frozenset(program.shows),
        look=program.look,
        hides_pieces=hides_pieces,
        invariants=tuple(inv.name for inv in program.invariants),
        stats=tuple(program.stats), payoff=program.payoff is not None,
        variable_types=MappingProxyType({scope: MappingProxyType(
            {name: v.type for name, v in table.items()}) for scope, table in program.vars.items()}),
        program=program)


def may_own_nothing(program: ir.Program) -> bool:
    """May a piece be of no seat? True when some `create ... for X` or `give ... to X` has an
    X that may be none: none written, or any value not known to be a seat (known: `me`, a
    seat by name, a loop or action parameter over `seats`, `if` of those, and a def's or
    fn's parameter that every call gives a known seat). What is not known counts as may (a
    key then lists a swatch no piece uses, never the reverse)."""
    units: dict[int, tuple[str, str]] = {id(d): ("def", name) for name, d in program.defs.items()}
    units.update({id(f): ("fn", name) for name, f in program.fns.items()})
    # (def or fn, name, slot) of the parameters taken for seats until a call gives another
    params = {(kind, name, slot + 1)
              for kind, table in (("def", program.defs), ("fn", program.fns))
              for name, unit in table.items() for slot in range(len(unit.params))}
    roots = ir.rule_roots(program)
    changed = True
    while changed:          # until no call gives a parameter what may be none
        changed = False
        for root in roots:
            slots = _seat_slots(root, params, units.get(id(root)))
            for node in ir.walk(root):
                if isinstance(node, (ir.CallDef, ir.CallFn)):
                    kind = "def" if isinstance(node, ir.CallDef) else "fn"
                    for slot, arg in enumerate(node.args, 1):
                        if (kind, node.name, slot) in params and _may_be_none(arg, slots):
                            params.discard((kind, node.name, slot))
                            changed = True
    for root in roots:
        slots = _seat_slots(root, params, units.get(id(root)))
        for node in ir.walk(root):
            if isinstance(node, ir.Create) and _may_be_none(node.owner, slots) or \
                    isinstance(node, ir.Give) and _may_be_none(node.seat, slots):
                return True
    return False


def _seat_slots(root: ir.Node, params: set[tuple[str, str, int]],
                unit: tuple[str, str] | None) -> dict[int, bool]:
    """Slot -> every binding of it in `root` is a seat (of a def or fn `unit`, its
    parameters in `params` too)."""
    slots: dict[int, bool] = {}
    if unit is not None:
        for kind, name, slot in params:
            if (kind, name) == unit:
                slots[slot] = True
    for node in ir.walk(root):
        bound = None
        if isinstance(node, (ir.For, ir.Binder)):
            bound, slot = node.domain, node.slot
        elif isinstance(node, ir.Let):
            bound, slot = node.expr, node.slot
        if bound is not None:
            known = _seats_only(bound) if not isinstance(node, ir.Let) \
                else not _may_be_none(bound, {})
            slots[slot] = slots.get(slot, True) and known
    return slots


def _seats_only(domain: ir.Expr) -> bool:
    """Is `domain` a list of seats with no none in it (the game's seats)?"""
    return isinstance(domain, ir.StateValue) and domain.what == "seats"


def _may_be_none(seat: ir.Expr, seat_slots: Mapping[int, bool]) -> bool:
    if isinstance(seat, ir.Const):
        return seat.value is None
    if isinstance(seat, ir.Local):
        return not (seat.slot == 0 and seat.name == "me") and not seat_slots.get(seat.slot)
    if isinstance(seat, ir.Cond):
        return _may_be_none(seat.then, seat_slots) or _may_be_none(seat.otherwise, seat_slots)
    return True
