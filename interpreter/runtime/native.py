"""Native backend: a game's generated Python module compiled to a C extension with Cython.

    choose(requested)                       -> "native" or "python" (which backend runs)
    native_source(python_source, names)     -> the text given to Cython (`gdl compile
                                               --backend native`)
    load(game, source, lines, namespace)    -> the game's functions from the compiled module,
                                               or None (then the file runs on Python)

A backend is asked for by `backend=` in `load_game`, `--backend` on the commands or the
`GDL_BACKEND` environment variable: "python" (the default in this first increment), "native"
or "auto" (native when Cython and a C compiler are present). Whatever native cannot do runs
the whole file on Python, with one line on stderr that says why: no Cython, no compiler, a
failed compile, no private cache directory, a construct that needs Python's frames.

The generated module is compiled unchanged, inside one function `_bind(rt, K0, ...)` whose
parameters are the names the Python backend gives it as module globals (the runtime, the
built-ins, the constant tables): an extension module is imported once per process, so its
globals would be shared by every game loaded from it, while each call of `_bind` gives one
game closures over its own runtime. `_bind` is on the first line, so line N of the generated
module is line N + 1 of the native source: a fault's traceback names the rule-file place as
on Python (the compiled module's tracebacks carry line numbers, not columns: the place is the
widest node of the line, see `codegen.Source.place_of`).

Compiled modules live in `native_cache`; the first load of a file compiles it (seconds), the
later ones import it (milliseconds).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import native_cache

if TYPE_CHECKING:
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
        from ..language.errors import GdlError
        raise GdlError(f"unknown backend {chosen!r}: use one of {', '.join(BACKENDS)}")
    return chosen


def missing_tools() -> str | None:
    """Why this machine cannot build the native backend (None: it can)."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install 'gdl[native]')"
    if native_cache.compiler() is None:
        return "no C compiler found (set CC, or install gcc)"
    return None


def tell_fallback(reason: str, backend: str) -> None:
    """One line on stderr: the file runs on Python, and why. Said once per process for each
    reason, and for `auto` only when the tools are missing (not for every game loaded)."""
    if reason in _told:
        return
    _told.add(reason)
    print(f"gdl: running on the Python backend ({backend} asked): {reason}", file=sys.stderr)


def native_source(python_source: str, names: Mapping[str, object]) -> str:
    """The module Cython compiles: the generated module inside `_bind(<names>)`, which
    returns its functions by name. `names` are the module globals the Python backend runs
    it with (those it defines itself, and `__builtins__`, aside)."""
    functions = _DEF.findall(python_source)
    parameters = ", ".join(sorted(set(names) - set(functions) - {"__builtins__"}))
    body = "".join(f"    {line}\n" if line else "\n" for line in python_source.splitlines())
    table = ", ".join(f"{name!r}: {name}" for name in functions)
    return (f"def _bind({parameters}):  # gdl native backend: one call per game\n"
            f"{body}    return {{{table}}}\n")


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
        text = native_source(source, namespace)
        module, reason = native_cache.module(text)
        if module is not None:
            filename = f"{NATIVE_PREFIX}{module.__name__}>"
            game._sources[filename] = _Shifted(lines, 1)
            bound: dict[str, Callable[..., Any]] = module._bind(**namespace)
            return bound
    assert reason is not None
    tell_fallback(reason, backend)
    return None


class _Shifted:
    """A generated module's places, seen from the native source (one line further down)."""

    def __init__(self, lines: Source, shift: int) -> None:
        self._lines = lines
        self._shift = shift

    def place_of(self, line: int, start: int, end: int) -> object:
        return self._lines.place_of(line - self._shift, start, end)



def backend_of(game: Game) -> str:
    """Which backend runs `game`'s rules: "native" or "python"."""
    backend: str = game._backend
    return backend
