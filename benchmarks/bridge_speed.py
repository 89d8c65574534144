"""The OpenSpiel bridge's cost: random playouts and OpenSpiel's own MCTSBot on a classic game
through `pyspiel.load_game("gdl", ...)`, against gdl's Python API on the same backend and
against OpenSpiel's C++ implementation of the game, in one process.

    .venv/bin/python benchmarks/bridge_speed.py [GAME] [--games 300] [--moves 10]
        [--simulations 300] [--rounds 3] [--backend native] [--json]

GAME is a rule-file stem of games/classic/ with an OpenSpiel twin (default connect_four).
Per round, each side in turn (one core):

- **random playouts**, `--games` games: `state.legal_actions()`, a uniform draw with
  `random.Random`, `state.apply_action(id)` until the end, through the bridge and on
  pyspiel's game; on gdl's API directly, `game.legal_actions(state)` and
  `game.apply(state, action, check=False)`. Decisions per second.
- **MCTSBot**: `open_spiel.python.algorithms.mcts.MCTSBot` (uct_c 1.4, `--simulations`,
  one random rollout per leaf, seeded) plays the first `--moves` moves of a game, through the
  bridge and on pyspiel's game. Milliseconds per move.

Printed: the median over the rounds of each figure. The bot's tree search is Python on both
sides, so the MCTS figure shows what the bridge and gdl add to OpenSpiel's own Python.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from classic_differential import pairings  # noqa: E402

from gdl.interpreter import load_game  # noqa: E402
from gdl.interpreter.bridges import openspiel as bridge  # noqa: E402
from tests.games.classic.differential import CLASSIC  # noqa: E402


def spiel_playouts(game, games: int) -> float:
    rng = random.Random(1)
    decisions, start = 0, time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def api_playouts(game, games: int) -> float:
    rng = random.Random(1)
    decisions, start = 0, time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.randrange(len(legal))], check=False)
            decisions += 1
    return decisions / (time.perf_counter() - start)


def mcts_ms(game, moves: int, simulations: int) -> float:
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 1.4, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state, made, start = game.new_initial_state(), 0, time.perf_counter()
    while not state.is_terminal() and made < moves:
        state.apply_action(bot.step(state))
        made += 1
    return (time.perf_counter() - start) / max(made, 1) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="connect_four")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backend", default="native", choices=("native", "python"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pairing = pairings().get(args.game)
    if pairing is None:
        print(f"no OpenSpiel twin for {args.game!r}: one of {', '.join(sorted(pairings()))}",
              file=sys.stderr)
        return 2
    rules = load_game(str(CLASSIC / pairing.rules), backend=args.backend)
    through = bridge.load(rules)
    spiel = pairing.load()[1]
    runs: dict[str, list[float]] = {name: [] for name in (
        "bridge_decisions_per_second", "api_decisions_per_second",
        "spiel_decisions_per_second", "bridge_mcts_ms_per_move", "spiel_mcts_ms_per_move")}
    for _ in range(args.rounds):
        runs["bridge_decisions_per_second"].append(spiel_playouts(through, args.games))
        runs["api_decisions_per_second"].append(api_playouts(rules, args.games))
        runs["spiel_decisions_per_second"].append(spiel_playouts(spiel, args.games))
        runs["bridge_mcts_ms_per_move"].append(mcts_ms(through, args.moves, args.simulations))
        runs["spiel_mcts_ms_per_move"].append(mcts_ms(spiel, args.moves, args.simulations))
    medians = {name: statistics.median(values) for name, values in runs.items()}
    if args.json:
        print(json.dumps({"game": args.game, "backend": args.backend, "runs": runs,
                          "medians": medians}, indent=1))
        return 0
    print(f"{args.game}, gdl {args.backend} backend, median of {args.rounds} rounds")
    print(f"  random playouts, decisions/s: bridge {medians['bridge_decisions_per_second']:,.0f}"
          f"  gdl API {medians['api_decisions_per_second']:,.0f}"
          f"  pyspiel {medians['spiel_decisions_per_second']:,.0f}")
    print(f"  MCTSBot ({args.simulations} simulations), ms/move: bridge "
          f"{medians['bridge_mcts_ms_per_move']:.1f}  pyspiel "
          f"{medians['spiel_mcts_ms_per_move']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
