"""CPU instructions per decision of random play, counted by valgrind: a measure that does
not move with the machine's load, for before/after comparisons on a busy machine.

    python benchmarks/instructions.py [--tree DIR ...] [--games 20 60] [--seed 1]
        [--backend python] [--reference] [--json] [files...]

For each file (default: games/space_war.gdl) and each source tree (default: this checkout;
`--tree` again for each further tree, e.g. a `git worktree` of an older revision) it runs

    valgrind --tool=callgrind gdl simulate FILE --games A --seed S --json --workers 1
    valgrind --tool=callgrind gdl simulate FILE --games B --seed S --json --workers 1

with the tree's code (benchlib.tree_command), after one run uncounted that fills the caches,
and prints (instructions of the second run -
instructions of the first) / (decisions of the second - decisions of the first): the games
from A to B alone, without start-up, loading or compiling. The same seed plays the same games
in both runs, so the difference is exactly games A+1..B. `--reference` counts the hand-written
Space War (../shared/bench, as space_war_reference.py finds it) the same way, and each tree's
ratio to it.

Instructions are not time: the same count can take longer when the data it reads is spread
over more memory (gdl's state of dicts against the reference's flat lists takes about 1.35x
the reference's time per instruction). Use this for before/after on one side; use the timed
scripts (space_war_reference.py, compare_revisions.py) for the figures of the README.
Needs valgrind (Debian: apt-get install valgrind); a run takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import REPO_ROOT, BenchError, fmt, show, tree_command  # noqa: E402

DEFAULT_FILES = ["games/space_war.gdl"]
REF_SCRIPT = "space_war_ref.py"
REF_BOARD = "space_war_gdl_board.json"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_ENV = {**os.environ, "PYTHONHASHSEED": "0"}    # str hashes (and so set orders) alike each run


def counted(argv, cwd):
    """(instructions, the JSON object argv printed) of one run under callgrind."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *argv], cwd=cwd, capture_output=True, text=True, env=_ENV)
    found = _COLLECTED.search(proc.stderr)
    if proc.returncode != 0 or found is None:
        raise BenchError(f"command failed under valgrind (exit {proc.returncode}): "
                         f"{show(argv)}\n{proc.stderr.strip()[-1500:]}")
    try:
        return int(found.group(1)), json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise BenchError(f"command printed no JSON object: {show(argv)}") from None


def per_decision(make_argv, games, cwd):
    """Instructions per decision of the games between the two counts of `games`. A first
    run, not counted, fills the caches (parse cache, compiled modules), so that both
    counted runs start alike."""
    subprocess.run(make_argv(games[0]), cwd=cwd, capture_output=True, env=_ENV)
    (low_i, low), (high_i, high) = (counted(make_argv(g), cwd) for g in games)
    played = high["decisions"] - low["decisions"]
    if played <= 0:
        raise BenchError(f"no decisions between {games[0]} and {games[1]} games")
    return {"instructions": (high_i - low_i) / played, "decisions": played}


def gdl_argv(tree, file, seed, backend):
    def make(games):
        return tree_command(tree, ["simulate", file, "--games", games, "--seed", seed,
                                   "--json", "--workers", 1, "--max-turns", 1000,
                                   "--backend", backend])
    return make


def reference_argv(directory, seed):
    script, board = directory / REF_SCRIPT, directory / REF_BOARD
    for path in (script, board):
        if not path.is_file():
            raise BenchError(f"the Space War reference is missing: {path} not found")

    def make(games):
        return [sys.executable, str(script), "--config", str(board), "--games", str(games),
                "--seed", str(seed), "--json", "--max-turns", "1000"]
    return make


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="rule files (default: games/space_war.gdl)")
    parser.add_argument("--tree", action="append", default=[],
                        help="a source tree to count (again for each; default: this checkout)")
    parser.add_argument("--games", type=int, nargs=2, default=[20, 60], metavar=("A", "B"),
                        help="the two game counts whose difference is counted (20 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=["python", "native"], default="python")
    parser.add_argument("--reference", action="store_true",
                        help="also count the hand-written Space War in ../shared/bench")
    parser.add_argument("--bench-dir", help="folder of space_war_ref.py (default "
                        "../shared/bench beside the repository)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 0 <= args.games[0] < args.games[1]:
        parser.error("--games A B needs 0 <= A < B")
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (Debian: apt-get install valgrind)",
              file=sys.stderr)
        return 2
    trees = [Path(t).resolve() for t in args.tree] or [REPO_ROOT]
    files = args.files or DEFAULT_FILES
    result = {"games": args.games, "seed": args.seed, "backend": args.backend, "files": {}}
    try:
        if args.reference:
            directory = Path(args.bench_dir) if args.bench_dir else \
                REPO_ROOT.parent / "shared" / "bench"
            result["reference"] = per_decision(reference_argv(directory, args.seed),
                                               args.games, REPO_ROOT)
        for file in files:
            result["files"][file] = {
                str(tree): per_decision(gdl_argv(tree, file, args.seed, args.backend),
                                        args.games, tree) for tree in trees}
    except BenchError as exc:
        print(f"instructions: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    print(f"instructions per decision, games {args.games[0] + 1}-{args.games[1]} from seed "
          f"{args.seed}, backend {args.backend} (valgrind callgrind)")
    ref = result.get("reference")
    if ref:
        print(f"  reference Space War: {fmt(ref['instructions'])} ({ref['decisions']} "
              f"decisions)")
    for file, by_tree in result["files"].items():
        first = None
        for tree, counts in by_tree.items():
            first = first or counts["instructions"]
            line = (f"  {file}  {tree}: {fmt(counts['instructions'])} ({counts['decisions']} "
                    f"decisions)  x{counts['instructions'] / first:.3f} of the first tree")
            if ref:
                line += f", x{counts['instructions'] / ref['instructions']:.2f} the reference"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
