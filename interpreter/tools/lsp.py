"""`gdl lsp`: the language server, on pygls (2.x), speaking LSP over stdin and stdout.

It answers from `analysis.Document`, which reads each open file with the same parser and
checker as `gdl check`: diagnostics as the designer types (the first parse or static error,
with `gdl check`'s message), hover, go to definition (into the base file of a variant),
completion of names, fields and built-ins, and the outline of declarations. A base file open
in the editor is read from the editor, not the disk. pygls is an optional extra:
`pip install 'gdl[lsp]'`.
"""

from __future__ import annotations

import os

from ..language.errors import GdlError

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


def serve():
    """Run the server on stdin/stdout until the client says exit."""
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise GdlError("the language server needs pygls: pip install 'gdl[lsp]'") from None
    os.environ["GDL_NO_CACHE"] = "1"    # a text per keystroke: no parse-cache entry for each
    server = _server(LanguageServer, types)
    server.start_io()


def _server(server_class, types):
    from importlib.metadata import PackageNotFoundError, version

    from pygls.uris import from_fs_path, to_fs_path

    from .analysis import Document
    try:
        server = server_class("gdl", version("gdl"),
                              text_document_sync_kind=types.TextDocumentSyncKind.Full)
    except PackageNotFoundError:
        server = server_class("gdl", "unknown",
                              text_document_sync_kind=types.TextDocumentSyncKind.Full)
    analysed = {}           # uri -> the Document of its current text
    parsed = {}             # uri -> the last Document whose text parsed (for queries)

    def read(path):
        """A file's text: the editor's, when it is open there, else the disk's."""
        for document in server.workspace.text_documents.values():
            if document.path == path or to_fs_path(document.uri) == path:
                return document.source
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError):
            return None

    def update(uri):
        text = server.workspace.get_text_document(uri).source
        document = Document(text, to_fs_path(uri), read)
        analysed[uri] = document
        if document.program is not None:
            parsed[uri] = document
        problems = [] if document.problem is None else [document.problem]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[types.Diagnostic(
                range=_range(types, p.line, p.column, p.line, p.end_column),
                message=p.message, severity=types.DiagnosticSeverity.Error, source="gdl")
                for p in problems]))

    def current(uri):
        return parsed.get(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params):
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params):
        update(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params):
        # a saved base file changes what its variants check against
        for uri in list(analysed):
            update(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params):
        uri = params.text_document.uri
        analysed.pop(uri, None)
        parsed.pop(uri, None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params):
        document = current(params.text_document.uri)
        position = params.position
        text = document and document.hover(position.line + 1, position.character + 1)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params):
        document = current(params.text_document.uri)
        position = params.position
        symbol = document and document.definition(position.line + 1, position.character + 1)
        if symbol is None:
            return None
        return types.Location(uri=from_fs_path(os.path.abspath(symbol.path)),
                              range=_range(types, symbol.line, symbol.column, symbol.line,
                                           symbol.end_column))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    def completion(ls, params):
        uri = params.text_document.uri
        document = current(uri)
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
    def document_symbol(ls, params):
        document = current(params.text_document.uri)
        if document is None:
            return []
        return [_document_symbol(types, symbol) for symbol in document.symbols]

    return server


def _range(types, line, column, end_line, end_column):
    """An LSP range (0-based) from 1-based lines and columns."""
    return types.Range(start=types.Position(line=line - 1, character=max(column - 1, 0)),
                       end=types.Position(line=end_line - 1, character=max(end_column - 1, 0)))


def _document_symbol(types, symbol):
    span = symbol.span
    whole = _range(types, span.line, span.column, span.end_line or span.line,
                   span.end_column or span.column + 1)
    chosen = _range(types, symbol.line, symbol.column, symbol.line, symbol.end_column)
    if (chosen.start.line, chosen.start.character) < (whole.start.line,
                                                      whole.start.character):
        chosen = whole
    return types.DocumentSymbol(
        name=symbol.name, kind=getattr(types.SymbolKind, _SYMBOL_KINDS.get(symbol.kind,
                                                                          "Object")),
        detail=symbol.kind, range=whole, selection_range=chosen,
        children=[_document_symbol(types, child) for child in symbol.children])
