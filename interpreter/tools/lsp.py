"""`gdl lsp`: the language server, on pygls (2.x), speaking LSP over stdin and stdout.

It answers from `analysis.Document`, which reads each open file with the same parser and
checker as `gdl check`: diagnostics as the designer types (the first parse or static error,
with `gdl check`'s message), hover, go to definition (into the base file of a variant),
references, rename, completion of names, fields and built-ins, and the outline of
declarations. Names are looked up in the checker's reference table. While a text does not
check, hover and definition answer from the last text of the file that did, on the lines
that have not changed since; references and rename wait for a text that checks. A base file
open in the editor is read from the editor, not the disk. pygls is an optional extra:
`pip install 'gdl[lsp]'`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..language.errors import GdlError
from ..language.tree import Span

if TYPE_CHECKING:
    from .analysis import Symbol

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
    """Run the server on stdin/stdout until the client says exit."""
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise GdlError("the language server needs pygls: pip install 'gdl[lsp]'") from None
    os.environ["GDL_NO_CACHE"] = "1"    # a text per keystroke: no parse-cache entry for each
    server = _server(LanguageServer, types)
    server.start_io()


def _server(server_class: Any, types: Any) -> Any:
    from importlib.metadata import PackageNotFoundError, version

    from pygls.uris import from_fs_path, to_fs_path

    from .analysis import Document
    try:
        server = server_class("gdl", version("gdl"),
                              text_document_sync_kind=types.TextDocumentSyncKind.Full)
    except PackageNotFoundError:
        server = server_class("gdl", "unknown",
                              text_document_sync_kind=types.TextDocumentSyncKind.Full)
    analysed: dict[str, Document] = {}      # uri -> the Document of its current text
    parsed: dict[str, Document] = {}        # uri -> the last Document whose text parsed
    checked: dict[str, Document] = {}       # uri -> the last Document whose text checked

    def read(path: str) -> str | None:
        """A file's text: the editor's, when it is open there, else the disk's."""
        for document in server.workspace.text_documents.values():
            if document.path == path or to_fs_path(document.uri) == path:
                return str(document.source)
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError):
            return None

    def update(uri: str) -> None:
        text = server.workspace.get_text_document(uri).source
        document = Document(text, to_fs_path(uri) or uri, read)
        analysed[uri] = document
        if document.program is not None:
            parsed[uri] = document
        if document.references is not None:
            checked[uri] = document
        problems = [] if document.problem is None else [document.problem]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[types.Diagnostic(
                range=_between(types, p.line, p.column, p.line, p.end_column),
                message=p.message, severity=types.DiagnosticSeverity.Error, source="gdl")
                for p in problems]))

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

    def location(span: Span) -> Any:
        return types.Location(uri=from_fs_path(os.path.abspath(span.file)),
                              range=_range(types, span))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: Any) -> Any:
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: Any) -> Any:
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Any, params: Any) -> Any:
        # a saved base file changes what its variants check against
        for uri in list(analysed):
            update(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: Any) -> Any:
        uri = params.text_document.uri
        analysed.pop(uri, None)
        parsed.pop(uri, None)
        checked.pop(uri, None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: Any, params: Any) -> Any:
        position = params.position
        document = answering(params.text_document.uri, position.line)
        text = None if document is None else document.hover(position.line + 1,
                                                             position.character + 1)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: Any, params: Any) -> Any:
        position = params.position
        document = answering(params.text_document.uri, position.line)
        declaration = None if document is None else document.definition(
            position.line + 1, position.character + 1)
        return None if declaration is None else location(declaration.span)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: Any, params: Any) -> Any:
        document = analysed.get(params.text_document.uri)
        position = params.position
        spans = None if document is None else document.references_at(
            position.line + 1, position.character + 1)
        if not spans:
            return None
        if not params.context.include_declaration:
            spans = spans[1:]
        return [location(span) for span in spans]

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def rename(ls: Any, params: Any) -> Any:
        document = analysed.get(params.text_document.uri)
        position = params.position
        spans: tuple[Span, ...] = ()
        if document is None or document.references is None:
            refused: str | None = "the file has errors: rename once it checks"
        else:
            renaming = document.rename(position.line + 1, position.character + 1,
                                       params.new_name)
            refused, spans = renaming.refused, renaming.spans
        if refused is not None:
            server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"gdl: {refused}"))
            return None
        changes: dict[str, list[Any]] = {}
        for span in spans:
            changes.setdefault(from_fs_path(os.path.abspath(span.file)), []).append(
                types.TextEdit(range=_range(types, span), new_text=params.new_name))
        return types.WorkspaceEdit(changes=changes)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    def completion(ls: Any, params: Any) -> Any:
        uri = params.text_document.uri
        document = checked.get(uri) or parsed.get(uri)
        if document is None:
            return types.CompletionList(is_incomplete=False, items=[])
        # the position is in the text as typed, which may not parse: the line as typed
        lines = server.workspace.get_text_document(uri).source.split("\n")
        position = params.position
        typed = lines[position.line] if position.line < len(lines) else ""
        items = [types.CompletionItem(
            label=label, detail=detail,
            kind=getattr(types.CompletionItemKind, _COMPLETION_KINDS.get(kind, "Text")))
            for label, kind, detail in document.completions(
                position.line + 1, position.character + 1, typed[:position.character])]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: Any, params: Any) -> Any:
        document = parsed.get(params.text_document.uri)
        if document is None:
            return []
        return [_document_symbol(types, symbol) for symbol in document.symbols]

    return server


def _range(types: Any, span: Span) -> Any:
    """An LSP range (0-based) from a span (1-based lines and columns)."""
    return _between(types, span.line, span.column, span.end_line or span.line,
                    span.end_column or span.column + 1)


def _between(types: Any, line: int, column: int, end_line: int, end_column: int) -> Any:
    """An LSP range (0-based) from 1-based lines and columns."""
    return types.Range(start=types.Position(line=line - 1, character=max(column - 1, 0)),
                       end=types.Position(line=end_line - 1, character=max(end_column - 1, 0)))


def _document_symbol(types: Any, symbol: Symbol) -> Any:
    whole = _range(types, symbol.span)
    chosen = _range(types, symbol.at)
    if (chosen.start.line, chosen.start.character) < (whole.start.line,
                                                      whole.start.character):
        chosen = whole
    return types.DocumentSymbol(
        name=symbol.name, kind=getattr(types.SymbolKind, _SYMBOL_KINDS.get(symbol.kind,
                                                                          "Object")),
        detail=symbol.kind, range=whole, selection_range=chosen,
        children=[_document_symbol(types, child) for child in symbol.children])
