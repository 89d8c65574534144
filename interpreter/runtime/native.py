"""Native backend: a game's generated Python module compiled to a C extension with Cython.

    requested(backend)                      -> the backend asked for (auto, native, python)
    native_source(python_source, names)     -> the text given to Cython (`gdl compile
                                               --backend native`)
    load(game, source, lines, namespace, backend) -> the game's functions from the compiled module,
                                               or None (then the file runs on Python)

A backend is asked for by `backend=` in `load_game`, `--backend` on the commands or the
`GDL_BACKEND` environment variable: "python" (the default in this first increment), "native"
or "auto" (native when Cython and a C compiler are present). Whatever native cannot do runs
the whole file on Python, with one line on stderr that says why: no Cython, no compiler, a
failed compile, no private cache directory, a construct that needs Python's frames.

The generated module's functions are compiled unchanged, inside one function `_bind(rt, K0, ...)` whose
parameters are the names the Python backend gives it as module globals (the runtime, the
built-ins, the constant tables): an extension module is imported once per process, so its
globals would be shared by every game loaded from it, while each call of `_bind` gives one
game closures over its own runtime. Each function's body is wrapped in Python's recursion
check (`_translated`). A fault's traceback names the native source's line, which `_Mapped`
turns back into the generated module's, so the fault names its rule-file place as on Python
(the compiled module's tracebacks carry lines, not columns: the place is the widest node of
the line, see `codegen.Source.place_of`).

Compiled modules live in `native_cache`; the first load of a file compiles it (seconds), the
later ones import it (milliseconds).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from . import native_cache
from ..language.errors import GdlError

if TYPE_CHECKING:
    from ..language import program as ir
    from .codegen import Source
    from .engine import Game

BACKENDS = ("auto", "native", "python")
DEFAULT = "python"
ENVIRONMENT = "GDL_BACKEND"
NATIVE_PREFIX = "<gdl native "     # the compiled module's file name in its tracebacks

_DEF = re.compile(r"^def (\w+)\(", re.MULTILINE)
_told: set[str] = set()         # reasons already told on stderr in this process


def requested(backend: str | None = None) -> str:
    """The backend asked for: `backend`, else $GDL_BACKEND, else the default."""
    chosen = backend or os.environ.get(ENVIRONMENT) or DEFAULT
    if chosen not in BACKENDS:
        if backend:
            raise GdlError(f"unknown backend {chosen!r}: use one of {', '.join(BACKENDS)}")
        raise GdlError(f"unknown backend {chosen!r} in ${ENVIRONMENT}: use one of "
                       f"{', '.join(BACKENDS)} (or unset it)")
    return chosen


def missing_tools() -> str | None:
    """Why this machine cannot build the native backend (None: it can)."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install -e '.[native]')"
    if native_cache.compiler() is None:
        return "no C compiler found (set CC, or install gcc)"
    return None


def tell_fallback(reason: str, backend: str) -> None:
    """One line on stderr: the file runs on Python, and why; once per process for each
    reason (not for every game loaded)."""
    if reason in _told:
        return
    _told.add(reason)
    print(f"gdl: running on the Python backend ({backend} asked): {reason}", file=sys.stderr)


_GUARD = ('cdef extern from "Python.h":\n'
          '    int Py_EnterRecursiveCall(const char *where) except 1\n'
          '    void Py_LeaveRecursiveCall()\n')


def native_source(python_source: str, names: Iterable[str]) -> str:
    """The module Cython compiles: the generated module inside `_bind(<names>)`, which
    returns its functions by name. `names` are the module globals the Python backend runs
    it with (those it defines itself, and `__builtins__`, aside)."""
    return _translated(python_source, names)[0]


def _translated(python_source: str,
                names: Iterable[str]) -> tuple[str, list[int | None]]:
    """(the native source, for each of its lines the generated line it comes from). Each
    function's body runs between Py_EnterRecursiveCall and Py_LeaveRecursiveCall: compiled
    functions call each other in C, where nothing else counts Python's recursion limit, so
    a rule that calls itself without end would overflow the C stack instead of raising
    RecursionError."""
    functions = _DEF.findall(python_source)
    parameters = ", ".join(sorted(set(names) - set(functions) - {"__builtins__"}))
    out = [*_GUARD.splitlines(), f"def _bind({parameters}):"]
    origin: list[int | None] = [None] * len(out)
    inside = False

    def close() -> None:
        out.extend(["        finally:", "            Py_LeaveRecursiveCall()"])
        origin.extend([None, None])
    for number, line in enumerate(python_source.splitlines(), 1):
        if line.startswith("def "):
            if inside:
                close()
            inside = True
            # a RecursionError is raised on entry: it names the first line of the body
            out.extend([f"    {line}", '        Py_EnterRecursiveCall(" in the rules")',
                        "        try:"])
            origin.extend([number, number + 1, number + 1])
        elif not line.strip():
            out.append("")
            origin.append(None)
        else:
            out.append(("        " if inside else "    ") + line)
            origin.append(number)
    if inside:
        close()
    table = ", ".join(f"{name!r}: {name}" for name in functions)
    out.append(f"    return {{{table}}}")
    origin.append(None)
    return "\n".join(out) + "\n", origin


def unsupported(python_source: str) -> str | None:
    """The construct that keeps a file off the native backend (None: none does)."""
    if "rt.tell(" in python_source:
        return ("a 'tell' statement names the rule telling through Python's frames, which "
                "compiled code does not have")
    return None


def load(game: Game, source: str, lines: Source, namespace: dict[str, Any],
         backend: str) -> dict[str, Callable[..., Any]] | None:
    """The generated functions of `game` compiled to C, bound to `namespace`, or None (and
    the reason on stderr) when the file runs on Python."""
    reason = missing_tools() or unsupported(source)
    if reason is None:
        text, origin = _translated(source, namespace)
        module, reason = native_cache.module(text)
        if module is not None:
            filename = f"{NATIVE_PREFIX}{module.__name__}>"
            game._sources[filename] = _Mapped(lines, origin)
            bound: dict[str, Callable[..., Any]] = module._bind(**namespace)
            return bound
    assert reason is not None
    tell_fallback(reason, backend)
    return None


class _Mapped:
    """A generated module's places, seen from its native source's lines."""

    def __init__(self, lines: Source, origin: list[int | None]) -> None:
        self._lines = lines
        self._origin = origin       # native line - 1 -> generated line (None: gdl's own)

    def place_of(self, line: int, start: int, end: int) -> ir.Node | None:
        found = self._origin[line - 1] if 0 < line <= len(self._origin) else None
        return None if found is None else self._lines.place_of(found, start, end)


def backend_of(game: Game) -> str:
    """Which backend runs `game`'s rules: "native" or "python"."""
    backend: str = game._backend
    return backend
