"""`change PIECE to KIND` (docs/language.md 5.5): a piece changes kind keeping its identity;
its statistics follow the new kind, its label names it (numbered per seat in games that hide
pieces, so nothing about a hidden piece shows); narration; errors pinned; the layout."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlError, GdlRuntimeError
from gdl.interpreter.play.render.narrate import event_lines
from gdl.interpreter.runtime import events
from gdl.interpreter.tools.fmt import format_text

from tests.helpers import ROOT
from tests.runtime.test_native_backend import _play, needs_tools, shared_cache  # noqa: F401
CROWNING = os.path.join(ROOT, "tests", "rules", "crowning.gdl")


def crown(game, state):
    """a's man on a1 walks to a4 (b's man on c4 answering), and is crowned there."""
    for a_move, b_move in (("a1 a2", "c4 c3"), ("a2 a3", "c3 c2")):
        for text in (a_move, b_move):
            game.apply(state, _advance(game, state, text))
    return game.apply(state, _advance(game, state, "a3 a4"))


def _advance(game, state, cells):
    source, target = cells.split()
    at = {p["label"]: p["cell"] for p in game.view(state, None)["pieces"]}
    for action in game.legal_actions(state):
        words = game.action_text(state, action).split()
        if at[words[1]] == source and words[2] == target:
            return action
    raise AssertionError(f"no advance {cells}")


def test_the_piece_keeps_its_identity_and_takes_the_new_kinds_statistics():
    game = load_game(CROWNING)
    state = game.new_state(0)
    crown(game, state)
    piece = state.pieces[1]
    assert (piece["kind"], piece["label"], piece["owner"], piece["steps"]) == (
        "King", "King#1", 0, 3)
    assert {p["label"]: p["cell"] for p in game.view(state, None)["pieces"]}["King#1"] == "a4"
    assert [p["label"] for p in state.pieces.values()] == ["King#1", "Man#2", "Man#3", "Man#4"]
    assert state.result is None                  # worth 3 + 1


def test_a_game_plays_to_its_end_on_crowned_pieces():
    game = load_game(CROWNING)
    for seed in range(5):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            actions = game.legal_actions(state)
            game.apply(state, actions[len(actions) // 2])
        assert state.result["winners"] in ([0], [1])
        winner = state.result["winners"][0]
        assert sorted(p["kind"] for p in state.pieces.values() if p["owner"] == winner) == [
            "King", "King"]


def test_narration_tells_the_change():
    game = load_game(CROWNING)
    state = game.new_state(0, narrate=True)
    told = crown(game, state)
    changed = [e for e in told if isinstance(e, events.Changed)]
    assert [(e.was, e.label, e.owner) for e in changed] == [("Man#1", "King#1", "a")]
    assert events.event_from_json(changed[0].to_json()) == changed[0]
    assert "Man#1 became King#1 (a) (by advance, a)" in event_lines(game, told, None)


HIDDEN = """seats a, b
board square(3, 3)
kinds (value) {
  Man = 1
  King = 3
}
hide piece(p) when p.owner != viewer
setup {
  create Man for a at @a1
  create Man for a at @b1
  goto p for a
}
phase p {
  action crown(x in pieces(me)) {
    change x to King
    change x to King
    goto p for next(me)
  }
  action pass() {
    goto p for next(me)
  }
}
"""


def test_a_hidden_piece_keeps_its_number_and_its_change_stays_hidden():
    game = load_source(HIDDEN)
    state = game.new_state(0, narrate=True)
    crown_b1 = next(a for a in game.legal_actions(state)
                    if game.action_text(state, a) == "crown a:Man#2")
    told = game.apply(state, crown_b1)
    assert state.pieces[2]["label"] == "a:King#2"   # no count moved: the number stays
    assert state.numbers["@0"] == 2
    changed = [e for e in told if isinstance(e, events.Changed)]
    assert [(e.was, e.label, e.hidden) for e in changed] == [("a:Man#2", "a:King#2", (1,))]
    assert any("became" in line for line in event_lines(game, told, 0))
    assert not any("became" in line or "King" in line for line in event_lines(game, told, 1))
    seen_by_b = game.view(state, 1)
    assert {p["kind"] for p in seen_by_b["pieces"]} == {"?"}


def test_a_kind_that_is_no_kind_at_run_time_is_a_fault():
    game = load_source(HIDDEN.replace("change x to King\n    change x to King",
                                      "change x to first(k in [King] where false)"))
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError, match=r"'change' was given no piece kind \(none\)"):
        game.apply(state, game.legal_actions(state)[0])


@pytest.mark.parametrize("statement, message", [
    ("change x to Kign",
     "<string>:15:17: error: unknown piece kind 'Kign'\n"
     "        change x to Kign\n"
     "                    ^\n"
     "did you mean 'King'?"),
    ("change x to 3",
     "<string>:15:17: error: type mismatch: 'change ... to' needs a piece kind, but this is "
     "a number\n"
     "        change x to 3\n"
     "                    ^"),
    ("change me to King",
     "<string>:15:12: error: type mismatch: 'change' needs a piece, but this is a seat\n"
     "        change me to King\n"
     "               ^"),
    ("x.kind = King",
     "<string>:15:7: error: 'kind' of a piece cannot be assigned; use change PIECE to KIND\n"
     "        x.kind = King\n"
     "          ^"),
    ("x.owner = me",
     "<string>:15:7: error: 'owner' of a piece cannot be assigned; use give PIECE to SEAT\n"
     "        x.owner = me\n"
     "          ^"),
    ("x.value = 2",
     "<string>:15:7: error: 'value' of a piece cannot be assigned; it is a column of the "
     "kinds table, the same for every piece of a kind: keep a value that changes in a "
     "piece variable of another name ('var piece.NAME = ...'), or change the piece's kind\n"
     "        x.value = 2\n"
     "          ^"),
])
def test_misuse_is_reported(statement, message):
    with pytest.raises(GdlError) as caught:
        load_source(HIDDEN.replace("change x to King\n    change x to King", statement))
    assert caught.value.render() == message


def test_the_layout_keeps_change():
    text = open(CROWNING, encoding="utf-8").read()
    assert format_text(text) == text


@needs_tools
def test_both_backends_play_crowning_alike(shared_cache):
    python, compiled = load_game(CROWNING, "python"), load_game(CROWNING, "native")
    for seed in (1, 2, 3):
        assert _play(compiled, seed) == _play(python, seed)
