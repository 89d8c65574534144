"""One game served to browsers, without the web: who plays each seat, the position, and
what each viewer has been told.

A viewer is a seat (an int) or None, the spectator, who sees what every seat may see.
Everything a viewer is sent is made from that viewer's own view (`game.view(state, viewer)`;
the spectator's: `view.public_view`), the action texts as it reads them
(`game.action_text(state, action, viewer)`; the spectator's: `public_text`) and the events
narrated for it (`narrate.event_lines`; the spectator's: `public_events`): another seat's
secret choices read "chooses in secret", one line for a whole run of them, and a message
that would not differ from the last one a viewer got is not sent at all, so not even how
many secret choices were made shows.

In: a loaded game, its rule file's path, a seed and one player text per seat (`human`,
`random`, `greedy`, `mcts:iterations=200`, as `--players` names them). Out: `position`
messages (plain dicts, sent as JSON) and decisions checked and played.
"""

from __future__ import annotations

import os
import traceback
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ...language.errors import (GdlDataError, GdlError, GdlRuntimeError, IllegalAction, counted,
                               shortened)
from ...runtime import events as ev
from ...runtime.introspect import is_private, is_simultaneous, result_text
from ...runtime.view import public_view, status_lines, title, turn_heading
from ..agents.agents import make_agents, matching, parse_player, resolve_input, unmatched
from .. import transcript as transcripts
from ..playing import stuck
from ..render import pictures
from ..render.narrate import changes, event_lines, public_events, public_text

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.state import Action, State
    from ...runtime.view import View

Viewer = "int | None"
Message = dict[str, Any]
MOST_TEXT = 1000        # the longest action's text a browser may send (typed words are
                        # matched against every legal action)


class Agent(Protocol):
    """What a session asks of a seat's agent."""
    name: str

    def choose(self, game: Game, state: State, legal: list[Action]) -> Action: ...


def seat_players(seats: list[str], spec: str | None) -> list[str]:
    """'red=human,blue=mcts:iterations=50' -> a player text per seat, in seat order; seats
    not named are random. No spec: the first seat is human, the others random. A seat or
    player that is not one is an error that names it."""
    if not spec:
        return ["human"] + ["random"] * (len(seats) - 1)
    named: dict[str, str] = {}
    for part in spec.split(","):
        seat, equals, player = (word.strip() for word in part.partition("="))
        if not equals or not seat or not player:
            raise GdlDataError(f"--seats: expected SEAT=PLAYER, e.g. {seats[0]}=human, not "
                               f"'{shortened(part.strip())}'")
        if seat not in seats:
            raise GdlDataError(f"--seats: unknown seat '{shortened(seat)}'; the seats are "
                               + ", ".join(seats))
        if seat in named:
            raise GdlDataError(f"--seats: seat '{seat}' is given twice")
        parse_player(player)
        named[seat] = player
    return [named.get(seat, "random") for seat in seats]


def for_seats(error: GdlError) -> str:
    """A run-time error of the rules as a page is told it: where it happened (FILE:LINE:COL
    and the rule's line), not its words, which may hold a value some seat may not see (a
    hidden count in `cannot roll 6 dice of -11 sides`, a hidden piece's label in the text of
    an action); the host has them whole (`failure`). An error of another kind (the rule file
    does not check) is about the text alone: as it is."""
    if not isinstance(error, GdlRuntimeError):
        return error.render()
    return GdlRuntimeError(
        "run-time error in the rules here (its words are for the host, in the lobby and the "
        "server's terminal: they may tell what a seat may not see)", file=error.file,
        line=error.line, column=error.column, source_line=error.source_line).render()


class Session:
    """A game, who plays each seat, and per viewer its log (lines narrated for it)."""

    def __init__(self, game: Game, seed: int, players: list[str],
                 secret_seed: bool = False, rules_path: str | None = None) -> None:
        self.game, self.seed = game, seed
        self.rules_path = rules_path        # for a saved transcript's header
        self.secret_seed = secret_seed      # told to everyone when the game ends
        self.players = players
        self.agents: list[Agent | Literal["human"]] = make_agents(
            ",".join(players), len(game.seats), seed)
        self.state: State = game.new_state(seed, narrate=True)
        # each viewer's view of the state as it is now, and the position message made from
        # it, made once however many pages show it: a decision's views before it are the
        # last one's after it; `decide` and `stop`, the only ones to change what they show,
        # empty them (`forget`)
        self.views: dict[int | None, View] = {}
        self.positions: dict[int | None, Message] = {}
        self.humans = [seat for seat, agent in enumerate(self.agents) if agent == "human"]
        self.viewers: list[int | None] = [*self.humans, None]
        self.logs: dict[int | None, list[str]] = {
            viewer: ["setup"] + ["  " + line for line in self.narrated(self.state.events,
                                                                        viewer)]
            for viewer in self.viewers}
        self.secret_run: dict[int | None, int | None] = {}  # viewer -> seat choosing unseen
        self.history: list[tuple[int, Action]] = []
        self.texts: list[str] = []      # each decision's text in full, to replay after a reload
        self.turn = -1
        # the rules stopped the game (stuck, or a run-time error), or an agent's failure did:
        # why, as the pages are told it (`for_seats`, `agent_failed`), and whole, for the
        # host alone (the lobby, the server's terminal)
        self.error: str | None = None
        self.failure: str | None = None
        self.sheet = pictures.Sheet(game.rules.board)
        self.frame, self.frame_height = pictures.frame(game, self.sheet)
        self._turn_started()
        if self.state.result is None:
            self.legal()                # rules stuck from the start say so at once
        self.shown: dict[int | None, View] = {}     # each viewer's last view made
        for viewer in self.viewers:     # rules whose views fail from the start: a GdlError
            self.view(viewer)

    # ----- what a viewer is sent ---------------------------------------------------------
    def table(self) -> Message:
        """What never changes: the game's name, the seats, the board's cells (name ->
        centre on the drawing, for marking destinations)."""
        board = self.game.rules.board
        return {"type": "table", "game": self.game.name, "seats": self.game.seats,
                "players": self.players,
                "cells": {board.names[cell]: [round(c, 1) for c in self.sheet.centre(cell)]
                          for cell in board.all_cells},
                "radius": round(self.sheet.radius, 1), "undo": len(self.humans) == 1}

    def position(self, viewer: int | None) -> Message:
        """The position as `viewer` sees it: title, status lines, board (SVG), whose
        decision, the viewer's legal actions when the decision is its own, the result.
        The log is not in it (see `log`). Made once per position (`positions`): it must
        not be changed."""
        found = self.positions.get(viewer)
        if found is None:
            view = self.view(viewer)
            found = {"type": "position", "seat": view["seat"], "title": title(view),
                     "status": [line.strip() for line in status_lines(view, pieces=False)],
                     "board": self.board(view), "deciding": view["deciding"],
                     "actions": self.actions(viewer), "result": view["result"],
                     "error": self.error, "undo": self.undo_refused(viewer)}
            self.positions[viewer] = found
        return found

    def forget(self) -> None:
        """The position is about to change: the views and positions made are stale."""
        self.views = {}
        self.positions = {}

    def view(self, viewer: int | None) -> View:
        """The position as `viewer` may see it: a seat's view, or the spectator's, what every
        seat may see. Made once per position (`views`): it must not be changed."""
        view = self.views.get(viewer)
        if view is None:
            try:
                view = self._made(viewer)
            except GdlError as exc:     # a `visible to` that fails: the game stops there,
                if viewer not in self.shown:    # shown as the viewer saw it last
                    raise
                if self.error is None:
                    self.stop(exc)
                view = self.shown[viewer]
            self.views[viewer] = self.shown[viewer] = view
        return view

    def _made(self, viewer: int | None) -> View:
        return public_view(self.game, self.state) if viewer is None else \
            self.game.view(self.state, viewer)

    def text(self, action: Action, viewer: int | None) -> str:
        """An action's text as `viewer` may read it (the spectator: `public_text`)."""
        if viewer is None:
            return public_text([self.game.action_text(self.state, action, seat)
                                for seat in range(len(self.game.seats))])
        return self.game.action_text(self.state, action, viewer)

    def narrated(self, events: list[ev.Event], viewer: int | None, said: str = "") -> list[str]:
        """The lines of a decision's events for `viewer` (the spectator: `public_events`)."""
        lines: list[str]
        if viewer is None:      # told as to a seat from which every piece hidden is hidden
            lines = event_lines(self.game, public_events(events, len(self.game.seats)), 0,
                                said)
        else:
            lines = event_lines(self.game, events, viewer, said)
        return lines

    def log(self, viewer: int | None) -> list[str]:
        return self.logs[viewer]

    def actions(self, viewer: int | None) -> list[str]:
        """The texts of the legal actions when `viewer` is a human seat to decide, else []."""
        if viewer is None or self.deciding_human() != viewer:
            return []
        return [self.game.action_text(self.state, action, viewer) for action in self.legal()]

    def board(self, view: View) -> str:
        """The view drawn: the frame, the pieces at their places, and an empty group
        (`marks`) where the page marks destinations."""
        game = self.game
        found = pictures.places(game, view, self.sheet)
        zones = [place[2:] for place in found if place.startswith("z:") and "|" not in place]
        labels = max((len(label) for label in view.get("row_labels") or ()), default=0)
        layout = pictures.Layout(self.sheet, self.frame_height, zones, labels)
        out = [pictures.svg_open(layout.width, layout.height),
               '<rect width="100%" height="100%" fill="#fff"/>', self.frame]
        out.extend(pictures.placed(layout, place, fragment) for place, fragment in found.items())
        out += ['<g id="marks"></g>', "</svg>"]
        return "\n".join(out)

    # ----- deciding ----------------------------------------------------------------------
    def over(self) -> bool:
        return self.state.result is not None or self.error is not None

    def deciding_seat(self) -> int | None:
        return None if self.over() else self.game.current_player(self.state)

    def deciding_human(self) -> int | None:
        seat = self.deciding_seat()
        return seat if seat is not None and self.agents[seat] == "human" else None

    def deciding_agent(self) -> tuple[int, Agent] | None:
        """(seat, agent) when an agent is to decide now, else None."""
        seat = self.deciding_seat()
        if seat is None:
            return None
        agent = self.agents[seat]
        return None if agent == "human" else (seat, agent)

    def legal(self) -> list[Action]:
        """The legal actions now; none left in a game not over, or a run-time error in
        listing them, is the rules' error, kept in `error` and told to everyone."""
        if self.error is not None:
            return []
        try:
            legal = self.game.legal_actions(self.state)
        except GdlError as exc:     # a `where` that fails (a division by zero)
            self.stop(exc)
            return []
        if not legal and self.state.result is None:
            self.stop(stuck(self.game, self.state), whole=True)
        return legal

    def note(self, line: str) -> None:
        """A line for every log."""
        for log in self.logs.values():
            log.append(line)

    def replay(self, texts: list[str]) -> tuple[str, str]:
        """Play decisions given by their full texts (as `texts` keeps them, or a
        transcript's), as far as they are legal; a sentence saying how many were, and which
        one stopped applying: for every seat (whose decision it was, by number: its text and
        why it no longer applies may tell what another seat may not see) and whole (with
        them, for the host)."""
        for number, text in enumerate(texts, 1):
            seat = self.deciding_seat()
            try:
                if seat is None:
                    raise IllegalAction("the game is over")
                action = self.game.parse_action(self.state, text, as_seat=False)
            except IllegalAction as exc:
                done = f"replayed {number - 1} of {counted(len(texts), 'decision')}; "
                whose = "" if seat is None else f"{self.game.seats[seat]}'s "
                return (f"{done}decision {number} ({whose}move) no longer applies",
                        f"{done}decision {number} ({text}) no longer applies: {exc.message}")
            self.decide(seat, action)
        said = f"replayed {'all ' * (len(texts) > 1)}{counted(len(texts), 'decision')}"
        return said, said

    def stop(self, error: GdlError, whole: bool = False) -> None:
        """The rules cannot go on: say why to everyone, a run-time error as `for_seats`
        words it (`whole`: as it is, for an error that holds nothing hidden: no legal
        action for the seat deciding in the phase it is in)."""
        self.forget()
        self.failure = error.render()
        self.error = self.failure if whole else for_seats(error)
        for log in self.logs.values():
            log.append(f"stopped: {self.error}")

    def agent_failed(self, seat: int, error: Exception) -> None:
        """The agent of `seat` raised `error` in choosing (or its choice could not be
        played): the game stops there. A run-time error of the rules met in its search is
        told as the rules' (`stop`); anything else is the agent's failure: the host has it
        whole, with its traceback (`failure`), the pages that it happened, not its words,
        which may name what a seat may not see (a hidden piece, an action's text)."""
        if isinstance(error, GdlError):
            self.stop(error)
            return
        who = f"{self.game.seats[seat]}'s agent ({self.players[seat]})"
        self.forget()
        said = "".join(traceback.format_exception_only(error)).strip()
        self.failure = f"{who} failed: {said}\n" + "".join(traceback.format_exception(error))
        self.error = (f"{who} failed (its error is for the host, in the lobby and the server's "
                      "terminal: it may tell what a seat may not see)")
        for log in self.logs.values():
            log.append(f"stopped: {self.error}")

    def choice(self, viewer: int | None, message: Any) -> Action | list[int]:
        """The action a viewer's message asks for: {"index": I, "text": T} (the list's
        action I, which must still read T) or {"text": T} typed (an action's text, its
        number, or words that pick out one action). A list of indexes when the words pick
        out several. Raises IllegalAction with the reason it is refused."""
        if viewer is None:
            raise IllegalAction("a spectator does not play")
        if self.over():
            raise IllegalAction("the game is over")
        seat = self.deciding_seat()
        if seat != viewer:
            name = "?" if seat is None else self.game.seats[seat]
            raise IllegalAction(f"it is not your decision: {name} is deciding")
        text, index = message.get("text"), message.get("index")
        if not isinstance(text, str):
            raise IllegalAction("expected the action's text")
        if len(text) > MOST_TEXT:
            raise IllegalAction(f"an action's text is at most {MOST_TEXT:,} characters, not "
                                f"{len(text):,}")
        legal = self.legal()
        if index is not None:
            if not isinstance(index, int) or isinstance(index, bool) or \
                    not 0 <= index < len(legal) or \
                    self.game.action_text(self.state, legal[index], viewer) != text:
                raise IllegalAction("the position changed: choose again")
            return legal[index]
        try:
            action: Action = resolve_input(self.game, self.state, legal, text)
            return action
        except IllegalAction as exc:
            found: list[int] = matching(self.game, self.state, legal, text, viewer)
            if len(found) == 1 and len(text.split()) > 1:
                return legal[found[0]]
            if found:
                return found
            why = unmatched(self.game, self.state, legal, text, viewer)
            raise IllegalAction(f"not accepted: {why or exc.message}") from None

    def decide(self, seat: int, action: Action) -> None:
        """Play `seat`'s `action` and tell each viewer what it may know of it."""
        game, state = self.game, self.state
        private = is_private(game, state)
        # in a simultaneous phase a choice does nothing until all have chosen; what happens
        # then (the reveal of every choice, and what it causes) is public
        simultaneous = is_simultaneous(game, state)
        before = {viewer: self.view(viewer) for viewer in self.viewers}
        texts = {viewer: self.text(action, viewer) for viewer in self.viewers}
        text = game.action_text(state, action)
        self.forget()
        try:
            events = game.apply(state, action, check=False)
        except GdlError as exc:     # a run-time error of the rules: the game cannot go on
            self.stop(exc)
            return
        self.history.append((seat, action))
        self.texts.append(text)
        name = game.seats[seat]
        failed: GdlError | None = None
        try:
            after = {viewer: self._made(viewer) for viewer in self.viewers}
        except GdlError as exc:     # a `visible to` that fails: stopped, after the decision
            after, failed = before, exc
        else:
            self.views.update(after)
            self.shown.update(after)
        for viewer, log in self.logs.items():
            said = texts[viewer]
            if private and viewer != seat:
                if self.secret_run.get(viewer) != seat:
                    log.append(f"{name}: chooses in secret")
                self.secret_run[viewer] = seat
                if not simultaneous:
                    continue
                said = ""
            else:
                self.secret_run[viewer] = None
                log.append(f"{name}: {said}")
            log.extend("  " + line for line in self.narrated(events, viewer, said))
            log.extend("  " + line for line in changes(before[viewer], after[viewer]))
        if failed is not None:
            self.stop(failed)
            return
        self._turn_started()
        if state.result is None:
            self.legal()

    def _turn_started(self) -> None:
        state = self.state
        if state.result is not None:
            for log in self.logs.values():
                log.append(f"game over: {result_text(self.game, state)}")
                if self.secret_seed:
                    log.append(f"the seed was {self.seed} (gdl play --seed {self.seed} "
                               "replays the setup)")
            return
        if state.turn != self.turn:
            self.turn = state.turn
            heading = turn_heading(self.game, state)
            if heading is not None:
                for log in self.logs.values():
                    log.append(heading)

    # ----- undoing ----------------------------------------------------------------------
    def undo_refused(self, viewer: int | None) -> str | None:
        """Why `viewer` may not undo now, or None when it may: undo is for a game with one
        human seat (the others agents), back to that seat's last decision."""
        if viewer is None:
            return "a spectator does not play"
        if len(self.humans) != 1:
            return "undo is for a game with one human seat; here " + \
                " and ".join(self.game.seats[seat] for seat in self.humans) + " play"
        if all(seat != viewer for seat, _ in self.history):
            return "nothing to undo: you have made no decision yet"
        return None

    def undone(self, viewer: int | None) -> Session:
        """A new session at the position before `viewer`'s last decision: the decisions
        before it played again from the same seed (the dice fall as they did), every log
        told so. Raises IllegalAction with the reason when `viewer` may not undo."""
        refused = self.undo_refused(viewer)
        if refused is not None or viewer is None:
            raise IllegalAction(refused or "a spectator does not play")
        last = max(index for index, (seat, _) in enumerate(self.history) if seat == viewer)
        new = Session(self.game, self.seed, self.players, self.secret_seed, self.rules_path)
        for seat, action in self.history[:last]:
            new.decide(seat, action)
        taken = len(self.history) - last
        new.note(f"undo: {counted(taken, 'decision')} taken back, to before "
                 f"{self.game.seats[viewer]}'s last ({self.texts[last]})")
        return new

    # ----- saving ------------------------------------------------------------------------
    def transcript(self, out_path: str) -> str:
        """The game so far as the transcript `gdl record` would write for the decisions so
        far, ending `unfinished:` (or `result:`, once the game is over), to be written at
        `out_path` (its `rules:` line is relative to it). It holds the seed and everything
        hidden: it is for the person running the server, never sent to a browser."""
        assert self.rules_path is not None
        lines = transcripts.saved_lines(self.game, self.seed, self.history)
        head = transcripts.header_lines(self.game, self.rules_path,
                                        os.path.dirname(os.path.abspath(out_path)),
                                        self.seed, self.players)
        return "\n".join(head + lines) + "\n"
