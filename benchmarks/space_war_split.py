"""Where a Space War decision's time goes on the Python backend, against the hand-written
reference: the listing of the legal actions, and the rest (applying the chosen action, the
end check, the loop, the random draw).

    .venv/bin/python benchmarks/space_war_split.py [--games 300] [--rounds 3] [--json]

In one process, per round, the reference then gdl: `--games` random games each (the
reference's `play_random_game` loop with `random.Random(seed)`; gdl's Python playout loop,
`Game._loop_playout`, the one `gdl simulate` runs, with SplitMix64 seeds per game), the
listing timed with `time.perf_counter` around it (gdl: around the four listings of the
phase `play`, the other phases' few listings counted in the rest). Printed: the median over
the rounds of us a decision in all, in the listing and in the rest, for each side. The
timer's own cost (some 0.1 us a decision) is in the listing. The reference lives in
../shared/bench (or --bench-dir, or GDL_BENCH_DIR); missing: exit status 2.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gdl.interpreter import load_game  # noqa: E402

clock = time.perf_counter


def reference_side(bench: Path):
    sys.path.insert(0, str(bench))
    import space_war_ref as ref  # noqa: E402
    with open(bench / "space_war_gdl_board.json", encoding="utf-8") as config:
        board = ref.Board(json.load(config))

    def run(games: int) -> tuple[float, float, int]:
        listing, decisions, start = 0.0, 0, clock()
        for seed in range(games):
            rng = random.Random(seed)
            game, draw = ref.Game(board, rng), rng.random
            while game.result == ref.ONGOING and game.turn < 1000:
                before = clock()
                legal = game.legal_decisions()
                listing += clock() - before
                game.apply(legal[int(draw() * len(legal))])
                decisions += 1
        return clock() - start, listing, decisions
    return run


def gdl_side():
    game = load_game(str(ROOT / "games" / "space_war.gdl"), "python")
    phase = game._phases["play"]
    listings = list(phase.listings)
    spent = [0.0]

    def first(state, me, out, listing=listings[0]):
        spent[0] -= clock()
        return listing(state, me, out)

    def last(state, me, out, listing=listings[-1]):
        found = listing(state, me, out)
        spent[0] += clock()
        return found
    phase.listings = [first, *listings[1:-1], last]

    def run(games: int) -> tuple[float, float, int]:
        spent[0], decisions, start = 0.0, 0, clock()
        for seed in range(games):
            state = game.new_state(seed)
            game._loop_playout(state, [seed * 7 + 1, seed * 13 + 5], 1000, None)
            decisions += state.decisions
        return clock() - start, spent[0], decisions
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bench-dir")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bench = Path(args.bench_dir or os.environ.get("GDL_BENCH_DIR")
                 or ROOT.parent / "shared" / "bench")
    if not (bench / "space_war_ref.py").is_file():
        print(f"the Space War reference is missing: {bench / 'space_war_ref.py'} not found",
              file=sys.stderr)
        return 2
    sides = {"reference": reference_side(bench), "gdl": gdl_side()}
    for run in sides.values():         # warm up
        run(10)
    found: dict[str, dict[str, list[float]]] = {
        side: {"total": [], "listing": [], "rest": []} for side in sides}
    for _ in range(args.rounds):
        for side, run in sides.items():
            total, listing, decisions = run(args.games)
            found[side]["total"].append(total / decisions * 1e6)
            found[side]["listing"].append(listing / decisions * 1e6)
            found[side]["rest"].append((total - listing) / decisions * 1e6)
    medians = {side: {part: statistics.median(values) for part, values in parts.items()}
               for side, parts in found.items()}
    if args.json:
        print(json.dumps({"games": args.games, "rounds": args.rounds, "runs": found,
                          "medians": medians}, indent=1))
        return 0
    print(f"Space War, us a decision (median of {args.rounds} rounds of {args.games} games)")
    print(f"  {'side':10} {'in all':>8} {'listing':>8} {'the rest':>9}")
    for side, parts in medians.items():
        print(f"  {side:10} {parts['total']:8.2f} {parts['listing']:8.2f} {parts['rest']:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
