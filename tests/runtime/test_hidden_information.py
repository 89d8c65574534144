"""Hidden information stays hidden, on every shipped game that hides something.

From positions reached by random play, a twin position is made that differs only in what a
seat may not see: two pieces hidden from it (same owner and place) exchange everything but
their identity, owner and place, the numbers of every piece hidden from it change, and every
variable hidden from it by `visible to` takes another value. Everything the seat receives must be the same in both: its view, the number
of legal actions and their texts as it reads them (when it decides), and the answer to a
typed action.
"""

import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import IllegalAction

from tests.helpers import hiding_games, twins


GAMES = hiding_games()


def received(game, state, seat):
    """Everything `seat` gets from the engine in `state`."""
    got = {"view": game.view(state, seat)}
    if game.current_player(state) == seat:
        legal = game.legal_actions(state)
        got["count"] = len(legal)
        got["texts"] = [game.action_text(state, a, seat) for a in legal]
        for typed in got["texts"][:3] + ["nothing here"]:
            try:
                got[typed] = game.action_text(state, game.parse_action(state.clone(), typed),
                                              seat)
            except IllegalAction as exc:
                got[typed] = exc.message
    return got


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_a_seat_receives_the_same_in_twin_positions(path):
    game = load_game(path)
    for seed, state, other, seat in twins(game):
        assert received(game, state, seat) == received(game, other, seat), (
            f"seed {seed}, decision {state.decisions}, seat {game.seats[seat]}")
