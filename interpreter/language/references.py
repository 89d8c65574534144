"""The reference table: every name of a checked program -> the declaration it names.

The checker fills it as it resolves names and leaves it on the resolved program
(`program.Program.references`); the language server's hover, go to definition, completion,
references and rename are look-ups in it (`tools/analysis.py`), so names are resolved once,
by the checker's own rules. Spans are those of the name alone, as the parser recorded them
(`ast`'s `name_span` fields); a span names its file, so one table covers a variant and the
base file it extends. Built-in names (functions, `me`, `current`, directions, piece
properties) have no declaration and are not in the table.
"""

from __future__ import annotations

import attrs

from .tree import Span

# What a declared name is: the words the language server shows.
KINDS = ("phase", "action", "fn", "def", "param", "var", "kind", "stat", "terrain", "zone",
         "seat", "symbol",
         "parameter",       # of a fn, def, phase or action (a binder), or of a hook or rule
         "local")           # `let`, `for`, a quantifier's or comprehension's variable


@attrs.frozen
class Declaration:
    """A declared name: what it is (one of `KINDS`), the name, and where the name is written
    where it is declared. `scope` is a variable's ("global", "seat" or "piece"); `visible`
    is the part of its file where a parameter or local may be used."""

    kind: str
    name: str
    span: Span
    scope: str | None = None
    visible: Span | None = None


@attrs.frozen
class Reference:
    """One use of a declared name: where the name is written, and what it names."""

    span: Span
    declaration: Declaration


@attrs.define
class References:
    """Every declaration of a checked program, and every use of one, in the order the
    checker met them."""

    declarations: list[Declaration] = attrs.Factory(list)
    uses: list[Reference] = attrs.Factory(list)

    def declare(self, kind: str, name: str, span: Span | None, scope: str | None = None,
                visible: Span | None = None) -> Declaration | None:
        """Record a declaration; None (nothing recorded) for a name not written in a file."""
        if span is None:
            return None
        declaration = Declaration(kind, name, span, scope, visible)
        self.declarations.append(declaration)
        return declaration

    def use(self, span: Span | None, declaration: Declaration | None) -> None:
        """Record that the name at `span` names `declaration` (nothing when either is
        unknown)."""
        if span is not None and declaration is not None:
            self.uses.append(Reference(span, declaration))

    def at(self, file: str, line: int, column: int) -> Declaration | None:
        """The declaration of the name at a position (1-based; the column may be just past
        the name's end), whether the name there is a use or the declaration itself."""
        for reference in self.uses:
            if _covers(reference.span, file, line, column):
                return reference.declaration
        for declaration in self.declarations:
            if _covers(declaration.span, file, line, column):
                return declaration
        return None

    def spans_of(self, declaration: Declaration) -> list[Span]:
        """Where `declaration` is written: its own name first, then each use, in file
        order."""
        uses = {r.span for r in self.uses if r.declaration == declaration}
        uses.discard(declaration.span)
        ordered = sorted(uses, key=lambda s: (s.file, s.line, s.column))
        return [declaration.span] + ordered

    def visible_at(self, file: str, line: int, column: int) -> list[Declaration]:
        """The parameters and locals that may be used at a position."""
        return [d for d in self.declarations
                if d.visible is not None and _inside(d.visible, file, line, column)]


def _covers(span: Span, file: str, line: int, column: int) -> bool:
    return span.file == file and span.line == line and span.column <= column <= span.end_column


def _inside(span: Span, file: str, line: int, column: int) -> bool:
    return span.file == file and (span.line, span.column) <= (line, column) <= (
        span.end_line, span.end_column)
