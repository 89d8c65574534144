"""Enter triggers: `on enter(p, c)` (docs/language.md 4.6): run for every cell of a move,
`stop`, removal, `where` clauses."""

from __future__ import annotations

import textwrap

from gdl.interpreter import GdlError, load_source

from tests.helpers import act, cell_names, rule


def _run(text):
    game = rule("walk.gdl")
    state = game.new_state(0)
    act(game, state, text)
    return game, state


def _runner(game, state, label):
    (piece,) = [p for p in state.pieces.values() if p["label"] == label]
    cell = None if piece["cell"] is None else game.rules.board.names[piece["cell"]]
    return piece["alive"], cell, cell_names(game, piece["trail"]), piece["entered"]


def test_enter_triggers_run_for_every_cell_of_a_move():
    game, state = _run("run Runner#1 f1")
    assert _runner(game, state, "Runner#1") == (True, "f1", ["b1", "c1", "d1", "e1", "f1"], 5)
    assert _runner(game, state, "Runner#2") == (True, "a2", [], 0)


def test_stop_ends_the_move_on_that_cell():
    game, state = _run("run Runner#2 f2")
    alive, cell, trail, _ = _runner(game, state, "Runner#2")
    assert (alive, cell, trail) == (True, "d2", ["b2", "c2", "d2"])
    assert state.at[game.rules.board.parse("d2")] == [2]


def test_removal_ends_the_move():
    game, state = _run("run Runner#3 f3")
    assert _runner(game, state, "Runner#3") == (False, None, ["b3", "c3", "d3"], 2)
    assert game.rules.board.parse("d3") not in state.at
    assert "Runner#3" not in [p["label"] for p in game.view(state, 0)["pieces"]]


def test_where_clause_limits_a_trigger():
    game, state = _run("run Runner#2 c2")
    assert _runner(game, state, "Runner#2") == (True, "c2", ["b2", "c2"], 2)


STOP_IN_ACTION = textwrap.dedent("""\
    game "Stop in action"
    seats a, b
    board square(1, 1)
    setup {
      goto main for a
    }
    phase main {
      action halt() {
        stop
      }
    }
    """)


def test_stop_outside_a_move_is_a_gdl_error():
    try:
        game = load_source(STOP_IN_ACTION, "stop.gdl")
        state = game.new_state(0)
        act(game, state, "halt")
    except GdlError:
        return
    except Exception as exc:               # noqa: BLE001 - the point of the test
        raise AssertionError(f"not a GdlError: {type(exc).__name__}") from exc
    raise AssertionError("'stop' outside a move was accepted")
