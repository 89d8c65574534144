"""gdl interpreter: parse, check, compile and run board games written in the gdl language.

Pipeline: text -> parser (Lark) -> ast -> checker -> compiler -> engine. Entry points:
`load_game(path)` and `load_source(text, path)` return a runnable `engine.Game`.
"""

from .errors import GdlError
from .loader import load_game, load_source

__all__ = ["GdlError", "load_game", "load_source"]
