"""Boards (docs/language.md 8: cells, square boards, hex boards): the board built-ins value by
value, lines, distance, neighbours, cell names."""

from __future__ import annotations

import pytest

from gdl.interpreter.language.boards import SquareBoard

from tests.helpers import act, cell_names, rule, values


def _probe(name, text):
    """Run one probe action; return (cells, number, flag) it stored."""
    game = rule(name)
    state = game.new_state(0)
    act(game, state, text)
    values = state.globals
    return cell_names(game, values["cells_out"]), values["number_out"], values["flag_out"]


SQUARE_CASES = [
    ("distance a1 e5", 4), ("distance a1 c4", 3), ("distance c3 c3", 0),
    ("neighbors c3", ["c4", "d4", "d3", "d2", "c2", "b2", "b3", "b4"]),
    ("neighbors a1", ["a2", "b2", "b1"]),
    ("orthogonal c3", ["c4", "d3", "c2", "b3"]),
    ("orthogonal a1", ["a2", "b1"]),
    ("line a1 e5", ["b2", "c3", "d4", "e5"]),
    ("line a1 c2", ["b2", "c2"]),
    ("line a1 e3", ["b2", "c2", "d3", "e3"]),
    ("line c3 c3", []),
    # rocks at c4 and d3: reach may end on a rock, sight stops before one
    ("reach c3 2", ["c4", "d4", "e5", "d3", "d2", "e1", "c2", "c1", "b2", "a1", "b3",
                    "a3", "b4", "a5"]),
    ("reach c3 0", []),
    ("reach a1 1", ["a2", "b2", "b1"]),
    ("sight c3 2", ["d4", "e5", "d2", "e1", "c2", "c1", "b2", "a1", "b3", "a3", "b4",
                    "a5"]),
    ("sight c2 3", ["c3", "d2", "e2", "d1", "c1", "b1", "b2", "a2", "b3", "a4"]),
    ("clear c3 c5", False), ("clear c3 e5", True), ("clear c3 d3", False),
    ("clear a1 e3", False), ("clear a1 e1", True),
]

HEX_CASES = [
    ("distance a1 e5", 6), ("distance a1 c4", 4), ("distance c3 d3", 1),
    ("distance c3 e3", 2),
    # c3 is in an even column: its side neighbours are in rows 2 and 3
    ("neighbors c3", ["c2", "d2", "d3", "c4", "b3", "b2"]),
    # d3 is in an odd column (half a cell lower): side neighbours in rows 3 and 4
    ("neighbors d3", ["d2", "e3", "e4", "d4", "c4", "c3"]),
    ("neighbors a1", ["b1", "a2"]),
    ("orthogonal c3", ["c2", "d2", "d3", "c4", "b3", "b2"]),
    ("line a1 e3", ["b1", "c2", "d2", "e3"]),
    ("line c3 c5", ["c4", "c5"]),
    ("line c3 c3", []),
    # rocks at c4 and d2
    ("reach c3 2", ["c2", "c1", "d2", "d3", "e4", "c4", "b3", "a4", "b2", "a2"]),
    ("sight c3 2", ["c2", "c1", "d3", "e4", "b3", "a4", "b2", "a2"]),
    ("clear c3 c5", False), ("clear c3 e4", True), ("clear a1 e3", False),
    ("clear c3 d2", False),
]


def _check_probe(name, text, expected):
    cells, number, flag = _probe(name, text)
    if isinstance(expected, bool):
        assert flag is expected
    elif isinstance(expected, int):
        assert number == expected
    else:
        assert cells == expected


@pytest.mark.parametrize("text, expected", SQUARE_CASES, ids=[c[0] for c in SQUARE_CASES])
def test_square_board_builtins(text, expected):
    _check_probe("square_board.gdl", text, expected)


@pytest.mark.parametrize("text, expected", HEX_CASES, ids=[c[0] for c in HEX_CASES])
def test_hex_board_builtins(text, expected):
    _check_probe("hex_board.gdl", text, expected)


@pytest.mark.parametrize("name", [
    "square_board.gdl",
    "hex_board.gdl",
])
def test_lines_step_between_neighbours(name):
    """Every line runs from one cell to the next through neighbours, `distance` steps."""
    game = rule(name)
    board = game.rules.board
    for a in board.all_cells:
        for b in board.all_cells:
            cells = board.line(a, b)
            assert len(cells) == board.distance(a, b)
            path = [a] + cells
            assert path[-1] == b
            for here, there in zip(path, path[1:]):
                assert there in board.neighbors(here)


@pytest.mark.parametrize("name", ["square_board.gdl", "hex_board.gdl"])
def test_distance_and_neighbours_agree(name):
    board = rule(name).rules.board
    for a in board.all_cells:
        assert sorted(board.neighbors(a)) == [b for b in board.all_cells
                                              if board.distance(a, b) == 1]
        assert all(board.distance(a, b) == board.distance(b, a) for b in board.all_cells)


@pytest.mark.parametrize("width, height", [(3, 3), (8, 12), (12, 8), (5, 1), (1, 7)])
def test_a_square_line_along_a_direction_is_the_interpolated_one(width, height):
    """`line` between two cells on one row, column or diagonal is counted out along the
    direction, without the interpolation: the same cells as the interpolation gives."""
    board = object.__new__(SquareBoard)
    board.width, board.height = width, height
    aligned = 0
    for a in range(width * height):
        for b in range(width * height):
            if a != b:
                assert board._line(a, b) == board._interpolated(a, b), (a, b)
                (ac, ar), (bc, br) = board.coords(a), board.coords(b)
                aligned += ac == bc or ar == br or abs(ac - bc) == abs(ar - br)
    assert aligned > 0


def test_hex_line_along_the_edge_stays_on_the_board():
    game = rule("hex_board.gdl")
    board = game.rules.board
    assert board.line(board.parse("b5"), board.parse("d5")) == [board.parse("c5"),
                                                               board.parse("d5")]


def test_square_line_of_sight_is_symmetric():
    assert _probe("square_board.gdl", "clear a1 e3") == _probe("square_board.gdl",
                                                                 "clear e3 a1")


def test_view_names_cells_in_a_list_variable():
    game = rule("hex_board.gdl")
    state = game.new_state(0)
    act(game, state, "line b5 e5")
    assert game.view(state, 0)["globals"]["cells_out"] == "[c5, d5, e5]"


def test_cell_names_parse_back():
    for name in ("square_board.gdl", "hex_board.gdl"):
        board = rule(name).rules.board
        assert board.names[:6] == ["a1", "b1", "c1", "d1", "e1", "a2"]
        assert [board.parse(n) for n in board.names] == list(board.all_cells)
        assert board.parse("C3") == board.parse("c3") == 12
        assert board.parse("f1") is None and board.parse("a6") is None


def test_negative_reach_is_empty():
    board = SquareBoard(8, 8)
    assert board.reach(board.parse("d4"), -2, []) == []
    assert board.sight(board.parse("d4"), -2, []) == []
