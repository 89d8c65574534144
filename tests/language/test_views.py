"""Hidden information and views (docs/language.md 11, `show piece`, `hide piece`, `visible to`):
what each seat sees of variables and pieces. (That nothing hidden leaks, on every shipped
game, is runtime/test_hidden_information.py.)"""

from __future__ import annotations

import json

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.runtime.view import render

from tests.helpers import COINS, RULES, act, rule


SECRETS = {"a": "8675309", "b": "1234567"}
PIECE_VALUES = {"a": "5550001", "b": "5550002"}


@pytest.mark.parametrize("seat, other", [(0, 1), (1, 0)])
def test_each_seat_sees_its_own_secret_only(seat, other):
    game = rule("secret.gdl")
    state = game.new_state(0)
    view = game.view(state, seat)
    me, them = game.seats[seat], game.seats[other]
    assert view["seats"][seat]["vars"] == {"secret": SECRETS[me], "open": "0"}
    assert view["seats"][other]["vars"] == {"secret": "?", "open": "0"}
    by_owner = {p["owner"]: p["vars"]["value"] for p in view["pieces"]}
    assert by_owner == {me: PIECE_VALUES[me], them: "?"}
    for leak in (SECRETS[them], PIECE_VALUES[them]):
        assert leak not in json.dumps(view)
        assert leak not in render(game, view)


def test_global_visible_to_one_seat():
    game = rule("secret.gdl")
    state = game.new_state(0)
    act(game, state, "stash")
    assert game.view(state, 0)["globals"] == {"pot": "9990001"}
    assert game.view(state, 1)["globals"] == {"pot": "?"}
    assert "9990001" not in json.dumps(game.view(state, 1))


def test_full_view_shows_everything():
    game = rule("secret.gdl")
    view = game.view(game.new_state(0), None)
    assert [s["vars"]["secret"] for s in view["seats"]] == [SECRETS["a"], SECRETS["b"]]
    assert [p["vars"]["value"] for p in view["pieces"]] == [PIECE_VALUES["a"],
                                                            PIECE_VALUES["b"]]


def test_hidden_pieces_show_no_label_and_no_variables():
    game = load_source(COINS, "t.gdl")
    state = game.new_state(0)
    view = game.view(state, 1)                    # b looks at a's stack of two coins
    labels = [p["label"] for p in view["pieces"]]
    assert labels == ["a:Coin#2", "b:Coin#1", "?"]   # only the top coin of a's stack is known
    hidden = view["pieces"][-1]
    assert hidden == {"label": "?", "kind": "?", "owner": "a", "cell": "a1", "vars": {},
                      "mark": "?"}
    own = game.view(state, 0)
    assert [p["label"] for p in own["pieces"]] == ["a:Coin#1", "a:Coin#2", "b:Coin#1"]
    assert "a:Coin#1" not in json.dumps(view)


def test_visibility_can_depend_on_the_piece_itself():
    """`it` in `visible to`: a token's faces show to the seats that peeked at it."""
    game = load_game(str(RULES / "peek.gdl"))
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "look Token#1"))     # seat a peeks
    assert game.view(state, 0)["pieces"][0]["vars"]["faces"] == "6"
    assert game.view(state, 1)["pieces"][0]["vars"]["faces"] == "?"


def test_the_title_of_a_finished_game_says_so_not_who_is_to_play():
    """Tic-tac-toe won by x used to read 'turn 10, o to play' above 'result: x won'."""
    game = load_game("games/classic/tic_tac_toe.gdl")
    state = game.new_state(0)
    for text in ["mark a1", "mark a2", "mark b1", "mark b2", "mark c1"]:
        act(game, state, text)
    first = render(game, game.view(state, None)).splitlines()[0]
    assert first == "Tic-tac-toe - turn 6, game over: x won"


def test_a_seat_with_nothing_to_tell_has_no_line_under_the_board():
    """Tic-tac-toe's seats have no variables and no `show seat`: no bare 'x: ' line."""
    game = load_game("games/classic/tic_tac_toe.gdl")
    lines = render(game, game.view(game.new_state(0), None)).splitlines()
    assert "  x: " not in lines and "  o: " not in lines
    space_war = load_game("games/space_war.gdl")
    assert "  blue: south side, 0 fighters" in render(
        space_war, space_war.view(space_war.new_state(0), None)).splitlines()


def test_a_seat_whose_show_seat_text_is_empty_has_no_line():
    """`show seat` stands in place of the seat's variables: when its text is empty the seat
    has nothing to tell, whatever variables it has (no bare 'north: ' line)."""
    game = load_source('game "Quiet"\nseats north, south\nboard square(2, 2)\n'
                       "var seat.score = 0\n"
                       'show seat(s) = if s.score > 0 then "score " + text(s.score) else ""\n'
                       "setup {\n  south.score = 2\n  goto play for north\n}\n"
                       "phase play turn {\n  action pass() { goto play for next(me) }\n}\n",
                       "quiet.gdl")
    lines = render(game, game.view(game.new_state(0), None)).splitlines()
    assert "  north: " not in lines
    assert "  south: score 2" in lines
