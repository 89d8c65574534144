"""Search on each backend: mcts iterations per second, ms per mcts choice at the default
budget, the cost of cloning a state and its size in memory, per game.

    .venv/bin/python benchmarks/search.py [FILE ...] [--positions 6] [--rounds 3]
        [--seed 1] [--backends python,native] [--json]

For each rule file (default: the five shipped games and the five classic games of the
speed benchmark), `--positions` positions are taken from random games (seed `--seed`, the
k-th position after 2k+1 random decisions of game k, or the game's last decision point
when it ends sooner). Then, `--rounds` times and the backends taking turns within each round
(one process, one core):

- **mcts**: `MctsAgent(seed, seat)` with its default budget (100 iterations, rollouts of
  10) chooses at each position; ms per choice, and iterations per second (the agent may
  stop early once its choice is settled: the iterations it ran are counted);
- **clone**: `state.clone()` of each position, 200 times; us per clone;
- **bytes per state**: memory allocated by 200 clones of each position (tracemalloc),
  divided by 200 (measured once per backend, outside the timed runs).

It prints, per file and backend, the medians over the rounds; `--json` prints one object
(`positions`, `rounds`, `seed`, `rows`: per file and backend `mcts_ms_per_choice`,
`mcts_iterations_per_second`, `clone_us`, `bytes_per_state`). When the native backend
cannot be built here, the script says why and exits 2 (`--backends python` measures
without it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gdl.interpreter import load_game  # noqa: E402
from gdl.interpreter.play.agents.search import MctsAgent  # noqa: E402
from gdl.interpreter.runtime import native  # noqa: E402

GAMES = ("games/space_war.gdl", "games/game.gdl", "games/galaxy_of_d.gdl",
         "games/galaxy_grid.gdl", "games/galaxy_aflame.gdl",
         "games/classic/tic_tac_toe.gdl", "games/classic/connect_four.gdl",
         "games/classic/breakthrough.gdl", "games/classic/othello.gdl",
         "games/classic/checkers.gdl")
BACKENDS = ("python", "native")
CLONES = 200


class Unavailable(Exception):
    """A backend asked for cannot run here; the message says why."""


def load(path: str, backend: str):
    if backend == "native" and (reason := native.missing_tools()) is not None:
        raise Unavailable(f"the native backend cannot be built here: {reason}")
    told = io.StringIO()
    with contextlib.redirect_stderr(told):
        game = load_game(path, backend=backend)
    if "running on the Python backend" in told.getvalue():
        raise Unavailable(told.getvalue().strip())
    return game


def positions(game, count: int, seed: int) -> list:
    """Undecided positions of random games: the k-th after 2k+1 decisions of game k."""
    found = []
    for k in range(count):
        rng = random.Random(seed + k)
        state = game.new_state(seed + k)
        last = None
        for _ in range(2 * k + 1):
            if game.is_terminal(state):
                break
            last = state.clone()
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.randrange(len(legal))], check=False)
        found.append(state if not game.is_terminal(state) else last)
    return [s for s in found if s is not None]


class _Counting(MctsAgent):
    """The mcts agent, counting the iterations it runs."""

    ran = 0

    def _iterate(self, *args, **kwargs):
        _Counting.ran += 1
        return super()._iterate(*args, **kwargs)


def mcts_round(game, states: list, seed: int) -> tuple[float, float]:
    """(ms per choice, iterations per second) over `states`."""
    _Counting.ran = 0
    seconds = 0.0
    for i, state in enumerate(states):
        legal = game.legal_actions(state)
        agent = _Counting(seed + i, game.current_player(state))
        start = time.perf_counter()
        agent.choose(game, state.clone(), legal)
        seconds += time.perf_counter() - start
    return 1000 * seconds / len(states), _Counting.ran / seconds


def clone_round(states: list) -> float:
    start = time.perf_counter()
    for state in states:
        for _ in range(CLONES):
            state.clone()
    return 1e6 * (time.perf_counter() - start) / (CLONES * len(states))


def bytes_per_state(states: list) -> float:
    sizes = []
    for state in states:
        tracemalloc.start()
        kept = [state.clone() for _ in range(CLONES)]
        used, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        sizes.append(used / CLONES)
        del kept
    return statistics.median(sizes)


def measure(path: str, backends: list[str], count: int, rounds: int, seed: int) -> list[dict]:
    games = {b: load(path, b) for b in backends}
    states = {b: positions(games[b], count, seed) for b in backends}
    runs: dict[str, dict[str, list[float]]] = {b: {"ms": [], "its": [], "clone": []}
                                               for b in backends}
    for _ in range(rounds):
        for b in backends:
            ms, its = mcts_round(games[b], states[b], seed)
            runs[b]["ms"].append(ms)
            runs[b]["its"].append(its)
            runs[b]["clone"].append(clone_round(states[b]))
    return [{"file": path, "backend": b,
             "mcts_ms_per_choice": statistics.median(runs[b]["ms"]),
             "mcts_iterations_per_second": statistics.median(runs[b]["its"]),
             "clone_us": statistics.median(runs[b]["clone"]),
             "bytes_per_state": bytes_per_state(states[b])} for b in backends]


def table(rows: list[dict]) -> str:
    lines = [f"{'file':34} {'backend':8} {'mcts ms/choice':>15} {'mcts it/s':>10} "
             f"{'clone us':>9} {'bytes/state':>12}"]
    for r in rows:
        lines.append(f"{r['file']:34} {r['backend']:8} {r['mcts_ms_per_choice']:15.1f} "
                     f"{r['mcts_iterations_per_second']:10,.0f} {r['clone_us']:9.1f} "
                     f"{r['bytes_per_state']:12,.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", metavar="FILE", default=list(GAMES))
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    backends = args.backends.split(",")
    missing = [f for f in args.files if not (ROOT / f).is_file() and not Path(f).is_file()]
    wrong = [b for b in backends if b not in BACKENDS]
    if missing or wrong or args.positions < 1 or args.rounds < 1:
        print(f"search.py: no such file(s) {', '.join(missing) or '-'}, unknown backend(s) "
              f"{', '.join(wrong) or '-'} (known: {', '.join(BACKENDS)}), or "
              "--positions/--rounds below 1", file=sys.stderr)
        return 2
    rows: list[dict] = []
    try:
        for path in args.files:
            found = measure(path, backends, args.positions, args.rounds, args.seed)
            rows += found
            if not args.json:
                text = table(found)
                print(text if len(rows) == len(found) else "\n".join(text.splitlines()[1:]),
                      flush=True)
    except Unavailable as exc:
        print(f"search.py: {exc} (--backends python measures without it)", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"positions": args.positions, "rounds": args.rounds,
                          "seed": args.seed, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
