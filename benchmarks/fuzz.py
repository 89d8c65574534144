"""Fuzzing the shipped rule files, the long run: mutants of each game through the checker and
a short random game, each under a time and memory watchdog.

    .venv/bin/python benchmarks/fuzz.py [--mutants 2000] [--first 0] [--seconds 10]
                                        [--memory-mb 2048] [--workers N] [--json]

Each mutant is one random change of one shipped rule file (a token or a line deleted,
repeated or swapped, a number changed), drawn from its seed alone, so `--first S --mutants 1`
runs mutant S again. A mutant must be refused with a GdlError (by the checker or while it
runs) or play a clean game within 100 turns and 400 decisions. Anything else is a failure:
another exception, more than `--seconds`, or more than `--memory-mb` of memory (the worker's
address space is limited, so a runaway value shows as MemoryError instead of taking the
machine). The script prints the counts per outcome and each failure with its seed; it exits
1 when any mutant failed. The suite runs it with a small `--mutants` (tests/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_TURNS, MAX_DECISIONS = 100, 400
TOKEN = re.compile(r'"[^"\n]*"|@[A-Za-z]+[0-9]+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|'
                   r'\+=|-=|\S')
NUMBERS = ["0", "1", "2", "7", "100", "1000000", "1000000000000"]
OPERATIONS = ["delete token", "repeat token", "swap tokens", "delete line", "repeat line",
              "swap lines"]


def games() -> list[str]:
    return sorted(glob.glob(str(ROOT / "games" / "*.gdl")))


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random change of `text`, and its description."""
    lines = text.split("\n")
    numbers = list(re.finditer(r"\b[0-9]+\b", text))
    op = rng.choice(OPERATIONS + ["change number"] * bool(numbers))
    if op.endswith("token") or op.endswith("tokens"):
        tokens = [m.span() for m in TOKEN.finditer(text)]
        i = rng.randrange(len(tokens) - 1)
        (s, e), (s2, e2) = tokens[i], tokens[i + 1]
        if op == "delete token":
            return text[:s] + text[e:], f"{op} {text[s:e]!r} at {s}"
        if op == "repeat token":
            return text[:e] + " " + text[s:e] + text[e:], f"{op} {text[s:e]!r} at {s}"
        return (text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:],
                f"{op} {text[s:e]!r} {text[s2:e2]!r} at {s}")
    if op == "change number":
        m = rng.choice(numbers)
        new = rng.choice(NUMBERS)
        return text[:m.start()] + new + text[m.end():], f"{op} {m.group()} at {m.start()} to {new}"
    i = rng.randrange(len(lines))
    if op == "delete line":
        del lines[i]
    elif op == "repeat line":
        lines.insert(i, lines[i])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        op += f" {j + 1} and"
    return "\n".join(lines), f"{op} {i + 1}"


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang()


_SETTINGS: dict[str, int] = {}


def _start_worker(seconds: int, memory_mb: int) -> None:
    os.environ["GDL_NO_CACHE"] = "1"        # mutants would only fill the parse cache
    _SETTINGS.update(seconds=seconds)
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    signal.signal(signal.SIGALRM, _alarm)


def run_mutant(seed: int) -> dict[str, object]:
    """Mutant `seed`: its file, change, outcome (refused, finished, capped, or a failure:
    hang, or the exception's name) and seconds."""
    from gdl.interpreter import load_source
    from gdl.interpreter.language.errors import GdlError
    from gdl.interpreter.play.agents.agents import RandomAgent
    from gdl.interpreter.play.playing import run_game

    rng = random.Random(seed)
    path = rng.choice(games())
    with open(path, encoding="utf-8") as stream:
        text, change = mutate(stream.read(), rng)
    started = time.perf_counter()
    signal.alarm(_SETTINGS["seconds"])
    detail = ""
    try:
        game = load_source(text, path)
        state = game.new_state(seed)
        agents = [RandomAgent(seed * 7 + s) for s in range(len(game.seats))]
        outcome, _ = run_game(game, state,
                              lambda seat, legal: agents[seat].choose(game, state, legal),
                              max_turns=MAX_TURNS, max_decisions=MAX_DECISIONS)
    except GdlError:
        outcome = "refused"
    except Hang:
        outcome = "hang"
    except BaseException as exc:     # noqa: BLE001 - the point: nothing but GdlError
        outcome, detail = type(exc).__name__, str(exc)[:300]
    finally:
        signal.alarm(0)
    return {"seed": seed, "file": os.path.relpath(path, ROOT), "change": change,
            "outcome": outcome, "detail": detail,
            "seconds": round(time.perf_counter() - started, 3)}


GOOD = {"refused", "finished", "capped"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="the first mutant's seed")
    parser.add_argument("--seconds", type=int, default=10, help="a mutant's time limit")
    parser.add_argument("--memory-mb", type=int, default=2048,
                        help="a worker's address-space limit")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    if args.mutants < 1 or args.seconds < 1 or args.workers < 1 or args.memory_mb < 256:
        print("error: --mutants, --seconds and --workers must be 1 or more, --memory-mb "
              "256 or more", file=sys.stderr)
        return 2
    seeds = range(args.first, args.first + args.mutants)
    started = time.perf_counter()
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with context.Pool(args.workers, _start_worker, (args.seconds, args.memory_mb),
                      maxtasksperchild=200) as pool:
        results = list(pool.imap(run_mutant, seeds, chunksize=4))
    seconds = time.perf_counter() - started
    counts = Counter(str(r["outcome"]) for r in results)
    failures = [r for r in results if r["outcome"] not in GOOD]
    slowest = max(results, key=lambda r: float(str(r["seconds"])))
    if args.json:
        print(json.dumps({"mutants": len(results), "first": args.first,
                          "counts": dict(sorted(counts.items())), "failures": failures,
                          "seconds": round(seconds, 1), "slowest": slowest,
                          "workers": args.workers}))
    else:
        print(f"{len(results)} mutants (seeds {args.first}-{args.first + args.mutants - 1}) in "
              f"{seconds:.1f} s with {args.workers} worker(s): "
              + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())))
        print(f"slowest: mutant {slowest['seed']} of {slowest['file']} "
              f"({slowest['seconds']} s, {slowest['outcome']})")
        for r in failures:
            print(f"FAILED mutant {r['seed']} of {r['file']} ({r['change']}): {r['outcome']} "
                  f"{r['detail']}\n  again: python benchmarks/fuzz.py --first {r['seed']} "
                  "--mutants 1")
        if not failures:
            print("failures: 0")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
