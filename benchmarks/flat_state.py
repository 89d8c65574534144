"""What a flat state would give the Python backend: Space War's listing of legal actions as
gdl generates it (pieces as dicts of fields), against the same listing written by hand on a
flat state (pieces as lists by field, kinds as numbers, the cells' stacks in a list, the
phase's four listings in one function), and against the hand-written reference's listing.

    .venv/bin/python benchmarks/flat_state.py [--games 60] [--skip 20] [--rounds 5] [--json]

Positions: every decision point of the phase `play` in random games --skip+1..--games of
the Python backend (seed k for game k; each seat draws from its own SplitMix64 stream, as a
random agent does, seeded here per game: not `gdl simulate`'s games), each cloned when it
is reached; the reference's from its own random games (Python's
`random.Random(1)`, as its `--seed 1`), copied likewise. Per round, in one process: the
generated listing of every gdl position (`rt.work` and `rt.state` set as the engine sets
them), then the flat listing of the same positions (converted once, before timing: the
conversion is not timed), then the reference's `legal_decisions` of its positions. Printed:
the median over rounds of us per listing of each.

The flat listing is a prototype, written for this measurement only: it lists exactly the
actions the generated listing lists, in the same order (checked on every position before
timing; a change of the rules or of the generator that it no longer matches stops the
script with exit status 1), and counts work as the generated code does. It reads the
tables of the generated module (reach, sight, kinds-table columns) from the module itself.
The reference lives in ../shared/bench (or --bench-dir, or GDL_BENCH_DIR); without it the
reference's column is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gdl.interpreter import load_game  # noqa: E402

GAME = "games/space_war.gdl"
_MASK = (1 << 64) - 1


def positions(game: Any, games: int, skip: int) -> list[tuple[Any, int]]:
    """(a clone of the state, the seat to act) at every decision point of phase play."""
    found = []
    for seed in range(games):
        state, rngs = game.new_state(seed), [seed * 7 + 1, seed * 13 + 5]
        while state.result is None and state.turn <= 1000:
            seat = game.current_player(state)
            legal = game.legal_actions(state)
            if seed >= skip and state.frames[-1]["phase"] == "play":
                found.append((state.clone(), seat))
            rngs[seat] = z = (rngs[seat] + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            game.apply(state, legal[((z ^ (z >> 31)) * len(legal)) >> 64], False)
    return found


class Flat:
    """One position, flat: per piece id a list entry of each field."""

    __slots__ = ("kind", "cell", "damage", "has_moved", "shots", "warped_on", "owner",
                 "owned", "all", "at", "moved", "offered_on", "turn")


class FlatListing:
    """Space War's four listings of phase play, by hand, on a `Flat` position."""

    def __init__(self, game: Any) -> None:
        listings = game._phases["play"].listings
        names = [[n for n in fn.__code__.co_names if n[:1] in "RKS" and n[1:].isdigit()]
                 for fn in listings]
        ns = listings[0].__globals__
        move, fire = names[0], names[1]
        # the move listing reads its reach table, then the damaged and the plain speed;
        # the fire listing its two cannon columns, the holes and its sight table
        self.reach = ns[next(n for n in move if n[0] == "R")]
        speeds = [ns[n] for n in move if n[0] == "K"]
        cannons = [ns[n] for n in fire if n[0] == "K"]
        self.holes = ns[next(n for n in fire if n[0] == "S")]
        self.sight = ns[next(n for n in fire if n[0] == "R")]
        self.kinds = sorted(speeds[0], key=lambda k: k != "Station")   # Station is 0
        self.damaged_speed = [speeds[0][k] for k in self.kinds]
        self.speed = [speeds[1][k] for k in self.kinds]
        self.damaged_cannons = [cannons[0][k] for k in self.kinds]
        self.cannons = [cannons[1][k] for k in self.kinds]
        self.size = game._board.size
        self.work = 0
        self.moves: list[Any] = [None] * 256        # kept tuples by row, as gdl keeps them
        self.fires: list[Any] = [None] * 256

    def flat(self, state: Any) -> Flat:
        f = Flat()
        n = max(state.pieces) + 1
        f.kind, f.cell, f.damage = [0] * n, [None] * n, [0] * n
        f.has_moved, f.shots, f.warped_on, f.owner = [False] * n, [0] * n, [0] * n, [None] * n
        for pid, p in state.pieces.items():
            f.kind[pid] = self.kinds.index(p["kind"])
            f.cell[pid], f.damage[pid], f.has_moved[pid] = p["cell"], p["damage"], p["has_moved"]
            f.shots[pid], f.warped_on[pid], f.owner[pid] = p["shots"], p["warped_on"], p["owner"]
        f.owned = {k: v for k, v in state.owned.items() if k != "*"}
        f.all = state.owned["*"]
        f.at = [None] * self.size
        for c, pids in state.at.items():
            f.at[c] = pids
        f.moved = [v["moved"] for v in state.seat_vars]
        f.offered_on = [v["offered_on"] for v in state.seat_vars]
        f.turn = state.turn
        return f

    def listing(self, F: Flat, me: int, out: list[Any]) -> None:
        kind, cell, damage, at = F.kind, F.cell, F.damage, F.at
        owned = F.owned.get(me, ())
        self.work += len(owned)
        rows = self.moves
        for v1 in owned:                        # move(p in pieces(me), to in reach(...))
            if F.has_moved[v1]:
                continue
            row = rows[v1] or _row(rows, v1)
            k = kind[v1]
            tos = self.reach[cell[v1]][self.damaged_speed[k] if damage[v1] > 0
                                       else self.speed[k]]
            self.work += len(tos)
            station = k == 0
            for v2 in tos:
                if station and at[v2] is not None:     # station_on(to)
                    self.work += len(at[v2])
                    if any(kind[q] == 0 for q in at[v2]):
                        continue
                out.append(row[v2] or _keep(row, v2, (0, (v1, v2))))
        enemies = None
        self.work += len(owned)
        rows = self.fires
        for v1 in owned:                        # fire(p in pieces(me), at in sight(...))
            k = kind[v1]
            if not F.shots[v1] < (self.damaged_cannons[k] if damage[v1] > 0
                                  else self.cannons[k]):
                continue
            c = cell[v1]
            if c in self.holes:
                continue
            row = rows[v1] or _row(rows, v1)
            ats = self.sight[c]
            self.work += len(ats)
            if enemies is None:
                owner = F.owner
                self.work += len(F.all)
                enemies = frozenset([cell[q] for q in F.all if owner[q] != me])
            if not ats or enemies.isdisjoint(ats):
                continue
            for v2 in ats:
                if v2 in enemies:
                    out.append(row[v2] or _keep(row, v2, (1, (v1, v2))))
        if F.moved[me] > 0:                     # end()
            self.work += len(owned)
            if not any(0 < F.warped_on[v1] < F.turn for v1 in owned):
                out.append((2, ()))
        self.work += len(F.all)                 # offer_draw()
        if all(kind[v1] == 0 for v1 in F.all) and F.offered_on[me] < F.turn:
            out.append((3, ()))


def _row(rows: list[Any], index: int) -> list[Any]:
    row = rows[index] = [None] * 256
    return row


def _keep(row: list[Any], index: int, action: Any) -> Any:
    row[index] = action
    return action


def reference_positions(bench_dir: Path, games: int, skip: int) -> list[Any] | None:
    script = bench_dir / "space_war_ref.py"
    if not script.is_file():
        return None
    sys.path.insert(0, str(bench_dir))
    import space_war_ref as ref    # noqa: PLC0415 - outside the repository
    board = ref.Board(ref.load_config(str(bench_dir / "space_war_gdl_board.json")))
    rng, found = random.Random(1), []
    for k in range(games):
        game = ref.Game(board, rng)
        while game.result == ref.ONGOING and game.turn < 1000:
            legal = game.legal_decisions()
            if k >= skip:
                copy = ref.Game.__new__(ref.Game)
                for name in ref.Game.__slots__:
                    value = getattr(game, name)
                    setattr(copy, name, list(value) if isinstance(value, list) else value)
                found.append(copy)
            game.apply(legal[int(rng.random() * len(legal))])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--skip", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bench-dir", default=os.environ.get("GDL_BENCH_DIR")
                        or str(ROOT.parent / "shared" / "bench"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games <= args.skip or args.rounds < 1 or args.skip < 0:
        print("flat_state.py: --games must be above --skip (>= 0), --rounds at least 1",
              file=sys.stderr)
        return 2
    game = load_game(str(ROOT / GAME), "python")
    found = positions(game, args.games, args.skip)
    flat = FlatListing(game)
    flats = [(flat.flat(state), seat) for state, seat in found]
    listings, rt = game._phases["play"].listings, game._rt
    for (state, seat), (f, _) in zip(found, flats):
        out: list[Any] = []
        flat.listing(f, seat, out)
        if out != game.legal_actions(state):
            print("flat_state.py: the flat listing no longer lists what gdl lists (the rules "
                  "or the generator changed): update FlatListing", file=sys.stderr)
            return 1
    ref = reference_positions(Path(args.bench_dir), args.games, args.skip)
    times: dict[str, list[float]] = {"gdl": [], "flat": [], "reference": []}
    for _ in range(args.rounds):
        start = time.perf_counter()
        for state, seat in found:
            rt.state, rt.work = state, 0
            out = []
            for listing in listings:
                listing(state, seat, out)
        middle = time.perf_counter()
        for f, seat in flats:
            flat.work = 0
            flat.listing(f, seat, [])
        end = time.perf_counter()
        times["gdl"].append((middle - start) / len(found) * 1e6)
        times["flat"].append((end - middle) / len(found) * 1e6)
        if ref is not None:
            start = time.perf_counter()
            for position in ref:
                position.legal_decisions()
            times["reference"].append((time.perf_counter() - start) / len(ref) * 1e6)
    rt.state = None
    result = {"positions": len(found), "reference_positions": len(ref) if ref else 0,
              "rounds": args.rounds,
              "us_per_listing": {k: round(statistics.median(v), 3) for k, v in times.items()
                                 if v}}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"Space War's listing, us a listing (median of {args.rounds} rounds): "
          f"{len(found)} gdl positions, {result['reference_positions']} of the reference")
    for name, value in result["us_per_listing"].items():
        print(f"  {name:10s} {value:8.2f}")
    if ref is None:
        print(f"  (no reference: {args.bench_dir} has no space_war_ref.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
