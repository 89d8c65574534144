"""The typed native engine against the Python backend on mutants of the rule files it plays.

    .venv/bin/python benchmarks/typed_fuzz.py [--mutants 40] [--first 0] [--games 20]
                                              [--file PATH ...]

Each mutant is one random change (benchmarks/fuzz.py's `mutate`, drawn from its seed alone)
of a rule file inside the typed subset (games/classic: those `typed.unsupported` passes;
`--file PATH`, repeated, mutates those files instead, e.g. the tests/rules files). A
mutant the checker refuses, or one that falls outside the subset, is counted and skipped.
The others are built typed (with -O0: the optimiser does not change what the code does)
and played from `--games` seeds under both engines, random choices, at most 400 decisions:
after every decision the legal actions, the state JSON and the result must be the same, and
a fault must have the same message and place on both. Each mutant runs in its own process,
so a crash of the compiled code (a signal) is reported as one, with the mutant's seed.
`--first S --mutants 1` runs mutant S again. Exit 1 when any mutant disagreed or crashed.
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from fuzz import mutate  # noqa: E402

LONGEST = 400


def inside() -> list[str]:
    """The classic games the typed engine plays."""
    from gdl.interpreter import load_game
    from gdl.interpreter.runtime import typed
    return [path for path in sorted(glob.glob(str(ROOT / "games" / "classic" / "*.gdl")))
            if typed.unsupported(load_game(path, "python")._program) is None]


def _play(game, seed):
    """Every decision's (legal actions, state JSON, result) of one random game, ending
    with the fault's text if one comes."""
    seen = []
    choose = random.Random(seed)
    try:
        state = game.new_state(seed)
        for _ in range(LONGEST):
            legal = game.legal_actions(state)
            seen.append((legal, state.clone().to_json(), game.is_terminal(state)))
            if not legal or game.is_terminal(state):
                break
            game.apply(state, legal[choose.randrange(len(legal))], check=False)
    except Exception as exc:        # a GdlError on both, or a bug: compared as text
        seen.append(f"{type(exc).__name__}: {exc}")
    return seen


def run_mutant(seed: int, files: list[str], games: int, folder: str) -> str:
    """'refused', 'outside', 'same' or 'DIFFERENT ...' for one mutant."""
    from gdl.interpreter import load_source
    from gdl.interpreter.language.errors import GdlError
    from gdl.interpreter.runtime import typed
    rng = random.Random(seed)
    path = rng.choice(files)
    text, change = mutate(Path(path).read_text(), rng)
    where = os.path.join(folder, os.path.basename(path))
    try:
        python = load_source(text, where, "python")
    except GdlError:
        return "refused"
    if typed.unsupported(python._program) is not None:
        return "outside"
    fast = load_source(text, where, "native")
    if fast._typed is None:
        return "DIFFERENT: inside the subset but not built typed"
    for game_seed in range(games):
        a, b = _play(python, game_seed), _play(fast, game_seed)
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            return (f"DIFFERENT: {os.path.basename(path)} ({change}), game seed {game_seed}, "
                    f"decision {at}: {str(a[at:at + 1])[:300]} | {str(b[at:at + 1])[:300]}")
    return "same"


def _worker(seed, files, games, folder, out):
    out.put(run_mutant(seed, files, games, folder))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=40)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--file", action="append", help="a rule file to mutate (repeatable)")
    args = parser.parse_args()
    os.environ.setdefault("GDL_NATIVE_CFLAGS", "-O0")
    files = [os.path.abspath(f) for f in args.file] if args.file else inside()
    counts: Counter[str] = Counter()
    failed = 0
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.first, args.first + args.mutants):
            out = context.Queue()
            process = context.Process(target=_worker, args=(seed, files, args.games, folder, out))
            process.start()
            process.join()
            if process.exitcode != 0:
                outcome = f"CRASHED with exit code {process.exitcode}"
            else:
                outcome = out.get()
            counts[outcome.split(":")[0]] += 1
            if outcome.startswith(("DIFFERENT", "CRASHED")):
                failed += 1
                print(f"mutant {seed}: {outcome}", flush=True)
    print(f"{args.mutants} mutants of {', '.join(os.path.basename(f) for f in files)}: "
          + ", ".join(f"{n} {what}" for what, n in sorted(counts.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
