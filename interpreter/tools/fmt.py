"""The formatter: a rule file's text -> the same rules in the one canonical layout.

`format_text` works from the concrete syntax tree (`parser.parse_concrete`: every token of
the grammar, in the tree of its rules) with the comments put back where they were, and
decides only the white space between tokens:

- structure: one declaration, statement, phase item, kind row or end rule per line (each
  child of a `{ ... }` of any grammar rule, and each top-level declaration, so a declaration
  added to the grammar is laid out without a change here); `{` ends its line, `}` stands on
  its own line, and what follows a `}` in the same statement (`} else {`) stays on it; an
  empty block is `{}`;
- indentation: two spaces per `{`; a line that continues a statement is indented four more,
  and four more per bracket still open at its start;
- line breaks inside a statement are kept where the designer put them (rule files break long
  conditions to follow the rulebook's sentences); a line still wider than 100 columns (its
  trailing comment aside) is broken at its loosest joints (`_BREAK_AFTER`, `_BREAK_BEFORE`):
  at the fewest brackets opened on the line, after a `,` or an invariant's `:`, else before
  `where`, an `if`'s `else`, `then`, `or`, `and`, a binary `+` or `-`, each piece as long as
  fits, and a piece still too wide broken again the same way. Tokens are never split (a
  string stays whole), a line with no such joint stays as it is, a kinds table's row is left
  to the table, and a trailing comment stays at the end of the last piece. The output's
  lines are all kept on a second run, so formatting stays idempotent;
- spacing: one space between tokens, none inside brackets, before `,` `:` `)` `]` or around
  `.`, none after a unary minus, none before the `(` of a call or parameter list;
- blank lines: at most one; none after `{` or before `}`; exactly one between two top-level
  declarations when either has a `{ }` (between others, as written: zero or one);
- comments: an own-line comment is indented as the line it precedes; trailing comments of
  consecutive lines are aligned two spaces after the longest line of their run; a comment's
  text is never rewrapped (it may pass 100 columns);
- kinds tables: the names padded so the `=` align, and the values in columns (when the
  aligned table fits in 100 columns; otherwise only the `=` align).

The result is checked before it is returned: it must hold the same tokens and comments as
the input (white space aside), so it parses to the same syntax tree, or `FormatError` says so
and nothing is written.

What is formatted is any text that parses: the formatter does not run the checker, so a file
`gdl check` refuses for its rules (an empty one included, which stays empty) is laid out
all the same. A text nested too deeply to read gets the error `gdl check` gives it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence

from ..files import STDIO, is_special, kept_mode, named, write_atomic
from ..language import concrete
from ..language.errors import GdlError, GdlSyntaxError
from ..language.parser import parse_concrete, parse_program

INDENT = "  "
CONTINUATION = "    "
WIDTH = 100                     # the columns a line may take, its trailing comment aside
TABLE_ROWS = ("kind_row",)      # rules whose lines of one table align in columns

_OPEN = ("LPAR", "LSQB")
_CLOSE = ("RPAR", "RSQB")
_NO_SPACE_BEFORE = ("RPAR", "RSQB", "COMMA", "COLON", "DOT")
_NO_SPACE_AFTER = ("LPAR", "LSQB", "DOT")
# Words written against the `(` that follows them, like a name: `on enter(p, c)`,
# `holes(c) where ...`. Every other word before `(` is an operator or a declaration's
# keyword (`not (a or b)`, `kinds (speed, cost)`) and keeps its space.
_TIGHT_WORDS = ("enter", "out", "concede", "holes", "payoff")

_HARD, _JOIN, _KEEP = "hard", "join", "keep"

# Where an over-long line breaks, best first among the places at its outermost bracket level
# (by token kind and grammar rule, or kind alone): after an invariant's `:` or a `,` (but not
# in a parameter list), then before a `where` (or a comprehension's `for`) or after a
# quantifier's `:`, before an `if`'s `else`, its `then`, `or`, `and`, a binary `+` or `-`:
# the loosest joints of the line first.
_BREAK_AFTER: dict[tuple[str, str | None], int | None] = {
    ("COLON", "invariant_decl"): 0, ("COMMA", None): 0, ("COMMA", "params"): None,
    ("COLON", "quant"): 1}
_BREAK_BEFORE: dict[tuple[str, str | None], int | None] = {("WHERE", None): 1, ("FOR", "comp_for"): 1, ("ELSE", "cond_expr"): 2,
                 ("THEN", "cond_expr"): 3, ("OR", "or_op"): 4, ("AND", "and_op"): 5,
                 ("PLUS", "add_op"): 6, ("MINUS", "add_op"): 6}


class FormatError(GdlError):
    """Formatting would change what a rule file means (a bug of the formatter); the file is
    left as it was."""


# A byte order mark some editors write first in a file: formatting keeps it where it was (as
# black keeps a Python file's); `gdl check` skips that one mark, and refuses another.
_BOM = "\ufeff"


def _without_bom(text: str) -> tuple[str, str]:
    """(the text's byte order mark or "", the text after it)."""
    bom = _BOM if text.startswith(_BOM) else ""
    return bom, text[len(bom):]


def format_text(text: str, file: str = "<string>") -> str:
    """The canonical layout of a rule file's text, a byte order mark kept and its lines
    ended as its first line is (CRLF or LF); a GdlSyntaxError when it does not parse."""
    bom, text = _without_bom(text)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") and "\n" in text else "\n"
    try:
        # a text that does not parse: `gdl check`'s error (read with its mark, as check
        # reads it: a second mark is a character check refuses, not one more to skip)
        parse_program(bom + text, file)
        tree = parse_concrete(text, file)
        out = _Printer(tree).render()
        try:
            same = _code(parse_concrete(out, "<formatted>")) == _code(tree)
        except GdlSyntaxError:
            same = False
    except RecursionError:
        # the parser and the walks below recurse once a level of the syntax tree; what
        # `gdl check` says of such a file (`loader`)
        raise GdlSyntaxError("the rule file nests expressions or blocks too deeply to read",
                             file=file) from None
    if not same:
        raise FormatError("formatting would change the meaning of this file, so it was left "
                          "as it is (a bug of gdl fmt: please report it)", file=file)
    return bom + out.replace("\n", newline)


def _code(tree: concrete.ConcreteTree) -> tuple[list[tuple[str, str]], list[str]]:
    """What formatting keeps: the tokens (the grammar ignores the white space between them,
    so the same tokens parse to the same tree) and the comments' text. Read without
    recursion, however deep the tree."""
    return ([(token.kind, token.text) for token in concrete.tokens(tree.root)],
            [comment.text.rstrip() for comment in tree.comments])


# A Markdown example: a ```gdl fence, the text up to the closing fence (a line of ``` alone;
# none: the fence is never closed). Lines end in LF or CRLF, as the Markdown file's do.
_EXAMPLE = re.compile(r"^```gdl(\r?\n|\Z)(.*?)(^```[ \t]*(?=\r?\n|\Z)|\Z)", re.S | re.M)
_ERROR_MARK = re.compile(r"<!--[^>]*\berror\b[^>]*-->\s*\Z")
_SHOWN_ERROR = re.compile(r"\s*```text\r?\n[^`]*?: error:")


def format_markdown(text: str, file: str = "<string>") -> str:
    """A Markdown text with each gdl example (a ```gdl fence) that is a whole rule file
    formatted, in the line ends of its fence (LF or CRLF). Left as written: fragments that do
    not parse alone, and examples that show an error (marked `<!-- ... error -->` before the
    fence, or followed by a ```text fence that holds `: error:`), whose messages cite their
    lines and columns. A fence never closed is a GdlSyntaxError at its line. A byte order
    mark is kept, and a fence right after it on the first line is an example too."""
    bom, text = _without_bom(text)

    def example(match: re.Match[str]) -> str:
        newline, body, closing = match.group(1, 2, 3)
        if not closing:
            line = text.count("\n", 0, match.start()) + 1
            raise GdlSyntaxError("this ```gdl example is never closed (a line ``` ends it), so "
                                 "the file was not formatted", file=file, line=line, column=1,
                                 source_line="```gdl")
        if _ERROR_MARK.search(text, 0, match.start()) or _SHOWN_ERROR.match(text, match.end()):
            return match.group(0)
        try:
            out = format_text(body.replace("\r\n", "\n"), file)
        except GdlSyntaxError:
            return match.group(0)
        return "```gdl" + newline + out.replace("\n", newline) + closing
    return bom + _EXAMPLE.sub(example, text)


def diff(old: str, new: str, path: str) -> str:
    """A unified diff from `old` to `new`, both texts of the file `path`."""
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"{path}", f"{path} (formatted)"))


class _Entry:
    """A token with what the layout needs to know of it."""

    __slots__ = ("token", "depth", "brk", "rule", "unary", "structural", "item", "row",
                 "brackets")

    def __init__(self, token: concrete.Token, depth: int, rule: str) -> None:
        self.token = token
        self.depth = depth          # number of enclosing { }
        self.brk = _KEEP            # the break before it
        self.rule = rule            # the grammar rule it belongs to
        self.unary = rule == "neg_op" and token.kind == "MINUS"
        self.structural = False     # a { or } of a block, a table, ...
        self.item: int | None = None    # index of the top-level declaration holding it
        self.row: concrete.Node | None = None   # the table row it belongs to
        self.brackets = 0           # the ( and [ of its statement still open before it


class _Line:
    __slots__ = ("entries", "comment", "indent", "blank", "item", "own_comment")

    def __init__(self, indent: str) -> None:
        self.entries: list[_Entry] = []
        self.comment: str | None = None     # a trailing comment's text
        self.indent = indent
        self.blank = False          # a blank line before this one
        self.item: int | None = None    # the top-level declaration this line belongs to
        self.own_comment = False    # a line holding only a comment


class _Printer:
    def __init__(self, tree: concrete.ConcreteTree) -> None:
        self.entries: list[_Entry] = []
        # per table: the row nodes of one braced node
        self.tables: list[list[concrete.Node]] = []
        for index, item in enumerate(tree.root.children):
            assert isinstance(item, concrete.Node)      # the root holds declarations only
            start = len(self.entries)
            self._walk(item, 0, None)

            self.entries[start].brk = _HARD
            for entry in self.entries[start:]:
                entry.item = index
        self.comments = tree.comments

    def _walk(self, node: concrete.Node, depth: int, row: concrete.Node | None) -> None:
        if node.rule in TABLE_ROWS:
            row = node
        kinds = [c.kind for c in node.children if isinstance(c, concrete.Token)]
        braced = "LBRACE" in kinds and "RBRACE" in kinds
        inside = False
        rows = []
        for child in node.children:
            if isinstance(child, concrete.Token):
                structural = braced and child.kind in ("LBRACE", "RBRACE")
                if structural and child.kind == "RBRACE":
                    inside = False
                entry = _Entry(child, depth + inside, node.rule)
                entry.row = row
                if structural:
                    entry.structural = True
                    entry.brk = _JOIN if child.kind == "LBRACE" else _HARD
                elif inside:
                    entry.brk = _HARD
                self.entries.append(entry)
                if structural and child.kind == "LBRACE":
                    inside = True
                continue
            start = len(self.entries)
            self._walk(child, depth + inside, row)
            if inside and len(self.entries) > start:
                self.entries[start].brk = _HARD
                if child.rule in TABLE_ROWS:
                    rows.append(child)
        if rows:
            self.tables.append(rows)

    # ----- lines ---------------------------------------------------------------------
    def _stream(self) -> list[tuple[concrete.Token, _Entry | None]]:
        """Code tokens and comments in source order: (token, its entry, or None for a
        comment)."""
        comments = list(self.comments)
        out: list[tuple[concrete.Token, _Entry | None]] = []
        position = 0
        for entry in self.entries:
            token = entry.token
            while position < len(comments) and (comments[position].line, comments[position]
                                                 .column) < (token.line, token.column):
                out.append((comments[position], None))
                position += 1
            out.append((token, entry))
        out.extend((comment, None) for comment in comments[position:])
        return out

    def _lines(self) -> list[_Line]:
        lines: list[_Line] = []
        line: _Line | None = None
        previous: concrete.Token | None = None  # the previous token (code or comment)
        previous_entry: _Entry | None = None    # the previous code entry
        brackets = 0
        for token, entry in self._stream():
            gap = token.line - previous.end_line if previous is not None else 0
            if entry is None:       # a comment
                if line is not None and gap == 0:
                    line.comment = token.text.rstrip()
                else:
                    # its indentation is the code's after it (`_place_comments`)
                    line = _Line("")
                    line.own_comment = True
                    line.comment = token.text.rstrip()
                    line.blank = gap > 1
                    lines.append(line)
                previous = token
                continue
            after_close = previous_entry is not None and previous_entry.structural \
                and previous_entry.token.kind == "RBRACE"
            brk = entry.brk
            if brk == _KEEP and after_close or entry.structural and _opens(previous_entry):
                brk = _JOIN         # `} else`, and an empty block `{}`
            if brk == _JOIN and previous is not None and previous_entry is not None \
                    and previous is not previous_entry.token:
                brk = _HARD      # a comment ended the line
            if line is None or brk == _HARD or (brk == _KEEP and gap > 0) \
                    or line.own_comment:
                starts_item = entry.brk == _HARD or after_close
                line = _Line(INDENT * entry.depth if starts_item else
                             _continuation_indent(entry, brackets))
                line.blank = gap > 1 and starts_item and not (
                    previous_entry is not None and previous_entry.structural
                    and previous_entry.token.kind == "LBRACE") and not entry.structural
                lines.append(line)
            line.entries.append(entry)
            line.item = entry.item
            entry.brackets = brackets
            if token.kind in _OPEN:
                brackets += 1
            elif token.kind in _CLOSE:
                brackets -= 1
            previous = token
            previous_entry = entry
        self._place_comments(lines)
        return lines

    def _place_comments(self, lines: list[_Line]) -> None:
        """An own-line comment takes the indentation of the code line after it (inside a
        block when that line closes the block); no blank line right before a `}`."""
        following = None
        for line in reversed(lines):
            if not line.own_comment:
                following = line
                continue
            if following is None:
                line.indent = ""
            else:
                first = following.entries[0]
                line.indent = following.indent
                if first.structural and first.token.kind == "RBRACE":
                    line.indent += INDENT
            line.item = following.item if following is not None else None

    # ----- text ----------------------------------------------------------------------
    def render(self) -> str:
        lines = [piece for line in self._lines() for piece in _wrapped(line)]
        self._blank_lines(lines)
        aligned = self._aligned_rows(lines)
        texts: list[tuple[str, str | None]] = []
        for line in lines:
            if line.blank and texts:
                texts.append(("", None))
            code = aligned.get(id(line))
            if code is None:
                code = _join(line.entries)
            texts.append((line.indent + code if code else line.indent, line.comment))
        if not texts:
            return ""       # nothing but white space: an empty file
        return "\n".join(_with_comments(texts)) + "\n"

    def _blank_lines(self, lines: list[_Line]) -> None:
        """No blank line after a `{` or before a `}`; between two top-level declarations
        (and the comments before the second) one blank line when either has a `{ }`."""
        blocks = {line.item for line in lines for entry in line.entries
                  if entry.structural and entry.token.kind == "LBRACE"}
        for before, line in zip(lines, lines[1:]):
            first = line.entries[0] if line.entries else None
            last = before.entries[-1] if before.entries else None
            if (first is not None and first.structural and first.token.kind == "RBRACE") or (
                    last is not None and last.structural and last.token.kind == "LBRACE"):
                line.blank = False
        previous_item = None
        index = 0
        while index < len(lines):
            line = lines[index]
            if previous_item is None or line.item in (None, previous_item):
                if not line.own_comment:
                    previous_item = line.item
                index += 1
                continue
            end = index             # the gap: comments, then the declaration's first line
            while lines[end].own_comment:
                end += 1
            if (previous_item in blocks or line.item in blocks) and not any(
                    gap.blank for gap in lines[index:end + 1]):
                line.blank = True
            previous_item = line.item
            index = end + 1

    def _aligned_rows(self, lines: list[_Line]) -> dict[int, str]:
        """Text of the lines that hold a whole table row, aligned within their table."""
        by_row: dict[int, list[_Line]] = {}
        for line in lines:
            rows = {id(e.row) for e in line.entries}
            if len(rows) == 1 and line.entries and line.entries[0].row is not None:
                by_row.setdefault(id(line.entries[0].row), []).append(line)
        out: dict[int, str] = {}
        for table in self.tables:
            found = [by_row.get(id(row)) for row in table]
            single = [f[0] for f in found if f is not None and len(f) == 1]
            cells = {id(line): _cells(line.entries) for line in single}
            widths = _column_widths(cells.values())
            texts = {}
            for line in single:
                texts[id(line)] = _table_row(cells[id(line)], widths)
            if any(len(line.indent) + len(texts[id(line)]) > WIDTH for line in single):
                texts = {id(line): _table_row(cells[id(line)], widths[:1]) for line in single}
            out.update(texts)
        return out


def _continuation_indent(entry: _Entry, brackets: int) -> str:
    """The indentation of a line that continues a statement from `entry` on, with `brackets`
    ( and [ open before it: four more than the block's, and four more per open bracket (a
    line that starts by closing one counts it as closed)."""
    leading = brackets - (entry.token.kind in _CLOSE)
    return INDENT * entry.depth + CONTINUATION * (1 + max(leading, 0))


def _wrapped(line: _Line) -> list[_Line]:
    """A code line as lines no wider than WIDTH where it can be broken: broken once
    (`_broken`), then each piece that is still too wide broken the same way. A piece is
    broken at a worse kind of break than its line was, so this ends; a list of pieces still to
    break, not recursion, so that a deeply nested line needs no deep stack."""
    done: list[_Line] = []
    todo = [line]
    while todo:
        current = todo.pop()
        pieces = _broken(current)
        if pieces is None:
            done.append(current)
        else:
            todo.extend(reversed(pieces))
    return done


def _broken(line: _Line) -> list[_Line] | None:
    """A line too wide broken at its best kind of break (`_breaks`), each piece as long as
    fits (or up to the first break when none fits); None for a line that fits, one with no
    place to break, and a kinds table's row (broken, it would leave its table's columns). A
    trailing comment goes with the last piece."""
    entries = line.entries
    if line.own_comment or entries[0].row is not None or _fits(line.indent, entries):
        return None
    breaks = _breaks(entries)
    if not breaks:
        return None
    width = _widths(entries)
    pieces = []
    start, indent, next_break = 0, line.indent, 0
    while len(indent) + width(start, len(entries)) > WIDTH and breaks[-1] > start:
        while breaks[next_break] <= start:
            next_break += 1
        # the widths grow with the end: the last break that fits, else the first one
        while next_break + 1 < len(breaks) and \
                len(indent) + width(start, breaks[next_break + 1]) <= WIDTH:
            next_break += 1
        end = breaks[next_break]
        pieces.append(_piece(line, indent, entries[start:end]))
        start = end
        indent = _continuation_indent(entries[start], entries[start].brackets)
    last = _piece(line, indent, entries[start:])
    last.comment = line.comment
    pieces[0].blank = line.blank
    return pieces + [last]


def _widths(entries: Sequence[_Entry]) -> Callable[[int, int], int]:
    """`width(start, end)`: the length of `_join(entries[start:end])`, in constant time (a
    long line is measured at each of its breaks)."""
    spaced = [0] + [int(_space(a, b)) for a, b in zip(entries, entries[1:])]
    reach = [0]             # the width of entries[:i], the space before entries[i] included
    for entry, space in zip(entries, spaced):
        reach.append(reach[-1] + space + len(entry.token.text))

    def width(start: int, end: int) -> int:
        return reach[end] - reach[start] - spaced[start]
    return width


def _fits(indent: str, entries: Iterable[_Entry]) -> bool:
    return len(indent) + len(_join(entries)) <= WIDTH


def _piece(line: _Line, indent: str, entries: list[_Entry]) -> _Line:
    piece = _Line(indent)
    piece.entries = entries
    piece.item = line.item
    return piece


def _breaks(entries: Sequence[_Entry]) -> list[int]:
    """The indexes of `entries` a line may break before, of the best kind it has: the fewest
    brackets opened on the line around it, then the rank `_BREAK_AFTER` or `_BREAK_BEFORE`
    gives it."""
    found = []
    level = 0
    for index, entry in enumerate(entries):
        kind = entry.token.kind
        if kind in _CLOSE:
            level -= 1
        rank = _rank(_BREAK_BEFORE, entry)
        if index > 0 and rank is not None:
            found.append(((level, rank), index))
        rank = _rank(_BREAK_AFTER, entry)
        if index + 1 < len(entries) and rank is not None:
            found.append(((level, rank), index + 1))
        if kind in _OPEN:
            level += 1
    if not found:
        return []
    best = min(kind for kind, _ in found)
    return [index for kind, index in found if kind == best]


def _rank(table: dict[tuple[str, str | None], int | None], entry: _Entry) -> int | None:
    kind = entry.token.kind
    return table.get((kind, entry.rule), table.get((kind, None)))


def _opens(entry: _Entry | None) -> bool:
    return entry is not None and entry.structural and entry.token.kind == "LBRACE"


def _cells(entries: Iterable[_Entry]) -> list[str]:
    """A table row's name, then each value, as text: split at `=` and the commas outside
    brackets."""
    cells: list[list[_Entry]] = [[]]
    depth = 0
    for entry in entries:
        kind = entry.token.kind
        if depth == 0 and (kind == "COMMA" or kind == "EQUAL" and len(cells) == 1):
            cells.append([])
            continue
        depth += (kind in _OPEN) - (kind in _CLOSE)
        cells[-1].append(entry)
    return [_join(cell) for cell in cells]


def _column_widths(rows: Iterable[list[str]]) -> list[int]:
    widths: list[int] = []
    for row in rows:
        for index, cell in enumerate(row):
            if index == len(widths):
                widths.append(0)
            widths[index] = max(widths[index], len(cell))
    return widths


def _table_row(cells: list[str], widths: list[int]) -> str:
    """`Name   = v1,  v2, v3`: the name padded to widths[0], each value but the last padded
    (with its comma) to its column's width when there is one."""
    text = cells[0].ljust(widths[0]) + " ="
    values = cells[1:]
    for index, value in enumerate(values):
        last = index == len(values) - 1
        cell = value if last else value + ","
        if not last and index + 1 < len(widths):
            cell = cell.ljust(widths[index + 1] + 1)
        text += " " + cell
    return text.rstrip()


def _join(entries: Iterable[_Entry]) -> str:
    out = []
    previous = None
    for entry in entries:
        if previous is not None and _space(previous, entry):
            out.append(" ")
        out.append(entry.token.text)
        previous = entry
    return "".join(out)


def _space(left: _Entry, right: _Entry) -> bool:
    """Whether one space separates two tokens of one line."""
    a, b = left.token, right.token
    if b.kind in _NO_SPACE_BEFORE or a.kind in _NO_SPACE_AFTER or left.unary or (
            right.structural and _opens(left)):
        return False
    if b.kind == "LPAR":
        return not (a.kind in ("NAME", "QUANT") or a.text in _TIGHT_WORDS)
    return True


def _with_comments(texts: Iterable[tuple[str, str | None]]) -> list[str]:
    """The lines' text with trailing comments aligned in runs of consecutive lines."""
    out: list[str] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        column = max(len(code) for code, _ in run) + 2
        out.extend(code.ljust(column) + comment for code, comment in run)
        run.clear()

    for code, comment in texts:
        if comment is not None and code.strip():
            run.append((code, comment))
            continue
        if run:
            flush()
        out.append(code + comment if comment is not None else code.rstrip())
    if run:
        flush()
    return out


def format_files(paths: Iterable[str], check: bool = False, show_diff: bool = False,
                 say: Callable[[str], object] = print,
                 warn: Callable[[str], object] = print) -> bool:

    """`gdl fmt`: format each rule file in place (atomically), or with `check` only say which
    would change, or with `show_diff` print what would change. A Markdown file (`.md`) has
    its gdl examples formatted; `-` reads the standard input and writes the result to the
    standard output. Returns True when every file was
    formatted (or, with `check`, was formatted already); errors go to `warn`."""
    from ..loader import read_standard_input, read_text
    ok = True
    for path in paths:
        if path != STDIO and not (check or show_diff) and is_special(path):
            warn(f"{path}: error: not a file to rewrite (a pipe or a device): format the "
                 "standard input with 'gdl fmt -'")
            ok = False
            continue
        try:
            text, name = read_standard_input() if path == STDIO else (read_text(path), path)
            new = (format_markdown if path.endswith(".md") else format_text)(text, name)
        except GdlError as exc:
            warn(exc.render())
            ok = False
            continue
        if path == STDIO and not (check or show_diff):
            if new:
                say(new.rstrip("\n"))
            continue
        if new == text:
            continue
        if show_diff:
            say(diff(text, new, named(path)).rstrip("\n"))
        if check:
            warn(f"{named(path)}: would be reformatted")
            ok = False
        elif not show_diff:
            try:
                write_atomic(path, new, kept_mode(path))
            except OSError as exc:
                warn(f"{path}: error: cannot write the formatted file: {exc.strerror}")
                ok = False
                continue
            say(f"{path}: formatted")
    return ok
