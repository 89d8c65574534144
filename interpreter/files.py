"""Files written whole: every command that writes a file (transcripts, records, reports,
pictures, replay pages, formatted rule files) writes it here; and read whole: every file
other than a rule file that a command reads (transcripts, moves files, scenarios, records)
is read by `read_data`, at most MAX_DATA characters of UTF-8.

`-` (`STDIO`) as a path given on the command line is the standard input for a file a command
reads (`read_data` reads it once, whole, and gives the same text to every later read) and
the standard output for one it writes (`save`); `named(path)` is how a message names it
(`<stdin>`, `<stdout>`). `cannot_read(what, path, why)` is the one wording of a file that
cannot be read, whatever the file: 'cannot read WHAT PATH: why'.

`write_atomic(path, data, mode=None)` writes to a temporary file in the same folder, flushes
it to the disk, then renames it over `path`: a reader sees the old file or the new one,
never half of one, the file keeps its permissions (a new one gets an ordinary file's), and a
failure leaves no temporary file behind (a device or a named pipe,
`-o /dev/stdout`, is written into instead: it is no file to replace). `save(path, text)` is the
same with a failure told as a `GdlDataError` ('cannot write PATH: why'). `is_text(name)`
says whether a path the system gave holds only UTF-8 (a transcript names its rule file in
UTF-8), `shown_path(name)` writes one that does not where text must be UTF-8 (a server's
reply).

A writer killed outright (SIGKILL, a power cut) cannot clean up: its temporary file carries
its process id (`.gdl-PID-...`), and the next write in that folder removes the temporary
files of processes that are gone (`remove_stale`, which the caches use too).

(The parse cache, `language/parse_cache.py`, keeps its own writer: a private cache entry
written by one process under a name of its own.)
"""

from __future__ import annotations

import os
import stat
import sys

from .language.errors import GdlDataError


TRANSCRIPT_HEADER = "# gdl transcript"     # a transcript's first line (play/transcript.py)
# What marks a page (`gdl report`, `gdl replay --html`) and a picture (`gdl show --svg`)
# as gdl's: a file with it is one a later write of the same kind may replace.
PAGE_MARK = '<meta name="generator" content="gdl">'
PICTURE_MARK = "<!-- drawn by gdl -->"
MAX_DATA = 250_000_000    # characters of a transcript, moves file, scenario or records file
                          # (a transcript of 100,000 decisions of a shipped game: ~100 MB)


STDIO = "-"     # a path on the command line: the standard input, or the standard output


def named(path: str, written: bool = False) -> str:
    """A path as a message names it: '-' is `<stdin>` (`<stdout>` for a file `written`)."""
    if path == STDIO:
        return "<stdout>" if written else "<stdin>"
    return path


def cannot_read(what: str, path: str, why: str | OSError) -> GdlDataError:
    """The one error of a file a command cannot read, whatever it is (a rule file, a
    transcript, a moves file, a scenario, a records file): 'cannot read WHAT PATH: why', `why`
    an OSError's words ('No such file or directory') or a reason ('byte 0xff is not UTF-8').
    `path` as the message names it (the standard input: `named(STDIO)`)."""
    if isinstance(why, OSError):
        why = why.strerror or str(why)
    return GdlDataError(f"cannot read {what} {path}: {why}")


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Why text that is not UTF-8 cannot be read: 'byte 0xff is not UTF-8'."""
    return f"byte {exc.object[exc.start]:#04x} is not UTF-8"


def read_data(path: str, what: str) -> str:
    """The text of the file at `path`, a `what` ('transcript', 'moves file', 'scenario',
    'records file'; a pipe is read once; '-' the standard input, read once whatever the
    reads): one that cannot be read, is not UTF-8 or holds more than MAX_DATA characters (a
    file of something else: a video, /dev/zero) is a GdlDataError 'cannot read WHAT PATH:
    why'."""
    if path == STDIO:
        return _standard_input(what)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_DATA + 1)
    except OSError as exc:
        raise cannot_read(what, path, exc) from None
    except UnicodeDecodeError as exc:
        raise cannot_read(what, path, not_utf8(exc)) from None
    return _within_limit(text, path, what)


def _within_limit(text: str, path: str, what: str) -> str:
    if len(text) > MAX_DATA:
        raise _too_large(path, what)
    return text


def _too_large(path: str, what: str) -> GdlDataError:
    return cannot_read(what, path, f"it holds more than {MAX_DATA:,} characters, more than a "
                       f"{what} can be (is it a {what}?)")


# The standard input as read: (the stream, its text or why it could not be read). A command
# may read its input more than once (a replay reads a transcript, then its page again); the
# standard input can be read once, so every read of the same stream gets the first's text,
# or its reason, told of the file each read takes it for (`play --moves -` reads it for a
# transcript's seed, then as a moves file).
_read_input: tuple[object, str | _Unreadable] | None = None


class _Unreadable(Exception):
    """Why the standard input could not be read (None: it holds more than MAX_DATA)."""

    def __init__(self, why: str | OSError | None) -> None:
        super().__init__(why)
        self.why = why


def _standard_input(what: str) -> str:
    global _read_input
    stream = sys.stdin
    if _read_input is None or _read_input[0] is not stream:
        try:
            _read_input = (stream, _read_stream(stream))
        except _Unreadable as exc:
            _read_input = (stream, exc)
    found = _read_input[1]
    if isinstance(found, _Unreadable):
        if found.why is None:
            raise _too_large(named(STDIO), what)
        raise cannot_read(what, named(STDIO), found.why)
    return found


def _read_stream(stream: object) -> str:
    """The text of the standard input, as `open` reads a file's (UTF-8, its line ends \\n),
    at most MAX_DATA characters of it: read a part at a time, so that an endless input
    (`< /dev/zero`) stops there."""
    import codecs
    binary = getattr(stream, "buffer", None)
    if binary is None:
        raise _Unreadable("there is no standard input")
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    count = 0
    while True:
        try:
            chunk = binary.read(1 << 16)
        except OSError as exc:
            raise _Unreadable(exc) from None
        try:
            part = decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise _Unreadable(not_utf8(exc)) from None
        parts.append(part)
        count += len(part)
        if count > MAX_DATA:
            raise _Unreadable(None)
        if not chunk:
            break
    return "".join(parts).replace("\r\n", "\n").replace("\r", "\n")


def is_text(name: str) -> bool:
    """Whether a name from the system (a path) is text: it holds no bytes that are not
    UTF-8, which Python keeps as lone surrogates (byte 0xff as U+DCFF)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(name: str) -> str:
    """A text naming a path, for where it must be UTF-8 (a server's reply): bytes that are
    not UTF-8 as U+FFFD. (On a terminal a message keeps the name's own bytes, as the
    command line writes both of its streams.)"""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def save(path: str, text: str) -> None:
    """`write_atomic`, a failure told as a GdlDataError ('cannot write PATH: why'); '-' is
    the standard output, written there (a name that is not UTF-8 as its own bytes)."""
    if path == STDIO:
        write_output(text)
        return
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise GdlDataError(f"cannot write {path}: {exc.strerror}") from None


def no_standard_output() -> GdlDataError:
    """The error of a write to the standard output when there is none (closed, `>&-`: Python
    then has no sys.stdout, and click's echo would drop the text without a word)."""
    return GdlDataError(f"cannot write {named(STDIO, written=True)}: there is no standard "
                        "output")


def write_output(text: str) -> None:
    """Write `text` on the standard output, as `write_atomic` writes a file: UTF-8, a path it
    names that is not UTF-8 as its own bytes, its line ends kept."""
    out = sys.stdout
    if out is None:
        raise no_standard_output()
    out.flush()
    binary = getattr(out, "buffer", None)
    if binary is None:          # a stream of text only (a test's): it takes the text
        out.write(text)
    else:
        binary.write(text.encode("utf-8", "surrogateescape"))
        binary.flush()


def write_atomic(path: str, data: str | bytes, mode: int | None = None) -> None:
    """Replace the file at `path` by `data` in one step (text as UTF-8, its line ends kept;
    a path the text names that is not UTF-8 as its own bytes, as the standard output writes
    it): a temporary file beside it, synced to the disk, then a rename. `mode` gives the file's
    permissions; None: those of the file it replaces (a transcript its owner made private
    stays private: it holds the seed and everything hidden), else those of a new ordinary
    file (0o666 less the umask, not the private ones of a temporary file). A symbolic link
    is kept: the file it points to is replaced.
    Raises OSError; the temporary file is gone then.

    A path that is no ordinary file nor folder (a device such as /dev/null or /dev/stdout, a
    named pipe) is written into as it is: renaming over it would put a file in its place."""
    encoded = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    if is_special(path):
        with open(path, "wb") as out:
            out.write(encoded)
        return
    path = os.path.realpath(path)
    if mode is None:
        try:
            mode = kept_mode(path)
        except OSError:     # no file there yet
            mode = _new_file_mode()
    folder = os.path.dirname(path)
    import tempfile     # here: `gdl check` reaches this module (the parse cache) but never writes
    remove_stale(folder, TEMPORARY)
    handle, temporary = tempfile.mkstemp(prefix=f"{TEMPORARY}{os.getpid()}-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(encoded)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def is_special(path: str) -> bool:
    """Is `path` there and neither an ordinary file nor a folder (a device, a pipe)?"""
    try:
        kind = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(kind) or stat.S_ISDIR(kind))


TEMPORARY = ".gdl-"     # + the writer's process id + "-" + a random part


def remove_stale(folder: str, prefix: str) -> None:
    """Remove the files and folders named `prefix` + PID + "-..." in `folder` whose process
    PID is gone: what writers killed mid-write left behind. Never raises."""
    try:
        with os.scandir(folder) as found:
            names = [item.name for item in found if item.name.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid, dash, _ = name[len(prefix):].partition("-")
        if not (dash and pid.isdigit()) or _alive(int(pid)):
            continue
        stale = os.path.join(folder, name)
        try:
            if os.path.isdir(stale) and not os.path.islink(stale):
                import shutil
                shutil.rmtree(stale, ignore_errors=True)
            else:
                os.unlink(stale)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True     # another user's process, or no pid this system knows: keep it
    return True


def kept_mode(path: str) -> int:
    """The permissions of the file at `path`, to keep them when it is rewritten."""
    return os.stat(path).st_mode & 0o7777


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
