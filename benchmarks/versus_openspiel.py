"""Classic games written in gdl against OpenSpiel's C++ implementations of the same games:
random-play decisions/s per gdl backend and pyspiel's, and their ratios.

    .venv/bin/python benchmarks/versus_openspiel.py [GAME ...] [--games 20] [--rounds 5]
        [--seed 1] [--backends python,native] [--json]

GAME is a rule-file stem of games/classic/ (default: tic_tac_toe connect_four breakthrough
othello checkers, the five games of the native-speed benchmark). Each side plays the same
Python loop (benchmarks/classic_differential.py: list the legal actions, draw one uniformly
with `random.Random`, apply it, until the game ends; OpenSpiel's chance nodes are sampled
and not counted), `--games` games a round from seeds `--seed`, `--seed + 1`, ... In each
round the sides take turns, game by game: gdl on each backend, then pyspiel. One process,
one thread: one core. Per game it prints the median over the rounds of each side's
decisions/s (decisions over the seconds of the loop, loading excluded) and the median over
the rounds of the per-round ratios pyspiel/gdl (how many times faster OpenSpiel's C++ is).

The native backend compiles each rule file with Cython on its first load (cached); when it
cannot (no Cython, no compiler, a failed build) the script says why and exits 2 rather
than timing the Python backend twice. `--backends python` measures without it. `--json`
prints one object: `games`, `rounds`, `seed`, `backends` and `rows` (per game `game`,
`spiel_game`, per side `SIDE_decisions_per_second` (a list, one per round) and
`SIDE_median`, and `ratio_spiel_over_BACKEND_median`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from classic_differential import gdl_playouts, pairings, spiel_playouts  # noqa: E402

from gdl.interpreter import load_game  # noqa: E402
from gdl.interpreter.runtime import native  # noqa: E402
from tests.games.classic.differential import CLASSIC  # noqa: E402

GAMES = ("tic_tac_toe", "connect_four", "breakthrough", "othello", "checkers")
BACKENDS = ("python", "native")


class Unavailable(Exception):
    """A backend asked for cannot run here; the message says why."""


def load(rules: str, backend: str):
    """The gdl game of a classic rule file on `backend`; Unavailable when the native
    backend falls back to Python (it says so on stderr, caught here)."""
    if backend == "native" and (reason := native.missing_tools()) is not None:
        raise Unavailable(f"the native backend cannot be built here: {reason}")
    told = io.StringIO()
    with contextlib.redirect_stderr(told):
        game = load_game(str(CLASSIC / rules), backend=backend)
    if "running on the Python backend" in told.getvalue():
        raise Unavailable(told.getvalue().strip())
    sys.stderr.write(told.getvalue())
    return game


def rate(run) -> float:
    start = time.perf_counter()
    decisions = run()
    return decisions / (time.perf_counter() - start)


def measure(name: str, backends: list[str], games: int, rounds: int, seed: int) -> dict:
    pairing = pairings()[name]
    loaded = {backend: load(pairing.rules, backend) for backend in backends}
    spiel_game = pairing.load()[1]
    rates: dict[str, list[float]] = {side: [] for side in [*backends, "spiel"]}
    for _ in range(rounds):
        for backend, game in loaded.items():
            rates[backend].append(rate(lambda: gdl_playouts(game, games, seed)))
        rates["spiel"].append(rate(lambda: spiel_playouts(spiel_game, games, seed)))
    row: dict = {"game": name, "spiel_game": pairing.spiel_game}
    for side, values in rates.items():
        row[f"{side}_decisions_per_second"] = values
        row[f"{side}_median"] = statistics.median(values)
    for backend in backends:
        row[f"ratio_spiel_over_{backend}_median"] = statistics.median(
            s / g for s, g in zip(rates["spiel"], rates[backend]))
    return row


def table(rows: list[dict], backends: list[str]) -> str:
    head = (f"{'game':<14}" + "".join(f"{'gdl ' + b:>12}" for b in backends)
            + f"{'pyspiel':>12}" + "".join(f"{'spiel/' + b:>14}" for b in backends))
    lines = [head + "    (decisions/s, medians)"]
    for row in rows:
        lines.append(f"{row['game']:<14}"
                     + "".join(f"{row[f'{b}_median']:>12,.0f}" for b in backends)
                     + f"{row['spiel_median']:>12,.0f}"
                     + "".join(f"{row[f'ratio_spiel_over_{b}_median']:>13.1f}x"
                               for b in backends))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="GAME", default=list(GAMES))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    backends = args.backends.split(",")
    known = pairings()
    unknown = [n for n in args.names if n not in known]
    wrong = [b for b in backends if b not in BACKENDS]
    if unknown or wrong or args.games < 1 or args.rounds < 1:
        print(f"versus_openspiel.py: unknown game(s) {', '.join(unknown) or '-'} (known: "
              f"{', '.join(known)}), unknown backend(s) {', '.join(wrong) or '-'} (known: "
              f"{', '.join(BACKENDS)}), or --games/--rounds below 1", file=sys.stderr)
        return 2
    rows = []
    try:
        for name in args.names:
            rows.append(measure(name, backends, args.games, args.rounds, args.seed))
            if not args.json:
                print(table(rows[-1:], backends).splitlines()[-1] if len(rows) > 1
                      else table(rows, backends), flush=True)
    except Unavailable as exc:
        print(f"versus_openspiel.py: {exc} (--backends python measures without it)",
              file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"games": args.games, "rounds": args.rounds, "seed": args.seed,
                          "backends": backends, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
