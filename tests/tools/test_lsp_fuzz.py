"""`gdl lsp` never blocks and never dies (issue 20): a base file that is a FIFO, standard
input or a device; documents over the loader's size limit; a long check under way; params that
break the LSP types; bodies that are not JSON or are cut short; a change to a file never
opened; a client that sends everything at once, or closes the output; a long session, after which pygls keeps no future of the messages handled (checked in
process, on the server's own loop). Then a bounded fuzz: the server started as users start it
(`gdl lsp` over stdio) gets malformed messages, huge and half-typed documents, out-of-range
positions and random requests, and every request with an id is answered within `DEADLINE`
seconds, the latest text of every document gets its diagnostics, stderr holds no traceback and
the server exits cleanly at the end.

Each test starts its own server (they are cheap: about 0.3 s), under a memory limit, so a
regression shows as a failure, not as a machine out of memory.
"""

import asyncio
import collections
import io
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("pygls")

from pygls.uris import from_fs_path  # noqa: E402

from tests.helpers import read_lsp_message  # noqa: E402
from tests.tools.test_lsp import GAME, VARIANT  # noqa: E402

DEADLINE = 1.0          # seconds for any answer (measured: under 0.1 s but while loaded)
LOADED = 3.0            # the same on a machine loaded by a parallel suite
MEMORY = 2 << 30        # bytes of address space for the server


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def command():
    """`gdl lsp` as an editor starts it: the installed script beside this Python."""
    script = os.path.join(os.path.dirname(sys.executable), "gdl")
    if os.path.exists(script):
        return [script, "lsp"]
    return [sys.executable, "-m", "gdl.cli.main", "lsp"]


class Server:
    """A `gdl lsp` process and a client that frames messages itself (so it can also send
    what no client should) and notes when each answer arrived."""

    def __init__(self, cwd):
        self.process = subprocess.Popen(command(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=cwd, preexec_fn=_limited)
        self.lock = threading.Condition()
        self.answers = {}           # id -> (time received, message)
        self.notifications = []     # (time received, message)
        self.stderr = b""
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()
        answer = self.request("initialize", {"processId": os.getpid(), "capabilities": {},
                                             "rootUri": from_fs_path(str(cwd))})
        assert "result" in answer, answer
        self.notify("initialized", {})

    def _read(self):
        while (message := read_lsp_message(self.process.stdout)) is not None:
            with self.lock:
                if "method" in message:
                    self.notifications.append((time.monotonic(), message))
                else:
                    self.answers.setdefault(message.get("id"), []).append(
                        (time.monotonic(), message))
                self.lock.notify_all()

    def _read_stderr(self):
        self.stderr = self.process.stderr.read()

    def send_raw(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def ask(self, method, params):
        """Send a request; its id (the answer is awaited later)."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, ident, within=30.0):
        """The answer to request `ident`, waited for at most `within` seconds."""
        with self.lock:
            self.lock.wait_for(lambda: ident in self.answers, timeout=within)
            found = self.answers.get(ident)
        assert found, f"request {ident} not answered within {within} s"
        return found[0][1]

    def request(self, method, params, within=30.0):
        return self.answer(self.ask(method, params), within)

    def diagnostics(self, uri, version=None, within=30.0):
        """The diagnostics published for `uri` (and `version`, when given)."""
        def published():
            return [m["params"] for _, m in self.notifications
                    if m["method"] == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri
                    and (version is None or m["params"].get("version") == version)]
        with self.lock:
            self.lock.wait_for(published, timeout=within)
            found = published()
        assert found, f"no diagnostics for {uri} (version {version}) within {within} s"
        return found[-1]["diagnostics"]

    def open(self, path, text, version=1):
        uri = from_fs_path(str(path))
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "gdl", "version": version, "text": text}})
        return uri

    def change(self, uri, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def close(self):
        """Shutdown and exit: the exit status, and stderr (read to its end)."""
        assert self.process.poll() is None, "the server died"
        assert "result" in self.request("shutdown", None, within=10)
        self.notify("exit", None)
        return self.ended()

    def ended(self):
        """The exit status, once stderr is read to its end."""
        status = self.process.wait(timeout=10)
        self.stderr_reader.join(timeout=10)
        return status

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def server(tmp_path):
    (tmp_path / "duel.gdl").write_text(GAME)
    (tmp_path / "fast.gdl").write_text(VARIANT)
    started = Server(tmp_path)
    yield started
    started.kill()


def timed(server, method, params, within):
    """A request's answer and how long it took."""
    sent = time.monotonic()
    ident = server.ask(method, params)
    message = server.answer(ident, within=within + 30)
    took = server.answers[ident][0][0] - sent
    return message, took


def hover_at(uri, line=0, character=0):
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


# ----- extends: only a regular file ----------------------------------------------------------

BASES = ["fifo", "/dev/zero", "/dev/stdin"]


@pytest.mark.parametrize("base", BASES)
def test_a_base_that_is_not_a_regular_file_is_one_diagnostic(server, tmp_path, base):
    os.mkfifo(tmp_path / "fifo")
    text = VARIANT.replace('"duel.gdl"', f'"{base}"')
    uri = server.open(tmp_path / "odd.gdl", text)
    [diagnostic] = server.diagnostics(uri, version=1, within=10)
    assert "is not a regular file" in diagnostic["message"]
    assert diagnostic["range"]["start"]["line"] == 0            # on the extends line
    message, took = timed(server, "textDocument/hover", hover_at(uri, 3, 7), LOADED)
    assert "result" in message and took < LOADED
    assert server.close() == 0


@pytest.mark.parametrize("base", BASES)
def test_gdl_check_refuses_a_base_that_is_not_a_regular_file(tmp_path, base):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "odd.gdl").write_text(VARIANT.replace('"duel.gdl"', f'"{base}"'))
    result = subprocess.run([sys.executable, "-m", "gdl.cli.main", "check", "odd.gdl"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=20,
                            stdin=subprocess.PIPE, preexec_fn=_limited)
    assert result.returncode == 1
    assert "is not a regular file: a variant extends a rule file" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_chain_of_bases_too_long_is_one_problem_not_a_recursion_error(tmp_path):
    """The analysis reads a variant's bases one inside the next: a chain of 1,200 variants
    raised RecursionError there (the server said 'gdl could not analyse this text'). It
    reads at most the 50 the check allows, which then says why."""
    from gdl.interpreter.tools.analysis import Document
    (tmp_path / "v0.gdl").write_text(GAME)
    for number in range(1, 1201):
        (tmp_path / f"v{number}.gdl").write_text(f'extends "v{number - 1}.gdl"\n')
    document = Document((tmp_path / "v1200.gdl").read_text(), str(tmp_path / "v1200.gdl"))
    assert document.problem is not None
    assert document.problem.message.endswith(
        "more than 50 base files, each extending the next: a variant has at most 50")


DEEP = 'game "g"\nseats a, b\nboard square(2, 2)\nfn f() = '


@pytest.mark.parametrize("text, message", [
    # nested without brackets: the parser's tree is deeper than Python's recursion goes
    (DEEP + "-" * 20_000 + "1\n", "the rule file nests too deeply to read"),
    (DEEP + "if true then " * 3_000 + "1" + " else 2" * 3_000 + "\n",
     "the rule file nests too deeply to read"),
    # a lone surrogate (JSON's "\ud800") in a comment or a text: no character, no UTF-8
    (GAME.replace("# How far", "# \ud800 How far"),
     "character \\ud800 is half of a UTF-16 surrogate pair, not a character"),
    (GAME.replace('game "Duel"', 'game "Du\udc00el"'),
     "character \\udc00 is half of a UTF-16 surrogate pair, not a character"),
])
def test_a_text_that_cannot_be_read_is_one_clear_diagnostic(server, tmp_path, text, message):
    """Before, the editor showed "gdl could not analyse this text: RecursionError(...)" or
    "...UnicodeEncodeError('utf-8', <the whole text>...)"; now the reason, in words."""
    uri = server.open(tmp_path / "odd.gdl", text)
    [diagnostic] = server.diagnostics(uri, version=1, within=30)
    assert diagnostic["message"] == message
    assert "result" in server.request("textDocument/hover", hover_at(uri, 3, 3))
    assert server.close() == 0
    assert b"Traceback" not in server.stderr


# ----- large documents -----------------------------------------------------------------------

@pytest.mark.parametrize("megabytes", [2, 6])
def test_a_document_over_the_size_limit_is_one_diagnostic_and_no_wait(server, tmp_path,
                                                                       megabytes):
    huge = GAME + ("# a comment line of a hundred characters" + "-" * 58 + "\n") * (
        megabytes * 10_000)
    uri = server.open(tmp_path / "huge.gdl", huge)
    [diagnostic] = server.diagnostics(uri, version=1, within=10)
    assert "larger than 1,000,000, more than a rule file can be" in diagnostic["message"]
    small = server.open(tmp_path / "duel.gdl", GAME)
    assert server.diagnostics(small, within=10) == []
    message, took = timed(server, "textDocument/hover", hover_at(small, 4, 8), DEADLINE)
    assert "reach_limit" in message["result"]["contents"]["value"]
    assert took < LOADED
    assert server.close() == 0


def test_a_document_of_too_many_tokens_is_one_diagnostic_and_no_wait(server, tmp_path):
    """Under the size limit but dense with tokens (640,000 in 1 MB: 30 s of parsing): the
    parser refuses it before parsing, so the editor is told at once."""
    dense = GAME + "".join(f"param p{i} = [" + ", ".join(["1"] * 200) + "]\n"
                           for i in range(1_600))
    uri = server.open(tmp_path / "dense.gdl", dense)
    [diagnostic] = server.diagnostics(uri, version=1, within=10)
    assert "too many tokens: more than 100,000" in diagnostic["message"]
    assert server.close() == 0


def test_requests_are_answered_while_a_large_text_is_checked(server, tmp_path):
    """About 3 s of checking runs off the message loop: the outline and the hover of the
    same file (from its last analysis) come before the large text's diagnostics."""
    small = server.open(tmp_path / "duel.gdl", GAME)
    assert server.diagnostics(small, within=10) == []
    large = GAME + "".join(f"fn extra_{i}(p) = p.speed + {i}\n" for i in range(8_000))
    server.change(small, large, 2)
    answered = []
    for method, params in [("textDocument/documentSymbol", {"textDocument": {"uri": small}}),
                           ("textDocument/hover", hover_at(small, 4, 8))] * 3:
        message, took = timed(server, method, params, LOADED)
        assert message["result"] and took < LOADED
        answered.append(server.answers[server.next_id][0][0])
    assert server.diagnostics(small, version=2, within=60) == []
    assert max(answered) < published_at(server, small, 2)
    for version in range(3, 10):        # typing: the last text is checked and published
        server.change(small, half_typed(random.Random(version), GAME), version)
    server.change(small, GAME, 10)
    assert server.diagnostics(small, version=10, within=60) == []
    assert server.close() == 0


def published_at(server, uri, version):
    """When the diagnostics of a version of `uri` came."""
    return next(when for when, m in server.notifications
                if m["method"] == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri and m["params"].get("version") == version)


# ----- what breaks the LSP types or JSON -----------------------------------------------------

@pytest.mark.parametrize("params", [
    hover_at("file:///x.gdl", 2 ** 31), hover_at("file:///x.gdl", -1),
    hover_at("file:///x.gdl", 0, 2 ** 31), hover_at("file:///x.gdl", "x"), [], "x",
    {"textDocument": {"uri": "file:///x.gdl"}}, None])
def test_params_that_break_the_lsp_types_get_an_error_reply(server, params):
    message, took = timed(server, "textDocument/hover", params, DEADLINE)
    assert message["error"]["code"] == -32602, message
    assert "textDocument/hover" in message["error"]["message"]
    assert took < LOADED
    assert server.close() == 0


def test_a_request_about_a_file_never_opened_reads_no_file(server):
    """pygls would read an unopened uri from the disk: /dev/zero for ever."""
    for method in ("textDocument/completion", "textDocument/hover",
                   "textDocument/documentSymbol", "textDocument/definition"):
        message, took = timed(server, method, hover_at("file:///dev/zero"), DEADLINE)
        assert "result" in message and took < LOADED, message


def test_a_change_to_a_file_never_opened_is_ignored_quietly(server):
    """pygls applied it as if the file were open, and showed the user a KeyError."""
    uri = "file:///never/opened.gdl"
    server.change(uri, GAME, 2)
    message, took = timed(server, "textDocument/hover", hover_at(uri), DEADLINE)
    assert message["result"] is None and took < LOADED, message
    assert server.close() == 0
    assert [m for _, m in server.notifications if m["method"] == "window/showMessage"] == []
    assert server.stderr == b"", server.stderr.decode()


def test_bodies_that_are_not_json_get_a_parse_error_and_no_traceback(server):
    for body in (b'{"jsonrpc": "2.0", "id": 99, "method": "textDocument/hov',
                 b"\xff\xfe\x00junk", b"[" * 100_000, b"[]", b'"x"', b"1e999999"):
        server.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.send_raw(b"Content-Length: zero\r\n\r\n")
    server.send_raw(b"Content-Length: %d\r\n\r\n" % 10 ** 20)        # allocates nothing
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}).encode()
    server.send_raw(b"Content-Length: %d\r\n\r\n" % (len(body) + 20) + body)     # cut short
    server.send_raw(b"}" * 20)                    # (the rest of the body: framing resumes)
    message, took = timed(server, "textDocument/hover", hover_at("file:///x.gdl"), DEADLINE)
    assert "result" in message and took < LOADED
    with server.lock:
        errors = [m for _, m in server.answers.get(None, [])]
    assert [m["error"]["code"] for m in errors] == [-32700] * 3 + [-32600] * 3 + [-32700] * 3
    assert server.close() == 0
    assert b"Traceback" not in server.stderr, server.stderr.decode()


def test_a_body_cut_short_at_the_end_of_input_ends_the_server_quietly(server):
    server.send_raw(b'Content-Length: 100\r\n\r\n{"jsonrpc": "2.0", "id": 5, "met')
    server.process.stdin.close()
    assert server.ended() == 0
    assert b"Traceback" not in server.stderr, server.stderr.decode()


def all_at_once(tmp_path, requests):
    """The framed messages of a client that sends everything at once and exits: initialize
    (id 1), open duel.gdl, `requests` (ids 2, 3...), shutdown, exit."""
    (tmp_path / "duel.gdl").write_text(GAME)
    uri = from_fs_path(str(tmp_path / "duel.gdl"))
    messages = [{"id": 1, "method": "initialize", "params": {
        "processId": None, "capabilities": {}, "rootUri": from_fs_path(str(tmp_path))}},
        {"method": "initialized", "params": {}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "gdl", "version": 1, "text": GAME}}}]
    messages += [{"id": ident, "method": method, "params": params(uri)}
                 for ident, (method, params) in enumerate(requests, start=2)]
    messages += [{"id": len(requests) + 2, "method": "shutdown"}, {"method": "exit"}]
    bodies = [json.dumps({"jsonrpc": "2.0", **message}).encode() for message in messages]
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body for body in bodies)


REQUESTS = [("textDocument/documentSymbol", lambda uri: {"textDocument": {"uri": uri}}),
            ("textDocument/hover", hover_at)]


def test_requests_sent_all_at_once_are_answered_before_the_shutdown(tmp_path):
    """pygls' shutdown cancelled the requests still waiting for their text's analysis (never
    answered), and pygls' exit closed the output under the messages still to be written: a
    line of error for each, and for each report of it (194 lines)."""
    result = subprocess.run(command(), input=all_at_once(tmp_path, REQUESTS),
                            capture_output=True, cwd=tmp_path, timeout=60,
                            preexec_fn=_limited)
    stream = io.BytesIO(result.stdout)
    answers = []
    while (message := read_lsp_message(stream)) is not None:
        if "id" in message:
            answers.append(message)
    assert [message["id"] for message in answers] == [1, 2, 3, 4]
    assert answers[1]["result"][0]["name"] == 'game "Duel"'
    assert answers[2]["result"]["contents"]["value"] == "keyword `game`"
    assert (result.returncode, result.stderr) == (0, b"")


def test_an_output_closed_by_the_client_stops_the_server_in_one_line(tmp_path):
    process = subprocess.Popen(command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, preexec_fn=_limited)
    process.stdout.close()
    _, stderr = process.communicate(all_at_once(tmp_path, REQUESTS * 50), timeout=60)
    assert process.returncode == 0
    assert stderr == b"gdl lsp: the output is closed: stopping\n"


# ----- a long session ------------------------------------------------------------------------

def test_handled_messages_leave_no_future_behind(tmp_path, monkeypatch):
    """pygls filed the future of each notification (didOpen, didChange...) under a random id
    and never removed it: 2 KB a keystroke, and slower requests. In process, on the server's
    own loop: a request's future is filed while it is pending, and once every message is
    handled the table is empty."""
    from lsprotocol import types
    from pygls.io_ import StdoutWriter
    from pygls.lsp.server import LanguageServer

    from gdl.interpreter.tools import lsp

    monkeypatch.setenv("GDL_NO_CACHE", "1")      # as `gdl lsp` runs
    (tmp_path / "duel.gdl").write_text(GAME)
    uri = from_fs_path(str(tmp_path / "duel.gdl"))
    edits = 200

    def change(version, text):
        return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}}

    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "capabilities": {}, "rootUri": from_fs_path(str(tmp_path))}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "gdl", "version": 1, "text": GAME}}}]
    messages += [change(version, GAME[:version * 7]) for version in range(2, edits + 1)]
    messages += [{"jsonrpc": "2.0", "method": "textDocument/didSave",
                  "params": {"textDocument": {"uri": uri}}}, change(edits + 1, GAME)]

    def published(output):
        stream = io.BytesIO(output.getvalue())
        while (message := read_lsp_message(stream)) is not None:
            if message.get("method") == "textDocument/publishDiagnostics" and \
                    message["params"].get("version") == edits + 1:
                return True
        return False

    async def session():
        server = lsp._server(LanguageServer, types)
        output = io.BytesIO()
        server.protocol.set_writer(StdoutWriter(output))
        table = server.protocol._request_futures
        for message in messages + [{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                                    "params": hover_at(uri)}]:
            body = json.dumps(message).encode()
            lsp._handle(server.protocol, lsp._message(server.protocol, body))
        pending = set(table)                # the hover waits for the latest analysis
        deadline = time.monotonic() + 60
        while not (published(output) and 2 not in table) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return pending, dict(table), published(output)

    pending, left, analysed = asyncio.run(session())
    assert pending == {2}
    assert left == {}
    assert analysed


# ----- the fuzz ------------------------------------------------------------------------------

FUZZ_SECONDS = float(os.environ.get("GDL_LSP_FUZZ_SECONDS", "6"))    # longer runs: set it
POSITIONS = [0, 1, 3, 17, 40, 2 ** 31 - 1, 2 ** 31, -1, 10 ** 20, "x", None, 1.5]
METHODS = ["textDocument/hover", "textDocument/definition", "textDocument/references",
           "textDocument/rename", "textDocument/completion", "textDocument/documentSymbol",
           "textDocument/formatting", "workspace/symbol", "gdl/unknown", "$/unknown"]


def half_typed(rng, text):
    """The text cut at a random place, with a few characters deleted or doubled."""
    text = text[:rng.randrange(len(text) + 1)]
    for _ in range(rng.randrange(4)):
        if not text:
            break
        at = rng.randrange(len(text))
        text = text[:at] + (text[at] * 2 if rng.random() < 0.5 else "") + text[at + 1:]
    return text


def random_text(rng, folder):
    roll = rng.random()
    if roll < 0.03:
        return GAME + "# padding\n" * rng.choice([110_000, 300_000])     # 1.2 MB, 3.3 MB
    if roll < 0.08:
        return VARIANT.replace('"duel.gdl"', '"%s"' % rng.choice(
            ["fifo", "/dev/zero", "/dev/stdin", "fast.gdl", "nothing.gdl", str(folder)]))
    if roll < 0.15:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(200)))
    if roll < 0.25:
        return "(" * rng.randrange(1000) + "x"
    return half_typed(rng, rng.choice([GAME, VARIANT]))


def random_params(rng, uri):
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([[], "x", None, 3, {}, {"textDocument": None}])
    position = {"line": rng.choice(POSITIONS), "character": rng.choice(POSITIONS)}
    if rng.random() < 0.7:
        position = {"line": rng.randrange(60), "character": rng.randrange(40)}
    return {"textDocument": {"uri": uri}, "position": position,
            "newName": rng.choice(["renamed", "", "1x", "a b", "goto", "range_of", "é"]),
            "context": {"includeDeclaration": rng.random() < 0.5},
            "options": {"tabSize": 2, "insertSpaces": True}, "query": ""}


def malformed(rng):
    """Bytes no client should send, framed so that the next message is read as sent."""
    kind = rng.randrange(6)
    if kind == 0:
        body = rng.randbytes(rng.randrange(1, 200))
    elif kind == 1:
        body = json.dumps({"jsonrpc": "2.0", "id": "cut", "method": "textDocument/hover",
                           "params": {}}).encode()[:rng.randrange(1, 40)]
    elif kind == 2:
        body = json.dumps(rng.choice([[], "x", 1, None, {"jsonrpc": "1.0", "id": 1},
                                      {"jsonrpc": "2.0", "id": [1], "method": "x"},
                                      {"jsonrpc": "2.0", "method": 3}])).encode()
    elif kind == 3:
        return b"Content-Length: -5\r\n\r\n"
    elif kind == 4:
        return b"\r\n\r\nNot-A-Header\r\n\r\n"
    else:
        whole = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen"}).encode()
        extra = rng.randrange(1, 30)    # a length past the body: padded to resume framing
        return b"Content-Length: %d\r\n\r\n" % (len(whole) + extra) + whole + b" " * extra
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_fuzz_every_request_is_answered_and_the_server_lives(server, tmp_path):
    os.mkfifo(tmp_path / "fifo")
    seed = int(os.environ.get("GDL_LSP_FUZZ_SEED", "20"))     # other runs: set it
    rng = random.Random(seed)
    uris = [from_fs_path(str(tmp_path / name)) for name in ("duel.gdl", "fast.gdl", "new.gdl")]
    versions = {}                       # uri -> the last version sent
    sent = {}                           # id -> time sent
    counts = {"requests": 0, "edits": 0, "malformed": 0, "huge": 0}
    start = time.monotonic()
    while time.monotonic() - start < FUZZ_SECONDS:
        roll = rng.random()
        uri = rng.choice(uris)
        if roll < 0.3:
            text = random_text(rng, tmp_path)
            counts["huge"] += len(text) > 1_000_000
            versions[uri] = versions.get(uri, 0) + 1
            if versions[uri] == 1:
                server.notify("textDocument/didOpen", {"textDocument": {
                    "uri": uri, "languageId": "gdl", "version": 1, "text": text}})
            else:
                server.change(uri, text, versions[uri])
            counts["edits"] += 1
        elif roll < 0.4:
            server.send_raw(malformed(rng))
            counts["malformed"] += 1
        elif roll < 0.42 and uri in versions:
            server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        else:
            method = rng.choice(METHODS if rng.random() < 0.2 else METHODS[:6])
            ident = server.ask(method, random_params(rng, uri))
            sent[ident] = time.monotonic()
            counts["requests"] += 1
        if rng.random() < 0.3:
            time.sleep(0.01)
    late = {}
    for ident, when in sent.items():
        server.answer(ident, within=30)
        took = server.answers[ident][0][0] - when
        if took > LOADED:
            late[ident] = round(took, 2)
    for uri, version in versions.items():   # the latest text of each document is checked
        server.diagnostics(uri, version=version, within=60)
    codes = collections.Counter(server.answers[i][0][1].get("error", {}).get("code", "result")
                                for i in sent)
    print(f"lsp fuzz (seed {seed}): {counts}; answers {dict(codes)}; slowest "
          f"{max(server.answers[i][0][0] - sent[i] for i in sent):.3f} s")
    internal = [server.answers[i][0][1] for i in sent
                if server.answers[i][0][1].get("error", {}).get("code") == -32603]
    assert not internal, internal[:3]       # a bug of the server, not of the input
    assert not late, f"answers later than {LOADED} s: {late}"
    assert server.process.poll() is None, "the server died"
    assert server.close() == 0
    assert b"Traceback" not in server.stderr, server.stderr.decode()[-3000:]
