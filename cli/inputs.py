"""What the command line checks of the files it is given, before it reads or writes them.

`refuse_overwrite(option, output, *inputs)` refuses an output path that names one of the
command's own input files (`gdl show c.gdl --svg c.gdl` would replace the rule file by a
picture); `overwritten` says which input that is, for a caller that reports it its own way.
`refuse_non_transcript(option, output)` refuses a transcript output (a save, `record -o`)
over an existing file that is not a transcript, which the person made (`not_a_transcript`
says so, for the prompt's `save`, which asks for `save!` instead; `save_refused` says that or
that the file is an input, for the games `gdl serve`'s lobby starts).
`rules_of(transcript)` is the rule file a transcript names; `check_transcript_seed(path)`
names the file and line of a transcript's seed that no command could play. `RULE_FILE` is
the type of a rule file a command reads by its name: '-', which every other file argument
takes for the standard input or output (`files.STDIO`), is refused there; it and `FILE`, the
type of every other file a command reads or writes, refuse an empty name. Light to import
(`gdl check` imports it): the transcript reader is imported when a transcript is read.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import click

from gdl.interpreter.files import PAGE_MARK, PICTURE_MARK, STDIO, TRANSCRIPT_HEADER
from gdl.interpreter.language.errors import GdlDataError, visible
from gdl.interpreter.language.limits import MAX_SOURCE

# A seed is a 64-bit number: in an option, and in a transcript's header.
MAX_SEED = 2 ** 64 - 1

# An input file of a command: (what it is, e.g. "rule file"; its path, or None when not given)
Input = tuple[str, str | None]


class FilePath(click.Path):
    """A file a command reads or writes, by its name: click's Path, less the empty name (an
    unset variable in a script, `--svg "$OUT"`), which the system takes for the current
    folder ('cannot write : Is a directory') and an option for none given (`record -o ''`
    printed the transcript)."""

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        if value == "":
            self.fail("the file name is empty: give a file's name", param, ctx)
        return super().convert(value, param, ctx)


FILE = FilePath()


class RuleFilePath(FilePath):
    """A rule file that the command reads by its name ('-' is refused: the command names the
    file in what it writes, loads it again in worker processes or watches it), or, with
    `stdin`, one that may be '-': the standard input (`gdl check -`, `gdl compile -`)."""

    def __init__(self, stdin: bool = False) -> None:
        super().__init__()
        self.stdin = stdin

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        if value == STDIO and not self.stdin:
            self.fail("'-' (the standard input) is a rule file for gdl check, compile and fmt "
                      "only: this command reads the rule file by its name (a file named '-' "
                      "is ./-)", param, ctx)
        return super().convert(value, param, ctx)


RULE_FILE = RuleFilePath()


class Seconds(click.FloatRange):
    """A number of seconds from `low` to `high`: click's FloatRange, which lets 'nan'
    through (it compares false with both ends), and asyncio.sleep(nan) never wakes."""

    def __init__(self, low: float, high: float) -> None:
        super().__init__(low, high)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value} is not a number of seconds from {self.min:g} to "
                      f"{self.max:g}", param, ctx)
        return number


def same_file(first: str, second: str) -> bool:
    """Whether two paths name one file: the same file on the disk (a link, another spelling
    of the path) when both exist, else the same real path."""
    try:
        return os.path.samefile(first, second)
    except OSError:     # one of them does not exist (yet)
        return os.path.realpath(first) == os.path.realpath(second)


def overwritten(output: str, inputs: Iterable[Input]) -> str | None:
    """The input that writing `output` would replace ('the rule file c.gdl'), or None. A
    rule file's inputs include the base files it extends."""
    for what, path in inputs:
        if path is None:
            continue
        for found_what, found in _with_bases(what, path):
            if same_file(output, found):
                return f"the {found_what} {found}"
    return None


def save_refused(output: str, *inputs: Input) -> str | None:
    """Why a transcript cannot be saved to `output`: 'that would overwrite the rule file
    c.gdl' (one of `inputs`), 'notes.txt exists and is not a gdl transcript', or None."""
    found = overwritten(output, inputs)
    return f"that would overwrite {found}" if found is not None else not_a_transcript(output)


def not_a_transcript(path: str) -> str | None:
    """Why a save to `path` would lose a file the person made: 'PATH exists and is not a gdl
    transcript', or None (no file there, an empty one, a device or pipe, or a transcript: an
    earlier save, which a save replaces)."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return None
        with open(path, "rb") as handle:
            first = handle.read(len(TRANSCRIPT_HEADER))
    except OSError:
        return None         # the write reports what is wrong with the path
    if first == TRANSCRIPT_HEADER.encode():
        return None
    return f"{path} exists and is not a gdl transcript"


_EXTENDS = re.compile(r'^\s*extends\s+"([^"]+)"', re.M)


def _with_bases(what: str, path: str) -> Iterator[tuple[str, str]]:
    """(what, path), then for a rule file each base file it extends, in turn (a file that
    cannot be read, or one met before, ends the chain: loading reports those)."""
    yield what, path
    seen = {os.path.realpath(path)}
    while "rule file" in what:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_SOURCE + 1)
        except (OSError, UnicodeDecodeError, ValueError):
            return
        named = _EXTENDS.search(text)
        if named is None:
            return
        path = os.path.normpath(os.path.join(os.path.dirname(path), named.group(1)))
        if os.path.realpath(path) in seen:
            return
        seen.add(os.path.realpath(path))
        what = "base rule file"
        yield what, path


def refuse_overwrite(option: str, output: str | None, *inputs: Input) -> None:
    """A usage error when the file `option` writes (`output`, None when not given) is one of
    the command's `inputs`: the user's file would be lost. '-' (the standard output) is
    none of them."""
    if output is None or output == STDIO:
        return
    found = overwritten(output, inputs)
    if found is not None:
        raise click.UsageError(visible(f"{option} would overwrite {found}: name another file"))


def refuse_non_transcript(option: str, output: str | None) -> None:
    """A usage error when the transcript `option` writes would replace a file that is not a
    transcript (`not_a_transcript`): a file the person made, which the write would lose."""
    if output is None or output == STDIO:
        return
    other = not_a_transcript(output)
    if other is not None:
        raise click.UsageError(visible(f"{option}: {other}: name another file (or remove it "
                                       "first)"))


# What each kind of output a command writes looks like (the start of the file, up to 64 KB):
# a file that does not look so is the person's own, which the write would lose.
OUTPUTS: dict[str, tuple[str, Callable[[str], bool]]] = {
    "records": ("gdl game records", lambda head: _records(head)),
    "page": ("a page gdl wrote", lambda head: PAGE_MARK in head),
    "picture": ("a picture gdl drew", lambda head: head.startswith("<svg")
                and PICTURE_MARK in head),
    "annotated": ("rule files gdl annotated", lambda head: _annotated(head)),
}
HEAD = 65_536       # the bytes read of an existing output to tell what it is


def not_an_output(path: str, kind: str) -> str | None:
    """Why writing output of `kind` (a key of OUTPUTS) to `path` would lose a file the
    person made: 'PATH exists and is not WHAT', or None (no file there, an empty one, a
    device or pipe, a blank one, or an earlier output of that kind, which the write
    replaces)."""
    what, looks = OUTPUTS[kind]
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return None
        with open(path, "rb") as handle:
            head = handle.read(HEAD).decode("utf-8", errors="replace")
    except OSError:
        return None         # the write reports what is wrong with the path
    if not head.strip():    # blank: nothing to lose
        return None
    return None if looks(head) else f"{path} exists and is not {what}"


def _records(head: str) -> bool:
    """The first line of `gdl simulate --out`: a JSON Lines record or the CSV columns."""
    import json
    first = head.split("\n", 1)[0]
    if first.startswith("seed,game,"):
        return True
    try:
        record = json.loads(first)
    except ValueError:
        return False
    return isinstance(record, dict) and {"seed", "game", "seats"} <= set(record)


def _annotated(head: str) -> bool:
    """`--annotate`'s output: a '# FILE' line, then lines of a count column and '|'."""
    lines = head.split("\n")
    return lines[0].startswith("# ") and (len(lines) < 2 or lines[1] == "" or
                                          lines[1][8:11] in (" | ", " |"))


def refuse_foreign(option: str, output: str | None, kind: str, force: bool) -> None:
    """A usage error when the file `option` writes would replace a file that is not an
    earlier output of its `kind` (`not_an_output`), unless `force` (--force)."""
    if force or output is None or output == STDIO:
        return
    other = not_an_output(output, kind)
    if other is not None:
        raise click.UsageError(visible(f"{option}: {other}: name another file, remove it "
                                       "first, or give --force to replace it"))


def writable(output: str | None) -> None:
    """Refuse, before a long run, an output file that names a folder or lies in none, with
    the message its write would give afterwards; '-', the standard output, when there is
    none (closed, `>&-`). None: no file."""
    from gdl.interpreter.language.errors import GdlDataError
    if output == STDIO:
        if sys.stdout is None:
            from gdl.interpreter.files import no_standard_output
            raise no_standard_output()
        return
    if output is None:
        return
    if os.path.isdir(output):
        raise GdlDataError(f"cannot write {output}: Is a directory")
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):       # as the write would say it
        why = "Not a directory" if os.path.exists(folder) else "No such file or directory"
        raise GdlDataError(f"cannot write {output}: {why}")


def rules_of(transcript: str) -> str:
    """The rule file a transcript's header names (a path from the transcript's folder)."""
    from gdl.interpreter.play.transcript import read_transcript
    return read_transcript(transcript).rules_file()


def check_transcript_seed(path: str) -> None:
    """Refuse a transcript whose header's seed is a number out of the seeds' range, at its
    line (the engine's own refusal cannot say which file the seed came from). A file that
    is not a transcript, or that cannot be read, is left to the command to report."""
    from gdl.interpreter.files import named, read_data
    from gdl.interpreter.play.transcript import HEADER
    if path == STDIO:           # read once, and kept for the command's own read
        try:
            lines = iter(read_data(path, "transcript").split("\n"))
        except GdlDataError:
            return
        _check_seed(named(path), next(lines, ""), lines, HEADER)
        return
    if not os.path.isfile(path):    # a pipe: read once, by the command itself
        return
    try:
        with open(path, encoding="utf-8") as handle:
            _check_seed(path, handle.readline(len(HEADER) + 1), handle, HEADER)
    except (OSError, UnicodeDecodeError):
        return


def _check_seed(path: str, first: str, lines: Iterable[str], header: str) -> None:
    """The seed check of a transcript whose `first` line was read, the rest to come."""
    if first.rstrip("\n") != header:
        return
    for number, line in enumerate(lines, 2):
        line = line.rstrip("\n")
        key, _, value = line.partition(": ")
        if line == "---":
            return
        if key == "seed" and _out_of_range(value):
            raise GdlDataError(f"a seed is a number from 0 to {MAX_SEED}, not {value}",
                               file=path, line=number, column=len("seed: ") + 1,
                               source_line=line)


def _out_of_range(value: str) -> bool:
    """A whole number that is no seed (text that is no number is the reader's to refuse)."""
    try:
        return not 0 <= int(value) <= MAX_SEED
    except ValueError:
        return False
