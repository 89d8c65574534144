"""The look a rule file gives its pictures and its terminal drawing.

Colours: a text a `show colour` rule gives (a colour word, `#rgb` or `#rrggbb`) as
`#rrggbb`, or None when the text names no colour. The checker reads this table to refuse a
written colour that is none; the pictures and the terminal read it to paint seats, cells and
badges (`seat_colours`: every seat's colour in a view).

The key: what the marks a `show piece` rule adds (`if p.shaken then "!" else ""`) and what a
`show badge` rule's number tell, worked out from the rules as written (`mark_notes`,
`badge_note`), so the key explains them.

Shapes: the SVG files a `show shape` rule names, read from beside the rule file (never
outside its folder), at most MAX_SHAPE bytes, and kept only in what a picture may draw:
plain shapes with plain attributes, no script, no event handler, no link, no style sheet
(`read_shape`). The checker puts all of it in a `Look`, which the description of the rules
carries to the drawings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.etree import ElementTree

import attrs

from . import ast
from .errors import GdlRuleError, error_at

# The colour words, each as the pictures paint it (chosen to read well under black or white
# text; a seat named after one of them is painted in it without any `show colour`).
NAMED: dict[str, str] = {
    "red": "#d1372f", "blue": "#2a64c5", "green": "#22904a", "yellow": "#e8b400",
    "orange": "#ee7b1a", "purple": "#8446c1", "black": "#2b2b2b", "white": "#f4f4f4",
    "pink": "#e0609a", "brown": "#8b5a2b", "cyan": "#17a2b8", "grey": "#7f7f7f",
    "gray": "#7f7f7f", "teal": "#1f8a84", "violet": "#a05ad6", "gold": "#c9a227",
    "silver": "#b8bcc2", "crimson": "#a8192e", "navy": "#23397a", "olive": "#7a7f2a",
}
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def colour_of(text: str) -> str | None:
    """`text` as `#rrggbb` (a colour word in any case, `#rgb` or `#rrggbb`), or None."""
    named = NAMED.get(text.strip().lower())
    if named is not None:
        return named
    if _HEX.fullmatch(text.strip()):
        digits = text.strip()[1:].lower()
        return "#" + ("".join(c + c for c in digits) if len(digits) == 3 else digits)
    return None


def colour_words() -> str:
    """The colour words, for a message: 'red, blue, ..., navy or olive'."""
    words = [w for w in NAMED if w != "gray"]
    return ", ".join(words[:-1]) + " or " + words[-1]


# A seat is drawn in its `show colour`; else a seat named after a colour in that colour; the
# others take the palette in order.
PALETTE = ("#2a64c5", "#d1372f", "#22904a", "#ee7b1a", "#8446c1", "#17a2b8", "#e0609a",
           "#8b5a2b")


def seat_colours(seats: Sequence[str], view: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Seat name -> colour, the seats in order: the colour the view's `show colour` gives a
    seat, else a seat named after a colour is drawn in it, the others in the palette."""
    colours: dict[str, str] = {}
    shown: Iterable[Mapping[str, Any]] = (view or {}).get("seats", ())
    for seat in shown:
        chosen = colour_of(seat.get("colour", ""))
        if chosen is not None:
            colours[seat["name"]] = chosen
    for name in seats:
        named = NAMED.get(name.lower())
        if name not in colours and named is not None and named not in colours.values():
            colours[name] = named
    for name in seats:
        if name not in colours:
            colours[name] = next((c for c in PALETTE if c not in colours.values()),
                                 PALETTE[len(colours) % len(PALETTE)])
    return colours


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as its three numbers."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = rgb(colour)
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def tint(colour: str, ground: str, opacity: float) -> str:
    """`colour` laid with `opacity` over `ground`, as `#rrggbb`."""
    mixed = (round(opacity * c + (1 - opacity) * g) for c, g in zip(rgb(colour), rgb(ground)))
    return "#" + "".join(f"{c:02x}" for c in mixed)


# ----- the key --------------------------------------------------------------------------------

@attrs.frozen
class Shape:
    """An SVG file a `show shape` rule names, as a picture draws it: its view box and its
    elements, kept to plain shapes."""
    view_box: str
    body: str


@attrs.frozen
class Look:
    """What the drawings need of the rules beyond the views: what each mark a `show piece`
    rule adds tells (`"!"` -> `"shaken"`), what a `show badge` number is (`"models"`), and
    the shapes a `show shape` rule names (the name as written -> the shape)."""
    marks: Mapping[str, str] = attrs.Factory(dict)
    badge: str | None = None
    shapes: Mapping[str, Shape] = attrs.Factory(dict)


def mark_notes(expr: ast.Expr, param: str) -> dict[str, str]:
    """Each mark a `show piece` rule adds under a condition (`if p.damage > 0 then "!" else
    ""`) -> the condition in words (`damage`), for those it can put in words."""
    notes: dict[str, str] = {}
    for node in ast.walk(expr):
        if not isinstance(node, ast.CondExpr):
            continue
        then, otherwise = node.then, node.otherwise
        if isinstance(then, ast.String) and then.value and _empty(otherwise):
            words = _words(node.cond, param)
        elif isinstance(otherwise, ast.String) and otherwise.value and _empty(then):
            then, words = otherwise, _words(ast.Not(node.cond), param)
        else:
            continue
        if words is not None and isinstance(then, ast.String):
            notes.setdefault(then.value, words)
    return dict(sorted(notes.items(), key=lambda item: _order(expr, item[0])))


def badge_note(expr: ast.Expr, param: str) -> str | None:
    """What a `show badge` rule's text counts: the values it writes with `text(...)` in
    words (`text(p.models)` -> `models`, `text(armor_left(p))` -> `armor left`), else None."""
    found: list[str] = []
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and node.name == "text" and len(node.args) == 1:
            words = _words(node.args[0], param)
            if words is not None and words not in found:
                found.append(words)
    return " or ".join(reversed(found)) or None


def _empty(expr: ast.Expr) -> bool:
    return isinstance(expr, ast.String) and not expr.value


def _order(expr: ast.Expr, mark: str) -> tuple[int, int]:
    """Where a mark is written in the rule, so that the key lists them in that order."""
    for node in ast.walk(expr):
        if isinstance(node, ast.String) and node.value == mark and node.span is not None:
            return node.span.line, node.span.column
    return 0, 0


def _words(expr: ast.Expr, param: str) -> str | None:
    """A condition or value of the piece `param` in a player's words: `p.shaken` ->
    `shaken`, `p.damage > 0` -> `damage`, `armor_left(p)` -> `armor left`, `not p.x` -> `not
    x`, `p.hp < 2` -> `hp < 2`; None when it is not one of these."""
    if isinstance(expr, ast.Field) and isinstance(expr.obj, ast.Name) and \
            expr.obj.name == param:
        return expr.name.replace("_", " ")
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and \
            isinstance(expr.args[0], ast.Name) and expr.args[0].name == param:
        return expr.name.replace("_", " ")
    if isinstance(expr, ast.Not):
        inner = _words(expr.operand, param)
        return None if inner is None else f"not {inner}"
    if isinstance(expr, (ast.And, ast.Or)):
        first, second = _words(expr.left, param), _words(expr.right, param)
        word = " and " if isinstance(expr, ast.And) else " or "
        return None if first is None or second is None else first + word + second
    if isinstance(expr, ast.Compare):
        left = _words(expr.left, param)
        right = expr.right
        if left is None or not isinstance(right, (ast.Number, ast.Name, ast.String)):
            return None
        if isinstance(right, ast.Number) and (expr.op, right.value) in (
                (">", 0), ("!=", 0), (">=", 1)):
            return left         # `p.damage > 0`: it has some
        value = right.name if isinstance(right, ast.Name) else right.value
        return f"{left} {expr.op} {value}"
    return None


# ----- shapes ---------------------------------------------------------------------------------

MAX_SHAPE = 32_768      # bytes of a shape's SVG file: a symbol, not a picture

# What a shape may hold: plain shapes and groups, and of their attributes those that draw.
ELEMENTS = frozenset({"svg", "g", "path", "circle", "ellipse", "rect", "line", "polyline",
                      "polygon"})
ATTRIBUTES = frozenset({
    "d", "cx", "cy", "r", "rx", "ry", "x", "y", "width", "height", "x1", "y1", "x2", "y2",
    "points", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
    "stroke-dasharray", "opacity", "fill-opacity", "stroke-opacity", "fill-rule",
    "transform"})
# An attribute's value: numbers, words, colours and transforms; nothing that can link
# (`url(...)`, `javascript:`) or escape the attribute.
_VALUE = re.compile(r"[-\w\s#.,%+()]*")
_LINKS = re.compile(r"url|script|data|:", re.IGNORECASE)
_SVG = "{http://www.w3.org/2000/svg}"


def shape_names(expr: ast.Expr) -> list[ast.String]:
    """The texts a `show shape` rule names as written (its literal texts but the empty one):
    the files the checker reads."""
    return [node for node in ast.walk(expr) if isinstance(node, ast.String) and node.value]


def read_shape(name: ast.String) -> Shape:
    """The shape of the SVG file `name` names, beside the rule file the text is written in;
    a GdlRuleError at the text when it names no such file, a file outside the rule file's
    folder, or no SVG a picture may draw."""
    text = name.value

    def refuse(why: str) -> GdlRuleError:
        return error_at(GdlRuleError, f"'show shape' file \"{text}\" {why}", name.span)

    parts = re.split(r"[/\\]", text)
    if os.path.isabs(text) or text.startswith(("/", "\\")) or ".." in parts or \
            re.match(r"[A-Za-z]:", text):
        raise refuse("must be a path inside the rule file's folder (no absolute path, "
                     "no '..')")
    if not text.lower().endswith(".svg"):
        raise refuse("must be an SVG file (a name ending in .svg)")
    span_file = name.span.file if name.span is not None else ""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(span_file)))
    path = os.path.realpath(os.path.join(folder, *parts))
    if os.path.commonpath([folder, path]) != folder:
        raise refuse("leads outside the rule file's folder")
    if not os.path.isfile(path):
        raise refuse("is not a file beside the rule file")
    if os.path.getsize(path) > MAX_SHAPE:
        raise refuse(f"is larger than {MAX_SHAPE:,} bytes: a shape is a small symbol")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SHAPE + 1)
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror})") from None
    if re.search(rb"<!(DOCTYPE|ENTITY)", data, re.IGNORECASE):
        raise refuse("declares a DOCTYPE or entities, which a shape may not")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise refuse(f"is not well-formed SVG ({exc})") from None
    if root.tag not in ("svg", _SVG + "svg"):
        raise refuse("is not an SVG file (its root is not <svg>)")
    box = root.get("viewBox") or f"0 0 {root.get('width', '100')} {root.get('height', '100')}"
    if not re.fullmatch(r"[-\d.eE]+([\s,]+[-\d.eE]+){3}", box.strip()):
        raise refuse(f"has a view box that is not four numbers: \"{box}\"")
    body = "".join(_kept(child) for child in root)
    if not body:
        raise refuse("draws nothing a shape may hold (paths, circles, ellipses, rects, "
                     "lines, polylines, polygons and groups)")
    return Shape(" ".join(box.replace(",", " ").split()), body)


def _kept(element: ElementTree.Element) -> str:
    """An element written again with only what a picture may draw: an element of another
    kind (a script, a link, text, an image) is left out with all it holds, an attribute of
    another name (an event handler, a link, a style) or with a value that might link is
    dropped."""
    tag = element.tag.removeprefix(_SVG) if isinstance(element.tag, str) else ""
    if tag not in ELEMENTS or tag == "svg":
        return ""
    kept = [(key, value) for key, value in element.attrib.items()
            if key in ATTRIBUTES and _VALUE.fullmatch(value) and not _LINKS.search(value)]
    attributes = "".join(f' {key}="{value}"' for key, value in kept)
    inner = "".join(_kept(child) for child in element)
    return f"<{tag}{attributes}>{inner}</{tag}>" if inner else f"<{tag}{attributes}/>"
