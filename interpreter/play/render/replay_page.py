"""The replay page: a transcript as one self-contained HTML file (`gdl replay --html`).

In: a transcript, which is first replayed and verified as `gdl replay` does, and the viewers
the page offers: the full view and every seat's, or one seat's only. Out: an HTML page with
its style, script, data and board inline; it needs no network and no server.

Python replays the game once more and, at every step (the setup, then each decision or
concession) and for every viewer, makes the view with `game.view(state, viewer)`, draws its
places with `pictures.places`, and writes the status lines and the step's decision and
events as that viewer may read them (another seat's secret choice reads "chooses in
secret"; a hidden piece in an action's text reads "?"). The page holds each distinct
fragment and each distinct line once, and for each step only the places that changed, as
numbers; a small script rebuilds the step asked for from the nearest of the checkpoints it
keeps every 64 steps. A page for one seat is made from that seat's views alone, so its file
holds nothing the seat could not see; it leaves out the seed too, from which the whole game
could be played again.

The page's template, style and script are package data beside this module
(`replay_page.html`, `replay_page.css`, `replay_page.js`): the template's `@NAME@` marks
are filled with the style, the game's name and seats, the board, the data and the script.
"""

from __future__ import annotations

import json
import os
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

from ...files import named, save
from ...language.errors import GdlDataError, counted
from ...runtime import introspect
from ...runtime.view import status_lines, title
from ..agents.agents import ScriptedAgent
from ..playing import Observer, play_moves, run_game, steps_seen, viewer_of
from ..transcript import decision_count, open_transcript, replay

from . import pictures
from .narrate import event_lines, parts

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.state import Action, State
    from ..transcript import Transcript

NEWLINE = "\n"          # text number 0: the end of a status line


class _Table:
    """Distinct values, each numbered once in the order first met."""

    def __init__(self, *first):
        self.items = list(first)
        self.numbers = {value: i for i, value in enumerate(self.items)}

    def __call__(self, value):
        number = self.numbers.get(value)
        if number is None:
            number = self.numbers[value] = len(self.items)
            self.items.append(value)
        return number


def write_page(transcript_path, out_path, seat=None):
    """Verify the transcript, then write its replay page (`seat`: that seat's views only).
    Returns the number of steps drawn."""
    replay(transcript_path)
    page, steps = make_page(transcript_path, seat)
    save(out_path, page)
    return steps


def make_page(transcript_path, seat=None):
    """(the page's HTML, the number of steps) for a transcript that replays."""
    transcript, moves, game = open_transcript(transcript_path)
    viewers = [viewer_of(game, seat)] if seat is not None else [None, *range(len(game.seats))]
    data, frame = collect(game, transcript, moves, viewers)
    players = transcript.header["players"]
    return _html(game, data, frame, players, transcript.name), data["steps"]


def state_after(transcript_path, steps, seat=None):
    """(game, state) after the first `steps` steps of a transcript's page: its decisions
    and concessions (its setup for 0); with a `seat`, of that seat's page, where a run of
    another seat's secret decisions is one step."""
    for step, (game, state) in enumerate(page_positions(transcript_path, seat)):
        if step == steps:
            return game, state
    raise GdlDataError(f"{named(transcript_path)} has {counted(step, 'step')}, not {steps}")


def page_positions(transcript_path, seat=None):
    """(game, state) at each step of a transcript's page (for `seat`'s page, or the full
    one), the setup first. The state is the replay's own: read it before the next."""
    transcript, moves, game = open_transcript(transcript_path)
    viewer = viewer_of(game, seat)
    state = game.new_state(transcript.header["seed"])
    played: list = []
    for move in moves:
        if viewer is None:
            yield game, state
            play_moves(game, state, [move], transcript.name, as_seat=False)
            continue
        after = state.clone()
        step = play_moves(game, after, [move], transcript.name, as_seat=False)
        if steps_seen(played + step, viewer) > steps_seen(played, viewer):
            yield game, state
        played, state = played + step, after
    yield game, state


def collect(game: Game, transcript: Transcript, moves: list, viewers: list
            ) -> tuple[dict, str]:
    """Replay the decisions and concessions; at every step record, per viewer, the places
    that changed, the status lines and the step's lines (narrated: what pieces did and
    whose dice). Returns (the page's data, the board's SVG)."""
    state = game.new_state(transcript.header["seed"], narrate=True)
    steps = _Steps(game, state, viewers)
    steps.snapshot([["setup"] + event_lines(game, state.events, v) for v in viewers])
    agent = ScriptedAgent(moves, source=transcript.path, as_seat=False)
    replaying = _Replaying(steps, agent)
    run_game(game, state, lambda seat, legal: agent.choose(game, state, legal),
             max_turns=transcript.header.get("max-turns"),
             max_decisions=decision_count(moves), observer=replaying)
    replaying.flush()
    drawn, height = pictures.frame(game, steps.sheet)
    keys = steps.places.items
    layout = pictures.Layout(steps.sheet, height, [k[2:] for k in keys
                                                   if k.startswith("z:") and "|" not in k],
                             steps.labels)
    frame = "\n".join([pictures.svg_open(layout.width, layout.height),
                       '<rect width="100%" height="100%" fill="#fff"/>', drawn,
                       '<g id="places"></g>', "</svg>"])
    data = {"steps": len(steps.views[0]["diffs"]),
            "viewers": ["all" if v is None else game.seats[v] for v in viewers],
            "places": [[key, *(round(c, 1) for c in layout.position(key))]
                       for key in keys],
            "frags": steps.fragments.items, "texts": steps.texts.items, "views": steps.views}
    return data, frame


class _Steps:
    """The page's steps as they are played, per viewer: the places that changed (numbered
    in `places`, drawn as the numbered `fragments`), the status as numbered parts (`texts`)
    and the step's lines."""

    def __init__(self, game: Game, state: State, viewers: list) -> None:
        self.game, self.state, self.viewers = game, state, viewers
        self.sheet = pictures.Sheet(game.rules.board)
        self.fragments, self.texts, self.places = _Table(""), _Table(NEWLINE), _Table()
        self.shown: list[dict] = [{} for _ in viewers]  # per viewer: place -> fragment shown
        self.status: list[list] = [[] for _ in viewers]  # per viewer: the status's parts
        self.views: list[dict[str, list[Any]]] = [
            {"diffs": [], "status": [], "log": []} for _ in viewers]
        self.labels = 0                 # the widest row label seen
        self.memo: dict = {}
        self.split: dict = {}

    def numbered(self, line: str) -> list[int]:
        """The numbers of a status line's parts, and 0 to end it."""
        if line not in self.split:
            self.split[line] = [self.texts(part) for part in parts(line)] + [
                self.texts(NEWLINE)]
        return self.split[line]

    def snapshot(self, logs: list[list[str]]) -> None:
        """Record a step: `logs` holds its lines for each viewer."""
        game, state = self.game, self.state
        for i, viewer in enumerate(self.viewers):
            view = game.view(state, viewer)
            found = {self.places(place): self.fragments(fragment) for place, fragment
                     in pictures.places(game, view, self.sheet, self.memo).items()}
            diff = []
            for place in sorted(set(found) | set(self.shown[i])):
                if found.get(place, 0) != self.shown[i].get(place, 0):
                    diff += [place, found.get(place, 0)]
            self.shown[i] = found
            # the pieces' lines too (a unit's models left): the panel beside the board
            # is where a watcher reads them, the pictures' tooltips being one at a time
            lines = [title(view)] + [line.strip() for line in status_lines(view)]
            # A line is sent as its parts between ", " (a variable's "name=value", mostly),
            # and a step as the parts that changed: most steps change one or two values.
            parts = [part for line in lines for part in self.numbered(line)]
            changed = [len(parts)]
            for position, part in enumerate(parts):
                if position >= len(self.status[i]) or self.status[i][position] != part:
                    changed += [position, part]
            self.status[i] = parts
            self.labels = max([self.labels] + [len(t) for t in view.get("row_labels") or ()])
            self.views[i]["diffs"].append(diff)
            self.views[i]["status"].append(changed)
            self.views[i]["log"].append([self.texts(line) for line in logs[i]])


class _Replaying(Observer):
    """Replays a transcript's concessions and records a step after each decision and
    concession, each viewer's lines as that seat may read them. On a page for one seat, a
    run of another seat's secret decisions is one step ('3. one: chooses in secret'), as
    on the hot-seat screen: neither the steps nor their numbers tell how many there were."""

    def __init__(self, steps: _Steps, agent: ScriptedAgent) -> None:
        self.steps, self.agent = steps, agent
        self.game, self.state, self.viewers = steps.game, steps.state, steps.viewers
        self.texts: list[str] = []      # the decision being played, as each viewer reads it
        self.shows_events: list[bool] = []     # and whether each viewer sees its events
        self.numbered = 0               # the decisions shown so far, a secret run as one
        self.seat = viewers[0] if len(viewers := self.viewers) == 1 else None  # a seat's page
        self.run: int | None = None     # the other seat whose secret run is being played
        self.held: list[str] = []       # that run's line and events, not yet a step
        self.hidden = False             # is the decision being played such a secret one

    def conceding(self, state: State) -> int | None:
        seat = self.agent.conceding(self.game, state)
        if seat is not None or not self.secret_for_seat(state):
            self.flush()
        return seat

    def secret_for_seat(self, state: State) -> bool:
        """Is the next decision another seat's secret one, on a page for one seat, and is it
        that seat's own run's next?"""
        game = self.game
        if self.seat is None or game.is_terminal(state) or not introspect.is_private(game, state):
            return False
        decider = game.current_player(state)
        return decider != self.seat and self.run in (None, decider)

    def flush(self) -> None:
        """Record the secret run being played, if any, as one step."""
        if self.run is not None:
            self.run = None
            self.steps.snapshot([self.held])

    def conceded(self, seat: int, events: list) -> None:
        self.steps.snapshot([[f"{self.game.seats[seat]} concedes"]
                             + event_lines(self.game, events, v) for v in self.viewers])

    def deciding(self, seat: int, action: Action) -> None:
        game, state = self.game, self.state
        private = introspect.is_private(game, state)
        self.shows_events = [not private or v is None or v == seat
                             or introspect.is_simultaneous(game, state) for v in self.viewers]
        self.hidden = self.seat is not None and private and seat != self.seat
        name = game.seats[seat]
        self.texts = [f"{name}: chooses in secret" if private and v is not None and v != seat
                      else f"{name}: {game.action_text(state, action, v)}"
                      for v in self.viewers]

    def decided(self, seat: int, legal: list, action: object, events: list) -> None:
        if self.run is None:
            self.numbered += 1
        logs = [([f"{self.numbered}. {text}"] if self.run is None else [])
                + (event_lines(self.game, events, v, text.split(": ", 1)[-1])
                   if self.shows_events[i] else [])
                for i, (v, text) in enumerate(zip(self.viewers, self.texts))]
        if self.hidden:
            self.held = logs[0] if self.run is None else self.held + logs[0]
            self.run = seat
            return
        self.steps.snapshot(logs)


def _html(game, data, frame, players, transcript_path):
    seats = ", ".join(f"{seat} ({player})" for seat, player in
                      zip(game.seats, players.split(", ")))
    options = "".join(
        f'<option value="{i}">{"all: every seat" if name == "all" else name + " sees"}'
        f'</option>' for i, name in enumerate(data["viewers"]))
    # inside <script>, "</" could end the element and "<!--" change how it is read: JSON
    # may write them as "<\/" and "<\u0021--"
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace(
        "</", "<\\/").replace("<!--", "<\\u0021--")
    last = data["steps"] - 1
    return (_asset("html").replace("@STYLE@", _asset("css"))
            .replace("@TITLE@", escape(game.name))
            .replace("@SUB@", escape(f"{os.path.basename(transcript_path)} - {seats}"))
            .replace("@OPTIONS@", options)
            .replace("@ONE@", ' disabled' if len(data["viewers"]) == 1 else "")
            .replace("@LAST@", str(last))
            .replace("@BOARD@", frame)
            .replace("@DATA@", payload)
            .replace("@SCRIPT@", _asset("js")))


def _asset(kind: str) -> str:
    """The page's HTML template, style or script: `replay_page.html`, `.css` or `.js`,
    package data beside this module."""
    return (resources.files(__package__) / f"replay_page.{kind}").read_text(encoding="utf-8")
