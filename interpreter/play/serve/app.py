"""The web side of `gdl serve`: a Starlette app that serves one `Session` to browsers.

Each human seat and the spectator get a secret token (`secrets.token_urlsafe`); the page is
at `/play/TOKEN` and talks to the server over the websocket `/ws/TOKEN`. An unknown token
gets a 403 and nothing else, and the websocket is refused before it opens.

Over the websocket the server sends JSON messages: `table` once (the game, the seats, the
board's cells), then `position` (the viewer's view drawn, its legal actions when it
decides) and `log` (the new lines narrated for the viewer) whenever what that viewer sees
changes, `error` (a refused message, with the reason) and `matches` (typed words that pick
out several actions: their indexes), `pong` (the answer to `{"type": "ping"}`, sent after
everything sent before it). The browser sends `{"type": "act", "index": I,
"text": T}` (action I of its list, which must still read T) or `{"type": "act", "text": T}`
(typed). A message that is not one gets an `error` reply; the server goes on.

Agents decide in a worker thread (`run_in_executor`), so the server keeps answering while
they think; a lock per table keeps one thing at a time touching the game. With `save`, the
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
from collections.abc import Callable
from contextlib import asynccontextmanager
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...language.errors import GdlDataError, GdlError, IllegalAction
from ...files import save as save_file, write_atomic
from ...loader import load_game
from .session import Session, seat_players

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from .session import Message

MOST_BYTES = 64 * 1024      # the longest message a browser may send
HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff"}


class Connection:
    """One open websocket: its viewer, and what it was sent last (to send only changes)."""

    def __init__(self, socket: WebSocket, viewer: int | None) -> None:
        self.socket, self.viewer = socket, viewer
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
        self.lock = asyncio.Lock()
        self.agents: asyncio.Task[None] | None = None

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
        """Send every connection what changed for it (and save the game, with --save)."""
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
                    action = await loop.run_in_executor(
                        None, agent.choose, session.game, session.state, legal)
                    session.decide(seat, action)
                await self.broadcast()
                if session.over():
                    return

    async def receive(self, connection: Connection, text: str) -> None:
        """Answer one message from a browser."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if isinstance(message, dict) and message.get("type") == "ping":
            async with self.lock:       # after whatever is being played is sent
                await connection.socket.send_json({"type": "pong"})
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
                     "message": f"{len(choice)} of {count} actions match '{message['text']}'"})
                return
            assert connection.viewer is not None     # session.choice refuses the spectator
            session.decide(connection.viewer, choice)
            await self.broadcast()
        self.start_agents()

    async def serve_socket(self, socket: WebSocket) -> None:
        known, viewer = self.viewer_of(socket.path_params["token"])
        if not known:
            await socket.close(code=1008)       # before accepting: the handshake gets 403
            return
        await socket.accept()
        connection = Connection(socket, viewer)
        async with self.lock:
            await socket.send_json(self.session.table())
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

    async def page(self, request: Request) -> Response:
        known, viewer = self.viewer_of(request.path_params["token"])
        if not known:
            return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)
        game = self.session.game
        who = "spectator" if viewer is None else game.seats[viewer]
        html = (_asset("html").replace("@STYLE@", _asset("css"))
                .replace("@TITLE@", escape(f"{game.name} - {who}"))
                .replace("@SCRIPT@", _asset("js")))
        return HTMLResponse(html, headers=HEADERS)

    async def nothing(self, request: Request) -> Response:
        return PlainTextResponse("forbidden: open the URL gdl serve printed", status_code=403,
                                 headers=HEADERS)

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
        """Load the rule file again; if it checks, a new session replays the decisions
        that still apply, else everyone is told the error."""
        loop = asyncio.get_running_loop()
        try:
            game = await loop.run_in_executor(None, load_game, path)
        except GdlError as exc:
            async with self.lock:
                self.session.note(f"the rule file changed and does not check:\n{exc.render()}")
                for connection in self.connections:
                    await connection.socket.send_json({"type": "error",
                                                       "message": exc.render()})
                await self.broadcast()
            return
        async with self.lock:
            old = self.session
            if game.source_hash == old.game.source_hash:
                return
            if game.seats != old.game.seats:    # the tokens are the seats'
                old.note(f"the rule file changed its seats to {', '.join(game.seats)}: restart "
                         "gdl serve to play them; the game goes on in the old rules")
                await self.broadcast()
                return
            new = Session(game, old.seed, old.players, old.secret_seed, old.rules_path)
            told = new.replay(old.texts)
            new.note(f"the rule file changed: {told}")
            self.session = new
            for connection in self.connections:
                connection.position, connection.lines = None, 0
                await connection.socket.send_json(new.table())
            await self.broadcast()
        self.start_agents()

    def app(self, watch: float | None = None) -> Starlette:
        """The app; `watch`: seconds between looks at the rule file (None: never)."""
        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            self.start_agents()
            path = self.session.rules_path
            watching = asyncio.create_task(self.watch(path, watch)) \
                if watch is not None and path is not None else None
            yield
            for task in (self.agents, watching):
                if task is not None:
                    task.cancel()

        return Starlette(routes=[Route("/", self.nothing),
                                 Route("/play/{token}", self.page),
                                 WebSocketRoute("/ws/{token}", self.serve_socket)],
                         lifespan=lifespan)


def _stamps(path: str) -> list[tuple[str, int, int]]:
    """(name, modification time, size) of the rule files in the folder of `path`."""
    folder = os.path.dirname(os.path.abspath(path))
    found = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".gdl"):
            try:
                stat = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            found.append((name, stat.st_mtime_ns, stat.st_size))
    return found


def _asset(kind: str) -> str:
    """The page's HTML, style or script: `table.html`, `.css` or `.js`, beside this module."""
    return (resources.files(__package__) / f"table.{kind}").read_text(encoding="utf-8")


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (0: a free port), or an error that says why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        bound = socket.socket(family, kind, proto)
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        bound.bind(address)
    except OSError as exc:
        raise GdlDataError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return bound


def urls(table: Table, host: str, port: int) -> list[tuple[str, str]]:
    """(who, URL) for each human seat, then the spectator."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    game = table.session.game
    return [(("spectator" if viewer is None else game.seats[viewer]),
             f"http://{shown}:{port}/play/{table.token_of(viewer)}")
            for viewer in table.session.viewers]


def run(table: Table, bound: socket.socket) -> None:
    """Serve until Ctrl-C."""
    config = uvicorn.Config(table.app(watch=1.0), log_level="warning", ws_max_size=MOST_BYTES,
                            lifespan="on")
    uvicorn.Server(config).run(sockets=[bound])


def serve_file(path: str, seats: str | None, host: str, port: int, seed: int | None,
               pace: float, say: Callable[[str], object], save: str | None = None) -> None:
    """Load a rule file, print a URL per human seat and the spectator's, serve until
    Ctrl-C. A human seat without a --seed gets a fresh one, as in `gdl play`: with it, a
    player could replay the setup and the agents' choices and read everything hidden."""
    game = load_game(path)
    players = seat_players(game.seats, seats)
    secret_seed = seed is None and "human" in players
    if seed is None:
        seed = secrets.randbits(63) if secret_seed else 0
    table = Table(Session(game, seed, players, secret_seed, path), pace, save)
    table.say = say
    if save is not None:        # now, so that a path that cannot be written is told at once
        save_file(save, table.session.transcript(save))
    bound = bind(host, port)
    port = bound.getsockname()[1]
    say(f"{game.name}: " + ", ".join(f"{seat} ({player})"
                                     for seat, player in zip(game.seats, players)))
    for who, url in urls(table, host, port):
        say(f"  {who}: {url}")
    if game.rules.hidden_information:
        say("the spectator sees every seat's hidden information: give its URL to no player")
    say("each URL holds a secret: give each player only their own; Ctrl-C stops the server")
    try:
        run(table, bound)
    except KeyboardInterrupt:       # uvicorn stops on Ctrl-C, then raises it again
        pass
    told = f" (the seed was {seed})" if secret_seed else ""
    say(f"server stopped{told}")
