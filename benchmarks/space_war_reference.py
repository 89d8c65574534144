"""gdl's Space War against the hand-written reference, interleaved in one run.

    python benchmarks/space_war_reference.py [--pairs 5] [--games 200] [--seed 1] [--json]

Runs, as subprocesses printing JSON, the reference
    python3 ../shared/bench/space_war_ref.py --config ../shared/bench/space_war_gdl_board.json \
        --games N --seed S --json --max-turns 1000
and
    gdl simulate games/space_war.gdl --games N --seed S --json --max-turns 1000 [--workers 1]
alternately (ref, gdl, ref, gdl, ...) for --pairs pairs. Only each side's own in-process timing
is compared (`seconds` around the loop over games, and `decisions`), never process start-up;
`--workers 1` is passed when gdl's `simulate --help` lists it, so both sides use one process.
A decision point is one legal-action listing plus one apply, so us/decision = 1e6 * seconds /
decisions. Printed per side: median decisions/s and median us per decision point; and the
median over pairs of the ratio gdl/ref of us per decision point.

The reference lives outside the repository: `../shared/bench/` relative to the repository
root. `--bench-dir DIR` or the environment variable GDL_BENCH_DIR points elsewhere (the
folder holding space_war_ref.py and space_war_gdl_board.json). Missing: exit status 2.

gdl is the `gdl` console script next to sys.executable (else `python -m gdl.cli.main`); the
script warns when that installation runs another checkout's code. `--gdl-tree DIR` runs the
code of source tree DIR instead (e.g. `--gdl-tree .`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import (REPO_ROOT, BenchError, decisions_per_second, fmt,  # noqa: E402
                      installed_gdl_command, median, run_json, simulate_run,
                      single_process_args, tree_command, tree_origin, us_per_decision)

MAX_TURNS = 1000
GAME_FILE = "games/space_war.gdl"
REF_SCRIPT = "space_war_ref.py"
REF_BOARD = "space_war_gdl_board.json"


def bench_dir(option):
    if option:
        return Path(option), "--bench-dir"
    if os.environ.get("GDL_BENCH_DIR"):
        return Path(os.environ["GDL_BENCH_DIR"]), "GDL_BENCH_DIR"
    return REPO_ROOT.parent / "shared" / "bench", "default (../shared/bench beside the repository)"


def reference_command(directory, where, games, seed):
    script, board = directory / REF_SCRIPT, directory / REF_BOARD
    for path in (script, board):
        if not path.is_file():
            raise BenchError(f"the Space War reference is missing: {path} not found (bench folder "
                             f"from {where}); set --bench-dir or GDL_BENCH_DIR to the folder "
                             f"holding {REF_SCRIPT} and {REF_BOARD}")
    return [sys.executable, str(script), "--config", str(board), "--games", str(games),
            "--seed", str(seed), "--json", "--max-turns", str(MAX_TURNS)]


def gdl_command(gdl_tree, games, seed):
    """(argv, argv as shown, cwd, origin of the CLI code, warning or None)."""
    args = ["simulate", GAME_FILE, "--games", str(games), "--seed", str(seed), "--json",
            "--max-turns", str(MAX_TURNS)]
    if gdl_tree:
        tree = Path(gdl_tree).resolve()
        origin = tree_origin(tree)
        args += single_process_args(tree_command(tree, []))
        return (tree_command(tree, args), ["gdl"] + args, tree, origin, None)
    base = installed_gdl_command()
    args += single_process_args(base, cwd=REPO_ROOT)
    probe = subprocess.run([sys.executable, "-c",
                            "import gdl.cli.main as m; print(m.__file__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise BenchError("gdl is not importable from this Python (" + sys.executable +
                         "); run with the project's venv or pass --gdl-tree .\n" +
                         probe.stderr.strip())
    origin = probe.stdout.strip()
    warning = None
    if not Path(origin).resolve().is_relative_to(REPO_ROOT):
        warning = (f"warning: the installed gdl runs {origin}, not this checkout "
                   f"({REPO_ROOT}); pass --gdl-tree {REPO_ROOT} to measure this checkout")
    return base + args, base + args, REPO_ROOT, origin, warning


def side_summary(runs):
    return {
        "runs": runs,
        "decisions": [r["decisions"] for r in runs],
        "seconds": [r["seconds"] for r in runs],
        "decisions_per_second_median": median(decisions_per_second(r) for r in runs),
        "us_per_decision_median": median(us_per_decision(r) for r in runs),
    }


def measure(pairs, games, seed, directory, where, gdl_tree):
    ref_argv = reference_command(directory, where, games, seed)
    gdl_argv, gdl_shown, gdl_cwd, origin, warning = gdl_command(gdl_tree, games, seed)
    if warning:
        print(warning, file=sys.stderr)
    ref_runs, gdl_runs, ratios = [], [], []
    for _ in range(pairs):
        ref = run_json(ref_argv, cwd=REPO_ROOT)
        gdl = run_json(gdl_argv, cwd=gdl_cwd)
        ref_run = {"decisions": ref["decisions"], "seconds": ref["seconds"],
                   "games": ref["games"], "capped": ref["capped"]}
        gdl_run = simulate_run(gdl, gdl_argv)
        ref_runs.append(ref_run)
        gdl_runs.append(gdl_run)
        ref_us, gdl_us = us_per_decision(ref_run), us_per_decision(gdl_run)
        ratios.append(gdl_us / ref_us if ref_us and gdl_us else None)
    return {
        "pairs": pairs, "games": games, "seed": seed, "max_turns": MAX_TURNS,
        "reference": {"command": ref_argv, **side_summary(ref_runs)},
        "gdl": {"command": gdl_shown, "code": origin, **side_summary(gdl_runs)},
        "ratios": ratios,
        "ratio_median": median(ratios),
    }


def report(result):
    ref, gdl = result["reference"], result["gdl"]
    print(f"Space War: gdl against the hand-written reference, {result['pairs']} interleaved "
          f"pair(s), {result['games']} games from seed {result['seed']}, max {result['max_turns']} "
          f"turns")
    print("  reference: " + " ".join(ref["command"][1:]))
    print("  gdl:       " + " ".join(gdl["command"]) + f"   (code: {gdl['code']})")
    print()
    print(f"  {'pair':>4}  {'ref dec/s':>10}  {'gdl dec/s':>10}  {'ref us/dec':>10}  "
          f"{'gdl us/dec':>10}  {'gdl/ref':>7}")
    for i, (r, g, ratio) in enumerate(zip(ref["runs"], gdl["runs"], result["ratios"]), 1):
        print(f"  {i:>4}  {fmt(decisions_per_second(r)):>10}  {fmt(decisions_per_second(g)):>10}"
              f"  {fmt(us_per_decision(r), '.2f'):>10}  {fmt(us_per_decision(g), '.2f'):>10}"
              f"  {fmt(ratio, '.2f'):>7}")
    print()
    print(f"  {'side':9}  {'decisions/run':>13}  {'decisions/s (median)':>20}  "
          f"{'us/decision point (median)':>26}")
    for name, side in (("reference", ref), ("gdl", gdl)):
        decisions = sorted(set(side["decisions"]))
        print(f"  {name:9}  {'/'.join(map(str, decisions)):>13}  "
              f"{fmt(side['decisions_per_second_median']):>20}  "
              f"{fmt(side['us_per_decision_median'], '.2f'):>26}")
    print()
    print(f"  gdl/ref, us per decision point: {fmt(result['ratio_median'], '.2f')} "
          f"(median of {result['pairs']} per-pair ratio(s))")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=5, help="interleaved ref/gdl pairs (5)")
    parser.add_argument("--games", type=int, default=200, help="games per run (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of both sides (1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--bench-dir", help="folder of space_war_ref.py and its board "
                        "(default: $GDL_BENCH_DIR, else ../shared/bench from the repo root)")
    parser.add_argument("--gdl-tree", help="run the gdl code of this source tree instead of "
                        "the installed gdl")
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.games < 1:
        parser.error("--pairs and --games must be at least 1")
    directory, where = bench_dir(args.bench_dir)
    try:
        result = measure(args.pairs, args.games, args.seed, directory, where, args.gdl_tree)
    except BenchError as exc:
        print(f"space_war_reference: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
