"""Pieces kept from seats on the typed native engine (runtime/typed.py, the `hidden_`
methods): a `hide piece` rule and a kinds table's `visible to`. The files that hide pieces
are played under the typed engine and the Python backend from the same seeds, and after
every decision each seat's view, the legal actions' texts as each seat reads them and the
events (an `auto` action's text per seat) must be the same; the leak tests' pairs of
positions a seat cannot tell apart give that seat the same on the typed engine too.

The games are short ones; tests/runtime/test_typed.py's COVERED plays more of each file
(without the views per seat)."""

import os
import random

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.runtime.typed import TypedState
from tests.helpers import ROOT, twins
from tests.play import test_leaks
from tests.runtime.test_hidden_information import received
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _fault, _same, _typed_game, needs_tools, typed_on  # noqa: F401

RULES = os.path.join(ROOT, "tests", "rules")
# file -> random games compared seat by seat
HIDING = {"games/classic/phantom_ttt.gdl": 40, "tests/rules/typed_hidden_hide.gdl": 25,
          "tests/rules/typed_hidden_sight.gdl": 25, "games/galaxy_of_d.gdl": 2,
          "games/game.gdl": 1}


def _seen_alike(python, fast, a, b):
    """Every seat (and the full and public views) is shown the same of `a` and `b`."""
    legal = python.legal_actions(a)
    for seat in [None, *range(len(python.seats))]:
        assert fast.view(b, seat) == python.view(a, seat), seat
        assert [fast.action_text(b, x, seat) for x in legal] == \
            [python.action_text(a, x, seat) for x in legal], seat


def _compare_seats(python, fast, seed):
    """One random game from `seed` on both engines, every seat's view compared after every
    decision (test_typed `_compare` compares the full view now and then)."""
    choose = random.Random(seed)
    a, b = python.new_state(seed), fast.new_state(seed)
    assert b.__class__ is TypedState
    while True:
        assert b.clone().to_json() == a.to_json()
        legal = python.legal_actions(a)
        assert fast.legal_actions(b) == legal
        assert fast.current_player(b) == python.current_player(a)
        _seen_alike(python, fast, a, b)
        if not legal:
            break
        action = legal[choose.randrange(len(legal))]
        if _same(lambda: python.apply(a, action, check=False),
                 lambda: fast.apply(b, action, check=False)):
            return
    assert fast.returns(b) == python.returns(a)


@needs_tools
@pytest.mark.parametrize("rules", sorted(HIDING))
def test_every_seat_sees_the_same_on_both_engines(rules, typed_on):
    path = os.path.join(ROOT, rules)
    python, fast = load_game(path, "python"), _typed_game(path)
    for seed in range(HIDING[rules]):
        _compare_seats(python, fast, seed)


@needs_tools
@pytest.mark.parametrize("rules", [r for r in sorted(HIDING) if r.startswith("tests/")])
def test_a_seat_receives_the_same_in_twin_positions_on_the_typed_engine(rules, typed_on):
    """tests/runtime/test_hidden_information.py's twins, played typed (phantom_ttt's
    hidden pieces have no numbers or kinds to change: the leak test below covers it)."""
    game = _typed_game(os.path.join(ROOT, rules))
    for seed, state, other, seat in twins(game, limit=40):
        assert received(game, state, seat) == received(game, other, seat), (
            f"seed {seed}, decision {state.decisions}, seat {game.seats[seat]}")


@needs_tools
def test_the_leak_tests_pairs_tell_a_seat_nothing_on_the_typed_engine(typed_on, tmp_path):
    """tests/play/test_leaks.py's differential test (secret runs, determinizations) on
    the typed engine, for the classic game that hides pieces."""
    rules = "games/classic/phantom_ttt.gdl"
    game = _typed_game(os.path.join(ROOT, rules))
    pairs, differences = 0, []
    for seed in range(2):
        for a, b, seat in test_leaks._pairs(game, seed):
            pairs += 1
            differences += test_leaks._differences(game, rules, a, b, seat, tmp_path)
    assert pairs > 0
    assert differences == []


STACKED = """game "t"
seats a, b
board square(4, 2)

kinds (symbol) {
  Pawn = "P"
}

hide piece(p) when p.owner != viewer

setup {
  create Pawn for a at @a1
  create Pawn for a at @b1
  create Pawn for b at @a2
  goto play for a
}

phase play turn {
  action step(p in pieces(me) by cell, to in [step(p.cell, east)]) where to != none {
    place p at to
    goto play for next(me)
  }
}
"""


@needs_tools
def test_two_pieces_read_alike_by_cell_name_no_label_when_pieces_hide(typed_on):
    """The fault of two actions reading alike says "two pieces", not their labels, in a
    game that hides pieces (engine.py `_same_texts`)."""
    python, fast = load_source(STACKED, "t.gdl", "python"), load_source(STACKED, "t.gdl", "native")
    assert fast._typed is not None
    a, b = python.new_state(0), fast.new_state(0)
    for game, state in ((python, a), (fast, b)):
        game.apply(state, (0, (1, 1)))      # a's pawn a1 joins its other on b1
        game.apply(state, (0, (3, 5)))
    with pytest.raises(GdlRuntimeError) as expected:
        python.legal_actions(a)
    assert "two pieces stand on" in str(expected.value)
    with pytest.raises(GdlRuntimeError) as found:
        fast.legal_actions(b)
    assert _fault(found.value) == _fault(expected.value)


@needs_tools
@pytest.mark.parametrize("forced,faults", [
    ([["pick", None, 2], ["pick", 3, 3], ["pick", 16, 5], ["pick", None, 1]], False),
    ([["pick", None, 2], [4, 1], ["shuffle", [2, 1]], ["pick", None, 40]], True),
])
def test_forced_picks_are_taken_first_on_both_engines(forced, faults, typed_on):
    """pick() takes the first forced pick of its list's length (or of any), as engine.py's
    `pick` does; one past the list's end is the same fault at the same place."""
    path = os.path.join(RULES, "typed_hidden_pick.gdl")
    python, fast = load_game(path, "python"), _typed_game(path)
    assert _same(lambda: python.new_state(5, forced=forced).to_json(),
                 lambda: fast.new_state(5, forced=forced).to_json()) == faults
    if not faults:
        a, b = python.new_state(5, forced=forced), fast.new_state(5, forced=forced)
        assert b.__class__ is TypedState and b.forced_picks == a.forced_picks == [[16, 5], [None, 1]]
        assert b.events == a.events
