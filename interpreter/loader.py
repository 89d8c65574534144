"""Loader: a rule file (and the base file a variant extends) -> a runnable `Game`.

A variant names its base with `extends "base.gdl"` and declares only what differs: a
declaration with the same name (param, terrain, var, fn, def, phase, kind row, setup, end,
board, seats, show) replaces the base's; anything new is added.
"""

from __future__ import annotations

import hashlib
import os

from . import ast
from .checker import check_program
from .engine import Game
from .errors import GdlError, GdlRuleError, GdlSyntaxError
from .parser import parse_program


def read_text(path):
    """A rule file's text; binary junk and unreadable files become a GdlError."""
    try:
        data = open(path, "rb").read()
    except OSError as exc:
        raise GdlError(f"cannot read {path}: {exc.strerror}", file=path) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        shown = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
        shown = "".join(c if c.isprintable() else "?" for c in shown)
        raise GdlSyntaxError(f"this is not a text rule file: byte {data[exc.start]:#04x} "
                             "is not UTF-8", file=path, line=line,
                             column=exc.start - start + 1, source_line=shown) from None


def load_source(text, path="<string>"):
    """Parse, merge with the extended base (if any), check and compile `text`."""
    try:
        program, digest = _program(text, path, seen=())
        return Game(check_program(program), path, digest)
    except RecursionError:
        raise GdlRuleError("the rule file nests expressions or blocks too deeply to read",
                           file=path) from None


def load_game(path):
    return load_source(read_text(path), path)


def _program(text, path, seen):
    program = parse_program(text, path)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    extends = [i for i in program.items if isinstance(i, ast.ExtendsDecl)]
    if not extends:
        return program, digest
    if len(extends) > 1:
        raise GdlSyntaxError("a variant extends one base file", file=path,
                             line=extends[1].span.line, column=extends[1].span.column,
                             source_line=extends[1].span.source_line)
    decl = extends[0]
    base_path = os.path.normpath(os.path.join(os.path.dirname(path), decl.path))
    if base_path in seen:
        raise GdlError(f"'{decl.path}' extends itself through a cycle", file=path,
                       line=decl.span.line, column=decl.span.column,
                       source_line=decl.span.source_line)
    if not os.path.exists(base_path):
        raise GdlError(f"the base file '{decl.path}' does not exist ({base_path})", file=path,
                       line=decl.span.line, column=decl.span.column,
                       source_line=decl.span.source_line)
    base, base_digest = _program(read_text(base_path), base_path, seen + (path,))
    merged = merge(base, program)
    combined = hashlib.sha256((base_digest + digest).encode()).hexdigest()
    return merged, combined


def _key(item):
    if isinstance(item, (ast.ParamDecl, ast.TerrainDecl, ast.FnDecl, ast.DefDecl,
                         ast.PhaseDecl)):
        return (type(item).__name__, item.name)
    if isinstance(item, ast.VarDecl):
        return ("var", item.scope, item.name)
    if isinstance(item, ast.ShowDecl):
        return ("show", item.what)
    if isinstance(item, ast.HideDecl):
        return ("hide", item.what)
    if isinstance(item, (ast.GameDecl, ast.SetupDecl, ast.EndDecl, ast.BoardDecl,
                         ast.SeatsDecl)):
        return (type(item).__name__,)
    return None


def merge(base, variant):
    """The base program with the variant's declarations replacing or adding to it."""
    items = list(base.items)
    index = {_key(item): i for i, item in enumerate(items) if _key(item) is not None}
    for item in variant.items:
        if isinstance(item, ast.ExtendsDecl):
            continue
        if isinstance(item, ast.KindsDecl):
            items = _merge_kinds(items, item)
            continue
        key = _key(item)
        if key is not None and key in index:
            items[index[key]] = item
        else:
            index[key] = len(items)
            items.append(item)
    return ast.Program(tuple(items), span=variant.span)


def _base_rows(items):
    return {row.name for item in items if isinstance(item, ast.KindsDecl) for row in item.rows}


def _merge_kinds(items, table):
    """A variant's kinds table replaces base rows of the same kind, column by column."""
    rows = {row.name: row for row in table.rows}
    base_columns = {c for item in items if isinstance(item, ast.KindsDecl) for c in item.columns}
    for column in table.columns:
        if base_columns and column not in base_columns and any(r in _base_rows(items)
                                                                for r in rows):
            import difflib
            close = difflib.get_close_matches(column, sorted(base_columns), n=1)
            raise GdlRuleError(f"the base table has no column '{column}'", file=table.span.file,
                               line=table.span.line, column=table.span.column,
                               source_line=table.span.source_line,
                               hints=[f"did you mean '{close[0]}'?"] if close else [])
    out = []
    for item in items:
        if isinstance(item, ast.KindsDecl):
            new_rows = []
            for row in item.rows:
                if row.name in rows:
                    values = dict(zip(item.columns, row.values))
                    values.update(zip(table.columns, rows.pop(row.name).values))
                    row = ast.KindRow(row.name, tuple(values[c] for c in item.columns),
                                      span=row.span)
                new_rows.append(row)
            item = ast.KindsDecl(item.columns, tuple(new_rows), span=item.span)
        out.append(item)
    if rows:
        out.append(ast.KindsDecl(table.columns, tuple(rows.values()), span=table.span))
    return out
