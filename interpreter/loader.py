"""Loader: a rule file (and the base file a variant extends) -> a runnable `Game`.

A variant names its base with `extends "base.gdl"` and declares only what differs: a
declaration with the same name (param, terrain, var, fn, def, phase, kind row, setup, end,
board, seats, show) replaces the base's; anything new is added.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from .files import STDIO, TRANSCRIPT_HEADER, cannot_read, named
from .language import ast
from .language.builtins import plural
from .language.checker import check_program, row_length
from .language.depth import check_depth
from .language.errors import GdlError, GdlRuleError, GdlSyntaxError, did_you_mean, error_at
from .language.parser import parse_program
from .language.program import Program
from .runtime.introspect import python_source

if TYPE_CHECKING:
    from .language.program import Program
    from .runtime.engine import Game

Key = tuple[str, ...]
"""What a declaration replaces in the base: the declarations with the same key."""


def read_text(path: str, regular: bool = False) -> str:
    """A rule file's text; binary junk and unreadable files become a GdlError. `regular`
    (a base file, which `extends` names): only a regular file, never standard input, a FIFO
    or a device, which could block for ever or never end."""
    from .language.limits import MAX_SOURCE
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (no effect on regular files)
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
        with open(os.open(path, flags) if regular else path, "rb") as handle:
            if regular and not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise GdlError(f"{path} is not a regular file: a variant extends a rule file "
                               "(not standard input, a pipe or a device)", file=path)
            data = handle.read(MAX_SOURCE + 1)
    except OSError as exc:
        raise cannot_read("rule file", path, exc) from None
    text = decode_text(data, path)
    if text.startswith(TRANSCRIPT_HEADER + "\n"):
        raise GdlError("this is a transcript, not a rule file: its 'rules:' line names the "
                       "rule file ('gdl replay', 'gdl play --resume' and '--moves' read a "
                       "transcript)", file=path)
    return text


def read_standard_input() -> tuple[str, str]:
    """(the text, its name `<stdin>`) of a rule file given as '-' (`gdl check -`, `gdl
    compile -`, `gdl fmt -`): the standard input, read and refused as a rule file's is
    (`read_text`: its bytes, not the locale's reading of them; at most MAX_SOURCE of them). A
    base file it extends is read beside the current folder."""
    import sys
    from .language.limits import MAX_SOURCE
    name = named(STDIO)
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:
        raise cannot_read("rule file", name, "there is no standard input")
    try:
        data = binary.read(MAX_SOURCE + 1)
    except OSError as exc:
        raise cannot_read("rule file", name, exc) from None
    return decode_text(data, name), name


def decode_text(data: bytes, path: str) -> str:
    """A rule file's bytes (at most MAX_SOURCE + 1 of them read) as its text; too many bytes,
    or bytes that are not UTF-8, are a GdlError naming `path` (a file, or "<stdin>")."""
    from .language.limits import MAX_SOURCE
    if len(data) > MAX_SOURCE:
        raise GdlError(f"{path} is larger than {MAX_SOURCE:,} bytes, more than a rule file "
                       "can be (checking it would take minutes): split it, or check that "
                       "this is a rule file", file=path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        shown = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
        shown = "".join(c if c.isprintable() else "?" for c in shown)
        binary = shown.count("?") + shown.count("\ufffd") > len(shown) // 4
        raise GdlSyntaxError(f"this is not a text rule file: byte {data[exc.start]:#04x} "
                             "is not UTF-8" + (" (it looks like a binary file)" if binary else ""),
                             file=path, line=line, column=exc.start - start + 1,
                             source_line=None if binary else shown) from None


def load_source(text: str, path: str = "<string>", backend: str | None = None) -> Game:
    """Parse, merge with the extended base (if any), check and compile `text`."""
    from .language.limits import MAX_SOURCE
    from .runtime.engine import Game
    if len(text) > MAX_SOURCE:
        raise GdlError(f"a rule file of {len(text):,} characters is larger than "
                       f"{MAX_SOURCE:,}, more than a rule file can be", file=path)
    resolved, digest = _checked(text, path)
    return Game(resolved, path, digest, backend)


def load_game(path: str, backend: str | None = None) -> Game:
    """The runnable game of a rule file; `backend` is "python", "native" or "auto" (default:
    $GDL_BACKEND, else python; see `runtime.native`)."""
    return load_source(read_text(path), path, backend)


def check_file(path: str) -> Program:
    """Parse and check a rule file (and the base it extends) without generating code:
    the resolved `program.Program`, or the first GdlError. What `gdl check` runs."""
    return check_source(read_text(path), path)


def check_source(text: str, path: str) -> Program:
    """`check_file` of a text not (yet) saved at `path`: an editor's buffer. The base file
    it extends is read from the disk, beside `path`."""
    return _checked(text, path)[0]


def summary(resolved: Program) -> str:
    """What `gdl check` says of a checked program: "'Duel', 2 seats, 4 phases, square
    board 8x12"."""
    board = resolved.board
    drawn = f"{board.kind} board {board.width}x{board.height}" if board.all_cells else "no board"
    return (f"'{resolved.game_name}', {plural(len(resolved.seats), 'seat')}, "
            f"{plural(len(resolved.phases), 'phase')}, {drawn}")


def _checked(text: str, path: str) -> tuple[Program, str]:
    try:
        program, digest = _program(text, path, seen=())
        return check_program(check_depth(program)), digest
    except RecursionError:
        raise GdlRuleError("the rule file nests expressions or blocks too deeply to read",
                           file=path) from None


def generated_python(path: str, backend: str = "python", text: str | None = None) -> str:
    """The Python source the code generator writes for a rule file, with a header; for the
    native backend, the source given to Cython (`runtime.native`). `text`: the file's text,
    read already (the standard input, `path` then its name)."""
    game = load_game(path, "python") if text is None else load_source(text, path, "python")
    source: str = python_source(game)
    if backend == "native":
        from .runtime.introspect import native_source
        native: str = native_source(game)
        return native
    return (f"# Python generated by gdl from {path} (rule-file hash {game.source_hash[:12]}).\n"
            "# Every function takes the state S and the seat `me` first; v<N> is local slot N.\n"
            "\n" + source)




def _program(text: str, path: str, seen: tuple[str, ...]) -> tuple[ast.Program, str]:
    # (the spans of a parse of `path` name `path`, so the errors below name it)
    program: ast.Program = parse_program(text, path)
    digest = _sha256(text)
    extends = [i for i in program.items if isinstance(i, ast.ExtendsDecl)]
    if not extends:
        return program, digest
    if len(extends) > 1:
        raise error_at(GdlSyntaxError, "a variant extends one base file", extends[1].span)
    decl = extends[0]
    if not decl.path.strip():       # (else the folder it is in: 'cannot read rule file .')
        raise error_at(GdlError, "'extends' names no base file: give the base's path, "
                       "relative to this file's folder (extends \"base.gdl\")", decl.span)
    base_path = os.path.normpath(os.path.join(os.path.dirname(path), decl.path))
    if base_path in seen:
        raise error_at(GdlError, f"'{decl.path}' extends itself through a cycle", decl.span)
    from .language.limits import MAX_BASES
    if len(seen) >= MAX_BASES:
        # (a chain of some 1,000 ran out of Python's stack, told as nesting too deep)
        raise error_at(GdlError, f"more than {MAX_BASES} base files, each extending the next: "
                       f"a variant has at most {MAX_BASES}", decl.span)
    if not os.path.exists(base_path):
        raise error_at(GdlError, f"the base file '{decl.path}' does not exist ({base_path})",
                       decl.span)
    try:
        base_text = read_text(base_path, regular=True)
    except GdlError as exc:
        if exc.line is not None:        # a place in the base's text (bytes not UTF-8)
            raise
        raise error_at(GdlError, exc.message, decl.span) from None
    base, base_digest = _program(base_text, base_path, seen + (path,))
    merged = merge(base, program)
    combined = _sha256(base_digest + digest)
    return merged, combined


def _sha256(text: str) -> str:
    from hashlib import sha256          # not on the `gdl check` path's import list
    return sha256(text.encode("utf-8")).hexdigest()


def _key(item: ast.Decl) -> Key | None:
    if isinstance(item, (ast.ParamDecl, ast.TerrainDecl, ast.FnDecl, ast.DefDecl,
                         ast.PhaseDecl, ast.ZoneDecl, ast.InvariantDecl)):
        return (type(item).__name__, item.name)
    if isinstance(item, ast.VarDecl):
        return ("var", item.scope, item.name)
    if isinstance(item, ast.ShowDecl):
        return ("show", item.what)
    if isinstance(item, ast.StatDecl):
        return ("stat", item.name)
    if isinstance(item, ast.HideDecl):
        return ("hide", item.what)
    if isinstance(item, (ast.GameDecl, ast.SetupDecl, ast.EndDecl, ast.BoardDecl,
                         ast.SeatsDecl, ast.PayoffDecl)):
        return (type(item).__name__,)
    return None


def merge(base: ast.Program, variant: ast.Program) -> ast.Program:
    """The base program with the variant's declarations replacing or adding to it. A name
    the variant declares twice is kept twice, so that the checker reports it as it does in
    a single file (the base's is replaced once, by the variant's first)."""
    items = list(base.items)
    base_kinds = _kind_tables(base.items)
    index = {_key(item): i for i, item in enumerate(items) if _key(item) is not None}
    declared: set[Key] = set()
    variant_rows: dict[str, ast.KindRow] = {}
    for item in variant.items:
        if isinstance(item, ast.ExtendsDecl):
            continue
        if isinstance(item, ast.KindsDecl):
            items = _merge_kinds(items, item, base_kinds, variant_rows)
            continue
        key = _key(item)
        if key is not None and key in index and key not in declared:
            items[index[key]] = item
        else:
            index[key] = len(items)
            items.append(item)
        if key is not None:
            declared.add(key)
    return ast.Program(tuple(items), span=variant.span)


def _kind_tables(items: tuple[ast.Decl, ...]) -> dict[str, ast.KindsDecl]:
    """The base's table of each kind, by the kind's name."""
    return {row.name: item for item in items if isinstance(item, ast.KindsDecl)
            for row in item.rows}


def _check_variant_table(table: ast.KindsDecl, base_kinds: dict[str, ast.KindsDecl],
                         variant_rows: dict[str, ast.KindRow]) -> None:
    """The errors of a variant's table that merging would hide: a row with as many values as
    the table has columns, each column once, each kind once in the variant, and a column
    the base's table of that kind has (a misspelt one, mostly)."""
    spans = table.column_spans or (table.span,) * len(table.columns)
    for i, column in enumerate(table.columns):
        if column in table.columns[:i]:
            raise error_at(GdlRuleError, f"the column '{column}' is named twice in this table",
                           spans[i])
    for row in table.rows:
        if row.name in variant_rows:
            first = variant_rows[row.name].span
            assert first is not None        # (a row read from a file)
            raise error_at(GdlRuleError, f"'{row.name}' is defined twice; the first definition "
                           f"is at line {first.line}", row.span)
        variant_rows[row.name] = row
        if len(row.values) != len(table.columns):
            raise error_at(GdlRuleError, row_length(row, table), row.span)
        if row.name not in base_kinds:
            continue
        columns = base_kinds[row.name].columns
        for column, span in zip(table.columns, spans):
            if column not in columns:
                raise error_at(GdlRuleError, f"the base table of '{row.name}' has no column "
                               f"'{column}'", span, hints=did_you_mean(column, columns))


def _merge_kinds(items: list[ast.Decl], table: ast.KindsDecl,
                 base_kinds: dict[str, ast.KindsDecl],
                 variant_rows: dict[str, ast.KindRow]) -> list[ast.Decl]:
    """A variant's kinds table replaces base rows of the same kind, column by column. A base
    row the variant's table gives a `visible to` moves into a table of its own with the
    base's columns and that condition; rows of new kinds come in a table of their own."""
    _check_variant_table(table, base_kinds, variant_rows)
    rows = {row.name: row for row in table.rows}
    out: list[ast.Decl] = []
    for item in items:
        if not isinstance(item, ast.KindsDecl) or not any(r.name in rows for r in item.rows):
            out.append(item)
            continue
        kept: list[ast.KindRow] = []
        moved: list[ast.KindRow] = []
        for row in item.rows:
            if row.name in rows:
                values = dict(zip(item.columns, row.values))
                values.update(zip(table.columns, rows.pop(row.name).values))
                row = ast.KindRow(row.name, tuple(values[c] for c in item.columns),
                                  span=row.span, name_span=row.name_span)
                if table.visible is not None:
                    moved.append(row)
                    continue
            kept.append(row)
        if kept:
            out.append(ast.KindsDecl(item.columns, tuple(kept), item.visible, span=item.span,
                                     column_spans=item.column_spans))
        if moved:
            out.append(ast.KindsDecl(item.columns, tuple(moved), table.visible,
                                     span=table.span, column_spans=item.column_spans))
    if rows:            # new kinds: the variant table's own `visible to`, if any
        out.append(ast.KindsDecl(table.columns, tuple(rows.values()), table.visible,
                                 span=table.span, column_spans=table.column_spans))
    return out
