"""Before/after: random-play speed of two revisions of gdl, interleaved in one run.

    python benchmarks/compare_revisions.py OLD_REV [NEW_REV] [--games 1000] [--pairs 3]
        [--seed 1] [--json] [files...]

OLD_REV (and NEW_REV, if given) is exported with `git archive` into a temporary folder; without
NEW_REV the "new" side is the working tree of this checkout, uncommitted changes included.
For each file (default: games/galaxy_of_d.gdl games/game.gdl games/space_war.gdl) it runs

    gdl simulate FILE --games N --seed S --json [--workers 1]

from each tree, old then new, --pairs times, and prints per file the median decisions/s of
each side and the speed-up: the median of the per-pair ratios new/old of decisions/s. Timing
is gdl's own in-process `seconds` (the loop over games), never process start-up.

- Each tree runs its own code: a small import shim (benchlib.tree_command) maps the package
  `gdl` onto the tree's folders as its pyproject's package-dir says, ahead of the installed
  editable gdl; lark, attrs and click come from the running Python (use the project venv).
- A relative FILE is taken inside each tree (each revision plays its own copy of the rule
  file, so a rules change shows as a difference in decisions); an absolute FILE is shared.
- `--workers 1` is passed only to a tree whose `gdl simulate --help` lists --workers.
- An argument ending in .gdl is a file; otherwise the second positional is NEW_REV.
- The temporary trees are removed at the end, also on error, Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import (REPO_ROOT, BenchError, decisions_per_second, fmt, median,  # noqa: E402
                      run_json, simulate_run, single_process_args, tree_command, tree_origin,
                      us_per_decision)

DEFAULT_FILES = ["games/galaxy_of_d.gdl", "games/game.gdl", "games/space_war.gdl"]


def git(repo, *args):
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"git {' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout.strip()


def resolve_commit(repo, rev):
    """The full commit id of rev, or "" if rev names no commit."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet",
                           f"{rev}^{{commit}}"], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def export_tree(repo, commit, parent):
    """`git archive COMMIT` unpacked into a new folder under parent; returns the folder."""
    target = Path(tempfile.mkdtemp(prefix=f"{commit[:10]}-", dir=parent))
    proc = subprocess.Popen(["git", "-C", str(repo), "archive", "--format=tar", commit],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with tarfile.open(fileobj=proc.stdout, mode="r|") as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(target, filter="data")
            else:
                archive.extractall(target)
    finally:
        proc.stdout.close()
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if proc.wait() != 0:
            raise BenchError(f"git archive {commit}: {err.strip()}")
    return target


class Tree:
    def __init__(self, label, path, rev, commit):
        self.label, self.path, self.rev, self.commit = label, Path(path), rev, commit
        origin = Path(tree_origin(self.path)).resolve()
        if not origin.is_relative_to(self.path.resolve()):
            raise BenchError(f"{label} tree {path}: gdl imported from {origin}, not the tree")
        self.origin = str(origin)
        self.extra = single_process_args(tree_command(self.path, []))

    def describe(self):
        return {"rev": self.rev, "commit": self.commit, "path": str(self.path),
                "code": self.origin, "extra_args": self.extra}


def simulate_args(path, games, seed, tree):
    return ["simulate", path, "--games", str(games), "--seed", str(seed), "--json", *tree.extra]


def one_run(tree, path, games, seed):
    argv = tree_command(tree.path, simulate_args(path, games, seed, tree))
    return simulate_run(run_json(argv, cwd=tree.path), argv)


def side(runs):
    return {"runs": runs,
            "decisions_per_second_median": median(decisions_per_second(r) for r in runs),
            "us_per_decision_median": median(us_per_decision(r) for r in runs)}


def compare(old, new, files, games, pairs, seed, progress):
    results = []
    for path in files:
        for tree in (old, new):
            if not (tree.path / path).is_file():
                raise BenchError(f"{path} does not exist in the {tree.label} tree ({tree.rev})")
        old_runs, new_runs, speedups = [], [], []
        for pair in range(1, pairs + 1):
            if progress:
                print(f"  {path}: pair {pair}/{pairs}", file=sys.stderr, flush=True)
            o = one_run(old, path, games, seed)
            n = one_run(new, path, games, seed)
            old_runs.append(o)
            new_runs.append(n)
            o_dps, n_dps = decisions_per_second(o), decisions_per_second(n)
            speedups.append(n_dps / o_dps if o_dps and n_dps else None)
        results.append({"file": path, "old": side(old_runs), "new": side(new_runs),
                        "speedups": speedups, "speedup_median": median(speedups),
                        "same_games": all(o["decisions"] == n["decisions"]
                                          for o, n in zip(old_runs, new_runs))})
    return results


def report(result):
    old, new = result["old"], result["new"]
    print(f"gdl simulate, {result['games']} games from seed {result['seed']}, "
          f"{result['pairs']} interleaved old/new pair(s) per file")
    for name, tree in (("old", old), ("new", new)):
        commit = f" ({tree['commit'][:10]})" if tree["commit"] else ""
        extra = " ".join(tree["extra_args"]) or "no --workers option"
        print(f"  {name}: {tree['rev']}{commit}; {extra}")
    print()
    print(f"  {'file':26} {'old dec/s':>10} {'new dec/s':>10} {'speed-up':>9} "
          f"{'old us/dec':>11} {'new us/dec':>11}  {'per pair':14}  decisions old/new")
    for row in result["files"]:
        o, n = row["old"], row["new"]
        decisions = (f"{o['runs'][0]['decisions']}/{n['runs'][0]['decisions']}"
                     + ("" if row["same_games"] else "  (games differ)"))
        per_pair = " ".join(fmt(x, ".2f") for x in row["speedups"])
        speedup = "n/a" if row["speedup_median"] is None else f"{row['speedup_median']:.2f}x"
        print(f"  {row['file']:26} {fmt(o['decisions_per_second_median']):>10} "
              f"{fmt(n['decisions_per_second_median']):>10} {speedup:>9} "
              f"{fmt(o['us_per_decision_median'], '.2f'):>11} "
              f"{fmt(n['us_per_decision_median'], '.2f'):>11}  {per_pair:14}  {decisions}")
    print()
    print("  decisions/s and us/decision: medians over the pairs; speed-up: median of the "
          "per-pair ratios new/old")


def split_positionals(parser, positionals):
    if not positionals:
        parser.error("OLD_REV is required")
    old_rev, rest = positionals[0], positionals[1:]
    new_rev = None
    if rest and not rest[0].endswith(".gdl"):
        new_rev, rest = rest[0], rest[1:]
    for item in rest:
        if not item.endswith(".gdl"):
            parser.error(f"not a .gdl file: {item!r} (only OLD_REV and NEW_REV may be revisions)")
    return old_rev, new_rev, rest or list(DEFAULT_FILES)


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s OLD_REV [NEW_REV] [--games N] [--pairs N] [--seed S] [--json] [files...]")
    parser.add_argument("positionals", nargs="+", metavar="OLD_REV [NEW_REV] [files...]",
                        help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=1000, help="games per run (1000)")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved old/new pairs (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every run (1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repo", default=str(REPO_ROOT),
                        help="checkout whose revisions and working tree are compared "
                             "(default: the one holding this script)")
    args = parser.parse_intermixed_args(argv)
    if args.pairs < 1 or args.games < 1:
        parser.error("--pairs and --games must be at least 1")
    old_rev, new_rev, files = split_positionals(parser, args.positionals)

    signal.signal(signal.SIGTERM, _terminate)
    scratch = None
    try:
        repo = Path(git(args.repo, "rev-parse", "--show-toplevel"))
        old_commit = resolve_commit(repo, old_rev) if old_rev else ""
        if not old_commit:
            raise BenchError(f"not a revision: {old_rev!r}")
        new_commit = ""
        if new_rev is not None:
            new_commit = resolve_commit(repo, new_rev)
            if not new_commit:
                raise BenchError(f"not a revision: {new_rev!r}")
        scratch = tempfile.mkdtemp(prefix="gdl-compare-")
        old = Tree("old", export_tree(repo, old_commit, scratch), old_rev, old_commit)
        if new_rev is None:
            dirty = git(repo, "status", "--porcelain", "--untracked-files=no")
            head = git(repo, "rev-parse", "HEAD")
            label = f"working tree at {head[:10]}" + (" with changes" if dirty else "")
            new = Tree("new", repo, label, "")
        else:
            new = Tree("new", export_tree(repo, new_commit, scratch), new_rev, new_commit)
        rows = compare(old, new, files, args.games, args.pairs, args.seed,
                       progress=not args.json and sys.stderr.isatty())
        result = {"games": args.games, "pairs": args.pairs, "seed": args.seed,
                  "old": old.describe(), "new": new.describe(), "files": rows}
    except BenchError as exc:
        print(f"compare_revisions: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("compare_revisions: interrupted", file=sys.stderr)
        return 130
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
