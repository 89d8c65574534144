"""`gdl lsp`: a scripted editor talks to the language server over stdio (JSON-RPC with
Content-Length headers, as VS Code or Neovim do): diagnostics with `gdl check`'s messages as
the text changes, hover, go to definition (into a variant's base file), references and rename
(across a variant and its base), completion and the outline; then shutdown and exit. Without pygls the command says which extra to install."""

import json
import os
import queue
import subprocess
import sys
import threading

import pytest

pytest.importorskip("pygls")

from pygls.uris import from_fs_path  # noqa: E402
from tests.helpers import read_lsp_message  # noqa: E402

TIMEOUT = 30

GAME = """\
game "Duel"
seats blue, red
board square(4, 4)

param reach_limit = 3

kinds (symbol, speed) {
  Scout = "S", 2
  Tank  = "T", 1
}

var piece.moved = 0

# How far a piece may go this turn.
fn range_of(p) = p.speed + reach_limit

def tire(p) {
  p.moved += 1
}

setup {
  create Scout for blue at @a1
  create Tank for red at @d4
  goto play for blue
}

phase play turn {
  "Move one piece."
  action go(p in pieces(me), to in cells()) where distance(p.cell, to) <= range_of(p) {
    "Go up to the piece's range."
    tire(p)
    goto play for next(me)
  }
}

end {
  win when count(p in pieces(seat) where p.moved > 3) > 0
}
"""

VARIANT = """\
extends "duel.gdl"
game "Duel (fast)"

param reach_limit = 5

fn sprint(p) = range_of(p) + 1
"""


class Client:
    """A minimal LSP client: requests wait for their response; notifications are kept."""

    def __init__(self, cwd):
        self.process = subprocess.Popen([sys.executable, "-m", "gdl.cli.main", "lsp"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd)
        self.messages = queue.Queue()
        self.notifications = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while (message := read_lsp_message(self.process.stdout)) is not None:
            self.messages.put(message)

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if message.get("id") == self.next_id and "method" not in message:
                assert "error" not in message, message
                return message["result"]
            self.notifications.append(message)

    def diagnostics(self, uri):
        """The next diagnostics published for `uri`."""
        while True:
            for index, message in enumerate(self.notifications):
                if message.get("method") == "textDocument/publishDiagnostics" \
                        and message["params"]["uri"] == uri:
                    del self.notifications[index]
                    return message["params"]["diagnostics"]
            self.notifications.append(self.messages.get(timeout=TIMEOUT))


def position(text, word, occurrence=1, offset=0):
    """The LSP position (0-based) of the n-th occurrence of `word` in `text`."""
    index = -1
    for _ in range(occurrence):
        index = text.index(word, index + 1)
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1) + offset}


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    (folder / "duel.gdl").write_text(GAME)
    (folder / "fast.gdl").write_text(VARIANT)
    client = Client(folder)
    result = client.request("initialize", {"processId": os.getpid(), "capabilities": {},
                                           "rootUri": from_fs_path(str(folder))})
    client.notify("initialized", {})
    yield client, folder, result
    client.process.kill()
    client.process.wait()


def open_file(client, path, text, version=1):
    uri = from_fs_path(str(path))
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "gdl", "version": version, "text": text}})
    return uri


def test_the_server_says_what_it_can_do(session):
    _, _, result = session
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "gdl"
    for feature in ("hoverProvider", "definitionProvider", "documentSymbolProvider",
                    "referencesProvider", "renameProvider"):
        assert capabilities[feature]
    assert capabilities["completionProvider"]["triggerCharacters"] == ["."]


def check_message(folder, name, text):
    """What `gdl check` says of this text: (line, column, message) of its first line."""
    path = folder / name
    path.write_text(text)
    result = subprocess.run([sys.executable, "-m", "gdl.cli.main", "check", str(path)],
                            capture_output=True, text=True)
    head = result.stderr.split("\n")[0]
    _, line, column, message = head.split(":", 3)
    return int(line), int(column), message.removeprefix(" error: ")


def test_diagnostics_follow_the_text_with_the_messages_of_gdl_check(session):
    client, folder, _ = session
    wrong = GAME.replace("tire(p)\n", "tier(p)\n")
    line, column, message = check_message(folder, "typo.gdl", wrong)
    uri = open_file(client, folder / "typo.gdl", wrong)
    [diagnostic] = client.diagnostics(uri)
    assert diagnostic["message"].split("\n")[0] == message
    assert diagnostic["message"].endswith("did you mean 'tire'?")
    assert diagnostic["range"] == {"start": {"line": line - 1, "character": column - 1},
                                   "end": {"line": line - 1, "character": column + 3}}
    assert diagnostic["severity"] == 1 and diagnostic["source"] == "gdl"

    unclosed = GAME.replace("    goto play for next(me)\n  }\n", "    goto play for next(me)\n")
    line, column, message = check_message(folder, "unclosed.gdl", unclosed)
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": unclosed}]})
    [diagnostic] = client.diagnostics(uri)
    assert diagnostic["message"].split("\n")[0] == message
    assert diagnostic["range"]["start"] == {"line": line - 1, "character": column - 1}

    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": GAME}]})
    assert client.diagnostics(uri) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []


def hover(client, uri, text, word, occurrence=1):
    result = client.request("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": position(text, word, occurrence, 1)})
    return result and result["contents"]["value"]


def test_hover_tells_types_stats_parameters_and_built_ins(session):
    client, folder, _ = session
    uri = open_file(client, folder / "duel.gdl", GAME)
    assert client.diagnostics(uri) == []
    text = hover(client, uri, GAME, "reach_limit", 2)
    assert text.startswith("param `reach_limit`") and "type: a number, value 3" in text
    assert "symbol \"S\", speed 2" in hover(client, uri, GAME, "Scout", 2)
    assert "Scout 2, Tank 1" in hover(client, uri, GAME, "speed", 2)       # p.speed
    fn = hover(client, uri, GAME, "range_of", 2)
    assert "fn range_of(p) = p.speed + reach_limit" in fn
    assert "(p: a piece) -> a number" in fn and "How far a piece may go this turn." in fn
    action = hover(client, uri, GAME, "go(")
    assert "in phase `play`; parameters: p: a piece, to: a cell" in action
    assert "Go up to the piece's range." in action
    assert "Move one piece." in hover(client, uri, GAME, "play", 1)
    assert hover(client, uri, GAME, "distance").startswith("built-in `distance`, 2 arguments")
    assert "var `piece.moved`" in hover(client, uri, GAME, "moved", 2)
    assert hover(client, uri, GAME, "\n\n", 1) is None            # nothing on a blank line


def definition(client, uri, text, word, occurrence):
    return client.request("textDocument/definition", {
        "textDocument": {"uri": uri}, "position": position(text, word, occurrence, 1)})


def test_definition_finds_declarations_locals_and_the_base_file(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    for word, occurrence, target in [("range_of", 2, ("fn range_of", 3)),
                                     ("tire", 2, ("def tire", 4)),
                                     ("play", 2, ("phase play", 6)),
                                     ("Scout", 2, ("  Scout", 2)),
                                     ("reach_limit", 2, ("param reach_limit", 6))]:
        found = definition(client, uri, GAME, word, occurrence)
        assert found["uri"] == uri
        line, prefix = position(GAME, target[0]), target[1]
        assert found["range"]["start"] == {"line": line["line"], "character": prefix}, word
    local = definition(client, uri, GAME, "p.cell", 1)      # the binder p of action go
    assert local["range"]["start"] == position(GAME, "p in pieces(me)")
    variant = open_file(client, folder / "fast.gdl", VARIANT)
    assert client.diagnostics(variant) == []
    base = definition(client, variant, VARIANT, "range_of", 1)
    assert base["uri"] == uri
    assert base["range"]["start"] == position(GAME, "range_of")
    mine = definition(client, variant, VARIANT, "sprint", 1)
    assert mine["uri"] == variant


def labels(client, uri, line, character):
    result = client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
    return {item["label"]: item for item in result["items"]}


def test_completion_of_fields_names_and_built_ins(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    typing = GAME.replace("    tire(p)\n", "    tire(p)\n    p.\n")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typing}]})
    client.diagnostics(uri)
    where = position(typing, "    p.\n", 1, 6)
    fields = labels(client, uri, where["line"], where["character"])
    assert {"speed", "symbol", "moved", "owner", "cell"} <= set(fields)
    assert "range_of" not in fields
    names = labels(client, uri, where["line"], 4)
    assert {"range_of", "tire", "reach_limit", "Scout", "play", "distance", "pieces", "p", "to",
            "me", "goto", "count"} <= set(names)
    assert names["distance"]["kind"] == 3          # Function
    assert names["range_of"]["detail"] == "fn range_of(p) = p.speed + reach_limit"
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": GAME}]})
    assert client.diagnostics(uri) == []


def test_document_symbols_outline_the_declarations(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [(s["name"], s["detail"]) for s in symbols]
    assert names[0] == ('game "Duel"', "game")
    assert ("reach_limit", "param") in names and ("range_of", "fn") in names
    assert ("tire", "def") in names and ("setup", "setup") in names
    phase = next(s for s in symbols if s["name"] == "play")
    assert [(c["name"], c["detail"]) for c in phase["children"]] == [("go", "action")]
    assert phase["range"]["start"]["line"] == position(GAME, "phase play")["line"]
    kinds = next(s for s in symbols if s["detail"] == "kinds")
    assert [c["name"] for c in kinds["children"]] == ["symbol", "speed", "Scout", "Tank"]
    seats = next(s for s in symbols if s["detail"] == "seats")
    assert [c["name"] for c in seats["children"]] == ["blue", "red"]


def test_the_outline_names_a_declaration_as_written():
    """A head's words come from the text (a string is not blanked); it ends at the `{` or
    the comment of the code, not at a `{` or `#` inside a string."""
    from gdl.interpreter.tools.analysis import Document
    document = Document('game "Duel { #1"  # a comment {\n' + GAME.split("\n", 1)[1],
                        "duel.gdl")
    assert document.symbols[0].name == 'game "Duel { #1"'
    assert document.symbols[0].at.end_column == len('game "Duel { #1"') + 1


def ranges(locations):
    """(uri file name, line, start, end) of LSP locations or edits, in order."""
    return sorted((os.path.basename(uri), r["start"]["line"], r["start"]["character"],
                   r["end"]["character"]) for uri, r in locations)


def at(text, word, occurrence, name=None):
    where = position(text, word, occurrence)
    return (where["line"], where["character"], where["character"] + len(name or word))


def references(client, uri, text, word, occurrence, declaration=True):
    found = client.request("textDocument/references", {
        "textDocument": {"uri": uri}, "position": position(text, word, occurrence, 1),
        "context": {"includeDeclaration": declaration}})
    return found and ranges((f["uri"], f["range"]) for f in found)


def test_references_find_every_use_across_the_base_file(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    assert references(client, uri, GAME, "range_of", 2) == [
        ("duel.gdl",) + at(GAME, "range_of", 1), ("duel.gdl",) + at(GAME, "range_of", 2)]
    assert references(client, uri, GAME, "range_of", 1, declaration=False) == [
        ("duel.gdl",) + at(GAME, "range_of", 2)]
    # the binder p of action go: its uses in the action, not the p of fn range_of
    assert references(client, uri, GAME, "p in pieces", 1) == [
        ("duel.gdl",) + at(GAME, "p in pieces", 1, "p"),
        ("duel.gdl",) + at(GAME, "p.cell", 1, "p"), ("duel.gdl",) + at(GAME, "p) {", 2, "p"),
        ("duel.gdl",) + at(GAME, "p)\n    goto", 1, "p")]
    assert references(client, uri, GAME, "distance", 1) is None         # a built-in
    variant = from_fs_path(str(folder / "fast.gdl"))
    # the variant's reach_limit replaces the base's: the base's uses name it
    assert references(client, variant, VARIANT, "reach_limit", 1) == [
        ("duel.gdl",) + at(GAME, "reach_limit", 2),
        ("fast.gdl",) + at(VARIANT, "reach_limit", 1)]
    assert references(client, variant, VARIANT, "range_of", 1) == [
        ("duel.gdl",) + at(GAME, "range_of", 1), ("duel.gdl",) + at(GAME, "range_of", 2),
        ("fast.gdl",) + at(VARIANT, "range_of", 1)]


def rename(client, uri, text, word, occurrence, new_name):
    edit = client.request("textDocument/rename", {
        "textDocument": {"uri": uri}, "position": position(text, word, occurrence, 1),
        "newName": new_name})
    if edit is None:
        return None
    assert {e["newText"] for edits in edit["changes"].values() for e in edits} == {new_name}
    return ranges((uri, e["range"]) for uri, edits in edit["changes"].items() for e in edits)


def refusal(client):
    """The message the server showed last."""
    shown = [m for m in client.notifications if m.get("method") == "window/showMessage"]
    client.notifications.remove(shown[-1])
    return shown[-1]["params"]["message"]


def test_rename_rewrites_every_use_and_refuses_what_it_cannot_rename(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    assert rename(client, uri, GAME, "tire", 2, "rest") == [
        ("duel.gdl",) + at(GAME, "tire", 1), ("duel.gdl",) + at(GAME, "tire", 2)]
    assert rename(client, uri, GAME, "moved", 1, "steps") == [
        ("duel.gdl",) + at(GAME, "moved", i) for i in (1, 2, 3)]
    assert rename(client, uri, GAME, "to in", 1, "target") == [
        ("duel.gdl",) + at(GAME, "to in", 1, "to"), ("duel.gdl",) + at(GAME, "to)", 1, "to")]
    assert rename(client, uri, GAME, "distance", 1, "far") is None
    assert refusal(client) == "gdl: 'distance' is built in and cannot be renamed"
    assert rename(client, uri, GAME, "tire", 1, "range_of") is None
    assert refusal(client) == "gdl: 'range_of' is declared already"
    assert rename(client, uri, GAME, "tire", 1, "goto") is None
    assert refusal(client).startswith("gdl: 'goto' cannot be a name")
    variant = from_fs_path(str(folder / "fast.gdl"))
    assert rename(client, variant, VARIANT, "sprint", 1, "dash") == [
        ("fast.gdl",) + at(VARIANT, "sprint", 1)]
    assert rename(client, variant, VARIANT, "range_of", 1, "reach") is None
    assert refusal(client) == "gdl: 'range_of' is declared in duel.gdl: rename it there"
    assert rename(client, variant, VARIANT, "reach_limit", 1, "limit") is None
    assert refusal(client).startswith("gdl: 'reach_limit' replaces a declaration of the base")
    unopened = from_fs_path(str(folder / "never_opened.gdl"))
    assert rename(client, unopened, GAME, "tire", 2, "rest") is None
    assert refusal(client) == "gdl: the file is not open: open it to rename"


def test_a_text_that_does_not_check_answers_from_the_last_that_did(session):
    client, folder, _ = session
    uri = from_fs_path(str(folder / "duel.gdl"))
    broken = GAME.replace("    tire(p)\n", "    tire(p)\n    p.\n")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": broken}]})
    assert client.diagnostics(uri)
    found = definition(client, uri, broken, "range_of", 2)       # an unchanged line
    assert found["range"]["start"] == position(GAME, "range_of")
    assert rename(client, uri, broken, "tire", 2, "rest") is None
    assert refusal(client) == "gdl: the file has errors: rename once it checks"
    assert references(client, uri, broken, "tire", 2) is None
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": GAME}]})
    assert client.diagnostics(uri) == []


# A line with characters beyond ASCII before names: an emoji is one character, two UTF-16
# units and four UTF-8 bytes.
WIDE = GAME.replace("    tire(p)\n", '    log "\U0001F600\u00e9 " + text(reach_limit) + '
                    "text(reach_limit)\n    tire(p)\n")
CODECS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}


def units(text, encoding):
    codec, width = CODECS[encoding]
    return len(text.encode(codec)) // width


def edited(text, edits, encoding):
    """`text` with LSP edits applied, their columns counted in `encoding`'s units."""
    codec, width = CODECS[encoding]
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                             e["range"]["start"]["character"]), reverse=True):
        start, end = edit["range"]["start"], edit["range"]["end"]
        assert start["line"] == end["line"]
        line = lines[start["line"]].encode(codec)
        lines[start["line"]] = (line[:start["character"] * width] + edit["newText"].encode(codec)
                                + line[end["character"] * width:]).decode(codec)
    return "\n".join(lines)


@pytest.mark.parametrize("offered, encoding", [(None, "utf-16"), (["utf-8"], "utf-8"),
                                               (["utf-32", "utf-16"], "utf-32")])
def test_columns_count_the_units_of_the_encoding_agreed(tmp_path, offered, encoding):
    """Positions the client sends and ranges the server sends count the units of the
    position encoding agreed at initialize (UTF-16 unless the client offers another), not
    characters: counted in characters, a rename after an emoji rewrote the wrong columns and
    broke the file, and hover, definition and diagnostics there were off."""
    (tmp_path / "duel.gdl").write_text(WIDE)
    client = Client(tmp_path)
    try:
        capabilities = {} if offered is None else {"general": {"positionEncodings": offered}}
        result = client.request("initialize", {"processId": os.getpid(), "rootUri":
                                               from_fs_path(str(tmp_path)),
                                               "capabilities": capabilities})
        assert result["capabilities"]["positionEncoding"] == encoding
        client.notify("initialized", {})
        uri = open_file(client, tmp_path / "duel.gdl", WIDE)
        assert client.diagnostics(uri) == []
        number = WIDE.count("\n", 0, WIDE.index("log "))
        line = WIDE.split("\n")[number]
        at = {"line": number, "character": units(line[:line.index("reach_limit")], encoding)}
        found = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": at})
        assert found["contents"]["value"].startswith("param `reach_limit`")
        renamed = client.request("textDocument/rename", {"textDocument": {"uri": uri},
                                                         "position": at, "newName": "far"})
        assert edited(WIDE, renamed["changes"][uri], encoding) == \
            WIDE.replace("reach_limit", "far")
        wrong = WIDE.replace("text(reach_limit) + ", "text(reach_limt) + ")
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": wrong}]})
        [diagnostic] = client.diagnostics(uri)
        start = units(line[:line.index("reach_limit")], encoding)
        assert diagnostic["range"] == {"start": {"line": number, "character": start},
                                       "end": {"line": number, "character": start + 10}}
    finally:
        client.process.kill()
        client.process.wait()


def test_shutdown_and_exit(session):
    client, _, _ = session
    assert client.request("shutdown", None) is None
    client.notify("exit", None)
    assert client.process.wait(timeout=TIMEOUT) == 0


def test_without_pygls_the_command_names_the_extra():
    script = ("import sys; sys.modules['pygls'] = None; sys.argv = ['gdl', 'lsp']; "
              "from gdl.cli.main import main; main()")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == "error: the language server needs pygls: pip install -e '.[lsp]'\n"


def test_analysis_finds_names_in_the_reference_table_not_in_the_text():
    """The language server resolves no name itself: no regular expressions in it."""
    import ast

    from gdl.interpreter.tools import analysis, lsp
    for module in (analysis, lsp):
        with open(module.__file__, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        imported = {alias.name for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names} | {node.module for node in ast.walk(tree)
                                                if isinstance(node, ast.ImportFrom)}
        assert "re" not in imported, module.__name__
