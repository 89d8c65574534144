"""Regression tests for problems found while documenting the language."""

import os

import pytest

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.language.errors import IllegalAction

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "rules", "regressions.gdl")


def test_names_starting_with_a_quantifier_word_and_list_equality():
    game = load_game(RULES)
    state = game.new_state(1)
    # `allowed`, `counter`, `[me] == [blue]`, `range(1, 2) == [1, 2]` all hold
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == ["face North"]


def test_typed_symbols_ignore_case_and_the_failing_rule_is_named():
    game = load_game(RULES)
    state = game.new_state(1)
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, "face south")
    assert info.value.message == "the rule 's != South' does not hold"
    assert game.parse_action(state, "FACE north") == game.legal_actions(state)[0]


def test_every_seat_losing_at_once_is_a_draw():
    game = load_game(RULES)
    state = game.new_state(1)
    game.apply(state, game.parse_action(state, "face North"))
    assert state.result == {"winners": [], "draw": True}


def test_a_variant_column_that_the_base_lacks_is_an_error(tmp_path):
    base = os.path.join(HERE, "..", "games", "space_war.gdl")
    (tmp_path / "space_war.gdl").write_text(open(base).read())
    (tmp_path / "v.gdl").write_text('extends "space_war.gdl"\nkinds (sped) { Fighter = 5 }\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines() == [
        f"{tmp_path / 'v.gdl'}:2:1: error: the base table has no column 'sped'",
        "    kinds (sped) { Fighter = 5 }",
        "    ^",
        "did you mean 'speed'?"]


def test_an_error_while_listing_actions_is_a_gdl_error():
    text = """
game "t"
seats a, b
board square(3, 3)
kinds (speed) { Pawn = 1 }
setup { create Pawn for a at none  goto p for a }
phase p { action go(x in pieces(me), to in neighbors(x.cell)) { return } }
"""
    game = load_source(text, "t.gdl")
    state = game.new_state(0)
    with pytest.raises(GdlError) as info:
        game.legal_actions(state)
    assert str(info.value) == (
        "t.gdl:7:44: error: run-time error: neighbors() cannot work with a value that is "
        "none\n"
        "    phase p { action go(x in pieces(me), to in neighbors(x.cell)) { return } }\n"
        "                                               ^")


# ----- found by review -------------------------------------------------------------------

SIMULTANEOUS = """
game "bids"
seats a, b, c
board square(1, 1)
var seat.bid = 0
var reveals = 0
setup { goto bid(5) for a }
phase bid(v) simultaneous {
  action offer(n in [1, 2, 3]) {
    me.bid = n
    if n == 3 { goto after for me }
  }
  on reveal { reveals += v }
}
phase after { action ok() { goto after for me } }
"""


def test_a_conceding_last_chooser_lets_the_others_be_revealed():
    game = load_source(SIMULTANEOUS, "bids.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "offer 1"))
    game.apply(state, game.parse_action(state, "offer 2"))
    game.concede(state, 2)
    assert [v["bid"] for v in state.seat_vars] == [1, 2, 0]
    assert state.globals["reveals"] == 5
    assert game.current_player(state) == 0


def test_a_choice_that_leaves_the_phase_ends_the_reveal():
    game = load_source(SIMULTANEOUS, "bids.gdl")
    state = game.new_state(0)
    for text in ("offer 3", "offer 2", "offer 1"):
        game.apply(state, game.parse_action(state, text))
    assert state.frames[-1]["phase"] == "after"
    assert [v["bid"] for v in state.seat_vars] == [3, 0, 0]
    assert state.globals["reveals"] == 0


def test_case_distinct_names_replay(tmp_path):
    rules = tmp_path / "case.gdl"
    rules.write_text('seats a, A\nboard square(1, 1)\nvar n = 0\nsetup { goto p for a }\n'
                     'phase p turn { action give(s in seats) { n += 1  goto p for s } }\n'
                     'end { win when n >= 6 }\n')
    from gdl.interpreter.play.agents.agents import make_agents
    from gdl.interpreter.play.transcript import record, replay
    out = tmp_path / "case.txt"
    game = load_game(str(rules))
    for seed in range(4):
        record(game, str(rules), seed, make_agents("random", 2, seed), ["random"] * 2,
               str(out))
        assert replay(str(out)) == 6


@pytest.mark.parametrize("text, message", [
    ("seats a, b\nboard square(1, 1)\nsetup { }\n",
     "setup never enters a phase: end it with 'goto PHASE for SEAT'"),
    ("seats a, b\nboard square(1, 1)\nparam q = [@a1] + [1]\nsetup { goto p for a }\n"
     "phase p { }\n", "type mismatch: cannot join list of a cell with, but this is list "
     "of a number"),
    ("seats a, b\nboard square(1, 1)\nparam q = " + "9" * 5000 + "\n", "cannot read this"),
    ("seats a, b\nboard square(1, 1)\nparam q = " + "-" * 3000 + "1\n", "too deeply"),
])
def test_more_bad_rule_files_are_gdl_errors(text, message):
    with pytest.raises(GdlError) as info:
        load_source(text, "bad.gdl")
    assert message in info.value.message


def test_negative_reach_is_empty():
    from gdl.interpreter.language.boards import SquareBoard
    board = SquareBoard(8, 8)
    assert board.reach(board.parse("d4"), -2, []) == []
    assert board.sight(board.parse("d4"), -2, []) == []


def test_transcript_with_a_bad_step_number_is_refused(tmp_path):
    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.play.transcript import replay
    path = tmp_path / "t.txt"
    path.write_text("# gdl transcript\ngame: x\nrules: x.gdl\nrules-sha256: 0\nseed: 1\n"
                    "players: random\n---\n3x a (2) go 2\n")
    with pytest.raises(GdlDataError) as info:
        replay(str(path))
    assert "malformed decision line" in info.value.message


def test_record_into_a_missing_folder_is_an_error():
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-m", "gdl.cli.main", "record", RULES.replace(
        "regressions.gdl", "../../games/space_war.gdl"), "-o", "/nonexistent/dir/t.txt"],
        capture_output=True, text=True)
    assert result.returncode == 1
    assert "cannot write /nonexistent/dir/t.txt" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_where_part_guards_the_domains_after_it_when_explaining():
    game = load_source("""
seats a, b
board square(3, 1)
kinds (power) { Pawn = 1 }
setup { create Pawn for a at none  create Pawn for a at @a1  goto main for a }
phase main {
  action go(p in pieces(me), to in neighbors(p.cell)) where p.cell != none { return }
}
""", "guard.gdl")
    state = game.new_state(0)
    assert [game.action_text(state, x) for x in game.legal_actions(state)] == ["go Pawn#2 b1"]
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, "go Pawn#1 b1")
    assert info.value.message == "the rule 'p.cell != none' does not hold"


def test_wilson_interval():
    from gdl.interpreter.play.balance.simulate import wilson
    assert wilson(0, 0) == [0.0, 0.0, 0.0]
    assert wilson(90, 100) == [0.9, 0.826, 0.945]
    share, low, high = wilson(50, 100)
    assert share == 0.5 and low < 0.5 < high and round(low + high, 3) == 1.0


def test_apply_refuses_an_illegal_action():
    game = load_game(RULES)
    state = game.new_state(1)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        game.apply(state, (0, ("South",)))        # 's != South' forbids it
    assert state.to_json() == before
