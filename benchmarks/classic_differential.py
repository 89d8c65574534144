"""The classic games of games/classic/ against OpenSpiel: the differential test at scale,
and random-play speed side by side.

    .venv/bin/python benchmarks/classic_differential.py [--games 1000 | --suite] [--seed 0]
        [--speed-games 50] [--rounds 3] [GAME ...]

For each classic game (all, or those named by file stem: `checkers othello`) it plays
`--games` differential games (`--suite`: as many as the suite plays of that game, times
`GDL_CLASSIC_SCALE`) from seeds `--seed`, `--seed + 1`, ... (tests/games/classic/
differential.py: the player to move, the legal actions as meanings and the terminal status
compared at every decision, the returns at the end) and prints the lines of gdl, the games,
the decisions compared and the disagreements (the first one is printed in full). Then it
times random play on each engine in the same Python loop (list the legal actions, draw one,
apply it), `--rounds` times alternately gdl then OpenSpiel, `--speed-games` games a round,
and prints the decisions/s of each (total decisions over total seconds of the loop) and
their ratio. Exits 1 when any game disagrees. Needs pyspiel (a test dependency).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.games.classic.differential import (  # noqa: E402
    CLASSIC, Pairing, games_in_suite, play)


def pairings() -> dict[str, Pairing]:
    """Every Pairing declared by a test module of tests/games/classic/, by rule-file stem."""
    found = {}
    for path in sorted((ROOT / "tests" / "games" / "classic").glob("test_*.py")):
        module = importlib.import_module(f"tests.games.classic.{path.stem}")
        for value in vars(module).values():
            if isinstance(value, Pairing):
                found[Path(value.rules).stem] = value
    return found


def gdl_lines(rules: str) -> int:
    return sum(1 for line in (CLASSIC / rules).read_text().splitlines()
               if line.strip() and not line.strip().startswith("#"))


def gdl_playouts(game, games: int, seed: int) -> int:
    decisions = 0
    for i in range(games):
        rng = random.Random(seed + i)
        state = game.new_state(seed + i)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.randrange(len(legal))], check=False)
            decisions += 1
    return decisions


def spiel_playouts(spiel_game, games: int, seed: int) -> int:
    decisions = 0
    for i in range(games):
        rng = random.Random(seed + i)
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def speed(pairing: Pairing, games: int, rounds: int, seed: int) -> tuple[float, float]:
    game, spiel_game = pairing.load()
    totals = {"gdl": [0, 0.0], "spiel": [0, 0.0]}
    for _ in range(rounds):
        for side, run in (("gdl", lambda: gdl_playouts(game, games, seed)),
                          ("spiel", lambda: spiel_playouts(spiel_game, games, seed))):
            start = time.perf_counter()
            totals[side][0] += run()
            totals[side][1] += time.perf_counter() - start
    return (totals["gdl"][0] / totals["gdl"][1], totals["spiel"][0] / totals["spiel"][1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--suite", action="store_true",
                        help="play as many games of each as the suite does (not --games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    known = pairings()
    unknown = [name for name in args.names if name not in known]
    if unknown:
        print(f"unknown game(s): {', '.join(unknown)}; known: {', '.join(known)}",
              file=sys.stderr)
        return 2
    failed = False
    print(f"{'game':<16} {'lines':>5} {'games':>6} {'decisions':>10} {'disagree':>8} "
          f"{'gdl dec/s':>10} {'spiel dec/s':>11} {'ratio':>6}")
    for name in args.names or list(known):
        pairing = known[name]
        loaded = pairing.load()
        games = games_in_suite(pairing) if args.suite else args.games
        decisions, disagreements, first = 0, 0, None
        for seed in range(args.seed, args.seed + games):
            outcome = play(pairing, seed, loaded)
            decisions += outcome.decisions
            if outcome.disagreement is not None:
                disagreements += 1
                first = first or f"seed {seed}: {outcome.disagreement}"
        ours, theirs = (speed(pairing, args.speed_games, args.rounds, args.seed)
                        if args.speed_games > 0 else (0.0, 0.0))
        print(f"{name:<16} {gdl_lines(pairing.rules):>5} {games:>6} {decisions:>10} "
              f"{disagreements:>8} {ours:>10.0f} {theirs:>11.0f} "
              f"{(ours / theirs if theirs else 0):>6.3f}", flush=True)
        if first:
            print(f"  first disagreement, {first}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
