"""Many games for balance: seeds, caps and a summary; and the benchmark figures.

`simulate(game, games, seed, spec, max_turns)` plays `games` games (game i uses seed
`seed + i`) and returns a summary dict: games, finished, capped, wins per seat, win_share
per seat (share of finished games with its 95% interval), draws, mean_decisions,
mean_turns, min_turns, max_turns_played, decisions, seconds, games_per_second,
decisions_per_second.
"""

from __future__ import annotations

import time

from .agents import make_agents
from .errors import GdlDataError
from .loader import load_game
from .playing import run_game

DEFAULT_MAX_TURNS = 1000


def play_one(game, seed, spec, max_turns):
    """One game with agents built from `spec`; returns (state, finished?)."""
    state = game.new_state(seed)
    agents = make_agents(spec, len(game.seats), seed)
    if "human" in agents:
        raise GdlDataError("simulate plays without humans: use random players")
    status, _ = run_game(game, state,
                         lambda seat, legal: agents[seat].choose(game, state, legal),
                         max_turns=max_turns)
    return state, status == "finished"


def simulate(game, games, seed=0, spec="random", max_turns=DEFAULT_MAX_TURNS, progress=None):
    wins = {name: 0 for name in game.seats}
    finished = capped = draws = decisions = 0
    turns = []
    started = time.perf_counter()
    for i in range(games):
        state, done = play_one(game, seed + i, spec, max_turns)
        decisions += state.decisions
        turns.append(state.turn)
        if not done:
            capped += 1
        else:
            finished += 1
            if state.result["draw"]:
                draws += 1
            for seat in state.result["winners"]:
                wins[game.seats[seat]] += 1
        if progress:
            progress(1)
    seconds = time.perf_counter() - started
    return {
        "game": game.name, "games": games, "finished": finished, "capped": capped,
        "wins": wins, "draws": draws,
        "mean_decisions": round(decisions / games, 2) if games else 0,
        "mean_turns": round(sum(turns) / games, 2) if games else 0,
        "min_turns": min(turns, default=0), "max_turns_played": max(turns, default=0),
        "win_share": {name: wilson(n, finished) for name, n in wins.items()},
        "decisions": decisions, "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else 0,
        "decisions_per_second": round(decisions / seconds) if seconds else 0,
        "seed": seed, "max_turns": max_turns,
    }


def wilson(successes, trials, z=1.96):
    """A win share with its 95% Wilson interval: [share, low, high], 3 decimals."""
    if trials == 0:
        return [0.0, 0.0, 0.0]
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * ((p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5) / denominator
    return [round(p, 3), round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def benchmark(path, games=200, seed=1):
    """Load (parse + check + compile) milliseconds, best of 5, and random-play decisions per second."""
    best = None
    for _ in range(5):
        started = time.perf_counter()
        game = load_game(path)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    summary = simulate(game, games, seed)
    return {"file": path, "game": game.name, "parse_check_ms": round(best * 1000, 1),
            "games": games, "decisions": summary["decisions"],
            "decisions_per_second": summary["decisions_per_second"],
            "games_per_second": summary["games_per_second"]}
