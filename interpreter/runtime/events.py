"""Events: what a decision, the setup or a concession caused besides the new position.

`Game.apply`, `Game.concede` and `state.events` (after `new_state`) give a list of these
records: dice rolled, picks and shuffles, `log` texts, seats out, actions played on their own
(`auto`) or revealed at the end of a simultaneous phase, and, when the game narrates
(`Game.new_state(seed, narrate=True)`), what pieces did and which rule rolled each die. Readers use the fields;
`to_json` gives the plain-list form (`["roll", 6, 3]`: the kind, then the fields), which
`event_from_json` reads back.

The records are `attrs.define` classes (slots, equality by fields), not frozen ones: a frozen
attrs instance costs three times as much to make (280 ns against 90), and with two events a
decision that made a shipped game's random play 5% slower (benchmarks/compare_revisions.py).
Nothing in gdl changes an event once made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import attrs


@attrs.define
class By:
    """Which rule did it (`move`, `setup`, a trigger's name; None for none) and for which seat
    (None for no seat): what narration adds."""

    rule: str | None
    seat: int | None


@attrs.define
class Event:
    """The base of every event; `kind` is the first word of its JSON form."""

    kind: ClassVar[str] = ""

    def to_json(self) -> list[Any]:
        return [self.kind, *(getattr(self, f.name) for f in attrs.fields(type(self)))]


@attrs.define
class Roll(Event):
    """A die of `sides` sides rolled `value`; `fixed` when a scenario or the API set it."""

    kind: ClassVar[str] = "roll"
    sides: int
    value: int
    fixed: bool = False
    by: By | None = None

    def to_json(self) -> list[Any]:
        head: list[Any] = ["roll", self.sides, self.value]
        if self.by is not None:
            return head + ["fixed" if self.fixed else "", self.by.rule, self.by.seat]
        return head + ["fixed"] if self.fixed else head


@attrs.define
class Pick(Event):
    """One of `count` items picked at random: the `chosen`th (from 1); `fixed` when a
    scenario or the API set it."""

    kind: ClassVar[str] = "pick"
    count: int
    chosen: int
    fixed: bool = False

    def to_json(self) -> list[Any]:
        head: list[Any] = ["pick", self.count, self.chosen]
        return head + ["fixed"] if self.fixed else head


@attrs.define
class Shuffle(Event):
    """A list of `count` items shuffled; `fixed` when a scenario or the API set the order."""

    kind: ClassVar[str] = "shuffle"
    count: int
    fixed: bool = False

    def to_json(self) -> list[Any]:
        head: list[Any] = ["shuffle", self.count]
        return head + ["fixed"] if self.fixed else head


@attrs.define
class Log(Event):
    """A `log` statement's text."""

    kind: ClassVar[str] = "log"
    text: str


@attrs.define
class Out(Event):
    """A seat left the game (it lost or conceded while the others play on)."""

    kind: ClassVar[str] = "out"
    seat: int


@attrs.define
class Played(Event):
    """An action a seat played that no decision chose here: `text` as the rules write it,
    and when the game can hide pieces, `texts`: how each seat (by number) may read it."""

    seat: int
    text: str
    texts: tuple[str, ...] | None = None

    def to_json(self) -> list[Any]:
        head: list[Any] = [self.kind, self.seat, self.text]
        return head if self.texts is None else head + [list(self.texts)]

    def read_by(self, viewer: int | None) -> str:
        """The action's text as seat `viewer` may read it (None: as the rules write it)."""
        if viewer is None or self.texts is None:
            return self.text
        return self.texts[viewer]


@attrs.define
class Auto(Played):
    """The only legal action of an `auto` phase, played on its own."""

    kind: ClassVar[str] = "auto"


@attrs.define
class Reveal(Played):
    """A seat's secret choice in a simultaneous phase, shown once every seat has chosen."""

    kind: ClassVar[str] = "reveal"


@attrs.define
class PieceEvent(Event):
    """What a piece did (narration only): its `label` and its owner's name (None for no
    owner), the rule that did it, the seats the piece is hidden from (they read no
    label) and those it is out of sight of (they are told nothing of it)."""

    label: str
    owner: str | None
    by: By
    hidden: tuple[int, ...]
    unseen: tuple[int, ...] = attrs.field(default=(), kw_only=True)

    def places(self) -> tuple[str | None, ...]:
        """Where it happened, as the JSON form lists it between the owner and the rule."""
        return ()

    def to_json(self) -> list[Any]:
        """[kind, label, owner, places..., rule, seat, hidden], then `unseen` when there
        are such seats."""
        return [self.kind, self.label, self.owner, *self.places(), self.by.rule, self.by.seat,
                list(self.hidden), *([list(self.unseen)] if self.unseen else [])]


@attrs.define
class Created(PieceEvent):
    """A piece created, at `cell` (None off the board)."""

    kind: ClassVar[str] = "created"
    cell: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.cell,)


@attrs.define
class Moved(PieceEvent):
    """A piece moved from `source` (None: from off the board) to `target`."""

    kind: ClassVar[str] = "moved"
    source: str | None = None
    target: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.source, self.target)


@attrs.define
class Removed(PieceEvent):
    """A piece removed from `cell` (or from a zone: its name; None when it was nowhere)."""

    kind: ClassVar[str] = "removed"
    cell: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.cell,)


@attrs.define
class Put(PieceEvent):
    """A piece put into a zone (`zone`: its name as a place, `hand of red`)."""

    kind: ClassVar[str] = "put"
    zone: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.zone,)


@attrs.define
class Given(PieceEvent):
    """A piece given to another seat (its name; None for no seat)."""

    kind: ClassVar[str] = "given"
    seat: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.seat,)


@attrs.define
class Changed(PieceEvent):
    """A piece changed kind (`change P to KIND`): `label` is its new label, `was` the old."""

    kind: ClassVar[str] = "changed"
    was: str | None = None

    def places(self) -> tuple[str | None, ...]:
        return (self.was,)


PIECE_EVENTS: dict[str, type[PieceEvent]] = {
    cls.kind: cls for cls in (Created, Moved, Removed, Put, Given, Changed)}


def event_from_json(data: list[Any]) -> Event:
    """The event whose `to_json` gave `data`."""
    kind, *rest = data
    if kind == "roll":
        fixed = len(rest) > 2 and rest[2] == "fixed"
        by = By(rest[3], rest[4]) if len(rest) > 3 else None
        return Roll(rest[0], rest[1], fixed, by)
    if kind in ("auto", "reveal"):
        played = Auto if kind == "auto" else Reveal
        return played(rest[0], rest[1], tuple(rest[2]) if len(rest) > 2 else None)
    if kind in PIECE_EVENTS:
        # a seat is a number or None, never a list: two lists at the end are hidden, unseen
        unseen = rest.pop() if isinstance(rest[-2], list) else []
        label, owner, *places, rule, seat, hidden = rest
        return PIECE_EVENTS[kind](label, owner, By(rule, seat), tuple(hidden), *places,
                                  unseen=tuple(unseen))
    if kind == "pick":
        return Pick(rest[0], rest[1], rest[2:] == ["fixed"])
    if kind == "shuffle":
        return Shuffle(rest[0], rest[1:] == ["fixed"])
    simple: dict[str, type[Event]] = {"log": Log, "out": Out}
    return simple[kind](*rest)


def as_json(events: Iterable[Event]) -> list[list[Any]]:
    """The JSON form of a list of events."""
    return [event.to_json() for event in events]
