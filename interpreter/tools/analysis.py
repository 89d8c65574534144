"""What the language server knows of a rule file, without the server: a text and its path
-> its problems (the first parse or static error, as `gdl check` says it), its
declarations, and for a position the name there with its definition, its hover text and
the names that may be written there.

`Document` reads the syntax tree and the checked program of the same pipeline as every
command. Declarations are found generically: every top-level declaration and every nested
`...Decl` node is a symbol, named by its `name` or `names` field (a kinds table: its kinds
and columns), so a declaration added to the grammar appears without a change here. Locals
(parameters, binders, `let`, `for` and quantifier variables) are scoped to the node that
declares them. A variant's base file is read (with its own declarations) for what the
variant does not declare itself. Lines and columns are 1-based here; the server converts.
"""

from __future__ import annotations

import os
import re

from ..language import ast
from ..language.builtins import BUILTINS
from ..language.checker import BUILTIN_VALUES, PIECE_PROPERTIES
from ..language.errors import GdlError
from ..language.parser import grammar_words, parse_program
from ..language.types import describe

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCAL_BINDERS = (ast.For, ast.Let, ast.Quant, ast.Comprehension, ast.CallEach)
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


class Symbol:
    """A declared name. `line`/`column` locate the name itself; `span` is the whole
    declaration (for a local: the part of the file where it is visible)."""

    __slots__ = ("name", "kind", "document", "line", "column", "span", "node", "container",
                 "children", "scope")

    def __init__(self, name, kind, document, where, span, node, container=None, scope=None):
        self.name, self.kind, self.document = name, kind, document
        self.line, self.column = where
        self.span, self.node, self.container = span, node, container
        self.children = []
        self.scope = scope          # for a variable: global, seat or piece

    @property
    def path(self):
        return self.document.path

    @property
    def end_column(self):
        return self.column + len(self.name)

    def __repr__(self):
        return f"Symbol({self.kind} {self.name} at {self.path}:{self.line}:{self.column})"


class Problem:
    """A diagnostic: where (1-based, end exclusive) and what."""

    def __init__(self, line, column, end_column, message):
        self.line, self.column, self.end_column, self.message = line, column, end_column, message


def _kind_of(node):
    """ParamDecl -> 'param', KindsDecl -> 'kinds', TriggerDecl -> 'trigger'."""
    name = type(node).__name__.removesuffix("Decl")
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _masked(line):
    """The line with the insides of strings and the comment blanked, so names are never
    found in them."""
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


class Document:
    """One rule file's text, analysed. `read(path)` gives the text of another file (a base
    file; the server passes the open editors' texts before the disk's)."""

    def __init__(self, text, path, read=None, seen=()):
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.path = path
        self.lines = self.text.split("\n")
        self.masked = [_masked(line) for line in self.lines]
        self.read = read or _read_disk
        self.problem = None
        self.program = None         # the syntax tree, when the text parses
        self.resolved = None        # the checked program (base merged), when it checks
        self.symbols = []           # top-level symbols, each with its children
        self.locals = []
        self.base = None            # the Document of the base file
        try:
            self.program = parse_program(self.text, path)
        except GdlError as exc:
            self.problem = self._problem(exc)
            return
        for item in self.program.items:
            self._declare(item, None)
        self._open_base(seen)
        try:
            from ..loader import check_source
            self.resolved = check_source(self.text, path)
        except GdlError as exc:
            self.problem = self._problem(exc)
        except RecursionError:      # check_source turns it into a GdlError; parsing might not
            self.problem = Problem(1, 1, 2, "the rule file nests too deeply to read")

    # ----- problems --------------------------------------------------------------------
    def _problem(self, exc):
        message = "\n".join((exc.message,) + exc.hints)
        if exc.file not in (None, self.path) and exc.line is not None:
            # an error in the base file: shown on the `extends` line
            message = f"{exc.file}:{exc.line}:{exc.column or 1}: {message}"
            line = next((i + 1 for i, text in enumerate(self.masked)
                         if re.match(r"\s*extends\b", text)), 1)
            return Problem(line, 1, len(self.lines[line - 1]) + 1, message)
        line = exc.line if exc.line and exc.line <= len(self.lines) else 1
        column = exc.column or 1
        found = WORD.match(self.lines[line - 1], column - 1)
        end = found.end() + 1 if found else column + 1
        return Problem(line, column, end, message)

    # ----- declarations ----------------------------------------------------------------
    def _find(self, name, line, column, after_for=False):
        """(line, column) of `name` as a whole word at or after a position (after `for` or
        `each` first, for a loop variable); the position itself when not found."""
        for number in range(line, min(line + 40, len(self.lines) + 1)):
            start = column - 1 if number == line else 0
            text = self.masked[number - 1]
            if after_for:
                found = re.compile(r"\b(?:for|each)\s+(" + re.escape(name) + r")\b").search(
                    text, start)
                if found:
                    return number, found.start(1) + 1
            found = re.compile(r"(?<![A-Za-z0-9_@])" + re.escape(name) + r"\b").search(
                text, start)
            if found and not after_for:
                return number, found.start() + 1
        if after_for:
            return self._find(name, line, column)
        return line, column

    def _symbol(self, name, kind, node, container=None, start=None, span=None, scope=None):
        span = span or node.span
        where = self._find(name, *(start or (span.line, span.column)),
                           after_for=isinstance(node, (ast.For, ast.Comprehension,
                                                       ast.CallEach)))
        return Symbol(name, kind, self, where, span, node, container, scope)

    def _declare(self, node, container):
        kind = _kind_of(node)
        found = []
        if isinstance(node, ast.KindsDecl):
            for column in node.columns:
                found.append(self._symbol(column, "stat", node, container))
            for row in node.rows:
                found.append(self._symbol(row.name, "kind", row, container))
        elif isinstance(getattr(node, "name", None), str) and not isinstance(node, ast.GameDecl):
            symbol = self._symbol(node.name, kind, node, container,
                                  scope=getattr(node, "scope", None))
            found.append(symbol)
        elif isinstance(getattr(node, "names", None), tuple):
            position = (node.span.line, node.span.column)
            for name in node.names:
                symbol = self._symbol(name, kind.removesuffix("s"), node, container,
                                      start=position)
                position = (symbol.line, symbol.end_column)
                found.append(symbol)
        if container is None:
            holder = found[0] if len(found) == 1 else Symbol(
                _header(self, node), kind, self, (node.span.line, node.span.column),
                node.span, node)
            if len(found) > 1:
                holder.children = found
            self.symbols.append(holder)
        else:
            container.children.extend(found)
        parent = found[0] if len(found) == 1 else None
        self._locals(node, parent)
        for child in ast.children(node):
            if isinstance(child, ast.Decl):
                self._declare(child, parent or container)

    def _locals(self, node, owner):
        """Parameters of a declaration, binders of an action, and the variables its body
        binds, each visible in the node that declares it."""
        name = getattr(node, "name", None)
        start = None
        if isinstance(name, str):
            start = self._find(name, node.span.line, node.span.column)
            start = (start[0], start[1] + len(name))
        for param in getattr(node, "params", None) or ():
            symbol = self._symbol(param, "parameter", node, start=start)
            self.locals.append(symbol)
            start = (symbol.line, symbol.end_column)
        for binder in getattr(node, "binders", None) or ():
            self.locals.append(self._symbol(binder.name, "parameter", binder, span=node.span))
        for child in ast.walk(node):
            if child is node or type(child).__name__.endswith("Decl"):
                continue
            if isinstance(child, _LOCAL_BINDERS):
                span = child.span
                if isinstance(child, ast.Let):      # visible to the end of the declaration
                    span = ast.Span(span.file, span.line, span.column, node.span.end_line,
                                    node.span.end_column)
                self.locals.append(self._symbol(child.name, "local", child, span=span))

    # ----- queries ---------------------------------------------------------------------
    def all_symbols(self):
        """Every symbol of this file, then of its base files (locals excluded)."""
        out = []
        stack = list(self.symbols)
        while stack:
            symbol = stack.pop(0)
            out.append(symbol)
            stack[:0] = symbol.children
        if self.base is not None:
            out += self.base.all_symbols()
        return out

    def word_at(self, line, column):
        """(word, start column, preceded by a '.') under a 1-based position, or None."""
        if not 1 <= line <= len(self.lines):
            return None
        text = self.masked[line - 1]
        for found in WORD.finditer(text):
            if found.start() + 1 <= column <= found.end() + 1:
                dotted = text[:found.start()].rstrip().endswith(".")
                return found.group(), found.start() + 1, dotted
        return None

    def definition(self, line, column):
        """The Symbol of the name at a position (a local first, then this file's and its
        base's declarations), or None."""
        word = self.word_at(line, column)
        if word is None:
            return None
        name, start, dotted = word
        if dotted:
            return next((s for s in self.all_symbols() if s.name == name
                         and s.kind in ("stat", "var") and s.scope != "global"), None)
        visible = [s for s in self.locals if s.name == name and _inside(s.span, line, start)
                   and (s.line, s.column) <= (line, start)]
        if visible:
            return max(visible, key=lambda s: (s.span.line, s.span.column))
        for symbol in self.all_symbols():
            if symbol.name == name and symbol.kind != "stat" and (
                    symbol.kind != "var" or symbol.scope in (None, "global")):
                return symbol
        return None

    def hover(self, line, column):
        """Markdown about the name at a position, or None."""
        word = self.word_at(line, column)
        if word is None:
            return None
        name, _, dotted = word
        symbol = self.definition(line, column)
        if symbol is not None:
            return _describe(symbol, self)
        if dotted and name in PIECE_PROPERTIES:
            return f"`piece.{name}`: {describe(PIECE_PROPERTIES[name])}: {_PROPERTY_DOCS[name]}"
        if name in BUILTINS:
            builtin = BUILTINS[name]
            counts = " or ".join(map(str, builtin.arities))
            return f"built-in `{name}`, {counts} argument(s): {builtin.doc}"
        if name in ("me",) + BUILTIN_VALUES:
            return f"`{name}`: {_value_doc(name)}"
        if name in grammar_words()["quantifier"]:
            return (f"`{name}(x in LIST where COND: VALUE)`: a quantifier over a list "
                    "(docs/language.md, section 6)")
        if any(name in found for found in grammar_words().values()):
            return f"keyword `{name}`"
        return None

    def completions(self, line, column, typed=None):
        """(label, kind, detail) of what may be written at a position: after a `.`, the
        fields (statistics, seat and piece variables, piece properties); else every
        declared name, local in scope, built-in and keyword. `typed` is the line up to the
        position as the editor holds it now (when that text no longer parses)."""
        if typed is None:
            typed = self.lines[line - 1][:column - 1] if 1 <= line <= len(self.lines) else ""
        text = _masked(typed)
        before = re.sub(r"[A-Za-z0-9_]*$", "", text)
        out = {}
        if before.endswith("."):
            for symbol in self.all_symbols():
                if symbol.kind == "stat" or symbol.kind == "var" and symbol.scope != "global":
                    out.setdefault(symbol.name, (symbol.kind, _detail(symbol)))
            for name, t in PIECE_PROPERTIES.items():
                out.setdefault(name, ("property", f"piece.{name}: {describe(t)}"))
            return sorted((label, kind, detail) for label, (kind, detail) in out.items())
        for symbol in self.locals:
            if _inside(symbol.span, line, column):
                out.setdefault(symbol.name, (symbol.kind, _detail(symbol)))
        for symbol in self.all_symbols():
            if symbol.kind != "stat" and not (symbol.kind == "var" and symbol.scope not in
                                              (None, "global")) and WORD.fullmatch(symbol.name):
                out.setdefault(symbol.name, (symbol.kind, _detail(symbol)))
        for name, builtin in BUILTINS.items():
            out.setdefault(name, ("builtin", builtin.doc))
        for name in ("me",) + BUILTIN_VALUES:
            out.setdefault(name, ("builtin_value", _value_doc(name)))
        for category, found in grammar_words().items():
            for name in found:
                out.setdefault(name, ("keyword" if category != "quantifier" else "builtin",
                                      category))
        return sorted((label, kind, detail) for label, (kind, detail) in out.items())

    # ----- base file -------------------------------------------------------------------
    def _open_base(self, seen):
        extends = [i for i in self.program.items if isinstance(i, ast.ExtendsDecl)]
        if not extends:
            return
        base_path = os.path.normpath(os.path.join(os.path.dirname(self.path),
                                                  extends[0].path))
        if base_path in seen or base_path == self.path:
            return
        text = self.read(base_path)
        if text is not None:
            self.base = Document(text, base_path, self.read, seen + (self.path,))


def _value_doc(name):
    return _BUILTIN_VALUE_DOCS.get(name, "a value of the position")


def _read_disk(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def _inside(span, line, column):
    if span is None:
        return False
    start = (span.line, span.column)
    end = (span.end_line, span.end_column) if span.end_line else (span.line, 10 ** 9)
    return start <= (line, column) <= end


def _header(document, node):
    """A declaration's first line as written, without its `{` and comment."""
    text = document.masked[node.span.line - 1][node.span.column - 1:]
    return text.split("{")[0].strip() or _kind_of(node)


def _doc_comment(document, line):
    """The comment lines right above a line (a declaration's description)."""
    out = []
    number = line - 1
    while number >= 1 and document.lines[number - 1].strip().startswith("#"):
        out.insert(0, document.lines[number - 1].strip().lstrip("#").strip())
        number -= 1
    return " ".join(part.strip("-= ") for part in out if part.strip("-= "))


def _detail(symbol):
    if symbol.kind in ("parameter", "local"):
        return symbol.kind
    return _header(symbol.document, symbol.node)


def _describe(symbol, root):
    """Hover text of a declared name: its declaration, the type the checker gave it (from
    `root`, the document the name was asked in) and the comment above it."""
    document = symbol.document
    node = symbol.node
    name = symbol.name if symbol.scope in (None, "global") else f"{symbol.scope}.{symbol.name}"
    title = f"{symbol.kind} `{name}`"
    if document is not root:
        title += f" (from {os.path.basename(symbol.path)})"
    parts = [title]
    if symbol.kind == "stat":
        parts.append(_stat_text(symbol, root.resolved))
    elif symbol.kind == "kind" and isinstance(node, ast.KindRow):
        table = next(i for i in document.program.items if isinstance(i, ast.KindsDecl)
                     and node in i.rows)
        parts.append(", ".join(f"{column} {value.span.text if value.span else '?'}"
                               for column, value in zip(table.columns, node.values)))
    elif symbol.kind in ("parameter", "local"):
        parts.append(f"`{document.lines[node.span.line - 1].strip()}`")
    else:
        parts.append("```gdl\n" + _declaration_text(document, node) + "\n```")
    typed = _type_text(symbol, root.resolved)
    if typed:
        parts.append(typed)
    if isinstance(node, (ast.PhaseDecl, ast.ActionDecl)) and node.doc:
        parts.append(node.doc)          # its doc string (docs/language.md 4.11)
    if symbol.kind not in ("parameter", "local"):
        doc = _doc_comment(document, node.span.line)
        if doc:
            parts.append(doc)
    return "\n\n".join(parts)


def _declaration_text(document, node):
    """A declaration's head as written: its lines up to the `{` that opens its body (three
    at most)."""
    out = []
    for number in range(node.span.line, min(node.span.line + 3, len(document.lines) + 1)):
        line = document.lines[number - 1]
        masked = document.masked[number - 1]
        if number == node.span.line:
            line, masked = line[node.span.column - 1:], masked[node.span.column - 1:]
        if "{" in masked:
            out.append(line[:masked.index("{")].rstrip())
            break
        out.append(line[:len(masked.rstrip())])
        if number == (node.span.end_line or node.span.line):
            break
    return "\n".join(text for text in out if text.strip())


def _stat_text(symbol, resolved):
    if resolved is None or symbol.name not in resolved.kind_columns:
        return "a column of the kinds table"
    values = ", ".join(f"{kind} {_value(stats.get(symbol.name))}"
                       for kind, stats in resolved.kinds.items())
    return f"a column of the kinds table ({describe(resolved.kind_columns[symbol.name])}): " \
           f"{values}"


def _value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _type_text(symbol, resolved):
    """The static type the checker gave a name, when the file checks."""
    if resolved is None:
        return None
    name = symbol.name
    if symbol.kind == "param" and name in resolved.params:
        value, t = resolved.params[name]
        return f"type: {describe(t)}, value {_value(value)}"
    if symbol.kind == "var":
        variable = resolved.vars.get(symbol.scope or "global", {}).get(name)
        if variable is not None:
            return f"type: {describe(variable.type)}"
    if symbol.kind == "fn" and name in resolved.fns:
        fn = resolved.fns[name]
        params = ", ".join(f"{p}: {describe(t)}" for p, t in zip(fn.params, fn.param_types))
        return f"({params}) -> {describe(fn.type)}"
    if symbol.kind == "def" and name in resolved.defs:
        procedure = resolved.defs[name]
        return "(" + ", ".join(f"{p}: {describe(t)}" for p, t in
                               zip(procedure.params, procedure.param_types)) + ")"
    if symbol.kind == "action":
        for phase in resolved.phases.values():
            for action in phase.actions:
                if action.name == name and action.span == symbol.node.span:
                    binders = ", ".join(f"{b.name}: {describe(b.type)}" for b in action.binders)
                    return f"in phase `{phase.name}`; parameters: {binders or 'none'}"
    return None
