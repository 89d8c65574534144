"""Files written whole: every command that writes a file (transcripts, records, reports,
pictures, replay pages, formatted rule files) writes it here; and read whole: every file
other than a rule file that a command reads (transcripts, moves files, scenarios, records)
is read by `read_data`, at most MAX_DATA characters of UTF-8.

`write_atomic(path, data, mode=None)` writes to a temporary file in the same folder, flushes
it to the disk, then renames it over `path`: a reader sees the old file or the new one,
never half of one, and a failure leaves no temporary file behind (a device or a named pipe,
`-o /dev/stdout`, is written into instead: it is no file to replace). `save(path, text)` is the
same with a failure told as a `GdlDataError` ('cannot write PATH: why'). `is_text(name)`
says whether a path the system gave holds only UTF-8 (a transcript names its rule file in
UTF-8), `shown_path(name)` writes one that does not for a message.

A writer killed outright (SIGKILL, a power cut) cannot clean up: its temporary file carries
its process id (`.gdl-PID-...`), and the next write in that folder removes the temporary
files of processes that are gone (`remove_stale`, which the caches use too).

(The parse cache, `language/parse_cache.py`, keeps its own writer: a private cache entry
written by one process under a name of its own.)
"""

from __future__ import annotations

import os
import stat

from .language.errors import GdlDataError


TRANSCRIPT_HEADER = "# gdl transcript"     # a transcript's first line (play/transcript.py)
MAX_DATA = 250_000_000    # characters of a transcript, moves file, scenario or records file
                          # (a transcript of 100,000 decisions of a shipped game: ~100 MB)


def read_data(path: str, what: str) -> str:
    """The text of the file at `path`, a `what` ('transcript', 'moves file', 'scenario',
    'records file'; a pipe is read once): one that cannot be read, is not UTF-8 or holds more
    than MAX_DATA characters (a file of something else: a video, /dev/zero) is a
    GdlDataError 'cannot read WHAT PATH: why'."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_DATA + 1)
    except OSError as exc:
        raise GdlDataError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise GdlDataError(f"cannot read {what} {path}: byte {exc.object[exc.start]:#04x} is "
                           "not UTF-8") from None
    if len(text) > MAX_DATA:
        raise GdlDataError(f"cannot read {what} {path}: it holds more than {MAX_DATA:,} "
                           f"characters, more than a {what} can be (is it a {what}?)")
    return text


def is_text(name: str) -> bool:
    """Whether a name from the system (a path) is text: it holds no bytes that are not
    UTF-8, which Python keeps as lone surrogates (byte 0xff as U+DCFF)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(name: str) -> str:
    """A path as a message shows it: bytes that are not UTF-8 as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def save(path: str, text: str) -> None:
    """`write_atomic`, a failure told as a GdlDataError ('cannot write PATH: why')."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise GdlDataError(f"cannot write {path}: {exc.strerror}") from None


def write_atomic(path: str, data: str | bytes, mode: int | None = None) -> None:
    """Replace the file at `path` by `data` in one step (text as UTF-8, its line ends kept;
    a path the text names that is not UTF-8 as its own bytes, as the standard output writes
    it): a temporary file beside it, synced to the disk, then a rename. `mode` gives the file's
    permissions; None those of a new ordinary file (0o666 less the umask, not the private
    ones of a temporary file). A symbolic link is kept: the file it points to is replaced.
    Raises OSError; the temporary file is gone then.

    A path that is no ordinary file nor folder (a device such as /dev/null or /dev/stdout, a
    named pipe) is written into as it is: renaming over it would put a file in its place."""
    encoded = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    if is_special(path):
        with open(path, "wb") as out:
            out.write(encoded)
        return
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    import tempfile     # here: `gdl check` reaches this module (the parse cache) but never writes
    remove_stale(folder, TEMPORARY)
    handle, temporary = tempfile.mkstemp(prefix=f"{TEMPORARY}{os.getpid()}-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(encoded)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, _new_file_mode() if mode is None else mode)
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
