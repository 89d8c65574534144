"""The typed native engine against the Python backend on generated rule files.

    .venv/bin/python benchmarks/fuzz_backends.py [--programs 20] [--seed 0] [--games 10]
                                                 [--keep FOLDER] [--faults]

Each program is a small random rule file inside the typed subset, drawn from its seed alone
(`generate(seed)`): a square or hex board (maybe with holes), two or three seats, one to
three kinds with stats, piece, seat and global variables, fns, actions of one to four
binders over varied domains (cells, pieces, directions, symbols, seats, ranges,
reach/sight/ray/ neighbors, comprehensions) with `where` tests built from random expressions
(and/or/not, comparisons, arithmetic with / and % that may fault, quantifiers, len/nth/last,
`in`, if- then-else, none tests, fn calls) and bodies (place, create, remove, change,
variable updates, for, if, log), and an end block. Besides: defs (each calling only those
before it), `on enter` blocks, dice and shuffles inside statements (never while listing the
actions), texts logged (text(), +, plural(), join()) and a text variable, called phases
(plain, turn, turn auto, secret) returning to the turn phase's `on resume`, a simultaneous
phase with `on reveal`, `call ... for each`, `on no action`, moves along cells with enter
triggers (`on enter(p, c)`, `stop`), give, win/lose/draw in bodies, zones (one per seat, one
shared, maybe visible to some seats), variables visible to some seats, a `hide piece` rule,
a kinds table out of sight (`kinds ... visible to`) and a payoff. Last, the extras, drawn
from a second random.Random of the seed so that the lines above stay those earlier versions
wrote (`Generator(seed, extras=False)`): fns giving lists of cells, numbers or pieces, and
one more action whose body binds lists by `let` (logged: their order counts); while they are
drawn, lists may be unique(), sorted(x in xs where c: k), connected(x in xs where c: next)
(nested too) or calls of those fns. After them, from the same second random.Random
(`more_lines`): seat variables holding lists (maybe visible to some seats), an enter trigger
that removes the moving piece or those it meets, and one more action (maybe binding a
placement of dice, `placements()` and `placed()`) that moves pieces and loops over
`pieces_at()` while its body moves, places, removes or creates pieces there; while these
are drawn, lists may be those seat variables or `reach()`/`sight()` with constant stops.
Most values that may be none (a piece, a cell, a direction, nth or last of a number list, a
divisor) go through a guard fn that gives a default (`cell0(p)`, `c0(c)`, `nth0(ns, k)`,
`nz(n)`, ...) or a `!= none` test, the rest (GUARD) stay bare, so that few games end early
on a fault but faults are still met. A
program the checker refuses, or one outside the typed subset, is counted and skipped. The
others are built typed (-O0) and played from `--games` seeds under both engines with
tests/runtime/test_typed.py's `_compare` (state JSON, legal actions and texts, events, work
counted, faults at the same FILE:LINE:COL), then again with each seat's view and action
texts compared (`compare_views`). Each disagreement is printed with the program's seed, and
its file is saved in `--keep` (default a folder under the temp folder). Each program runs in
its own process, so a crash of the compiled code is reported too. Exit 1 when any program
disagreed or crashed.

`--faults` plays the programs on the Python backend alone and counts how their games end,
the run-time faults by message: a game that ends on a fault early tests little.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# types: num, bool, cell, piece, seat, dir, sym, kind, text; lists as "list:T"
SCALARS = ["num", "bool", "cell", "piece", "seat", "dir", "sym", "kind"]
GUARD = 0.8         # how often a value that may be none goes through its guard fn
LONGEST = 400       # decisions of one game (as tests/runtime/test_typed.py's _compare)


class Generator:
    """One random rule file, from its seed alone."""

    def __init__(self, seed: int, extras: bool = True) -> None:
        self.rng = random.Random(seed)
        self.with_extras = extras           # the lines `extras` draws, from a second seed
        self.seed = seed
        self.fns: list[tuple[str, list[str], str]] = []     # name, argument types, result
        self.defs: list[tuple[str, list[str]]] = []         # name, argument types
        self.subs: list[tuple[str, str]] = []   # called phases: name, parameter type
        self.zones = False                      # zones 'reserve' (per seat) and 'pile'
        self.hidden = False                     # variables and pieces hidden from seats
        self.simul = False                      # a simultaneous phase 'vote'
        self.dice = 0       # > 0 inside statements: dice may be drawn (not while listing)
        self.counter = 0
        self.extra = False  # drawing the extras (`extras`): list_of may write their lists
        self.more = False   # drawing the later extras (`more`): seat lists, const stops
        self.literals: list[str] = []   # the board's cells as written (@b2), for `more`

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # ---- guards: most values that may be none go through a fn that gives a default, so
    # that fewer games end early on a fault; the others stay bare, so faults are still met
    def guard(self, fn: str, value: str) -> str:
        return f"{fn}({value})" if self.chance(GUARD) else value

    def cell_arg(self, scope: dict[str, str], depth: int) -> str:
        """A cell for a built-in that faults on none."""
        return self.guard("c0", self.of("cell", scope, depth))

    def dir_arg(self, scope: dict[str, str], depth: int) -> str:
        return self.guard("d0", self.of("dir", scope, depth))

    def field(self, piece: str, name: str) -> str:
        """A piece's field, through its guard fn (hp0(p), owner0(p), ...) mostly."""
        if self.chance(GUARD):
            return f"{name}0({piece})"
        return f"{piece}.{name}"

    # ---- expressions ------------------------------------------------------------------
    def of(self, ty: str, scope: dict[str, str], depth: int) -> str:
        """An expression of type `ty` over the names in `scope` (name -> type)."""
        rng = self.rng
        names = [n for n, t in scope.items() if t == ty]
        if names and self.chance(0.35):
            return rng.choice(names)
        if ty.startswith("list:"):
            return self.list_of(ty[5:], scope, depth)
        make = getattr(self, f"e_{ty}")
        return str(make(scope, max(depth, 0)))

    def index(self, scope: dict[str, str], depth: int) -> str:
        """An index for nth(): mostly a small number, so most lists give an element."""
        if self.chance(0.7):
            return str(self.rng.randrange(1, 4))
        return self.of("num", scope, depth)

    def num_small(self) -> str:
        return str(self.rng.choice([0, 1, 1, 2, 2, 3, 4]))

    def quantifier_list(self, scope: dict[str, str], depth: int) -> tuple[str, str]:
        ty = self.rng.choice(["cell", "piece", "num", "seat", "dir", "cell"])
        return ty, self.list_of(ty, scope, depth - 1)

    def binder(self, ty: str, lst: str, scope: dict[str, str]) -> tuple[str, dict[str, str]]:
        name = self.fresh("x")
        inner = dict(scope)
        inner[name] = ty
        return name, inner

    def e_num(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            if self.hidden and self.chance(0.2):
                return rng.choice(["me.secret", "g_pot", "next(me).secret"])
            return rng.choice([self.num_small(), "g_n", "me.score", "turn_number",
                               self.num_small()])
        d = depth - 1
        pick = rng.randrange(22)
        if self.dice and self.chance(0.12):
            return self.e_roll(scope, d)
        if pick == 0:
            op = rng.choice(["+", "-", "*", "/", "%", "+", "-"])
            right = self.of('num', scope, d)
            if op in "/%":
                right = self.guard("nz", right)
            return f"({self.of('num', scope, d)} {op} {right})"
        if pick == 1:
            return f"len({self.of('list:' + rng.choice(['cell', 'piece', 'num']), scope, d)})"
        if pick == 2:
            ty, lst = self.quantifier_list(scope, depth)
            x, inner = self.binder(ty, lst, scope)
            return f"count({x} in {lst} where {self.of('bool', inner, d)})"
        if pick == 3:
            ty, lst = self.quantifier_list(scope, depth)
            x, inner = self.binder(ty, lst, scope)
            op = rng.choice(["sum", "min_of", "max_of"])
            cond = f" where {self.of('bool', inner, d)}" if self.chance(0.5) else ""
            made = f"{op}({x} in {lst}{cond}: {self.of('num', inner, d)})"
            if op == "sum" or not self.chance(GUARD):
                return made
            return f"(if count({x} in {lst}{cond}) == 0 then 0 else {made})"
        if pick == 4:
            return f"row({self.cell_arg(scope, d)})"
        if pick == 5:
            return f"column({self.cell_arg(scope, d)})"
        if pick == 6:
            return f"distance({self.cell_arg(scope, d)}, {self.cell_arg(scope, d)})"
        if pick == 7:
            return (f"(if {self.of('bool', scope, d)} then {self.of('num', scope, d)} "
                    f"else {self.of('num', scope, d)})")
        if pick == 8:
            return self.field(self.of('piece', scope, d), "hp")
        if pick == 9:
            return self.field(self.of('piece', scope, d), rng.choice(self.stats))
        if pick == 10:
            return f"{self.of('seat', scope, d)}.score"
        if pick == 11:
            nth = "nth0" if self.chance(GUARD) else "nth"
            return f"{nth}({self.of('list:num', scope, d)}, {self.index(scope, d)})"
        if pick == 12:
            return f"abs({self.of('num', scope, d)})"
        if pick == 13:
            f = rng.choice(["min", "max"])
            return f"{f}({self.of('num', scope, d)}, {self.of('num', scope, d)})"
        if pick == 14:
            call = self.call("num", scope, d)
            if call:
                return call
        if pick == 15:
            return f"total({self.of('list:num', scope, d)})"
        if pick == 16:
            last = "last0" if self.chance(GUARD) else "last"
            return f"{last}({self.of('list:num', scope, d)})"
        if pick == 17:
            return "decision_number"
        if pick == 18:
            return f"{self.of('kind', scope, d)}.{rng.choice(self.stats)}"
        return rng.choice([self.num_small(), "g_n", "me.score", str(rng.randrange(-2, 7))])

    def sides(self, scope: dict[str, str], depth: int) -> str:
        """A die's sides or count: mostly held to at least 1 (or 0 dice) by max()."""
        if self.chance(GUARD):
            return f"max(1, {self.of('num', scope, depth)})"
        return str(self.rng.randrange(1, 7))

    def e_roll(self, scope: dict[str, str], depth: int) -> str:
        """A number drawn by dice (inside statements only: a die drawn while listing the
        actions is outside the typed subset)."""
        rng = self.rng
        pick = rng.randrange(7)
        n = self.sides(scope, depth)
        if pick == 0:
            return f"roll({n}, {rng.randrange(0, 4)})"
        if pick == 1:
            return f"total(rolls({rng.randrange(0, 4)}, {n}))"
        if pick == 2:
            return f"successes({rng.randrange(0, 4)}, {n}, {rng.randrange(1, 5)})"
        if pick == 3:
            return f"nth0(shuffled({self.of('list:num', scope, depth)}), {self.index(scope, 0)})"
        if pick == 4:
            ty = rng.choice(["cell", "piece"])
            return f"len(shuffled({self.of('list:' + ty, scope, depth)}))"
        return f"roll({n})"

    def e_bool(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            return rng.choice(["true", "false", "g_flag", f"g_n > {self.num_small()}",
                               f"me.score < {self.num_small()}"])
        d = depth - 1
        pick = rng.randrange(20)
        if pick in (0, 1, 2):
            op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"{self.of('num', scope, d)} {op} {self.of('num', scope, d)}"
        if pick == 3:
            op = rng.choice(["and", "or"])
            return f"({self.of('bool', scope, d)} {op} {self.of('bool', scope, d)})"
        if pick == 4:
            return f"not ({self.of('bool', scope, d)})"
        if pick == 5:
            ty, lst = self.quantifier_list(scope, depth)
            x, inner = self.binder(ty, lst, scope)
            return f"exists({x} in {lst} where {self.of('bool', inner, d)})"
        if pick == 6:
            ty, lst = self.quantifier_list(scope, depth)
            x, inner = self.binder(ty, lst, scope)
            cond = f" where {self.of('bool', inner, d)}" if self.chance(0.4) else ""
            return f"all({x} in {lst}{cond}: {self.of('bool', inner, d)})"
        if pick == 7:
            ty = rng.choice(["cell", "piece", "num", "seat", "dir"])
            neg = rng.choice(["in", "not in"])
            return f"{self.of(ty, scope, d)} {neg} {self.of('list:' + ty, scope, d)}"
        if pick == 8:
            ty = rng.choice(["cell", "piece", "seat", "dir", "sym", "kind"])
            op = rng.choice(["==", "!="])
            return f"{self.of(ty, scope, d)} {op} {self.of(ty, scope, d)}"
        if pick == 9:
            ty = rng.choice(["cell", "piece", "dir"])
            op = rng.choice(["==", "!="])
            return f"{self.of(ty, scope, d)} {op} none"
        if pick == 10:
            return f"len(pieces_at({self.cell_arg(scope, d)})) == 0"
        if pick == 11:
            call = self.call("bool", scope, d)
            if call:
                return call
        if pick == 12:
            owner = self.field(self.of('piece', scope, d), 'owner')
            return f"{owner} == {self.of('seat', scope, d)}"
        if pick == 13:
            return (f"(if {self.of('bool', scope, d)} then {self.of('bool', scope, d)} "
                    f"else {self.of('bool', scope, d)})")
        if pick == 14:
            kind = self.field(self.of('piece', scope, d), 'kind')
            return f"{kind} == {self.of('kind', scope, d)}"
        if pick == 15:
            return f"{self.of('sym', scope, d)} == g_sym"
        if pick == 16 and self.zones:     # (p.zone is outside the typed subset)
            zone = rng.choice(["reserve of " + self.of("seat", scope, d), "pile"])
            return f"{self.of('piece', scope, d)} in pieces_in({zone.replace(' of', ',')})"
        return rng.choice(["true", "g_flag", f"g_n > {self.num_small()}",
                           f"len(g_cells) < {rng.randrange(1, 5)}"])

    def e_cell(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth <= 0:
            return rng.choice(["nth(cells(), 1)", "last(cells())", "g_cell",
                               f"nth(cells(), {rng.randrange(1, 8)})"])
        d = depth - 1
        pick = rng.randrange(10)
        if self.dice and self.chance(0.08):
            return f"pick({self.of('list:cell', scope, d)})"
        if pick == 0:
            return f"step({self.cell_arg(scope, d)}, {self.dir_arg(scope, d)})"
        if pick == 1:
            return self.field(self.of('piece', scope, d), "cell")
        if pick == 2:
            ty, lst = "cell", self.list_of("cell", scope, d)
            x, inner = self.binder(ty, lst, scope)
            return f"first({x} in {lst} where {self.of('bool', inner, d)})"
        if pick == 3:
            return f"nth({self.of('list:cell', scope, d)}, {self.index(scope, d)})"
        if pick == 4:
            return f"last({self.of('list:cell', scope, d)})"
        if pick == 5:
            return f"cell_at({self.of('num', scope, d)}, {self.of('num', scope, d)})"
        if pick == 6:
            call = self.call("cell", scope, d)
            if call:
                return call
        if pick == 7:
            return (f"(if {self.of('bool', scope, d)} then {self.of('cell', scope, d)} "
                    f"else {self.of('cell', scope, d)})")
        return rng.choice(["nth(cells(), 1)", "last(cells())", "g_cell"])

    def e_piece(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        d = depth - 1
        pick = rng.randrange(6 if depth > 0 else 3)
        if self.dice and self.chance(0.08):
            return f"pick({self.of('list:piece', scope, max(d, 0))})"
        if pick == 0:
            return f"nth(pieces({self.of('seat', scope, max(d, 0))}), 1)"
        if pick == 1:
            return "last(pieces())"
        if pick == 2:
            return "g_piece"
        if pick == 3:
            return f"last(pieces_at({self.of('cell', scope, d)}))"
        if pick == 4:
            lst = self.list_of("piece", scope, d)
            x, inner = self.binder("piece", lst, scope)
            return f"first({x} in {lst} where {self.of('bool', inner, d)})"
        return f"nth(pieces(), {self.index(scope, d)})"

    def e_seat(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth > 0 and self.chance(0.2):
            return self.field(self.of('piece', scope, depth - 1), "owner")
        return rng.choice(["me", "next(me)", "a", "b", "previous(me)", "g_seat"])

    def e_dir(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth > 0:
            pick = rng.randrange(5)
            if pick == 0:
                return f"opposite({self.dir_arg(scope, depth - 1)})"
            if pick == 1:
                return f"turn({self.dir_arg(scope, depth - 1)}, {rng.randrange(-2, 3)})"
            if pick == 2:
                a, b = self.cell_arg(scope, depth - 1), self.cell_arg(scope, depth - 1)
                return f"direction({a}, {b})"
        return rng.choice(["nth(directions(), 1)", "last(directions())", "g_dir",
                           f"nth(directions(), {rng.randrange(1, 5)})"])

    def e_sym(self, scope: dict[str, str], depth: int) -> str:
        return self.rng.choice(["u", "v", "w", "g_sym", "nth(marks, 2)"])

    def e_kind(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        if depth > 0 and self.chance(0.2):
            return self.field(self.of('piece', scope, depth - 1), "kind")
        return rng.choice(self.kinds)

    def list_of(self, ty: str, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        d = max(depth - 1, 0)
        if self.more and ty in ("num", "cell") and self.chance(0.3):
            made = self.more_list(ty, scope, depth)
            if made:
                return made
        if self.extra and self.chance(0.4):
            made = self.extra_list(ty, scope, depth)
            if made:
                return made
        if ty == "cell":
            choices = ["cells()", "g_cells"]
            if depth > 0:
                c = lambda: self.cell_arg(scope, d)       # noqa: E731
                n = lambda: self.of("num", scope, d)      # noqa: E731
                choices += [f"neighbors({c()})", f"orthogonal({c()})",
                            f"reach({c()}, {n()}, {self.of('list:cell', scope, d)})",
                            f"sight({c()}, {n()}, {self.of('list:cell', scope, d)})",
                            f"ray({c()}, {self.dir_arg(scope, d)}, {n()})",
                            f"within({c()}, {n()})", f"row_cells({n()})",
                            f"line({c()}, {c()})", "taken()", "[p.cell for p in pieces()]"]
                lst = self.list_of("cell", scope, d)
                x, inner = self.binder("cell", lst, scope)
                choices.append(f"[{x} for {x} in {lst} where {self.of('bool', inner, d)}]")
                choices.append(f"take({lst}, {n()})")
            return rng.choice(choices)
        if ty == "piece":
            choices = ["pieces()", f"pieces({self.of('seat', scope, d)})", "pieces(me)"]
            if self.zones:
                choices += [f"pieces_in(reserve, {self.of('seat', scope, d)})", "pieces_in(pile)"]
            if depth > 0:
                choices.append(f"pieces_at({self.cell_arg(scope, d)})")
                lst = self.list_of("piece", scope, d)
                x, inner = self.binder("piece", lst, scope)
                choices.append(f"[{x} for {x} in {lst} where {self.of('bool', inner, d)}]")
            return rng.choice(choices)
        if ty == "num":
            choices = ["[1, 2, 3]", "g_nums", f"range(1, {rng.randrange(0, 5)})"]
            if depth > 0:
                choices.append(f"range({self.of('num', scope, d)}, {self.of('num', scope, d)})")
                lst = self.list_of("cell", scope, d)
                x, inner = self.binder("cell", lst, scope)
                choices.append(f"[row({self.guard('c0', x)}) for {x} in {lst}]")
                choices.append(f"[{self.of('num', scope, d)}, {self.of('num', scope, d)}]")
            return rng.choice(choices)
        if ty == "seat":
            return rng.choice(["[a, b]", "[next(me)]", "[me]", "clockwise_from(me)"])
        if ty == "dir":
            if depth > 0 and self.chance(0.3):
                return f"exits({self.cell_arg(scope, d)})"
            return "directions()"
        if ty == "sym":
            return rng.choice(["marks", "[u, v]", "[w]"])
        if ty == "kind":
            return f"[{', '.join(self.kinds)}]"
        raise ValueError(ty)

    def call(self, ty: str, scope: dict[str, str], depth: int) -> str | None:
        fits = [f for f in self.fns if f[2] == ty]
        if not fits:
            return None
        name, args, _ = self.rng.choice(fits)
        return f"{name}({', '.join(self.of(a, scope, depth) for a in args)})"

    # ---- the extras: unique(), sorted(), connected(), fns giving lists, let of a list ----
    def extras(self) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
        """Fns giving lists and one action of the turn phase with lists bound by `let`,
        drawn from a second random.Random of the program's seed after the rest, so that the
        lines the first one draws stay those of earlier versions of the generator; while
        drawing them, `list_of` writes unique(), sorted() and connected() and calls of these
        fns too (`extra_list`). Then, from the same random.Random, the later extras
        (`more_lines`): seat variables, an enter trigger and an action."""
        main, self.rng = self.rng, random.Random(self.seed * 7919 + 17)
        self.extra = True
        try:
            rng = self.rng
            fns = []
            for _ in range(rng.randrange(1, 4)):
                name = self.fresh("fl")
                args = [rng.choice(["num", "cell", "piece", "seat"])
                        for _ in range(rng.randrange(0, 3))]
                names = [self.fresh("a") for _ in args]
                result = rng.choice(["cell", "num", "piece", "cell"])
                body = self.list_of(result, dict(zip(names, args)), 2)
                fns.append(f"fn {name}({', '.join(names)}) = {body}")
                self.fns.append((name, args, "list:" + result))
            action = self.action(lets=rng.randrange(1, 3))
            return fns, action, *self.more_lines()
        finally:
            self.rng, self.extra, self.more = main, False, False

    # ---- the later extras: seat lists, triggers that remove, for over pieces_at while
    # pieces move, reach/sight with constant stops, placements ------------------------------
    def more_lines(self) -> tuple[list[str], list[str], list[str]]:
        """Seat variables holding lists (`held`: numbers, `spots`: cells; maybe visible to
        some seats), an enter trigger that may remove the piece moving or those it meets,
        and one more action of the turn phase (maybe binding a placement of dice) that moves
        pieces, loops over `pieces_at()` while they move and updates the seat lists; while
        they are drawn, lists of numbers and cells may be those variables or `reach()` and
        `sight()` with constant stops."""
        rng = self.rng
        self.more = True
        seen = rng.choice(["", "", " visible to viewer == owner", " visible to false"])
        seat_vars = [f"var seat.held = [0]{seen}", "var seat.spots = [@a1]"]
        scope = {"p": "piece", "c": "cell"}
        trigger = [f"on enter(p, c) where {self.of('bool', scope, 1)} {{",
                   *self.statements(scope, 1, "  ", rng.randrange(0, 2))]
        pick = rng.randrange(3)
        if pick == 0:
            trigger += [f"  if {self.of('bool', scope, 1)} {{", "    remove p", "  }"]
        elif pick == 1:
            trigger += ["  for q in pieces_at(c) where q != p {", "    remove q", "  }"]
        else:
            trigger += ["  remove p"]
        if self.chance(0.3):
            trigger += ["  stop"]
        return seat_vars, trigger + ["}", ""], self.more_action()

    def more_action(self) -> list[str]:
        rng = self.rng
        scope: dict[str, str] = {}
        binders = []
        placement = None
        for _ in range(rng.randrange(1, 3)):
            ty = rng.choice(["cell", "piece", "num", "placement", "placement"])
            name = self.fresh("v")
            if ty == "placement" and placement is None:
                dice = rng.choice(["[1, 2]", "take(me.held, 3)", "take(g_nums, 2)",
                                   f"[{rng.randrange(1, 7)}, {rng.randrange(1, 7)}, 2]"])
                binders.append(f"{name} in placements({dice}, "
                               f"{rng.choice(['[u, v]', 'marks', '[w]'])})")
                placement = name
                continue
            ty = "cell" if ty == "placement" else ty
            binders.append(f"{name} in {self.list_of(ty, scope, rng.randrange(0, 2))}")
            scope[name] = ty
        test = self.of("bool", scope, rng.randrange(1, 3))
        if placement and self.chance(0.6):
            test = (f"len(placed({placement}, {rng.choice(['u', 'v', 'w'])})) <= "
                    f"{rng.randrange(0, 3)} and {test}")
        lines = [f"  action {self.fresh('act')}({', '.join(binders)}) where {test} {{"]
        if placement:
            lines += [f"    me.score += total(placed({placement}, {rng.choice(['u', 'v'])}))",
                      f"    me.held = take(placed({placement}, w) + me.held, 4)"]
        lines += self.move(scope, 1, "    ") + self.for_pieces_at(scope, 1, "    ")
        lines += self.statements(scope, 2, "    ", rng.randrange(1, 3))
        return [*lines, self.leaving(scope), "  }"]

    def more_list(self, ty: str, scope: dict[str, str], depth: int) -> str | None:
        """A seat's list variable, or reach()/sight() with constant stops."""
        rng = self.rng
        seat = rng.choice(["me", "next(me)", "g_seat", "a"])
        if ty == "num":
            return f"{seat}.held"
        if self.chance(0.3):
            return f"{seat}.spots"
        stops = rng.sample(self.literals, min(len(self.literals), rng.randrange(0, 3)))
        start = rng.choice(self.literals) if self.chance(0.5) else self.cell_arg(scope, depth)
        steps = rng.randrange(1, 4) if self.chance(0.5) else self.of("num", scope, depth - 1)
        return f"{rng.choice(['reach', 'sight'])}({start}, {steps}, [{', '.join(stops)}])"

    def seat_list_update(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        t = self.fresh("t")
        lines = [f"{indent}let {t} = {self.of('seat', scope, 1)}"]
        pick = self.rng.randrange(4)
        if pick == 0:
            return lines + [f"{indent}{t}.held = take({t}.held + [{self.of('num', scope, 1)}], 4)"]
        if pick == 1:
            return lines + [f"{indent}{t}.held = []"]
        if pick == 2:
            return lines + [f"{indent}{t}.spots = take([{self.cell_arg(scope, 1)}] + {t}.spots, 3)"]
        return lines + [f"{indent}{t}.spots = take({self.of('list:cell', scope, 1)}, 3)"]

    def for_pieces_at(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        """A loop over the pieces on a cell whose body moves, places, removes them or
        creates more there."""
        rng = self.rng
        x = self.fresh("x")
        inner = dict(scope)
        inner[x] = "piece"
        cell = self.cell_arg(scope, 1)
        body: list[str] = []
        for _ in range(rng.randrange(1, 3)):
            pick = rng.randrange(5)
            if pick == 0:
                body.append(f"remove {x}")
            elif pick == 1:
                body.append(f"place {x} at {self.of('cell', inner, 1)}")
            elif pick == 2:
                y, path = self.fresh("x"), self.of("list:cell", inner, 1)
                body.append(f"move {x} along [{y} for {y} in take({path}, 3) where {y} != none]")
            elif pick == 3:
                body.append(f"create {rng.choice(self.kinds)} for {self.of('seat', inner, 1)} "
                            f"at {cell}")
            else:
                body.append(f"{x}.hp += {len(body) + 1}")
        lines = [f"{indent}for {x} in pieces_at({cell}) {{"]
        if self.chance(0.4):
            lines += [f"{indent}  if {self.of('bool', inner, 1)} {{",
                      *[f"{indent}    {b}" for b in body], f"{indent}  }}"]
        else:
            lines += [f"{indent}  {b}" for b in body]
        return lines + [f"{indent}}}"]

    def extra_list(self, ty: str, scope: dict[str, str], depth: int) -> str | None:
        """A list of `ty` by unique(), sorted(), connected() or a fn giving one; None for
        a type none fits."""
        rng = self.rng
        d = max(depth - 1, 0)
        pick = rng.randrange(5)
        if pick == 0:
            call = self.call("list:" + ty, scope, d)
            if call:
                return call
        if pick == 1 and ty in ("cell", "num", "piece", "seat", "dir", "sym"):
            return f"unique({self.list_of(ty, scope, d)})"
        if pick in (1, 2) and ty in ("cell", "num", "piece", "seat", "dir"):
            lst = self.list_of(ty, scope, d)
            x, inner = self.binder(ty, lst, scope)
            cond = f" where {self.of('bool', inner, d)}" if self.chance(0.5) else ""
            return f"sorted({x} in {lst}{cond}: {self.of('num', inner, d)})"
        if ty == "cell":
            x = self.fresh("x")
            inner = dict(scope)
            inner[x] = "cell"
            starts = rng.choice([f"[{self.cell_arg(scope, d)}]", self.list_of("cell", scope, d)])
            nxt = rng.choice([f"orthogonal({x})", f"neighbors({x})", f"neighbors({x})",
                              self.list_of("cell", inner, d)])
            cond = f" where {self.of('bool', inner, d)}" if self.chance(0.8) else ""
            return f"connected({x} in {starts}{cond}: {nxt})"
        if ty == "num":
            x = self.fresh("x")
            inner = dict(scope)
            inner[x] = "num"
            bound = rng.randrange(2, 9)
            cond = f" and {self.of('bool', inner, d)}" if self.chance(0.5) else ""
            nxt = rng.choice([f"[{x} + 1]", f"[{x} + 1, {x} * 2]", f"[{x} - 2, {x} + 3]",
                              f"[{self.of('num', inner, d)}]"])
            return (f"connected({x} in {self.list_of('num', scope, d)} where abs({x}) <= "
                    f"{bound}{cond}: {nxt})")
        if ty == "piece":
            x = self.fresh("x")
            inner = dict(scope)
            inner[x] = "piece"
            cond = f" where {self.of('bool', inner, d)}" if self.chance(0.7) else ""
            nxt = rng.choice([f"pieces_at(cell0({x}))",
                              f"[p for p in pieces() where distance(cell0(p), cell0({x})) <= 1]",
                              self.list_of("piece", inner, d)])
            return f"connected({x} in {self.list_of('piece', scope, d)}{cond}: {nxt})"
        return None

    # ---- statements -------------------------------------------------------------------
    def statements(self, scope: dict[str, str], depth: int, indent: str, n: int) -> list[str]:
        out: list[str] = []
        self.dice += 1
        for _ in range(n):
            out += self.statement(scope, depth, indent)
        self.dice -= 1
        return out

    def on_piece(self, piece: str, indent: str, statement: str) -> list[str]:
        """`statement` on `piece` (its {}): mostly a let and a test that the piece is not
        none around it."""
        t = self.fresh("t")
        if self.chance(0.03):                   # (statements run often: fewer bare ones)
            return [f"{indent}let {t} = {piece}", f"{indent}{statement.format(t)}"]
        return [f"{indent}let {t} = {piece}", f"{indent}if {t} != none {{",
                f"{indent}  {statement.format(t)}", f"{indent}}}"]

    def statement(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        rng = self.rng
        if self.chance(0.25):
            extra = self.extra_statement(scope, depth, indent)
            if extra:
                return extra
        e = lambda ty: self.of(ty, scope, rng.randrange(0, 3))     # noqa: E731
        pick = rng.randrange(16 if depth > 0 else 12)
        if pick == 0:
            return [f"{indent}create {rng.choice(self.kinds)} for {e('seat')} at {e('cell')}"]
        if pick == 1:
            return self.on_piece(e("piece"), indent, f"place {{}} at {e('cell')}")
        if pick == 2:
            return self.on_piece(e("piece"), indent, "remove {}")
        if pick == 3:
            return self.on_piece(e("piece"), indent,
                                 f"{{}}.hp {rng.choice(['=', '+=', '-='])} {e('num')}")
        if pick == 4:
            t = self.fresh("t")
            return [f"{indent}let {t} = {e('seat')}",
                    f"{indent}{t}.score {rng.choice(['=', '+=', '-='])} {e('num')}"]
        if pick == 5:
            return [f"{indent}g_n {rng.choice(['=', '+=', '-='])} {e('num')}"]
        if pick == 6:
            return [f"{indent}g_flag = {e('bool')}"]
        if pick == 7:
            return [f"{indent}g_cells = take(g_cells + [{e('cell')}], 6)"]
        if pick == 8:
            return [f"{indent}log text({e(rng.choice(SCALARS))})"]
        if pick == 9:
            var = rng.choice(["g_cell", "g_piece", "g_dir", "g_seat", "g_sym"])
            ty = {"g_cell": "cell", "g_piece": "piece", "g_dir": "dir", "g_seat": "seat",
                  "g_sym": "sym"}[var]
            return [f"{indent}{var} = {e(ty)}"]
        if pick == 10:
            return self.on_piece(e("piece"), indent, f"change {{}} to {e('kind')}")
        if pick == 11:
            return [f"{indent}g_nums = take(g_nums + [{e('num')}], 5)"]
        if pick in (12, 13):
            ty = rng.choice(["cell", "piece", "num", "dir", "seat"])
            lst = self.list_of(ty, scope, 1)
            x, inner = self.binder(ty, lst, scope)
            body = self.statements(inner, depth - 1, indent + "  ", rng.randrange(1, 3))
            return [f"{indent}for {x} in {lst} {{", *body, f"{indent}}}"]
        lines = [f"{indent}if {self.of('bool', scope, 2)} {{",
                 *self.statements(scope, depth - 1, indent + "  ", rng.randrange(1, 3))]
        if self.chance(0.5):
            lines += [f"{indent}}} else {{",
                      *self.statements(scope, depth - 1, indent + "  ", rng.randrange(1, 3))]
        return lines + [f"{indent}}}"]

    def extra_statement(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        """A statement of the constructs added to the first generator (defs, ...), or []."""
        rng = self.rng
        makers = [self.shuffle, self.log, self.move, self.move, self.give]
        if self.more:
            makers += [self.seat_list_update, self.seat_list_update, self.for_pieces_at,
                       self.for_pieces_at]
        if self.chance(0.3 if len(self.seats) == 3 else 0.15):
            makers.append(self.result)
        if self.hidden:
            makers += [self.hidden_update, self.hidden_update]
        if self.zones:
            makers += [self.put, self.put]
        if self.defs:
            makers.append(self.def_call)
        if not makers:
            return []
        return rng.choice(makers)(scope, depth, indent)

    def log(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        if self.chance(0.3):
            return [f"{indent}g_msg = {self.e_text(scope, 2)}", f"{indent}log g_msg"]
        return [f"{indent}log {self.e_text(scope, 2)}"]

    def e_text(self, scope: dict[str, str], depth: int) -> str:
        """A text: literals, text() of any value (lists too), +, plural(), join()."""
        rng = self.rng
        pick = rng.randrange(8 if depth > 0 else 3)
        if pick == 0:
            return rng.choice(['"x"', '""', '"a b"', "g_msg"])
        if pick in (1, 2):
            ty = rng.choice([*SCALARS, "list:cell", "list:num", "list:piece"])
            return f"text({self.of(ty, scope, depth - 1)})"
        if pick in (3, 4):
            return f"{self.e_text(scope, depth - 1)} + {self.e_text(scope, depth - 1)}"
        if pick == 5:
            words = rng.choice(['"piece"', '"die", "dice"', '"territory"', '"box"'])
            return f"plural({self.of('num', scope, depth - 1)}, {words})"
        if pick == 6:
            return (f"join([{self.e_text(scope, depth - 1)}, {self.e_text(scope, depth - 1)}], "
                    f"{rng.choice(['', ', ', '-'])!r})".replace("'", '"'))
        x = self.fresh("x")
        lst = self.list_of("cell", scope, depth - 1)
        return f"join([text({x}) for {x} in {lst}], \", \")"

    def hidden_update(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        rng = self.rng
        op = rng.choice(["=", "+=", "-="])
        pick = rng.randrange(3)
        if pick == 0:
            t = self.fresh("t")
            return [f"{indent}let {t} = {self.of('seat', scope, 1)}",
                    f"{indent}{t}.secret {op} {self.of('num', scope, 1)}"]
        if pick == 1:
            return [f"{indent}g_pot {op} {self.of('num', scope, 1)}"]
        return self.on_piece(self.of("piece", scope, 1), indent,
                             f"{{}}.mark {op} {self.of('num', scope, 1)}")

    def hidden_lines(self) -> list[str]:
        """Maybe variables seen by some seats only, a `hide piece` rule, and a kinds table
        whose pieces are out of sight of some seats (`kinds ... visible to`)."""
        rng = self.rng
        self.hidden = self.chance(0.45)
        if not self.hidden:
            return []
        lines = [f"var seat.secret = 0 visible to {rng.choice(['viewer == owner', 'false'])}",
                 "var piece.mark = 0 visible to "
                 f"{rng.choice(['viewer == owner', 'false', 'it.hp > 1', 'viewer == a'])}",
                 f"var g_pot = 0 visible to viewer == {rng.choice(['a', 'b'])}", ""]
        if self.chance(0.6):
            cond = self.of("bool", {"p": "piece", "viewer": "seat"}, 2)
            lines += [f"hide piece(p) when p.owner != viewer and {cond}", ""]
        return lines

    def move(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        """A move along cells: the enter triggers run on each (`on enter(p, c)`)."""
        path = self.of("list:cell", scope, 1)
        if self.chance(GUARD):          # cells, not none
            x = self.fresh("x")
            path = f"[{x} for {x} in take({path}, 4) where {x} != none]"
        return self.on_piece(self.of("piece", scope, 1), indent, f"move {{}} along {path}")

    def give(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        seat = "none" if self.chance(0.1) else self.of("seat", scope, 1)
        return self.on_piece(self.of("piece", scope, 1), indent, f"give {{}} to {seat}")

    def result(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        """A win, a loss or a draw said in a body, under a test."""
        said = self.rng.choice([f"win {self.of('seat', scope, 1)}",
                                f"lose {self.of('seat', scope, 1)}", "draw"])
        return [f"{indent}if {self.of('bool', scope, 2)} {{", f"{indent}  {said}",
                f"{indent}}}"]

    def triggers(self) -> list[str]:
        """Zero to two enter triggers `on enter(p, c) where ...`, one maybe ending the move
        (`stop`)."""
        rng = self.rng
        lines: list[str] = []
        for _ in range(rng.choice([0, 0, 1, 2])):
            scope = {"p": "piece", "c": "cell"}
            lines += [f"on enter(p, c) where {self.of('bool', scope, 2)} {{",
                      *self.statements(scope, 1, "  ", rng.randrange(1, 3))]
            if self.chance(0.5):
                lines += [f"  if {self.of('bool', scope, 1)} {{", "    stop", "  }"]
            lines += ["}", ""]
        return lines

    def put(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        if self.chance(0.5):
            into = f"reserve of {self.of('seat', scope, 1)}"
        else:
            into = "pile"
        return self.on_piece(self.of("piece", scope, 1), indent, f"put {{}} into {into}")

    def shuffle(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        return [f"{indent}shuffle {self.rng.choice(['g_nums', 'g_cells'])}"]

    def def_call(self, scope: dict[str, str], depth: int, indent: str) -> list[str]:
        name, args = self.rng.choice(self.defs)
        return [f"{indent}{name}({', '.join(self.of(a, scope, 1) for a in args)})"]

    def procedures(self) -> list[str]:
        """Zero to three defs, each calling only those before it (a def cannot call itself in
        the typed subset; `leave` is outside it, so none is written)."""
        rng = self.rng
        lines: list[str] = []
        for _ in range(rng.randrange(0, 4)):
            name = self.fresh("proc")
            args = [rng.choice(["num", "cell", "piece", "seat"])
                    for _ in range(rng.randrange(0, 3))]
            names = [self.fresh("a") for _ in args]
            body = self.statements(dict(zip(names, args)), 2, "  ", rng.randrange(1, 4))
            lines += [f"def {name}({', '.join(names)}) {{", *body, "}", ""]
            self.defs.append((name, args))
        return lines

    def zone_lines(self) -> list[str]:
        """Maybe the zones 'reserve' (per seat) and 'pile', each perhaps seen only by some
        seats."""
        rng = self.rng
        self.zones = self.chance(0.4)
        if not self.zones:
            return []
        mine = rng.choice(["", " visible to viewer == owner", " visible to false"])
        pile = rng.choice(["", "", " visible to viewer == a", " visible to false"])
        return [f"zone reserve per seat{mine}", f"zone pile{pile}", ""]

    def on_enter(self, scope: dict[str, str]) -> list[str]:
        """An `on enter` block of a phase (statements with no goto), sometimes two."""
        lines: list[str] = []
        for _ in range(self.rng.choice([0, 1, 1, 2])):
            lines += ["  on enter {", *self.statements(scope, 2, "    ", self.rng.randrange(1, 3)),
                      "  }"]
        return lines

    def on_resume(self) -> list[str]:
        """The turn phase's `on resume` block, when it calls a phase: mostly the next seat's
        turn."""
        if not self.subs or self.chance(0.2):
            return []
        body = self.statements({}, 1, "    ", self.rng.randrange(0, 2))
        if self.chance(0.8):
            body.append("    goto play for next(me)")
        return ["  on resume {", *body, "  }"] if body else []

    # ---- the file ---------------------------------------------------------------------
    def board(self) -> str:
        rng = self.rng
        w, h = rng.randrange(2, 6), rng.randrange(2, 6)
        shape = rng.choice(["square", "square", "hex"])
        line = f"board {shape}({w}, {h})"
        self.literals = [f"@{'abcdefgh'[k]}{r}" for k in range(w) for r in range(1, h + 1)]
        if shape == "square" and self.chance(0.3):
            line += " directions 4"
        if self.chance(0.3) and w * h > 4:
            k, r = rng.randrange(1, w + 1), rng.randrange(1, h + 1)
            r = 2 if (k, r) == (1, 1) else r        # @a1 stays a cell
            line += f"\n    holes(c) where column(c) == {k} and row(c) == {r}"
            self.literals.remove(f"@{'abcdefgh'[k - 1]}{r}")
        return line

    def program(self) -> str:
        rng = self.rng
        self.kinds = [f"K{i}" for i in range(rng.randrange(1, 4))]
        self.stats = ["speed", "power"]
        # three seats now and then: a loss puts one out and the game goes on without it
        self.seats = ["a", "b", "c"] if self.chance(0.35) else ["a", "b"]
        lines = [f'game "Fuzz {self.seed}"', f"seats {', '.join(self.seats)}", self.board(),
                 "symbols u, v, w", "",
                 *self.zone_lines(),
                 "param marks = [u, v, w]", "", "kinds (symbol, speed, power) {"]
        for i, k in enumerate(self.kinds):
            lines.append(f'  {k} = "{"xyz"[i]}", {rng.randrange(0, 4)}, {rng.randrange(-1, 3)}')
        lines.append("}")
        if self.chance(0.3):        # pieces out of sight
            cond = self.rng.choice(["viewer == owner", "false", "it.hp > 1",
                                    "viewer == owner or it.cell == none"])
            lines += [f"kinds (symbol, speed, power) visible to {cond} {{",
                      f'  M0 = "m", {rng.randrange(0, 4)}, {rng.randrange(-1, 3)}', "}"]
            self.kinds.append("M0")
        lines += ["", "var piece.hp = 1", "var seat.score = 0", "var g_n = 0",
                  "var g_flag = false", "var g_cells = [@a1]", "var g_nums = [1]",
                  "var g_cell = @a1", "var g_piece = none", "var g_dir = none",
                  "var g_seat = a", "var g_sym = u", 'var g_msg = ""', "",
                  *self.hidden_lines(),
                  "fn taken() = [p.cell for p in pieces()]",
                  "fn nth0(ns, k) = if k >= 1 and k <= len(ns) then nth(ns, k) else 0",
                  "fn last0(ns) = if len(ns) == 0 then 0 else last(ns)",
                  "fn nz(n) = if n == 0 then 1 else n",
                  "fn c0(c) = if c == none then @a1 else c",
                  "fn d0(d) = if d == none then nth(directions(), 1) else d",
                  "fn hp0(p) = if p == none then 0 else p.hp",
                  "fn speed0(p) = if p == none then 0 else p.speed",
                  "fn power0(p) = if p == none then 0 else p.power",
                  "fn owner0(p) = if p == none then a else p.owner",
                  "fn kind0(p) = if p == none then K0 else p.kind",
                  "fn cell0(p) = if p == none then @a1 else c0(p.cell)", ""]
        for _ in range(rng.randrange(0, 3)):
            name = self.fresh("f")
            args = [rng.choice(["num", "cell", "piece", "seat"])
                    for _ in range(rng.randrange(1, 3))]
            names = [self.fresh("a") for _ in args]
            result = rng.choice(["num", "bool", "cell"])
            body = self.of(result, dict(zip(names, args)), 2)
            lines.append(f"fn {name}({', '.join(names)}) = {body}")
            self.fns.append((name, args, result))
        fns_at = len(lines)
        self.subs = [(self.fresh("sub"), rng.choice(["num", "cell", "piece", "seat"]))
                     for _ in range(rng.choice([0, 1, 1, 2]))]
        self.simul = self.chance(0.4)
        lines += ["", *self.procedures(), *self.triggers(), "setup {"]
        for seat in self.seats:
            for _ in range(rng.randrange(1, 3)):
                lines.append(f"  create {rng.choice(self.kinds)} for {seat} at "
                             f"nth(cells(), {rng.randrange(1, 5)})")
        if self.zones:
            lines += ["  for s in seats {", f"    for k in range({rng.randrange(0, 2)}, 2) {{",
                      f"      create {rng.choice(self.kinds)} for s at none", "    }",
                      "    for p in pieces(s) where p.cell == none {",
                      "      put p into reserve of s", "    }", "  }"]
        if self.chance(0.5):
            lines.append(f"  g_n = roll({rng.randrange(1, 7)})")
        lines += ["  g_piece = nth(pieces(), 1)", "  g_dir = nth(directions(), 1)",
                  "  goto play for a", "}", "", "phase play turn {", *self.on_enter({}),
                  *self.on_resume()]
        for _ in range(rng.randrange(2, 5)):
            lines += self.action()
        action_at = len(lines)
        for name, ty in self.subs:      # each phase reached (the checker refuses one that is not)
            lines += [f"  action to_{name}() where {self.of('bool', {}, 1)} {{",
                      f"    call {name}({self.of(ty, {}, 1)}) for {rng.choice(['me', 'next(me)'])}",
                      "  }"]
        if self.simul:
            lines += [f"  action to_vote() where {self.of('bool', {}, 1)} {{",
                      "    goto vote(1) for me", "  }"]
        if self.chance(0.3):        # a pass on some turns only: a seat may have no legal action
            lines += ["  on no action {", *self.statements({}, 1, "    ", rng.randrange(0, 2)),
                      "    goto play for next(me)", "  }",
                      f"  action pass() where turn_number % {rng.randrange(2, 5)} != 0 {{",
                      "    goto play for next(me)", "  }", "}", ""]
        else:
            lines += ["  action pass() {", "    goto play for next(me)", "  }", "}", ""]
        lines += [*self.phases(), "end {"]
        lines.append(f"  win when me.score > {rng.randrange(8, 30)}")
        if self.chance(0.15):
            lines.append(f"  lose when turn_number > 3 and {self.of('bool', {}, 2)}")
        if self.chance(0.15):         # dice in the end rules, drawn after each decision
            lines.append(f"  lose when roll(6) + me.score < {rng.randrange(-3, 2)}")
        lines += [f"  draw when turn_number > {rng.randrange(20, 60)}", "}", ""]
        if self.chance(0.35):       # returns other than 1, -1, 0
            lines += [f"payoff(s) = {self.of('num', {'s': 'seat'}, 2)} - s.score", ""]
        if self.with_extras:
            fns, action, seat_vars, trigger, more = self.extras()
            lines[action_at:action_at] = action + more
            lines[lines.index("setup {"):lines.index("setup {")] = trigger
            lines[fns_at:fns_at] = fns
            at = lines.index('var g_msg = ""') + 1
            lines[at:at] = seat_vars
        return "\n".join(lines)

    def action(self, lets: int = 0) -> list[str]:
        """An action of the turn phase; with `lets`, that many lists bound by `let` first in
        its body (read by the statements after them)."""
        rng = self.rng
        scope: dict[str, str] = {}
        binders = []
        domains = {
            "cell": lambda: self.list_of("cell", scope, rng.randrange(0, 3)),
            "piece": lambda: self.list_of("piece", scope, rng.randrange(0, 2)),
            "dir": lambda: self.list_of("dir", scope, 1),
            "sym": lambda: self.list_of("sym", scope, 0),
            "seat": lambda: self.list_of("seat", scope, 0),
            "num": lambda: self.list_of("num", scope, rng.randrange(0, 2)),
        }
        for _ in range(rng.randrange(1, 5)):
            ty = rng.choice(["cell", "piece", "piece", "dir", "sym", "seat", "num", "cell"])
            domain = domains[ty]()
            name = self.fresh("v")
            extra = ""
            if ty == "piece" and self.chance(0.15):
                extra = " by cell"
                if self.chance(GUARD):      # one piece a cell: the last to arrive
                    x = self.fresh("x")
                    domain = (f"[{x} for {x} in {domain} where {x}.cell != none and "
                              f"{x} == last(pieces_at({x}.cell))]")
            binders.append(f"{name} in {domain}{extra}")
            scope[name] = ty
        test = self.of("bool", scope, rng.randrange(1, 4))
        head = f"  action {self.fresh('act')}({', '.join(binders)}) where {test} {{"
        bound = []
        for _ in range(lets):
            ty = rng.choice(["cell", "num", "piece", "cell", "seat", "dir"])
            made = self.list_of(ty, scope, 2)
            name = self.fresh("l")
            if self.chance(0.3):        # a list grown from [] (its type from what joins it)
                x, inner = self.binder(ty, made, scope)
                bound += [f"    let {name} = []", f"    for {x} in {made} {{",
                          f"      if {self.of('bool', inner, 1)} {{",
                          f"        {name} = {name} + [{x}]", "      }", "    }"]
            else:
                bound.append(f"    let {name} = {made}")
            if self.chance(0.3):
                scope[name] = "list:" + ty
                bound.append(f"    {name} = {self.list_of(ty, scope, 1)}")
            if self.chance(0.7):        # (its order counts: unique, sorted, connected)
                bound.append(f"    log text({name})")
            scope[name] = "list:" + ty
        body = self.statements(scope, 2, "    ", rng.randrange(1, 4))
        return [head, *bound, *body, self.leaving(scope), "  }"]

    def leaving(self, scope: dict[str, str]) -> str:
        """How an action of the turn phase ends: mostly the next seat's turn, sometimes a
        call of another phase (which returns here) or the simultaneous phase."""
        rng = self.rng
        if self.subs and self.chance(0.3):
            name, ty = rng.choice(self.subs)
            if self.chance(0.3):
                s = self.fresh("s")
                order = rng.choice(["seats", "clockwise_from(next(me))",
                                    "counterclockwise_from(me)"])
                return (f"    call {name}({self.of(ty, scope, 1)}) for each {s} in {order} "
                        f"where {self.of('bool', {s: 'seat'}, 1)}")    # (no locals)
            seat = rng.choice(["me", "me", "next(me)"])
            return f"    call {name}({self.of(ty, scope, 1)}) for {seat}"
        if self.simul and self.chance(0.2):
            return f"    goto vote({self.of('num', scope, 1)}) for me"
        return "    goto play for next(me)"

    def phases(self) -> list[str]:
        """The phases after the turn phase: called ones (plain, turn, turn auto, secret)
        whose actions return or go to the next seat's turn, and a simultaneous one."""
        rng = self.rng
        lines: list[str] = []
        for name, ty in self.subs:
            mode = rng.choice(["", " turn", " turn auto", " secret", " turn"])
            param = self.fresh("q")
            scope = {param: ty}
            lines += [f"phase {name}({param}){mode} {{", *self.on_enter(scope)]
            for _ in range(rng.randrange(1, 4)):
                x = self.fresh("v")
                lty = rng.choice(["cell", "num", "piece", "seat"])
                inner = dict(scope)
                inner[x] = lty
                domain = self.list_of(lty, scope, 1)
                head = (f"  action {self.fresh('sub')}({x} in {domain}) where "
                        f"{self.of('bool', inner, 2)} {{")
                body = self.statements(inner, 1, "    ", rng.randrange(1, 3))
                end = "    return" if self.chance(0.7) else "    goto play for next(me)"
                lines += [head, *body, end, "  }"]
            if self.chance(0.7):
                lines += [f"  action {self.fresh('back')}() {{", "    return", "  }"]
            lines += ["}", ""]
        if self.simul:
            stake = self.fresh("q")
            scope = {stake: "num"}
            lines += [f"phase vote({stake}) simultaneous {{", *self.on_enter(scope)]
            for _ in range(rng.randrange(1, 3)):
                x = self.fresh("v")
                inner = dict(scope)
                inner[x] = "num"
                lines += [f"  action {self.fresh('bid')}({x} in range(0, {rng.randrange(1, 4)})) "
                          f"where {self.of('bool', inner, 1)} {{",
                          *self.statements(inner, 1, "    ", rng.randrange(1, 3)), "  }"]
            lines += ["  action hold() {", "    me.score += 0", "  }", "  on reveal {",
                      *self.statements(scope, 1, "    ", rng.randrange(0, 2)),
                      f"    if {self.of('bool', scope, 1)} {{",
                      f"      goto vote({stake} + 1) for me", "    }",
                      "    goto play for next(me)", "  }", "}", ""]
        return lines


def generate(seed: int) -> str:
    """The rule file of program `seed`."""
    return Generator(seed).program()


def check(text: str, path: str) -> tuple[str, object, object]:
    """('refused' | 'outside' | 'inside', python game, native game or None)."""
    from gdl.interpreter import load_source
    from gdl.interpreter.language.errors import GdlError
    from gdl.interpreter.runtime import typed
    try:
        python = load_source(text, path, "python")
    except GdlError:
        return "refused", None, None
    if typed.unsupported(python._program) is not None:
        return "outside", python, None
    return "inside", python, None


def fault_key(error: Exception) -> str:
    """A run-time error's message with its place, the rule text and the names the generator
    numbers left out, so that the same fault in two programs counts once."""
    said = str(error).split("\n")[0].split("run-time error: ", 1)[-1]
    return re.sub(r"'[^']*'", "'...'", re.sub(r"\b([A-Za-z]+)\d+(#\d+)?\b", r"\1N", said))


def play_python(seed: int, games: int, folder: str) -> list[str]:
    """How each game of program `seed` ends on the Python backend alone, with the choices
    `_compare` makes: 'refused', 'outside', 'ended', 'longest' or a fault (`fault_key`)."""
    from gdl.interpreter.language.errors import GdlRuntimeError
    text = generate(seed)
    path = os.path.join(folder, f"fuzz_{seed}.gdl")
    Path(path).write_text(text)
    verdict, python, _ = check(text, path)
    if verdict != "inside":
        return [verdict]
    game: Any = python
    ends = []
    for game_seed in range(games):
        choose = random.Random(game_seed)
        try:
            state = game.new_state(game_seed)
            for _ in range(LONGEST):
                legal = game.legal_actions(state)
                if not legal:
                    ends.append("ended")
                    break
                choose.random()
                game.apply(state, legal[choose.randrange(len(legal))], check=False)
            else:
                ends.append("longest")
        except GdlRuntimeError as exc:
            ends.append("fault: " + fault_key(exc))
    return ends


def tally_faults(first: int, programs: int, games: int, folder: str) -> str:
    """The ends of `programs` programs' games on Python (`play_python`): how many programs
    had a game end on a fault, and the faults by message, most common first."""
    ends: Counter[str] = Counter()
    faulted = played = 0
    for seed in range(first, first + programs):
        said = play_python(seed, games, folder)
        ends.update(said)
        if said[0] not in ("refused", "outside"):
            played += 1
            faulted += any(e.startswith("fault") for e in said)
    games_faulted = sum(n for what, n in ends.items() if what.startswith("fault"))
    lines = [f"{programs} programs from seed {first}, {games} games each: {played} played, "
             f"{faulted} with a game that ended on a fault; {games_faulted} of "
             f"{sum(ends.values())} games ended on one"]
    lines += [f"{n:5} {what}" for what, n in ends.most_common()]
    return "\n".join(lines)


def compare_views(python: Any, fast: Any, seed: int) -> None:
    """The game `_compare` plays from `seed` again, each seat's view and action texts
    compared at each decision (`_compare` reads only the view of all): what a seat may not
    see must be hidden the same on both. Stops at a run-time error (`_compare` compared it)."""
    from gdl.interpreter.language.errors import GdlRuntimeError
    choose = random.Random(seed)
    try:
        a, b = python.new_state(seed), fast.new_state(seed)
        for decision in range(LONGEST):
            legal = python.legal_actions(a)
            for seat in range(len(python.seats)):
                where = f"seat {seat}, game seed {seed}, decision {decision}"
                assert fast.view(b, seat) == python.view(a, seat), f"view of {where}"
                assert [fast.action_text(b, x, seat) for x in legal[:8]] == \
                    [python.action_text(a, x, seat) for x in legal[:8]], f"texts for {where}"
            if not legal:
                return
            choose.random()
            action = legal[choose.randrange(len(legal))]
            python.apply(a, action, check=False)
            fast.apply(b, action, check=False)
    except GdlRuntimeError:
        return


def run_program(seed: int, games: int, folder: str) -> str:
    """'refused', 'outside', 'same' or 'DIFFERENT ...' for one program."""
    sys.path.insert(0, str(ROOT))
    from gdl.interpreter import load_source
    from gdl.interpreter.runtime import native
    from tests.runtime.test_typed import _compare
    import pytest
    text = generate(seed)
    path = os.path.join(folder, f"fuzz_{seed}.gdl")
    Path(path).write_text(text)
    verdict, python, _ = check(text, path)
    if verdict != "inside":
        return verdict
    fast = load_source(text, path, "native")
    if native.backend_of(fast) != "native" or fast._typed is None:
        return "DIFFERENT: inside the subset but not built typed"
    for game_seed in range(games):
        try:
            _compare(python, fast, game_seed)
            compare_views(python, fast, game_seed)
        except (AssertionError, pytest.fail.Exception) as exc:
            said = str(exc)[:1500] or traceback.format_exc()[-1500:]    # (a bare assert)
            return f"DIFFERENT: game seed {game_seed}: {said}"
        except Exception:       # a traceback on either side
            return f"DIFFERENT: game seed {game_seed}: {traceback.format_exc()[-1500:]}"
    return "same"


def _worker(seed: int, games: int, folder: str, out: object) -> None:
    out.put(run_program(seed, games, folder))  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="the first program's seed")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--keep", help="the folder the programs are saved in")
    parser.add_argument("--faults", action="store_true",
                        help="play on Python alone and count how the games end, by fault")
    args = parser.parse_args()
    os.environ.setdefault("GDL_NATIVE_CFLAGS", "-O0")
    os.environ.pop("GDL_TYPED", None)
    folder = args.keep or tempfile.mkdtemp(prefix="gdl_fuzz_backends_")
    os.makedirs(folder, exist_ok=True)
    if args.faults:
        print(tally_faults(args.seed, args.programs, args.games, folder))
        return 0
    counts: Counter[str] = Counter()
    failed = 0
    context = multiprocessing.get_context("spawn")
    for seed in range(args.seed, args.seed + args.programs):
        out = context.Queue()
        process = context.Process(target=_worker, args=(seed, args.games, folder, out))
        process.start()
        process.join()
        outcome = (f"CRASHED with exit code {process.exitcode}" if process.exitcode != 0
                   else out.get())
        counts[outcome.split(":")[0]] += 1
        if outcome.startswith(("DIFFERENT", "CRASHED")):
            failed += 1
            print(f"program {seed} ({os.path.join(folder, f'fuzz_{seed}.gdl')}): {outcome}",
                  flush=True)
    print(f"{args.programs} programs from seed {args.seed}, {args.games} games each, files in "
          f"{folder}: " + ", ".join(f"{n} {what}" for what, n in sorted(counts.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
