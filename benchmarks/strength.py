"""How strong an agent is: it plays one seat against another agent in every other seat,
per rule file, over many games, its seat going round (game i: seat i mod seats, seed
seed + i); the win share with its 95% Wilson interval, draws, capped games, and the
time the agent took per decision (all its decisions, and those with a real choice).

    .venv/bin/python benchmarks/strength.py [--games 100] [--agent mcts:iterations=200:rollout=10]
        [--opponent random] [--seed 1] [--workers 2] [--max-turns 1000] [--json] [--progress]
        [files...]
    .venv/bin/python benchmarks/strength.py --timing 20 [--agent ...] [files...]

`--timing N` only times the agent's choice on N positions of one random game per file.

Default files: the five shipped games. The numbers are the same for a seed whatever the
number of workers, except the times. Not a timed test: tests/test_benchmarks.py checks only
the shape of the output.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/space_war.gdl", "games/galaxy_of_d.gdl", "games/game.gdl",
         "games/galaxy_grid.gdl", "games/galaxy_aflame.gdl"]

_loaded = {}


def play(task):
    """One game (path, seed, the agent's seat, agent spec, opponent spec, caps) -> record."""
    from gdl.interpreter import load_game
    from gdl.interpreter.play.agents.agents import make_agents
    from gdl.interpreter.play.playing import run_game
    path, seed, seat, agent, opponent, max_turns, max_decisions = task
    game = _loaded.get(path) or _loaded.setdefault(path, load_game(str(ROOT / path)))
    spec = ",".join(agent if s == seat else opponent for s in range(len(game.seats)))
    agents = make_agents(spec, len(game.seats), seed)
    state = game.new_state(seed)
    timing = {"decisions": 0, "seconds": 0.0, "choices": 0, "choice_seconds": 0.0}

    def choose(who, legal):
        if who != seat:
            return agents[who].choose(game, state, legal)
        started = time.perf_counter()
        action = agents[who].choose(game, state, legal)
        took = time.perf_counter() - started
        timing["decisions"] += 1
        timing["seconds"] += took
        if len(legal) > 1:
            timing["choices"] += 1
            timing["choice_seconds"] += took
        return action

    status, _ = run_game(game, state, choose, max_turns=max_turns, max_decisions=max_decisions)
    finished = status == "finished"
    return {"seed": seed, "seat": seat, "finished": finished,
            "won": finished and not state.result["draw"] and seat in state.result["winners"],
            "draw": finished and state.result["draw"], "decisions": state.decisions,
            **timing}


def _outcome(record):
    if not record["finished"]:
        return "capped"
    return "won" if record["won"] else "draw" if record["draw"] else "lost"


def _ms(seconds, count):
    return round(1000 * seconds / max(1, count), 1)


def measure(path, games, seed, agent, opponent, workers, max_turns, max_decisions,
            progress=False):
    from gdl.interpreter import load_game
    from gdl.interpreter.play.balance.simulate import wilson
    seats = len(load_game(str(ROOT / path)).seats)
    tasks = [(path, seed + i, i % seats, agent, opponent, max_turns, max_decisions)
             for i in range(games)]
    started = time.perf_counter()
    records = []
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(ProcessPoolExecutor(workers)) if workers > 1 else None
        for record in (pool.map(play, tasks) if pool else map(play, tasks)):
            records.append(record)
            if progress:
                print(f"{path} game {len(records)}/{games}: seed {record['seed']}, seat "
                      f"{record['seat']}, {_outcome(record)}, "
                      f"{_ms(record['choice_seconds'], record['choices'])} ms/choice",
                      file=sys.stderr, flush=True)
    wins = sum(r["won"] for r in records)
    decisions = sum(r["decisions"] for r in records)
    choices = sum(r["choices"] for r in records)
    return {
        "file": path, "seats": seats, "games": games, "agent": agent, "opponent": opponent,
        "wins": wins, "win_share": wilson(wins, games), "chance": round(1 / seats, 3),
        "draws": sum(r["draw"] for r in records),
        "capped": sum(not r["finished"] for r in records),
        "wins_by_seat": [sum(r["won"] for r in records if r["seat"] == s) for s in range(seats)],
        "games_by_seat": [sum(r["seat"] == s for r in records) for s in range(seats)],
        "mean_decisions": round(decisions / games, 1),
        "ms_per_decision": _ms(sum(r["seconds"] for r in records),
                               sum(r["decisions"] for r in records)),
        "ms_per_choice": _ms(sum(r["choice_seconds"] for r in records), choices),
        "seconds": round(time.perf_counter() - started, 1),
    }


def timing(path, agent, positions, seed):
    """CPU milliseconds per choice of `agent` on `positions` positions of one random game
    (a third of the decisions with two legal actions or more), without playing games."""
    import random
    from gdl.interpreter import load_game
    from gdl.interpreter.play.agents.agents import make_agents
    game = load_game(str(ROOT / path))
    state, rng, seconds, timed = game.new_state(seed), random.Random(seed), 0.0, 0
    while timed < positions and not game.is_terminal(state):
        legal = game.legal_actions(state)
        if len(legal) > 1 and rng.random() < 1 / 3:
            seat = game.current_player(state)
            chooser = make_agents(",".join(agent if s == seat else "random"
                                           for s in range(len(game.seats))), len(game.seats),
                                  seed)[seat]
            started = time.process_time()      # CPU time: the machine's load aside
            chooser.choose(game, state, legal)
            seconds += time.process_time() - started
            timed += 1
        game.apply(state, rng.choice(legal), check=False)
    return {"file": path, "agent": agent, "positions": timed,
            "cpu_ms_per_choice": _ms(seconds, timed)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=GAMES)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="mcts:iterations=200:rollout=10")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--max-decisions", type=int, default=100_000)
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr")
    parser.add_argument("--timing", type=int, metavar="N", help="only time the agent's "
                        "choice on N positions of a random game per file")
    args = parser.parse_args(argv)
    if args.timing:
        for path in args.files:
            print(json.dumps(timing(path, args.agent, args.timing, args.seed)), flush=True)
        return 0
    if not args.json:
        print(f"{args.agent} against {args.opponent}, {args.games} games per file from seed "
              f"{args.seed}, the agent's seat going round")
        print(f"{'file':26} {'wins':>5} {'share':>6} {'95% interval':>13} {'chance':>6} "
              f"{'draws':>5} {'capped':>6} {'ms/decision':>11} {'ms/choice':>9}")
    for path in args.files:
        row = measure(path, args.games, args.seed, args.agent, args.opponent, args.workers,
                      args.max_turns, args.max_decisions, args.progress)
        if args.json:
            print(json.dumps(row, sort_keys=True), flush=True)
            continue
        share, low, high = row["win_share"]
        print(f"{path:26} {row['wins']:>5} {100 * share:>5.1f}% {100 * low:>5.1f}-"
              f"{100 * high:>5.1f}% {100 * row['chance']:>5.0f}% {row['draws']:>5} "
              f"{row['capped']:>6} {row['ms_per_decision']:>11} {row['ms_per_choice']:>9}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
