"""The look a rule file declares (docs/language.md 11.6): `show colour(s)`, `show badge(p)`,
`show cell(c)` and the `plural` built-in, on tests/rules/look.gdl: the checker's errors,
what the views carry, how the pictures and the text drawing show it."""

from __future__ import annotations

import pytest

from gdl.interpreter.language.builtins import plural
from gdl.interpreter.language.look import colour_of
from gdl.interpreter.play.render.pictures import picture
from gdl.interpreter.loader import load_game
from gdl.interpreter.runtime.view import render, title

from tests.helpers import GAMES, VALID, act, rule, rule_error, value


def _claimed():
    game = rule("look.gdl")
    state = game.new_state(0)
    act(game, state, "claim Flag#1")
    return game, state


# ----- the checker ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ('show colour(s) = "redd"',
     "bad.gdl:12:18: error: 'show colour' needs a colour: \"redd\" is none of red, blue, "
     "green, yellow, orange, purple, black, white, pink, brown, cyan, grey, teal, violet, "
     "gold, silver, crimson, navy or olive, '#rgb' or '#rrggbb'"),
    ('show colour(s) = if s == a then "red" else "#12345"',
     "bad.gdl:12:44: error: 'show colour' needs a colour: \"#12345\" is none of red, blue, "
     "green, yellow, orange, purple, black, white, pink, brown, cyan, grey, teal, violet, "
     "gold, silver, crimson, navy or olive, '#rgb' or '#rrggbb'"),
    ("show colour(s) = 3",
     "bad.gdl:12:18: error: type mismatch: 'show colour' needs text, but this is a number"),
    ("show cell(c) = \"red\"",
     "bad.gdl:12:16: error: type mismatch: 'show cell' needs a seat, but this is text"),
    ("show badge(p) = p.owner",
     "bad.gdl:12:17: error: type mismatch: 'show badge' needs text, but this is a seat"),
    ("show color(s) = \"red\"",
     "bad.gdl:12:1: error: 'show color' is unknown (write 'colour'); expected 'show piece(p) "
     "= ...', 'show status(p) = ...', 'show seat(s) = ...', 'show game(s) = ...', 'show "
     "row(r) = ...', 'show score(s) = ...', 'show colour(s) = ...', 'show badge(p) = ...' "
     "or 'show cell(c) = ...'"),
])
def test_a_look_that_is_wrong_is_a_message(line, expected):
    assert rule_error(VALID + line + "\n").splitlines()[0] == expected


def test_colours_are_words_or_hex():
    assert colour_of("Red") == "#d1372f"
    assert colour_of("#abc") == "#aabbcc"
    assert colour_of("#3A4F9C") == "#3a4f9c"
    assert colour_of("redd") is None and colour_of("#12345") is None


# ----- plurals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n, word, words, expected", [
    (1, "fighter", None, "1 fighter"), (2, "fighter", None, "2 fighters"),
    (0, "territory", None, "0 territories"), (1, "territory", None, "1 territory"),
    (3, "day", None, "3 days"), (2, "success", None, "2 successes"), (4, "box", None, "4 boxes"),
    (2, "match", None, "2 matches"), (3, "die", "dice", "3 dice"), (1, "die", "dice", "1 die"),
])
def test_plural_writes_the_word_for_that_many(n, word, words, expected):
    assert plural(n, word, words) == expected


def test_plural_in_a_rule_file():
    board = "board square(3, 3)"
    assert value(board, 'plural(1, "unit")') == "1 unit"
    assert value(board, 'plural(2, "unit")') == "2 units"
    assert value(board, 'plural(2, "die", "dice")') == "2 dice"


# ----- views, pictures, text --------------------------------------------------------------------

def test_the_view_carries_the_look():
    game, state = _claimed()
    view = game.view(state, 1)
    assert [s["colour"] for s in view["seats"]] == ["orange", "#3a4f9c"]
    assert [(p["label"], p.get("badge")) for p in view["pieces"]] == [
        ("Knight#1", "2"), ("Flag#1", ""), ("Knight#2", "3"), ("Knight#3", "3")]
    assert view["cells"] == {"b2": "north"}
    assert [s["status"] for s in view["seats"]] == ["1 knight, 1 territory",
                                                    "2 knights, 0 territories"]


def test_the_picture_paints_the_seats_colours_badges_and_owned_cells():
    game, state = _claimed()
    svg = picture(game, game.view(state, None))
    assert svg.count('fill="#ee7b1a"') == 3         # north's knight, swatch and cell b2
    assert svg.count('fill="#3a4f9c"') == 3         # south's two knights and the swatch
    assert '<rect class="own" x="-24" y="-24" width="48" height="48" fill="#ee7b1a" ' \
           'fill-opacity=".6"/>' in svg             # b2, north's
    assert '<g class="bd" ' in svg and '>2</text></g>' in svg    # Knight#1's badge
    assert 'font-weight="bold">♞</text>' in svg    # the key: the marks the board shows


def test_the_text_drawing_writes_badges_in_the_legend():
    game, state = _claimed()
    text = render(game, game.view(state, None))
    assert "  north: Knight#1 a1 [2]" in text
    assert "  south: Knight#2 d3 [3], #3 d3 [3]" in text
    assert "north: 1 knight, 1 territory" in text


# ----- the title --------------------------------------------------------------------------------

def test_a_game_without_turns_counts_its_moves_in_the_title():
    game = load_game(str(GAMES / "classic" / "goofspiel.gdl"))
    state = game.new_state(0)
    assert title(game.view(state, 0)).startswith("Goofspiel - move 1, one to play")
    act(game, state, "bid 3")
    assert title(game.view(state, 1)).startswith("Goofspiel - move 2, two to play")
    look = rule("look.gdl")         # a game with a turn phase still counts turns
    assert title(look.view(look.new_state(0), None)).startswith("Look - turn 1, north")


def test_a_secret_phase_keeps_the_count_of_moves_from_the_seats():
    game = load_game(str(GAMES / "classic" / "phantom_ttt.gdl"))
    state = game.new_state(0)
    assert title(game.view(state, 0)) == \
        "Phantom tic-tac-toe - x to play (phase play, x decides)"
    for text in ("mark a1", "mark a1"):     # o runs into x's mark and goes again
        act(game, state, text)
    assert title(game.view(state, 0)) == title(game.view(state, 1)) == \
        "Phantom tic-tac-toe - o to play (phase play, o decides)"
    assert title(game.view(state, None)).startswith("Phantom tic-tac-toe - move 3, o to play")
    for text in ("mark b1", "mark a2", "mark b2", "mark a3"):
        act(game, state, text)
    assert title(game.view(state, None)) == "Phantom tic-tac-toe - move 6, game over: x won"
    assert title(game.view(state, 1)) == "Phantom tic-tac-toe - game over: x won"


def test_an_empty_mark_draws_a_piece_by_its_seat_letter_alone():
    game = load_game(str(GAMES / "classic" / "tic_tac_toe.gdl"))
    state = game.new_state(0)
    for text in ("mark b2", "mark a1", "mark c3"):
        act(game, state, text)
    view = game.view(state, None)
    text = render(game, view)
    assert "  3  .  .  x\n  2  .  x  .\n  1  o  .  ." in text
    assert "key: x x, o o (a piece: its seat's letter, then its mark); o/x Mark" in text
    svg = picture(game, view)
    assert '>x<tspan class="nm" dy=".3em">1</tspan></text>' in svg
    assert '>o<tspan class="nm" dy=".3em">2</tspan></text>' in svg
    assert 'font-weight="bold">o/x</text>' in svg       # the key


# ----- the terminal's colours -------------------------------------------------------------------

def test_a_terminal_with_colours_fills_owned_cells_with_their_seat_colour():
    game, state = _claimed()
    view = game.view(state, None)
    plain = render(game, view)
    painted = render(game, view, colour=True)
    # b2 is north's: orange (#ee7b1a) at .6 over the board's ground, in black ink
    assert "  2   .  \x1b[48;2;241;172;111;38;2;17;17;17m  F  \x1b[0m  .    .\n" in painted
    assert painted.count("\x1b[0m") == 1
    assert "\x1b" not in plain and painted.replace(
        "\x1b[48;2;241;172;111;38;2;17;17;17m", "").replace("\x1b[0m", "") == plain


def test_colours_only_on_a_terminal_without_no_color(monkeypatch):
    from gdl.cli.playthrough import colour_terminal
    from tests.play.test_play_terminal import play_in_terminal
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert colour_terminal()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_terminal()
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert not colour_terminal()
    args = ["play", "games/game.gdl", "--players", "human,random,random,random", "--seed", "1"]
    seen = {colour: play_in_terminal(args, [], colour=colour)[0] for colour in (False, True)}
    assert "\x1b[48;2;" in seen[True] and "\x1b[48;2;" not in seen[False]
