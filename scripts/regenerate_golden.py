"""Regenerate the golden files under tests/golden/ on purpose (after a deliberate rule or
drawing change): the transcripts, then the pictures drawn from them (tests/golden/svg/).
Usage: python scripts/regenerate_golden.py [--pictures]   (run from the repository root;
--pictures: only the pictures, after a change of drawing)."""

import os
import sys

from gdl.interpreter.loader import load_game
from gdl.interpreter.play.agents.agents import make_agents
from gdl.interpreter.play.render.pictures import picture
from gdl.interpreter.play.playing import viewer_of
from gdl.interpreter.play.render.replay_page import state_after
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

# (golden transcript, decisions played, seat or None): each becomes
# tests/golden/svg/<transcript>_step<decisions>[_<seat>].svg, the position drawn as that seat
# sees it (None: everything). One per shipped game, and so per kind of board: square, hex
# (with hidden pieces), square with holes, table (with zones), square with owned cells.
# scripts/regenerate_screenshots.py shows each in Chromium for docs/look_<game>.png.
PICTURES = [
    ("space_war_seed1.txt", 30, None),
    ("galaxy_of_d_seed1.txt", 150, "one"),
    ("galaxy_grid_seed1.txt", 100, None),
    ("galaxy_aflame_seed1.txt", 150, None),
    ("game_seed82.txt", 150, None),
]


def golden_picture(transcript, steps, seat):
    """(the golden file's path, the SVG it must hold)."""
    game, state = state_after(os.path.join(GOLDEN, transcript), steps)
    name = f"{transcript[:-4]}_step{steps}{'_' + seat if seat else ''}.svg"
    return (os.path.join(GOLDEN, "svg", name),
            picture(game, game.view(state, viewer_of(game, seat))))


def main():
    pictures_only = sys.argv[1:] == ["--pictures"]
    for rules, seed, players in [] if pictures_only else CASES:
        path = os.path.join(ROOT, rules)
        game = load_game(path)
        agents = make_agents(players, len(game.seats), seed)
        name = os.path.splitext(os.path.basename(rules))[0]
        out = os.path.join(GOLDEN, f"{name}_seed{seed}.txt")
        record(game, path, seed, agents, [a.name for a in agents], out)
        print(f"wrote {os.path.relpath(out, ROOT)}")
    os.makedirs(os.path.join(GOLDEN, "svg"), exist_ok=True)
    for case in PICTURES:
        out, svg = golden_picture(*case)
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(svg)
        print(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
