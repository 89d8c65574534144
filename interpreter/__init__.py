"""gdl interpreter: parse, check, compile and run board games written in the gdl language.

Pipeline: text -> parser (Lark) -> ast -> checker -> compiler -> engine. Entry points:
`load_game(path)` and `load_source(text, path)` return a runnable `engine.Game`.

The folders are the stages, and imports run one way (tests/test_layout.py checks it):
`language/` (text -> checked program), `runtime/` (checked program -> running game),
`play/` (agents, the game loop, simulation, transcripts, scenarios) and `bridges/` (the
games offered to OpenSpiel and PettingZoo, optional extras). `loader` joins the language and
the runtime; play and the bridges use the runtime, the runtime uses the language, never
back.

The pipeline is imported on first use of `load_game` or `load_source` (PEP 562), so a
program that needs only a part of the package (the errors, the agents) does not pay for
the rest.
"""

from typing import TYPE_CHECKING

from .language.errors import GdlError

if TYPE_CHECKING:
    from .loader import load_game, load_source

__all__ = ["GdlError", "load_game", "load_source"]


def __getattr__(name: str) -> object:
    if name in ("load_game", "load_source"):
        from . import loader
        value = getattr(loader, name)
        globals()[name] = value     # later look-ups find it without this function
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:

    return sorted(set(globals()) | set(__all__))
