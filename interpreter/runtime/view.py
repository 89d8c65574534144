"""Per-seat views and their text rendering.

`make_view(game, state, seat)` returns plain data holding only what `seat` may see:
variables whose `visible to` condition fails for that seat are shown as "?", and the
choices other seats made in a simultaneous phase stay hidden until the reveal. `render`
draws a view as text; it reads nothing but the view, so it cannot leak. What these need
of the game beyond its public API they ask of `introspect`.
"""

from __future__ import annotations

from . import introspect
from ..language.boards import column_name

HIDDEN = "?"


def make_view(game, state, seat):
    with introspect.formatting(game, state, seat) as text:
        return _view(game, state, seat, text)


def _view(game, state, seat, text):
    everyone = seat is None

    def shown(scope, name, value, t, owner, it=None):
        rule = introspect.visibility_rule(game, scope, name)
        if rule is not None and not everyone:
            visible = rule(state, seat, seat) if scope == "global" else rule(
                state, seat, seat, owner, it)
            if not visible:
                return HIDDEN
        return text(value, t)

    types = {scope: introspect.variable_types(game, scope)
             for scope in ("global", "seat", "piece")}
    view = {
        "game": game.name,
        "seat": None if everyone else game.seats[seat],
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
    labels = introspect.row_labels(game, state, 0 if everyone else seat)
    if labels is not None:
        view["row_labels"] = labels     # `show row(r)`, made here where the state is known
    player = game.current_player(state)
    if player >= 0:
        view["deciding"] = game.seats[player]
    seat_text = introspect.show_rule(game, "seat")
    for s, name in enumerate(game.seats):
        entry = {"name": name, "out": state.out[s],
                 "vars": {n: shown("seat", n, v, types["seat"][n], s, s)
                          for n, v in state.seat_vars[s].items()}}
        if seat_text is not None:       # `show seat(s)`: the rule file's words, as the viewer
            entry["status"] = seat_text(state, seat if seat is not None else 0, s)
        view["seats"].append(entry)
    if state.frames and state.frames[-1]["pending"] is not None:
        pending = state.frames[-1]["pending"]
        view["chosen"] = {game.seats[s]: (
            "yes" if choice is not None and not (everyone or s == seat) else
            game.action_text(state, choice) if choice is not None else "no")
            for s, choice in enumerate(pending) if not state.out[s]}
    show = introspect.show_rule(game, "piece")
    status = introspect.show_rule(game, "status")
    kinds = introspect.kinds(game)
    cell_names = introspect.board(game).names
    hidden = []
    for pid in _board_order(state):
        piece = state.pieces[pid]
        owner = game.seats[piece["owner"]] if piece["owner"] is not None else "none"
        cell_name = None if piece["cell"] is None else cell_names[piece["cell"]]
        zone = piece.get("zone")
        place = {} if zone is None else {"zone": zone[0] if zone[1] is None else
                                         f"{zone[0]} of {game.seats[zone[1]]}"}
        if not everyone and introspect.hidden_from(game, state, pid, seat):
            hidden.append({"label": HIDDEN, "kind": HIDDEN, "owner": owner, "cell": cell_name,
                           **place, "vars": {}, "mark": HIDDEN})
            continue
        entry = {"label": piece["label"], "kind": piece["kind"], "owner": owner,
                 "cell": cell_name, **place,
                 "vars": {n: shown("piece", n, piece[n], types["piece"][n], piece["owner"], pid)
                          for n, _ in introspect.piece_defaults(game)}}
        if show is not None:
            entry["mark"] = show(state, seat if seat is not None else 0, pid)
        elif isinstance(kinds[piece["kind"]].get("symbol"), str):
            entry["mark"] = kinds[piece["kind"]]["symbol"]
        if status is not None:
            entry["status"] = status(state, seat if seat is not None else 0, pid)
        view["pieces"].append(entry)
    # Hidden pieces come last, in an order that says nothing about which they are.
    view["pieces"].extend(sorted(hidden, key=lambda e: (str(e["owner"]), str(e["cell"]),
                                                        e.get("zone", ""))))
    return view


def _board_order(state):
    """Living pieces: those on the board cell by cell in arrival order (the last one of a
    cell is its top), then those off the board."""
    on_board = [pid for cell in sorted(state.at) for pid in state.at[cell]]
    off_board = [pid for pid in sorted(state.pieces, key=lambda p: _zone_order(state, p))
                 if state.pieces[pid]["alive"] and state.pieces[pid]["cell"] is None]
    return on_board + off_board


def _zone_order(state, pid):
    """Off the board: pieces in no zone by id, then those in zones in the order they came."""
    zone = state.pieces[pid].get("zone")
    return (0, pid) if zone is None else (1, zone[2])


def render(game, view):
    """The view as text: the board, then seats and variables."""
    return "\n".join([title_line(view), *render_board(game, view), *status_lines(view)])


def title_line(view):
    """'NAME - turn T, SEAT to play (phase P, SEAT decides)'."""
    return (f"{view['game']} - turn {view['turn']}, {view['current']} to play"
            + (f" (phase {view['phase']}, {view['deciding']} decides)"
               if view["deciding"] else ""))


def status_lines(view, pieces=True):
    """What the text drawing writes under the board: each seat's line, the choices of a
    simultaneous phase, the global variables, the pieces' statuses and the zones (unless
    `pieces` is false: a picture draws them), the result."""
    lines = []
    for seat in view["seats"]:
        status = " (out)" if seat["out"] else ""
        values = seat["status"] if "status" in seat else ", ".join(
            f"{k}={v}" for k, v in seat["vars"].items())
        lines.append(f"  {seat['name']}{status}: {values}")
    if view.get("chosen"):
        lines.append("  chosen: " + ", ".join(f"{k}: {v}" for k, v in view["chosen"].items()))
    if view["globals"]:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in view["globals"].items()))
    for piece in view["pieces"] if pieces else ():
        if "status" in piece:       # `show status(p)`: the rule file's words for it
            if piece["status"]:
                lines.append(f"  {piece['label']} ({piece['owner']}): {piece['status']}")
            continue
        changed = {k: v for k, v in piece["vars"].items() if v not in ("0", "false", "none")}
        if changed:
            lines.append(f"  {piece['label']} ({piece['owner']}): "
                         + ", ".join(f"{k}={v}" for k, v in changed.items()))
    zones = {}
    for piece in view["pieces"] if pieces else ():
        if "zone" in piece:
            zones.setdefault(piece["zone"], []).append(piece["label"])
    for zone, labels in zones.items():
        lines.append(f"  {zone}: " + ", ".join(labels))
    if view["result"]:
        lines.append(f"  result: {view['result']}")
    return lines


def _token(piece):
    """Owner's initial and the piece's mark; a piece of no seat shows its mark alone."""
    mark = piece.get("mark") or piece["kind"][0]
    return mark if piece["owner"] == "none" else f"{piece['owner'][0]}{mark}"


def render_board(game, view):
    """The board as text. A cell shows its top piece (the last to arrive), followed by
    "+N" when N more pieces share it; a legend lists every such crowded cell."""
    board = introspect.board(game)
    cells = dict.fromkeys(board.holes, "")        # a hole of the board is drawn blank
    for terrain_cells, symbol in introspect.terrain(game).values():
        for cell in terrain_cells:
            cells[cell] = symbol
    stacks = {}
    for piece in view["pieces"]:
        if piece["cell"] is not None:
            stacks.setdefault(board.parse(piece["cell"]), []).append(_token(piece))
    for cell, tokens in stacks.items():
        known = [t for t in tokens if not t.endswith(HIDDEN)]
        top = known[-1] if known else tokens[-1]
        cells[cell] = top + (f"+{len(tokens) - 1}" if len(tokens) > 1 else "")
    width = max([3] + [len(v) + 1 for v in cells.values()])
    header = "    " + "".join(column_name(c).center(width) for c in range(board.width))
    out = [header]
    if board.kind == "hex":
        for row in range(board.height):
            out.extend(_hex_rows(board, row, cells, width))
    else:
        for row in range(board.height - 1, -1, -1):
            line = f"{row + 1:>3} " + "".join(
                cells.get(row * board.width + c, ".").center(width) for c in range(board.width))
            out.append((line + "  " + _row_label(game, view, row + 1)).rstrip())
    out.append(header)
    key = [f"{stats['symbol']} {kind}" for kind, stats in introspect.kinds(game).items()
           if isinstance(stats.get("symbol"), str)]
    if key:
        out.append("  key: " + ", ".join(key) + "; a piece is drawn as its owner's initial "
                   "and its mark")
    for cell in sorted(stacks, key=lambda c: board.names[c]):
        if len(stacks[cell]) > 1:
            out.append(f"  {board.names[cell]}: {' '.join(stacks[cell])}")
    return out


def _row_label(game, view, row):
    """`show row(r) = TEXT`: a label drawn after row r (1 = first), from the view."""
    labels = view.get("row_labels")
    return labels[row - 1] if labels else ""


def _hex_rows(board, row, cells, width):
    """A hex row as two text lines, rows going down the screen: even columns on the
    first line, odd columns (which sit half a hex lower) on the second."""
    top = f"{row + 1:>3} " + "".join(
        (cells.get(row * board.width + c, ".") if c % 2 == 0 else "").center(width)
        for c in range(board.width))
    bottom = "    " + "".join(
        (cells.get(row * board.width + c, ".") if c % 2 == 1 else "").center(width)
        for c in range(board.width))
    return [top.rstrip(), bottom.rstrip()]
