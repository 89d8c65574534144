"""The typed engine's "small" constructs against the Python backend: kinds and symbols as
values (variables of type kind or symbol, none to begin with; the kinds table's columns read
from a kind; columns of symbols and kinds), the `shuffle` statement, min/max/abs, numbers
and true/false that may be none (nth(), last(), a column some kinds have no value for). Each rule
file is played from many seeds under both engines, every seat's view compared after each
decision (test_typed_chance `_play_alike`); their faults are Python's, at the same place.
The games of test_typed's COVERED play them too (without the seats' views)."""

import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.runtime import typed
from tests.helpers import ROOT
from tests.runtime.test_native_backend import MISSING, shared_cache  # noqa: F401 (fixture)
from tests.runtime.test_typed import _same, _typed_game, typed_on  # noqa: F401
from tests.runtime.test_typed_chance import _play_alike

needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")
# rule file -> random games whose every seat's view is compared
VIEWED = {"tests/rules/typed_small_kinds.gdl": 40, "tests/rules/typed_small_shuffle.gdl": 40,
          "tests/rules/typed_small_nones.gdl": 40, "games/classic/kuhn_poker.gdl": 20,
          "games/classic/leduc_poker.gdl": 20,
          "games/classic/hearts.gdl": 4, "tests/rules/dice.gdl": 20, "tests/rules/look.gdl": 20,
          "tests/rules/pools.gdl": 20}


@needs_tools
@pytest.mark.parametrize("path", sorted(VIEWED))
def test_every_seat_s_view_is_python_s(path, typed_on):
    python, fast = load_game(os.path.join(ROOT, path), "python"), _typed_game(
        os.path.join(ROOT, path))
    played = 0
    for seed in range(VIEWED[path]):
        if not _same(lambda: python.new_state(seed).to_json(),
                     lambda: fast.new_state(seed).to_json()):
            played += _play_alike(python, fast, seed, python.new_state(seed),
                                  fast.new_state(seed))
    assert played >= VIEWED[path]       # (games of a few decisions at least)


@pytest.mark.parametrize("name", ["hearts", "kuhn_poker", "leduc_poker"])
def test_the_classic_game_is_inside(name):
    game = load_game(os.path.join(ROOT, "games", "classic", f"{name}.gdl"), "python")
    assert typed.unsupported(game._program) is None


@needs_tools
def test_game_without_its_hide_rule_plays_python_s_games(tmp_path, typed_on):
    """GAME (games/game.gdl) is inside the subset but for its `hide piece` rule (another
    construct): with that line taken out, a few games from the start are Python's."""
    from tests.runtime.test_typed import _compare
    source = open(os.path.join(ROOT, "games", "game.gdl"), encoding="utf-8").read()
    lines = [line for line in source.splitlines(keepends=True)
             if not line.startswith("hide piece")]
    assert len(lines) == len(source.splitlines()) - 1
    path = tmp_path / "game.gdl"
    path.write_text("".join(lines), encoding="utf-8")
    python, fast = load_game(str(path), "python"), _typed_game(str(path))
    assert typed.unsupported(python._program) is None
    for seed in range(2):
        _compare(python, fast, seed)


@needs_tools
def test_a_score_that_is_none_is_python_s(tmp_path, typed_on):
    """`show score(s)` compiled into the core (`Core.scores`) gives no scores when one of
    them is none: the rule then runs on Python, which says what a none score is. Here a
    seat's score is the 3rd number it kept, none until it has kept three."""
    from gdl.interpreter.language.errors import GdlRuntimeError
    from gdl.interpreter.runtime import introspect
    source = open(os.path.join(ROOT, "tests", "rules", "typed_small_nones.gdl"),
                  encoding="utf-8").read()
    path = tmp_path / "nones_score.gdl"
    path.write_text(source + "\nshow score(s) = nth(s.kept, 3)\n", encoding="utf-8")
    python, fast = load_game(str(path), "python"), _typed_game(str(path))
    none_scores = numbers = 0
    for seed in range(20):
        states = [python.new_state(seed), fast.new_state(seed)]
        assert states[1]._core is not None
        for step in range(12):
            if python.is_terminal(states[0]):
                break
            found = [introspect.scores(game, state) for game, state in zip((python, fast),
                                                                            states)]
            assert found[0] == found[1]
            none_scores += None in found[0]
            numbers += None not in found[0]
            legal = python.legal_actions(states[0])
            assert fast.legal_actions(states[1]) == legal
            action = legal[(seed * 7 + step) % len(legal)]
            faults = []
            for game, state in zip((python, fast), states):
                try:
                    game.apply(state, action)
                except GdlRuntimeError as exc:      # (the file faults on purpose)
                    faults.append(exc.message)
            assert len(faults) in (0, 2) and faults[:1] == faults[1:]
            if faults:
                break
    assert none_scores and numbers
