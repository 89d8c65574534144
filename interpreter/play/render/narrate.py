"""What a seat saw change: the difference between two views of one seat, as short lines.

The engine narrates what pieces did (events of a state made with `narrate=True`); this adds what the variables
a player can see did, read from the views before and after a decision, so a value hidden
from the viewer never shows (a view holds none). Where the rule file words a status
(`show game(s)`, `show seat(s)`, `show status(p)`), its words are compared part by part (the
parts are separated by ", " outside brackets); elsewhere the variables, one by one.
"""

from __future__ import annotations

import attrs

from ...runtime import events as ev
from ...runtime.view import HIDDEN, piece_name
from ..transcript import event_text


def changes(before, after):
    """Lines saying what changed between two views of one seat (same game)."""
    lines = []
    if "status" in after:
        lines += _worded("game", before.get("status", ""), after["status"])
    else:
        lines += _valued(None, before["globals"], after["globals"])
    for old, new in zip(before["seats"], after["seats"]):
        if "status" in new:
            lines += _worded(new["name"], old.get("status", ""), new["status"])
        else:
            lines += _valued(new["name"], old["vars"], new["vars"])
    old_pieces = {p["label"]: p for p in before["pieces"] if p["label"] != HIDDEN}
    for new in after["pieces"]:
        old = old_pieces.get(new["label"])
        if old is None or new["label"] == HIDDEN:
            continue
        # a piece of no seat by its label alone ('Piece#2', not 'Piece#2 (none)')
        name = new["label"] if new["owner"] == "none" else piece_name(new)
        if "status" in new:
            lines += _worded(name, old.get("status", ""), new["status"])
        else:
            lines += _valued(name, old["vars"], new["vars"])
    return lines


def _worded(who, old, new):
    """'who: part (was old part)' for each part of a status text that changed."""
    if old == new:
        return []
    if not new:
        return []
    olds, news = parts(old), parts(new)
    if len(olds) != len(news) or not old:
        return [f"{who}: {new}" + (f" (was {old})" if old else "")]
    return [f"{who}: {n} (was {o})" for o, n in zip(olds, news) if o != n]


def parts(line):
    """A line cut at each ", " outside brackets: 'a=1, b=[x, y]' -> ['a=1', 'b=[x, y]'] (a
    list's commas stay in its part: 'order [blue, red]' is one part)."""
    if not any(bracket in line for bracket in "([{"):
        return line.split(", ")
    found, depth, start = [], 0, 0
    for i, char in enumerate(line):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0 and line.startswith(", ", i):
            found.append(line[start:i])
            start = i + 2
    return found + [line[start:]]


def _valued(who, old, new):
    """'who NAME: old -> new' for each variable that changed (hidden ones never)."""
    prefix = "" if who is None else who + " "
    return [f"{prefix}{name}: {old[name]} -> {value}" for name, value in new.items()
            if name in old and old[name] != value and HIDDEN not in (old[name], value)]


def says(event, text):
    """Does a decision's text already say what a narrated move does (the action moved
    this piece to that cell: `move Piece#5 e9` and 'Piece#5 moved from e8 to e9 (by
    move, blue)')? Then the move need not be told again."""
    if not isinstance(event, ev.Moved) or not text:
        return False
    words = text.split()
    return words[0] == event.by.rule and event.label in words and event.target in words


def event_lines(game, events, viewer, said=""):
    """The events of a decision as `viewer` reads them, less a move `said` already tells
    and the shuffles and random picks (their counts say nothing to a player);
    a run of three or more pieces created (or removed, or put into zones) by one rule is
    one line:
    'created by setup, red: Piece#2 f11, Token#9 a12, ...'."""
    # How many items a shuffle or a random pick had is the engine's bookkeeping, not what a
    # player saw happen (the transcript keeps it): the cards drawn show as pieces moving.
    # A piece that changed kind out of the viewer's sight says nothing to it, nor does
    # anything a piece out of its sight altogether did.
    kept = [event for event in events if not says(event, said) and not (
        isinstance(event, ev.Changed) and viewer is not None and viewer in event.hidden)
        and not (isinstance(event, ev.PieceEvent) and viewer in event.unseen)]
    lines, i = [], 0
    while i < len(kept):
        event = kept[i]
        if isinstance(event, (ev.Shuffle, ev.Pick)):    # (it still ends a run)
            i += 1
            continue
        j = i
        if isinstance(event, (ev.Created, ev.Removed, ev.Put)):
            while j + 1 < len(kept) and type(kept[j + 1]) is type(event) and \
                    kept[j + 1].by == event.by:
                j += 1
        if j - i >= 2 and isinstance(event, ev.Put):
            lines.append(_grouped_puts(game, kept[i:j + 1], viewer))
        elif j - i >= 2:
            lines.append(_grouped(game, kept[i:j + 1], viewer))
        else:
            lines += [event_text(game, e, viewer) for e in kept[i:j + 1]]
        i = j + 1
    return lines


def _grouped(game, run, viewer, most=8):
    """One line for a run of pieces created or removed by one rule: the first `most` it may
    name, how many more, and how many hidden pieces."""
    what, rule, seat = run[0].kind, run[0].by.rule, run[0].by.seat
    names, hidden = [], 0
    for event in run:
        if viewer is not None and viewer in event.hidden:
            hidden += 1
        else:
            names.append(event.label + (f" {event.cell}" if event.cell else ""))
    parts = names[:most]
    if len(names) > most:
        parts.append(f"{len(names) - most} more")
    if hidden:
        parts.append(f"{hidden} hidden piece{'s' if hidden > 1 else ''}")
    by = f" by {rule}" + (f", {game.seats[seat]}" if seat is not None else "") if rule else ""
    return f"{what}{by}: " + ", ".join(parts)


def _grouped_puts(game, run, viewer, most=8):
    """One line for a run of pieces put into zones by one rule (a deal), zone by zone in
    the order first reached: the first `most` pieces it may name there, how many more, and
    how many hidden pieces (each had its own line before: the same is told)."""
    zones = {}
    for event in run:
        zones.setdefault(event.zone, []).append(event)
    parts = []
    for zone, events in zones.items():
        names = [e.label for e in events if viewer is None or viewer not in e.hidden]
        hidden = len(events) - len(names)
        told = names[:most] + ([f"{len(names) - most} more"] if len(names) > most else [])
        if hidden:
            told.append(f"{hidden} hidden piece{'s' if hidden > 1 else ''}")
        parts.append(f"into {zone}: " + ", ".join(told))
    rule, seat = run[0].by.rule, run[0].by.seat
    by = f" by {rule}" + (f", {game.seats[seat]}" if seat is not None else "") if rule else ""
    return f"put{by}: " + "; ".join(parts)


def public_text(texts: list[str]) -> str:
    """An action's text as every seat may read it, from its text as each seat reads it: a
    word that some seat reads otherwise (a piece hidden from it, `?`) is `?`. The texts
    differ only in such words: an action's text is its name and its arguments' texts, a
    piece hidden from the seat written `?` (`Game.action_text`)."""
    words = [text.split(" ") for text in texts]
    if any(len(each) != len(words[0]) for each in words):
        return "?"
    return " ".join(column[0] if len(set(column)) == 1 else "?" for column in zip(*words))


def public_events(events: list[ev.Event], seats: int) -> list[ev.Event]:
    """A decision's events as every seat may read them: a piece hidden from any seat is
    hidden from all, a played action reads as every seat may read it."""
    everyone = tuple(range(seats))
    found: list[ev.Event] = []
    for event in events:
        if isinstance(event, ev.PieceEvent) and event.hidden:
            event = attrs.evolve(event, hidden=everyone)
        elif isinstance(event, ev.Played) and event.texts is not None:
            event = attrs.evolve(event, text=public_text(list(event.texts)), texts=None)
        found.append(event)
    return found
