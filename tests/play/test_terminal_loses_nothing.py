"""`gdl play` keeps everything a person may know within reach: the history of every seat's
turns (as that seat may read them), kinds' statistics, actions' arguments by name in a
summary, the board's terrain on an 80x24 terminal, every mark in the key, player words for
the engine's bookkeeping."""

from gdl.cli.playthrough import chosen_line, kind_info, summary_lines
from gdl.interpreter import load_game
from gdl.interpreter.loader import load_source
from gdl.interpreter.play.render.narrate import event_lines
from gdl.interpreter.runtime.view import render

from tests.helpers import gdl
from tests.play.test_play_terminal import CLEAR, play_in_terminal

WORN = """game "Worn"
seats blue, red
board square(4, 3)
var piece.hp = 2
kinds (symbol, speed) {
  Scout = "S", 3
  Tank = "T", 1
}
show piece(p) = p.symbol + (if p.hp < 2 then "!" else "")
setup {
  create Tank for red at @c2
  create Scout for red at @d3
  create Tank for blue at @b2
  goto play for blue
}
phase play turn {
  action hurt(p in pieces()) { p.hp -= 1 }
  action pass() { goto play for next(me) }
}
"""


def test_history_shows_every_seat_turn_and_info_a_kind():
    result = gdl("play", "games/space_war.gdl", "--players", "human", "--seed", "3",
                 stdin="station c2\nhistory\ninfo Fighter\ninfo blue:Station#1\ninfo Dragon\n"
                       "quit\n")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    # red's setup decision, told before blue's first prompt, is in blue's history
    assert out.count("red: side north") == 2 and out.count("red: station f11") == 2
    assert "Fighter: symbol F, speed " in out and "Station: symbol S, " in out
    assert "no kind 'Dragon'" in out and "kinds: Station, Fighter" in out


def test_a_screen_tells_of_lines_it_has_no_room_for_and_history_shows_them():
    """Galaxy Grid with one human: the other seats' moves scroll off the screen, which says
    so; 'history' shows them all, as red may read them."""
    output, status = play_in_terminal(
        ["play", "games/galaxy_grid.gdl", "--players", "human", "--seed", "3"],
        ["1", "1", "1", "history", ""])
    assert status == 0 and "Traceback" not in output
    screens = output.split(CLEAR)
    assert "earlier lines: 'history' shows them)" in screens[-3]
    history = screens[-2]
    assert "(history: all " in history
    for seat in ("blue", "green", "yellow"):
        assert f"  auto: {seat} go" in history or f"{seat}: " in history


def test_an_80x24_terminal_shows_the_terrain_unscaled():
    output, status = play_in_terminal(
        ["play", "games/space_war.gdl", "--players", "human", "--seed", "3"], ["station c2"],
        rows=24, columns=80)
    assert status == 0
    screen = output.rsplit(CLEAR, 1)[-1]
    screen = screen[:screen.rfind("> ") + 2]
    lines = screen.split("\n")
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, screen
    assert "* stars, O holes" in screen and "each mark covers" not in screen
    assert sum(line.count("*") for line in lines[2:15]) >= 4      # the stars themselves
    assert "bS" in screen and "blue> " in screen


def test_board_is_drawn_as_wide_as_the_terminal():
    output, status = play_in_terminal(
        ["play", "games/galaxy_grid.gdl", "--players", "human", "--seed", "3"], ["board", ""],
        rows=24, columns=80)
    assert status == 0
    board = output.split(CLEAR)[-2]
    assert max(len(line) for line in board.split("\n")) <= 80, board


def test_a_summary_names_the_arguments_each_piece_takes():
    orders = [(i + 1, f"order blue:Infectors#{unit} {order}") for i, (unit, order) in
              enumerate((u, o) for u in (1, 2) for o in ("move_shoot", "run", "hold"))]
    assert summary_lines(orders[:3], 98) == ["order (3, 1-3): blue:Infectors#1 move_shoot/run/hold"]
    assert summary_lines(orders, 98) == [
        "order (6, 1-6): blue:Infectors#1, blue:Infectors#2: move_shoot/run/hold"]
    moves = [(1, "move Rook#1 a2"), (2, "move Rook#1 a3"), (3, "move Pawn#2 b3"), (4, "pass")]
    assert summary_lines(moves, 98) == ["move (3, 1-3): Rook#1 a2/a3, Pawn#2 b3", "4. pass"]
    many = [(i, f"move Rook#{i} a{i}") for i in range(1, 40)] + [(40, "move Rook#1 a9")]
    assert summary_lines(many, 60)[0].startswith("move (40, 1-40): Rook#1 x2, Rook#2, ")


def test_the_key_tells_a_mark_that_a_piece_shows_in_addition():
    game = load_source(WORN, "worn.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "hurt Tank#1"))
    drawing = render(game, game.view(state, 0))
    key = " ".join(line.strip() for line in drawing.split("\n") if line.startswith("  "))
    assert "S Scout, T Tank, T! Tank; ! hp < 2 (after a mark)" in key, drawing


def test_kind_info_reads_the_kinds_table():
    game = load_source(WORN, "worn.gdl")
    assert kind_info(game, "Scout") == ["Scout: symbol S, speed 3"]
    assert kind_info(game, "red:Tank#1") == ["Tank: symbol T, speed 1"]
    assert kind_info(game, "") == ["kinds: Scout, Tank (info KIND shows one's statistics)"]


def test_engine_bookkeeping_stays_off_the_screen():
    game = load_game("games/game.gdl")
    state = game.new_state(3, narrate=True)
    lines = event_lines(game, state.events, 0)
    assert not any(line.startswith(("shuffle ", "pick ")) for line in lines)
    view = {"chosen": {"red": "no", "blue": "yes", "green": "throw rock"}}
    assert chosen_line(view) == ("blue has chosen (in secret); green chose throw rock; "  # type: ignore[arg-type]
                                 "waiting for red")


def test_the_hint_example_is_words_a_player_can_type():
    from gdl.cli.playthrough import example
    assert example(["at a31", "at b31"]) == "e.g. at a31"
    assert example(["move Pawn#2 e5"]) == "e.g. Pawn#2 e5"
    assert example(["pass"]) == "e.g. pass"
    # a piece and a cell, wherever the cell stands (not the word between them)
    assert example(["place Destroyer across a1"], {"a1", "b1"}) == "e.g. Destroyer a1"
    assert example(["fire at b1", "move Pawn#2 e5"], {"b1", "e5"}) == "e.g. at b1"


def test_typing_another_seats_piece_says_whose_it_is():
    """A first word that is another seat's piece, which no action of the seat to play takes:
    the refusal says whose piece it is (not "move it", which no action could)."""
    import pytest
    from gdl.interpreter.language.errors import IllegalAction
    from tests.helpers import SPACE_WAR
    game = load_game(str(SPACE_WAR))
    state = game.new_state(0)
    for _ in range(4):                      # sides, then each seat's station
        game.apply(state, game.legal_actions(state)[0])
    refusals = []
    for word in ("Fighter#9", "Fighter#1"):
        with pytest.raises(IllegalAction) as refused:
            game.parse_action(state, word)
        refusals.append(str(refused.value))
    assert refusals[0].endswith("('Fighter#9' is red's piece, and no action blue may play "
                                "now takes it)")
    assert refusals[1].endswith("('Fighter#1' is a piece: the action's name comes first, "
                                "as in 'move Fighter#1 TO')")
