"""What every node of the AST and of the resolved program shares: a source span, attrs'
frozen-class behaviour, and the one generic child traversal every walker uses.

A node class is an `attrs.frozen` class (slots, immutable, equality and hash by its fields)
derived from `Node`, which gives it a keyword-only `span` that equality, hashing and repr
leave out, so two parses of one text compare equal wherever they came from. `children` and
`walk` find the nodes below a node by its fields: a field holding a `Node`, or a tuple of
them, is a child; anything else (numbers, names, static types, spans) is not.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs


@attrs.frozen
class Span:
    """Where a node is in its source file (1-based; an end of 0 is unknown); `lines` is the
    whole text split in lines, so a message can quote the line."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0
    lines: tuple[str, ...] = attrs.field(repr=False, eq=False, default=())

    @property
    def source_line(self) -> str | None:
        if 1 <= self.line <= len(self.lines):
            return self.lines[self.line - 1]
        return None

    @property
    def text(self) -> str:
        """The source text the node was parsed from, first line only."""
        line = self.source_line or ""
        end = self.end_column - 1 if self.end_line == self.line else len(line)
        return line[self.column - 1:end].strip()


@attrs.frozen
class Node:
    """The base of every node: where it came from (None for a node made by a tool)."""

    span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that can hold nodes: all but the spans (`span`, and a
    name's `name_span` and the like) and a static `type`."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in attrs.fields(cls) if f.name not in ("span", "type")
                      and not f.name.endswith(("_span", "_spans")))
        _CHILD_FIELDS[cls] = names
    return names


def children(node: Node) -> Iterator[Node]:
    """The nodes directly below `node`, in field order."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item
        elif isinstance(value, Node):
            yield value


def walk(node: Node) -> Iterator[Node]:
    """`node` and every node below it (depth first; a node's children are visited last
    first)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))
