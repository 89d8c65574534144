"""Regenerate the golden transcripts under tests/golden/ on purpose (after a deliberate rule
change). Usage: python scripts/regenerate_golden.py   (run from the repository root)."""

import os
import sys

from gdl.interpreter.loader import load_game
from gdl.interpreter.play.agents import make_agents
from gdl.interpreter.play.transcript import record

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")

# (rule file, seed, players): each becomes tests/golden/<game>_seed<seed>.txt
CASES = [
    ("games/space_war.gdl", 1, "random"),
    ("games/space_war.gdl", 2, "random"),
    ("games/space_war.gdl", 3, "random"),
    ("games/galaxy_of_d.gdl", 1, "random"),
    ("games/galaxy_of_d_quick.gdl", 1, "random"),
    ("games/game.gdl", 82, "random"),
    ("games/game.gdl", 164, "random"),
    ("games/galaxy_grid.gdl", 1, "random"),
    ("games/galaxy_grid_2.gdl", 1, "random"),
    ("games/galaxy_grid_3.gdl", 1, "random"),
    ("games/galaxy_aflame.gdl", 1, "random"),
    ("games/galaxy_aflame_iron.gdl", 2, "random"),
]


def main():
    for rules, seed, players in CASES:
        path = os.path.join(ROOT, rules)
        game = load_game(path)
        agents = make_agents(players, len(game.seats), seed)
        name = os.path.splitext(os.path.basename(rules))[0]
        out = os.path.join(GOLDEN, f"{name}_seed{seed}.txt")
        record(game, path, seed, agents, [a.name for a in agents], out)
        print(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
