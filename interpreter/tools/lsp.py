"""`gdl lsp`: the language server, on pygls (2.x), speaking LSP over stdin and stdout.

It answers from `analysis.Document`, which reads each open file with the same parser and
checker as `gdl check`: diagnostics as the designer types (the first parse or static error,
with `gdl check`'s message), hover, go to definition (into the base file of a variant),
references, rename, completion of names, fields and built-ins, and the outline of
declarations. Names are looked up in the checker's reference table. Columns are the
client's (UTF-16 units unless it offers another position encoding), converted to and from
gdl's characters along each line. While a text does not
check, hover and definition answer from the last text of the file that did, on the lines
that have not changed since; references and rename wait for a text that checks. A base file
open in the editor is read from the editor, not the disk. pygls is an optional extra:
`pip install -e '.[lsp]'`.

The server never blocks and never dies on what an editor (or a careless file) sends. Each
text is analysed on a worker thread, off the message loop: an edit made meanwhile supersedes
the analysis (only the latest text's diagnostics are published), and a request waits at most
`WAIT` seconds for the analysis of the text it is about, else answers from the last one, so
every request is answered at once even while a large file is checked. A text larger than the
loader's limit gets one diagnostic and no parse; a base file is read only if it is a regular
file (`loader.read_text`). The messages are read here, not by pygls' loop: a body that is
not JSON gets a parse error reply, a request whose params do not fit the LSP types an invalid
params reply, and no input prints a traceback. pygls' protocol is mended where it slips
(`_protocol_class`): it forgets each message once handled, and ignores a change to a file
never opened. A `shutdown` or `exit` waits until the requests before it are answered (pygls
would cancel those waiting for an analysis, when a client sends all at once), and what is
written after `exit` closed the output is dropped, without a line of error for each.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

from ..language.errors import GdlError
from ..language.tree import Span

if TYPE_CHECKING:
    from .analysis import Document, Symbol

WAIT = 0.25
"""Seconds a request waits for the analysis of the latest text before it answers from the
last analysed one (a 1 MB file takes about 10 s to check)."""

# analysis kinds -> LSP SymbolKind / CompletionItemKind names
_SYMBOL_KINDS = {"phase": "Class", "action": "Method", "fn": "Function", "def": "Function",
                 "param": "Constant", "var": "Variable", "kind": "Struct", "stat": "Field",
                 "kinds": "Struct", "seat": "EnumMember", "symbol": "EnumMember",
                 "zone": "Module", "terrain": "Constant", "board": "Module",
                 "parameter": "Variable", "local": "Variable"}
_COMPLETION_KINDS = {"phase": "Class", "action": "Method", "fn": "Function",
                     "def": "Function", "param": "Constant", "var": "Variable",
                     "kind": "Struct", "stat": "Field", "seat": "EnumMember",
                     "symbol": "EnumMember", "zone": "Module", "terrain": "Constant",
                     "parameter": "Variable", "local": "Variable", "builtin": "Function",
                     "builtin_value": "Constant", "keyword": "Keyword", "property": "Property"}


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit (or closes stdin)."""
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise GdlError("the language server needs pygls: pip install -e '.[lsp]'") from None
    os.environ["GDL_NO_CACHE"] = "1"    # a text per keystroke: no parse-cache entry for each
    _log_one_line()
    sys.setswitchinterval(0.001)    # the loop's thread waits less for the analysis' GIL
    server = _server(LanguageServer, types)
    # the reader thread may still wait on stdin when the client says exit: a reader of its
    # own, so that Python's shutdown does not wait for (or abort on) sys.stdin's lock
    stdin = open(sys.stdin.fileno(), "rb", closefd=False)
    try:
        status = asyncio.run(_listen(server, stdin, sys.stdout.buffer))
    except KeyboardInterrupt:
        return
    if status:
        sys.exit(status)


def _log_one_line() -> None:
    """pygls logs what it could not handle; one line each on stderr, never a traceback."""
    class OneLine(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return "gdl lsp: " + record.getMessage().split("\n")[0]

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    logger = logging.getLogger("pygls")
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False


async def _listen(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Read messages from `stdin` (on a thread) and hand each to the protocol, on this
    loop, until `exit`, the end of input or of the output; the exit status (pygls': 1 for
    an exit without a shutdown before it).

    The messages may all be there at once (a client that sends them and exits): the
    requests before a `shutdown` or `exit` are answered first (LSP: nothing is answered
    after the shutdown's reply), where pygls would cancel those still waiting for their
    text's analysis."""
    loop = asyncio.get_running_loop()
    bodies: asyncio.Queue[bytes | None] = asyncio.Queue()
    server.protocol.set_writer(_Output(stdout, lambda: bodies.put_nowait(None)))

    def read() -> None:
        while True:
            try:
                body = _read_message(stdin)
            except (OSError, ValueError):       # stdin closed or broken: the end
                body = None
            if not _call_on(loop, bodies.put_nowait, body) or body is None:
                return

    threading.Thread(target=read, name="gdl-lsp-reader", daemon=True).start()
    status = 0
    while (body := await bodies.get()) is not None:
        message = _message(server.protocol, body)
        if message is None:
            continue
        if getattr(message, "method", None) in ("shutdown", "exit"):
            await server.protocol.answered()
        try:
            _handle(server.protocol, message)
        except SystemExit as stop:      # pygls' exit: the output is closed, the end
            status = stop.code if isinstance(stop.code, int) else 1
            break
    server.shutdown()
    return status


ANSWERED = 5.0
"""Seconds a `shutdown` or `exit` waits for the requests before it to be answered (each
waits at most WAIT for its analysis, then answers at once)."""


class _Output:
    """The server's stdout for pygls. Once closed (by `exit`) what is still written (the
    diagnostics of an analysis that ends late, a request cancelled) is dropped; once broken
    (the editor went away) one line says so and the server stops (`lost`), instead of
    pygls' line of error for each message, and one for each report of that error."""

    def __init__(self, stream: BinaryIO, lost: Callable[[], None]) -> None:
        self.stream = stream
        self.lost = lost
        self.closed = False

    def close(self) -> None:
        self.closed = True
        self.stream.close()

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.stream.write(data)
            self.stream.flush()
        except (OSError, ValueError):       # a broken pipe, or a stream closed under us
            self.closed = True
            try:
                print("gdl lsp: the output is closed: stopping", file=sys.stderr)
            except OSError:                 # stderr is gone too
                pass
            self.lost()


MAX_MESSAGE = 64 << 20
"""Bytes of one message's body: a larger one is skipped unread (a parse error), so that a
Content-Length of a terabyte allocates nothing. (A 1 MB rule file is at most 6 MB of JSON.)"""


def _read_message(stream: BinaryIO) -> bytes | None:
    """The body of the next message (header lines, a blank line, the body), or None at the
    end of input. A header without a usable Content-Length, or a body over MAX_MESSAGE,
    gives b"" (not JSON)."""
    length: int | None = None
    while True:
        line = stream.readline(65536)
        if not line:
            return None
        if not line.strip():
            if length is None:
                continue                # a stray blank line between messages
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            digits = value.strip()
            length = int(digits) if digits.isdigit() and len(digits) < 16 else -1
    if length < 0:
        return b""
    if length > MAX_MESSAGE:
        while length > 0:
            skipped = len(stream.read(min(length, 1 << 20)))
            if not skipped:
                return None
            length -= skipped
        return b""
    body = stream.read(length)
    return body if len(body) == length else None


def _message(protocol: Any, body: bytes) -> Any:
    """A message read as pygls' typed message, or None: what does not fit JSON-RPC or the
    LSP types gets its JSON-RPC error reply (requests) or is dropped (notifications)."""
    from pygls.exceptions import JsonRpcException
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):     # not JSON, not UTF-8, nested too deeply
        _reply_error(protocol, None, -32700, "the message is not JSON")
        return
    ident = data.get("id") if isinstance(data, dict) else None
    if not isinstance(ident, (int, str)) or isinstance(ident, bool):
        ident = None
    method = data.get("method") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0" or \
            "method" in data and not isinstance(method, str):
        _reply_error(protocol, ident, -32600, "not a JSON-RPC 2.0 message (an object with "
                     "jsonrpc \"2.0\" and a method name)")
        return
    try:
        return protocol.structure_message(data)
    except JsonRpcException:
        if method is not None and ident is not None:
            _reply_error(protocol, ident, -32602,
                         f"the params of {method} do not fit the LSP types")
        return None


def _handle(protocol: Any, message: Any) -> None:
    """A typed message to pygls' protocol; a request that fails outside its handler gets an
    error reply."""
    try:
        protocol.handle_message(message)
    except Exception as exc:    # pygls answers a failing handler itself; this is the rest
        method, ident = getattr(message, "method", None), getattr(message, "id", None)
        if method is not None and ident is not None:
            _reply_error(protocol, ident, -32603, f"gdl lsp: {exc!r}")


def _reply_error(protocol: Any, ident: int | str | None, code: int, message: str) -> None:
    """A JSON-RPC error reply, written as pygls writes its own (on this loop's thread)."""
    body = json.dumps({"jsonrpc": "2.0", "id": ident,
                       "error": {"code": code, "message": message}}).encode("utf-8")
    protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _server(server_class: Any, types: Any) -> Any:
    from importlib.metadata import PackageNotFoundError, version
    from urllib.parse import unquote

    from pygls.exceptions import JsonRpcInternalError
    from pygls.uris import from_fs_path, to_fs_path

    from ..loader import read_text
    from .analysis import Document, Problem
    try:
        release = version("gdl")
    except PackageNotFoundError:
        release = "unknown"
    server = server_class("gdl", release, protocol_cls=_protocol_class(),
                          text_document_sync_kind=types.TextDocumentSyncKind.Full)
    analysed: dict[str, Document] = {}      # uri -> the Document of its current text
    parsed: dict[str, Document] = {}        # uri -> the last Document whose text parsed
    checked: dict[str, Document] = {}       # uri -> the last Document whose text checked
    edits: dict[str, int] = {}              # uri -> edits seen: an analysis of an older
    running: set[str] = set()               # (uri whose analysis runs) text is superseded
    settled: dict[str, asyncio.Event] = {}  # uri -> set when its latest text is analysed
    worker = _Worker()

    def opened(uri: str) -> Any:
        """The editor's document of `uri`, or None (never a file read from the disk: a
        request may name any uri, /dev/zero too)."""
        return server.workspace.text_documents.get(unquote(uri))

    def reader() -> Callable[[str], str | None]:
        """A file's text, for the worker: the editor's (as open now), else the disk's."""
        texts = {}
        for document in server.workspace.text_documents.values():
            texts[document.path] = texts[to_fs_path(document.uri)] = document.source

        def read(path: str) -> str | None:
            if path in texts:
                return texts[path]
            try:
                return read_text(path, regular=True)
            except GdlError:
                return None
        return read

    def update(uri: str) -> None:
        """Analyse the uri's text off the loop; an edit made meanwhile supersedes it."""
        edits[uri] = edits.get(uri, 0) + 1
        settled.setdefault(uri, asyncio.Event()).clear()
        if uri not in running:
            start(uri)

    def start(uri: str) -> None:
        document = opened(uri)
        if document is None:
            settled[uri].set()
            return
        running.add(uri)
        wanted, text, version, read = edits[uri], document.source, document.version, reader()
        worker.submit(lambda: Document(text, to_fs_path(uri) or uri, read),
                      lambda result: finish(uri, wanted, version, result))

    def finish(uri: str, wanted: int, version: int | None,
               result: Document | BaseException) -> None:
        running.discard(uri)
        if opened(uri) is None:
            settled[uri].set()
            return
        if edits[uri] != wanted:
            start(uri)
            return
        if isinstance(result, BaseException):   # a bug: said, not a dead server
            analysed.pop(uri, None)
            problems = [Problem(1, 1, 2, f"gdl could not analyse this text: {result!r}")]
        else:
            analysed[uri] = result
            if result.program is not None:
                parsed[uri] = result
            if result.references is not None:
                checked[uri] = result
            problems = [] if result.problem is None else [result.problem]
            problems += result.warnings
        settled[uri].set()
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[types.Diagnostic(
                range=_between(types, p.line, p.column, p.line, p.end_column,
                               lines_of(result, to_fs_path(uri) or uri), units()),
                message=p.message, source="gdl", severity=types.DiagnosticSeverity.Warning
                if p.warning else types.DiagnosticSeverity.Error)
                for p in problems]))

    async def latest(uri: str) -> None:
        """Wait (at most WAIT s) for the analysis of the uri's latest text."""
        event = settled.get(uri)
        if event is not None and not event.is_set():
            try:
                await asyncio.wait_for(event.wait(), WAIT)
            except asyncio.TimeoutError:
                pass

    def answering(uri: str, line: int) -> Document | None:
        """The Document to answer about a (0-based) line: the current text's when it
        checks, else the last checked one's if that line has not changed since."""
        document = analysed.get(uri)
        last = checked.get(uri)
        if document is None or document.references is not None or last is None:
            return document
        if line < min(len(last.lines), len(document.lines)) and \
                last.lines[line] == document.lines[line]:
            return last
        return document

    def units() -> Callable[[str], int]:
        """The length of a text in the position encoding agreed with the client (UTF-16
        unless it offered another): LSP columns count those units, gdl's count characters."""
        encoding = getattr(server.workspace, "position_encoding", None)
        return _UNITS.get(str(getattr(encoding, "value", encoding)), _utf16)

    def lines_of(document: Any, file: str | None) -> list[str] | None:
        """The lines of `file` as `document` (or a base file it read) has them, or None."""
        while isinstance(document, Document):
            if document.path == file:
                return document.lines
            document = document.base
        return None

    def column(uri: str, line: int, character: int) -> int:
        """The 0-based character index of an LSP position in the editor's text."""
        editor = opened(uri)
        return _from_units(units(), "" if editor is None else _line(editor.source, line),
                           character)

    def location(span: Span, document: Document) -> Any:
        return types.Location(uri=from_fs_path(os.path.abspath(span.file)),
                              range=_range(types, span, lines_of(document, span.file),
                                           units()))

    def request(method: str, *options: Any) -> Callable[[Any], Any]:
        """A request's handler: after the latest analysis; a bug is an error reply of one
        line, not a traceback."""
        def register(answer: Callable[[Any], Any]) -> Any:
            async def handler(params: Any) -> Any:
                await latest(params.text_document.uri)
                try:
                    return answer(params)
                except Exception as exc:
                    raise JsonRpcInternalError(f"gdl: {exc!r}") from None
            return server.feature(method, *options)(handler)
        return register

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: Any) -> None:
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: Any) -> None:
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: Any) -> None:
        # a saved base file changes what its variants check against
        for uri in [uri for uri in edits if opened(uri) is not None]:
            update(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: Any) -> None:
        uri = params.text_document.uri
        edits[uri] = edits.get(uri, 0) + 1
        if uri in settled:
            settled[uri].set()
        analysed.pop(uri, None)
        parsed.pop(uri, None)
        checked.pop(uri, None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @request(types.TEXT_DOCUMENT_HOVER)
    def hover(params: Any) -> Any:
        uri, position = params.text_document.uri, params.position
        document = answering(uri, position.line)
        at = column(uri, position.line, position.character)
        text = None if document is None else document.hover(position.line + 1, at + 1)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    @request(types.TEXT_DOCUMENT_DEFINITION)
    def definition(params: Any) -> Any:
        uri, position = params.text_document.uri, params.position
        document = answering(uri, position.line)
        declaration = None if document is None else document.definition(
            position.line + 1, column(uri, position.line, position.character) + 1)
        return None if document is None or declaration is None else \
            location(declaration.span, document)

    @request(types.TEXT_DOCUMENT_REFERENCES)
    def references(params: Any) -> Any:
        uri, position = params.text_document.uri, params.position
        document = analysed.get(uri)
        spans = None if document is None else document.references_at(
            position.line + 1, column(uri, position.line, position.character) + 1)
        if document is None or not spans:
            return None
        if not params.context.include_declaration:
            spans = spans[1:]
        return [location(span, document) for span in spans]

    @request(types.TEXT_DOCUMENT_RENAME)
    def rename(params: Any) -> Any:
        document = analysed.get(params.text_document.uri)
        position = params.position
        spans: tuple[Span, ...] = ()
        if opened(params.text_document.uri) is None:
            refused: str | None = "the file is not open: open it to rename"
        elif document is None or document.references is None:
            refused = "the file has errors: rename once it checks"
        else:
            at = column(params.text_document.uri, position.line, position.character)
            renaming = document.rename(position.line + 1, at + 1, params.new_name)
            refused, spans = renaming.refused, renaming.spans
        if refused is not None:
            server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"gdl: {refused}"))
            return None
        changes: dict[str, list[Any]] = {}
        for span in spans:
            changes.setdefault(from_fs_path(os.path.abspath(span.file)), []).append(
                types.TextEdit(range=_range(types, span, lines_of(document, span.file),
                                            units()), new_text=params.new_name))
        return types.WorkspaceEdit(changes=changes)

    @request(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
    def completion(params: Any) -> Any:
        uri = params.text_document.uri
        document = checked.get(uri) or parsed.get(uri)
        editor = opened(uri)
        if document is None or editor is None:
            return types.CompletionList(is_incomplete=False, items=[])
        # the position is in the text as typed, which may not parse: the line as typed
        position = params.position
        typed = _line(editor.source, position.line)
        at = _from_units(units(), typed, position.character)
        items = [types.CompletionItem(
            label=label, detail=detail,
            kind=getattr(types.CompletionItemKind, _COMPLETION_KINDS.get(kind, "Text")))
            for label, kind, detail in document.completions(
                position.line + 1, at + 1, typed[:at])]
        return types.CompletionList(is_incomplete=False, items=items)

    @request(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(params: Any) -> Any:
        document = parsed.get(params.text_document.uri)
        if document is None:
            return []
        return [_document_symbol(types, symbol, document.lines, units())
                for symbol in document.symbols]

    return server


def _protocol_class() -> Any:
    """pygls' protocol, with two of its slips mended.

    pygls files the future of each message it handles under the message's id (so that a
    cancel can find it) and removes it when it answers; a notification handled by one of
    pygls' own generators (didOpen, didChange, didClose...) is filed under a random id and
    never removed: 2 KB a keystroke, for ever, and every request slower. Here each future
    leaves the table once it is done (a request's after pygls has sent its answer; one still
    pending stays, for a cancel to find). And pygls applies a change to a file the editor
    never opened as if it were open, which raises (a KeyError shown to the user): such a
    change is ignored, as are requests about that file. It also says when every request
    received is answered (`answered`), for a shutdown to wait for them."""
    from functools import partial
    from urllib.parse import unquote

    from lsprotocol import types
    from pygls.protocol import LanguageServerProtocol, lsp_method

    class Protocol(LanguageServerProtocol):
        def _execute_handler(self, msg_id: Any, handler: Any, callback: Any,
                             args: Any = None, kwargs: Any = None) -> None:
            super()._execute_handler(msg_id, handler, callback, args, kwargs)
            future = self._request_futures.get(msg_id)
            if future is not None:
                future.add_done_callback(partial(self._forget, msg_id))

        def _forget(self, msg_id: Any, future: Any) -> None:
            # only this future: a client may reuse the id of a request it has had answered
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]

        async def answered(self) -> None:
            """Wait (at most ANSWERED s) until every request received is answered."""
            pending = [asyncio.wrap_future(future)
                       for future in self._request_futures.values() if not future.done()]
            if pending:
                await asyncio.wait(pending, timeout=ANSWERED)

        @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
        def lsp_text_document__did_change(self, params: Any) -> Any:
            if unquote(params.text_document.uri) in self.workspace.text_documents:
                yield from super().lsp_text_document__did_change(params)

    return Protocol


class _Worker:
    """One daemon thread that runs analyses in turn (a daemon: an analysis under way never
    delays the exit); each result, or the exception raised, goes to its callback on the
    loop that submitted it."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        threading.Thread(target=self._run, name="gdl-lsp-analysis", daemon=True).start()

    def submit(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        loop = asyncio.get_running_loop()

        def job() -> None:
            try:
                result = work()
            except Exception as exc:       # a bug in the analysis: the callback says it
                result = exc
            _call_on(loop, done, result)
        self.jobs.put(job)

    def _run(self) -> None:
        while True:
            self.jobs.get()()


def _call_on(loop: asyncio.AbstractEventLoop, function: Callable[[Any], None],
             argument: Any) -> bool:
    """Call `function(argument)` on the loop, from another thread; False if the loop is
    closed (the server has stopped: nobody to tell)."""
    try:
        loop.call_soon_threadsafe(function, argument)
    except RuntimeError:
        return False
    return True


def _line(text: str, number: int) -> str:
    """Line `number` (0-based) of a text, "" past its end, without splitting all of it."""
    start = 0
    for _ in range(number):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


_UNITS: dict[str, Callable[[str], int]] = {
    "utf-16": _utf16, "utf-32": len,
    "utf-8": lambda text: len(text.encode("utf-8", "surrogatepass"))}


def _to_units(units: Callable[[str], int], line: str, index: int) -> int:
    """The LSP column of the character `index` (0-based) of `line`: the units of the
    characters before it (one each past the end)."""
    if line.isascii():
        return index
    return units(line[:index]) + max(index - len(line), 0)


def _from_units(units: Callable[[str], int], line: str, column: int) -> int:
    """The character index (0-based) of the LSP column `column` of `line`; one inside a
    character (half of a UTF-16 pair) is the character after it, one past the end as far
    past it."""
    if line.isascii():
        return column
    counted = 0
    for index, character in enumerate(line):
        if counted >= column:
            return index
        counted += units(character)
    return len(line) + max(column - counted, 0)


def _range(types: Any, span: Span, lines: list[str] | None = None,
           units: Callable[[str], int] = _utf16) -> Any:
    """An LSP range (0-based) from a span (1-based lines and columns in characters), its
    columns counted in `units` along `lines` (the text of the span's file; None: as they
    are)."""
    return _between(types, span.line, span.column, span.end_line or span.line,
                    span.end_column or span.column + 1, lines, units)


def _between(types: Any, line: int, column: int, end_line: int, end_column: int,
             lines: list[str] | None = None, units: Callable[[str], int] = _utf16) -> Any:
    """An LSP range (0-based) from 1-based lines and columns, as `_range`."""
    def position(number: int, at: int) -> Any:
        at = max(at - 1, 0)
        if lines is not None and 1 <= number <= len(lines):
            at = _to_units(units, lines[number - 1], at)
        return types.Position(line=number - 1, character=at)
    return types.Range(start=position(line, column), end=position(end_line, end_column))


def _document_symbol(types: Any, symbol: Symbol, lines: list[str] | None = None,
                     units: Callable[[str], int] = _utf16) -> Any:
    whole = _range(types, symbol.span, lines, units)
    chosen = _range(types, symbol.at, lines, units)
    if (chosen.start.line, chosen.start.character) < (whole.start.line,
                                                      whole.start.character):
        chosen = whole
    return types.DocumentSymbol(
        name=symbol.name, kind=getattr(types.SymbolKind, _SYMBOL_KINDS.get(symbol.kind,
                                                                          "Object")),
        detail=symbol.kind, range=whole, selection_range=chosen,
        children=[_document_symbol(types, child, lines, units) for child in symbol.children])
