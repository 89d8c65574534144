"""Concrete syntax tree: a rule file exactly as written, for the tools that work on its text
(the formatter, the highlighter's keyword list, the language server's positions).

`parser.parse_concrete` builds it from the same grammar as the AST: every node is named after
its grammar rule and keeps every token, the keywords and punctuation included, with its
position; the comments, which the grammar ignores, come beside the tree in file order. The
interpreter itself never reads this tree: it runs from the AST.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Token:
    """One token: its terminal's name (`NAME`, `LBRACE`, `PHASE`, ... or `COMMENT`), its text,
    and where it starts and ends (1-based lines and columns; the end column is one past the
    last character)."""

    kind: str
    text: str
    line: int
    column: int
    end_line: int
    end_column: int


@attrs.frozen
class Node:
    """A grammar rule's match: `rule` is its name (after any `-> alias`), `children` its
    tokens and sub-nodes in source order."""

    rule: str
    children: tuple[Token | Node, ...]


@attrs.frozen
class ConcreteTree:
    """A whole file: the tree of its declarations and its comments in file order."""

    root: Node
    comments: tuple[Token, ...]


def tokens(node: Node) -> list[Token]:
    """Every token under `node`, in source order."""
    out: list[Token] = []
    stack: list[Token | Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            out.append(item)
        else:
            stack.extend(reversed(item.children))
    return out


def first_token(node: Token | Node) -> Token | None:
    """The first token under `node` (or `node` itself when it is one); None when empty."""
    while isinstance(node, Node):
        if not node.children:
            return None
        node = node.children[0]
    return node
