"""The Python and native backends side by side: random-play decisions/s per game, and the
native backend's first-load (compile) and cached load times.

    .venv/bin/python benchmarks/backends.py [FILE ...] [--games 300] [--rounds 3] [--seed 1]
                                            [--json]

For each file, `--rounds` times, alternately:

    gdl simulate FILE --games N --seed S --json --workers 1 --backend python
    gdl simulate FILE --games N --seed S --json --workers 1 --backend native

(one process each, the simulation loop timed in the process), then the median decisions/s per
backend and the median of the per-round ratios native/python. The native runs use a cache
folder of this run's own, filled first by one `gdl bench --games 1 --backend native FILE`
whose load time is the first load (Cython and the C compiler); a second such command gives
the cached load. Exits 2 when the native backend cannot be built here (the reason printed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from benchlib import (BenchError, decisions_per_second, fmt, installed_gdl_command, median,
                      run_json, simulate_run)

GAMES = ("games/space_war.gdl", "games/game.gdl", "games/galaxy_of_d.gdl")


def load_ms(gdl, path, env):
    """The load time `gdl bench` reports for one load of `path` on the native backend."""
    proc = subprocess.run([*gdl, "bench", "--games", "1", "--backend", "native", path],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0 or proc.stderr.strip():
        raise BenchError(f"the native backend did not load {path}:\n"
                         f"{(proc.stderr or proc.stdout).strip()}")
    return float(proc.stdout.splitlines()[-1].split()[1])


def measure(gdl, path, games, rounds, seed, env):
    first, cached = load_ms(gdl, path, env), load_ms(gdl, path, env)
    runs = {"python": [], "native": []}
    for _ in range(rounds):
        for backend in runs:
            argv = [*gdl, "simulate", path, "--games", str(games), "--seed", str(seed),
                    "--json", "--workers", "1", "--backend", backend]
            runs[backend].append(simulate_run(run_json(argv, env=env), argv))
    rates = {b: [decisions_per_second(r) for r in rs] for b, rs in runs.items()}
    ratios = [n / p for n, p in zip(rates["native"], rates["python"])]
    return {"file": path, "first_load_ms": first, "cached_load_ms": cached,
            "python_decisions_per_second": rates["python"],
            "native_decisions_per_second": rates["native"],
            "python_median": median(rates["python"]), "native_median": median(rates["native"]),
            "ratio_median": median(ratios)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", default=list(GAMES))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    gdl = installed_gdl_command()
    with tempfile.TemporaryDirectory(prefix="gdl-backends-") as cache:
        env = dict(os.environ, GDL_CACHE_DIR=cache)
        try:
            rows = [measure(gdl, path, args.games, args.rounds, args.seed, env)
                    for path in args.files]
        except BenchError as exc:
            print(f"backends.py: {exc}", file=sys.stderr)
            sys.exit(2)
    if args.json:
        print(json.dumps({"games": args.games, "rounds": args.rounds, "seed": args.seed,
                          "files": rows}))
        return
    print(f"{'file':26} {'python dec/s':>13} {'native dec/s':>13} {'native/python':>14} "
          f"{'first load ms':>14} {'cached load ms':>15}")
    for row in rows:
        print(f"{row['file']:26} {fmt(row['python_median']):>13} "
              f"{fmt(row['native_median']):>13} {fmt(row['ratio_median'], '.2f'):>14} "
              f"{fmt(row['first_load_ms'], ',.1f'):>14} {fmt(row['cached_load_ms'], ',.1f'):>15}")


if __name__ == "__main__":
    main()
