"""Galaxy Aflame invariants under random legal play, for each army pairing: every card is in
exactly one place (deck, hand, out of play, removed, on the table or carried), model counts
never grow, a removed unit never comes back, no two units share a square; and random games
end with a winner. The rules themselves are tested by tests/scenarios/galaxy_aflame/."""

import os

import pytest
from hypothesis import HealthCheck, given, settings

from gdl.interpreter import load_game
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import CHOICES, GAMES, SEEDS, play
FILES = ["galaxy_aflame.gdl", "galaxy_aflame_iron.gdl", "galaxy_aflame_line_iron.gdl"]
LOADED = {name: load_game(os.path.join(GAMES, name)) for name in FILES}
ZONES = ("deck", "hand", "out_of_play", "removed")


def place_of(piece):
    """Where a card is: a zone, 'table' or 'carried'; exactly one of them."""
    places = []
    if piece.get("zone") is not None:
        places.append(piece["zone"][0])
    if piece["cell"] is not None:
        places.append("table")
    if piece["carried_by"] is not None:
        places.append("carried")
    assert len(places) == 1, f"{piece['label']} is in {places or 'no place'}"
    return places[0]


def check(before, after):
    for pid, piece in after.pieces.items():
        assert piece["alive"], "a card is never destroyed, only moved to a pile"
        where = place_of(piece)
        assert where in ZONES + ("table", "carried")
        if where not in ("table", "carried"):
            assert piece["zone"][1] == piece["owner"], "a card stays in its owner's piles"
        old = before.pieces.get(pid)
        if old is not None:
            assert piece["models"] <= old["models"], "model counts never grow"
            if old.get("zone") is not None and old["zone"][0] == "removed":
                assert place_of(piece) == "removed", "a removed unit never comes back"
    for seat in range(2):
        assert sum(1 for p in after.pieces.values() if p["owner"] == seat) == 9
    cells = [p["cell"] for p in after.pieces.values() if p["cell"] is not None]
    assert len(cells) == len(set(cells)), "two units on one square"


@pytest.mark.parametrize("name", FILES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, choices=CHOICES)
def test_random_play_keeps_the_invariants(name, seed, choices):
    play(LOADED[name], seed, choices, check)


@pytest.mark.parametrize("name", FILES)
def test_random_games_finish_with_one_winner(name):
    summary, _ = simulate(LOADED[name], games=10, seed=3)
    assert summary.finished == 10
    assert summary.draws == 0
    assert sum(summary.wins.values()) == 10
