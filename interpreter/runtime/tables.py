"""Fns answered from a table: a fn of cells and seats that reads nothing of the position
(only its arguments, constants and the board) gives the same value, and counts the same
work, every time it is called with the same arguments. The engine works such a fn's answers
out once, when a game is loaded, by calling it for every argument it can be given, and then
answers calls from the table: the same values and the same work counted (limits.MAX_WORK),
so nothing a game does changes, only its speed (a Nine Men's Morris `linked(c, e)` walks
its sixteen mills on every call).

Both backends read the same table: the Python backend's module calls a wrapper that looks
the answer up (`wrapped`), and the typed native engine's fn reads C arrays filled from it
(typed.py `tabled_fn`). An argument the fn faults for (or counts work past the limit for)
is not in the table: the call runs the fn, which faults where it would have."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..language import program as ir
from ..language.builtins import BUILTINS
from ..language.limits import MAX_WORK
from ..language.types import BOOL, CELL, DIR, INT, KIND, SEAT, SYMBOL, Type, is_list
from .codegen import _calling_themselves

MAX_TABLE = 16_384          # a table's entries (a fn of two cells of an 11x11 board: 14,884)
MAX_BUILD_WORK = 2_000_000  # the steps all calls of one table may count together
MAX_ITEMS = 1_000_000       # the items all the lists of one table may hold together
ARGUMENTS = (CELL, SEAT)    # the parameter types a tabled fn may have
RESULTS = (BOOL, INT, CELL, SEAT)
# On the Python backend alone (the typed engine holds these otherwise: no C array of them):
# symbols, kinds and directions as parameters too, and symbols and lists as results.
PYTHON_ARGUMENTS = (*ARGUMENTS, SYMBOL, KIND, DIR)
PYTHON_RESULTS = (*RESULTS, SYMBOL)
_UNSAFE = {"placements", "placed"}      # read what a simultaneous phase has placed


def tabled(prog: ir.Program, typed: bool = True) -> dict[str, list[int]]:
    """The fns answered from a table: name -> the number of values each parameter can take
    (the board's cells or the seats, and none). With `typed`, those the typed engine reads
    from C arrays too (`typed_rows`); else the Python backend's, which may also take
    symbols, kinds and directions and give a symbol or a list of the results (`wrapped`)."""
    cyclic = {name for kind, name in _calling_themselves(prog) if kind == "fn"}
    found: dict[str, list[int]] = {}
    for name, fn in prog.fns.items():
        sizes = _sizes(prog, fn, typed)
        if sizes is None or not _result(fn.type, typed) or not _worth(fn):
            continue
        total = 1
        for size in sizes:
            total *= size
        if total <= MAX_TABLE and _position_free(prog, fn, cyclic):
            found[name] = sizes
    return found


def _sizes(prog: ir.Program, fn: ir.Fn, typed: bool = True) -> list[int] | None:
    allowed = ARGUMENTS if typed else PYTHON_ARGUMENTS
    if not fn.param_types or any(t not in allowed for t in fn.param_types):
        return None
    if typed:
        return [(prog.board.size if t == CELL else len(prog.seats)) + 1
                for t in fn.param_types]
    return [len(domain(prog, t)) for t in fn.param_types]


def _result(t: Type, typed: bool) -> bool:
    if typed:
        return t in RESULTS
    return t in PYTHON_RESULTS or (is_list(t) and t[1] in PYTHON_RESULTS)


def _worth(fn: ir.Fn) -> bool:
    """A fn that loops (or calls one): a table lookup is not faster than a cheap test."""
    return any(isinstance(n, (ir.Quant, ir.Comprehension, ir.CallFn, ir.In))
               for n in ir.walk(fn.body))


def _position_free(prog: ir.Program, fn: ir.Fn, cyclic: set[str]) -> bool:
    """`fn` and every fn it calls read nothing but their arguments, constants and the
    board: no state, no `me`, no dice, no call of a fn that calls itself."""
    todo, seen = [fn.name], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name in cyclic:
            return False
        seen.add(name)
        for n in ir.walk(prog.fns[name].body):
            if isinstance(n, (ir.PieceField, ir.PieceStat, ir.SeatVar, ir.Global,
                              ir.StateValue, ir.FnBlock)):
                return False
            if isinstance(n, ir.Local) and n.slot == 0:
                return False
            if isinstance(n, ir.CallBuiltin):
                row = BUILTINS[n.name]
                if row.random or row.reads or n.name in _UNSAFE:
                    return False
            if isinstance(n, ir.CallFn):
                todo.append(n.name)
    return True


def domain(prog: ir.Program, t: Type) -> list[Any]:
    """The values a parameter of type `t` takes in a table, in the typed engine's index
    order (none first, then 0, 1, ...: index value + 1); a hole is no cell."""
    if t == CELL:
        holes: frozenset[int] = getattr(prog.board, "holes", frozenset())
        return [None, *(c for c in range(prog.board.size) if c not in holes)]
    if t == SYMBOL:         # (a symbol on Python is its name; a kind too; a direction its
        return [None, *sorted(prog.symbols)]        # number)
    if t == KIND:
        return [None, *prog.kinds]
    if t == DIR:
        return [None, *range(len(prog.board.directions))]
    return [None, *range(len(prog.seats))]


Entries = dict[tuple[Any, ...], tuple[Any, int]]


def build(prog: ir.Program, fn: ir.Fn, call: Callable[..., Any], rt: Any) -> Entries | None:
    """(arguments) -> (value, work counted) of every call of `fn` (the Python backend's
    function `call`, whose work `rt.work` counts) that does not fault; None when all of
    them together count more than MAX_BUILD_WORK (so no entry's work is near MAX_WORK), or
    their lists hold more than MAX_ITEMS items together (the table's memory)."""
    entries: Entries = {}
    saved = rt.work
    left = MAX_BUILD_WORK
    items = 0           # the lists' items kept (memory: MAX_ITEMS, else no table)
    try:
        for args in itertools.product(*(domain(prog, t) for t in fn.param_types)):
            # the work left for the table stands in for the limit: a call that would pass
            # it faults as overworked (limits.MAX_WORK) and the table is not built
            rt.work = start = MAX_WORK - left
            try:
                value = call(None, None, *args)
            except Exception:       # a fault: the call runs the fn, which faults there
                if rt.work > MAX_WORK:
                    return None
                left -= rt.work - start
                continue
            left -= rt.work - start
            if _answer(value, fn.type):
                if isinstance(value, list):     # kept as a tuple: each answer a copy
                    items += len(value)
                    if items > MAX_ITEMS:
                        return None
                    value = tuple(value)
                entries[args] = (value, rt.work - start)
    finally:
        rt.work = saved
    return entries


def _answer(value: Any, t: Type) -> bool:
    """A value a table keeps: one the typed engine can hold as a C long (a true/false test
    may give another truthy value on Python: such a call runs the fn), a symbol's name, or a
    list of those."""
    if is_list(t):
        return isinstance(value, list) and all(_answer(item, t[1]) for item in value)
    if value is None:
        return t in (CELL, SEAT, SYMBOL)
    if t == SYMBOL:
        return isinstance(value, str)
    return isinstance(value, int)


def wrapped(call: Callable[..., Any], entries: Entries, rt: Any,
            lists: bool = False) -> Callable[..., Any]:
    """A function answering `call`'s calls from `entries` (and counting their work), and
    calling it for arguments not there; with `lists`, each answer a new list (the caller
    may change it)."""
    if lists:
        def answer_list(S: Any, me: Any, *args: Any) -> Any:
            found = entries.get(args)
            if found is None or rt.work + found[1] > MAX_WORK:
                return call(S, me, *args)     # (faults where the fn would)
            rt.work += found[1]
            return list(found[0])
        answer_list.__wrapped__ = call      # type: ignore[attr-defined]
        return answer_list
    if all(work == 0 for _, work in entries.values()):
        values = {args: value for args, (value, _) in entries.items()}

        def answer(S: Any, me: Any, *args: Any) -> Any:
            try:
                return values[args]
            except KeyError:
                return call(S, me, *args)
        answer.__wrapped__ = call       # type: ignore[attr-defined]
        return answer

    def answer_counting(S: Any, me: Any, *args: Any) -> Any:
        found = entries.get(args)
        if found is None or rt.work + found[1] > MAX_WORK:
            return call(S, me, *args)     # (faults where the fn would)
        rt.work += found[1]
        return found[0]
    answer_counting.__wrapped__ = call      # type: ignore[attr-defined]
    return answer_counting


def typed_rows(prog: ir.Program, fn: ir.Fn, entries: Entries) -> list[tuple[int, int, int]]:
    """(index, value, work) of each entry for the typed engine's arrays: the index of the
    arguments (each value + 1, none 0, in mixed radix of the parameters' sizes), the value
    as a C long (false 0, true 1, none -1)."""
    sizes = _sizes(prog, fn)
    assert sizes is not None
    rows = []
    for args, (value, work) in entries.items():
        index = 0
        for size, arg in zip(sizes, args):
            index = index * size + (0 if arg is None else arg + 1)
        rows.append((index, -1 if value is None else int(value), work))
    return rows


def install(prog: ir.Program, namespace: dict[str, Any], rt: Any,
            fns: Mapping[str, Sequence[int]]) -> dict[str, Entries]:
    """Build the tables of the fns `fns` names with the module's functions and put wrappers
    in their place in `namespace`; the tables built, by fn."""
    built: dict[str, Entries] = {}
    for name in fns:
        fn = prog.fns[name]
        call = namespace[f"fn_{name}"]
        entries = build(prog, fn, call, rt)
        if entries:
            built[name] = entries
            namespace[f"fn_{name}"] = wrapped(call, entries, rt, is_list(fn.type))
    return built
