"""Highlighting rule files: one table of token patterns, read by the Pygments lexer
(`pygments_lexer.GdlLexer`) and written out as the TextMate grammar of the VS Code extension
(`textmate_grammar`, saved by `scripts/regenerate_textmate.py` in
`editors/vscode/syntaxes/gdl.tmLanguage.json`).

The words come from the grammar (`parser.grammar_words`) and the built-ins' table, so a
declaration added to the grammar is highlighted without a change here. A regular expression
cannot know what the LALR parser knows: a word of the grammar is also a name where the
grammar expects one (`var seat.home`, `for s in seats`, `action end()`). The patterns read
a word as a name after or before a `.`, before `in` (a binder: `to in reach(...)`), before
`,` `)` `]` or an operator other than `-` (where the grammar never puts a keyword), and
after fn, def, phase or action; a declaration's word is a keyword only where a line begins.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TypeAlias

from ..language.builtins import BUILTINS
from ..language.checker import BUILTIN_VALUES
from ..language.parser import grammar_words

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
DEFINERS = ("fn", "def", "phase", "action")     # the words whose next name is being defined

Kinds: TypeAlias = "str | tuple[str, ...]"
"""What a pattern matches: one kind, or one kind per group."""

# kind -> (Pygments token type, TextMate scope)
KINDS: dict[str, tuple[str, str | None]] = {
    "whitespace": ("Whitespace", None),
    "comment": ("Comment.Single", "comment.line.number-sign.gdl"),
    "string": ("String.Double", "string.quoted.double.gdl"),
    "cell": ("String.Symbol", "constant.other.cell.gdl"),
    "number": ("Number.Integer", "constant.numeric.integer.gdl"),
    "declaration": ("Keyword.Declaration", "storage.type.gdl"),
    "keyword": ("Keyword", "keyword.control.gdl"),
    "operator_word": ("Operator.Word", "keyword.operator.word.gdl"),
    "constant": ("Keyword.Constant", "constant.language.gdl"),
    "builtin": ("Name.Builtin", "support.function.builtin.gdl"),
    "builtin_value": ("Name.Builtin.Pseudo", "variable.language.gdl"),
    "definition": ("Name.Function", "entity.name.function.gdl"),
    "field": ("Name.Attribute", "variable.other.member.gdl"),
    "name": ("Name", "variable.other.gdl"),
    "operator": ("Operator", "keyword.operator.gdl"),
    "punctuation": ("Punctuation", "punctuation.separator.gdl"),
}


@functools.lru_cache(maxsize=None)
def words() -> dict[str, tuple[str, ...]]:
    """Every word class highlighted: the grammar's (see `parser.grammar_words`), "builtin"
    (the built-in functions) and "builtin_value" (me, current, seats, ...)."""
    found: dict[str, tuple[str, ...]] = dict(grammar_words())
    found["builtin"] = tuple(sorted(BUILTINS))
    found["builtin_value"] = tuple(sorted(("me",) + BUILTIN_VALUES))
    return found


def _any(names: Iterable[str]) -> str:
    return r"\b(?:" + "|".join(sorted(names, key=lambda w: (-len(w), w))) + r")\b"


@functools.lru_cache(maxsize=None)
def patterns() -> list[tuple[str, Kinds]]:
    """[(regular expression, kind or a tuple of kinds, one per group)], tried in order at
    each position; what none matches is an error."""
    w = words()
    keywords = w["statement"] + w["keyword"]
    return [
        (r"\n", "whitespace"),
        (r"^([ \t]*)(" + _any(w["declaration"]) + r")(?![ \t]*\.)",
         ("whitespace", "declaration")),
        (r"[ \t\r]+", "whitespace"),
        (r"#.*$", "comment"),
        (r'"[^"\n]*"', "string"),
        (r"@[A-Za-z]+[0-9]+", "cell"),
        (r"[0-9]+", "number"),
        (r"(?<=\.)" + NAME, "field"),
        (r"(" + _any(DEFINERS) + r")([ \t]+)(" + NAME + ")",
         ("declaration", "whitespace", "definition")),
        (NAME + r"(?=\s*\.)", "name"),
        (r"(?!not\b)" + NAME + r"(?=[ \t]+in\b)", "name"),
        (_any(w["quantifier"] + w["builtin"]) + r"(?=\s*\()", "builtin"),
        (_any(w["constant"]), "constant"),
        (NAME + r"(?=[ \t]*(?:[,)\]]|[=!<>+*/%]))", "name"),
        (_any(w["operator"]), "operator_word"),
        (_any(keywords), "keyword"),
        (_any(w["builtin_value"]), "builtin_value"),
        (NAME, "name"),
        (r"==|!=|<=|>=|\+=|-=|[-+*/%<>=]", "operator"),
        (r"[(){}\[\],.:]", "punctuation"),
    ]


def textmate_grammar() -> dict[str, object]:
    """The TextMate grammar (a JSON-ready dict) of the same patterns."""
    out: list[dict[str, object]] = []

    for regex, kinds in patterns():
        if kinds == "whitespace":
            continue
        if isinstance(kinds, str):
            out.append({"match": regex, "name": KINDS[kinds][1]})
            continue
        captures = {str(i): {"name": KINDS[kind][1]} for i, kind in enumerate(kinds, 1)
                    if KINDS[kind][1] is not None}
        out.append({"match": regex, "captures": captures})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "gdl",
        "scopeName": "source.gdl",
        "fileTypes": ["gdl"],
        "comment": "Generated by scripts/regenerate_textmate.py from the gdl grammar; do not "
                   "edit by hand.",
        "patterns": out,
    }
