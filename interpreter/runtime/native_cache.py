"""Native cache: the native source of a game (`native.native_source`) -> its compiled
extension module, built with Cython and the C compiler on first use, imported afterwards.

An entry is named by the sha256 of the native source, gdl's version, Python's (its cache
tag), Cython's version, the compiler command and this module's own text (its build flags):
a change to any of them gives a new name. Entries live in the `native` folder of the parse
cache's per-user directory (`$GDL_CACHE_DIR`, else `$XDG_CACHE_HOME/gdl`, else
`~/.cache/gdl`), made with mode 0700; importing an entry runs its code, so a directory or an
entry another user owns, or others may write to, is never used. An entry is built in a
temporary folder beside it and renamed into place: a reader sees all of it or none. The
digest of the module built is kept beside it (`.digest`) and checked before each import: an
entry damaged since (a truncated file would crash the process loading it) is built again.
`GDL_NO_CACHE=1` does not turn this cache off (there is no native backend without it).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Iterator
from types import ModuleType

from ..files import remove_stale
from ..language import parse_cache

BUILD = ".build"         # + its lock's number + "-" + the builder's process id + "-": a build
#                          folder (`_locked`)
_FLAGS = ("-shared", "-fPIC", "-w")
OPTIMISE = "GDL_NATIVE_CFLAGS"   # the C compiler's optimisation flags (default -O2; the
#                                  suite's differential test builds with -O0, 3x quicker)
LOCKS = 8               # build lock files (`_locked`)
MAX_ENTRIES = 50        # compiled modules are some 0.4-1 MB each
DIGEST = ".digest"              # beside an entry: the digest of the module built
_ENTRY_NAME = re.compile(r"gdl_native_[0-9a-f]{40}\..*\.so")
_imported: dict[str, ModuleType] = {}   # entry path -> its module, in this process
TRANSLATIONS = 100      # builds one Cython process translates before a fresh one takes
#                         over (whatever Cython keeps of a build is let go)
_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cython_worker.py")
_translating = threading.Lock()
_translator: list[subprocess.Popen[str]] = []     # the kept Cython process, when there is one
_translated = [0]       # builds the kept Cython process translated


@functools.cache
def compiler() -> list[str] | None:
    """The C compiler command: $CC, else the one Python was built with, else cc or gcc
    (None: none is installed)."""
    for command in (os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc", "gcc"):
        words = shlex.split(command) if command else []
        if words and shutil.which(words[0]) is not None:
            return words
    return None


def directory() -> str | None:
    """The folder of compiled modules (None: no per-user cache directory)."""
    base = parse_cache.cache_directory()
    return None if base is None else os.path.join(base, "native")


def module(text: str) -> tuple[ModuleType | None, str | None]:
    """(the compiled module of `text`, None), or (None, why it cannot be had)."""
    folder = directory()
    if folder is None:
        return None, "no per-user cache directory to keep the compiled rules in"
    name = "gdl_native_" + _key(text)[:40]
    path = os.path.join(folder, name + importlib.machinery.EXTENSION_SUFFIXES[0])
    if path in _imported:
        return _imported[path], None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as exc:
        return None, f"cannot make the cache directory {folder}: {exc.strerror}"
    if not parse_cache.is_private(folder):
        return None, f"the cache directory {folder} is not private to this user"
    if not os.path.exists(path):
        with _locked(folder, name) as lock:     # another process may be building it: wait
            failure = None if os.path.exists(path) else _build(text, name, folder, path, lock)
        if failure is not None:
            return None, failure
    if not parse_cache.is_private(path, folder=False):
        return None, f"{path} is not this user's own file"
    if not _intact(path):       # loading a damaged one would crash the process: build anew
        with _locked(folder, name) as lock:
            failure = None if _intact(path) else _build(text, name, folder, path, lock)
        if failure is not None:
            return None, failure
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    _imported[path] = loaded
    return loaded, None


def _key(text: str) -> str:
    key = hashlib.sha256()
    for part in (text, _gdl_version(), sys.implementation.cache_tag, _cython_version(),
                 " ".join(compiler() or ()), " ".join(_optimisation()), _own_text()):
        data = part.encode("utf-8", "surrogatepass")
        key.update(len(data).to_bytes(8, "big") + data)
    return key.hexdigest()


@functools.cache
def _optimisation() -> list[str]:
    return shlex.split(os.environ.get(OPTIMISE) or "-O2")


@functools.cache
def _gdl_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("gdl")
    except PackageNotFoundError:
        return "unknown"


@functools.cache
def _cython_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("Cython")
    except PackageNotFoundError:
        return "unknown"


@functools.cache
def _own_text() -> str:
    """This module's text and its Cython worker's (the options it translates with)."""
    texts = []
    for path in (__file__, _WORKER):
        with open(path, encoding="utf-8") as stream:
            texts.append(stream.read())
    return "\n".join(texts)


def _build(text: str, name: str, folder: str, path: str, lock: int) -> str | None:
    """Compile `text` to the extension module at `path`, holding lock number `lock`; None,
    or why it failed."""
    command = compiler()
    assert command is not None
    # builds under this lock killed midway (their process is gone; we hold the lock, so no
    # other build of it runs now)
    remove_stale(folder, f"{BUILD}{lock}-")
    work = tempfile.mkdtemp(prefix=f"{BUILD}{lock}-{os.getpid()}-", dir=folder)
    try:
        with open(os.path.join(work, name + ".pyx"), "w", encoding="utf-8") as stream:
            stream.write(text)
        failure = _translate(work, name)
        if failure is not None:
            return f"Cython could not compile the rules: {failure}"
        c_file = os.path.join(work, name + ".c")
        with open(c_file, encoding="utf-8") as stream:
            c_text = stream.read()
        # Tracebacks name the generated module as the engine knows it (native.NATIVE_PREFIX).
        c_text = c_text.replace(f'"{name}.pyx"', f'"<gdl native {name}>"')
        with open(c_file, "w", encoding="utf-8") as stream:
            stream.write(c_text)
        built = os.path.join(work, os.path.basename(path))
        failure = _run([*command, *_FLAGS, *_optimisation(), "-I", sysconfig.get_paths()["include"],
                        name + ".c", "-o", built], work)
        if failure is not None:
            return f"the C compiler could not build the rules: {failure}"
        digest = os.path.join(work, "digest")
        with open(digest, "w", encoding="ascii") as stream:
            stream.write(_digest(built))
        os.replace(digest, path + DIGEST)       # first: an entry never lacks its digest
        os.replace(built, path)
    except OSError as exc:
        return f"cannot write the compiled rules in {folder}: {exc.strerror}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _prune(folder)
    return None


@contextlib.contextmanager
def _locked(folder: str, name: str) -> Iterator[int]:
    """Hold the build lock of entry `name`, across processes, and give its number: one of
    LOCKS lock files (`.lock-N`), by the entry's hash, so one module is never built twice at
    once while different ones (mostly) build side by side."""
    stripe = int(name[-8:], 16) % LOCKS
    with open(os.path.join(folder, f".lock-{stripe}"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield stripe
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _digest(path: str) -> str:
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "blake2b").hexdigest()


def _intact(path: str) -> bool:
    """Is the entry at `path` the module its build wrote (its digest beside it, kept when
    it was built; a truncated or damaged file crashes the process that loads it)?"""
    try:
        with open(path + DIGEST, encoding="ascii") as stream:
            return stream.read() == _digest(path)
    except (OSError, UnicodeDecodeError):
        return False


def _translate(folder: str, name: str) -> str | None:
    """Cython's C of `folder/name.pyx`, as `name.c` beside it; None, or why it failed. Asks
    this process's kept Cython process (cython_worker.py, started on the first build and
    replaced every TRANSLATIONS builds: 0.85 s a build against 2.2 s for a command of its
    own); the command when that process cannot answer."""
    pyx, c_file = (os.path.abspath(os.path.join(folder, name + end)) for end in (".pyx", ".c"))
    with _translating:
        try:
            process = _worker()
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps([pyx, c_file]) + "\n")
            process.stdin.flush()
            reply = json.loads(process.stdout.readline())
            _translated[0] += 1
        except (OSError, ValueError):        # it ended (killed, out of memory): a command
            _let_go()
            return _run([sys.executable, "-m", "cython", "-3", pyx, "-o", c_file], folder)
        if _translated[0] >= TRANSLATIONS:
            _let_go()
    return reply if isinstance(reply, str) or reply is None else str(reply)


def _worker() -> subprocess.Popen[str]:
    """The kept Cython process of this process (a forked child starts its own:
    `_forget_in_child`), started when there is none."""
    if not _translator:
        process = subprocess.Popen([sys.executable, _WORKER], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True, encoding="utf-8")
        _translator.append(process)
        _translated[0] = 0
    return _translator[0]


def _let_go() -> None:
    """End the kept Cython process (the end of its input ends it), if there is one."""
    if _translator:
        process = _translator[0]
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
    _translator.clear()


def _forget_in_child() -> None:
    """A forked child's: a lock of its own (a thread of the parent may have held the
    parent's at the fork) and no kept Cython process (the parent's pipes are the parent's)."""
    global _translating
    _translating = threading.Lock()
    _translator.clear()


atexit.register(_let_go)
os.register_at_fork(after_in_child=_forget_in_child)


def _run(command: list[str], folder: str) -> str | None:
    """Run a build step; None, or the last line it wrote on failure."""
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode == 0:
        return None
    said = (done.stderr or done.stdout).strip().splitlines()
    return said[-1] if said else f"{command[0]} exited with status {done.returncode}"


def _built_at(item: os.DirEntry[str]) -> float | None:
    """An entry's modification time; None when it is gone (another process pruned it
    since the folder was listed)."""
    try:
        return item.stat().st_mtime
    except OSError:
        return None


def _prune(folder: str) -> None:
    """Keep the MAX_ENTRIES most recently built modules (a process that imported one
    keeps it: removing the file does not unload it). Other processes build and prune
    beside this one: what they removed first is passed over."""
    try:
        with os.scandir(folder) as found:
            named = [item for item in found if _ENTRY_NAME.fullmatch(item.name)]
    except OSError:
        return
    entries = [(at, item.path) for item in named if (at := _built_at(item)) is not None]
    entries.sort(reverse=True)
    for _, old in entries[MAX_ENTRIES:]:
        for gone in (old, old + DIGEST):
            try:
                os.remove(gone)
            except OSError:     # another process pruned it first
                pass

