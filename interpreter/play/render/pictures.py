"""Pictures: a view drawn as SVG, for `gdl show --svg` and the pages of `gdl replay --html`.

In: a game, for what every seat knows of it (the board, its terrain, the piece kinds and the
seats), and a view (`game.view(state, viewer)`), the only source of what the pieces are: a
seat's picture cannot show what its view hides. Out: SVG text, the same bytes for the same
view (no clock, no random numbers, everything in a fixed order).

A picture is a frame and places. The frame never changes during a game: cells, terrain,
coordinates and the key. A place is where pieces can be: a cell (`c:b2`), a zone off the
board (`z:hand of red`, and `z:off the board` for pieces in none), or the label of a row
(`r:3`, from `show row`); the sides `show side` marks are the place `s:`, drawn from the
picture's corner as the key (`k:`) is. `places(game, view)` gives each occupied place's
fragment, an SVG group drawn around (0, 0) for a cell and from its top-left corner for a
zone; `Layout.position` says where each goes. `picture` puts them together; the replay page sends
each distinct fragment once and places them the same way in the browser, so both draw with
this one module.
"""

from __future__ import annotations

import math
from html import escape

from ...files import PICTURE_MARK
from ...language.boards import column_name
from ...language.look import ink as _ink, seat_colours
from ...runtime import introspect
from ...runtime.view import HIDDEN, drawn_mark, lettered, piece_name, seat_marks, sides_of, \
    status_lines, title

SQUARE = 48             # px, a side of a square cell
HEX = 32                # px, from the centre of a hex to a corner
INCH = 16               # px, an inch of a table
PAD = 28                # px around the board, for its coordinates
ZONE_W, ZONE_H = 304, 60
ZONE_TOKENS = 9         # tokens a zone's box shows; more are counted as "+N"
ZONE_RADIUS = 13        # px, a token in a zone
MORE_LABELS = 12        # labels a "+N" names in its tooltip
LINE = 18               # px, a line of text
MIN_FONT = 11           # px, the smallest text on a piece: what a stack's numbers need
MIN_WIDTH = 560         # px, the narrowest picture (room for the key and the zones)
CHAR = 6.8              # px, the width of a character of 12px text, as an estimate
BOLD = 8.2              # px, the same in bold
KEY_MARK = 3            # characters of room for a kind's marks in the key (`show piece`)
OFF_BOARD = "off the board"

NEUTRAL = "#a3a3a3"     # pieces of no seat
SIDE = "#5a3b1c"        # a side of a cell `show side` marks
TERRAIN = ("#f3d57a", "#9cc3e6", "#b2d89a", "#dfa7c3", "#c6c6c6", "#f5b98a", "#bfb3e0")
GROUND = {"square": "#f6f5ef", "hex": "#f6f5ef", "table": "#e9efe1"}

STYLE = """
svg{font-family:'DejaVu Sans',Verdana,sans-serif}
.cell{stroke:#b9b7ac;stroke-width:1}
.grid{stroke:#cdd6c2;stroke-width:.6}.grid6{stroke:#a6b39a;stroke-width:1.2}
.co{font-size:11px;fill:#6c6a60;text-anchor:middle;dominant-baseline:central}
.tm{fill:#6c6a60;text-anchor:middle;dominant-baseline:central;opacity:.75}
.pc>circle,.pc>rect{stroke:#1d1d1d;stroke-width:1.2}
.pc text{text-anchor:middle;dominant-baseline:central;font-weight:bold}
.pc .nm{font-size:75%;font-weight:normal}
.hid>circle{stroke-dasharray:3 2}
.bd rect{fill:#fff;stroke:#1d1d1d;stroke-width:.8}
.bd text{fill:#1d1d1d;font-weight:bold;text-anchor:middle;dominant-baseline:central}
.own{stroke:#b9b7ac;stroke-width:1}
.more circle{fill:#fff}.more text{fill:#1d1d1d}
.zb{fill:#fbfaf5;stroke:#b9b7ac}.zt{font-size:12px;fill:#3a3935}
.rl{font-size:12px;fill:#3a3935;dominant-baseline:central}
.key{font-size:12px;fill:#3a3935;dominant-baseline:central}
.ttl{font-size:15px;font-weight:bold;fill:#1d1d1d}
.st{font-size:12px;fill:#3a3935;white-space:pre}
"""


def _n(x):
    """A coordinate as short text: at most one decimal, no trailing zeros."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Sheet:
    """Where a board's cells are drawn: its kind, size in px, cell centres and outlines, and
    the radius of a piece standing alone on a cell."""

    def __init__(self, board):
        self.board = board
        self.kind = board.kind
        if self.kind == "hex":
            self.across = HEX * math.sqrt(3)          # a hex from flat side to flat side
            self.board_w = HEX * (1.5 * (board.width - 1) + 2)
            self.board_h = self.across * (board.height + (0.5 if board.width > 1 else 0))
            self.radius = 0.36 * self.across
        else:
            self.unit = INCH if self.kind == "table" else SQUARE
            self.board_w = board.width * self.unit
            self.board_h = board.height * self.unit
            self.radius = 0.9 * INCH if self.kind == "table" else 0.4 * SQUARE
        self.width = self.board_w + 2 * PAD
        self.height = self.board_h + 2 * PAD
        self.room = max(self.width, MIN_WIDTH)      # width for the key and the zones

    def centre(self, cell):
        column, row = self.board.coords(cell)
        if self.kind == "hex":        # row 1 on top; odd-q: columns b, d, ... half a hex down
            return (PAD + HEX + 1.5 * HEX * column,
                    PAD + self.across * (row + 0.5 + 0.5 * (column & 1)))
        return (PAD + self.unit * (column + 0.5),
                PAD + self.unit * (self.board.height - row - 0.5))    # row 1 at the bottom

    def outline_at_centre(self, fill):
        """A cell's outline around (0, 0) in a seat's colour, tinted: a cell `show cell`
        gives that seat."""
        return self._shape(0, 0, "own", fill, ' fill-opacity=".6"')

    def outline(self, cell, fill, css="cell"):
        x, y = self.centre(cell)
        return self._shape(x, y, css, fill)

    def _shape(self, x, y, css, fill, more=""):
        """A cell's hexagon or square centred on (x, y)."""
        if self.kind == "hex":
            corners = " ".join(f"{_n(x + HEX * math.cos(math.pi * k / 3))},"
                               f"{_n(y + HEX * math.sin(math.pi * k / 3))}" for k in range(6))
            return f'<polygon class="{css}" points="{corners}" fill="{fill}"{more}/>'
        half = self.unit / 2
        return (f'<rect class="{css}" x="{_n(x - half)}" y="{_n(y - half)}" '
                f'width="{_n(self.unit)}" height="{_n(self.unit)}" fill="{fill}"{more}/>')


def frame(game, sheet):
    """The parts of a picture that no move changes: the board's cells, its terrain with its
    marks, the coordinates, and under the board a key of the seats' colours, the terrain and
    the piece marks. Returns (svg, height in px)."""
    board = sheet.board
    out = []
    terrain = {}
    for index, (name, (cells, symbol)) in enumerate(game.rules.terrain.items()):
        fill = TERRAIN[index % len(TERRAIN)]
        for cell in cells:
            terrain[cell] = (fill, symbol)
    ground = GROUND.get(sheet.kind, GROUND["square"])
    if sheet.kind == "table":
        out.append(f'<rect x="{PAD}" y="{PAD}" width="{_n(sheet.board_w)}" '
                   f'height="{_n(sheet.board_h)}" fill="{ground}" stroke="#8a9a7a"/>')
        out.extend(sheet.outline(cell, fill, "tr") for cell, (fill, _) in sorted(terrain.items()))
        out.extend(_table_grid(sheet))
    else:
        out.extend(sheet.outline(cell, terrain.get(cell, (ground,))[0])
                   for cell in board.all_cells)
        size = _n(min(SQUARE, sheet.radius * 2) * 0.55)
        for cell, (_, symbol) in sorted(terrain.items()):
            if isinstance(symbol, str) and symbol:
                x, y = sheet.centre(cell)
                out.append(f'<text class="tm" x="{_n(x)}" y="{_n(y)}" '
                           f'font-size="{size}">{escape(symbol)}</text>')
    out.extend(_coordinates(sheet))
    return "\n".join(out), sheet.height + _key_layout(game, sheet, None)[1]


def _table_grid(sheet):
    """Lines every inch, stronger every six, as a measuring mat has them."""
    lines = []
    for column in range(1, sheet.board.width):
        x = PAD + column * INCH
        css = "grid6" if column % 6 == 0 else "grid"
        lines.append(f'<line class="{css}" x1="{x}" y1="{PAD}" x2="{x}" '
                     f'y2="{_n(PAD + sheet.board_h)}"/>')
    for row in range(1, sheet.board.height):
        y = PAD + sheet.board_h - row * INCH
        css = "grid6" if row % 6 == 0 else "grid"
        lines.append(f'<line class="{css}" x1="{PAD}" y1="{_n(y)}" '
                     f'x2="{_n(PAD + sheet.board_w)}" y2="{_n(y)}"/>')
    return lines


def _coordinates(sheet):
    """Column letters above and below the board, row numbers on its left."""
    board = sheet.board
    size = "" if sheet.kind != "table" else ' font-size="8px"'
    # a table's columns are too narrow for two letters each: every second one is named
    every = 2 if sheet.kind == "table" and board.width > 26 else 1
    out = []
    for column in range(0, board.width, every):
        x, _ = sheet.centre(column)
        for y in (PAD / 2, sheet.height - PAD / 2):
            out.append(f'<text class="co" x="{_n(x)}" y="{_n(y)}"{size}>'
                       f'{column_name(column)}</text>')
    for row in range(board.height):
        _, y = sheet.centre(board.at(0, row))
        out.append(f'<text class="co" x="{PAD / 2}" y="{_n(y)}"{size}>{row + 1}</text>')
    return out


def key(game, sheet, view):
    """The key under the board, drawn from the view (the seats' colours, the marks its
    pieces show): the place `k:`."""
    return _key_layout(game, sheet, view)[0]


def _key_layout(game, sheet, view):
    """(the key's svg, its height), wrapped to the board's width: the same places whatever
    the view (the frame keeps its room), the view giving only the seats' colours and the
    kinds' marks. A kind's mark has the room of its `symbol`, or of KEY_MARK characters when
    the rule file declares `show piece`: its marks on the board may differ (a kind whose
    pieces face a direction reads `^/>/v NAME`)."""
    colours = seat_colours(game.seats, view)
    items = [(f'<circle r="6" fill="{colours[s]}" stroke="#1d1d1d"/>', 12, s)
             for s in game.seats]
    if game.rules.ownerless:    # only when the rules may make a piece of no seat
        items.append((f'<rect x="-6" y="-6" width="12" height="12" rx="3" fill="{NEUTRAL}" '
                      'stroke="#1d1d1d"/>', 12, "no seat"))
    for index, (name, (_, symbol)) in enumerate(game.rules.terrain.items()):
        mark = f" {symbol}" if isinstance(symbol, str) and symbol else ""
        items.append((f'<rect x="-6" y="-6" width="12" height="12" '
                      f'fill="{TERRAIN[index % len(TERRAIN)]}" stroke="#b9b7ac"/>', 12,
                      f"{name}{mark}"))
    shown = _kind_marks(view) if view is not None else {}
    least = KEY_MARK if "piece" in game.rules.shows else 1
    shapes = _kind_shapes(view, game.rules.look.shapes) if view is not None else {}
    for kind, stats in game.rules.kinds.items():
        if kind in shapes:      # the shape its pieces are drawn in, in the mark's room
            width = BOLD * max(len(stats.get("symbol") or "?"), least)
            items.append((f'<svg x="{_n(width - 22)}" y="-7" width="14" height="14" '
                          f'viewBox="{shapes[kind].view_box}" fill="#1d1d1d" '
                          f'color="#1d1d1d">{shapes[kind].body}</svg>', width, kind))
        elif isinstance(stats.get("symbol"), str):
            mark = shown.get(kind) or stats["symbol"]
            width = BOLD * max(len(stats["symbol"]), least)
            # a longer mark than the room kept for it is pressed into that room
            fit = (f' textLength="{_n(width - 4)}" lengthAdjust="spacingAndGlyphs"'
                   if len(mark) > width / BOLD else "")
            # right-aligned: a short mark stands next to its kind's name
            items.append((f'<text class="key" x="{_n(width - 8)}" y="0" text-anchor="end" '
                          f'font-weight="bold"{fit}>{escape(mark)}</text>', width, kind))
    look = game.rules.look
    for mark, words in look.marks.items():      # what a mark `show piece` adds tells
        width = BOLD * max(len(mark), 1)
        items.append((f'<text class="key" x="{_n(width - 8)}" y="0" text-anchor="end" '
                      f'font-weight="bold">{escape(mark)}</text>', width, words))
    if look.badge is not None:                  # what a `show badge` number is
        items.append((_badge("N", 9, -6.48, 6.48), 12, look.badge))
    if "side" in game.rules.shows:              # what the thick lines between cells are
        items.append((f'<path stroke="{SIDE}" stroke-width="3" stroke-linecap="square" '
                      'd="M-7 0h14"/>', 12, "a marked side"))
    width = sheet.room - 2 * PAD
    x, y = PAD, sheet.height + 6
    out = ['<g class="keys">']
    for swatch, mark_width, text in items:
        room = 10 + mark_width + CHAR * len(text) + 14
        if x + room > width + PAD and x > PAD:
            x, y = PAD, y + LINE + 2
        out.append(f'<g transform="translate({_n(x + 6)},{_n(y)})">{swatch}'
                   f'<text class="key" x="{_n(mark_width)}" y="0">{escape(text)}</text></g>')
        x += room
    out.append("</g>")
    return "".join(out), y - sheet.height + LINE


def _kind_shapes(view, shapes):
    """Kind -> the shape the first of its pieces on the board that has one is drawn in."""
    found = {}
    for piece in view["pieces"]:
        if piece["cell"] is not None and piece.get("shape") in shapes:
            found.setdefault(piece["kind"], shapes[piece["shape"]])
    return found


def _kind_marks(view):
    """Kind -> the marks its pieces on the board show in the view, as the key writes them:
    up to three, `F/F!`, and `/...` when there are more."""
    used = {}
    for piece in view["pieces"]:
        if piece["cell"] is not None and piece["kind"] != HIDDEN:
            seen = used.setdefault(piece["kind"], [])
            mark = piece.get("mark") or piece["kind"][:1]
            if mark not in seen:
                seen.append(mark)
    return {kind: "/".join(marks[:3]) + ("/..." if len(marks) > 3 else "")
            for kind, marks in used.items()}


def _number(label):
    """The piece's number in its label ('Piece#5' -> '5'), or ''."""
    head, sep, tail = label.rpartition("#")
    return tail if sep and tail.isdigit() else ""


def _tooltip(piece):
    """Label, owner and variables (not where: a piece drawn anywhere is the same fragment,
    which the replay page sends once)."""
    if piece["label"] == HIDDEN:
        return f"a piece of {piece['owner']} that this view hides"
    text = piece_name(piece)
    details = piece.get("status") or ", ".join(
        f"{k}={v}" for k, v in piece["vars"].items() if v not in ("0", "false", "none", "[]"))
    return text + (f": {details}" if details else "")


def token(piece, radius, x=0.0, y=0.0, colours=None, tinted=False, badged=True, shapes=None):
    """One piece: a disc in its owner's colour (a rounded square for a piece of no seat,
    see-through on a cell `show cell` tints, `tinted`) with its mark, or the shape its `show
    shape` names (of `shapes`, name -> `look.Shape`), and number, and (unless not `badged`:
    a stack draws them above all its pieces) its `show badge` text in a tag on its upper
    right; its label, kind and owner as data attributes, a tooltip."""
    owner = piece["owner"]
    hidden = piece["label"] == HIDDEN
    fill = NEUTRAL if owner == "none" else colours[owner]
    mark = HIDDEN if hidden else (piece.get("mark") or piece["kind"][:1])
    number = "" if hidden else _number(piece["label"])
    chars = max(1.0, len(mark) + 0.72 * len(number))
    size = max(MIN_FONT, min(1.05 * radius, 1.75 * radius / (0.64 * chars)))
    ink = _ink(fill)
    if owner == "none":
        side = _n(2 * radius * 0.9)
        # on a cell `show cell` tints, its colour shows through: whose territory it is
        paint = '"#fff" fill-opacity=".55"' if tinted else f'"{fill}"'
        ink = "#111" if tinted else ink
        shape = (f'<rect x="{_n(-radius * 0.9)}" y="{_n(-radius * 0.9)}" width="{side}" '
                 f'height="{side}" rx="{_n(radius * 0.3)}" fill={paint}/>')
    else:
        shape = f'<circle r="{_n(radius)}" fill="{fill}"/>'
    css = "pc hid" if hidden else "pc"
    place = f' transform="translate({_n(x)},{_n(y)})"' if x or y else ""
    # the number as a subscript, apart from a mark that may end in digits (`#14`, armour)
    numbered = f'<tspan class="nm" dy=".3em">{escape(number)}</tspan>' if number else ""
    drawn = (shapes or {}).get(piece.get("shape", "")) if not hidden else None
    if drawn is not None:       # the shape in the mark's place, in the mark's ink
        side = 1.3 * radius
        label = (f'<svg class="sh" x="{_n(-side / 2)}" y="{_n(-side / 2)}" width="{_n(side)}" '
                 f'height="{_n(side)}" viewBox="{drawn.view_box}" fill="{ink}" '
                 f'color="{ink}">{drawn.body}</svg>')
        if number:
            label += (f'<text font-size="{_n(max(MIN_FONT, 0.45 * radius))}" fill="{ink}" '
                      f'x="{_n(0.62 * radius)}" y="{_n(0.62 * radius)}">{escape(number)}</text>')
    else:
        label = f'<text font-size="{_n(size)}" fill="{ink}">{escape(mark)}{numbered}</text>'
    return (f'<g class="{css}" data-label="{escape(piece["label"])}" '
            f'data-kind="{escape(piece["kind"])}" data-owner="{escape(owner)}"{place}>'
            f'<title>{escape(_tooltip(piece))}</title>{shape}{label}'
            f'{_badge(piece.get("badge", ""), radius) if badged else ""}</g>')


def _badge(text, radius, x=0.0, y=0.0):
    """A piece's `show badge` text (models left, damage, armor) in a white tag on the upper
    right corner of the piece drawn at (x, y), never smaller than MIN_FONT; nothing for an
    empty text."""
    if not text:
        return ""
    size = max(MIN_FONT, 0.62 * radius)
    width = max(size * 1.15, 0.62 * size * len(text) + size * 0.5)
    height = size * 1.2
    x, y = x + 0.72 * radius, y - 0.72 * radius
    return (f'<g class="bd" transform="translate({_n(x)},{_n(y)})">'
            f'<rect x="{_n(-width / 2)}" y="{_n(-height / 2)}" width="{_n(width)}" '
            f'height="{_n(height)}" rx="{_n(height / 2)}"/>'
            f'<text font-size="{_n(size)}">{escape(text)}</text></g>')


def _more(count, labels, radius, x, y):
    """'+N': the pieces of a crowded place that are not drawn; their labels as a tooltip."""
    named = ", ".join(labels[:MORE_LABELS]) + (
        f" and {len(labels) - MORE_LABELS} more" if len(labels) > MORE_LABELS else "")
    return (f'<g class="pc more" transform="translate({_n(x)},{_n(y)})">'
            f'<title>{escape(named)}</title><circle r="{_n(radius)}"/>'
            f'<text font-size="{_n(radius * 0.95)}">+{count}</text></g>')


def stack(sheet, pieces, colours, tint=None, shapes=None):
    """The pieces of one cell, around (0, 0), in the order they arrived, on the cell's
    `show cell` colour (`tint`) if any: one fills the cell; two to four share it side by
    side, as large as the cell allows (their marks and numbers never under MIN_FONT), their
    badges above them all; of more, the last three are drawn and a '+N' counts the others."""
    radius = sheet.radius
    count = len(pieces)
    under = sheet.outline_at_centre(tint) if tint else ""
    if count == 0:
        return under
    if count == 1:
        return under + token(pieces[0], radius, colours=colours, tinted=bool(tint),
                             shapes=shapes)
    small, step = (0.72, 0.7) if count == 2 else (0.68, 0.62)
    small, step = small * radius, step * radius
    slots = {2: [(-step, 0), (step, 0)],
             3: [(-step, -0.8 * step), (step, -0.8 * step), (0, step)]}.get(
        count, [(-step, -step), (step, -step), (-step, step), (step, step)])
    body = [under, f'<g class="stack" data-count="{count}">']
    if count > 4:
        under = pieces[:count - 3]
        body.append(_more(len(under), [p["label"] for p in under], small, *slots[0]))
        pieces, slots = pieces[count - 3:], slots[1:]
    body.extend(token(p, small, x, y, colours, bool(tint), badged=False, shapes=shapes)
                for p, (x, y) in zip(pieces, slots))
    body.extend(_badge(p.get("badge", ""), small, x, y) for p, (x, y) in zip(pieces, slots))
    body.append("</g>")
    return "".join(body)


def side_lines(sheet, sides):
    """The sides of cells `show side` marks (`view.Side`s), drawn from the picture's corner
    as one path of thick lines on the cells' edges."""
    unit, height = sheet.unit, sheet.board.height
    steps = []
    for line, x, y in sorted(sides):
        if line == "v":         # between columns x - 1 and x, along row y
            steps.append(f"M{_n(PAD + unit * x)} {_n(PAD + unit * (height - y - 1))}v{unit}")
        else:                   # between rows y - 1 and y, along column x
            steps.append(f"M{_n(PAD + unit * x)} {_n(PAD + unit * (height - y))}h{unit}")
    return (f'<path class="sd" stroke="{SIDE}" stroke-width="{_n(max(2, unit / 8))}" '
            f'stroke-linecap="square" fill="none" d="{"".join(steps)}"/>')


def zone_box(name, pieces):
    """A zone's box, from (0, 0): its name, how many pieces it holds and, when they do not
    all fit in its row (each drawn as a place of its own, `zone_slot`), a '+N' for the
    rest."""
    body = [f'<g class="zone" data-zone="{escape(name)}" data-count="{len(pieces)}">'
            f'<rect class="zb" width="{ZONE_W}" height="{ZONE_H}" rx="6"/>'
            f'<text class="zt" x="8" y="16">{escape(name)}: {len(pieces)}</text>']
    if len(pieces) > ZONE_TOKENS:
        rest = pieces[ZONE_TOKENS - 1:]
        body.append(_more(len(rest), [p["label"] for p in rest], ZONE_RADIUS,
                          *zone_slot(ZONE_TOKENS - 1)))
    body.append("</g>")
    return "".join(body)


def zone_slot(index):
    """Where a zone's box draws its piece number `index` (from 0), from its corner."""
    return 8 + ZONE_RADIUS + index * (2 * ZONE_RADIUS + 6), 40


def places(game, view, sheet, memo=None):
    """Place -> its fragment, for every place the view has something on: cells in board
    order, then zones in the order the view lists their pieces, then row labels. `memo`, a
    dict kept from view to view, spares drawing again what was drawn before."""
    colours = seat_colours(game.seats, view)
    looks = tuple(colours.items())      # a drawing depends on the seats' colours too
    memo = {} if memo is None else memo
    view = _with_letters(view, seat_marks(game))
    shapes = game.rules.look.shapes
    owners = view.get("cells") or {}

    def stack_of(pieces, cell):
        owner = owners.get(cell)
        tint = colours.get(owner) if owner is not None else None
        key = ("stack", looks, tint, *map(_identity, pieces))
        if key not in memo:
            memo[key] = stack(sheet, pieces, colours, tint, shapes)
        return memo[key]

    def token_of(piece):
        key = ("zone", looks, _identity(piece))
        if key not in memo:
            memo[key] = token(piece, ZONE_RADIUS, colours=colours, shapes=shapes)
        return memo[key]

    board = sheet.board
    cells, zones = {}, {}
    for piece in view["pieces"]:
        if piece["cell"] is not None:
            cells.setdefault(board.parse(piece["cell"]), []).append(piece)
        else:
            zones.setdefault(piece.get("zone", OFF_BOARD), []).append(piece)
    for name in owners:
        cells.setdefault(board.parse(name), [])
    found = {f"c:{board.names[cell]}": stack_of(cells[cell], board.names[cell])
             for cell in sorted(cells)}
    sides = sides_of(board, view)
    if sides:                   # over the cells `show cell` tints, beside the pieces
        key_of_sides = ("sides", *sorted(sides))
        if key_of_sides not in memo:
            memo[key_of_sides] = side_lines(sheet, sides)
        found["s:"] = memo[key_of_sides]
    for name, pieces in zones.items():
        found[f"z:{name}"] = zone_box(name, pieces)
        shown = pieces if len(pieces) <= ZONE_TOKENS else pieces[:ZONE_TOKENS - 1]
        found.update((f"z:{name}|{i}", token_of(piece))
                     for i, piece in enumerate(shown))
    for row, label in enumerate(view.get("row_labels") or (), 1):
        if label:
            found[f"r:{row}"] = f'<text class="rl">{escape(label)}</text>'
    key_of = ("key", looks, tuple(_kind_marks(view).items()),
              tuple(_kind_shapes(view, shapes).items()))
    if key_of not in memo:
        memo[key_of] = key(game, sheet, view)
    found["k:"] = memo[key_of]
    return found


def _with_letters(view, letters):
    """The view with each piece drawn by its seat's letter alone (its mark empty) given that
    letter as its mark, as the text drawing shows it."""
    if not any(lettered(piece, letters) for piece in view["pieces"]):
        return view
    pieces = [dict(piece, mark=drawn_mark(piece, letters)) if lettered(piece, letters)
              else piece for piece in view["pieces"]]
    return dict(view, pieces=pieces)


def _identity(piece):
    """All that a piece's drawing depends on, as a key."""
    return (piece["label"], piece["kind"], piece["owner"], piece.get("mark"),
            piece.get("status"), piece.get("badge"), piece.get("shape"),
            *piece["vars"].items())


class Layout:
    """Where each place goes on a picture: cells at their centres, row labels right of the
    board, zones in boxes under the key (`zones` fixes their order)."""

    def __init__(self, sheet, frame_height, zones=(), label_chars=0):
        self.sheet = sheet
        self.top = frame_height + 8
        self.columns = max(1, int((sheet.room - PAD) // (ZONE_W + 8)))
        self.zones = {name: i for i, name in enumerate(zones)}
        rows = -(-len(self.zones) // self.columns)
        self.width = max(sheet.room, sheet.width + (CHAR * label_chars + 8 if label_chars
                                                    else 0))
        self.height = self.top + rows * (ZONE_H + 8)

    def position(self, place):
        kind, name = place[0], place[2:]
        sheet = self.sheet
        if kind == "c":
            return sheet.centre(sheet.board.parse(name))
        if kind in ("k", "s"):      # the key and the sides: drawn where they stand
            return 0, 0
        if kind == "r":
            return PAD + sheet.board_w + 8, sheet.centre(sheet.board.at(0, int(name) - 1))[1]
        name, _, slot = name.partition("|")
        index = self.zones[name]
        x, y = (PAD + (index % self.columns) * (ZONE_W + 8),
                self.top + (index // self.columns) * (ZONE_H + 8))
        if slot:
            dx, dy = zone_slot(int(slot))
            return x + dx, y + dy
        return x, y


def placed(layout, place, fragment):
    x, y = layout.position(place)
    return (f'<g data-place="{escape(place)}" transform="translate({_n(x)},{_n(y)})">'
            f'{fragment}</g>')


def svg_open(width, height):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{math.ceil(width)}" '
            f'height="{math.ceil(height)}" viewBox="0 0 {math.ceil(width)} '
            f'{math.ceil(height)}">\n<style>{STYLE}</style>')


def picture(game, view):
    """The view as a standalone SVG document: a title line, the board with its pieces, the
    key, the zones, and the seats' lines of the text drawing (a piece's own line is its
    tooltip)."""
    sheet = Sheet(game.rules.board)
    drawn, height = frame(game, sheet)
    found = places(game, view, sheet)
    zones = [place[2:] for place in found if place.startswith("z:") and "|" not in place]
    labels = max((len(label) for label in view.get("row_labels") or ()), default=0)
    layout = Layout(sheet, height, zones, labels)
    heading = title(view)
    width = max(layout.width, 16 + CHAR * 1.45 * len(heading))
    lines = ([f"seen by {view['seat']}"] if view["seat"] is not None else []) + [
        part for line in status_lines(view, pieces=False)
        for part in wrap(line.strip(), int((width - 16) // CHAR))]
    bottom = 30 + layout.height + 8
    out = [svg_open(width, bottom + LINE * len(lines) + 6), PICTURE_MARK,
           '<rect width="100%" height="100%" fill="#fff"/>',
           f'<text class="ttl" x="8" y="20">{escape(heading)}</text>',
           '<g transform="translate(0,30)">', drawn]
    out.extend(placed(layout, place, fragment) for place, fragment in found.items())
    out.append("</g>")
    out.extend(f'<text class="st" x="8" y="{_n(bottom + LINE * (i + 0.7))}">'
               f'{escape(line)}</text>' for i, line in enumerate(lines))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def wrap(line, width):
    """A line cut at spaces into lines of at most `width` characters (a longer word stays
    whole); continuation lines are indented."""
    out, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = "    " + word
        else:
            current = f"{current} {word}" if current else word
    return out + [current]
