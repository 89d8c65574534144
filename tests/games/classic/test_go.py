"""games/classic/go.gdl against OpenSpiel's go with board_size 9 (komi 7.5, handicap 0, and
max_game_length left to OpenSpiel's default for the size: 2 x 9 x 9 = 162 moves).

OpenSpiel writes a move `B c3` (the colour, then the point: its column letters skip `i`,
a to h then j, rows from 1 at the bottom) or `B PASS`; gdl writes `place c3` on a board
whose ninth column is `i`, and `pass`. Meaning: the point in Go's letters, or `pass`.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite


def _gdl_meaning(text: str) -> str:
    if text == "pass":
        return "pass"
    point = text.removeprefix("place ")
    return point.replace("i", "j", 1) if point.startswith("i") else point


GO = Pairing("go.gdl", "go", {"board_size": 9},
             gdl_meaning=_gdl_meaning,
             spiel_meaning=lambda text: text.split(" ", 1)[1].lower())


def test_go_agrees_with_openspiel() -> None:
    assert check(GO, games_in_suite(GO)) > 0


def test_a_game_drawn_by_superko_agrees_with_openspiel() -> None:
    """Random play seldom repeats a position (1 game in 400 from seeds 0 to 399): seed 320
    ends at decision 156 with a placement that brings back an earlier position, drawn on
    both sides."""
    assert check(GO, 1, first_seed=320) == 156
