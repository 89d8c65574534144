"""Space War under random legal play: piece counts never grow once play has started (a
comparison of two states, which a rule file's invariant cannot state; the rule file's own
invariants are checked by tests/test_properties.py)."""

from hypothesis import HealthCheck, given, settings

from gdl.interpreter import load_game

from tests.helpers import CHOICES, SEEDS, SPACE_WAR, play


GAME = load_game(str(SPACE_WAR))


def alive_counts(state):
    counts = [0, 0]
    for piece in state.pieces.values():
        if piece["alive"]:
            counts[piece["owner"]] += 1
    return counts


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, choices=CHOICES)
def test_no_two_pieces_on_a_square_and_counts_never_grow(seed, choices):
    def check(before, after):
        if before.turn > 0:
            assert all(b >= a for b, a in zip(alive_counts(before), alive_counts(after)))
    play(GAME, seed, choices, check)
