"""games/classic/einstein.gdl against OpenSpiel's einstein_wurfelt_nicht (it has no
parameters: 5x5, six cubes a seat).

OpenSpiel's cell (row, column) counts rows from the top, both from 0: gdl's cell is column
`a` + column, row 5 - row (black's corner a5, OpenSpiel's top left, as its drawing has it).
Its action is ((row * 5 + column) * 6 + direction) * 2 + capture, the cube's cell and a
direction (0 to 2 black's down-right, down, right; 3 to 5 white's up, up-left, left); its
text (`B3-diag*`) names the cube, not the cell, so the meaning is read from the action
itself, `move FROM TO` as gdl writes it (the capture follows from the position). Chance:
OpenSpiel sets out each seat's cubes with one chance node of 720 outcomes, permutation k of
1..6 in lexicographic order (its `UnrankPermutation`) over the seat's cells row by row; gdl
shuffles the list of cubes One..Six onto the same cells, so outcome k is forced into that
shuffle as the permutation itself (the places, from 1, of the shuffled items). Every later
chance node is a die roll, outcome k forced into gdl's next d6 as k + 1.
"""

from __future__ import annotations

import random
from math import factorial
from typing import Any

import pyspiel

from .differential import Pairing, check, games_in_suite

SIZE = 5
DIRECTIONS = [(1, 1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1)]  # OpenSpiel's (row, column)
BLACK_CELLS = ["a5", "b5", "c5", "a4", "b4", "a3"]
WHITE_CELLS = ["e3", "d2", "e2", "c1", "d1", "e1"]


def cell(row: int, column: int) -> str:
    """OpenSpiel's (row, column) as gdl names the cell."""
    return f"{chr(ord('a') + column)}{SIZE - row}"


def spiel_action_meaning(spiel_state: Any, player: int, action: int) -> str:
    """Action ((r * 5 + c) * 6 + d) * 2 + capture -> `move FROM TO`."""
    where, _capture = divmod(action, 2)
    where, direction = divmod(where, 6)
    row, column = divmod(where, SIZE)
    d_row, d_column = DIRECTIONS[direction]
    return f"move {cell(row, column)} {cell(row + d_row, column + d_column)}"


def permutation(k: int, n: int = 6) -> list[int]:
    """The k-th permutation of 1..n in lexicographic order (OpenSpiel's UnrankPermutation)."""
    left, order = list(range(1, n + 1)), []
    for i in range(n - 1, -1, -1):
        digit, k = divmod(k, factorial(i))
        order.append(left.pop(digit))
    return order


def chance(spiel_state: Any, outcome: int) -> tuple[Any, ...]:
    """The first two chance nodes set out the cubes (a shuffle), every later one rolls."""
    if spiel_state.move_number() < 2:
        return ("shuffle", permutation(outcome))
    return (6, outcome + 1)


EINSTEIN = Pairing("einstein.gdl", "einstein_wurfelt_nicht",
                   spiel_action_meaning=spiel_action_meaning, chance_die=chance)


def test_the_meaning_reads_openspiel_actions_as_gdl_writes_them() -> None:
    assert spiel_action_meaning(None, 0, 0) == "move a5 b4"         # (0, 0) down-right
    assert spiel_action_meaning(None, 0, ((0 * 5 + 2) * 6 + 1) * 2 + 1) == "move c5 c4"  # down
    assert spiel_action_meaning(None, 1, ((4 * 5 + 4) * 6 + 5) * 2 + 1) == "move e1 d1"  # left
    assert permutation(0) == [1, 2, 3, 4, 5, 6]
    assert permutation(1) == [1, 2, 3, 4, 6, 5]
    assert permutation(719) == [6, 5, 4, 3, 2, 1]


def _board(game: Any, state: Any) -> dict[str, str]:
    """gdl's cubes by cell, written as OpenSpiel draws them (`b3`)."""
    return {piece["cell"]: piece["owner"][0] + piece["mark"]
            for piece in game.view(state, None)["pieces"]}


def _spiel_board(spiel_state: Any) -> dict[str, str]:
    found = {}
    for row, line in enumerate(str(spiel_state).split()):
        for column in range(SIZE):
            mark = line[4 * column + 1:4 * column + 3]
            if mark != "__":
                found[cell(row, column)] = mark
    return found


def test_the_cubes_are_set_out_as_openspiel_sets_them_out() -> None:
    game, spiel_game = EINSTEIN.load()
    rng = random.Random(7)
    for black, white in [(0, 0), (719, 1), (1, 718)] + [
            (rng.randrange(720), rng.randrange(720)) for _ in range(20)]:
        spiel_state = spiel_game.new_initial_state()
        spiel_state.apply_action(black)
        spiel_state.apply_action(white)
        spiel_state.apply_action(2)                 # the first roll: a 3
        state = game.new_state(0, forced=[["shuffle", permutation(black)],
                                          ["shuffle", permutation(white)], [6, 3]])
        assert _board(game, state) == _spiel_board(spiel_state)
        assert not state.forced


def test_einstein_agrees_with_openspiel() -> None:
    assert check(EINSTEIN, games_in_suite(EINSTEIN)) > 0


def test_openspiel_is_what_this_file_reads() -> None:
    """The layout the meanings above assume: black's cubes in the top left corner."""
    spiel_state = pyspiel.load_game("einstein_wurfelt_nicht").new_initial_state()
    spiel_state.apply_action(0)
    assert sorted(_spiel_board(spiel_state)) == sorted(BLACK_CELLS)
    spiel_state.apply_action(0)
    assert sorted(_spiel_board(spiel_state)) == sorted(BLACK_CELLS + WHITE_CELLS)
    words = {"up": (-1, 0), "diag": (-1, -1), "left": (0, -1)}
    for roll in range(6):                           # OpenSpiel's text of each of white's moves
        rolled = spiel_state.clone()
        rolled.apply_action(roll)
        board = _spiel_board(rolled)
        for action in rolled.legal_actions():
            text = rolled.action_to_string(1, action)
            _, start, end = spiel_action_meaning(rolled, 1, action).split()
            assert text.startswith("W" + board[start][1] + "-")
            assert text.endswith("*") == (end in board)
            d_row, d_column = words[text[3:].rstrip("*")]
            assert end == f"{chr(ord(start[0]) + d_column)}{int(start[1:]) - d_row}"
