"""The built-in functions of gdl: their signatures (for the checker) and implementations.

`BUILTINS` holds one `Builtin` row per function, and each row is all there is to know of
it: its parameters and accepted argument counts, a function from the argument types to the
result type (or an error text), the implementation `impl(ctx, *args)` (`ctx` is the running
engine, as much of it as `Context` declares: board, state, random generator), its documentation (the language reference's
table of built-ins is generated from it), and the facts the code generator needs: whether it
draws randomness, reads state, returns a fresh list, only reads its list argument, and the
code it is written as inline. Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Concatenate, NamedTuple, ParamSpec, Protocol, TypeVar

from .errors import RuleFault, counted
from .limits import (FREE_SCAN, MAX_DICE, MAX_LIST, MAX_NUMBER, MAX_PLACEMENTS, MAX_SUM,
                     MAX_TEXT, PLACEMENT_WORK, TEXT_STEP)
from .types import (ANY, BOOL, CELL, DIR, INT, PIECE, PLACEMENT, SEAT, STR, SYMBOL, ZONE,
                    Type, compatible, element, is_list, list_of, placement_pairs,
                    placement_text)

CELL_LIST = list_of(CELL)

# The key of every living piece in `State.owned`: `pieces()` without a seat reads it. Defined
# here, not in the runtime's state module, so the language never imports the runtime.
ALL = "*"


class Position(Protocol):
    """What a built-in reads of the position (a `runtime.state.State`): the pieces' records,
    the living pieces by owner (and `ALL`), the pieces on each cell and in each zone, the
    seats out."""

    @property
    def pieces(self) -> Mapping[int, Mapping[str, Any]]: ...

    @property
    def owned(self) -> Mapping[Any, tuple[int, ...]]: ...

    @property
    def at(self) -> Mapping[int, Sequence[int]]: ...

    @property
    def zoned(self) -> Mapping[tuple[str, int | None], Sequence[int]]: ...

    @property
    def out(self) -> Sequence[bool]: ...


class Context(Protocol):
    """What a built-in may ask of the running engine: the board, the position, the seeded
    generator, the seats in play and the zones. The engine's `Runtime` is one."""

    # a `boards.Board`; Any because `distance` and `orthogonal` are on its subclasses only
    board: Any

    @property
    def state(self) -> Position: ...

    def roll(self, sides: int) -> int: ...

    def pick(self, items: Sequence[Any]) -> Any: ...

    def shuffled(self, items: Sequence[Any] | None) -> list[Any]: ...

    def spend(self, steps: int) -> None:
        """Count `steps` against the work of one decision (limits.MAX_WORK): past it, a
        fault."""

    def next_seat(self, seat: int, step: int) -> int: ...

    def live_seats(self) -> list[int]: ...

    def zone_per_seat(self, zone: str) -> bool | None:
        """Is the zone one per seat (True), shared (False), or no zone (None)?"""


def _fixed(params: tuple[Type, ...], result: Type) -> Typer:
    def typer(args: list[Type]) -> Type | str:
        for i, (want, got) in enumerate(zip(params, args), 1):
            if not compatible(want, got):
                return f"argument {i} must be {_word(want)}, not {_word(got)}"
        return result
    return typer


def _word(t: Type) -> str:
    from .types import describe
    return describe(t)


def _same_list(args: list[Type]) -> Type | str:
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    return args[0]


def _len(args: list[Type]) -> Type | str:
    if not is_list(args[0]) and args[0] not in (ANY, STR):
        return f"argument 1 must be a list or text, not {_word(args[0])}"
    return INT


def _text(args: list[Type]) -> Type | str:
    return STR


def _pieces(args: list[Type]) -> Type | str:
    if args and not compatible(SEAT, args[0]):
        return f"argument 1 must be a seat, not {_word(args[0])}"
    return list_of(PIECE)


def _roll(args: list[Type]) -> Type | str:
    for i, got in enumerate(args, 1):
        if not compatible(INT, got):
            return f"argument {i} must be a number, not {_word(got)}"
    return INT


def _pick(args: list[Type]) -> Type | str:
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    return element(args[0])


def _take(args: list[Type]) -> Type | str:
    if not is_list(args[0]) and args[0] != ANY:
        return f"argument 1 must be a list, not {_word(args[0])}"
    if not compatible(INT, args[1]):
        return f"argument 2 must be a number, not {_word(args[1])}"
    return args[0]


def _nth(args: list[Type]) -> Type | str:
    if not compatible(INT, args[1]):
        return f"argument 2 must be a number, not {_word(args[1])}"
    return _pick(args[:1])


_PLACEMENTS: dict[tuple[tuple[int, ...], tuple[str, ...]], tuple[str, ...]] = {}
_PAIRS: dict[str | None, dict[str, tuple[int, ...]]] = {}    # asked for None, never given it


def placements(dice: Iterable[int] | None, slots: Iterable[str] | None) -> tuple[str, ...]:
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


def placement_steps(dice: int, slots: int) -> int:
    """The steps of trying every way to put `dice` dice on `slots` slots: each of the
    slots ** dice ways writes a placement of them all. At most MAX_PLACEMENTS * 10 are
    tried (`placements_of`), and each call counts them as work (`placement_work`;
    typed_engine's `simul_placements` alike), whether or not its answer was remembered."""
    ways: int = slots ** dice
    return ways * (slots + dice)


def placement_work(dice: int, slots: int) -> int:
    """The work a call of `placements` with `dice` dice and `slots` slots counts, remembered
    answer or not (both backends): its steps of trying, each counted PLACEMENT_WORK times,
    so a loop of calls stops at the work limit as soon as a loop of ordinary steps does."""
    return placement_steps(dice, slots) * PLACEMENT_WORK


def placements_of(dice: Iterable[int], slots: Iterable[str]) -> list[str]:
    """Every way to put all of `dice` on the `slots`, each as its text (`A 2+5 B 3`: the
    slots that get dice, in the order of `slots`, dice low first). Equal
    dice give one placement, not several; no slots for some dice give none."""
    dice = sorted(dice)
    slots = list(slots)
    if not dice:
        return [placement_text(())]
    if not slots:
        return []
    if placement_steps(len(dice), len(slots)) > MAX_PLACEMENTS * 10:
        raise RuleFault(f"{len(dice)} dice on {len(slots)} slots are too many ways to try "
                        f"(more than {MAX_PLACEMENTS * 10} steps)")
    found: dict[str, None] = {}
    choice = [0] * len(dice)
    while True:
        on: list[list[int]] = [[] for _ in slots]
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


def _placements_counted(ctx: Context, dice: Sequence[int] | None,
                        slots: Sequence[str] | None) -> tuple[str, ...]:
    """`placements(dice, slots)`, the steps of trying its ways counted as work
    (`placement_work`): a loop of calls cannot run for hours, each under its limit."""
    found = placements(dice, slots)
    assert dice is not None and slots is not None       # (placements() faults on none)
    ctx.spend(placement_work(len(dice), len(slots)))
    return found


def placed(placement: str | None, slot: str) -> list[int]:
    """The dice a placement (its text) puts on a slot, low first; [] for none."""
    return list(placed_borrowed(placement, slot))


def placed_borrowed(placement: str | None, slot: str) -> Sequence[int]:
    """`placed` without a copy, for code that only reads the dice (`len`, a loop)."""
    pairs = _PAIRS.get(placement)
    if pairs is None:
        found = placement_pairs(placement)
        if found is None:
            raise RuleFault("placed() was given no placement" if placement is None else
                            f"placed(): {placement!r} is not a placement of dice")
        if len(_PAIRS) > 4096:
            _PAIRS.clear()
        _PAIRS[placement] = pairs = dict(found)
    return pairs.get(slot, ())


def seats_round(ctx: Context, seat: Any, step: int) -> list[int]:
    """The seats still playing, from `seat` (included when it plays) round the table."""
    out = ctx.state.out
    if seat.__class__ is not int or not 0 <= seat < len(out):
        raise RuleFault(f"{'none' if seat is None else repr(seat)} is not a seat")
    n = len(out)
    return [(seat + step * k) % n for k in range(n) if not out[(seat + step * k) % n]]


def _placements(args: list[Type]) -> Type | str:
    if not compatible(list_of(INT), args[0]):
        return f"argument 1 must be a list of numbers (the dice), not {_word(args[0])}"
    if not compatible(list_of(SYMBOL), args[1]):
        return f"argument 2 must be a list of symbols (the slots), not {_word(args[1])}"
    return list_of(PLACEMENT)


def dice_pool(ctx: Context, count: Any, sides: Any) -> list[int]:
    """`count` dice of `sides` sides, each a roll event, as a list."""
    if count.__class__ is not int or sides.__class__ is not int or sides < 1 \
            or not 0 <= count <= MAX_DICE:
        raise RuleFault(f"cannot roll {count!r} dice of {sides!r} sides (0 to {MAX_DICE} "
                        "dice of 1 side or more)")
    return [ctx.roll(sides) for _ in range(count)]


def _pieces_in(args: list[Type]) -> Type | str:
    if not compatible(ZONE, args[0]):
        return f"argument 1 must be a zone, not {_word(args[0])}"
    if len(args) > 1 and not compatible(SEAT, args[1]):
        return f"argument 2 must be a seat, not {_word(args[1])}"
    return list_of(PIECE)


def pieces_in(ctx: Context, zone: str, seat: int | None = None) -> list[int]:
    """The pieces in a zone (of a seat, for a zone per seat), in the order they came."""
    per_seat = ctx.zone_per_seat(zone)
    if per_seat is None:
        raise RuleFault(f"{zone!r} is not a zone")
    if per_seat != (seat is not None):
        raise RuleFault(f"zone '{zone}' is {'per seat: say whose' if per_seat else 'shared'}"
                        f" ({'pieces_in(' + zone + ', SEAT)' if per_seat else 'no seat'})")
    return list(ctx.state.zoned.get((zone, seat), ()))


# The categories of state a rule can read, as bits of one mask: the engine runs an end rule
# again only when something it reads has changed (runtime/codegen.py, `reads`).
PIECES, CELLS, PIECE_VARS, SEAT_VARS, GLOBALS, FLOW = 1, 2, 4, 8, 16, 32
ALWAYS = 1 << 10                # reads what is not tracked (rolls dice): run every time

Typer = Callable[[list[Type]], Type | str]      # argument types -> result type, or an error text
Impl = Callable[..., Any]               # impl(ctx, *args), ctx a `Context` (see `_row`)


class Builtin(NamedTuple):
    """One built-in function: all the checker, the code generator and the language
    reference know of it (docs/language.md section 7 is generated from these rows:
    scripts/gen_builtins_doc.py)."""

    name: str
    params: tuple[str, ...]         # the parameters' names; a call passes the first n
    arities: tuple[int, ...]        # the accepted argument counts
    typer: Typer
    impl: Impl | None               # None: always written inline (`inline`) or by the checker
    result: str                     # the result, in words, for the reference
    doc: str                        # what it gives (the reference's text, markdown)
    random: bool = False            # draws randomness: never memoised or computed ahead
    fresh: bool = False             # returns a new list, or one no rule can change
    borrows: bool = False           # only reads its list argument (needs no copy of it)
    reads: int = 0                  # the state categories it reads (PIECES, CELLS, ...)
    # The generated code of a call, one template per arity (in `arities` order), instead of
    # a call of `impl`: `{0}`, `{1}` are the arguments' code, `{width}` the board's width,
    # `{table}` this built-in's table of the board (`L` constant), `{cells}` every cell (a
    # constant), `{directions}` every direction (a constant), `{ndirections}` how many, `{record}` the record of the
    # piece that is argument 0, `{stepsN}` argument N as a count of steps (below 0: 0).
    inline: tuple[str, ...] = ()
    inline_borrowed: str | None = None  # the code when the caller only reads the list
    stops_table: bool = False       # with constant stops (argument 3): a table of the board
    fault: Callable[[list[Any]], str | None] | None = None     # see `static_fault`

    def forms(self) -> list[str]:
        """How it is called: `name(a)`, `name(a, b)`, one per arity."""
        return [f"{self.name}({', '.join(self.params[:n])})" for n in self.arities]

    def takes(self) -> str:
        """How many arguments a call takes: '1 argument', '2 arguments', '1 or 2 arguments'."""
        if len(self.arities) == 1:
            return counted(self.arities[0], "argument")
        return " or ".join(map(str, self.arities)) + " arguments"

    def template(self, count: int) -> str | None:
        """The inline template for a call with `count` arguments, if any."""
        return self.inline[self.arities.index(count)] if self.inline else None


_EVERY = object()
UNSET = object()        # a memoised value not computed yet (generated listings)


_T = TypeVar("_T")
_Listed = TypeVar("_Listed", bound="Sequence[Any] | None")   # a list a built-in reads


def none_met() -> TypeError:
    """The fault of a value that is none where a number is needed, in the words Python's
    own TypeError has for it (the engine words it at the rule's expression)."""
    return TypeError("a value of type 'NoneType' where a number is needed")


def _given(*value: Any) -> Any:
    """A built-in's optional last argument: None when the rule leaves it out; given as
    none, it faults as a none argument does."""
    if value and value[0] is None:
        raise none_met()
    return value[0] if value else None


def sorted_by(pairs: list[tuple[Any, _T]]) -> list[_T]:
    """[(key, item)] -> the items ordered by key, stably; a key that is none faults (two
    or more keys meet in the sort: Python's TypeError; a lone one here)."""
    if len(pairs) == 1 and pairs[0][0] is None:
        raise none_met()
    pairs.sort(key=_key)
    return [item for _, item in pairs]


def extreme(found: int | None) -> int:
    """The value of `min_of` or `max_of`: a lone value that is none (min() and max() compare
    no two) faults, as one compared with another does."""
    if found is None:
        raise none_met()
    return found


def _key(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def as_set(values: Collection[Any]) -> frozenset[Any] | list[Any]:
    """A list as a set for fast `in`, when its values can be hashed."""
    try:
        return frozenset(values)
    except TypeError:
        return list(values)


def last(xs: Sequence[_T]) -> _T | None:
    return xs[-1] if xs else None


def nth(xs: Sequence[_T], n: int) -> _T | None:
    return xs[n - 1] if 1 <= n <= len(xs) else None


def plain(value: Any) -> Any:
    """Tuples (constants) and lists (built during play) as one comparable form."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def unique(xs: Sequence[_T]) -> list[_T]:
    """The list without repeats; lists in it compare by their elements (a constant list
    equals a list built during play)."""
    if not any(isinstance(x, (list, tuple)) for x in xs):
        return list(dict.fromkeys(xs))
    seen: set[Any] = set()
    out: list[_T] = []
    for x in xs:
        key = _hashable(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def read(ctx: Context, xs: _Listed, size: int | None = None) -> _Listed:
    """A list a built-in reads or copies whole (`reversed`, `shuffled`, `total`, `join`,
    ...): `size` elements (its length unless given) counted as work when more than
    limits.FREE_SCAN, so no loop of such calls can run for hours or fill the memory (a short
    list costs one `len`). None passes, to fault where it is used."""
    if xs is not None:
        if size is None:
            size = len(xs)
        if size > FREE_SCAN:
            ctx.spend(size)
    return xs


def written(ctx: Context, text: str) -> str:
    """A text made, written or read whole (`+`, text(), join(), plural(), `==`): its
    characters counted as work, one step for every limits.TEXT_STEP, so no loop of such
    texts can run for minutes (a shorter text costs one `len`)."""
    if len(text) >= TEXT_STEP:
        ctx.spend(len(text) // TEXT_STEP)
    return text


def held(ctx: Context, text: str) -> str:
    """A text a built-in made from texts of any length (`plural`): within limits.MAX_TEXT
    characters, else a fault (`text_too_long`), and counted as work (`written`)."""
    if len(text) > MAX_TEXT:
        raise RuleFault(text_too_long(len(text)))
    return written(ctx, text)


def elements(value: Any, texts: bool = False) -> int:
    """The elements of a list and of the lists inside it, all counted: what comparing two
    lists, or `unique` of a list of lists, may read; with `texts` (the lists hold texts:
    `types.holds_texts`) each list's characters too, one for every limits.TEXT_STEP (two
    equal texts are read whole). 0 for what is not a list."""
    if not isinstance(value, (list, tuple)):
        return 0
    for first in value:     # the elements are of one type: the first not none tells
        if first is not None:
            if isinstance(first, (list, tuple)):
                return len(value) + sum(elements(inner, texts) for inner in value)
            break
    if texts:       # (none and empty texts left out)
        return len(value) + sum(map(len, filter(None, value))) // TEXT_STEP
    return len(value)


def short_texts(values: Iterable[Any]) -> bool:
    """Are the texts among `values` (a constant list) all shorter than limits.TEXT_STEP? A
    text is looked up in such a list as in a set, no long text compared: `x in xs` counts
    no work (the generated code tests a set; else it scans, counting `x`'s characters)."""
    return all(len(v) < TEXT_STEP for v in values if isinstance(v, str))


def _taken(ctx: Context, xs: Sequence[_T], n: int) -> list[_T]:
    taken = list(xs)[:max(n, 0)]
    read(ctx, taken)
    return taken


def _unique_read(ctx: Context, xs: Sequence[_T], texts: bool = False) -> list[_T]:
    """`unique(xs)`, its elements counted (`elements`: the generated code passes `texts`
    for a list of texts)."""
    read(ctx, xs, elements(xs, texts))
    return unique(xs)


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def plural(n: int | None, word: str | None, words: str | None = None) -> str:
    """`n` and the word for that many: '1 piece', '2 pieces', '0 cities'. Without
    `words`, the English plural of `word`: '-y' after a consonant becomes '-ies', '-s',
    '-x', '-z', '-ch' and '-sh' take '-es', the others '-s'. A count or word that is none
    faults (never 'None pieces')."""
    if n is None or word is None:
        raise none_met()
    if n == 1 or n == -1:
        return f"{n} {word}"
    if words is None:
        if word[-1:] == "y" and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
            words = word[:-1] + "ies"
        elif word.endswith(("s", "x", "z", "ch", "sh")):
            words = word + "es"
        else:
            words = word + "s"
    return f"{n} {words}"


def numbers(a: int, b: int) -> list[int]:
    """`range(a, b)`: a to b, both included; at most MAX_LIST of them."""
    if b - a + 1 > MAX_LIST:
        raise RuleFault(f"range(): {_too_long(a, b)}")
    return list(range(a, b + 1))


def in_numbers(x: Any, a: int, b: int) -> bool:
    """`x in range(a, b)`, no list made: range()'s faults (`numbers`: none, too long), then
    a comparison (none is in no range)."""
    if b - a + 1 > MAX_LIST:
        raise RuleFault(f"range(): {_too_long(a, b)}")
    return x is not None and a <= x <= b


def joined_texts(xs: Iterable[str], sep: str) -> str:
    """`join(xs, sep)`: the texts that are not empty with `sep` between them, at most
    MAX_TEXT characters (counted before they are joined: a list of long texts, or of one
    text many times over, is refused before it takes the machine's memory)."""
    kept = [x for x in xs if x]
    size = sum(map(len, kept)) + len(sep) * (len(kept) - 1) if kept else 0
    if size > MAX_TEXT:
        raise RuleFault(text_too_long(size))
    return sep.join(kept)


def number_too_big(value: int, held: bool) -> str:
    """The fault of a number a rule computes past its limit: limits.MAX_NUMBER for one it
    keeps or multiplies by another computed number (`held`), else limits.MAX_SUM."""
    digits = int(abs(int(value)).bit_length() * 0.30103) + 1
    if held:
        return (f"a number of about {digits} digits: a number a rule computes is at most "
                f"{MAX_NUMBER:,} either way (it grows without end?)")
    return (f"a number of about {digits} digits: a sum, a difference or a multiple a rule "
            f"computes is at most {MAX_SUM:,} either way (it grows without end?)")


def summed(xs: Iterable[int]) -> int:
    """`total(xs)` and `sum(x in xs: ...)`: each partial sum within limits.MAX_SUM (the
    native backend adds in C integers), the first one past it a fault."""
    if isinstance(xs, (list, tuple)):   # (a constant list is a tuple)
        total = sum(xs)
        if -MAX_SUM <= total <= MAX_SUM and (not xs or min(xs) >= 0 or max(xs) <= 0):
            return total        # partial sums all of one sign: none beyond the last
    total = 0
    for x in xs:        # (values still to come may fault: they are computed in turn)
        total += x
        if not -MAX_SUM <= total <= MAX_SUM:
            raise RuleFault(number_too_big(total, False))
    return total


def text_too_long(size: int) -> str:
    """The fault of a text a rule makes past limits.MAX_TEXT characters."""
    return (f"a text of {size:,} characters: a text a rule joins is at most {MAX_TEXT:,} "
            "long (it grows without end?)")


def _too_long(a: int, b: int) -> str:
    return f"{b - a + 1} numbers from {a} to {b}; a list holds at most {MAX_LIST:,}"


def static_fault(name: str, values: list[Any]) -> str | None:
    """Why a call of built-in `name` must fail at run time, known before play from its
    constant arguments (`values`, None for one not known until play); else None."""
    fault = BUILTINS[name].fault
    return None if fault is None else fault(values)


def _known(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _roll_fault(values: list[Any]) -> str | None:
    if _known(values[0]) and values[0] < 1:
        return f"a die has at least 1 side, not {values[0]}"
    if len(values) > 1 and _known(values[1]) and not 0 <= values[1] <= MAX_DICE:
        return f"a roll throws 0 to {MAX_DICE:,} dice, not {values[1]}"
    return None


def _pool_fault(values: list[Any]) -> str | None:
    """`rolls(k, n)` and `successes(k, n, t)`: `roll(n, k)`'s faults."""
    return _roll_fault([values[1], values[0]])


def _range_fault(values: list[Any]) -> str | None:
    if all(_known(v) for v in values) and values[1] - values[0] + 1 > MAX_LIST:
        return _too_long(*values)
    return None


def _pieces_impl(ctx: Context, seat: object = _EVERY) -> tuple[int, ...]:
    """Living pieces in id order, from the state's index (a tuple nobody can change)."""
    return ctx.state.owned.get(ALL if seat is _EVERY else seat, ())


def _clamp(lo: int, value: int, hi: int) -> int:
    return max(lo, min(value, hi))


_P = ParamSpec("_P")


def _row(name: str, params: str, arities: tuple[int, ...], typer: Typer,
         impl: Callable[Concatenate[Context, _P], Any] | None, result: str, doc: str,
         **facts: Any) -> Builtin:
    """A `Builtin` row; `params` names the parameters, comma-separated. (`impl` typed so,
    mypy reads each lambda's `ctx` as a `Context`.)"""
    return Builtin(name, tuple(params.split(", ")) if params else (), arities, typer, impl,
                   result, doc, **facts)


BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    # the board
    _row("distance", "a, b", (2,), _fixed((CELL, CELL), INT),
         lambda ctx, a, b: ctx.board.distance(a, b), "number",
         "steps between two cells: king steps on a square board (rook steps with "
         "`directions 4`), hex steps on a hex board", inline=("{table}[{0}][{1}]",)),
    _row("neighbors", "c", (1,), _fixed((CELL,), CELL_LIST),
         lambda ctx, c: ctx.board.neighbors(c), "list of cell",
         "the adjacent cells along the board's directions: 8 on a square board (4 with "
         "`directions 4`), 6 on a hex board (fewer at the edge and next to a hole)",
         fresh=True, inline=("{table}[{0}]",)),
    _row("orthogonal", "c", (1,), _fixed((CELL,), CELL_LIST),
         lambda ctx, c: ctx.board.orthogonal(c), "list of cell",
         "cells sharing a side: 4 on a square board; on a hex board the same as `neighbors`",
         fresh=True, inline=("{table}[{0}]",)),
    _row("line", "a, b", (2,), _fixed((CELL, CELL), CELL_LIST),
         lambda ctx, a, b: ctx.board.line(a, b), "list of cell",
         "the cells crossed going straight from `a` to `b`: `a` excluded, `b` included; `[]` "
         "when `a` is `b`", fresh=True, inline=("{table}[{0}][{1}]",)),
    _row("reach", "c, n, stops", (3,), _fixed((CELL, INT, CELL_LIST), CELL_LIST),
         lambda ctx, c, n, stops: ctx.board.reach(c, n, stops), "list of cell",
         "cells up to `n` steps from `c` along each straight direction; a line may end on a "
         "cell of `stops` but not pass it", fresh=True, stops_table=True),
    _row("sight", "c, n, blockers", (3,), _fixed((CELL, INT, CELL_LIST), CELL_LIST),
         lambda ctx, c, n, blockers: ctx.board.sight(c, n, blockers), "list of cell",
         "cells up to `n` steps along each straight direction, each line ending just before a "
         "blocker", fresh=True, stops_table=True),
    _row("clear_line", "a, b, blockers", (3,), _fixed((CELL, CELL, CELL_LIST), BOOL),
         lambda ctx, a, b, blockers: ctx.board.clear_line(a, b, blockers), "true/false",
         "true when no cell of `line(a, b)` (so `b` included) is a blocker and no hole lies on "
         "the way (8.6)"),
    _row("cells", "", (0,), _fixed((), CELL_LIST), lambda ctx: list(ctx.board.all_cells),
         "list of cell", "every cell: a1, b1, ..., then a2, b2, ... (holes are not cells, 8.6)",
         fresh=True, inline=("{cells}",)),
    _row("row_cells", "r", (1,), _fixed((INT,), CELL_LIST),
         lambda ctx, r: ctx.board.row_cells(r), "list of cell",
         "the cells of row `r` (1 = the first), `[]` off the board", fresh=True),
    _row("column_cells", "k", (1,), _fixed((INT,), CELL_LIST),
         lambda ctx, c: ctx.board.column_cells(c), "list of cell",
         "the cells of column `k` (1 = a), `[]` off the board", fresh=True),
    _row("cell_at", "k, r", (2,), _fixed((INT, INT), CELL),
         lambda ctx, k, r: ctx.board.cell_at(k, r), "cell",
         "the cell of column `k` (a = 1) and row `r`: `cell_at(3, 5)` is `@c5`; `none` off "
         "the board or in a hole"),
    _row("row", "c", (1,), _fixed((CELL,), INT), lambda ctx, c: c // ctx.board.width + 1,
         "number", "row number of a cell", inline=("(({0}) // {width} + 1)",)),
    _row("column", "c", (1,), _fixed((CELL,), INT), lambda ctx, c: c % ctx.board.width + 1,
         "number", "column number of a cell (a = 1)", inline=("(({0}) % {width} + 1)",)),
    # directions
    _row("directions", "", (0,), _fixed((), list_of(DIR)),
         lambda ctx: list(range(len(ctx.board.directions))), "list of direction",
         "the board's directions, clockwise from north (8.5)", fresh=True,
         inline=("list({directions})",), inline_borrowed="{directions}"),
    _row("step", "c, d", (2,), _fixed((CELL, DIR), CELL),
         lambda ctx, c, d: ctx.board.step_dir(c, d), "cell",
         "the next cell from `c` along direction `d`; `none` off the board or in a hole",
         inline=("{table}[{0}][{1}]",)),
    _row("ray", "c, d, n", (3,), _fixed((CELL, DIR, INT), CELL_LIST),
         lambda ctx, c, d, n: ctx.board.ray(c, d, n), "list of cell",
         "up to `n` cells from `c` along `d` (`c` excluded), stopping at the edge or a hole",
         fresh=True, inline=("list({table}[{0}][{1}][:{steps2}])",),
         inline_borrowed="{table}[{0}][{1}][:{steps2}]"),
    _row("turn", "d, k", (2,), _fixed((DIR, INT), DIR),
         lambda ctx, d, k: ctx.board.turn(d, k), "direction",
         "`d` turned `k` steps clockwise (`k` < 0: counter-clockwise)",
         inline=("(({0} + {1}) % {ndirections})",)),
    _row("opposite", "d", (1,), _fixed((DIR,), DIR),
         lambda ctx, d: ctx.board.turn(d, len(ctx.board.directions) // 2), "direction",
         "`d` turned half round"),
    _row("direction", "a, b", (2,), _fixed((CELL, CELL), DIR),
         lambda ctx, a, b: ctx.board.direction(a, b), "direction",
         "the direction along which `b` lies straight from `a` (with no hole between), else "
         "`none`"),
    _row("exits", "c", (1,), _fixed((CELL,), list_of(DIR)),
         lambda ctx, c: ctx.board.exits(c), "list of direction",
         "the directions in which `c` has a neighbour", fresh=True),
    _row("intersections", "", (0,), _fixed((), CELL_LIST),
         lambda ctx: list(ctx.board.intersection_cells), "list of cell",
         "the cells with 3 or more neighbours along the board's directions", fresh=True),
    # measuring
    _row("within", "c, r", (2,), _fixed((CELL, INT), CELL_LIST),
         lambda ctx, c, r: ctx.board.within(c, r), "list of cell",
         "every cell at `distance` `r` or less from `c` (`c` included), in `cells()` order; "
         "`[]` when `r` < 0", fresh=True),
    _row("toward", "a, b, n", (3,), _fixed((CELL, CELL, INT), CELL),
         lambda ctx, a, b, n: ctx.board.toward(a, b, n), "cell",
         "the cell `n` along the straight line from `a` toward `b`, `b` itself when it is "
         "closer: on a table the exact point rounded to the nearest cell (8.7), elsewhere the "
         "`n`-th cell of `line(a, b)`; `a` when `n` <= 0"),
    _row("edge_distance", "c", (1,), _fixed((CELL,), INT),
         lambda ctx, c: ctx.board.edge_distance(c), "number",
         "the cells between `c` and the nearest edge of the rectangle (`0` on the edge)"),
    _row("nearest_edge", "c", (1,), _fixed((CELL,), DIR),
         lambda ctx, c: ctx.board.nearest_edge(c), "direction",
         "`north`, `east`, `south` or `west`: the side of the rectangle nearest `c`, ties "
         "broken in that order (square boards and tables, 8.7)"),
    # pieces
    _row("pieces_at", "c", (1,), _fixed((CELL,), list_of(PIECE)),
         lambda ctx, c: tuple(ctx.state.at.get(c, ())), "list of piece",
         "the pieces on a cell, in the order they arrived", fresh=True, reads=PIECES | CELLS,
         inline=("tuple(S.at.get({0}, ()))",), inline_borrowed="S.at.get({0}, ())"),
    _row("pieces", "s", (0, 1), _pieces, _pieces_impl, "list of piece",
         "every piece still in the game (on or off the board), in creation order; `pieces(s)`: "
         "the pieces of seat `s` still in the game", fresh=True, reads=PIECES,
         inline=("S.owned['*']", "S.owned.get({0}, ())")),
    _row("alive", "p", (1,), _fixed((PIECE,), BOOL),
         lambda ctx, p: ctx.state.pieces[p]["alive"], "true/false",
         "the piece has not been removed", reads=PIECES, inline=("{record}['alive']",)),
    _row("pieces_in", "z, s", (1, 2), _pieces_in, pieces_in, "list of piece",
         "the pieces in a shared zone, or in seat `s`'s part of a zone per seat, oldest first "
         "(11.4)", reads=PIECES | CELLS),
    # seats
    _row("next", "s", (1,), _fixed((SEAT,), SEAT), lambda ctx, s: ctx.next_seat(s, 1), "seat",
         "the next seat still in the game, in seat order, wrapping round", reads=FLOW,
         inline=("rt.next_seat({0}, 1)",)),
    _row("previous", "s", (1,), _fixed((SEAT,), SEAT), lambda ctx, s: ctx.next_seat(s, -1),
         "seat", "the previous seat still in the game", reads=FLOW,
         inline=("rt.next_seat({0}, -1)",)),
    _row("opponents", "s", (1,), _fixed((SEAT,), list_of(SEAT)),
         lambda ctx, s: [o for o in ctx.live_seats() if o != s], "list of seat",
         "every other seat still in the game", fresh=True, reads=FLOW),
    _row("clockwise_from", "s", (1,), _fixed((SEAT,), list_of(SEAT)),
         lambda ctx, s: seats_round(ctx, s, 1), "list of seat",
         "the seats still in the game in seat order, from `s` round the table (4.8)",
         fresh=True),
    _row("counterclockwise_from", "s", (1,), _fixed((SEAT,), list_of(SEAT)),
         lambda ctx, s: seats_round(ctx, s, -1), "list of seat",
         "the same in reverse seat order", fresh=True),
    # dice and chance
    _row("roll", "n, k", (1, 2), _roll, None, "number",
         "one die with `n` sides (1 to `n`); `roll(n, k)`: the sum of `k` dice with `n` sides",
         random=True, inline=("rt.roll_dice({0}, 1)", "rt.roll_dice({0}, {1})"),
         fault=_roll_fault),
    _row("rolls", "k, n", (2,), _fixed((INT, INT), list_of(INT)),
         lambda ctx, n, sides: dice_pool(ctx, n, sides), "list of number",
         "`k` dice with `n` sides, in the order rolled (10.2)", random=True, fresh=True,
         fault=_pool_fault),
    _row("successes", "k, n, t", (3,), _fixed((INT, INT, INT), INT),
         lambda ctx, n, sides, at_least: sum(
             1 for die in dice_pool(ctx, n, sides) if die >= at_least), "number",
         "how many of `k` dice with `n` sides show `t` or more (10.2)", random=True,
         fault=_pool_fault),
    _row("shuffled", "xs", (1,), _same_list, lambda ctx, xs: ctx.shuffled(read(ctx, xs)),
         "list", "a shuffled copy of a list", random=True, fresh=True),
    _row("placements", "dice, slots", (2,), _placements, _placements_counted,
         "list of placement",
         "every different way to put all the dice (numbers) on the slots (symbols) (10.1)",
         fresh=True),
    _row("placed", "p, slot", (2,), _fixed((PLACEMENT, SYMBOL), list_of(INT)),
         lambda ctx, pl, slot: placed(pl, slot), "list of number",
         "the dice that placement `p` puts on `slot`, low first; `[]` for none", fresh=True,
         inline=("_placed({0}, {1})",), inline_borrowed="_placed_borrowed({0}, {1})"),
    _row("pick", "xs", (1,), _pick, lambda ctx, xs: ctx.pick(xs), "element",
         "one element at random, `none` from an empty list; adds a `pick` event (10)",
         random=True),
    # lists and numbers
    _row("reversed", "xs", (1,), _same_list, lambda ctx, xs: list(read(ctx, xs))[::-1],
         "list", "the list in reverse order", fresh=True, borrows=True),
    _row("last", "xs", (1,), _pick, lambda ctx, xs: last(xs), "element",
         "the last element, `none` from an empty list", borrows=True, inline=("_last({0})",)),
    _row("nth", "xs, n", (2,), _nth, lambda ctx, xs, n: nth(xs, n), "element",
         "the `n`-th element, counting from 1; `none` when there is none (`n` < 1 or `n` > "
         "`len(xs)`)", borrows=True, inline=("_nth({0}, {1})",)),
    _row("take", "xs, n", (2,), _take, _taken, "list",
         "the first `n` elements (all of them when there are fewer; `[]` when `n` <= 0)",
         fresh=True, borrows=True),
    _row("unique", "xs", (1,), _same_list, _unique_read, "list",
         "the list without repeats, each element where it first occurs", fresh=True,
         borrows=True),
    _row("len", "xs", (1,), _len, lambda ctx, xs: len(xs), "number",
         "length of a list or a text", borrows=True, inline=("len({0})",)),
    _row("total", "xs", (1,), _fixed((list_of(INT),), INT),
         lambda ctx, xs: summed(read(ctx, xs)),
         "number", "the sum of a list of numbers (`0` for `[]`)"),
    _row("abs", "x", (1,), _fixed((INT,), INT), lambda ctx, x: abs(x), "number",
         "absolute value", inline=("abs({0})",)),
    _row("min", "a, b", (2,), _fixed((INT, INT), INT), lambda ctx, a, b: min(a, b), "number",
         "the smaller of two numbers", inline=("min({0}, {1})",)),
    _row("max", "a, b", (2,), _fixed((INT, INT), INT), lambda ctx, a, b: max(a, b), "number",
         "the larger of two numbers", inline=("max({0}, {1})",)),
    _row("clamp", "lo, x, hi", (3,), _fixed((INT, INT, INT), INT),
         lambda ctx, lo, x, hi: _clamp(lo, x, hi), "number", "`x` limited to `lo`..`hi`"),
    _row("range", "a, b", (2,), _fixed((INT, INT), list_of(INT)),
         lambda ctx, a, b: numbers(a, b), "list of number",
         "`a` to `b`, both included; `[]` when `b < a`", fresh=True, fault=_range_fault),
    _row("join", "xs, sep", (2,), _fixed((list_of(STR), STR), STR),
         lambda ctx, xs, sep: written(ctx, joined_texts(read(ctx, xs), sep)), "text",
         "the texts of a list with `sep` between them, empty texts left out: "
         "`join([\"a\", \"\", \"b\"], \", \")` is `a, b`"),
    _row("plural", "n, word, words", (2, 3), _fixed((INT, STR, STR), STR),
         lambda ctx, n, word, *words: held(ctx, plural(n, word, _given(*words))),
         "text",
         "`n` and the word for that many: `plural(1, \"piece\")` is `1 piece`, "
         "`plural(2, \"territory\")` `2 territories`, `plural(3, \"die\", \"dice\")` "
         "`3 dice` (without `words`: `-y` after a consonant gives `-ies`, `-s`, `-x`, `-z`, "
         "`-ch`, `-sh` add `-es`, other words `-s`); `n` none is a run-time error "
         "(`plural() cannot work with a value that is none`), as is a `words` that is none"),
    _row("text", "x", (1,), _text, None, "text",
         "a value written as text: cells `d5`, pieces by label (`KIND#2`), seats, symbols "
         "and kinds by name, `true`/`false`, `none`, lists `[a1, b2]`"),
]}


def reference_table() -> str:
    """The language reference's table of built-ins (docs/language.md section 7), in markdown,
    written from the rows (scripts/gen_builtins_doc.py puts it in the document)."""
    lines = ["| function | result | meaning |", "|---|---|---|"]
    for row in BUILTINS.values():
        forms = ", ".join(f"`{form}`" for form in row.forms())
        doc = row.doc.replace("|", "\\|")
        lines.append(f"| {forms} | {row.result} | {doc} |")
    return "\n".join(lines) + "\n"
