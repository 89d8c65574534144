"""The built-in functions of gdl: their signatures (for the checker) and implementations.

Each entry gives the accepted argument counts, a function from the argument types to the
result type (or an error text), and the implementation `impl(ctx, *args)`, where `ctx` is
the running `Runtime` (board, state, random generator). Nothing here knows any game.
"""

from __future__ import annotations

from .errors import RuleFault
from .limits import MAX_DICE, MAX_LIST, MAX_PLACEMENTS
from .types import (ANY, BOOL, CELL, DIR, INT, PIECE, PLACEMENT, SEAT, STR, SYMBOL, ZONE,
                    compatible, element, is_list, list_of, placement_pairs, placement_text)

CELLS = list_of(CELL)

# The key of every living piece in `State.owned`: `pieces()` without a seat reads it. Defined
# here, not in the runtime's state module, so the language never imports the runtime.
ALL = "*"


def _fixed(params, result):
    def typer(args):
        for i, (want, got) in enumerate(zip(params, args), 1):
            if not compatible(want, got):
                return f"argument {i} must be {_word(want)}, not {_word(got)}"
        return result
    return typer


def _word(t):
    from .types import describe
    return describe(t)


def _same_list(args):
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    return args[0]


def _len(args):
    if not is_list(args[0]) and args[0] not in (ANY, STR):
        return f"argument 1 must be a list or text, not {_word(args[0])}"
    return INT


def _text(args):
    return STR


def _pieces(args):
    if args and not compatible(SEAT, args[0]):
        return f"argument 1 must be a seat, not {_word(args[0])}"
    return list_of(PIECE)


def _roll(args):
    for i, got in enumerate(args, 1):
        if not compatible(INT, got):
            return f"argument {i} must be a number, not {_word(got)}"
    return INT


def _pick(args):
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    return element(args[0])


def _take(args):
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    if not compatible(INT, args[1]):
        return f"argument 2 must be a number, not {_word(args[1])}"
    return args[0]


def _nth(args):
    if not compatible(INT, args[1]):
        return f"argument 2 must be a number, not {_word(args[1])}"
    return _pick(args[:1])


_PLACEMENTS = {}
_PAIRS = {}


def placements(dice, slots):
    """`placements_of`, remembered: a game asks for the same few rolls again and again. The
    answer is a tuple, so no caller can change another's."""
    if dice is None or slots is None:
        raise RuleFault("placements() needs dice and slots, not none")
    key = (tuple(dice), tuple(slots))
    found = _PLACEMENTS.get(key)
    if found is None:
        if len(_PLACEMENTS) > 4096:
            _PLACEMENTS.clear()
        found = _PLACEMENTS[key] = tuple(placements_of(dice, slots))
    return found


def placements_of(dice, slots):
    """Every way to put all of `dice` on the `slots`, each as its text (`A 2+5 B 3`: the
    slots that get dice, in the order of `slots`, dice low first). Equal
    dice give one placement, not several; no slots for some dice give none."""
    dice = sorted(dice)
    slots = list(slots)
    if not dice:
        return [placement_text(())]
    if not slots:
        return []
    if len(slots) ** len(dice) * (len(slots) + len(dice)) > MAX_PLACEMENTS * 10:
        raise RuleFault(f"{len(dice)} dice on {len(slots)} slots are too many ways to try "
                        f"(more than {MAX_PLACEMENTS * 10} steps)")
    found = {}
    choice = [0] * len(dice)
    while True:
        on = [[] for _ in slots]
        for die, slot in zip(dice, choice):
            on[slot].append(die)
        found.setdefault(placement_text(zip(slots, on)), None)
        k = len(choice) - 1         # the next choice, the last die changing fastest
        while k >= 0 and choice[k] == len(slots) - 1:
            choice[k] = 0
            k -= 1
        if k < 0:
            return list(found)
        choice[k] += 1


def placed(placement, slot):
    """The dice a placement (its text) puts on a slot, low first; [] for none."""
    pairs = _PAIRS.get(placement)
    if pairs is None:
        pairs = placement_pairs(placement)
        if pairs is None:
            raise RuleFault("placed() was given no placement" if placement is None else
                            f"placed(): {placement!r} is not a placement of dice")
        if len(_PAIRS) > 4096:
            _PAIRS.clear()
        _PAIRS[placement] = pairs = dict(pairs)
    return list(pairs.get(slot, ()))


def seats_round(ctx, seat, step):
    """The seats still playing, from `seat` (included when it plays) round the table."""
    out = ctx.state.out
    if seat.__class__ is not int or not 0 <= seat < len(out):
        raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
    n = len(out)
    return [(seat + step * k) % n for k in range(n) if not out[(seat + step * k) % n]]


def _placements(args):
    if not compatible(list_of(INT), args[0]):
        return f"argument 1 must be a list of numbers (the dice), not {_word(args[0])}"
    if not compatible(list_of(SYMBOL), args[1]):
        return f"argument 2 must be a list of symbols (the slots), not {_word(args[1])}"
    return list_of(PLACEMENT)


def dice_pool(ctx, count, sides):
    """`count` dice of `sides` sides, each a roll event, as a list."""
    if count.__class__ is not int or sides.__class__ is not int or sides < 1 \
            or not 0 <= count <= MAX_DICE:
        raise RuleFault(f"cannot roll {count!r} dice of {sides!r} sides (0 to {MAX_DICE} "
                        "dice of 1 side or more)")
    return [ctx.roll(sides) for _ in range(count)]


def _pieces_in(args):
    if not compatible(ZONE, args[0]):
        return f"argument 1 must be a zone, not {_word(args[0])}"
    if len(args) > 1 and not compatible(SEAT, args[1]):
        return f"argument 2 must be a seat, not {_word(args[1])}"
    return list_of(PIECE)


def pieces_in(ctx, zone, seat=None):
    """The pieces in a zone (of a seat, for a zone per seat), in the order they came."""
    per_seat = ctx.game._zones.get(zone)
    if per_seat is None:
        raise RuleFault(f"{zone!r} is not a zone")
    if per_seat != (seat is not None):
        raise RuleFault(f"zone '{zone}' is {'per seat: say whose' if per_seat else 'shared'}"
                        f" ({'pieces_in(' + zone + ', SEAT)' if per_seat else 'no seat'})")
    found = []
    pieces = ctx.state.pieces
    for pid in ctx.state.owned[ALL]:
        where = pieces[pid].get("zone")
        if where is not None and where[0] == zone and where[1] == seat:
            found.append((where[2], pid))
    found.sort()
    return [pid for _, pid in found]


class Builtin:
    __slots__ = ("name", "arities", "typer", "impl", "doc")

    def __init__(self, name, arities, typer, impl, doc):
        self.name, self.arities, self.typer, self.impl, self.doc = name, arities, typer, impl, doc


_EVERY = object()
UNSET = object()        # a memoised value not computed yet (generated listings)


def sorted_by(pairs):
    """[(key, item)] -> the items ordered by key, stably."""
    pairs.sort(key=_key)
    return [item for _, item in pairs]


def _key(pair):
    return pair[0]


def as_set(values):
    """A list as a set for fast `in`, when its values can be hashed."""
    try:
        return frozenset(values)
    except TypeError:
        return list(values)


def last(xs):
    return xs[-1] if xs else None


def nth(xs, n):
    return xs[n - 1] if 1 <= n <= len(xs) else None


def plain(value):
    """Tuples (constants) and lists (built during play) as one comparable form."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def unique(xs):
    """The list without repeats; lists in it compare by their elements (a constant list
    equals a list built during play)."""
    if not any(isinstance(x, (list, tuple)) for x in xs):
        return list(dict.fromkeys(xs))
    seen = set()
    out = []
    for x in xs:
        key = _hashable(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _hashable(value):
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def numbers(a, b):
    """`range(a, b)`: a to b, both included; at most MAX_LIST of them."""
    if b - a + 1 > MAX_LIST:
        raise RuleFault(f"range(): {_too_long(a, b)}")
    return list(range(a, b + 1))


def _too_long(a, b):
    return f"{b - a + 1} numbers from {a} to {b}; a list holds at most {MAX_LIST:,}"


def static_fault(name, values):
    """Why a call of built-in `name` must fail at run time, known before play from its
    constant arguments (`values`, None for one not known until play); else None."""
    known = [isinstance(v, int) and not isinstance(v, bool) for v in values]
    if name == "roll":
        if known[0] and values[0] < 1:
            return f"a die has at least 1 side, not {values[0]}"
        if len(values) > 1 and known[1] and not 0 <= values[1] <= MAX_DICE:
            return f"a roll throws 0 to {MAX_DICE:,} dice, not {values[1]}"
    if name == "range" and all(known) and values[1] - values[0] + 1 > MAX_LIST:
        return _too_long(*values)
    return None


def _pieces_impl(ctx, seat=_EVERY):
    """Living pieces in id order, from the state's index (a tuple nobody can change)."""
    return ctx.state.owned.get(ALL if seat is _EVERY else seat, ())


def _clamp(lo, value, hi):
    return max(lo, min(value, hi))


BUILTINS = {b.name: b for b in [
    Builtin("distance", (2,), _fixed((CELL, CELL), INT),
            lambda ctx, a, b: ctx.board.distance(a, b), "steps between two cells"),
    Builtin("neighbors", (1,), _fixed((CELL,), CELLS),
            lambda ctx, c: ctx.board.neighbors(c), "adjacent cells (8 on square, 6 on hex)"),
    Builtin("orthogonal", (1,), _fixed((CELL,), CELLS),
            lambda ctx, c: ctx.board.orthogonal(c), "cells sharing a side"),
    Builtin("line", (2,), _fixed((CELL, CELL), CELLS),
            lambda ctx, a, b: ctx.board.line(a, b), "cells crossed from a to b, b included"),
    Builtin("reach", (3,), _fixed((CELL, INT, CELLS), CELLS),
            lambda ctx, c, n, stops: ctx.board.reach(c, n, stops),
            "cells up to n steps along straight lines; may end on, never pass, a stop"),
    Builtin("sight", (3,), _fixed((CELL, INT, CELLS), CELLS),
            lambda ctx, c, n, blockers: ctx.board.sight(c, n, blockers),
            "cells up to n steps along straight lines, stopping before a blocker"),
    Builtin("clear_line", (3,), _fixed((CELL, CELL, CELLS), BOOL),
            lambda ctx, a, b, blockers: ctx.board.clear_line(a, b, blockers),
            "true when no blocker lies on the line from a to b"),
    Builtin("cells", (0,), _fixed((), CELLS),
            lambda ctx: list(ctx.board.all_cells), "every cell of the board"),
    Builtin("row_cells", (1,), _fixed((INT,), CELLS),
            lambda ctx, r: ctx.board.row_cells(r), "the cells of row r (1 = first)"),
    Builtin("column_cells", (1,), _fixed((INT,), CELLS),
            lambda ctx, c: ctx.board.column_cells(c), "the cells of column c (1 = a)"),
    Builtin("row", (1,), _fixed((CELL,), INT),
            lambda ctx, c: c // ctx.board.width + 1, "row number of a cell"),
    Builtin("column", (1,), _fixed((CELL,), INT),
            lambda ctx, c: c % ctx.board.width + 1, "column number of a cell (a = 1)"),
    Builtin("pieces_at", (1,), _fixed((CELL,), list_of(PIECE)),
            lambda ctx, c: tuple(ctx.state.at.get(c, ())), "pieces on a cell, oldest first"),
    Builtin("pieces", (0, 1), _pieces, _pieces_impl,
            "living pieces: all, or of one seat (pieces(none): those of no seat)"),
    Builtin("alive", (1,), _fixed((PIECE,), BOOL),
            lambda ctx, p: ctx.state.pieces[p]["alive"], "the piece has not been removed"),
    Builtin("next", (1,), _fixed((SEAT,), SEAT),
            lambda ctx, s: ctx.next_seat(s, 1), "the next seat still playing, clockwise"),
    Builtin("previous", (1,), _fixed((SEAT,), SEAT),
            lambda ctx, s: ctx.next_seat(s, -1), "the previous seat still playing"),
    Builtin("opponents", (1,), _fixed((SEAT,), list_of(SEAT)),
            lambda ctx, s: [o for o in ctx.live_seats() if o != s], "every other live seat"),
    Builtin("roll", (1, 2), _roll, None, "roll(sides) or roll(sides, dice): their sum "
            "(generated as a call of the runtime's roll_dice)"),
    Builtin("shuffled", (1,), _same_list,
            lambda ctx, xs: ctx.shuffled(xs), "a shuffled copy of a list"),
    Builtin("pick", (1,), _pick,
            lambda ctx, xs: ctx.pick(xs), "one element at random (none from [])"),
    Builtin("reversed", (1,), _same_list,
            lambda ctx, xs: list(xs)[::-1], "the list in reverse order"),
    Builtin("last", (1,), _pick,
            lambda ctx, xs: last(xs), "the last element (none from [])"),
    Builtin("nth", (2,), _nth, lambda ctx, xs, n: nth(xs, n),
            "the n-th element, counting from 1 (none when there is no such element)"),
    Builtin("take", (2,), _take, lambda ctx, xs, n: list(xs)[:max(n, 0)],
            "the first n elements"),
    Builtin("unique", (1,), _same_list, lambda ctx, xs: unique(xs),
            "the list without repeats, first occurrences kept"),
    Builtin("len", (1,), _len, lambda ctx, xs: len(xs), "length of a list or text"),
    Builtin("abs", (1,), _fixed((INT,), INT), lambda ctx, x: abs(x), "absolute value"),
    Builtin("min", (2,), _fixed((INT, INT), INT), lambda ctx, a, b: min(a, b), "smaller"),
    Builtin("max", (2,), _fixed((INT, INT), INT), lambda ctx, a, b: max(a, b), "larger"),
    Builtin("clamp", (3,), _fixed((INT, INT, INT), INT),
            lambda ctx, lo, x, hi: _clamp(lo, x, hi), "x limited to lo..hi"),
    Builtin("range", (2,), _fixed((INT, INT), list_of(INT)),
            lambda ctx, a, b: numbers(a, b), "the numbers a to b, both included"),
    Builtin("text", (1,), _text, None, "a value written as text"),
    Builtin("total", (1,), _fixed((list_of(INT),), INT), lambda ctx, xs: sum(xs),
            "the sum of a list of numbers"),
    Builtin("join", (2,), _fixed((list_of(STR), STR), STR),
            lambda ctx, xs, sep: sep.join(x for x in xs if x),
            "the texts of a list with `sep` between them, empty texts left out"),
    # zones
    Builtin("pieces_in", (1, 2), _pieces_in, pieces_in,
            "the pieces in a zone (shared), or in a seat's zone (per seat), oldest first"),
    # dice pools
    Builtin("rolls", (2,), _fixed((INT, INT), list_of(INT)),
            lambda ctx, n, sides: dice_pool(ctx, n, sides), "n dice of `sides` sides"),
    Builtin("successes", (3,), _fixed((INT, INT, INT), INT),
            lambda ctx, n, sides, at_least: sum(
                1 for die in dice_pool(ctx, n, sides) if die >= at_least),
            "roll n dice of `sides` sides: how many show at_least or more"),
    # measuring
    Builtin("within", (2,), _fixed((CELL, INT), CELLS),
            lambda ctx, c, r: ctx.board.within(c, r), "every cell at distance r or less"),
    Builtin("toward", (3,), _fixed((CELL, CELL, INT), CELL),
            lambda ctx, a, b, n: ctx.board.toward(a, b, n),
            "the cell n along the straight line from a toward b (b when closer)"),
    Builtin("edge_distance", (1,), _fixed((CELL,), INT),
            lambda ctx, c: ctx.board.edge_distance(c), "cells from c to the nearest edge"),
    Builtin("nearest_edge", (1,), _fixed((CELL,), DIR),
            lambda ctx, c: ctx.board.nearest_edge(c),
            "the direction of the nearest edge (north, east, south or west)"),
    # directions
    Builtin("directions", (0,), _fixed((), list_of(DIR)),
            lambda ctx: list(range(len(ctx.board.directions))),
            "the board's directions, clockwise from north"),
    Builtin("step", (2,), _fixed((CELL, DIR), CELL),
            lambda ctx, c, d: ctx.board.step_dir(c, d),
            "the next cell along a direction (none off the board or in a hole)"),
    Builtin("ray", (3,), _fixed((CELL, DIR, INT), CELLS),
            lambda ctx, c, d, n: ctx.board.ray(c, d, n),
            "up to n cells along a direction, stopping at the edge or a hole"),
    Builtin("turn", (2,), _fixed((DIR, INT), DIR), lambda ctx, d, k: ctx.board.turn(d, k),
            "a direction turned k steps clockwise (negative: anticlockwise)"),
    Builtin("opposite", (1,), _fixed((DIR,), DIR),
            lambda ctx, d: ctx.board.turn(d, len(ctx.board.directions) // 2),
            "the direction turned half round"),
    Builtin("direction", (2,), _fixed((CELL, CELL), DIR),
            lambda ctx, a, b: ctx.board.direction(a, b),
            "the direction from a to b when b lies straight along one, else none"),
    Builtin("exits", (1,), _fixed((CELL,), list_of(DIR)),
            lambda ctx, c: ctx.board.exits(c), "the directions leading to a cell from c"),
    Builtin("intersections", (0,), _fixed((), CELLS),
            lambda ctx: list(ctx.board.intersection_cells),
            "cells with three or more neighbours along the board's directions"),
    # seat order
    Builtin("clockwise_from", (1,), _fixed((SEAT,), list_of(SEAT)),
            lambda ctx, s: seats_round(ctx, s, 1),
            "the seats still playing in seat order, from s round the table"),
    Builtin("counterclockwise_from", (1,), _fixed((SEAT,), list_of(SEAT)),
            lambda ctx, s: seats_round(ctx, s, -1),
            "the seats still playing in reverse seat order, from s round the table"),
    # dice placed after rolling
    Builtin("placements", (2,), _placements, lambda ctx, dice, slots: placements(dice, slots),
            "every way to put all the dice on the slots (equal dice: one way)"),
    Builtin("placed", (2,), _fixed((PLACEMENT, SYMBOL), list_of(INT)),
            lambda ctx, pl, slot: placed(pl, slot), "the dice a placement puts on a slot"),
]}
