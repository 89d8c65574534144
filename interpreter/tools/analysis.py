"""What the language server knows of a rule file, without the server: a text and its path
-> its problems (the first parse or static error, as `gdl check` says it), its
declarations, and for a position the declaration of the name there, its hover text, every
place the name is written (references, rename) and the names that may be written there.

`Document` reads the syntax tree and the checked program of the same pipeline as every
command, and resolves nothing itself: the name at a position is looked up in the checker's
reference table (`language/references.py`, on the checked program), which maps every use
of a name to its declaration, across a variant's `extends` too. The outline is read from
the syntax tree: every top-level declaration and every nested `...Decl` node is a symbol,
named by its `name` or `names` field and located by the span the parser recorded for the
name (a kinds table: its columns and kinds). A variant's base file is read, with its own
declarations, for what the variant does not declare itself. Lines and columns are 1-based
here; the server converts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import attrs

from ..language import ast, lint
from ..language.builtins import BUILTINS
from ..language.checker import BUILTIN_VALUES, PIECE_PROPERTIES
from ..language.errors import GdlError
from ..language.limits import MAX_BASES, MAX_SOURCE
from ..language.parser import grammar_words, parse_program
from ..language.program import Program as Resolved
from ..language.references import Declaration, References
from ..language.tree import Span
from ..language.types import describe

Reader = Callable[[str], "str | None"]

_BUILTIN_VALUE_DOCS = {
    "me": "the seat the rule runs for (the seat choosing, in an action)",
    "current": "the seat whose phase is running", "deciding": "the seat to decide now",
    "current_phase": "the name of the phase running", "turn_number": "the turn, from 1",
    "seats": "every seat, in seat order",
}
_PROPERTY_DOCS = {"owner": "the seat that owns the piece (none: no seat)",
                  "cell": "the cell the piece is on (none: off the board)",
                  "kind": "the piece's kind (a row of the kinds table)",
                  "zone": "the zone the piece is in (none: not in a zone)"}
_LOCAL_KINDS = ("parameter", "local")
Completion = tuple[str, str, str]       # (label, kind, detail)


@attrs.define(eq=False)
class Symbol:
    """A declaration of the outline: `at` is where its name is written, `span` the whole
    declaration, `node` the syntax node; `scope` is a variable's."""

    name: str
    kind: str
    document: Document
    at: Span
    span: Span
    node: ast.Node
    scope: str | None = None
    children: list[Symbol] = attrs.Factory(list)

    @property
    def path(self) -> str:
        return self.document.path


@attrs.frozen
class Problem:
    """A diagnostic: where (1-based, end exclusive) and what."""

    line: int
    column: int
    end_column: int
    message: str
    warning: bool = False       # `gdl check --strict`'s (lint), not an error


@attrs.frozen
class Renaming:
    """What a rename comes to: the places to rewrite, or why the name cannot be renamed."""

    spans: tuple[Span, ...] = ()
    refused: str | None = None


class Document:
    """One rule file's text, analysed. `read(path)` gives the text of another file (a base
    file; the server passes the open editors' texts before the disk's)."""

    def __init__(self, text: str, path: str, read: Reader | None = None,
                 seen: tuple[str, ...] = ()) -> None:
        self.path = path
        self.read: Reader = read or _read_disk
        self.problem: Problem | None = None
        self.program: ast.Program | None = None     # the syntax tree, when the text parses
        self.resolved: Resolved | None = None       # the checked program, when it checks
        self.warnings: list[Problem] = []           # what `gdl check --strict` says of it
        self.symbols: list[Symbol] = []             # top-level symbols, with their children
        self.base: Document | None = None           # the Document of the base file
        self._by_span: dict[Span, Symbol] | None = None
        if len(text) > MAX_SOURCE:      # as the loader: one problem, not minutes of parsing
            self.text, self.lines, self.masked = "", [""], [""]
            self.problem = Problem(1, 1, 2, f"a rule file of {len(text):,} characters is "
                                   f"larger than {MAX_SOURCE:,}, more than a rule file can "
                                   "be: it is not checked")
            return
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.lines = self.text.split("\n")
        self.masked = [_masked(line) for line in self.lines]
        try:
            self.text.encode("utf-8")
        except UnicodeEncodeError as exc:   # half of a UTF-16 pair, from JSON's "\ud800"
            line = self.text.count("\n", 0, exc.start)
            column = exc.start - (self.text.rfind("\n", 0, exc.start) + 1) + 1
            self.problem = Problem(line + 1, column, column + 1,
                                   f"character \\u{ord(self.text[exc.start]):04x} is half of a "
                                   "UTF-16 surrogate pair, not a character")
            return
        try:
            self.program = parse_program(self.text, path)
        except GdlError as exc:
            self.problem = self._problem(exc)
            return
        except RecursionError:      # nested without brackets (`- - - ... 1`): too deep a tree
            self.problem = Problem(1, 1, 2, "the rule file nests too deeply to read")
            return
        for item in self.program.items:
            self._declare(item, None)
        self._open_base(seen)
        try:
            from ..loader import check_source
            self.resolved = check_source(self.text, path)
            self.warnings = [attrs.evolve(self._problem(w.as_error()), warning=True)
                             for w in lint.warnings(self.resolved)
                             if w.node.span is not None and w.node.span.file == path]
        except GdlError as exc:
            self.problem = self._problem(exc)
        except RecursionError:      # check_source turns it into a GdlError; parsing might not
            self.problem = Problem(1, 1, 2, "the rule file nests too deeply to read")

    @property
    def references(self) -> References | None:
        """The checker's reference table, when the text checks."""
        return None if self.resolved is None else self.resolved.references

    # ----- problems --------------------------------------------------------------------
    def _problem(self, exc: GdlError) -> Problem:
        message = "\n".join((exc.message,) + tuple(exc.hints))
        if exc.file not in (None, self.path):
            # an error in the base file (or in reading it): shown on the `extends` line
            if exc.line is not None:
                message = f"{exc.file}:{exc.line}:{exc.column or 1}: {message}"
            line = next((item.span.line for item in self.program.items
                         if isinstance(item, ast.ExtendsDecl) and item.span is not None),
                        1) if self.program is not None else 1
            return Problem(line, 1, len(self.lines[line - 1]) + 1, message)
        line = exc.line if exc.line and exc.line <= len(self.lines) else 1
        column = exc.column or 1
        text = self.lines[line - 1]
        end = column
        while end <= len(text) and _is_name_char(text[end - 1]):
            end += 1
        return Problem(line, column, max(end, column + 1), message)

    # ----- declarations ----------------------------------------------------------------
    def _declare(self, node: ast.Node, container: Symbol | None) -> None:
        kind = _kind_of(node)
        found: list[Symbol] = []
        whole = node.span
        assert whole is not None        # the parser gives every declaration its span
        if isinstance(node, ast.KindsDecl):
            for column, at in zip(node.columns, node.column_spans):
                found.append(Symbol(column, "stat", self, at, whole, node))
            for row in node.rows:
                if row.name_span is not None and row.span is not None:
                    found.append(Symbol(row.name, "kind", self, row.name_span, row.span, row))
        elif isinstance(getattr(node, "name_span", None), Span):
            found.append(Symbol(getattr(node, "name"), kind, self, getattr(node, "name_span"),
                                whole, node, getattr(node, "scope", None)))
        elif getattr(node, "name_spans", None):
            for name, at in zip(getattr(node, "names"), getattr(node, "name_spans")):
                found.append(Symbol(name, kind.removesuffix("s"), self, at, whole, node))
        if container is None:
            if len(found) == 1:
                holder = found[0]
            else:
                header = _header(self, node)
                at = Span(whole.file, whole.line, whole.column, whole.line,
                          whole.column + len(header))
                holder = Symbol(header, kind, self, at, whole, node, children=found)
            self.symbols.append(holder)
        else:
            container.children.extend(found)
        parent = found[0] if len(found) == 1 else None
        for child in ast.children(node):
            if isinstance(child, ast.Decl):
                self._declare(child, parent or container)

    def all_symbols(self) -> list[Symbol]:
        """Every symbol of this file, then of its base files."""
        out: list[Symbol] = []
        stack = list(self.symbols)
        while stack:
            symbol = stack.pop(0)
            out.append(symbol)
            stack[:0] = symbol.children
        if self.base is not None:
            out += self.base.all_symbols()
        return out

    def _symbol(self, declaration: Declaration) -> Symbol | None:
        """The outline symbol of a declaration (in this file or a base file)."""
        if self._by_span is None:
            self._by_span = {symbol.at: symbol for symbol in self.all_symbols()}
        return self._by_span.get(declaration.span)

    def _documents(self) -> Iterator[Document]:
        document: Document | None = self
        while document is not None:
            yield document
            document = document.base

    def _document_of(self, path: str) -> Document | None:
        return next((d for d in self._documents() if d.path == path), None)

    # ----- queries ---------------------------------------------------------------------
    def definition(self, line: int, column: int) -> Declaration | None:
        """The declaration of the name at a position, or None (a built-in, a keyword, no
        name, or a text that does not check)."""
        table = self.references
        return None if table is None else table.at(self.path, line, column)

    def references_at(self, line: int, column: int) -> list[Span] | None:
        """Every place the name at a position is written: its declaration first, then its
        uses (in this file and the base files); None when no declared name is there."""
        declaration = self.definition(line, column)
        if declaration is None or self.references is None:
            return None
        return self.references.spans_of(declaration)

    def rename(self, line: int, column: int, new_name: str) -> Renaming:
        """The places to rewrite to rename the name at a position to `new_name`. Refused for
        a built-in, a keyword, a name declared in a base file, a declaration that replaces
        one of the base file, and a new name that is not a free name."""
        word = self.word_at(line, column)
        declaration = self.definition(line, column)
        if declaration is None or self.references is None:
            if word is not None and _builtin(word[0]):
                return Renaming(refused=f"'{word[0]}' is built in and cannot be renamed")
            return Renaming(refused="there is no declared name here to rename")
        name = declaration.name
        if declaration.span.file != self.path:
            return Renaming(refused=f"'{name}' is declared in "
                            f"{os.path.basename(declaration.span.file)}: rename it there")
        spans = self.references.spans_of(declaration)
        base = self.base
        if any(span.file != self.path for span in spans) or base is not None and any(
                s.name == name and s.kind == declaration.kind for s in base.all_symbols()):
            return Renaming(refused=f"'{name}' replaces a declaration of the base file: "
                            "renaming it here alone would change what the base means")
        if not (new_name.isascii() and new_name.isidentifier()) or _builtin(new_name):
            return Renaming(refused=f"'{new_name}' cannot be a name: a name is letters, "
                            "digits and '_', and not a built-in or a word of the language")
        if any(_clashes(other, declaration, spans) for other in self.references.declarations
               if other.name == new_name):
            return Renaming(refused=f"'{new_name}' is declared already")
        return Renaming(spans=tuple(spans))

    def word_at(self, line: int, column: int) -> tuple[str, int, bool] | None:
        """(word, start column, preceded by a '.') under a 1-based position, or None: for
        built-ins and keywords, which the reference table does not hold."""
        if not 1 <= line <= len(self.lines):
            return None
        text = self.masked[line - 1]
        start = min(column, len(text) + 1)
        if not (start <= len(text) and _is_name_char(text[start - 1])):
            start -= 1                  # just past the end of a word
            if not (start >= 1 and _is_name_char(text[start - 1])):
                return None
        while start > 1 and _is_name_char(text[start - 2]):
            start -= 1
        end = start
        while end <= len(text) and _is_name_char(text[end - 1]):
            end += 1
        word = text[start - 1:end - 1]
        if word[0].isdigit():
            return None
        return word, start, text[:start - 1].rstrip().endswith(".")

    def hover(self, line: int, column: int) -> str | None:
        """Markdown about the name at a position, or None."""
        declaration = self.definition(line, column)
        if declaration is not None:
            return self._describe(declaration)
        word = self.word_at(line, column)
        if word is None:
            return None
        name, _, dotted = word
        if dotted and name in PIECE_PROPERTIES:
            return f"`piece.{name}`: {describe(PIECE_PROPERTIES[name])}: {_PROPERTY_DOCS[name]}"
        if name in BUILTINS:
            builtin = BUILTINS[name]
            return f"built-in `{name}`, {builtin.takes()}: {builtin.doc}"
        if name in ("me",) + BUILTIN_VALUES:
            return f"`{name}`: {_value_doc(name)}"
        if name in grammar_words()["quantifier"]:
            return (f"`{name}(x in LIST where COND: VALUE)`: a quantifier over a list "
                    "(docs/language.md, section 6)")
        if any(name in found for found in grammar_words().values()):
            return f"keyword `{name}`"
        return None

    def completions(self, line: int, column: int, typed: str | None = None) -> list[Completion]:
        """(label, kind, detail) of what may be written at a position: after a `.`, the
        fields (statistics, seat and piece variables, piece properties); else every
        declared name, parameter or local visible there, built-in and keyword. `typed` is
        the line up to the position as the editor holds it now (when that text no longer
        parses)."""
        if typed is None:
            typed = self.lines[line - 1][:column - 1] if 1 <= line <= len(self.lines) else ""
        before = _masked(typed).rstrip()
        while before and _is_name_char(before[-1]):
            before = before[:-1]
        declared = self._declared()
        out: dict[str, tuple[str, str]] = {}
        if before.endswith("."):
            for name, kind, scope, detail in declared:
                if kind == "stat" or kind == "var" and scope != "global":
                    out.setdefault(name, (kind, detail))
            for name, t in PIECE_PROPERTIES.items():
                out.setdefault(name, ("property", f"piece.{name}: {describe(t)}"))
            return sorted((label, kind, detail) for label, (kind, detail) in out.items())
        table = self.references
        if table is not None:
            for declaration in table.visible_at(self.path, line, column):
                out.setdefault(declaration.name, (declaration.kind, declaration.kind))
        for name, kind, scope, detail in declared:
            if kind not in ("stat",) + _LOCAL_KINDS and not (
                    kind == "var" and scope not in (None, "global")):
                out.setdefault(name, (kind, detail))
        for name, builtin in BUILTINS.items():
            out.setdefault(name, ("builtin", builtin.doc))
        for name in ("me",) + BUILTIN_VALUES:
            out.setdefault(name, ("builtin_value", _value_doc(name)))
        for category, found in grammar_words().items():
            for name in found:
                out.setdefault(name, ("keyword" if category != "quantifier" else "builtin",
                                      category))
        return sorted((label, kind, detail) for label, (kind, detail) in out.items())

    def _declared(self) -> list[tuple[str, str, str | None, str]]:
        """(name, kind, scope, detail) of every declared name: from the reference table
        when the text checks, else from the outline."""
        table = self.references
        if table is None:
            return [(s.name, s.kind, s.scope, _header(s.document, s.node))
                    for s in self.all_symbols() if s.name.isidentifier()]
        out = []
        for declaration in table.declarations:
            if declaration.kind in _LOCAL_KINDS:
                continue
            symbol = self._symbol(declaration)
            detail = declaration.kind if symbol is None else _header(symbol.document,
                                                                     symbol.node)
            out.append((declaration.name, declaration.kind, declaration.scope, detail))
        return out

    # ----- hover text ------------------------------------------------------------------
    def _describe(self, declaration: Declaration) -> str:
        """Hover text of a declared name: its declaration, the type the checker gave it and
        the comment above it."""
        kind, name = declaration.kind, declaration.name
        shown = name if declaration.scope in (None, "global") else \
            f"{declaration.scope}.{name}"
        title = f"{kind} `{shown}`"
        if declaration.span.file != self.path:
            title += f" (from {os.path.basename(declaration.span.file)})"
        parts = [title]
        symbol = self._symbol(declaration)
        document = self._document_of(declaration.span.file)
        if kind in _LOCAL_KINDS or symbol is None:
            if document is not None and declaration.span.line <= len(document.lines):
                parts.append(f"`{document.lines[declaration.span.line - 1].strip()}`")
            return "\n\n".join(parts)
        node = symbol.node
        if kind == "stat":
            parts.append(_stat_text(name, self.resolved))
        elif kind == "kind" and isinstance(node, ast.KindRow):
            parts.append(_row_text(symbol.document, node))
        else:
            parts.append("```gdl\n" + _declaration_text(symbol.document, node) + "\n```")
        typed = _type_text(declaration, node, self.resolved)
        if typed:
            parts.append(typed)
        if isinstance(node, (ast.PhaseDecl, ast.ActionDecl)) and node.doc:
            parts.append(node.doc)          # its doc string (docs/language.md 4.11)
        if node.span is not None:
            doc = _doc_comment(symbol.document, node.span.line)
            if doc:
                parts.append(doc)
        return "\n\n".join(parts)

    # ----- base file -------------------------------------------------------------------
    def _open_base(self, seen: tuple[str, ...]) -> None:
        assert self.program is not None
        extends = [i for i in self.program.items if isinstance(i, ast.ExtendsDecl)]
        if not extends:
            return
        base_path = os.path.normpath(os.path.join(os.path.dirname(self.path),
                                                  extends[0].path))
        if base_path in seen or base_path == self.path or len(seen) >= MAX_BASES:
            return      # (the check says why: a cycle, or a chain too long)
        text = self.read(base_path)
        if text is not None:
            self.base = Document(text, base_path, self.read, seen + (self.path,))


def _is_name_char(char: str) -> bool:
    return char == "_" or char.isascii() and char.isalnum()


def _clashes(other: Declaration, renamed: Declaration, spans: list[Span]) -> bool:
    """Whether a declaration of the new name would clash with a renamed one: a global
    name always; a parameter or local where either is visible where the other is used."""
    if other.kind not in _LOCAL_KINDS:
        return True
    inside = other.visible
    return inside is not None and any(_within(span, inside) for span in spans) or (
        renamed.visible is not None and _within(other.span, renamed.visible))


def _within(span: Span, region: Span) -> bool:
    return span.file == region.file and (region.line, region.column) <= (
        span.line, span.column) <= (region.end_line, region.end_column)


def _builtin(name: str) -> bool:
    """A name the language gives: a built-in function or value, a piece property or a word
    of the grammar."""
    return (name in BUILTINS or name in ("me",) + BUILTIN_VALUES or name in PIECE_PROPERTIES
            or any(name in found for found in grammar_words().values()))


def _kind_of(node: ast.Node) -> str:
    """ParamDecl -> 'param', KindsDecl -> 'kinds', TriggerDecl -> 'trigger'."""
    name = type(node).__name__.removesuffix("Decl")
    return "".join(("_" if i and char.isupper() else "") + char.lower()
                   for i, char in enumerate(name))


def _masked(line: str) -> str:
    """The line with the insides of strings and the comment blanked, so a `{` or `#` in
    them is never taken for code."""
    out = []
    quoted = False
    for char in line:
        if char == '"':
            quoted = not quoted
            out.append(char)
        elif quoted:
            out.append(" ")
        elif char == "#":
            break
        else:
            out.append(char)
    return "".join(out).ljust(len(line))


def _value_doc(name: str) -> str:
    return _BUILTIN_VALUE_DOCS.get(name, "a value of the position")


def _read_disk(path: str) -> str | None:
    """A base file's text, as the loader reads it (a regular file within the size limit),
    or None."""
    from ..loader import read_text
    try:
        return read_text(path, regular=True)
    except GdlError:
        return None


def _header(document: Document, node: ast.Node) -> str:
    """A declaration's first line as written, without its `{` and comment."""
    span = node.span
    if span is None:
        return _kind_of(node)
    # where the head ends is found in the masked line (a `{` or `#` in a string is text),
    # the words are taken from the line as written (a game's name is not blanks)
    masked = document.masked[span.line - 1].rstrip()
    brace = masked.find("{", span.column - 1)
    text = document.lines[span.line - 1][span.column - 1:brace if brace >= 0 else len(masked)]
    return text.strip() or _kind_of(node)


def _doc_comment(document: Document, line: int) -> str:
    """The comment lines right above a line (a declaration's description)."""
    out: list[str] = []
    number = line - 1
    while number >= 1 and document.lines[number - 1].strip().startswith("#"):
        out.insert(0, document.lines[number - 1].strip().lstrip("#").strip())
        number -= 1
    return " ".join(part.strip("-= ") for part in out if part.strip("-= "))


def _declaration_text(document: Document, node: ast.Node) -> str:
    """A declaration's head as written: its lines up to the `{` that opens its body (three
    at most)."""
    span = node.span
    if span is None:
        return ""
    out = []
    for number in range(span.line, min(span.line + 3, len(document.lines) + 1)):
        line = document.lines[number - 1]
        masked = document.masked[number - 1]
        if number == span.line:
            line, masked = line[span.column - 1:], masked[span.column - 1:]
        if "{" in masked:
            out.append(line[:masked.index("{")].rstrip())
            break
        out.append(line[:len(masked.rstrip())])
        if number == (span.end_line or span.line):
            break
    return "\n".join(text for text in out if text.strip())


def _row_text(document: Document, row: ast.KindRow) -> str:
    """A kind's values, column by column, as written."""
    assert document.program is not None
    table = next(i for i in document.program.items if isinstance(i, ast.KindsDecl)
                 and row in i.rows)
    return ", ".join(f"{column} {value.span.text if value.span else '?'}"
                     for column, value in zip(table.columns, row.values))


def _stat_text(name: str, resolved: Resolved | None) -> str:
    if resolved is None or name not in resolved.kind_columns:
        return "a column of the kinds table"
    values = ", ".join(f"{kind} {_value(stats.get(name))}"
                       for kind, stats in resolved.kinds.items())
    return f"a column of the kinds table ({describe(resolved.kind_columns[name])}): " \
           f"{values}"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _type_text(declaration: Declaration, node: ast.Node, resolved: Resolved | None) -> \
        str | None:
    """The static type the checker gave a name, when the file checks."""
    if resolved is None:
        return None
    name, kind = declaration.name, declaration.kind
    if kind == "param" and name in resolved.params:
        value, t = resolved.params[name]
        return f"type: {describe(t)}, value {_value(value)}"
    if kind == "var":
        variable = resolved.vars.get(declaration.scope or "global", {}).get(name)
        if variable is not None:
            return f"type: {describe(variable.type)}"
    if kind == "fn" and name in resolved.fns:
        fn = resolved.fns[name]
        params = ", ".join(f"{p}: {describe(t)}" for p, t in zip(fn.params, fn.param_types))
        return f"({params}) -> {describe(fn.type)}"
    if kind == "def" and name in resolved.defs:
        procedure = resolved.defs[name]
        return "(" + ", ".join(f"{p}: {describe(t)}" for p, t in
                               zip(procedure.params, procedure.param_types)) + ")"
    if kind == "action":
        for phase in resolved.phases.values():
            for action in phase.actions:
                if action.name == name and action.span == node.span:
                    binders = ", ".join(f"{b.name}: {describe(b.type)}" for b in action.binders)
                    return f"in phase `{phase.name}`; parameters: {binders or 'none'}"
    return None
