"""The Pygments lexer of rule files, registered for `*.gdl` through the `pygments.lexers`
entry point (`pygmentize -l gdl FILE`, `pygmentize FILE.gdl`, and any documentation tool
that uses Pygments). Needs Pygments: `pip install -e '.[highlight]'`. The patterns are
`highlight.patterns()`, shared with the TextMate grammar."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import string_to_tokentype

from .highlight import KINDS, Kinds, patterns


def _action(kinds: Kinds) -> object:
    """The Pygments token type of a pattern, or its callback giving one per group."""
    if isinstance(kinds, str):
        return string_to_tokentype(KINDS[kinds][0])
    return bygroups(*(string_to_tokentype(KINDS[kind][0]) for kind in kinds))


class GdlLexer(RegexLexer):  # type: ignore[misc]  # Pygments has no type information

    """Rule files of gdl, the board-game rules language."""

    name = "gdl"
    aliases = ["gdl"]
    filenames = ["*.gdl"]
    mimetypes = ["text/x-gdl"]
    tokens = {"root": [(regex, _action(kinds)) for regex, kinds in patterns()]}
