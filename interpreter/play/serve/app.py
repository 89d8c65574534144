"""The web side of `gdl serve`: a Starlette app that serves games (`Session`s, one `Table`
each) to browsers.

Each human seat and the spectator of each game get a secret token
(`secrets.token_urlsafe`); the page is at `/play/TOKEN` and talks to the server over the
websocket `/ws/TOKEN`. The host gets one more, for the lobby (`/lobby/TOKEN`: the games, their
URLs, a form that starts a new one; `/lobby/TOKEN/games`: the same as JSON, and POST to
start one; `/lobby/TOKEN/games/N/transcript`: game N so far as a transcript, to save).
An unknown token gets a 403 and nothing else, and the websocket is refused
before it opens.

Over the websocket the server sends JSON messages: `table` once (the game, the seats, the
board's cells), then `position` (the viewer's view drawn, its legal actions when it
decides) and `log` (the new lines narrated for the viewer) whenever what that viewer sees
changes, `error` (a refused message, with the reason) and `matches` (typed words that pick
out several actions: their indexes), `pong` (the answer to `{"type": "ping"}`, sent after
everything sent before it), `note` (a sentence for every page: how far a reload
replayed). The browser sends `{"type": "act", "index": I,
"text": T}` (action I of its list, which must still read T) or `{"type": "act", "text": T}`
(typed) or `{"type": "undo"}`. A message that is not one gets an `error` reply; the server
goes on.

Agents decide in a worker thread (`run_in_executor`, a pool of their own: `AGENTS`), so the
server keeps answering while they think; a lock per table keeps one thing at a time touching
its game, and each table has a game of its own (`introspect.twin`): a game holds what it is
running in itself, and two tables' agents search at once (on the native backend one at a
time: `NATIVE_SEARCH`). With `save`, the
game so far is written as a transcript after every decision; with `watch`, an edit of the
rule file starts a new session in the new rules that replays the decisions still legal, and
every browser receives all again (`table`, `position`, the log from line 0).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...language.errors import GdlDataError, GdlError, IllegalAction, counted, shortened
from ...files import named, save as save_file, shown_path, write_atomic
from ...loader import load_game
from ...runtime.introspect import result_text, searches_natively, twin
from ...runtime.view import turn_words
from .. import transcript as transcripts
from ..agents.agents import conceded_seat, parse_player
from .session import Session, for_seats, seat_players

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from ...runtime.engine import Game
    from ...runtime.state import Action, State

    from .session import Agent, Message

MOST_BYTES = 64 * 1024      # the longest message a browser may send
MOST_GAMES = 200            # games one server holds at most (each holds its position)
# The threads agents search in: a pool of their own, so that however many tables' agents
# are searching, a reload and a replay page (the loop's default pool) do not wait for them
AGENTS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="gdl-agent")
# One search at a time on the native backend (`searched`): its typed engine is one compiled
# module per rule file per process, which every table's twin shares, and a listing may keep
# values in the module's globals (`typed._Hoist`); a search that calls Python from the C code
# (`placements`) lets another thread's listing change them under it: with four tables of mcts
# seats on such rules the server crashed (a segmentation fault) within a second
NATIVE_SEARCH = threading.Lock()
MOST_PAGES = 32             # websockets open at once on one link (a seat's or the
                            # spectator's): a person's tabs and devices fit, a client that
                            # opens thousands is refused beyond it (each one is sent every move)
# The most an agent of a game the lobby starts may search per decision: with them an mcts
# seat decides in seconds (galaxy_of_d.gdl, 2 cores: ~4.5 s at 10,000 iterations, ~9 s with
# rollout=50 too), where the --players bound (10**9) would keep a table waiting for good; the
# command line's --seats is not bounded (the person at it sees the server, and Ctrl-C stops it)
LOBBY_MOST = {"iterations": 10_000, "rollout": 50}
HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff"}


class Connection:
    """One open websocket: its viewer, and what it was sent last (to send only changes)."""

    def __init__(self, socket: WebSocket, viewer: int | None) -> None:
        self.socket, self.viewer = socket, viewer
        self.restart()

    def restart(self) -> None:
        """Send everything again: the table, the position and the whole log (a new
        session)."""
        self.table_sent = False
        self.position: Message | None = None
        self.lines = 0          # lines of the viewer's log sent


class Table:
    """A session, its tokens (token -> viewer), its open connections, and the lock that
    keeps one thing at a time touching the game."""

    def __init__(self, session: Session, pace: float = 0.0, save: str | None = None) -> None:
        self.session = session
        self.pace = pace        # seconds to wait before each agent's decision
        self.save = save        # a transcript file rewritten after every decision
        self.say: Callable[[str], object] = print      # notes for the server's terminal
        self.tokens: dict[str, int | None] = {secrets.token_urlsafe(18): viewer
                                              for viewer in session.viewers}
        self.connections: list[Connection] = []
        self.opened: dict[int | None, int] = {}     # viewer -> websockets open on its link
        self.failure_told: str | None = None    # the stop last told to the server's terminal
        self.number = 0         # the game's number in its server's lobby (`Server.add`)
        self.lock = asyncio.Lock()
        self.pages = asyncio.Lock()     # one replay page built at a time (`Server.replay`)
        self.agents: asyncio.Task[None] | None = None
        # the pages' last word on the rule file is that it does not check or changed its
        # seats: the next loading that is taken is told, even one of the rules in play
        self.rules_told_otherwise = False

    def token_of(self, viewer: int | None) -> str:
        return next(token for token, v in self.tokens.items() if v == viewer)

    def viewer_of(self, token: str) -> tuple[bool, int | None]:
        """(known, viewer) for a token, compared in constant time."""
        for known, viewer in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return True, viewer
        return False, None

    async def update(self, connection: Connection) -> None:
        """Send `connection` what changed for its viewer: the position when it differs from
        the last one sent, the log's new lines."""
        session, viewer = self.session, connection.viewer
        if not connection.table_sent:
            await connection.socket.send_json(session.table())
            connection.table_sent = True
        position = session.position(viewer)
        if position != connection.position:
            await connection.socket.send_json(position)
            connection.position = position
        log = session.log(viewer)
        if len(log) > connection.lines:
            await connection.socket.send_json({"type": "log", "from": connection.lines,
                                               "lines": log[connection.lines:]})
            connection.lines = len(log)

    async def broadcast(self) -> None:
        """Send every connection what changed for it (and save the game, with --save); the
        server's terminal is told once why a game the rules (or an agent) stopped stopped,
        and which game: its number, as the lobby and the start show it."""
        failure = self.session.failure
        if failure is not None and failure != self.failure_told:
            self.failure_told = failure
            self.say(f"game {self.number} stopped:\n{failure}")
        if self.save is not None:
            try:
                write_atomic(self.save, self.session.transcript(self.save))
            except OSError as exc:
                self.say(f"not saved: cannot write {self.save}: {exc.strerror}")
        for connection in list(self.connections):
            try:
                await self.update(connection)
            except (WebSocketDisconnect, RuntimeError):
                self.drop(connection)

    def drop(self, connection: Connection) -> None:
        if connection in self.connections:
            self.connections.remove(connection)

    def start_agents(self) -> None:
        """Let the agents play, in the background, until a human is to decide."""
        if self.agents is None or self.agents.done():
            self.agents = asyncio.create_task(self.play_agents())

    async def play_agents(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.pace:
                await asyncio.sleep(self.pace)
            async with self.lock:
                session = self.session      # a new one after a reload
                turn = session.deciding_agent()
                if turn is None:
                    return
                seat, agent = turn
                legal = session.legal()
                if legal:
                    try:
                        action = await loop.run_in_executor(
                            AGENTS, searched, agent, session.game, session.state, legal)
                        session.decide(seat, action)
                    except Exception as exc:    # noqa: BLE001 - whatever the agent raised:
                        session.agent_failed(seat, exc)     # the game stops, and says so
                await self.broadcast()
                if session.over():
                    return

    async def receive(self, connection: Connection, text: str) -> None:
        """Answer one message from a browser."""
        try:
            message = _parsed(text)
        except GdlDataError as exc:
            await connection.socket.send_json({"type": "error", "message": exc.message})
            return
        if isinstance(message, dict) and message.get("type") == "ping":
            async with self.lock:       # after whatever is being played is sent
                await connection.socket.send_json({"type": "pong"})
            return
        if isinstance(message, dict) and message.get("type") == "undo":
            await self.undo(connection)
            return
        if not isinstance(message, dict) or message.get("type") != "act":
            await connection.socket.send_json(
                {"type": "error", "message": 'expected {"type": "act", "text": ...}'})
            return
        async with self.lock:
            session = self.session
            try:
                choice = session.choice(connection.viewer, message)
            except IllegalAction as exc:
                await connection.socket.send_json({"type": "error", "message": exc.message})
                return
            if isinstance(choice, list):
                count = len(session.game.legal_actions(session.state))
                await connection.socket.send_json(
                    {"type": "matches", "indexes": choice,
                     "message": f"{len(choice)} of {counted(count, 'action')} match "
                                f"'{message['text']}'"})
                return
            assert connection.viewer is not None     # session.choice refuses the spectator
            session.decide(connection.viewer, choice)
            await self.broadcast()
        self.start_agents()

    async def undo(self, connection: Connection) -> None:
        """Take back the connection's seat's last decision and the agents' after it."""
        async with self.lock:
            try:
                new = self.session.undone(connection.viewer)
            except IllegalAction as exc:
                await connection.socket.send_json({"type": "error", "message": exc.message})
                return
            await self.replace(new)
        self.start_agents()

    async def replace(self, new: Session) -> None:
        """Go on with a new session (after a reload or an undo): every page receives it
        all again."""
        self.session = new
        for connection in self.connections:
            connection.restart()
        await self.broadcast()

    async def serve_socket(self, socket: WebSocket, viewer: int | None) -> None:
        """Serve one websocket of `viewer`'s link until it closes; one beyond MOST_PAGES open
        on the link is closed at once, with a reason the page shows (counted before any
        await, so that a burst of them cannot slip past)."""
        if self.opened.get(viewer, 0) >= MOST_PAGES:
            await socket.accept()       # (a handshake refused shows the page no reason)
            await socket.close(code=1008, reason=f"this link is open in "
                               f"{counted(MOST_PAGES, 'page')} already, the most: close one, "
                               "then reload this page")
            return
        self.opened[viewer] = self.opened.get(viewer, 0) + 1
        try:
            await self.serve_open(socket, viewer)
        finally:
            self.opened[viewer] -= 1

    async def serve_open(self, socket: WebSocket, viewer: int | None) -> None:
        await socket.accept()
        connection = Connection(socket, viewer)
        async with self.lock:
            await self.update(connection)
            self.connections.append(connection)
        try:
            while True:
                received = await socket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None or len(text) > MOST_BYTES:
                    await socket.send_json({"type": "error", "message": "expected a JSON text "
                                            f"message of at most {MOST_BYTES} bytes"})
                    continue
                await self.receive(connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            self.drop(connection)

    async def take(self, game: Game) -> GdlError | None:
        """Go on in a new loading of the rule file (its seats unchanged): a new session, in
        a twin of `game` of its own, replays the decisions that still apply, and everyone is
        told how far. Rules that fail in their setup (at run time) are told to the pages, the
        game goes on in the rules it had, and the error is returned, for the server's
        terminal (`Server.reload` tells it once for all the games)."""
        async with self.lock:
            old = self.session
            if game.source_hash == old.game.source_hash and not self.rules_told_otherwise:
                return None
            game = await asyncio.get_running_loop().run_in_executor(None, twin, game)
            if game.seats != old.game.seats:    # the tokens are the seats'
                self.rules_told_otherwise = True
                old.note(f"the rule file changed its seats to {', '.join(game.seats)}: restart "
                         "gdl serve to play them; the game goes on in the old rules")
                await self.broadcast()
                return None
            try:
                new = Session(game, old.seed, old.players, old.secret_seed, old.rules_path)
                told = f"the rule file changed: {new.replay(old.texts)[0]}"
            except GdlError as exc:     # it checks, but fails in its setup (at run time)
                await self.told(exc, "fails in its setup, and the game goes on in the rules it "
                                "had")
                return exc
            self.rules_told_otherwise = False
            new.note(told)
            await self.replace(new)
            await self.tell_all({"type": "note", "message": told})
        self.start_agents()
        return None

    async def tell_all(self, message: Message) -> None:
        """Send every open connection the same message (one that holds nothing secret)."""
        for connection in list(self.connections):
            try:
                await connection.socket.send_json(message)
            except (WebSocketDisconnect, RuntimeError):
                self.drop(connection)

    async def tell(self, error: GdlError) -> None:
        """The rule file changed and does not check: everyone is told, the game goes on."""
        async with self.lock:
            await self.told(error)

    async def told(self, error: GdlError, what: str = "does not check") -> None:
        """`tell`, the lock held; `what` the rule file does (a run-time error of the new
        rules' setup as `for_seats` words it: the server's terminal has it whole, from
        `Server.reload`)."""
        self.rules_told_otherwise = True
        told = for_seats(error)
        self.session.note(f"the rule file changed and {what}:\n{told}")
        await self.tell_all({"type": "error", "message": told})
        await self.broadcast()

    def stop(self) -> None:
        if self.agents is not None:
            self.agents.cancel()

    def summary(self, base: str) -> dict[str, Any]:
        """The game for the lobby: its number, where it stands, and its URLs (`base`:
        'http://host:port')."""
        session = self.session
        game = session.game
        state = session.state
        if session.failure is not None:     # the host's: the error whole, as the CLI says it
            where = "stopped: " + session.failure.split("\n", 1)[0]
        elif state.result is not None:
            where = f"game over: {result_text(game, state)}"
        else:
            deciding = session.deciding_seat()
            said = [turn_words(game, state.turn),
                    None if deciding is None else f"{game.seats[deciding]} deciding"]
            where = ", ".join(filter(None, said)) or "playing"
        return {"number": self.number, "seats": game.seats, "players": session.players,
                "decisions": len(session.history), "where": where,
                "urls": {("spectator" if viewer is None else game.seats[viewer]):
                         f"{base}/play/{self.token_of(viewer)}" for viewer in session.viewers}}


class Server:
    """The games of one rule file in one server: the tables, the host's lobby token, and
    how a new game is made (the players, the seeds: the one given plus the game's number,
    or each its own secret one). `refused(path)` says why a game's --save file cannot be
    written (a file the person made), or None: the command line checks the games it starts,
    the server each one the lobby starts later."""

    def __init__(self, game: Game, players: list[str], seed: int | None, pace: float = 0.0,
                 save: str | None = None, rules_path: str | None = None,
                 say: Callable[[str], object] = print,
                 refused: Callable[[str], str | None] = lambda path: None) -> None:
        self.game, self.players, self.seed = game, players, seed
        self.pace, self.save, self.rules_path, self.say = pace, save, rules_path, say
        self.refused = refused
        self.tables: list[Table] = []
        self.lobby_token = secrets.token_urlsafe(18)
        self.base = ""          # 'http://host:port', for the lobby's URLs

    def new_table(self, players: list[str] | None = None) -> Table:
        """Start one more game (with `players`, else the server's); a game beyond
        MOST_GAMES is refused."""
        if len(self.tables) >= MOST_GAMES:
            raise GdlDataError(f"no more games: this server holds at most {MOST_GAMES}")
        players = players or self.players
        number = len(self.tables) + 1
        save = saved_as(self.save, number)
        why = None if save is None else self.refused(save)
        if why is not None:
            raise GdlDataError(f"no game {number}: it would be saved to {save}, but {why} "
                               "(move that file away, or start the server again with another "
                               "--save)")
        secret_seed = self.seed is None and "human" in players
        seed = secrets.randbits(63) if secret_seed else (self.seed or 0) + number - 1
        table = Table(Session(twin(self.game), seed, players, secret_seed, self.rules_path),
                      self.pace, save)
        if save is not None:        # at once: nothing can be put there before the first save,
            save_file(save, table.session.transcript(save))     # and a failure is told now
        return self.add(table)

    def add(self, table: Table) -> Table:
        table.say = self.say
        table.number = len(self.tables) + 1
        self.tables.append(table)
        return table

    def find(self, token: str) -> tuple[Table, int | None] | None:
        """The table and viewer of a token, or None; every token is compared, in constant
        time."""
        found = None
        for table in self.tables:
            known, viewer = table.viewer_of(token)
            if known:
                found = (table, viewer)
        return found

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.lobby_token.encode(), token.encode())

    async def page(self, request: Request) -> Response:
        found = self.find(request.path_params["token"])
        if found is None:
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        table, viewer = found
        game = table.session.game
        who = "spectator" if viewer is None else game.seats[viewer]
        token = request.path_params["token"]
        replay = "" if viewer is None or table.session.rules_path is None else (
            f'<a id="replay" href="/replay/{escape(token)}" target="_blank" '
            'rel="noopener noreferrer">replay so far</a>')
        html = (_asset("table.html").replace("@STYLE@", _asset("table.css"))
                .replace("@REPLAY@", replay)
                .replace("@TITLE@", escape(f"{game.name} - {who}"))
                .replace("@SCRIPT@", _asset("table.js")))
        return HTMLResponse(html, headers=HEADERS)

    async def replay(self, request: Request) -> Response:
        """GET: the replay page of the game so far as a seat saw it (`gdl replay --html
        --seat`), for that seat's token: every step it saw, from its own views only (no
        seed, nothing hidden from it). A spectator's token gets none: the page for no seat
        would be the full view."""
        found = self.find(request.path_params["token"])
        if found is None:
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        table, viewer = found
        session = table.session
        if viewer is None or session.rules_path is None:
            return PlainTextResponse("a replay is a seat's: open it from a seat's page",
                                     status_code=404, headers=HEADERS)
        from ..render.replay_page import make_page
        seat = session.game.seats[viewer]
        # The game so far is taken under the table's lock; the page (every step replayed
        # and drawn: seconds for a long game) is built outside it, in a worker thread, so
        # the table and every other one go on meanwhile; one page a table at a time.
        async with table.pages:
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "the game so far")
                async with table.lock:
                    try:
                        save_file(path, session.transcript(path))
                    except GdlDataError as exc:     # a rule file no transcript can name
                        return _refused(exc, "no replay page (it is drawn from a transcript): ")
                try:
                    page, _ = await asyncio.to_thread(make_page, path, seat)
                except GdlError as exc:     # rules that failed at run time (a `visible to`)
                    return PlainTextResponse(f"no replay page: {for_seats(exc)}",
                                             status_code=409, headers=HEADERS)
        return HTMLResponse(page, headers=HEADERS)

    async def serve_socket(self, socket: WebSocket) -> None:
        found = self.find(socket.path_params["token"])
        if found is None:
            await socket.close(code=1008)       # before accepting: the handshake gets 403
            return
        table, viewer = found
        await table.serve_socket(socket, viewer)

    async def nothing(self, request: Request) -> Response:
        return PlainTextResponse("forbidden: open the URL gdl serve printed", status_code=403,
                                 headers=HEADERS)

    async def lobby(self, request: Request) -> Response:
        if not self.is_host(request.path_params["token"]):
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        html = _asset("lobby.html").replace("@TITLE@", escape(f"{self.game.name} - games"))
        return HTMLResponse(html, headers=HEADERS)

    async def games(self, request: Request) -> Response:
        """GET: the games as JSON; POST {"seats": "red=human,..."}: start one more (a body
        over MOST_BYTES is refused, read no further)."""
        if not self.is_host(request.path_params["token"]):
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        if request.method == "POST":
            body = await _body(request, MOST_BYTES)
            if body is None:
                return JSONResponse({"error": f"expected a body of at most {MOST_BYTES:,} bytes"},
                                    status_code=413, headers=HEADERS)
            try:
                table = self.new_table(self.asked_players(body))
            except GdlDataError as exc:         # a path in it may not be UTF-8
                return JSONResponse({"error": shown_path(exc.message)}, status_code=400,
                                    headers=HEADERS)
            except GdlError as exc:     # rules (reloaded) that fail in their setup
                return JSONResponse({"error": shown_path(exc.render())}, status_code=400,
                                    headers=HEADERS)
            table.start_agents()
            return JSONResponse(table.summary(self.base), headers=HEADERS)
        base = self.base or f"{request.url.scheme}://{request.url.netloc}"
        return JSONResponse({"game": self.game.name, "seats": self.game.seats,
                             "players": self.players,
                             "games": [table.summary(base) for table in self.tables]},
                            headers=HEADERS)

    def asked_players(self, body: bytes) -> list[str] | None:
        """The players a POST to the lobby asks for: its body is {"seats":
        "SEAT=PLAYER,..."}, as --seats takes them; `seats` left out or empty: the server's
        (None). An agent's search beyond LOBBY_MOST is refused. Anything else is a GdlDataError
        that says what is expected."""
        asked = _parsed(body)
        spec = asked.get("seats", "") if isinstance(asked, dict) else None
        if not isinstance(spec, str):
            raise GdlDataError('expected {"seats": "SEAT=PLAYER,..."}')
        if not spec:
            return None
        players = seat_players(self.game.seats, spec)
        for seat, player in zip(self.game.seats, players):
            name, given = parse_player(player)
            for key, value in given.items():
                most = LOBBY_MOST.get(key)
                if most is not None and value > most:
                    raise GdlDataError(f"{seat}={player}: {key} in a game the lobby starts must "
                                       f"be at most {most:,}, not {value:,} (each decision "
                                       f"of {name} would keep the table waiting)")
        return players

    async def transcript(self, request: Request) -> Response:
        """GET: game N so far as a transcript, for the host to keep (`gdl serve FILE
        --resume` goes on with it; its `rules:` line is relative to the folder the server
        runs in). It holds the seed and everything hidden: the lobby's token only."""
        if not self.is_host(request.path_params["token"]):
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        number = request.path_params["number"]
        if not 1 <= number <= len(self.tables):
            return PlainTextResponse(f"no game {number}", status_code=404, headers=HEADERS)
        session = self.tables[number - 1].session
        if session.rules_path is None:
            return PlainTextResponse("no rule file to name", status_code=404, headers=HEADERS)
        async with self.tables[number - 1].lock:
            try:
                text = session.transcript(os.path.join(os.getcwd(), "saved.txt"))
            except GdlDataError as exc:         # a rule file no transcript can name
                return _refused(exc)
        name = f"game-{number}-{len(session.history)}-decisions.txt"
        return PlainTextResponse(text, headers={
            **HEADERS, "Content-Disposition": f'attachment; filename="{name}"'})

    async def watch(self, path: str, every: float) -> None:
        """Reload the rule file when it, or a rule file beside it (its base), changes."""
        stamps = _stamps(path)
        while True:
            await asyncio.sleep(every)
            now = _stamps(path)
            if now != stamps:
                stamps = now
                await self.reload(path)

    async def reload(self, path: str) -> None:
        """Load the rule file again; if it checks, every game goes on in it (replaying
        the decisions that still apply), else everyone is told the error."""
        loop = asyncio.get_running_loop()
        try:
            game = await loop.run_in_executor(None, load_game, path)
        except GdlError as exc:
            for table in self.tables:
                await table.tell(exc)
            return
        if game.seats == self.game.seats:
            self.game = game            # new games start in the new rules
        failed: list[tuple[int, GdlError]] = []
        for number, table in enumerate(self.tables, 1):
            error = await table.take(game)
            if error is not None:
                failed.append((number, error))
        if failed:                      # once, however many games it failed in
            self.say(_setup_failed(failed, len(self.tables)))

    def app(self, watch: float | None = None) -> Starlette:
        """The app; `watch`: seconds between looks at the rule file (None: never)."""
        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            for table in self.tables:
                table.start_agents()
            path = self.rules_path
            watching = asyncio.create_task(self.watch(path, watch)) \
                if watch is not None and path is not None else None
            yield
            for table in self.tables:
                table.stop()
            if watching is not None:
                watching.cancel()

        return Starlette(routes=[Route("/", self.nothing),
                                 Route("/play/{token}", self.page),
                                 Route("/replay/{token}", self.replay),
                                 WebSocketRoute("/ws/{token}", self.serve_socket),
                                 Route("/lobby/{token}", self.lobby),
                                 Route("/lobby/{token}/games", self.games,
                                       methods=["GET", "POST"]),
                                 Route("/lobby/{token}/games/{number:int}/transcript",
                                       self.transcript)],
                         lifespan=lifespan)


def searched(agent: Agent, game: Game, state: State, legal: list[Action]) -> Action:
    """`agent`'s choice, in an agent's thread: an agent that searches the native backend's
    typed engine searches alone (`NATIVE_SEARCH`); a random one touches no engine."""
    if agent.name == "random" or not searches_natively(game):
        return agent.choose(game, state, legal)
    with NATIVE_SEARCH:
        return agent.choose(game, state, legal)


def _setup_failed(failed: list[tuple[int, GdlError]], games: int) -> str:
    """The server's terminal's line for a reload whose rules fail in their setup in the
    games `failed` ((number, error), of `games`): the first one's error whole (a setup
    that rolls dice may fail in some games only, or in words that differ)."""
    number, error = failed[0]
    if games == 1:
        return ("the rule file changed and fails in its setup; the game goes on in the rules "
                f"it had:\n{error.render()}")
    which = f"all {games} games" if len(failed) == games else \
        f"{counted(len(failed), 'game')} of {games} (" + \
        ", ".join(str(n) for n, _ in failed) + ")"
    differ = len({e.render() for _, e in failed})
    whose = f"game {number}'s error" + ("" if differ == 1 else
                                        f", one of {differ} different ones")
    return (f"the rule file changed and fails in its setup in {which}, which go on in the "
            f"rules they had; {whose}:\n{error.render()}")


def saved_as(path: str | None, number: int) -> str | None:
    """Where game `number` is saved with `--save PATH`: PATH for the first, PATH with
    '-N' before its extension for game N (`game.txt`, `game-2.txt`)."""
    if path is None or number == 1:
        return path
    stem, extension = os.path.splitext(path)
    return f"{stem}-{number}{extension}"


def _refused(exc: GdlDataError, why: str = "") -> Response:
    """What the server cannot make (a transcript of a rule file whose name is not UTF-8,
    which a transcript cannot name) refused in words, after `why`: 409, the request is
    sound but the server's rule file does not allow it, and no traceback in the server's
    log. A reply is UTF-8 text: a name that is not shows U+FFFD."""
    return PlainTextResponse(shown_path(why + exc.message), status_code=409, headers=HEADERS)


async def _body(request: Request, most: int) -> bytes | None:
    """A request's body, or None when it is longer than `most` bytes (read no further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _parsed(text: str | bytes) -> Any:
    """A browser's JSON, or None when it is not JSON: not UTF-8, not JSON, or nested
    deeper than the parser goes (json raises RecursionError for `[[[...`). JSON whose
    escapes make a lone surrogate (`"\\ud800"`) is a GdlDataError that says so: such a
    text is no characters, and echoing it back (in an error reply) cannot be sent."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    half = _lone_surrogate(parsed)
    if half is not None:
        raise GdlDataError(f"expected text of characters, not a lone \\u{ord(half):04x} (half "
                           "of a UTF-16 surrogate pair)")
    return parsed


def _lone_surrogate(value: Any) -> str | None:
    """A lone surrogate in a parsed JSON value's texts (keys too), or None; walked
    with a stack, since the value may be nested as deep as json goes."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return item[exc.start]
    return None


def _stamps(path: str) -> list[tuple[str, int, int]]:
    """(name, modification time, size) of the rule files in the folder of `path` (none
    while the folder cannot be listed: moved away, say)."""
    found: list[tuple[str, int, int]] = []
    try:
        folder = os.path.dirname(os.path.abspath(path))     # (abspath: the working folder)
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        if name.endswith(".gdl"):
            try:
                stat = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            found.append((name, stat.st_mtime_ns, stat.st_size))
    return found


def _asset(name: str) -> str:
    """A page's HTML, style or script (`table.html`, `table.css`, `table.js`,
    `lobby.html`), beside this module."""
    return (resources.files(__package__) / name).read_text(encoding="utf-8")


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (0: a free port), or an error that says why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        bound = socket.socket(family, kind, proto)
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        bound.bind(address)
        bound.listen(2048)      # now: a browser that connects before uvicorn runs waits
    except OSError as exc:
        raise GdlDataError(f"cannot listen on {shortened(host)}:{port}: {exc.strerror or exc}"
                           ) from None
    except UnicodeError as exc:     # a name the IDNA codec refuses: a part of it too long, empty
        why = exc.__cause__ or exc
        raise GdlDataError(f"cannot listen on {shortened(host)}:{port}: not a host name "
                           f"({why})") from None
    return bound


def address(host: str, port: int) -> str:
    """'http://host:port' as a browser elsewhere would reach it: a wildcard address names
    this machine."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}"


def urls(table: Table, host: str, port: int) -> list[tuple[str, str]]:
    """(who, URL) for each human seat, then the spectator."""
    return list(table.summary(address(host, port))["urls"].items())


class _Announcing(uvicorn.Server):
    """A server that calls `announce` once it has started: Ctrl-C after the addresses are
    shown stops it cleanly (one during its start-up made uvicorn log a traceback)."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], object]) -> None:
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if not self.should_exit:
            self.announce()


def run(server: Server, bound: socket.socket,
        announce: Callable[[], object] = lambda: None) -> None:
    """Serve until Ctrl-C; `announce` once the server has started."""
    config = uvicorn.Config(server.app(watch=1.0), log_level="warning",
                            ws_max_size=MOST_BYTES, lifespan="on")
    _Announcing(config, announce).run(sockets=[bound])


def _warn(line: str) -> None:
    """A warning for whoever runs the server: the standard error (the output holds the
    URLs)."""
    print(line, file=sys.stderr)


def resumed(path: str, rules_path: str, seats: str | None,
            warn: Callable[[str], object] = _warn) -> tuple[Game, int, list[str], list[str]]:
    """(the game, seed, players, decisions' texts) of a transcript saved by `gdl play`,
    `gdl record` or `gdl serve --save`, to go on with in a server of `rules_path`: it must
    replay exactly in that rule file, and not be over; `seats` (--seats) replaces its
    players. A rule file whose text alone changed (every decision replays identically: a
    comment added, `gdl fmt` run) is a line given to `warn`, as `gdl play --resume` says it.
    Anything else is a GdlDataError that says why."""
    saved = transcripts.read_transcript(path)
    rules = saved.rules_file()
    if os.path.realpath(rules) != os.path.realpath(rules_path):
        raise GdlDataError(f"{saved.name} is a game of {rules}, not of {rules_path}")
    try:
        transcripts.replay(path)        # it replays exactly, in the rule file as it is now
    except transcripts.RulesChanged as changed:
        warn(f"warning: {changed.message}: the game goes on in the rule file as it is now")
    saved.refuse_finished()
    moves = transcripts.moves_of(saved)
    conceded = [text for _, text in moves if conceded_seat(text) is not None]
    if conceded:
        raise GdlDataError(f"{saved.name}: a seat gave up ({conceded[0]}); gdl serve cannot go on "
                           "after a concession (gdl play --resume can)")
    game = load_game(rules_path)
    if seats:
        players = seat_players(game.seats, seats)
    else:
        players = saved.players()
        if len(players) != len(game.seats):
            raise GdlDataError(f"{saved.name}: 'players:' names "
                               f"{counted(len(players), 'player')} for "
                               f"{counted(len(game.seats), 'seat')}")
    return game, saved.header["seed"], players, [text for _, text in moves]


def make_server(path: str, seats: str | None, seed: int | None, pace: float,
                say: Callable[[str], object] = print, save: str | None = None,
                games: int = 1, resume: str | None = None,
                refused: Callable[[str], str | None] = lambda path: None,
                warn: Callable[[str], object] = _warn) -> Server:
    """A server of the rule file with its `games` games started (with `resume`, one: the
    saved game, its decisions played again), before it listens; `refused`: as `Server`'s;
    `warn`: as `resumed`'s."""
    if games > MOST_GAMES:
        raise GdlDataError(f"--games: at most {MOST_GAMES}, not {games}")
    if resume is None:
        game = load_game(path)
        players = seat_players(game.seats, seats)
        server = Server(game, players, seed, pace, save, path, say, refused)
        for _ in range(games):
            server.new_table()
    else:
        if games != 1:
            raise GdlDataError("--resume goes on with one game: leave out --games")
        if seed is not None:
            raise GdlDataError("--resume goes on with the saved game's seed: leave out --seed")
        game, saved_seed, players, texts = resumed(resume, path, seats, warn)
        server = Server(game, players, None, pace, save, path, say, refused)
        session = Session(game, saved_seed, players, "human" in players, path)
        told, whole = session.replay(texts)
        if len(session.texts) != len(texts):        # transcripts.replay found it replays
            raise GdlDataError(f"{resume}: {whole}")
        session.note(f"resumed from {os.path.basename(named(resume))}: {told}")
        if save is not None:        # now, as `new_table` does: a path that cannot be written
            save_file(save, session.transcript(save))       # is told at once
        server.add(Table(session, pace, save))
    return server


def serve_file(path: str, seats: str | None, host: str, port: int, seed: int | None,
               pace: float, say: Callable[[str], object], save: str | None = None,
               games: int = 1, resume: str | None = None,
               refused: Callable[[str], str | None] = lambda path: None) -> None:
    """Load a rule file, start `games` games (or go on with the game saved in the
    transcript `resume`), print the lobby's URL and each game's URL per human seat and its
    spectator's, serve until Ctrl-C. A game with a human seat and no --seed gets a fresh
    seed of its own, as in `gdl play`: with it, a player could replay the setup and the
    agents' choices and read everything hidden. `refused(path)`: why a --save file of a game
    the lobby starts cannot be written (`Server`)."""
    server = make_server(path, seats, seed, pace, say, save, games, resume, refused)
    game, players = server.game, server.players
    bound = bind(host, port)
    port = bound.getsockname()[1]
    server.base = address(host, port)
    resumed = counted(len(server.tables[0].session.texts), "decision")
    told = f" (resumed from {named(resume)}: {resumed})" if resume is not None else ""

    def announce() -> None:         # once the server has started
        say(f"{game.name}: " + ", ".join(f"{seat} ({player})"
                                         for seat, player in zip(game.seats, players)) + told)
        for number, table in enumerate(server.tables, 1):
            if games > 1:
                say(f"game {number}:")
            for who, url in urls(table, host, port):
                say(f"  {who}: {url}")
        say(f"  lobby (the games, and a new one): {server.base}/lobby/{server.lobby_token}")
        say("each URL holds a secret: give each player only their own; Ctrl-C stops the "
            "server")
    try:
        run(server, bound, announce)
    except KeyboardInterrupt:       # uvicorn stops on Ctrl-C, then raises it again
        pass
    secret = [(number, table.session.seed) for number, table in enumerate(server.tables, 1)
              if table.session.secret_seed]
    told = "" if not secret else f" (the seed was {secret[0][1]})" if len(server.tables) == 1 \
        else " (the seeds were " + ", ".join(f"game {n}: {s}" for n, s in secret) + ")"
    say(f"server stopped{told}")
