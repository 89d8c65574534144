"""The action tuples the typed engine keeps (runtime/typed.py `Emitter.action_maker`): the
test rule file's games, compared with Python's in tests/runtime/test_typed.py (COVERED),
list pieces whose ids are past the kept range; the tuples of one action are made once."""

import os
import random

from gdl.interpreter import load_game
from tests.helpers import ROOT
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _typed_game, needs_tools, typed_on  # noqa: F401

RULES = os.path.join(ROOT, "tests", "rules", "typed_kept_actions.gdl")


def test_the_compared_games_pass_the_kept_piece_ids():
    """A random game of the file makes pieces of ids past the 256 kept, as those
    test_typed compares do (they end by turn 391, within its 400 decisions)."""
    python = load_game(RULES, "python")
    state, choose = python.new_state(3), random.Random(3)
    while not python.is_terminal(state):
        legal = python.legal_actions(state)
        python.apply(state, legal[choose.randrange(len(legal))], check=False)
    assert max(state.pieces) > 300


@needs_tools
def test_one_tuple_per_kept_action(typed_on):  # noqa: F811
    fast = _typed_game(RULES)
    state = fast.new_state(0)
    first, again = fast.legal_actions(state), fast.legal_actions(state)
    assert first == again
    assert all(a is b for a, b in zip(first, again))
    assert first[0] == (0, (1, "left"))     # grow at b1 (a1 is taken): a cell, a symbol
