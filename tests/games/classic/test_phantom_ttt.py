"""games/classic/phantom_ttt.gdl against OpenSpiel's phantom_ttt (its defaults: gameversion
classical, obstype reveal-nothing).

OpenSpiel writes a try `x(r,c)`, row r counted from the top; gdl `mark CELL`, row 1 at the
bottom. Meaning: the gdl cell (OpenSpiel's row r is gdl's row 3 - r). A try of a cell the
other holds is a decision of its own on both sides (the seat goes again).

Each seat's view is compared with OpenSpiel's information state (`x..\\n...\\n.o.\\n0,3 0,7 `:
the board as the player knows it, then its own tries as `player,cell`), in the form
`board x../.../.o. tried a2 b1 found ...`: the cells as the seat sees them (its marks and
those of the other's it ran into, an identified mark of the other written `!`), the texts
of the decisions it read (its own tries; the other's tries are secret, so it reads none),
its own `found` and the other's (which must read `?`), and any other piece entry (none).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel
import pytest

from gdl.interpreter import load_source
from gdl.interpreter.runtime.view import HIDDEN, View

from .differential import CLASSIC, Pairing, check, games_in_suite, play

CELLS = [f"{column}{row}" for row in (3, 2, 1) for column in "abc"]    # OpenSpiel's order


def spiel_cell(text: str) -> str:
    row, column = map(int, re.fullmatch(r"[xo]\((\d),(\d)\)", text).groups())
    return "abc"[column] + str(3 - row)


def gdl_information(view: View, read: list[str]) -> str:
    seat = view["seat"]
    marks = dict.fromkeys(CELLS, ".")
    extra = []
    for piece in view["pieces"]:
        known = piece["owner"] == seat or piece["label"] == HIDDEN
        if piece["cell"] in marks and marks[piece["cell"]] == ".":
            marks[piece["cell"]] = piece["owner"] if known else "!"
        else:
            extra.append(str(piece))
    own, = (s["vars"]["found"] for s in view["seats"] if s["name"] == seat)
    other, = (s["vars"]["found"] for s in view["seats"] if s["name"] != seat)
    board = "/".join("".join(marks[c] for c in CELLS[r:r + 3]) for r in (0, 3, 6))
    return (f"board {board} tried {' '.join(read)} found {own} other's found {other} "
            f"globals {view['globals']} more {extra}")


def spiel_information(text: str) -> str:
    *rows, tries = text.split("\n")
    player = "xo"[int(tries.split(",")[0])] if tries else None
    tried = [CELLS[int(t.split(",")[1])] for t in tries.split()]
    board = "/".join(rows)
    found = [c for c, mark in zip(CELLS, "".join(rows)) if mark not in (".", player)]
    if player is None:      # no try yet: it has found nothing
        found = []
    ordered = [c for c in tried if c in found]      # in the order it ran into them
    return (f"board {board} tried {' '.join(tried)} found [{', '.join(ordered)}] "
            f"other's found ? globals {{}} more []")


PHANTOM_TTT = Pairing("phantom_ttt.gdl", "phantom_ttt",
                      {"gameversion": "classical", "obstype": "reveal-nothing"},
                      gdl_meaning=lambda text: text.removeprefix("mark "),
                      spiel_meaning=spiel_cell,
                      gdl_information=gdl_information, spiel_information=spiel_information)


def test_phantom_ttt_agrees_with_openspiel() -> None:
    assert check(PHANTOM_TTT, games_in_suite(PHANTOM_TTT)) > 0


@pytest.mark.parametrize("old, new", [
    ("visible to viewer == owner or it.cell in viewer.found ", ""),    # marks in sight
    ("hide piece(p) when p.owner != viewer", ""),       # a found mark's label shows
    ("phase play secret", "phase play turn"),           # the other's tries are read
], ids=["sight", "label", "tries"])
def test_a_seat_that_sees_more_than_openspiel_says_is_caught(old, new: str) -> None:
    text = (CLASSIC / "phantom_ttt.gdl").read_text()
    assert old in text
    wrong = (load_source(text.replace(old, new), "phantom_ttt.gdl"),
             pyspiel.load_game("phantom_ttt"))
    found = [play(PHANTOM_TTT, seed, wrong).disagreement for seed in range(20)]
    assert any(f is not None and "OpenSpiel's information state holds" in f for f in found)


def test_the_openspiel_bridge_does_not_tell_how_many_tries_the_other_made() -> None:
    from gdl.interpreter.bridges import openspiel as bridge

    game = bridge.load(str(CLASSIC / "phantom_ttt.gdl"))

    def after(*moves: str) -> Any:
        state = game.new_initial_state()
        for move in moves:
            player = state.current_player()
            state.apply_action(next(a for a in state.legal_actions()
                                    if state.action_to_string(player, a) == move))
        return state

    start = ("mark a1", "mark b1", "mark b2")
    once, thrice = after(*start, "mark c3"), after(*start, "mark a1", "mark b2", "mark c3")
    assert thrice.information_state_string(1) != once.information_state_string(1)
    assert thrice.information_state_string(0) == once.information_state_string(0)
