"""Per-seat views and their text rendering.

`make_view(game, state, seat)` returns plain data holding only what `seat` may see:
variables whose `visible to` condition fails for that seat are shown as "?", pieces it may
not identify as "?" in their place, pieces out of its sight (their kinds table's `visible
to`) not at all, and the choices other seats made in a simultaneous phase stay hidden until
the reveal. `render`
draws a view as text; it reads nothing but the view, so it cannot leak. What these need
of the game beyond its public API they ask of `introspect`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NotRequired, TypedDict

from . import introspect
from ..language.boards import column_name
from ..language.look import ink, rgb, seat_colours, tint
from ..language.types import ANY

if TYPE_CHECKING:
    from ..language.boards import Board
    from ..language.types import Type
    from .engine import Game
    from .state import State

HIDDEN = "?"


class SeatView(TypedDict):
    """A seat as a viewer sees it: its variables' values as text."""
    name: str
    out: bool
    vars: dict[str, str]
    status: NotRequired[str]        # `show seat(s)`: the rule file's words, in place of vars
    colour: NotRequired[str]        # `show colour(s)`: the colour its pieces are drawn in


class PieceView(TypedDict):
    """A living piece as a viewer sees it (all HIDDEN but its place when hidden from it)."""
    label: str
    kind: str
    owner: str                      # its seat's name, or "none"
    cell: str | None
    zone: NotRequired[str]          # "hand" or "hand of blue": off the board, in a zone
    vars: dict[str, str]

    mark: NotRequired[str]
    status: NotRequired[str]        # `show status(p)`
    badge: NotRequired[str]         # `show badge(p)`: a short value drawn on its corner
    shape: NotRequired[str]         # `show shape(p)`: the SVG file its picture draws


class View(TypedDict):
    """What one seat (or everyone, `seat` None) may see of a position: plain JSON data."""
    game: str
    seat: str | None
    turn: int
    current: str
    phase: str | None
    phase_args: NotRequired[list[str]]     # its arguments, when the viewer is told them
    deciding: str | None
    globals: dict[str, str]
    seats: list[SeatView]
    pieces: list[PieceView]
    result: str | None
    row_labels: NotRequired[list[str]]  # `show row(r)`, one per row, row 1 first
    status: NotRequired[str]            # `show game(s)`, in place of the globals
    chosen: NotRequired[dict[str, str]]  # a simultaneous phase: seat -> its choice or yes/no
    cells: NotRequired[dict[str, str]]   # `show cell(c)`: cell -> the seat whose colour fills it
    sides: NotRequired[list[list[str]]]  # `show side(c, d)`: the marked sides, [cell, direction]
    decisions: NotRequired[int | None]  # no `turn` phase: decisions made (None: not told)


def public_view(game: Game, state: State) -> View:
    """What every seat may see of `state` (a spectator's view): a variable only when its
    `visible to` holds for every seat, a piece hidden from any seat hidden, the `show`
    texts worked out for no seat."""
    return introspect.run_question(game, state,
                                   lambda st: make_view(game, st, None, public=True))


def make_view(game: Game, state: State, seat: int | None, public: bool = False) -> View:
    """What `seat` may see (None: everything); `public` (with seat None): what every seat
    may see (`public_view`)."""
    with introspect.formatting(game, state, seat, public) as text:
        return _view(game, state, seat, text, public)


def _view(game: Game, state: State, seat: int | None,
          text: Callable[[Any, Type], str], public: bool) -> View:
    everyone = seat is None and not public
    seats = range(len(game.seats))

    def shown(scope: str, name: str, value: Any, t: Type, owner: int | None,
              it: int | None = None) -> str:
        rule = introspect.visibility_rule(game, scope, name)
        if rule is not None and not everyone:
            lookers = seats if public else (seat,)
            visible = all(rule(state, s, s) if scope == "global" else rule(
                state, s, s, owner, it) for s in lookers)
            if not visible:
                return HIDDEN
        return text(value, t)

    def worded(rule: Callable[..., Any], *args: Any) -> Any:
        """A `show` rule's value for the viewer (the first seat for the full view; for the
        public view no seat, and HIDDEN when it cannot be worked out for none)."""
        if not public:
            return rule(state, seat if seat is not None else 0, *args)
        found = introspect.worded_for_nobody(game, state, rule, *args)
        return HIDDEN if found is None else found

    def hidden_piece(pid: int) -> bool:
        return introspect.hidden_from_any(game, state, pid) if public else \
            introspect.hidden_from(game, state, pid, seat)

    def unseen(pid: int) -> bool:
        """Out of the viewer's sight altogether (for the public view: of any seat's)."""
        return any(introspect.unseen_by(game, state, pid, s) for s in seats) if public \
            else introspect.unseen_by(game, state, pid, seat)

    types = {scope: game.rules.variable_types[scope]
             for scope in ("global", "seat", "piece")}
    view: View = {
        "game": game.name,
        "seat": None if seat is None else game.seats[seat],
        "turn": state.turn,
        "current": game.seats[state.current],
        "phase": state.frames[-1]["phase"] if state.frames else None,
        "deciding": None,
        "globals": {n: shown("global", n, v, types["global"][n], None)
                    for n, v in state.globals.items()},
        "seats": [],
        "pieces": [],
        "result": introspect.result_text(game, state) if state.result is not None else None,
    }
    args = phase_arguments(game, state, None if everyone else seat, public)
    if args:
        view["phase_args"] = args
    modes = {phase.mode for phase in game.rules.phases.values()}
    if "turn" not in modes:     # its title counts moves, not turns: none when a secret
        # phase may keep from a seat how many tries another made
        view["decisions"] = state.decisions if everyone or "secret" not in modes else None
    row_rule = introspect.show_rule(game, "row")
    if row_rule is not None:    # `show row(r)`, made here where the state is known
        view["row_labels"] = [worded(row_rule, row)
                              for row in range(1, game.rules.board.height + 1)]
    cell_rule = introspect.show_rule(game, "cell")
    if cell_rule is not None:   # `show cell(c)`: whose colour fills which cell
        owners = {c: worded(cell_rule, c) for c in game.rules.board.all_cells}
        view["cells"] = {game.rules.board.names[c]: game.seats[s] for c, s in owners.items()
                         if s is not None and s != HIDDEN}
    side_rule = introspect.show_rule(game, "side")
    if side_rule is not None:   # `show side(c, d)`: the sides drawn between cells
        view["sides"] = marked_sides(game.rules.board,
                                     lambda c, d: worded(side_rule, c, d) is True)
    player = game.current_player(state)
    if player >= 0:
        view["deciding"] = game.seats[player]
    game_text = introspect.show_rule(game, "game")
    if game_text is not None:       # `show game(s)`: the rule file's words, for the viewer
        view["status"] = worded(game_text, None if public else
                                seat if seat is not None else 0)
    seat_text = introspect.show_rule(game, "seat")
    colour = introspect.show_rule(game, "colour")
    for s, name in enumerate(game.seats):
        seat_entry: SeatView = {"name": name, "out": state.out[s],
                                "vars": {n: shown("seat", n, v, types["seat"][n], s, s)
                                         for n, v in state.seat_vars[s].items()}}
        if seat_text is not None:       # `show seat(s)`: the rule file's words, as the viewer
            seat_entry["status"] = worded(seat_text, s)
        if colour is not None:          # `show colour(s)`: the look of its pieces
            seat_entry["colour"] = worded(colour, s)
        view["seats"].append(seat_entry)
    if state.frames and state.frames[-1]["pending"] is not None:
        pending = state.frames[-1]["pending"]
        view["chosen"] = {game.seats[s]: (
            "yes" if choice is not None and not (everyone or s == seat) else
            game.action_text(state, (choice[0], tuple(choice[1]))) if choice is not None
            else "no")
            for s, choice in enumerate(pending) if not state.out[s]}
    show = introspect.show_rule(game, "piece")
    status = introspect.show_rule(game, "status")
    badge = introspect.show_rule(game, "badge")
    shape = introspect.show_rule(game, "shape")
    kinds = game.rules.kinds
    cell_names = game.rules.board.names
    hidden: list[PieceView] = []
    for pid in _board_order(state):
        piece = state.pieces[pid]
        owner = game.seats[piece["owner"]] if piece["owner"] is not None else "none"
        cell_name = None if piece["cell"] is None else cell_names[piece["cell"]]
        zone = piece.get("zone")
        zone_name = None if zone is None else zone[0] if zone[1] is None else \
            f"{zone[0]} of {game.seats[zone[1]]}"
        if not everyone and unseen(pid):
            continue        # out of its sight: not even there
        if not everyone and hidden_piece(pid):
            unknown = _piece_view(HIDDEN, HIDDEN, owner, cell_name, zone_name, {})
            unknown["mark"] = HIDDEN
            hidden.append(unknown)
            continue
        piece_entry = _piece_view(
            piece["label"], piece["kind"], owner, cell_name, zone_name,
            {n: shown("piece", n, piece[n], types["piece"][n], piece["owner"], pid)
             for n in game.rules.variables["piece"]})
        if show is not None:
            piece_entry["mark"] = worded(show, pid)
        elif isinstance(kinds[piece["kind"]].get("symbol"), str):
            piece_entry["mark"] = kinds[piece["kind"]]["symbol"]
        if status is not None:
            piece_entry["status"] = worded(status, pid)
        if badge is not None:
            piece_entry["badge"] = worded(badge, pid)
        if shape is not None:           # never for a hidden piece: its shape tells its kind
            drawn = worded(shape, pid)
            if drawn:
                piece_entry["shape"] = drawn
        view["pieces"].append(piece_entry)
    # Hidden pieces come last, in an order that says nothing about which they are.
    view["pieces"].extend(sorted(hidden, key=lambda e: (str(e["owner"]), str(e["cell"]),
                                                        e.get("zone", ""))))
    return view


def _piece_view(label: str, kind: str, owner: str, cell: str | None, zone: str | None,
                values: dict[str, str]) -> PieceView:
    """A piece's entry, its keys in the order views have always had them."""
    if zone is None:
        return {"label": label, "kind": kind, "owner": owner, "cell": cell, "vars": values}
    return {"label": label, "kind": kind, "owner": owner, "cell": cell, "zone": zone,
            "vars": values}


# ----- the sides of cells ---------------------------------------------------------------------
Side = tuple[str, int, int]
"""A side of a square board's cells, by the line it lies on: ("v", x, row) between columns
x - 1 and x of a row (x from 0, the west edge, to the width, the east edge), ("h", column,
y) between rows y - 1 and y of a column (y 0: the south edge)."""

_SIDE_VECTORS = ((0, 1), (1, 0), (0, -1), (-1, 0))      # north, east, south, west


def _side(board: Board, cell: int, vector: tuple[int, int]) -> Side:
    """The side of `cell` towards `vector` (one of `_SIDE_VECTORS`)."""
    column, row = board.coords(cell)
    if vector[0]:
        return ("v", column + (vector[0] > 0), row)
    return ("h", column, row + (vector[1] > 0))


def marked_sides(board: Board, marked: Callable[[int, int], bool]) -> list[list[str]]:
    """The sides `marked(cell, direction)` marks, for either cell beside each, as the view
    writes them: each once, [cell, direction], by the cell south or west of it (its
    `north` or `east` side) unless that is off the board or a hole, in board order."""
    found: set[Side] = set()
    for d, vector in enumerate(board.directions):
        if vector in _SIDE_VECTORS:
            found.update(_side(board, c, vector) for c in board.all_cells if marked(c, d))
    named = []
    for line, x, y in found:
        before = board.at(x - 1, y) if line == "v" else board.at(x, y - 1)
        if before is not None and before not in board.holes:
            named.append((before, 1 if line == "v" else 0))
        else:
            after = board.at(x, y)
            assert after is not None        # a side found is a side of a cell
            named.append((after, 3 if line == "v" else 2))
    words = ("north", "east", "south", "west")
    return [[board.names[cell], words[side]] for cell, side in sorted(named)]


def sides_of(board: Board, view: View) -> set[Side] | None:
    """The sides the view marks, by their lines (None: the rule file has no `show side`)."""
    if "sides" not in view:
        return None
    found = set()
    for name, direction in view["sides"]:
        vector = board.directions[board.direction_names.index(direction)]
        found.add(_side(board, board.by_name[name], vector))
    return found


def _board_order(state: State) -> list[int]:
    """Living pieces: those on the board cell by cell in arrival order (the last one of a
    cell is its top), then those off the board."""
    on_board = [pid for cell in sorted(state.at) for pid in state.at[cell]]
    off_board = [pid for pid in sorted(state.pieces, key=lambda p: _zone_order(state, p))
                 if state.pieces[pid]["alive"] and state.pieces[pid]["cell"] is None]
    return on_board + off_board


def _zone_order(state: State, pid: int) -> tuple[int, int]:
    """Off the board: pieces in no zone by id, then those in zones in the order they came."""
    zone = state.pieces[pid].get("zone")
    return (0, pid) if zone is None else (1, zone[2])


WIDTH = 100     # columns a drawing fits in (a terminal of 100x40 shows a whole screen)


def render(game: Game, view: View, width: int = WIDTH, colour: bool = False) -> str:
    """The view as text: the title, the board with its key and legend, then seats,
    variables, pieces' details and zones. No line is longer than `width` (not counting the
    escapes of `colour`, `render_board`), except a variable dump (which a designer reads
    whole)."""
    return "\n".join([title(view), *render_board(game, view, width, colour=colour),
                      *crowded_cells(game, view), *status_lines(view)])


def status_lines(view: View, pieces: bool = True) -> list[str]:
    """What the text drawing writes under the board: each seat's line, the choices of a
    simultaneous phase, the game's line or global variables, the pieces' statuses and the
    zones (unless `pieces` is false: a picture draws them), the result."""
    lines = ["  " + seat_line(seat) for seat in view["seats"] if tells(seat)]
    if view.get("chosen"):
        lines.append("  " + chosen_line(view))
    if "status" in view:            # `show game(s)`: in place of the global variables
        if view["status"]:
            lines.append("  " + view["status"])
    elif view["globals"]:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in view["globals"].items()))
    for piece in view["pieces"] if pieces else ():
        if "status" in piece:       # `show status(p)`: the rule file's words for it
            if piece["status"]:
                lines.append(f"  {piece_name(piece)}: {piece['status']}")
            continue
        changed = piece_details(piece)
        if changed:
            lines.append(f"  {piece_name(piece)}: {changed}")
    if pieces:
        lines.extend("  " + line for line in zone_lines(view))
    if view["result"]:
        lines.append(f"  result: {view['result']}")
    return lines


# Turn 0 of a game with `turn` phases: the decisions of the phases before the first turn
# starts (choosing sides, placing pieces), no seat's turn yet.
BEFORE_TURNS = "before the first turn"


def turn_words(game: Game, turn: int) -> str | None:
    """When a position is, as every tool says it: 'turn 3', or BEFORE_TURNS at turn 0; None
    for a game without `turn` phases (its turn is always 0: it counts moves instead)."""
    if turn:
        return f"turn {turn}"
    return BEFORE_TURNS if any(phase.mode == "turn" for phase in game.rules.phases.values()) \
        else None


def turn_heading(game: Game, state: State) -> str | None:
    """The line a game's log starts a turn with, '-- turn 3: SEAT --' (the seat whose turn
    it is), or '-- before the first turn --'; None in a game without turns."""
    words = turn_words(game, state.turn)
    if words is None:
        return None
    return f"-- {words}: {game.seats[state.current]} --" if state.turn else f"-- {words} --"


def phase_arguments(game: Game, state: State, viewer: int | None = None,
                    public: bool = False) -> list[str] | None:
    """The top phase's arguments as gdl writes values (a piece hidden from the viewer as
    `?`), None when it has none. A game that keeps something from some seat (a hidden piece
    or variable, a secret or simultaneous phase) tells a seat (`viewer`), or every seat
    (`public`), none of them: an argument may be worked out from what the seat may not
    know, and no rule says which it may see."""
    frame = state.frames[-1] if state.frames else None
    if frame is None or not frame["args"] or (
            (viewer is not None or public) and game.rules.hidden_information):
        return None
    params = game.rules.phases[frame["phase"]].params
    with introspect.formatting(game, state, viewer, public) as text:
        return [text(value, param.type or ANY) for value, param in zip(frame["args"], params)]


def phase_call(phase: str, args: Sequence[str] | None) -> str:
    """'moving(d7)': a phase with its arguments as a `goto` writes them; its name alone
    when it has none (or the viewer is not told them)."""
    return f"{phase}({', '.join(args)})" if args else phase


def title(view: View) -> str:
    """'NAME - turn T, SEAT to play (phase P(ARGS), SEAT decides)'; at the end 'NAME - turn T,
    game over: RESULT'; before the first turn 'NAME - before the first turn (phase P, SEAT
    decides)'. A game with no `turn` phase counts its moves instead ('move M' is the one
    being decided, at the end the last one made; no count when the view may not tell it),
    its seat to play the deciding one."""
    count: str | None = f"turn {view['turn']}"
    playing: str | None = view["current"] + " to play"
    if "decisions" in view:     # no turn starts: the seat to play is the one deciding
        made = view["decisions"]
        count = None if made is None else \
            f"move {max(1, made + (0 if view['result'] else 1))}"
        playing = (view["deciding"] or view["current"]) + " to play"
    elif not view["turn"]:
        count, playing = BEFORE_TURNS, None
    if view["result"]:
        return f"{view['game']} - " + ", ".join(filter(None, [count,
                                                               f"game over: {view['result']}"]))
    return (f"{view['game']} - " + ", ".join(filter(None, [count, playing]))
            + (f" (phase {phase_call(view['phase'] or '', view.get('phase_args'))}, "
               f"{view['deciding']} decides)"
               if view["deciding"] else ""))


def piece_name(piece: PieceView) -> str:
    """'Piece#5 (blue)'; a label that names its seat already (`blue:Piece#2`) alone."""
    label, owner = piece["label"], piece["owner"]
    return label if label.startswith(owner + ":") else f"{label} ({owner})"


def tells(seat: SeatView) -> bool:
    """Has the seat a line to show? Not when it is still in and has nothing to tell: no
    variables, or a `show seat` text (which stands in their place) that is empty."""
    return seat["out"] or bool(seat["status"] if "status" in seat else seat["vars"])


def seat_line(seat: SeatView) -> str:
    """'name: the rule file's `show seat` text', else its variables."""
    status = " (out)" if seat["out"] else ""
    values = seat["status"] if "status" in seat else ", ".join(
        f"{k}={v}" for k, v in seat["vars"].items())
    return f"{seat['name']}{status}: {values}"


def chosen_line(view: View) -> str:
    """A simultaneous phase's choices as a player reads them: 'red chose throw rock; blue has
    chosen (in secret); waiting for green, yellow'."""
    parts, waiting = [], []
    for name, choice in view["chosen"].items():
        if choice == "no":
            waiting.append(name)
        else:
            parts.append(f"{name} has chosen (in secret)" if choice == "yes"
                         else f"{name} chose {choice}")
    if waiting:
        parts.append("waiting for " + ", ".join(waiting))
    return "; ".join(parts)


def piece_details(piece: PieceView) -> str:
    """A piece's variables that are not 0, false or none, as 'k=v, ...' ('' if none)."""
    return ", ".join(f"{k}={v}" for k, v in piece["vars"].items()
                     if v not in ("0", "false", "none"))


def zone_lines(view: View) -> list[str]:
    zones: dict[str, list[str]] = {}
    for piece in view["pieces"]:
        if "zone" in piece:
            zones.setdefault(piece["zone"], []).append(piece["label"])
    return [f"{zone}: " + ", ".join(labels) for zone, labels in zones.items()]


# ----- marks ----------------------------------------------------------------------------------
def seat_marks(game: Game) -> dict[str, str]:
    """Seat name -> the letter that starts its pieces' tokens: the name's first letter in
    lower case; when that letter is a terrain mark, a kind's symbol or an earlier seat's
    letter, in upper case; failing that, the first free letter of the name."""
    taken = {ch for _, symbol in game.rules.terrain.values() for ch in symbol}
    taken |= {ch for stats in game.rules.kinds.values()
              if isinstance(stats.get("symbol"), str) for ch in stats["symbol"]}
    taken |= {".", HIDDEN}
    marks = {}
    for name in game.seats:
        letters = [c for ch in name if ch.isalnum() for c in (ch.lower(), ch.upper())]
        mark = next((c for c in letters if c not in taken), name[:1] or "?")
        taken.add(mark)
        marks[name] = mark
    return marks


def _mark(piece: PieceView) -> str:
    return piece.get("mark") or piece["kind"][0]


def lettered(piece: PieceView, marks: Mapping[str, str]) -> bool:
    """Whether the piece is drawn by its seat's letter alone: a piece of a seat whose mark
    (`show piece`, else its kind's symbol) is empty, so seats named x and o draw `x`
    and `o`."""
    return piece.get("mark") == "" and piece["owner"] in marks


def drawn_mark(piece: PieceView, marks: Mapping[str, str]) -> str:
    """The mark a drawing shows for the piece after its seat's letter (or in its seat's
    colour), and for a piece drawn by its seat's letter alone that letter."""
    return marks[piece["owner"]] if lettered(piece, marks) else _mark(piece)


def _token(piece: PieceView, marks: Mapping[str, str]) -> str:
    """The seat's letter and the piece's mark; a piece of no seat shows its mark alone, a
    piece whose mark is empty its seat's letter alone."""
    if piece["owner"] == "none" or lettered(piece, marks):
        return drawn_mark(piece, marks)
    return f"{marks[piece['owner']]}{_mark(piece)}"


# ----- the board ------------------------------------------------------------------------------
def render_board(game: Game, view: View, width: int = WIDTH, max_rows: int | None = None,
                 beside: bool = False, colour: bool = False) -> list[str]:
    """The board as text with its key and legend. A cell shows its top piece (the last to
    arrive that the viewer may identify) and "+N" when N more share it. A board too wide for
    `width` columns (or with more than `max_rows` rows) is drawn at a scale: each mark then
    covers k x k cells. With `beside`, the legend stands right of the board when it fits.
    With `colour` (a terminal that shows colours), a cell `show cell` gives a seat is filled
    with that seat's colour, as the pictures fill it. A game without a board (no cells)
    draws none."""
    if not game.rules.board.all_cells:
        return []
    drawn = _board_layout(game, view, width, max_rows)
    grid, scale, crowded = drawn.lines, drawn.scale, drawn.crowded
    groups = key_groups(game, view, scale, crowded)
    if view.get("sides"):           # `show side`: drawn, or left out of a board too large
        groups.append("| - between cells: a marked side" if drawn.sided else
                      "marked sides are not drawn at this size")
    key = wrap("  key: " + "; ".join(groups), width, "    ") if groups else []   # (no piece)
    room = width - max(len(line) for line in grid) - 3
    if beside and room >= 30:
        legend = legend_lines(game, view, room)
        grid = [line.ljust(width - room - 1) + " " + extra if extra else line
                for line, extra in zip(grid + [""] * (len(legend) - len(grid)),
                                       legend + [""] * (len(grid) - len(legend)))]
        return _painted(game, view, grid, drawn.places) + key if colour else grid + key
    if colour:
        grid = _painted(game, view, grid, drawn.places)
    return grid + key + ["  " + line for line in legend_lines(game, view, width - 2)]


class _Grid(NamedTuple):
    """The board drawn as text: its lines, the scale, whether a mark stands for several
    pieces, and where each block of cells is written (line, first column, last column + 1,
    the block's cells)."""
    lines: list[str]
    scale: int
    crowded: bool
    places: Sequence[tuple[int, int, int, Sequence[int]]]
    sided: bool = False     # the marked sides (`show side`) drawn between the cells


def board_grid(game: Game, view: View, width: int = WIDTH,
               max_rows: int | None = None) -> tuple[list[str], int, bool]:
    """(the board's lines between two rows of column names, the scale, whether a mark
    stands for several pieces)."""
    drawn = _board_layout(game, view, width, max_rows)
    return drawn.lines, drawn.scale, drawn.crowded


def _board_layout(game: Game, view: View, width: int, max_rows: int | None) -> _Grid:
    board = game.rules.board
    marks = seat_marks(game)
    terrain: dict[int, str] = {}
    for terrain_cells, symbol in game.rules.terrain.values():
        for cell in terrain_cells:
            terrain[cell] = symbol
    stacks: dict[int, list[str]] = {}
    for piece in view["pieces"]:
        if piece["cell"] is not None:
            stacks.setdefault(_cell_index(board, piece["cell"]), []).append(
                _token(piece, marks))
    if board.kind == "hex":
        cells = _cell_texts(board, terrain, stacks, [[c] for c in range(board.size)])
        colw = max([3] + [len(v) + 1 for v in cells.values()])
        header = "    " + "".join(column_name(c).center(colw) for c in range(board.width))
        out = [header]
        places = []
        for row in range(board.height):
            for c in range(board.width):    # even columns on a row's first line
                places.append((len(out) + c % 2, 4 + c * colw, 4 + (c + 1) * colw,
                               [row * board.width + c]))
            out.extend(_hex_rows(board, row, cells, colw))
        return _Grid(out + [header], 1, any(len(t) > 1 for t in stacks.values()), places)
    sides = sides_of(board, view)
    if sides is not None:
        cells = _cell_texts(board, terrain, stacks, [[c] for c in range(board.size)])
        for every_gap in (True, False):
            sided = _sided_layout(board, view, cells, sides, width, max_rows, every_gap)
            if sided is not None:
                return sided._replace(crowded=any(len(t) > 1 for t in stacks.values()))
    scale = 1
    while True:
        columns = -(-board.width // scale)
        rows = -(-board.height // scale)
        blocks = [[r * board.width + c
                   for r in range(br * scale, min(board.height, (br + 1) * scale))
                   for c in range(bc * scale, min(board.width, (bc + 1) * scale))]
                  for br in range(rows) for bc in range(columns)]
        cells = _cell_texts(board, terrain, stacks, blocks)
        labels = [_row_label(view, r * scale + 1) for r in range(rows)]
        margin = 4 + max([0] + [len(t) + 2 for t in labels if t])
        colw = max([3] + [len(v) + 1 for v in cells.values()])
        if margin + columns * colw > width and colw > 4:
            # a crowded cell's count gives way before the board shrinks: "bI+" for "bI+12"
            colw = 4
            cells = {k: v if len(v) <= 3 else v[:2] + "+" for k, v in cells.items()}
        if ((margin + columns * colw <= width and (max_rows is None or rows + 2 <= max_rows))
                or columns == 1):
            break
        scale += 1
    header = "    " + "".join(column_name(c * scale).center(colw) for c in range(columns))
    out = [header]
    places = []
    for row in range(rows - 1, -1, -1):
        line = f"{row * scale + 1:>3} " + "".join(
            cells.get(row * columns + c, ".").center(colw) for c in range(columns))
        places += [(len(out), 4 + c * colw, 4 + (c + 1) * colw, blocks[row * columns + c])
                   for c in range(columns)]
        out.append((line + "  " + labels[row]).rstrip())
    out.append(header)
    crowded = any(sum(len(stacks.get(cell, ())) for cell in block) > 1 for block in blocks)
    return _Grid(out, scale, crowded, places)


def _sided_layout(board: Board, view: View, cells: Mapping[int, str], sides: set[Side],
                  width: int, max_rows: int | None, every_gap: bool) -> _Grid | None:
    """A square board at scale 1 with a gutter around each cell, where the sides the view
    marks are drawn: `|` between two columns, `-` between two rows, and at a corner `|` or
    `-` where such sides meet in line, `+` where they turn or cross. A line between two rows
    is drawn (blank) even where no side is marked when `every_gap`, else only where one is;
    the line of the board's north or south edge only when a side on it is marked. None
    when it does not fit in `width` columns and `max_rows` lines."""
    labels = [_row_label(view, r + 1) for r in range(board.height)]
    margin = 4 + max([0] + [len(t) + 2 for t in labels if t])
    colw = max([3] + [len(v) + 2 for v in cells.values()])

    def corner(x: int, y: int) -> str:
        across = ("h", x - 1, y) in sides or ("h", x, y) in sides
        down = ("v", x, y - 1) in sides or ("v", x, y) in sides
        return "+" if across and down else "-" if across else "|" if down else " "

    def between(y: int) -> str:         # the line between rows y - 1 and y
        return ("    " + "".join(corner(x, y) + ("-" if ("h", x, y) in sides else " ") * colw
                                 for x in range(board.width))
                + corner(board.width, y)).rstrip()

    def marked(y: int) -> bool:         # a side between rows y - 1 and y marked
        return any(("h", x, y) in sides for x in range(board.width))

    header = ("    " + "".join(" " + column_name(c).center(colw)
                                for c in range(board.width))).rstrip()
    out = [header]
    places = []
    for row in range(board.height - 1, -1, -1):
        if marked(row + 1) or (every_gap and row < board.height - 1):
            out.append(between(row + 1))
        places += [(len(out), 5 + c * (colw + 1), 5 + c * (colw + 1) + colw,
                    [row * board.width + c]) for c in range(board.width)]
        out.append((f"{row + 1:>3} " + "".join(
            ("|" if ("v", c, row) in sides else " ") + cells.get(row * board.width + c, ".")
            .center(colw) for c in range(board.width))
            + ("|" if ("v", board.width, row) in sides else " ") + "  " + labels[row]).rstrip())
    if marked(0):
        out.append(between(0))
    out.append(header)
    if margin + board.width * (colw + 1) + 1 > width or (
            max_rows is not None and len(out) > max_rows):
        return None
    return _Grid(out, 1, False, places, sided=True)


GROUND = "#f6f5ef"      # the board's ground in the pictures, under a tinted cell


def _painted(game: Game, view: View, lines: list[str],
             places: Sequence[tuple[int, int, int, Sequence[int]]]) -> list[str]:
    """The lines with each block of cells that `show cell` gives a seat (most of its cells,
    at a scale) painted in that seat's colour, as the pictures tint it: ANSI 24-bit colours
    around the block's columns."""
    owners = view.get("cells")
    if not owners:
        return lines
    board = game.rules.board
    held = {_cell_index(board, name): seat for name, seat in owners.items()}
    colours = seat_colours(game.seats, view)
    spans: dict[int, list[tuple[int, int, str]]] = {}
    for line, start, end, block in places:
        seats = [held[cell] for cell in block if cell in held]
        if seats and 2 * len(seats) >= len(block):
            seat = max(set(seats), key=seats.count)
            spans.setdefault(line, []).append((start, end, tint(colours[seat], GROUND, .6)))
    out = list(lines)
    for index, found in spans.items():
        text = out[index].ljust(max(end for _, end, _ in found))
        for start, end, fill in sorted(found, reverse=True):
            r, g, b = rgb(fill)
            fore = "17;17;17" if ink(fill) == "#111" else "255;255;255"
            text = (f"{text[:start]}\x1b[48;2;{r};{g};{b};38;2;{fore}m{text[start:end]}"
                    f"\x1b[0m{text[end:]}")
        out[index] = text
    return out


def _cell_texts(board: Board, terrain: Mapping[int, str], stacks: Mapping[int, list[str]],
                blocks: Iterable[Sequence[int]]) -> dict[int, str]:
    """Block index -> its text: the top piece of its last crowded cell (+N for the others),
    else the terrain most of its cells have, else nothing ('.' is drawn); a block of holes
    is blank."""
    out = {}
    for index, block in enumerate(blocks):
        tokens = [t for cell in block for t in stacks.get(cell, ())]
        if tokens:
            known = [t for t in tokens if not t.endswith(HIDDEN)]
            top = known[-1] if known else tokens[-1]
            out[index] = top + (f"+{len(tokens) - 1}" if len(tokens) > 1 else "")
            continue
        present = [cell for cell in block if cell not in board.holes]
        if not present:
            out[index] = ""
            continue
        marks = [terrain[cell] for cell in present if cell in terrain]
        if marks and 2 * len(marks) >= len(present):
            out[index] = max(set(marks), key=marks.count)
    return out


def key_groups(game: Game, view: View, scale: int = 1, crowded: bool = False) -> list[str]:
    """What the marks in use mean: the seats' letters, the kinds' marks (only kinds on the
    board), hidden pieces, what the marks `show piece` adds tell and what a `show badge`
    number is, the terrain, crowded cells, the scale."""
    marks = seat_marks(game)
    on_board = [p for p in view["pieces"] if p["cell"] is not None]
    groups = []
    owners = [s["name"] for s in view["seats"] if any(p["owner"] == s["name"] for p in on_board)]
    if owners:
        groups.append(", ".join(f"{marks[name]} {name}" for name in owners)
                      + " (a piece: its seat's letter, then its mark)")
    kinds = game.rules.kinds
    used: dict[str, list[str]] = {}
    for piece in on_board:
        if piece["kind"] != HIDDEN:
            seen = used.setdefault(piece["kind"], [])
            if drawn_mark(piece, marks) not in seen:
                seen.append(drawn_mark(piece, marks))
    entries = []
    notes = mark_notes_in_use(game, on_board)    # what the marks `show piece` adds tell
    for kind, stats in kinds.items():
        if kind in used:
            symbol = stats.get("symbol")
            if isinstance(symbol, str) and symbol in used[kind]:
                entries.append(f"{symbol} {kind}")
                # a mark the rule file's `show piece` adds to (`F!`): what its pieces share
                entries += [f"{mark} {kind}" + ("" if any(n in mark for n in notes) else
                                                _marked_by(on_board, kind, symbol, mark))
                            for mark in used[kind] if mark != symbol][:3]
                continue
            shown = "/".join(used[kind][:3]) + ("/..." if len(used[kind]) > 3 else "")
            entries.append(f"{shown} {kind}")
    if any(p["kind"] == HIDDEN for p in on_board):
        entries.append(f"{HIDDEN} hidden")
    if entries:
        groups.append(", ".join(entries))
    if notes:
        groups.append(", ".join(f"{mark} {words}" for mark, words in notes.items())
                      + " (after a mark)")
    badge = game.rules.look.badge
    if badge is not None and any(p.get("badge") for p in on_board):
        groups.append(f"[N] after a piece: {badge}")
    terrain = [f"{symbol} {name}" for name, (cells, symbol) in game.rules.terrain.items()
               if cells]
    if terrain:
        groups.append(", ".join(terrain))
    if crowded:
        groups.append("+N: N more pieces there" + (" (+ alone: some)" if scale > 1 else ""))
    if scale > 1:
        groups.append(f"each mark covers {scale}x{scale} cells (named by the lowest)")
    return groups


def mark_notes_in_use(game: Game, pieces: Iterable[PieceView]) -> dict[str, str]:
    """The marks a `show piece` rule adds (`!`) that some of `pieces` show, each with what it
    tells (`shaken`), in the order the rule writes them."""
    notes = game.rules.look.marks
    kinds = game.rules.kinds
    shown = [(_mark(p), str(kinds[p["kind"]].get("symbol", ""))) for p in pieces
             if p["kind"] != HIDDEN]
    return {mark: words for mark, words in notes.items()
            if any(mark in drawn and mark not in symbol for drawn, symbol in shown)}


def _marked_by(pieces: Sequence[PieceView], kind: str, symbol: str, mark: str) -> str:
    """What the pieces of `kind` drawn as `mark` have that those drawn as the plain `symbol`
    have not: ' with damage' (a variable set only on them), ' with hp 1' (a value only they
    have); '' when no variable tells them apart."""
    unset = ("0", "false", "none")
    marked = [p for p in pieces if p["kind"] == kind and _mark(p) == mark]
    plain = [p for p in pieces if p["kind"] == kind and _mark(p) == symbol]
    for name in marked[0]["vars"] if marked and plain else ():
        ours = {p["vars"].get(name, "") for p in marked}
        theirs = {p["vars"].get(name, "") for p in plain}
        if HIDDEN in ours | theirs or ours & theirs:
            continue
        if theirs <= set(unset):
            return f" with {name}"
        return f" with {name} {'/'.join(sorted(ours))}" if len(ours) <= 3 else ""
    return ""


def legend_lines(game: Game, view: View, width: int = WIDTH) -> list[str]:
    """Which piece is where, per seat: 'blue: Piece#1 a2, Token#1 a1, #2 b1, ...' (a
    label that shares the previous one's name before '#' is shortened to '#N'); pieces
    hidden from the viewer as '? CELL' with a count; a piece's `show badge` text after it in
    brackets ('Unit#1 c3 [9]'). Only pieces on the board."""
    order = {kind: i for i, kind in enumerate(game.rules.kinds)}
    owners = [s["name"] for s in view["seats"]] + ["none"]
    lines = []
    for owner in owners:
        mine = [p for p in view["pieces"] if p["owner"] == owner and p["cell"] is not None]
        if not mine:
            continue
        known = sorted((p for p in mine if p["label"] != HIDDEN),
                       key=lambda p: (order.get(p["kind"], 0), _natural(p["label"])))
        entries: list[str] = []
        previous = None
        for piece in known:
            stem, sep, number = piece["label"].rpartition("#")
            label = piece["label"]
            if label.startswith(owner + ":"):      # a seat's own labels: 'blue:Piece#1'
                label = label[len(owner) + 1:]
            short = f"#{number}" if sep and stem == previous else label
            previous = stem if sep else None
            badge = f" [{piece['badge']}]" if piece.get("badge") else ""   # `show badge(p)`
            entries.append(f"{short} {piece['cell']}{badge}")
        hidden: dict[str | None, int] = {}
        for piece in mine:
            if piece["label"] == HIDDEN:
                hidden[piece["cell"]] = hidden.get(piece["cell"], 0) + 1
        entries += [f"{HIDDEN} {cell}" + (f" x{n}" if n > 1 else "")
                    for cell, n in hidden.items()]
        name = "no seat" if owner == "none" else owner
        lines.extend(wrap(f"{name}: " + ", ".join(entries), width, "    "))
    return lines


def _cell_index(board: Board, name: str) -> int:
    """The number of a cell a view names (always a cell of the board)."""
    cell = board.parse(name)
    assert cell is not None
    return cell


def _natural(label: str) -> tuple[str, int]:
    stem, _, number = label.rpartition("#")
    return (stem, int(number)) if number.isdigit() else (label, 0)


def crowded_cells(game: Game, view: View) -> list[str]:
    """One line per cell that holds several pieces, in arrival order: 'b2: bT bS'."""
    board = game.rules.board
    marks = seat_marks(game)
    stacks: dict[str, list[str]] = {}
    for piece in view["pieces"]:
        if piece["cell"] is not None:
            stacks.setdefault(piece["cell"], []).append(_token(piece, marks))
    return [f"  {cell}: {' '.join(tokens)}"
            for cell, tokens in sorted(stacks.items(),
                                       key=lambda kv: _cell_index(board, kv[0]))
            if len(tokens) > 1]


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """`text` in lines of at most `width` columns, broken between words only (a word longer
    than a line is cut)."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _row_label(view: View, row: int) -> str:
    """`show row(r) = TEXT`: a label drawn after row r (1 = first), from the view."""
    labels = view.get("row_labels")
    return labels[row - 1] if labels and row <= len(labels) else ""


def _hex_rows(board: Board, row: int, cells: Mapping[int, str], width: int) -> list[str]:

    """A hex row as two text lines, rows going down the screen: even columns on the
    first line, odd columns (which sit half a hex lower) on the second."""
    top = f"{row + 1:>3} " + "".join(
        (cells.get(row * board.width + c, ".") if c % 2 == 0 else "").center(width)
        for c in range(board.width))
    bottom = "    " + "".join(
        (cells.get(row * board.width + c, ".") if c % 2 == 1 else "").center(width)
        for c in range(board.width))
    return [top.rstrip(), bottom.rstrip()]
