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
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)


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


SIGHT_LABELS = os.path.join(os.path.dirname(__file__), "..", "rules", "sight_labels.gdl")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_pieces_out_of_sight_leave_no_gap_in_the_labels_seen(backend, request):
    """Labels were numbered per seat across all kinds, so blue, seeing red's `Mark#1` and
    `Mark#3`, learnt that red had made a piece it cannot see. The kinds of a table `visible
    to` are numbered apart: blue sees the same labels whether red made a Secret or passed."""
    if backend == "native":
        from tests.runtime.test_native_backend import MISSING
        if MISSING is not None:
            pytest.skip(f"no native backend: {MISSING}")
        request.getfixturevalue("shared_cache")
    game = load_game(SIGHT_LABELS, backend)
    seen = []
    for middle in ("hide b2", "pass"):
        state = game.new_state(0)
        for text in ("mark a1", "pass", middle, "pass", "mark c3"):
            game.apply(state, game.parse_action(state, text))
        view = game.view(state, game.seats.index("blue"))
        seen.append(sorted(p["label"] for p in view["pieces"]))
    assert seen[0] == seen[1] == ["red:Mark#1", "red:Mark#2"]
    # red sees its Secret; revealed as a Mark it takes the Marks' next number
    state = game.new_state(0)
    for text in ("mark a1", "pass", "hide b2", "pass", "reveal red:Secret#1"):
        game.apply(state, game.parse_action(state, text))
    labels = [p["label"] for p in game.view(state, game.seats.index("blue"))["pieces"]]
    assert sorted(labels) == ["red:Mark#1", "red:Mark#2"]
