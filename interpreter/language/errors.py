"""The one error family of gdl.

Every problem a user can cause (a malformed rule file, a rule that breaks a static check, an
illegal action, a corrupt save or transcript) is a `GdlError`. It carries the file, line and
column, and renders as `FILE:LINE:COL: error: MESSAGE`, the source line, a caret and hints.
The command line catches `GdlError` only; anything else is a bug.

`counted(n, noun)` is how a count reads in any message, an error's or another's: '1 decision',
'3 decisions'. `did_you_mean(word, names)` is how any message suggests the name a misspelt
word meant: the hint "did you mean 'NAME'?". `visible(text)` is how a message shows text a
user wrote: a character that is invisible or reorders the text around it (U+202E RIGHT-TO-LEFT
OVERRIDE, as "Trojan Source" uses) written as an escape, `\u202e`; an error's message, hints
and source line are shown so; `shortened(text)` is how it quotes a long one: a prefix, "...".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .tree import Span
    from .types import Type


class GdlError(Exception):
    """A user-facing error with an optional source position."""

    severity = "error"          # the word after the place when rendered

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, source_line: str | None = None,
                 hints: Iterable[str] = ()) -> None:
        message = visible(message)
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line
        self.hints = tuple(visible(hint) for hint in hints)

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{visible(self.file)}:"
            if self.line is not None:
                where += f"{self.line}:{self.column or 1}:"
            where += " "
        lines = [f"{where}{self.severity}: {self.message}"]
        if self.source_line is not None:
            line = self.source_line.rstrip("\r\n")
            column = max((self.column or 1) - 1, 0)
            shown, caret = _clipped(visible(line), len(visible(line[:column])))
            lines.append("    " + shown)
            lines.append("    " + " " * caret + "^")
        lines.extend(self.hints)
        return "\n".join(lines)


SHOWN = 100     # characters of a source line an error shows around its column


def _clipped(line: str, caret: int) -> tuple[str, int]:
    """At most SHOWN characters of `line` around `caret` (its index), "..." where cut; and
    the caret's index in what is shown."""
    if len(line) <= SHOWN:
        return line, caret
    start = max(0, min(caret - SHOWN // 2, len(line) - SHOWN))
    shown = line[start:start + SHOWN]
    if start > 0:
        shown, caret = "..." + shown, caret - start + 3
    if start + SHOWN < len(line):
        shown += "..."
    return shown, caret


class GdlSyntaxError(GdlError):
    """The text is not a well-formed rule file."""


class GdlWarning(GdlError):
    """What `gdl check --strict` finds only likely wrong (`lint`); rendered as an error is,
    with `warning:`. Never raised by the engine."""

    severity = "warning"


class GdlRuleError(GdlError):
    """The rule file parses but breaks a static rule (unknown name, wrong type, ...)."""


class IllegalAction(GdlError):
    """A decision that is not among the legal actions of the current position.

    `malformed` is true when the text is no action of the game at all (an unknown action
    name, a wrong number of arguments, a word that is not a cell, piece, seat, ...), false
    when the action is well formed and the rules refuse it now. `unknown` is then the word
    that names nothing and what it should have named: ("mvoe", "action"), ("zz99", "cell").
    """

    def __init__(self, message: str, *, malformed: bool = False,
                 unknown: tuple[str, Type] | None = None, **where: Any) -> None:
        super().__init__(message, **where)
        self.malformed = malformed or unknown is not None
        self.unknown = unknown


class GdlRuntimeError(GdlError):
    """A rule did something impossible while the game ran (a value that is none, a die of
    no sides); located at the rule-file expression."""


class RuleFault(Exception):
    """Raised inside the running rules' helpers for a rule that did something impossible;
    the engine turns it into a GdlRuntimeError at the expression that caused it."""


class GdlDataError(GdlError):
    """A save, transcript, moves file or scenario that cannot be read."""


E = TypeVar("E", bound=GdlError)


def error_at(cls: type[E], message: str, span: Span | None, hints: Iterable[str] = ()) -> E:
    """Build an error of class `cls` located at an AST `span` (or nowhere when None)."""
    if span is None:
        return cls(message, hints=hints)
    return cls(message, file=span.file, line=span.line, column=span.column,
               source_line=span.source_line, hints=hints)


# What a message does not show as it is: controls (but tab and newline), format characters
# (bidirectional overrides, embeddings, isolates and marks, zero-width characters, ...),
# line and paragraph separators, surrogates, private-use and unassigned code points.
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_SHOWN = re.compile(r"[\t\n\x20-\x7e]*")     # text that needs no look (most of it)


def visible(text: str) -> str:
    """`text` as a message shows it: each character that is invisible or changes how the
    characters around it are shown (see _HIDDEN) as an escape, `\x1b`, `\u202e`,
    `\U000e0001`; letters of every script, tabs and newlines as they are. A byte of a file
    name that is not UTF-8 (Python's surrogateescape, U+DC80 to U+DCFF) is left for the
    stream to write as the byte it was, as `ls` does."""
    if _SHOWN.fullmatch(text):
        return text
    import unicodedata              # only for text beyond ASCII: keeps `gdl check` quick
    return "".join(_escaped(char) if char not in "\t\n" and not "\udc80" <= char <= "\udcff"
                   and unicodedata.category(char) in _HIDDEN else char for char in text)


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


QUOTED = 40     # characters of what a user typed or gave that a message quotes
QUOTED_PATH = 4096      # a path is quoted whole up to the longest Linux takes (PATH_MAX)
QUOTED_LINE = 200       # characters of a whole action or expression a message quotes


def shortened(text: str, most: int = QUOTED) -> str:
    """`text`, something a user typed or gave, as a message quotes it: its first `most`
    characters, "..." where cut (a line of thousands of characters is not echoed whole)."""
    return text if len(text) <= most else text[:most] + "..."


def counted(number: int, noun: str) -> str:
    """'1 game', '0 games', '3 games': `number` and `noun`, plural unless it is one."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def did_you_mean(word: str, names: Iterable[str], *, cutoff: float = 0.6,
                 fold_case: bool = False) -> tuple[str, ...]:
    """An error's hints for a misspelt `word`: ("did you mean 'NAME'?",) for the name in
    `names` most like it (difflib's ratio, at least `cutoff`), or () when none is close or
    the closest is `word` itself. With `fold_case` they are compared lower-cased, and the
    name is given as written."""
    import difflib                  # only when a name is wrong: keeps `gdl check` quick
    by_key = {(name.lower() if fold_case else name): name for name in names}
    key = word.lower() if fold_case else word
    match = difflib.get_close_matches(key, list(by_key), n=1, cutoff=cutoff)
    name = by_key[match[0]] if match else word
    return (f"did you mean '{name}'?",) if name != word else ()
