"""A setup that can never enter a phase (or end the game) is refused by the checker with
its place, in a rule file and in a variant; one that may skip its `goto` at run time is
reported at the setup declaration."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError
from gdl.interpreter.loader import check_file

RULES = """game "t"
seats a, b
board square(3, 3)
var n = 0
def start() {{
  goto main for a
}}
on enter(p, c) {{
  goto main for b
}}
setup {{
  {setup}
}}
phase main {{
  action go() {{
    win me
  }}
}}
end {{
  win when n > 5
}}
"""


def test_an_empty_setup_is_a_check_error():
    with pytest.raises(GdlRuleError) as info:
        load_source(RULES.format(setup="n = 1"), "t.gdl")
    assert str(info.value) == ("t.gdl:11:1: error: setup never enters a phase: end it with "
                               "'goto PHASE for SEAT'\n"
                               "    setup {\n"
                               "    ^")


@pytest.mark.parametrize("setup", ["goto main for a", "start()", "if n == 0 { start() }",
                                   "draw", "win a", "call main for each s in [a, b]"])
def test_a_setup_that_may_enter_a_phase_or_end_the_game_is_accepted(setup):
    load_source(RULES.format(setup=setup), "t.gdl")


def test_a_move_whose_trigger_enters_a_phase_counts():
    text = RULES.format(setup="n = 1").replace("var n = 0", "var n = 0\nkinds (s) { P = 1 }")
    load_source(text.replace("  n = 1\n}", "  move first(p in pieces(): p) along [@a1]\n}"),
                "t.gdl")


def test_a_variant_with_an_empty_setup_is_a_check_error(tmp_path):
    (tmp_path / "base.gdl").write_text(RULES.format(setup="goto main for a"))
    variant = tmp_path / "empty.gdl"
    variant.write_text('extends "base.gdl"\nsetup {\n}\n')
    with pytest.raises(GdlRuleError) as info:
        check_file(str(variant))
    assert str(info.value) == (f"{variant}:2:1: error: setup never enters a phase: end it "
                               "with 'goto PHASE for SEAT'\n"
                               "    setup {\n"
                               "    ^")


def test_a_goto_skipped_at_run_time_is_reported_at_setup():
    game = load_source(RULES.format(setup="if n == 1 { goto main for a }"), "t.gdl")
    with pytest.raises(GdlRuntimeError) as info:
        game.new_state(0)
    assert str(info.value) == ("t.gdl:11:1: error: run-time error: setup did not enter any "
                               "phase: end it with 'goto PHASE for SEAT'\n"
                               "    setup {\n"
                               "    ^")
