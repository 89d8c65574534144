"""games/classic/lines_of_action.gdl against OpenSpiel's lines_of_action (its default:
max_game_length 1000).

OpenSpiel writes a move by its two cells with `-` between them, or `x` when it lands on an
enemy checker (`b1-h1`, `c1xa3`), in the cell names gdl uses (its row 1 is black's lower
row); gdl writes `move b1 h1` and `move c1 a3` (the checker bound `by cell`; a capture is
no action of its own, since the position says whether the cell holds an enemy). Meaning:
gdl's text.
"""

from __future__ import annotations

import re

from .differential import Pairing, check, games_in_suite


def spiel_meaning(text: str) -> str:
    """`c1xa3` -> `move c1 a3`."""
    found = re.fullmatch(r"([a-h][1-8])[-x]([a-h][1-8])", text)
    assert found is not None, text
    return f"move {found.group(1)} {found.group(2)}"


LINES_OF_ACTION = Pairing("lines_of_action.gdl", "lines_of_action",
                          {"max_game_length": 1000}, spiel_meaning=spiel_meaning)


def test_the_meaning_reads_openspiel_moves_as_gdl_writes_them() -> None:
    assert spiel_meaning("b1-h1") == "move b1 h1"
    assert spiel_meaning("c1xa3") == "move c1 a3"


def test_lines_of_action_agrees_with_openspiel() -> None:
    assert check(LINES_OF_ACTION, games_in_suite(LINES_OF_ACTION)) > 0


def test_the_move_limit_is_openspiels_max_game_length() -> None:
    """Random play never reaches 1000 moves: the scenarios' 4-move variant against OpenSpiel
    with max_game_length 4, where every game ends drawn on the 4th move, as in both."""
    short = Pairing("../../tests/scenarios/classic/lines_of_action_longest_4.gdl",
                    "lines_of_action", {"max_game_length": 4}, spiel_meaning=spiel_meaning)
    assert check(short, 20) == 20 * 4
