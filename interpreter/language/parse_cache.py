"""Parse cache: a rule file's text and name -> the `ast.Program` an earlier parse made of it.

`parser.parse_program` asks here first. A hit reads and unpickles one file, a few
milliseconds, where a parse imports Lark, loads its tables and parses (some 80 ms for the
largest shipped game). An entry is named by the sha256 of the text, the file name as given
(the spans hold it) and a version key: the bytes of the grammar and of every module whose
code shapes the AST, Lark's version and Python's, and the package the AST classes live in
(a pickle names them by module path). A change to any of them gives new names;
the old entries are pruned in time, as the least recently used.

Entries live in a per-user directory: `$GDL_CACHE_DIR`, else `$XDG_CACHE_HOME/gdl`, else
`~/.cache/gdl`, made with mode 0700. Unpickling runs whatever code the entry names, so a
directory another user owns, or others may write to, is never used. `GDL_NO_CACHE=1` turns
the cache off, and texts not read from a file (a name like `<string>`) are not cached. The
cache only saves time: whatever goes wrong with it (no home, a read-only or corrupt
directory, a damaged entry) the text is parsed, silently.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import pkgutil
import re
import stat
import sys
from collections.abc import Callable

from ..files import TEMPORARY, remove_stale
from . import ast

MAX_ENTRIES = 100       # entries are some 10-120 kB each
_PROTOCOL = 5           # fixed, so every Python that reads the cache can read its entries
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.pickle")

# What a parse result depends on, besides its text and file name.
_SOURCES = (("gdl.grammar", "gdl.lark"), (__package__, "parser.py"), (__package__, "ast.py"),
            (__package__, "tree.py"), (__package__, "parse_cache.py"))


def cached(text: str, file: str, parse: Callable[[], ast.Program]) -> ast.Program:
    """The program `parse()` makes of `text` read from `file`, from the cache when an earlier
    parse stored it there. What `parse()` raises is not cached."""
    entry = _entry(text, file)
    if entry is None:
        return parse()
    program = _load(entry)
    if program is None:
        program = parse()
        _store(entry, program)
    return program


def _entry(text: str, file: str) -> str | None:
    """The path of the entry for this text and file name, or None when there is no cache."""
    if os.environ.get("GDL_NO_CACHE", "") not in ("", "0") or file.startswith("<"):
        return None
    directory = cache_directory()
    version = _version()
    if directory is None or version is None:
        return None
    key = hashlib.sha256()
    for part in (version, file.encode("utf-8", "surrogatepass")):
        key.update(len(part).to_bytes(8, "big") + part)
    key.update(text.encode("utf-8", "surrogatepass"))
    return os.path.join(directory, key.hexdigest() + ".pickle")


def cache_directory() -> str | None:
    if os.name != "posix":          # the privacy check below needs POSIX owners and modes
        return None
    chosen = os.environ.get("GDL_CACHE_DIR")
    if chosen:      # absolute: the native build runs its compiler from another folder
        return os.path.abspath(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):     # the XDG specification ignores a relative path
        home = os.path.expanduser("~")
        if not os.path.isabs(home):     # no home directory: no cache
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "gdl")


@functools.cache
def _version() -> bytes | None:
    """A hash of what every parse depends on; None when a source cannot be read (an install
    without them), which turns the cache off."""
    key = hashlib.sha256(sys.implementation.cache_tag.encode())
    key.update(__package__.encode())
    try:
        sources = [pkgutil.get_data(package, name) for package, name in _SOURCES]
        sources.append(_lark_init())
    except OSError:
        return None
    for data in sources:
        if data is None:
            return None
        key.update(len(data).to_bytes(8, "big") + data)
    return key.digest()


def _lark_init() -> bytes | None:
    """Lark's `__init__.py`, which names its version, read without importing Lark."""
    import importlib.util
    spec = importlib.util.find_spec("lark")
    if spec is None or spec.origin is None:
        return None
    with open(spec.origin, "rb") as stream:
        return stream.read()


def is_private(path: str, folder: bool = True) -> bool:
    """Whether `path` is a folder (`folder`) or a regular file that this user owns and no
    one else may write to: what a cache may read code from (the native cache too)."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    kind = stat.S_ISDIR if folder else stat.S_ISREG
    return kind(status.st_mode) and status.st_uid == os.getuid() and not status.st_mode & 0o022


def _load(entry: str) -> ast.Program | None:
    if not is_private(os.path.dirname(entry)):
        return None
    try:
        with open(entry, "rb") as stream:
            data = stream.read()
    except OSError:
        return None
    try:
        program = pickle.loads(data)
    except Exception:       # a damaged entry can fail in any of the ways unpickling can
        return None
    if type(program) is not ast.Program:
        return None
    try:
        os.utime(entry)     # used now: pruned last
    except OSError:
        pass
    return program


def _store(entry: str, program: ast.Program) -> None:
    try:
        data = pickle.dumps(program, protocol=_PROTOCOL)
    except RecursionError:  # a program nested deeper than pickle goes: parse it each time
        return
    directory = os.path.dirname(entry)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if is_private(directory):
            _write_atomically(entry, data)
            _prune(directory)
    except OSError:
        pass


def _write_atomically(path: str, data: bytes) -> None:
    """Write `data` to a temporary file, then rename it: a reader sees all of it or none."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f"{TEMPORARY}{os.getpid()}-{name}")
    try:
        with open(temporary, "xb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise


def _prune(directory: str) -> None:

    """Keep the MAX_ENTRIES most recently used entries, and drop what writers killed
    mid-write left; leave other files alone."""
    remove_stale(directory, TEMPORARY)
    with os.scandir(directory) as found:
        entries = [item for item in found if _ENTRY_NAME.fullmatch(item.name)]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda item: item.stat().st_mtime, reverse=True)
    for old in entries[MAX_ENTRIES:]:
        try:
            os.remove(old.path)
        except OSError:     # another process pruned it first
            pass
