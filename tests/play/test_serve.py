"""`gdl serve`'s websocket API, driven from Python with Starlette's TestClient: a whole game
with one human seat, each seat of a game that hides information receiving only its own view,
tokens, and bad messages answered with errors. The page in a real browser:
test_serve_browser.py."""

import asyncio
import json
import os
import random
import re
import signal
import socket
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gdl.cli.main import main
from gdl.interpreter.files import write_atomic
from gdl.interpreter.language.errors import GdlDataError, GdlError, GdlRuntimeError, IllegalAction
from gdl.interpreter.loader import load_game
from gdl.interpreter.play import transcript as transcripts
from gdl.interpreter.play.serve import app
from gdl.interpreter.play.serve.app import Server, Table, make_server
from gdl.interpreter.play.serve.session import Session, seat_players
from gdl.interpreter.runtime import introspect, native
from gdl.interpreter.runtime.view import HIDDEN

from tests.helpers import ROOT

SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
GALAXY_OF_D = os.path.join(ROOT, "games", "galaxy_of_d.gdl")
SECRET = os.path.join(ROOT, "tests", "rules", "secret.gdl")
NIM = os.path.join(ROOT, "tests", "rules", "nim.gdl")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
# Seconds a test waits for a websocket message it expects before it fails saying which: a
# live reload is answered in ~0.2 s here, so this is ample on a loaded 2-core machine too.
WAIT = 10


def table_of(path, players, seed=1):
    return Table(Session(load_game(path), seed, players))


def server_of(*tables):
    """A server holding the tables (their first's game, players and rule file)."""
    session = tables[0].session
    server = Server(session.game, session.players, session.seed,
                    rules_path=session.rules_path)
    for table in tables:
        server.add(table)
    return server


@contextmanager
def served(table, watch=None, server=None):
    """A function that opens a browser's websocket for a viewer (of `table`, or of the
    table given); all closed at the end (the test client waits for every open one)."""
    with TestClient((server or server_of(table)).app(watch)) as client:
        opened = []

        def open_for(viewer, of=None):
            opened.append(Browser(client, (of or table).token_of(viewer)))
            return opened[-1]
        open_for.client = client
        try:
            yield open_for
        finally:
            for browser in opened:
                browser.close()


class Browser:
    """One websocket, and everything it was sent: the table, the last position, the log.
    Every read waits at most WAIT seconds, then fails the test."""

    def __init__(self, client, token):
        self.socket = client.websocket_connect("/ws/" + token).__enter__()
        # The test client's receive blocks for good: it runs in this thread, which can be
        # waited for with a timeout.
        self.reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="websocket")
        self.received = []
        self.log = []
        self.position = None
        self.table = self.next("the table")
        assert self.table["type"] == "table"

    def next(self, expected="a message", deadline=None):
        """The next message; the test fails when none came by `deadline` (a time.monotonic
        time; default: WAIT seconds from now), saying it waited for `expected`."""
        left = WAIT if deadline is None else max(deadline - time.monotonic(), 0)
        try:
            message = self.reader.submit(self.socket.receive_json).result(timeout=left)
        except TimeoutError:
            last = [str(message)[:80] for message in self.received[-3:]]
            pytest.fail(f"no websocket message within {WAIT} s, waiting for {expected}; the "
                        f"last ones received began: {last}", pytrace=False)
        self.received.append(message)
        if message["type"] == "position":
            self.position = message
        elif message["type"] == "log":
            if message["from"] == 0:        # all of it again (after a reload)
                self.log = []
            assert message["from"] == len(self.log)
            self.log += message["lines"]
        return message

    def until(self, condition, expected):
        """Read messages until `condition()` holds (it may already); the test fails when it
        does not within WAIT seconds, however many messages came meanwhile."""
        deadline = time.monotonic() + WAIT
        while not condition():
            self.next(expected, deadline)

    def up_to(self, kind, expected):
        """The messages up to the next of type `kind`, that one last; the test fails when it
        has not come within WAIT seconds."""
        deadline = time.monotonic() + WAIT
        got = [self.next(expected, deadline)]
        while got[-1]["type"] != kind:
            got.append(self.next(expected, deadline))
        return got

    def sync(self):
        """Everything the server sent before now: the messages up to the pong."""
        self.socket.send_json({"type": "ping"})
        return self.up_to("pong", "the pong")[:-1]

    def deciding(self):
        """Read messages until this seat has a position with actions to choose from."""
        self.until(lambda: self.position and self.position["actions"],
                   "a position where this seat decides")

    def act(self, index):
        self.socket.send_json({"type": "act", "index": index,
                               "text": self.position["actions"][index]})

    def close(self):
        self.socket.__exit__(None, None, None)
        self.reader.shutdown(wait=False)


def test_seats_spec():
    seats = ["blue", "red"]
    assert seat_players(seats, None) == ["human", "random"]
    assert seat_players(seats, "red=human, blue=mcts:iterations=5") == ["mcts:iterations=5",
                                                                        "human"]
    assert seat_players(seats, "red=human") == ["random", "human"]
    for spec, message in (("green=human", "--seats: unknown seat 'green'; the seats are blue, red"),
                          ("red", "--seats: expected SEAT=PLAYER, e.g. blue=human, not 'red'"),
                          ("red=human,red=random", "--seats: seat 'red' is given twice"),
                          ("red=wizard", "unknown player type 'wizard'")):
        with pytest.raises(GdlDataError) as caught:
            seat_players(seats, spec)
        assert caught.value.message.startswith(message)


def test_a_seats_spec_of_a_long_word_is_quoted_briefly():
    """--seats with a seat name (or a part without '=') of 100,000 characters quoted it
    whole; now its first 40 characters and '...'."""
    long = "x" * 100_000
    for spec, message in ((f"{long}=human", f"--seats: unknown seat '{'x' * 40}...'; the seats "
                           "are blue, red"),
                          (long, "--seats: expected SEAT=PLAYER, e.g. blue=human, not "
                           f"'{'x' * 40}...'")):
        with pytest.raises(GdlDataError) as caught:
            seat_players(["blue", "red"], spec)
        assert caught.value.message == message


def test_whole_space_war_game_with_one_human():
    """blue is human, red random: blue plays by index (and now and then by typing) until the
    game ends; every position blue is sent is its own view's."""
    table = table_of(SPACE_WAR, ["human", "random"])
    chooser = random.Random(7)
    decisions = 0
    with served(table) as open_for:
        blue = open_for(0)
        while True:
            message = blue.next()
            if message["type"] == "error":
                pytest.fail(message["message"])
            if message["type"] != "position":
                continue
            assert message["seat"] == "blue"
            if message["result"] is not None:
                break
            if message["actions"]:
                index = chooser.randrange(len(message["actions"]))
                if decisions % 5 == 4:
                    blue.socket.send_json({"type": "act", "text": message["actions"][index]})
                else:
                    blue.act(index)
                decisions += 1
        blue.sync()
    state = table.session.state
    assert state.result is not None
    assert blue.log[-1] == f"game over: {message['result']}"
    assert decisions == sum(1 for seat, _ in table.session.history if seat == 0) > 10
    assert "red: " in "\n".join(blue.log)      # the agent's decisions are told


class Browsers(list):
    """The seats' browsers, and `open_for` to open another."""


def play_two_humans(path, seed, most, check):
    """Both seats human, each its own browser; random legal choices by index, `most`
    decisions. After each, `check(table, browsers, new messages per seat)`."""
    game = load_game(path)
    table = Table(Session(game, seed, ["human"] * len(game.seats)))
    chooser = random.Random(seed)
    with served(table) as open_for:
        browsers = Browsers(open_for(seat) for seat in range(len(game.seats)))
        browsers.open_for = open_for
        check(table, browsers, [b.sync() for b in browsers])
        for _ in range(most):
            seat = table.session.deciding_seat()
            if seat is None:
                break
            browser = browsers[seat]
            browser.act(chooser.randrange(len(browser.position["actions"])))
            check(table, browsers, [b.sync() for b in browsers])
    return table


def test_secret_values_reach_only_their_seat():
    """tests/rules/secret.gdl: each seat's secret, its token's value and the pot (a's only)
    are in no message to a seat that may not see them."""
    hidden_from = {0: ["1234567", "5550002"], 1: ["8675309", "5550001", "9990001"]}
    sent = {0: [], 1: []}

    def check(table, browsers, news):
        for seat, messages in enumerate(news):
            sent[seat] += [str(message) for message in messages]

    table = play_two_humans(SECRET, 3, 12, check)
    assert table.session.history
    for seat, values in hidden_from.items():
        text = "\n".join(sent[seat])
        assert "8675309" in text or "1234567" in text    # its own secret is there
        for value in values:
            assert value not in text, (seat, value)


def test_galaxy_of_d_each_seat_sees_its_own():
    """Two people at Galaxy of D: each position a seat is sent is drawn from its own view
    (the same as the session makes for it), never the other's; the other seat's secret
    purchases (its order) never reach it; and a run of the other's secret choices sends at
    most one line and nothing more (not how many choices it made)."""
    checked = {"positions": 0, "orders": 0}

    def check(table, browsers, news):
        session = table.session
        game, state = session.game, session.state
        full = game.view(state, None)
        for seat, messages in enumerate(news):
            other = 1 - seat
            for message in messages:
                if message["type"] == "position":
                    assert message == session.position(seat)
                    checked["positions"] += 1
            mine = game.view(state, seat)
            secret = full["seats"][other]["vars"]["order"]
            if mine["seats"][other]["vars"]["order"] == HIDDEN and secret not in ("[]", \
                    full["seats"][seat]["vars"]["order"]):
                checked["orders"] += 1
                assert secret not in str(browsers[seat].received)
            decider = session.deciding_seat()
            if decider == other and session.history and session.history[-1][0] == other \
                    and browsers[seat].log[-1] == f"{game.seats[other]}: chooses in secret":
                # inside the other's secret run: at most its one line
                assert len([m for m in messages if m["type"] == "log"]) <= 1

    play_two_humans(GALAXY_OF_D, 5, 120, check)
    assert checked["positions"] > 50 and checked["orders"] > 0


def test_tokens():
    table = table_of(SPACE_WAR, ["human", "human"])
    with TestClient(server_of(table).app()) as client:
        assert client.get("/").status_code == 403
        assert client.get("/play/not-a-token").status_code == 403
        assert "not-a-token" not in client.get("/play/not-a-token").text
        page = client.get("/play/" + table.token_of(0))
        assert page.status_code == 200 and "Space War - blue" in page.text
        assert page.headers["referrer-policy"] == "no-referrer"
        with pytest.raises(WebSocketDisconnect) as refused:
            client.websocket_connect("/ws/" + table.token_of(0)[:-1]).__enter__()
        assert refused.value.code == 1008
    tokens = list(table.tokens)
    assert len(set(tokens)) == 3 and all(len(token) >= 24 for token in tokens)


def test_websockets_on_one_link_are_bounded(monkeypatch):
    """One client could open thousands of websockets on one seat's link and the server kept
    them all (each sent every move). Beyond MOST_PAGES open on a link, one is closed at once
    with a reason the page shows; the other links are not counted with it, and a page
    closed makes room for another."""
    monkeypatch.setattr(app, "MOST_PAGES", 3)
    table = table_of(SPACE_WAR, ["human", "human"])
    with served(table) as open_for:
        blue = [open_for(0) for _ in range(3)]
        with open_for.client.websocket_connect("/ws/" + table.token_of(0)) as socket:
            with pytest.raises(WebSocketDisconnect) as refused:
                socket.receive_json()
        assert refused.value.code == 1008
        assert refused.value.reason == ("this link is open in 3 pages already, the most: "
                                         "close one, then reload this page")
        assert len(table.connections) == 3
        red, spectator = open_for(1), open_for(None)        # another link: not refused
        assert red.table["type"] == spectator.table["type"] == "table"
        blue.pop().close()
        deadline = time.monotonic() + WAIT
        while table.opened[0] == 3 and time.monotonic() < deadline:     # the server sees
            time.sleep(0.01)                                            # the page go
        again = open_for(0)
        again.sync()
        assert len(table.connections) == 5 and table.opened == {0: 3, 1: 1, None: 1}


def test_bad_messages_get_errors():
    """Each bad message gets its error, and the server goes on: red chooses its side
    first in Space War."""
    table = table_of(SPACE_WAR, ["human", "human"])
    with served(table) as open_for:
        blue, red, watcher = open_for(0), open_for(1), open_for(None)
        for browser in (blue, red, watcher):
            browser.sync()
        first = red.position["actions"][0]
        assert red.position["actions"] == ["side south", "side north"]
        expected = 'expected {"type": "act", "text": ...}'
        lone = r"expected text of characters, not a lone \ud800 (half of a UTF-16 surrogate pair)"
        cases = [
            (red, "{", expected),
            (red, "[1, 2]", expected),
            (red, '{"type": "move"}', expected),
            (red, '{"type": "act"}', "expected the action's text"),
            (red, '{"type": "act", "text": 5}', "expected the action's text"),
            (red, json.dumps({"type": "act", "text": "a" * 1001}),
             "an action's text is at most 1,000 characters, not 1,001"),
            (red, json.dumps({"type": "act", "text": "a" * 1000}),
             # (a long text is quoted by its start: errors.shortened)
             f"not accepted: '{'a' * 40}...' is not legal: there is no action '{'a' * 40}...' "
             "in phase 'choose_side'; actions here: side"),
            (red, '{"type": "act", "index": 99, "text": "x"}',
             "the position changed: choose again"),
            (red, '{"type": "act", "index": 0, "text": "side north"}',
             "the position changed: choose again"),
            (red, '{"type": "act", "index": true, "text": "side south"}',
             "the position changed: choose again"),
            (red, '{"type": "act", "text": "fly away"}',
             "not accepted: 'fly away' is not legal: there is no action 'fly' in phase "
             "'choose_side'; actions here: side"),
            (red, '{"type": "act", "text": "a1 a2"}',      # as `gdl play` says it
             "not accepted: no legal action names a1 or a piece on it"),
            (red, '{"type": "act", "text": "99"}',
             "not accepted: there is no action number 99; choose 1 to 2"),
            (blue, f'{{"type": "act", "text": "{first}"}}',
             "it is not your decision: red is deciding"),
            (watcher, f'{{"type": "act", "text": "{first}"}}', "a spectator does not play"),
            (red, r'{"type": "act", "text": "\u0000\ud800"}', lone),    # not echoed back
            (red, r'{"type": "ping", "\udc00": 1}', lone.replace("d800", "dc00")),
        ]
        for browser, text, message in cases:
            browser.socket.send_text(text)
            assert browser.sync() == [{"type": "error", "message": message}], text
            message.encode("utf-8")         # what a real websocket can send
        red.socket.send_text("[" * 50000)        # nested deeper than json goes
        assert red.sync() == [{"type": "error", "message": expected}]
        red.socket.send_bytes(b"\x00")
        assert red.sync()[0]["message"].startswith("expected a JSON text message")
        red.socket.send_json({"type": "act", "text": "side"})     # words naming both
        assert red.sync() == [{"type": "matches", "indexes": [0, 1],
                               "message": "2 of 2 actions match 'side'"}]
        red.socket.send_json({"type": "act", "text": "1"})        # still served
        assert any(m["type"] == "log" and m["lines"][0] == f"red: {first}"
                   for m in red.sync())


def test_command_errors(tmp_path):
    """Bad input to `gdl serve`: a message and status 1, no traceback."""
    broken = tmp_path / "broken.gdl"
    broken.write_text('game "B"\nseats a, b\nboard square(2, 2)\nsetup { goto nowhere }\n')
    for args, words in ((["missing.gdl"], "missing.gdl"),
                        ([str(broken)], "broken.gdl:4"),
                        ([SPACE_WAR, "--seats", "green=human"], "unknown seat 'green'"),
                        ([SPACE_WAR, "--seats", "red=wizard"], "unknown player type"),
                        ([SPACE_WAR, "--host", "256.1.1.1"], "cannot listen on 256.1.1.1"),
                        # a label of 70 characters, an empty one: a traceback (UnicodeError)
                        ([SPACE_WAR, "--host", "h" * 70], "cannot listen on " + "h" * 40
                         + "...:8000: not a host name (label too long)"),
                        ([SPACE_WAR, "--host", "a..b"], "cannot listen on a..b:8000: not a "
                         "host name (label empty or too long)"),
                        ([SPACE_WAR, "--games", "0"], "--games"),
                        ([SPACE_WAR, "--games", "x"], "--games")):
        run = subprocess.run([sys.executable, "-m", "gdl.cli.main", "serve", *args],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode in (1, 2), (args, run.stderr)      # 2: click's usage error
        assert words in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)


def test_reconnecting_resumes():
    """The game lives in the server: a browser that connects again receives the position
    and the whole log again, and plays on."""
    table = table_of(SPACE_WAR, ["human", "human"])
    with served(table) as open_for:
        red = open_for(1)
        red.sync()
        red.act(0)
        red.sync()
        lines = list(red.log)
        red.close()
        again = open_for(1)
        again.sync()
        assert again.log == lines and again.log[-2:] == ["red: side south",
                                                          "  blue: north side (was south side)"]
        blue = open_for(0)
        blue.sync()
        assert blue.position["actions"] and blue.log == lines


KUHN_POKER = os.path.join(ROOT, "games", "classic", "kuhn_poker.gdl")


def test_spectator_sees_no_secret():
    """tests/rules/secret.gdl: the spectator sees no seat's secret (each is visible to its
    owner only), and has no actions."""
    table = table_of(SECRET, ["human", "human"])
    with served(table) as open_for:
        watcher, a = open_for(None), open_for(0)
        watcher.sync()
        a.sync()
        for action in ("stash", "peek"):
            a.socket.send_json({"type": "act", "text": action})
            a.sync()
        watcher.sync()
        assert watcher.position["seat"] is None and watcher.position["actions"] == []
        assert watcher.position == table.session.position(None)
        assert "a: stash" in watcher.log and "a: peek" in watcher.log
        text = str(watcher.received)
        for value in ("8675309", "1234567", "5550001", "5550002", "9990001"):
            assert value not in text, value


def watched_kuhn_game(seed, moves):
    """Kuhn poker, both seats human, a spectator watching: `moves` played by text; what
    the spectator was sent before the game ended, and the cards dealt."""
    table = table_of(KUHN_POKER, ["human", "human"], seed)
    with served(table) as open_for:
        watcher, *seats = open_for(None), open_for(0), open_for(1)
        for browser in (watcher, *seats):
            browser.sync()
        for move in moves:
            seats[table.session.deciding_seat()].socket.send_json({"type": "act", "text": move})
            for browser in seats:
                browser.sync()
        watcher.sync()
    cards = tuple(seat["vars"]["card"] for seat in table.session.view(0)["seats"][:1]) + \
        tuple(seat["vars"]["card"] for seat in table.session.view(1)["seats"][1:])
    return watcher.received, cards


def test_spectator_cannot_tell_the_cards_apart():
    """Kuhn poker: two deals, the same decisions; up to the showdown the spectator is sent
    exactly the same messages, so nothing it receives tells the cards (while each seat
    sees its own)."""
    (first, cards), (second, other) = (watched_kuhn_game(seed, ["pass", "bet"])
                                       for seed in (1, 3))
    assert cards != other and "?" not in cards + other
    assert first == second
    last = [message for message in first if message["type"] == "position"][-1]
    assert last["deciding"] == "one" and last["result"] is None
    assert "one: card=?, paid=1" in last["status"]


def test_spectator_sees_no_secret_purchase_in_galaxy_of_d():
    """Two people at Galaxy of D, a spectator watching: each position it is sent is the
    public one (what every seat may see): no ship hidden from a seat is drawn, and no
    seat's secret purchases (`order`) are told."""
    checked = {"orders": 0, "hidden pieces": 0}
    watcher = {}

    def check(table, browsers, news):
        session = table.session
        if not watcher:
            watcher["browser"] = browsers.open_for(None)
        spectator = watcher["browser"]
        spectator.sync()
        assert spectator.position == session.position(None)
        game, state = session.game, session.state
        for pid, piece in state.pieces.items():
            if piece["alive"] and introspect.hidden_from_any(game, state, pid):
                checked["hidden pieces"] += 1
                assert f'data-label="{piece["label"]}"' not in spectator.position["board"]
        full = session.game.view(session.state, None)
        for seat in full["seats"]:
            secret = seat["vars"]["order"]
            if secret != "[]":
                checked["orders"] += 1
                assert secret not in str(spectator.received)

    play_two_humans(GALAXY_OF_D, 5, 120, check)
    assert checked["orders"] > 0 and checked["hidden pieces"] > 0


class SlowAgent:
    """An agent that thinks for a while (in the server's worker thread)."""
    name = "slow"

    def choose(self, game, state, legal):
        time.sleep(1.0)
        return legal[0]


def test_agents_think_without_blocking_the_server():
    """While an agent thinks, the server still answers: a page loads at once."""
    table = table_of(SPACE_WAR, ["random", "human"])
    table.session.agents[0] = SlowAgent()
    with served(table) as open_for:
        red = open_for(1)
        red.sync()
        red.act(0)              # red's side; then blue, the slow agent, deploys
        time.sleep(0.2)
        start = time.monotonic()
        assert open_for.client.get("/play/" + table.token_of(1)).status_code == 200
        assert time.monotonic() - start < 0.6
        red.until(lambda: red.position["actions"] and "deploy" in red.position["title"],
                  "red's position of deploying")
        red.sync()
        assert any(line.startswith("blue: station") for line in red.log)


def test_the_agents_of_several_tables_search_at_once():
    """Every table of a server ran the server's one game, and a game holds what it is
    running in itself: two tables' agents searching at once in their threads broke each
    other's search (TypeError, KeyError from the rules' code), and the table whose agent
    raised stopped for good, silently. Now each table has a game of its own, and the agents
    of several tables play on together."""
    server = Server(load_game(SPACE_WAR), ["mcts:iterations=300"] * 2, 1,
                    rules_path=SPACE_WAR)
    tables = [server.new_table() for _ in range(4)]
    assert len({id(table.session.game) for table in tables} | {id(server.game)}) == 5
    with served(tables[0], server=server):
        deadline = time.monotonic() + 60
        while any(len(table.session.history) < 12 and not table.session.over()
                  for table in tables) and time.monotonic() < deadline:
            died = [table.agents.exception() for table in tables
                    if table.agents is not None and table.agents.done()
                    and not table.agents.cancelled() and not table.session.over()]
            assert died == []
            time.sleep(0.05)
        assert all(len(table.session.history) >= 12 or table.session.over()
                   for table in tables)


KEPT_RACE = os.path.join(ROOT, "tests", "rules", "serve_kept_race.gdl")
# Three tables of mcts seats served on the native backend, until each has made `decisions`
# decisions: each table's decisions' texts, as JSON (run in a process of its own: a search
# disturbed by another crashed the process)
SERVED_NATIVE = """
import asyncio, json, sys
from gdl.interpreter.loader import load_game
from gdl.interpreter.play.serve.app import Server

async def main(path, decisions):
    server = Server(load_game(path, "native"), ["mcts:iterations=100"] * 2, 0, rules_path=path)
    tables = [server.new_table() for _ in range(3)]
    for table in tables:
        table.start_agents()
    while any(len(table.session.history) < decisions and not table.agents.done()
              for table in tables):
        await asyncio.sleep(0.02)
    for table in tables:
        table.stop()
    return [table.session.texts[:decisions] for table in tables]
print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2])))))
"""


@pytest.mark.skipif(native.missing_tools() is not None, reason="no native backend here")
def test_native_agents_of_several_tables_search_one_at_a_time():
    """On the native backend every table's twin runs the one compiled module of the rule
    file, and a listing may keep values in the module's globals: with rules whose listing
    calls Python from the C code while it keeps one (`placements`), the agents of three
    tables searching at once changed each other's values, and the server crashed with a
    segmentation fault within a second. Now an agent searching natively searches alone,
    and each table plays as it plays alone from its seed."""
    decisions = 8
    run = subprocess.run([sys.executable, "-c", SERVED_NATIVE, KEPT_RACE, str(decisions)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"exit status {run.returncode}: {run.stderr[-2000:]}"
    served = json.loads(run.stdout)
    for seed, texts in enumerate(served):
        session = Session(load_game(KEPT_RACE, "native"), seed, ["mcts:iterations=100"] * 2)
        while len(session.history) < decisions:
            seat, agent = session.deciding_agent()
            session.decide(seat, agent.choose(session.game, session.state, session.legal()))
        assert texts == session.texts, seed


def test_save_writes_a_transcript_that_resumes(tmp_path):
    """--save: the game so far as a transcript after every decision; it replays, and
    `gdl play --resume` goes on from it."""
    saved = tmp_path / "saved.txt"
    table = table_of(SPACE_WAR, ["human", "human"])
    table.session.rules_path = SPACE_WAR
    table.save = str(saved)
    with served(table) as open_for:
        blue, red = open_for(0), open_for(1)
        for _ in range(3):
            seat = table.session.deciding_seat()
            browser = (blue, red)[seat]
            browser.sync()
            browser.act(0)
            browser.sync()
    transcripts.replay(str(saved))
    read = transcripts.read_transcript(str(saved))
    assert read.header["seed"] == 1 and read.header["players"] == "human, human"
    assert read.ending == "unfinished" and "max-decisions" not in read.header
    assert read.body[-1][1] == "unfinished: saved after 3 decisions"
    run = subprocess.run([sys.executable, "-m", "gdl.cli.main", "play", "--resume", str(saved)],
                         input="quit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "resumed after 3 decisions" in run.stdout


@pytest.fixture
def reloading(tmp_path):
    """Space War from a copy of its rule file, served with live reload to two human seats,
    red having chosen 'side north': (red's browser, the copy's path, its text)."""
    rules = tmp_path / "space_war.gdl"
    text = open(SPACE_WAR, encoding="utf-8").read()
    rules.write_text(text, encoding="utf-8")
    table = Table(Session(load_game(str(rules)), 1, ["human", "human"], rules_path=str(rules)))
    with served(table, watch=0.05) as open_for:
        red = open_for(1)
        red.sync()
        red.act(1)                                  # side north
        red.sync()
        yield red, rules, text


def test_live_reload(reloading):
    """An edit of the rule file: the decisions that still apply are replayed in the new
    rules and every log says how far; a rule file that does not check is told, and the
    game goes on in the old rules."""
    red, rules, text = reloading
    rules.write_text(text.replace("param laser_range = 4", "param laser_range = 3"),
                     encoding="utf-8")
    red.until(lambda: any(line.startswith("the rule file changed") for line in red.log),
              "the log's 'the rule file changed'")
    assert red.log[-1] == "the rule file changed: replayed 1 decision"
    assert "red: side north" in red.log
    rules.write_text(text.replace("seats blue, red", "seats blue red"), encoding="utf-8")
    message = red.up_to("error", "the error of a rule file that does not check")[-1]
    assert "space_war.gdl:" in message["message"]
    red.sync()
    assert red.log[-1].startswith("the rule file changed and does not check:")
    rules.write_text(text.replace('seats blue, red', 'seats blue, red, green'),
                     encoding="utf-8")
    red.until(lambda: red.log[-1].startswith("the rule file changed its seats"),
              "the log's 'the rule file changed its seats'")
    assert red.log[-1] == ("the rule file changed its seats to blue, red, green: restart "
                           "gdl serve to play them; the game goes on in the old rules")


@pytest.mark.parametrize("edit", [lambda text: text + "\nbroken\n",
                                  lambda text: text.replace("seats blue, red",
                                                            "seats blue, red, green")],
                         ids=["does not check", "changes its seats"])
def test_live_reload_tells_when_the_rule_file_is_back(reloading, edit):
    """A rule file that stops checking (or changes its seats), then gets its text back
    exactly (an editor's undo): the pages are told how far the decisions replayed, so the
    error is not left as the last word."""
    red, rules, text = reloading
    rules.write_text(edit(text), encoding="utf-8")
    red.until(lambda: red.log[-1].startswith(("the rule file changed and does not check",
                                                "the rule file changed its seats")),
              "the log's word on the edit")
    rules.write_text(text, encoding="utf-8")
    message = red.up_to("note", "the note that the rule file is back")[-1]
    assert message == {"type": "note",
                       "message": "the rule file changed: replayed 1 decision"}
    assert red.log[-1] == "the rule file changed: replayed 1 decision"
    assert "red: side north" in red.log


def test_live_reload_of_a_folder_moved_away_and_back(reloading, tmp_path):
    """The rule file's folder moved away (an editor's or a checkout's doing): listing it
    raised out of the watch, which then never reloaded again. Now the pages are told the
    file cannot be read, and when the folder is back the game goes on in its rules."""
    red, rules, text = reloading
    folder = rules.parent
    away = tmp_path.parent / (tmp_path.name + "-away")
    folder.rename(away)
    try:
        message = red.up_to("error", "the error of a rule file gone")[-1]
        assert "cannot read rule file" in message["message"]
    finally:
        away.rename(folder)
    message = red.up_to("note", "the note that the rule file is back")[-1]
    assert message["message"] == "the rule file changed: replayed 1 decision"


def test_live_reload_of_rules_that_fail_in_their_setup(reloading, capfd):
    """A rule file that checks but whose setup fails at run time (a division by zero):
    the new session could not start, the exception ended the watch (a traceback in the
    server's terminal, no word to the pages, no reload ever again). Now the pages are told
    the error, the game goes on in the old rules, and the next edit is taken."""
    red, rules, text = reloading
    rules.write_text(text.replace("setup {\n", "var zero = 0\nsetup {\n  zero = 1 / zero\n", 1),
                     encoding="utf-8")
    message = red.up_to("error", "the error of a setup that fails")[-1]
    # its place, not its words, to the pages; whole in the server's terminal
    assert message["message"].startswith(f"{rules}:74:10: error: run-time error in the rules "
                                         "here (its words are for the host")
    assert "zero = 1 / zero" in message["message"]
    red.sync()
    assert red.log[-1].startswith("the rule file changed and fails in its setup, and the game "
                                  "goes on in the rules it had:\n")
    assert capfd.readouterr().out == (
        "the rule file changed and fails in its setup; the game goes on in the rules it had:\n"
        f"{rules}:74:10: error: run-time error: division by zero\n"
        "      zero = 1 / zero\n"
        "             ^\n")
    rules.write_text(text, encoding="utf-8")
    message = red.up_to("note", "the note that the rule file is back")[-1]
    assert message["message"] == "the rule file changed: replayed 1 decision"
    assert "Traceback" not in capfd.readouterr().err


def test_a_reload_whose_setup_fails_is_told_once(tmp_path):
    """A reload into rules that check but fail in their setup printed its line in the
    server's terminal once per game (200 games: 200 times), and every log said "the rule file
    changed and does not check", though it checks. Now the terminal says it once per reload
    (the first game's error whole, and in which games), and each log what happened."""
    rules = tmp_path / "space_war.gdl"
    text = open(SPACE_WAR, encoding="utf-8").read()
    rules.write_text(text, encoding="utf-8")
    said = []
    server = Server(load_game(str(rules)), ["human", "human"], 1, rules_path=str(rules),
                    say=said.append)
    tables = [server.new_table() for _ in range(3)]
    rules.write_text(text.replace("setup {\n", "var zero = 0\nsetup {\n  zero = 1 / zero\n", 1),
                     encoding="utf-8")
    asyncio.run(server.reload(str(rules)))
    assert said == [
        "the rule file changed and fails in its setup in all 3 games, which go on in the rules "
        f"they had; game 1's error:\n{rules}:74:10: error: run-time error: division by zero\n"
        "      zero = 1 / zero\n"
        "             ^"]
    for table in tables:
        assert table.session.game.source_hash != server.game.source_hash     # the old rules
        note = table.session.log(0)[-1]
        assert note.startswith("the rule file changed and fails in its setup, and the game goes "
                               f"on in the rules it had:\n{rules}:74:10: error: run-time error "
                               "in the rules here")
    errors = [GdlRuntimeError(f"run-time error: cannot roll a die of {n} sides") for n in (-1, -2)]
    assert app._setup_failed([(1, errors[0]), (3, errors[1])], 4) == (
        "the rule file changed and fails in its setup in 2 games of 4 (1, 3), which go on in "
        "the rules they had; game 1's error, one of 2 different ones:\nerror: run-time error: "
        "cannot roll a die of -1 sides")


def test_the_lobby_refuses_a_game_whose_setup_fails(tmp_path):
    """After a reload into rules that check but fail in their setup, the server's new games
    are of those rules: starting one from the lobby was a 500 and a traceback; now a 400
    that gives the error, and the server goes on."""
    rules = tmp_path / "failing.gdl"
    rules.write_text('game "Failing"\nseats a, b\nboard square(2, 2)\nvar zero = 0\n'
                     'setup {\n  zero = 1 / zero\n  goto p for a\n}\n'
                     'phase p {\n  action x() {\n    goto p for b\n  }\n}\n')
    server = Server(load_game(str(rules)), ["random", "random"], 0)
    with TestClient(server.app()) as client:
        answer = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert answer.status_code == 400
        assert "run-time error: division by zero" in answer.json()["error"]
        assert client.get(f"/lobby/{server.lobby_token}/games").json()["games"] == []


def test_undo_with_one_human():
    """blue human, red random: undo takes back blue's last decision and red's after it;
    the position is the one blue had before it, and blue may choose again."""
    table = table_of(SPACE_WAR, ["human", "random"])
    with served(table) as open_for:
        blue = open_for(0)
        positions = []
        while len([seat for seat, _ in table.session.history if seat == 0]) < 3:
            blue.deciding()
            blue.sync()
            positions.append(blue.position)
            blue.act(len(blue.position["actions"]) - 1)
            blue.position = None
            blue.sync()
        blue.until(lambda: table.session.deciding_seat() == 0, "blue's turn")
        blue.sync()
        made = list(table.session.history)
        blue.socket.send_json({"type": "undo"})
        messages = blue.sync()
        assert messages[0]["type"] == "table"          # everything again
        last = max(i for i, (seat, _) in enumerate(made) if seat == 0)
        assert table.session.history == made[:last]
        assert blue.position == positions[-1] and blue.position["undo"] is None
        assert blue.log[-1].startswith("undo: ") and "to before blue's last" in blue.log[-1]
        blue.act(0)                                     # and plays on
        blue.sync()
        assert table.session.history[last][0] == 0


def test_undo_refused_with_a_reason():
    """Undo is refused, with the reason, to a spectator, before a first decision and in a
    game of two human seats; the page's button is disabled with the same reason."""
    table = table_of(SPACE_WAR, ["random", "human"])
    with served(table) as open_for:
        red, watcher = open_for(1), open_for(None)
        assert red.table["undo"] is True
        for browser in (red, watcher):
            browser.sync()
        nothing = "nothing to undo: you have made no decision yet"
        assert red.position["undo"] == nothing
        for browser, reason in ((red, nothing), (watcher, "a spectator does not play")):
            browser.socket.send_json({"type": "undo"})
            assert browser.sync() == [{"type": "error", "message": reason}]
    table = table_of(SPACE_WAR, ["human", "human"])
    with served(table) as open_for:
        red = open_for(1)
        assert red.table["undo"] is False
        red.sync()
        red.act(0)
        red.sync()
        red.socket.send_json({"type": "undo"})
        reason = "undo is for a game with one human seat; here blue and red play"
        assert red.sync() == [{"type": "error", "message": reason}]
        assert red.position["undo"] == reason and len(table.session.history) == 1


def test_several_games_in_one_server():
    """Two games in one server: each token opens its own game, a decision in one is not
    seen in the other; the lobby (the host's token only) lists them with their URLs and
    starts a third with other players; bad seats are refused with the reason."""
    game = load_game(SPACE_WAR)
    server = Server(game, ["human", "human"], 1)
    first, second = server.new_table(), server.new_table()
    assert first.session.seed == 1 and second.session.seed == 2
    assert not set(first.tokens) & set(second.tokens)
    with served(first, server=server) as open_for:
        client = open_for.client
        red_one, red_two = open_for(1), open_for(1, second)
        red_one.sync()
        red_two.sync()
        red_one.act(0)
        red_one.sync()
        assert red_two.sync() == [] and not second.session.history
        assert len(first.session.history) == 1
        lobby = f"/lobby/{server.lobby_token}"
        for wrong in ("/lobby/x", f"/lobby/{first.token_of(1)}", "/lobby/x/games",
                      f"/lobby/{first.token_of(None)}/games"):
            assert client.get(wrong).status_code == 403, wrong
        assert client.post("/lobby/x/games", json={}).status_code == 403
        assert client.get(lobby).status_code == 200
        listed = client.get(lobby + "/games").json()
        assert [g["decisions"] for g in listed["games"]] == [1, 0]
        assert listed["games"][0]["urls"]["red"].endswith("/play/" + first.token_of(1))
        assert listed["games"][1]["where"] == "before the first turn, red deciding"
        made = client.post(lobby + "/games", json={"seats": "blue=human,red=random"}).json()
        assert made["number"] == 3 and made["players"] == ["human", "random"]
        assert list(made["urls"]) == ["blue", "spectator"]
        third = server.tables[2]
        blue = open_for(0, third)
        blue.deciding()                                 # red, random, chose
        assert third.session.history[0][0] == 1
        answer = client.post(lobby + "/games", json={"seats": "green=human"})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("--seats: unknown seat 'green'")
        assert len(server.tables) == 3


@pytest.mark.parametrize("body", [b"{", b"notjson", b"", b"\xff", b"[" * 50000, b"[]",
                                  b'"blue=human"', b"null", b"5", b'{"seats": 5}',
                                  b'{"seats": null}', b'{"seats": ["blue=human"]}'])
def test_the_lobby_refuses_a_body_that_is_not_seats(body):
    """A new game's body is an object whose `seats`, if given, is a text: anything else is
    refused, and no game starts."""
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    with TestClient(server.app()) as client:
        answer = client.post(f"/lobby/{server.lobby_token}/games", content=body)
    assert (answer.status_code, answer.json()) == \
        (400, {"error": 'expected {"seats": "SEAT=PLAYER,..."}'})
    assert server.tables == []


def test_the_lobby_refuses_a_body_larger_than_a_message():
    """A new game's body was read whole however large (a gigabyte held in memory, then
    echoed back in the `--seats` error); now a body over 64 KB is refused unread past that,
    sent at once or in pieces, and no game starts."""
    from gdl.interpreter.play.serve.app import MOST_BYTES
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    large = b'{"seats": "' + b"x" * MOST_BYTES + b'"}'
    with TestClient(server.app()) as client:
        url = f"/lobby/{server.lobby_token}/games"
        for content in (large, (large[start:start + 4096]
                                for start in range(0, len(large), 4096))):
            answer = client.post(url, content=content)
            assert (answer.status_code, answer.json()) == (413, {
                "error": f"expected a body of at most {MOST_BYTES:,} bytes"})
        assert client.post(url, content=b'{"seats": "' + b"x" * 1000 + b'"}').status_code \
            == 400
    assert server.tables == []


@pytest.mark.parametrize("body", [rb'{"seats": "\ud800=human"}', rb'{"seats": "red=\ud800"}',
                                  rb'{"seats": "red=human", "\ud800": 1}'])
def test_the_lobby_refuses_a_lone_surrogate(body):
    """A text holding half of a surrogate pair (a JSON escape) is refused with a 400 that
    says so, not echoed in a `--seats` message that cannot be encoded (a 500)."""
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    with TestClient(server.app(), raise_server_exceptions=False) as client:
        answer = client.post(f"/lobby/{server.lobby_token}/games", content=body)
    assert (answer.status_code, answer.json()) == (400, {"error": (
        r"expected text of characters, not a lone \ud800 (half of a UTF-16 surrogate pair)")})
    assert server.tables == []


@pytest.mark.parametrize("body", [{}, {"seats": ""}, {"seats": "red=greedy"}])
def test_the_lobby_starts_a_game_with_seats_given_or_the_servers(body):
    """`seats` left out or empty: the players the server was started with."""
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    with TestClient(server.app()) as client:
        answer = client.post(f"/lobby/{server.lobby_token}/games", json=body)
    assert answer.status_code == 200
    assert answer.json()["players"] == ["random", "greedy" if body.get("seats") else "random"]


@pytest.mark.parametrize("seats, error", [
    ("blue=mcts:iterations=1000000000", "blue=mcts:iterations=1000000000: iterations in a game "
     "the lobby starts must be at most 10,000, not 1,000,000,000 (each decision of mcts would "
     "keep the table waiting)"),
    ("red=human,blue=mcts:rollout=51", "blue=mcts:rollout=51: rollout in a game the lobby "
     "starts must be at most 50, not 51 (each decision of mcts would keep the table "
     "waiting)")])
def test_the_lobby_refuses_an_agent_that_searches_beyond_a_table_s_wait(seats, error):
    """The lobby started a game with an mcts seat of 10**9 iterations (as --players allows),
    whose every decision kept its table waiting for good. Beyond LOBBY_MOST it is a 400 that
    says so, and no game starts; at the most, the game starts."""
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    with TestClient(server.app()) as client:
        url = f"/lobby/{server.lobby_token}/games"
        answer = client.post(url, json={"seats": seats})
        assert (answer.status_code, answer.json()) == (400, {"error": error})
        assert server.tables == []
        answer = client.post(url, json={"seats": "red=human,blue=mcts:iterations=10000:"
                                                 "rollout=50:c=1000000000"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["players"] == ["mcts:iterations=10000:rollout=50:c=1000000000",
                                            "human"]


def test_the_lobby_refuses_games_beyond_the_most(monkeypatch):
    from gdl.interpreter.play.serve import app
    monkeypatch.setattr(app, "MOST_GAMES", 1)
    server = Server(load_game(SPACE_WAR), ["random", "random"], 0)
    server.new_table()
    with TestClient(server.app()) as client:
        answer = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert answer.status_code == 400
        assert answer.json() == {"error": "no more games: this server holds at most 1"}


def test_load_benchmark_runs():
    """benchmarks/serve_load.py (structure only, never speed): two games, a few moves."""
    run = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "serve_load.py"),
                          "--games", "2", "--moves", "3", "--json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["games"] == 2 and report["connections"] == 4 and report["errors"] == 0
    assert report["decisions"] > 0 and report["latency_ms"]["median"] > 0
    assert report["server_rss_mb"]["peak"] >= report["server_rss_mb"]["started"] > 0


def saved_game(tmp_path, path, players, seed, decisions):
    """A session of `path` with `decisions` random decisions played (and more, until a
    human seat is to decide), and its transcript saved as `gdl serve --save` writes it:
    (session, the transcript's path)."""
    session = Session(load_game(path), seed, players, rules_path=path)
    chooser = random.Random(seed)
    while len(session.history) < decisions or session.deciding_human() is None:
        legal = session.legal()
        session.decide(session.deciding_seat(), legal[chooser.randrange(len(legal))])
    saved = tmp_path / "saved.txt"
    write_atomic(str(saved), session.transcript(str(saved)))
    return session, saved


@pytest.mark.parametrize("path, players, decisions", [
    (SPACE_WAR, ["human", "random"], 12),
    (GALAXY_OF_D, ["human", "human"], 40)])
def test_resume_a_saved_game(tmp_path, path, players, decisions):
    """`gdl serve FILE --resume TRANSCRIPT`: the saved game goes on where it stopped, with
    its seed and players; each seat's page shows the position it had (its own view), the
    log says what was resumed; with --save the transcript goes on growing and replays."""
    played, saved = saved_game(tmp_path, path, players, 3, decisions)
    decisions = len(played.history)
    said = []
    server = make_server(path, None, None, 0, said.append, save=str(saved),
                         resume=str(saved))
    table = server.tables[0]
    session = table.session
    assert (session.seed, session.players, session.texts) == (3, players, played.texts)
    assert session.secret_seed and server.seed is None    # a new game gets a fresh seed
    assert transcripts.compact_state(session.game, session.state) == \
        transcripts.compact_state(played.game, played.state)
    with served(table, server=server) as open_for:
        browsers = [open_for(seat) for seat in session.humans]
        for browser, seat in zip(browsers, session.humans):
            browser.sync()
            assert browser.position == played.position(seat)
            assert browser.log[-1] == f"resumed from saved.txt: replayed all {decisions} decisions"
        seat = session.deciding_seat()
        mover = browsers[session.humans.index(seat)]
        mover.act(0)
        mover.sync()
    assert len(table.session.texts) > decisions
    assert transcripts.replay(str(saved)) == len(table.session.texts)
    assert transcripts.read_transcript(str(saved)).header["players"] == ", ".join(players)
    # --seats replaces the saved players
    server = make_server(path, f"{session.game.seats[0]}=greedy", None, 0, said.append,
                         resume=str(saved))
    assert server.tables[0].session.players[0] == "greedy"


def test_resume_from_the_command_line(tmp_path):
    """`gdl serve FILE --resume T` prints the URLs and how many decisions it resumed."""
    _, saved = saved_game(tmp_path, SPACE_WAR, ["human", "random"], 2, 6)
    process = subprocess.Popen([sys.executable, "-m", "gdl.cli.main", "serve", SPACE_WAR,
                                "--resume", str(saved), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("each URL holds a secret"):
                break
        page = urllib.request.urlopen(lines[1].split(": ", 1)[1], timeout=30).read()
        assert b"Space War - blue" in page
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert lines[0] == f"Space War: blue (human), red (random) (resumed from {saved}: 6 decisions)"
    assert lines[1].startswith("  blue: http://127.0.0.1:") and "Traceback" not in err
    assert "server stopped (the seed was 2)" in out


def test_resume_refuses_a_bad_transcript(tmp_path):
    """A transcript that cannot be resumed: a message that says why, status 1, no
    traceback (and no server started)."""
    _, saved = saved_game(tmp_path, SPACE_WAR, ["human", "random"], 2, 6)
    text = saved.read_text(encoding="utf-8")
    step = next(line for line in text.split("\n") if line.startswith("5 "))
    changed = tmp_path / "changed.txt"
    changed.write_text(text.replace(step, step.rsplit(" ", 1)[0] + " z99"), encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text(text.replace("rules: ../", "rules: ../x/"), encoding="utf-8")
    conceded = tmp_path / "conceded.txt"
    conceded.write_text(text + "concede: blue\n", encoding="utf-8")
    finished = os.path.join(ROOT, "tests", "golden", "space_war_seed1.txt")
    for args, words in (
            (["--resume", str(tmp_path / "missing.txt")], "cannot read transcript"),
            (["--resume", SPACE_WAR], "is not a gdl transcript"),
            (["--resume", str(changed)], "changed.txt:"),
            (["--resume", str(other)], f"other.txt is a game of"),
            (["--resume", finished], "the game is over (result: "),
            (["--resume", str(saved), "--games", "2"], "--resume goes on with one game"),
            (["--resume", str(saved), "--seed", "4"], "leave out --seed"),
            (["--resume", str(saved), "--seats", "green=human"], "unknown seat 'green'")):
        run = CliRunner().invoke(main, ["serve", SPACE_WAR, *args])
        assert run.exit_code == 1 and isinstance(run.exception, SystemExit), (args, run.output)
        assert words in run.output and "Traceback" not in run.output, (args, run.output)
        assert "http://" not in run.output


def test_resume_goes_on_when_only_the_rule_file_s_text_changed(tmp_path):
    """A comment added to the rule file (or `gdl fmt` run on it) changes its hash: `gdl
    serve --resume` refused the save although every decision replays identically. It goes
    on, with the warning `gdl play --resume` gives (on the standard error: the output holds
    the URLs), and --save then holds the new hash; a change that makes a decision replay
    otherwise is still refused."""
    rules = tmp_path / "nim.gdl"
    rules.write_text(open(NIM, encoding="utf-8").read(), encoding="utf-8")
    played, saved = saved_game(tmp_path, str(rules), ["human", "random"], 1, 2)
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    old = transcripts.read_transcript(str(saved)).header["rules-sha256"][:12]
    new = load_game(str(rules)).source_hash[:12]
    warned = []
    server = make_server(str(rules), None, None, 0, warned.append, save=str(saved),
                         resume=str(saved), warn=warned.append)
    decisions = len(played.history)
    assert warned == [f"warning: {saved}: the rule file changed since recording (sha256 "
                      f"{new} != {old}), although all {decisions} decisions replay "
                      "identically: the game goes on in the rule file as it is now"]
    assert server.tables[0].session.texts == played.texts
    assert transcripts.replay(str(saved)) == decisions      # saved again, with the new hash
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# another\n", encoding="utf-8")
    with socket.create_server(("127.0.0.1", 0)) as taken:      # the port is refused after
        run = CliRunner().invoke(main, ["serve", str(rules), "--resume", str(saved),   # the
                                        "--port", str(taken.getsockname()[1])])    # warning
    assert run.exit_code == 1 and "cannot listen on" in run.output, run.output
    assert run.stderr.startswith(f"warning: {saved}: the rule file changed since recording")
    # a pile of 9 + d6: the setup replays otherwise
    rules.write_text(rules.read_text(encoding="utf-8").replace("8 + roll(6)", "9 + roll(6)"),
                     encoding="utf-8")
    with pytest.raises(transcripts.Divergence, match="replay differs at step 0") as refused:
        make_server(str(rules), None, None, 0, warned.append, resume=str(saved),
                    warn=warned.append)
    assert not isinstance(refused.value, transcripts.RulesChanged) and len(warned) == 1


def test_the_host_saves_a_game_from_the_lobby(tmp_path, monkeypatch):
    """The lobby's token downloads a game so far as a transcript (no other token does): it
    replays, and `--resume` goes on with it."""
    monkeypatch.chdir(tmp_path)         # the transcript names the rule file from here
    server = Server(load_game(SPACE_WAR), ["human", "human"], 1, rules_path=SPACE_WAR)
    table = server.new_table()
    server.new_table()
    with served(table, server=server) as open_for:
        client = open_for.client
        red = open_for(1)
        red.sync()
        red.act(0)
        red.sync()
        address = f"/lobby/{server.lobby_token}/games/1/transcript"
        answer = client.get(address)
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        for wrong in (address.replace(server.lobby_token, table.token_of(1)),
                      address.replace(server.lobby_token, "x")):
            assert client.get(wrong).status_code == 403
        assert client.get(address.replace("/1/", "/3/")).status_code == 404
    saved = tmp_path / "saved.txt"
    saved.write_text(answer.text, encoding="utf-8")
    assert transcripts.replay(str(saved)) == 1
    resumed = make_server(SPACE_WAR, None, None, 0, resume=str(saved))
    assert resumed.tables[0].session.texts == table.session.texts


def test_each_view_is_made_once_per_decision(monkeypatch):
    """Each viewer's view is made once per decision (a decision's views before it are the
    last one's after it; the positions sent are made from them), each viewer's board is
    drawn once however many pages show it (three spectators here), and what each seat and
    the spectator are sent is what views made afresh give."""
    from gdl.interpreter.play.serve import session as sessions
    table = table_of(GALAXY_OF_D, ["human", "human"], seed=5)
    session = table.session
    made = []
    seat_view, public = session.game.view, sessions.public_view
    monkeypatch.setattr(session.game, "view", lambda state, seat: made.append(seat)
                        or seat_view(state, seat))
    monkeypatch.setattr(sessions, "public_view", lambda game, state: made.append(None)
                        or public(game, state))
    drawn = []
    board = session.board
    monkeypatch.setattr(session, "board", lambda view: drawn.append(view["seat"])
                        or board(view))
    chooser = random.Random(5)
    with served(table) as open_for:
        browsers = [open_for(0), open_for(1), open_for(None)]
        others = [open_for(None), open_for(None)]
        for browser in browsers + others:
            browser.sync()
        drawn.clear()                   # the positions sent on connecting
        for decisions in range(1, 41):
            for browser in browsers:
                browser.sync()
            seat = session.deciding_seat()
            browsers[seat].act(chooser.randrange(len(browsers[seat].position["actions"])))
            for browser in browsers + others:
                browser.sync()
            # (the first views are made with the session, before `made` counts them)
            assert sorted(made, key=str) == sorted([0, 1, None] * decisions, key=str)
            assert len(drawn) == len(set(drawn)) == 3
            cached, counted = (session.views, session.positions), len(made)
            session.forget()
            for viewer, browser in zip((0, 1, None, None, None), browsers + others):
                assert browser.position == session.position(viewer)
            session.views, session.positions = cached
            del made[counted:]
            drawn.clear()


def test_typed_words_are_matched_from_one_view(monkeypatch):
    """A typed text of many words (a cell again and again, within the 1,000 characters)
    made the seat's view once per word: a third of a second of the server's loop, every
    table waiting, for each such message. Now however many words it has, three views at
    most are made (the matches; why none: the pieces seen, the words), the refusal the same."""
    table = table_of(SPACE_WAR, ["human", "human"])
    session = table.session
    red = session.deciding_seat()
    session.decide(red, session.legal()[0])      # red's side: now the ships are placed
    seat = session.deciding_seat()
    views = []
    seat_view = session.game.view
    monkeypatch.setattr(session.game, "view", lambda state, viewer: views.append(viewer)
                        or seat_view(state, viewer))
    cells = session.game.rules.board.names
    cell = next(word for word in session.game.action_text(session.state, session.legal()[0],
                                                          seat).split() if word in cells)
    with pytest.raises(IllegalAction) as refused:    # each word names actions, all none
        session.choice(seat, {"text": " ".join([cell] * (1001 // (len(cell) + 1)))})
    assert refused.value.message.startswith(
        f"not accepted: no legal action names all of {cell}, {cell}, ")
    assert len(views) <= 3


def test_rules_stuck_from_the_start_say_so(tmp_path):
    """A rule file that leaves the first seat no legal action: the page says why at once."""
    rules = tmp_path / "stuck.gdl"
    rules.write_text('game "Stuck"\nseats a, b\nboard square(1, 1)\nvar n = 0\n'
                     'setup { goto play for a }\n'
                     'phase play turn {\n  action go() where n > 0 {\n    n -= 1\n  }\n}\n',
                     encoding="utf-8")
    table = table_of(str(rules), ["human", "human"])
    server = server_of(table)
    with served(table, server=server) as open_for:
        a = open_for(0)
        a.sync()
        assert a.position["error"].startswith(f"{rules}:6:1: error: run-time error: no legal "
                                              "action for a in phase 'play'")
        assert a.position["actions"] == [] and a.log[-1].startswith("stopped: ")
        lobby = open_for.client.get(f"/lobby/{server.lobby_token}/games").json()
        assert lobby["games"][0]["where"] == (
            f"stopped: {rules}:6:1: error: run-time error: no legal action for a in phase "
            "'play': the rules leave the game stuck")


FAILING_LATER = ('game "Failing later"\nseats a, b\nboard square(2, 2)\nvar k = 1\n'
                 'setup {\n  goto p for a\n}\n'
                 'phase p {\n  action x(n in [0, 1]) where 1 / k > n - 5 {\n    k = 0\n'
                 '    goto p for next(me)\n  }\n}\n')


# the same, its `where` fine but a `visible to` failing after the first decision
FAILING_VIEW = FAILING_LATER.replace(" where 1 / k > n - 5", "").replace(
    "var k = 1\n", "var k = 1\nvar s = 0 visible to 1 / k > 0\n")


@pytest.mark.parametrize("players", [["human", "human"], ["human", "random"]])
@pytest.mark.parametrize("text, where", [(FAILING_LATER, "9:31"), (FAILING_VIEW, "5:22")],
                         ids=["where", "visible to"])
def test_rules_that_fail_in_listing_the_actions_say_so(tmp_path, players, text, where):
    """A decision after which the rules fail in listing the legal actions (a `where` that
    divides by zero) or in making a seat's view (a `visible to` that does): the websocket of
    the seat that chose closed with a traceback in the server's terminal, and every page
    that opened after did the same. Now the game stops there and every page says why, as
    for rules stuck without a legal action (the board as each viewer saw it last)."""
    rules = tmp_path / "failing.gdl"
    rules.write_text(text, encoding="utf-8")
    table = table_of(str(rules), players)
    server = server_of(table)
    with served(table, server=server) as open_for:
        a = open_for(0)
        a.sync()
        a.act(0)
        a.until(lambda: a.position["error"] is not None, "the position's error")
        a.sync()
        # its place, not its words (`for_seats`), to the pages; whole to the lobby
        assert a.position["error"].startswith(f"{rules}:{where}: error: run-time error in the "
                                              "rules here (its words are for the host")
        assert a.position["actions"] == [] and a.log[-1].startswith("stopped: ")
        lobby = open_for.client.get(f"/lobby/{server.lobby_token}/games").json()
        assert lobby["games"][0]["where"] == \
            f"stopped: {rules}:{where}: error: run-time error: division by zero"
        later = open_for(None)
        assert later.sync()[0]["error"] == a.position["error"]
        a.socket.send_json({"type": "act", "text": "x 0"})
        assert a.sync() == [{"type": "error", "message": "the game is over"}]


# a run-time error whose words hold a value hidden from b: the pot, 7 + d6, in `cannot roll
# 6 dice of -11 sides`
FAILING_ON_A_SECRET = ('game "Failing on a secret"\nseats a, b\nboard square(2, 2)\n'
                       'var pot = 0 visible to viewer == a\n'
                       'setup {\n  pot = 7 + roll(6)\n  goto p for a\n}\n'
                       'phase p {\n  action x() {\n    pot = roll(-pot, 6)\n'
                       '    goto p for next(me)\n  }\n}\n')


def test_a_run_time_error_is_told_to_the_lobby_whole_and_to_the_pages_by_its_place(tmp_path,
                                                                                   capfd):
    """A game stopped by a run-time error of the rules: the lobby said 'stopped: the rules
    left it stuck', and every page got the error's words, which may hold a value hidden
    from that seat (here b learnt a's pot). Now the lobby (the host's) shows the error as
    the CLI does, FILE:LINE:COL and its words; the pages its place and the rule's line,
    and that the host has its words. The server's terminal said 'a game stopped:', not which
    of its games: now 'game 2 stopped:', the number the lobby shows."""
    rules = tmp_path / "failing.gdl"
    rules.write_text(FAILING_ON_A_SECRET, encoding="utf-8")
    table = table_of(str(rules), ["human", "human"])
    server = server_of(table_of(str(rules), ["human", "human"]), table)
    with served(table, server=server) as open_for:
        a, b, spectator = open_for(0), open_for(1), open_for(None)
        a.sync()
        a.act(0)
        for browser in (a, b, spectator):
            browser.until(lambda seen=browser: seen.position is not None
                          and seen.position["error"] is not None, "the error")
            browser.sync()
            assert browser.position["error"] == (
                f"{rules}:11:11: error: run-time error in the rules here (its words are for "
                "the host, in the lobby and the server's terminal: they may tell what a seat "
                "may not see)\n"
                "        pot = roll(-pot, 6)\n"
                "              ^")
            assert browser.log[-1] == "stopped: " + browser.position["error"]
            assert "dice" not in json.dumps(browser.received)
        lobby = open_for.client.get(f"/lobby/{server.lobby_token}/games").json()
    assert [game["number"] for game in lobby["games"]] == [1, 2]
    where = lobby["games"][1]["where"]
    assert re.fullmatch(rf"stopped: {re.escape(str(rules))}:11:11: error: run-time error: "
                        r"cannot roll 6 dice of -(\d+) sides", where), where
    assert 8 <= int(re.search(r"-(\d+) sides", where)[1]) <= 13       # the pot
    told = capfd.readouterr().out
    assert told.count(" stopped:\n") == 1
    assert f"game 2 stopped:\n{where[len('stopped: '):]}" in told


def test_an_agent_that_fails_stops_its_game_and_says_so(monkeypatch):
    """An agent that raised something unexpected killed its table's agent task silently:
    the game waited for that agent for good, and no one was told. Now the game stops there:
    the host has the error whole (the lobby its first line, the server's terminal with its
    traceback), every page that the agent failed, without its words (they may name what a
    seat may not see); the other tables play on. The terminal names the game that stopped
    by its number in the lobby."""
    from gdl.interpreter.play.agents.agents import RandomAgent

    def failing(self, game, state, legal):
        raise RuntimeError("red's secret: Fighter#7 is on c9")
    said = []
    server = Server(load_game(SPACE_WAR), ["human", "random"], 1, rules_path=SPACE_WAR,
                    say=said.append)
    table, other = server.new_table(), server.new_table(["random", "random"])
    monkeypatch.setattr(RandomAgent, "choose", failing)
    with served(table, server=server) as open_for:
        blue, spectator = open_for(0), open_for(None)     # (red decides first)
        for browser in (blue, spectator):
            browser.until(lambda seen=browser: seen.position is not None
                          and seen.position["error"] is not None, "the agent's failure")
            browser.sync()
            assert browser.position["error"] == (
                "red's agent (random) failed (its error is for the host, in the lobby and "
                "the server's terminal: it may tell what a seat may not see)")
            assert browser.log[-1] == "stopped: " + browser.position["error"]
            assert "secret" not in json.dumps(browser.received)
            assert browser.position["actions"] == []
        blue.socket.send_json({"type": "act", "text": "x"})
        assert blue.sync() == [{"type": "error", "message": "the game is over"}]
        games = open_for.client.get(f"/lobby/{server.lobby_token}/games").json()["games"]
    assert games[0]["where"] == ("stopped: red's agent (random) failed: RuntimeError: red's "
                                 "secret: Fighter#7 is on c9")
    assert table.agents.done() and table.agents.exception() is None
    assert other.session.error is not None      # (its agents too are random)
    stopped = {line.split("\n", 1)[0]: line for line in said if " stopped:\n" in line}
    assert sorted(stopped) == ["game 1 stopped:", "game 2 stopped:"]
    assert "Traceback (most recent call last)" in stopped["game 1 stopped:"]
    assert 'raise RuntimeError("red\'s secret: Fighter#7 is on c9")' in stopped["game 1 stopped:"]


def test_a_run_time_error_an_agent_s_search_meets_is_told_as_the_rules(tmp_path):
    """An agent whose search meets a run-time error of the rules (a position it looked
    ahead at): the game stops as for the rules' error in play, its place to the pages."""
    rules = tmp_path / "failing.gdl"
    rules.write_text(FAILING_ON_A_SECRET, encoding="utf-8")
    game = load_game(str(rules))
    session = Session(game, 1, ["random", "random"])
    try:
        game.apply(session.state.clone(), session.legal()[0])
    except GdlError as exc:
        session.agent_failed(0, exc)
    assert session.over() and session.failure.startswith(
        f"{rules}:11:11: error: run-time error: cannot roll 6 dice of -")
    assert session.error.startswith(f"{rules}:11:11: error: run-time error in the rules here")


def test_the_replay_of_a_game_whose_rules_failed_says_why(tmp_path):
    """The replay page of a game stopped by a `visible to` that fails at run time was a 500
    and a traceback in the server's terminal; now it says why there is none (409)."""
    rules = tmp_path / "failing.gdl"
    rules.write_text(FAILING_VIEW, encoding="utf-8")
    session = Session(load_game(str(rules)), 1, ["human", "human"], rules_path=str(rules))
    session.decide(0, session.legal()[0])
    assert session.error is not None
    table = Table(session)
    with TestClient(server_of(table).app(), raise_server_exceptions=False) as client:
        page = client.get("/replay/" + table.token_of(0))
    assert page.status_code == 409
    assert page.text.startswith("no replay page: ")
    assert ":5:22: error: run-time error in the rules here" in page.text


def test_a_seat_replays_the_game_so_far_from_its_own_views():
    """GET /replay/TOKEN: the replay page of the game so far, as that seat saw it (linked
    from its page): its own secrets are there, the other seat's are not; a
    spectator's token gets no replay, a wrong one nothing."""
    session = Session(load_game(SECRET), 3, ["human", "human"], rules_path=SECRET)
    table = Table(session)
    for _ in range(6):
        if session.over():
            break
        session.decide(session.deciding_seat(), session.legal()[0])
    assert session.history
    hidden_from = {0: ["1234567", "5550002"], 1: ["8675309", "5550001", "9990001"]}
    with TestClient(server_of(table).app()) as client:
        for seat, values in hidden_from.items():
            token = table.token_of(seat)
            assert f'href="/replay/{token}"' in client.get("/play/" + token).text
            page = client.get("/replay/" + token)
            assert page.status_code == 200 and "<html" in page.text
            assert "8675309" in page.text or "1234567" in page.text
            for value in values:        # (the full page, with every view, holds them all)
                assert value not in page.text, (seat, value)
        spectator = table.token_of(None)
        assert 'id="replay"' not in client.get("/play/" + spectator).text
        assert client.get("/replay/" + spectator).status_code == 404
        assert client.get("/replay/nothing").status_code == 403


def test_a_replay_page_is_built_outside_the_tables_lock(monkeypatch):
    """Building a replay page replays and draws every step (seconds for a long game): it
    runs in a worker thread with the table's lock free, so the game goes on meanwhile."""
    from gdl.interpreter.play.render import replay_page
    session = Session(load_game(SECRET), 3, ["human", "human"], rules_path=SECRET)
    table = Table(session)
    session.decide(session.deciding_seat(), session.legal()[0])
    seen = []
    built = replay_page.make_page

    def watched(path, seat):
        try:
            asyncio.get_running_loop()
            in_loop = True
        except RuntimeError:            # a worker thread runs no event loop
            in_loop = False
        seen.append((table.lock.locked(), in_loop))
        return built(path, seat)
    monkeypatch.setattr(replay_page, "make_page", watched)
    with TestClient(server_of(table).app()) as client:
        page = client.get("/replay/" + table.token_of(0))
    assert page.status_code == 200 and "<html" in page.text
    assert seen == [(False, False)]


def test_a_rule_file_whose_name_is_not_utf8_gets_no_transcript_and_no_replay(tmp_path, capfd):
    """A transcript names its rule file in UTF-8: for one whose name is not, the lobby's
    transcript and a seat's replay page (drawn from a transcript) are refused in words,
    409, as `gdl play`'s save refuses it; they were a 500 with a traceback in the log."""
    path = os.fsdecode(bytes(tmp_path) + b"/t\xff.gdl")
    with open(SPACE_WAR, "rb") as rules, open(path, "wb") as copy:
        copy.write(rules.read())
    server = Server(load_game(path), ["human", "human"], 1, rules_path=path)
    table = server.new_table()
    why = (f"cannot name the rule file {tmp_path}/t\ufffd.gdl in a transcript: its name is "
           "not UTF-8 text (rename the file)")
    with TestClient(server.app(None)) as client:
        answer = client.get(f"/lobby/{server.lobby_token}/games/1/transcript")
        assert (answer.status_code, answer.text) == (409, why)
        page = client.get("/replay/" + table.token_of(0))
        assert (page.status_code, page.text) == (
            409, "no replay page (it is drawn from a transcript): " + why)
    assert "Traceback" not in capfd.readouterr().err


def test_resume_from_the_standard_input(tmp_path):
    """`--resume -`: the saved game is read from the standard input (its rule file named
    from the current folder)."""
    _, saved = saved_game(tmp_path, SPACE_WAR, ["human", "random"], 2, 6)
    with open(saved, encoding="utf-8") as text:
        process = subprocess.Popen([sys.executable, "-m", "gdl.cli.main", "serve", SPACE_WAR,
                                    "--resume", "-", "--port", "0"], stdin=text,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   cwd=tmp_path)
        try:
            first = process.stdout.readline()
            while not process.stdout.readline().startswith("each URL holds a secret"):
                pass
        finally:
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=30)
    assert first == "Space War: blue (human), red (random) (resumed from <stdin>: 6 decisions)\n"
    assert "Traceback" not in err


def test_a_reload_names_a_secret_decision_that_no_longer_applies_by_its_seat(tmp_path):
    """A reload replays the decisions into the new rules; one that no longer applies was
    told to every page with its text and why ('decision 1 (lay c2) no longer applies: the
    rule 'c != @c2' does not hold'), which told red where blue laid its mine in secret. The
    pages now get the decision's number and seat; the host's --resume gets it whole."""
    rules = os.path.join(ROOT, "tests", "rules", "sight.gdl")
    session = Session(load_game(rules), 1, ["human", "human"], rules_path=rules)
    lay = [a for a in session.legal()
           if session.game.action_text(session.state, a) == "lay c2"][0]
    session.decide(0, lay)
    table = Table(session, 0)
    changed = tmp_path / "sight.gdl"
    with open(rules, encoding="utf-8") as stream:
        text = stream.read()
    changed.write_text(text.replace("where len(pieces_at(c)) == 0 {",
                                    "where len(pieces_at(c)) == 0 and c != @c2 {", 1))
    assert asyncio.run(table.take(load_game(str(changed)))) is None
    said = [line for line in table.session.logs[1] if "rule file changed" in line]
    assert said == ["the rule file changed: replayed 0 of 1 decision; decision 1 (blue's "
                    "move) no longer applies"]
    assert not any("c2" in line for line in table.session.logs[1])
