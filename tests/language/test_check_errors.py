"""Broken rule files: each gives a GdlError whose rendered text is pinned exactly.

A message must say where (`FILE:LINE:COL`, the source line and a caret) and what was expected
or meant. A seeded fuzz test mutates games/space_war.gdl and
checks that loading gives a well-located GdlError or succeeds, never another exception.
"""

from __future__ import annotations

import random
import re
import textwrap

import pytest

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlSyntaxError, visible

from tests.helpers import (RULES, SPACE_WAR, VALID, error_of, gdl, lines, message,
                           rule_error)


def test_the_valid_game_loads():
    game = load_source(VALID, "good.gdl")
    assert game.seats == ["a", "b"]


# ----- empty and binary files -----------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "\n\n   \n", "# nothing here\n"],
                         ids=["empty", "blank", "comment-only"])
def test_empty_file_is_an_error(text):
    err = error_of(text, GdlRuleError)
    assert (err.line, err.column) == (1, 1)


@pytest.mark.parametrize("text", ["", "\n\n   \n", "# nothing here\n"],
                         ids=["empty", "blank", "comment-only"])
def test_empty_file_error_names_the_file(text):
    assert message(text).splitlines()[0] == (
        "bad.gdl:1:1: error: the rule file is empty: it needs at least 'seats', 'board' and "
        "'setup'")


def test_nul_byte_in_a_file(tmp_path):
    path = tmp_path / "nul.gdl"
    path.write_bytes(b'game "T"\nseats a\x00, b\n')
    with pytest.raises(GdlSyntaxError) as info:
        load_game(str(path))
    assert str(info.value) == lines(
        f"{path}:2:8: error: this is not a text rule file: character 0x00 is not allowed",
        "    seats a\\x00, b",
        "           ^")


def test_nul_byte_in_a_string():
    assert message("\x00", GdlSyntaxError) == lines(
        "bad.gdl:1:1: error: this is not a text rule file: character 0x00 is not allowed",
        "    \\x00",
        "    ^")


def test_control_character_in_a_string():
    assert message('game "T"\x0cseats a', GdlSyntaxError) == lines(
        "bad.gdl:1:9: error: this is not a text rule file: character 0x0c is not allowed",
        '    game "T"\\x0cseats a',
        "            ^")


def test_lines_ended_by_a_carriage_return_alone():
    """Classic Mac OS line ends: read as spaces, the first comment ran to the end of the
    file, and the error was 'the rule file is empty'. CRLF line ends are read as ever."""
    assert message('# Race\rgame "T"\rseats a, b\r', GdlSyntaxError) == lines(
        "bad.gdl:1:7: error: this is not a text rule file: a carriage return (0x0d) ends a "
        "line without a newline (classic Mac OS line ends): save the file with LF or CRLF "
        "line ends",
        '    # Race\\x0dgame "T"\\x0dseats a, b',
        "          ^")
    assert "carriage" not in message('# Race\r\ngame "T"\r\nseats a, b\r\n')


def test_binary_file(tmp_path):
    path = tmp_path / "image.gdl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(GdlSyntaxError) as info:
        load_game(str(path))
    assert str(info.value).splitlines()[0] == (
        f"{path}:1:1: error: this is not a text rule file: byte 0x89 is not UTF-8 (it looks like a binary file)")


# ----- text that would show other than it is ("Trojan Source") ------------------------------

def test_a_character_that_reorders_text_is_refused_where_it_stands():
    """U+202E in a text or a comment would show the rest of the line reversed, so the line
    reads otherwise than it runs: refused, shown as '\\u202e', the caret under it; letters
    of other scripts (é, 漢) as they are."""
    assert message('game "Dé\u202e漢" zz\n', GdlSyntaxError).splitlines() == [
        "bad.gdl:1:9: error: an invisible character that reorders the text around it, U+202E "
        "RIGHT-TO-LEFT OVERRIDE: the line would read otherwise than it runs; delete it "
        "(letters of right-to-left scripts need none)",
        '    game "Dé\\u202e漢" zz',
        "            ^"]
    for char, name in [("\u202a", "LEFT-TO-RIGHT EMBEDDING"), ("\u2069", "POP DIRECTIONAL "
                                                                  "ISOLATE")]:
        text = VALID.replace("next(me)", f"next(me) # {char}")
        assert f"U+{ord(char):04X} {name}: " in message(text, GdlSyntaxError)
    game = load_source(VALID.replace('"T"', '"משחק"'), "ok.gdl")   # Hebrew needs none
    assert game.name == "משחק"


def test_a_mark_that_hides_is_shown_as_an_escape_and_the_caret_stays_in_place():
    """U+200F (a right-to-left mark: it reorders nothing by itself) is shown as '\\u200f'
    with the caret under the same character as before."""
    assert message('game "Dé\u200f漢" zz\n', GdlSyntaxError).splitlines()[1:] == [
        '    game "Dé\\u200f漢" zz',
        "                     ^"]
    assert message('game "T" \u200f\n', GdlSyntaxError).splitlines()[0] == (
        "bad.gdl:1:10: error: unexpected character '\\u200f'; expected 'board', 'def', "
        "'end', 'extends', 'fn', 'game', 'hide', 'invariant', ...")


def test_a_checker_message_and_its_source_line_show_invisible_marks_escaped():
    text = VALID.replace("next(me)", "next(me) + them # \u200e\u200f\u200b")
    assert rule_error(text).splitlines()[1:] == [
        "        goto play for next(me) + them # \\u200e\\u200f\\u200b",
        "                                 ^"]
    assert message('extends "b\u200fase.gdl"\n').splitlines()[0] == (
        "bad.gdl:1:1: error: the base file 'b\\u200fase.gdl' does not exist "
        "(b\\u200fase.gdl)")


@pytest.mark.parametrize("named", ['""', '"  "'])
def test_extends_of_no_file_says_so(named):
    """(`extends ""` said 'cannot read rule file .: Is a directory'.)"""
    assert message(f"extends {named}\n").splitlines()[0] == (
        "bad.gdl:1:1: error: 'extends' names no base file: give the base's path, relative to "
        "this file's folder (extends \"base.gdl\")")


def test_visible_escapes_what_hides_or_reorders_text_and_keeps_letters():
    assert visible("café 漢字 ² tab\tand\nnewline") == "café 漢字 ² tab\tand\nnewline"
    assert visible("a\u202eb\u2066\u2067\u2068\u2069\u200e\u200f\u200b\x1b[2J\u2028") == (
        "a\\u202eb\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u200b\\x1b[2J\\u2028")
    assert visible("\U000e0041") == "\\U000e0041"


def _latin1_file(tmp_path):
    path = tmp_path / "latin1.gdl"
    path.write_bytes(b'game "T"\nseats a, b\n# caf\xe9\n')
    return path


def test_invalid_utf8(tmp_path):
    path = _latin1_file(tmp_path)
    with pytest.raises(GdlSyntaxError) as info:
        load_game(str(path))
    assert str(info.value).splitlines()[0] == (
        f"{path}:3:6: error: this is not a text rule file: byte 0xe9 is not UTF-8")


def test_invalid_utf8_shows_the_line_and_a_caret(tmp_path):
    path = _latin1_file(tmp_path)
    with pytest.raises(GdlSyntaxError) as info:
        load_game(str(path))
    rendered = str(info.value).splitlines()
    assert len(rendered) >= 3
    assert rendered[1].startswith("    # caf")
    assert rendered[2] == "         ^"


def test_missing_file(tmp_path):
    path = tmp_path / "missing.gdl"
    with pytest.raises(GdlError) as info:
        load_game(str(path))
    assert str(info.value) == f"error: cannot read rule file {path}: No such file or directory"


def test_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "bom.gdl"
    path.write_bytes(b"\xef\xbb\xbf" + VALID.encode("utf-8"))
    try:
        game = load_game(str(path))
    except GdlError as exc:
        raise AssertionError(str(exc)) from exc
    assert game.seats == ["a", "b"]


# ----- syntax ---------------------------------------------------------------------------------

def test_unclosed_block_at_the_end():
    text = VALID[:VALID.rindex("}")]                 # drop the phase's closing brace
    assert message(text, GdlSyntaxError) == lines(
        "bad.gdl:10:4: error: the file ended unexpectedly (an unclosed block?); expected "
        "'action', 'on', '}'",
        "      }",
        "       ^")


def test_unclosed_block_before_the_next_declaration():
    text = VALID.replace("    goto play for next(me)\n  }\n", "    goto play for next(me)\n")
    text += "phase other {\n}\n"
    assert message(text, GdlSyntaxError) == lines(
        "bad.gdl:11:1: error: unexpected 'phase'; expected 'action', 'on', '}'",
        "    phase other {",
        "    ^")


def test_unclosed_parenthesis():
    assert message(VALID.replace("next(me)", "next(me"), GdlSyntaxError) == lines(
        "bad.gdl:10:3: error: unexpected '}'; expected ')', ','",
        "      }",
        "      ^")


def test_extra_closing_brace():
    assert message(VALID + "}\n", GdlSyntaxError) == lines(
        "bad.gdl:12:1: error: unexpected '}'; expected 'board', 'def', 'end', 'extends', "
        "'fn', 'game', 'hide', 'invariant', ...",
        "    }",
        "    ^")


def test_misspelt_declaration_keyword():
    assert message(VALID.replace("phase play", "phsae play"), GdlSyntaxError) == lines(
        "bad.gdl:7:1: error: unexpected name 'phsae'; expected 'board', 'def', 'end', "
        "'extends', 'fn', 'game', 'hide', 'invariant', ...",
        "    phsae play {",
        "    ^",
        "did you mean 'phase'?")


def test_misspelt_statement_keyword_gets_a_hint():
    assert "did you mean 'goto'?" in message(
        VALID.replace("goto play for next(me)", "got play for next(me)"))


def test_misspelt_statement_keyword_is_located():
    assert message(VALID.replace("goto play for next(me)", "got play for next(me)"),
                   GdlSyntaxError).splitlines()[:3] == [
        "bad.gdl:9:9: error: unexpected name 'play'; expected '(', '+=', '-=', '.', '='",
        "        got play for next(me)",
        "            ^"]


def test_stray_character():
    assert message(VALID + "var x = 3 $ 4\n", GdlSyntaxError) == lines(
        "bad.gdl:12:11: error: unexpected character '$'; expected '!=', '%', ')', '*', '+', "
        "',', '-', '.', ...",
        "    var x = 3 $ 4",
        "              ^")


def test_unclosed_string_says_so():
    text = message(VALID.replace('"T"', '"T'))
    assert "not closed" in text or "unclosed" in text


def test_unclosed_string_is_located():
    rendered = message(VALID.replace('"T"', '"T'), GdlSyntaxError).splitlines()
    assert rendered[0].startswith("bad.gdl:1:6: error: ")
    assert rendered[1:] == ['    game "T', "         ^"]


# ----- names ----------------------------------------------------------------------------------

def test_unknown_name_did_you_mean():
    text = VALID + "var score = 0\nfn f(x) = scor + 1\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:13:11: error: unknown name 'scor'",
        "    fn f(x) = scor + 1",
        "              ^",
        "did you mean 'score'?")


def test_unknown_function_did_you_mean():
    assert message(VALID.replace("next(me)", "nxt(me)"), GdlRuleError) == lines(
        "bad.gdl:9:19: error: unknown function 'nxt'",
        "        goto play for nxt(me)",
        "                      ^",
        "did you mean 'next'?")


def test_unknown_phase_did_you_mean():
    assert message(VALID.replace("goto play for next", "goto paly for next"),
                   GdlRuleError) == lines(
        "bad.gdl:9:10: error: unknown phase 'paly'",
        "        goto paly for next(me)",
        "             ^",
        "did you mean 'play'?")


def test_unknown_seat_variable_did_you_mean():
    text = VALID.replace("goto play for next(me)", "me.scroe += 1") + "var seat.score = 0\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:8: error: a seat has no variable 'scroe'",
        "        me.scroe += 1",
        "           ^",
        "did you mean 'score'?")


def test_unknown_piece_kind_did_you_mean():
    text = VALID.replace("  goto play for a", "  create Ship for a at @a1\n  goto play for a")
    text += "kinds (speed) {\n  Shop = 1\n}\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:5:10: error: unknown piece kind 'Ship'",
        "      create Ship for a at @a1",
        "             ^",
        "did you mean 'Shop'?")


def test_cell_off_the_board():
    text = VALID.replace("  goto play for a", "  let x = @z9\n  goto play for a")
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:5:11: error: @z9 is not a cell of the 3x3 square board",
        "      let x = @z9",
        "              ^")


# ----- number of arguments --------------------------------------------------------------------

def test_builtin_given_too_many_arguments():
    assert message(VALID.replace("next(me)", "next(me, 2)"), GdlRuleError) == lines(
        "bad.gdl:9:19: error: next() takes 1 argument, not 2",
        "        goto play for next(me, 2)",
        "                      ^")


def test_builtin_given_no_arguments():
    text = VALID.replace("goto play for next(me)", "n = distance()") + "var n = 0\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:9: error: distance() takes 2 arguments, not 0",
        "        n = distance()",
        "            ^")


def test_user_function_given_too_many_arguments():
    text = VALID + "fn double(x) = x * 2\nvar n = 0\ndef bump() {\n  n = double(1, 2)\n}\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:15:7: error: function 'double' takes 1 argument, not 2",
        "      n = double(1, 2)",
        "          ^")


def test_procedure_given_too_many_arguments():
    text = VALID.replace("goto play for next(me)", "bump(1)")
    text += "var n = 0\ndef bump() {\n  n += 1\n}\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:5: error: procedure 'bump' takes 0 arguments, not 1",
        "        bump(1)",
        "        ^")


def test_phase_given_too_many_arguments():
    assert message(VALID.replace("goto play for next", "goto play(1) for next"),
                   GdlRuleError) == lines(
        "bad.gdl:9:5: error: phase 'play' takes 0 arguments, not 1",
        "        goto play(1) for next(me)",
        "        ^")


# ----- types ----------------------------------------------------------------------------------

def test_assigning_the_wrong_type():
    text = VALID.replace("goto play for next(me)", "n = true") + "var n = 0\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:9: error: type mismatch: 'n' holds a number, but this is true/false",
        "        n = true",
        "            ^")


def test_number_where_a_seat_is_needed():
    assert message(VALID.replace("for next(me)", "for 3"), GdlRuleError) == lines(
        "bad.gdl:9:19: error: type mismatch: 'for' needs a seat, but this is a number",
        "        goto play for 3",
        "                      ^")


def test_adding_text_to_a_number():
    assert message(VALID + 'var n = 0\nfn f(x) = n + "x"\n', GdlRuleError) == lines(
        "bad.gdl:13:15: error: type mismatch: '+' needs numbers, but this is text",
        '    fn f(x) = n + "x"',
        "                  ^")


def test_condition_that_is_not_true_or_false():
    assert message(VALID.replace("action pass()", "action pass() where 1"),
                   GdlRuleError) == lines(
        "bad.gdl:8:23: error: type mismatch: a 'where' condition needs true/false, but this "
        "is a number",
        "      action pass() where 1 {",
        "                          ^")


def test_builtin_argument_of_the_wrong_type():
    text = VALID.replace("goto play for next(me)", "n = distance(1, @a1)") + "var n = 0\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:9: error: distance(): argument 1 must be a cell, not a number",
        "        n = distance(1, @a1)",
        "            ^")


def test_user_function_used_with_two_types():
    text = VALID.replace("goto play for next(me)", "n = twice(1) + twice(@a1)")
    text += "var n = 0\nfn twice(x) = x\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:9:26: error: type mismatch: argument 1 of 'twice' was a number at its first "
        "use, but this is a cell",
        "        n = twice(1) + twice(@a1)",
        "                             ^")


# ----- duplicates, reachability and other static rules ----------------------------------------

def test_function_defined_twice():
    assert message(VALID + "fn f(x) = 1\nfn f(y) = 2\n", GdlRuleError) == lines(
        "bad.gdl:13:1: error: 'f' is defined twice; the first definition is at line 12",
        "    fn f(y) = 2",
        "    ^")


def test_phase_defined_twice():
    text = VALID + "phase play {\n  action x() {\n    return\n  }\n}\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:12:1: error: 'play' is defined twice; the first definition is at line 7",
        "    phase play {",
        "    ^")


def test_parameter_defined_twice():
    text = "param size = 3\n" + VALID + "param size = 4\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:13:1: error: 'size' is defined twice; the first definition is at line 1",
        "    param size = 4",
        "    ^")


def test_seat_named_twice():
    assert message(VALID.replace("seats a, b", "seats a, a"), GdlRuleError) == lines(
        "bad.gdl:2:10: error: 'a' is defined twice; the first definition is at line 2",
        "    seats a, a",
        "             ^")


def test_action_defined_twice_in_a_phase():
    text = VALID.replace("  action pass() {",
                         "  action pass() {\n    goto play for a\n  }\n  action pass() {")
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:11:3: error: action 'pass' is defined twice in phase 'play'",
        "      action pass() {",
        "      ^")


def test_variable_defined_twice_is_located():
    rendered = message(VALID + "var score = 0\nvar score = 1\n", GdlRuleError).splitlines()
    assert rendered[0].startswith("bad.gdl:13:1: error: 'score' is defined twice")
    assert rendered[1:] == ["    var score = 1", "    ^"]


def test_variable_defined_twice_names_the_first():
    assert message(VALID + "var score = 0\nvar score = 1\n").splitlines()[0] == (
        "bad.gdl:13:1: error: 'score' is defined twice; the first definition is at line 12")


def test_unreachable_phase():
    text = VALID + "phase lonely {\n  action wait() {\n    return\n  }\n}\n"
    assert message(text, GdlRuleError) == lines(
        "bad.gdl:12:1: error: phase 'lonely' can never be reached: no 'goto' or 'call' "
        "from setup leads to it",
        "    phase lonely {",
        "    ^")


def test_phases_that_only_reach_each_other():
    text = VALID + textwrap.dedent("""\
        phase lonely {
          action wait() {
            goto lonelier for a
          }
        }
        phase lonelier {
          action wait() {
            goto lonely for a
          }
        }
        """)
    assert message(text, GdlRuleError).splitlines()[0] == (
        "bad.gdl:12:1: error: phase 'lonely' can never be reached: no 'goto' or 'call' "
        "from setup leads to it")


def test_too_many_seats():
    assert message(VALID.replace("seats a, b", "seats a, b, c, d, e"), GdlRuleError) == lines(
        "bad.gdl:2:1: error: a game has 2 to 4 seats, not 5",
        "    seats a, b, c, d, e",
        "    ^")


def test_missing_setup():
    assert message('game "T"\nseats a, b\nboard square(3, 3)\n', GdlRuleError) == lines(
        "bad.gdl:1:1: error: the rule file has no 'setup' declaration",
        '    game "T"',
        "    ^")


def test_parameter_depending_on_itself():
    assert message(VALID + "param x = y\nparam y = x\n", GdlRuleError) == lines(
        "bad.gdl:13:11: error: parameter 'x' depends on itself",
        "    param y = x",
        "              ^")


# ----- the caret is under the word the message names -----------------------------------------

def _rule_file(name, old, new):
    """A small game of tests/rules/ with one line changed."""
    text = (RULES / name).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_an_unknown_kind_after_create_is_located_at_the_kind(tmp_path):
    bad = tmp_path / "pools.gdl"
    bad.write_text(_rule_file("pools.gdl", "create Squad for blue", "create Pwan for blue"))
    result = gdl("check", str(bad))
    assert result.returncode == 1
    assert result.stderr.splitlines()[:3] == [
        f"{bad}:18:10: error: unknown piece kind 'Pwan'",
        "      create Pwan for blue at @a1",
        "             ^"]


def test_an_unknown_column_after_from_is_located_at_the_column(tmp_path):
    bad = tmp_path / "pools.gdl"
    bad.write_text(_rule_file("pools.gdl", "var piece.models from size",
                              "var piece.models from sise"))
    result = gdl("check", str(bad))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{bad}:14:23: error: the kinds have no column 'sise'",
        "    var piece.models from sise",
        "                          ^",
        "did you mean 'size'?"]


def test_a_second_hide_is_located_at_its_own_start(tmp_path):
    bad = tmp_path / "narration.gdl"
    hide = "hide piece(p) when p.kind == Spy and viewer != p.owner\n"
    bad.write_text(_rule_file("narration.gdl", hide, hide + "hide piece(p) when false\n"))
    result = gdl("check", str(bad))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{bad}:18:1: error: expected one 'hide piece(p) when ...'; the first is at line 17",
        "    hide piece(p) when false",
        "    ^"]


@pytest.mark.parametrize("change, expected", [
    (("board square(3, 3)", "board sqare(3, 3)"), [
        "bad.gdl:3:7: error: unknown board kind 'sqare'",
        "    board sqare(3, 3)",
        "          ^",
        "did you mean 'square'?"]),
    (("goto play for next(me)", "bmp()"), [
        "bad.gdl:9:5: error: unknown procedure 'bmp'",
        "        bmp()",
        "        ^"]),
    (("", "symbols x, y, x\n"), [
        "bad.gdl:12:15: error: 'x' is defined twice; the first definition is at line 12",
        "    symbols x, y, x",
        "                  ^"]),
    (("", "fn f(x, x) = 1\n"), [
        "bad.gdl:12:9: error: parameter 'x' is named twice",
        "    fn f(x, x) = 1",
        "            ^"]),
    (("", "phase q(x, y, x) {\n}\n"), [
        "bad.gdl:12:15: error: parameter 'x' is named twice",
        "    phase q(x, y, x) {",
        "                  ^"]),
    (("", "kinds (speed, owner) {\n  A = 1, 2\n}\n"), [
        "bad.gdl:12:15: error: 'owner' is a built-in piece property and cannot be a table "
        "column",
        "    kinds (speed, owner) {",
        "                  ^"]),
    (("", "hide board(p) when true\n"), [
        "bad.gdl:12:6: error: expected one 'hide piece(p) when ...'",
        "    hide board(p) when true",
        "         ^"]),
    (("goto play for next(me)", "for p in pieces(me) {\n p.cell = @a1\n}"), [
        "bad.gdl:10:4: error: 'cell' of a piece cannot be assigned; use move, place or remove",
        "     p.cell = @a1",
        "       ^"]),
    (("action pass()", "action pass(x in [1], x in [2])"), [
        "bad.gdl:8:25: error: parameter 'x' is named twice",
        "      action pass(x in [1], x in [2]) {",
        "                            ^"]),
    (("", "show piece(p) = \"x\"\nshow piece(q) = \"y\"\n"), [
        "bad.gdl:13:1: error: 'show piece' is declared twice; the first is at line 12",
        "    show piece(q) = \"y\"",
        "    ^"]),
    (("", "kinds (symbol, symbol) {\n  A = \"a\", \"b\"\n}\n"), [
        "bad.gdl:12:16: error: the column 'symbol' is named twice in this table",
        "    kinds (symbol, symbol) {",
        "                   ^"]),
    (("", "kinds (symbol) {\n  A = \"a\", \"b\"\n}\n"), [
        "bad.gdl:13:3: error: kind 'A' has 2 values but the table has 1 column (symbol)",
        "      A = \"a\", \"b\"",
        "      ^"]),
], ids=["board-kind", "procedure", "symbol-twice", "fn-parameter-twice",
        "phase-parameter-twice", "property-column", "hide-what", "piece-property",
        "action-parameter-twice", "show-twice", "column-twice", "values-count"])
def test_the_caret_is_under_the_word_the_message_names(change, expected):
    old, new = change
    text = VALID.replace(old, new) if old else VALID + new
    assert message(text, GdlRuleError) == lines(*expected)


# ----- fuzzing: mutated Space War gives a located GdlError or loads ---------------------------

SOURCE = SPACE_WAR.read_text(encoding="utf-8")
WORDS = sorted(set(re.findall(r"[A-Za-z_]+", SOURCE)))
NOISE = "{}()[],.=+-*/%<>!@#\"\n abcxyz019_\x00\t"


def _mutate_chars(text, rng):
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars))
        op = rng.randrange(4)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, chars[i])
        elif op == 2:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars.insert(i, rng.choice(NOISE))
    return "".join(chars)


def _mutate_lines(text, rng):
    rows = text.split("\n")
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(rows))
        op = rng.randrange(3)
        if op == 0:
            del rows[i]
        elif op == 1:
            rows.insert(i, rows[i])
        else:
            j = rng.randrange(len(rows))
            rows[i], rows[j] = rows[j], rows[i]
    return "\n".join(rows)


def _mutate_words(text, rng):
    tokens = re.split(r"(\W)", text)
    words = [i for i, t in enumerate(tokens) if re.fullmatch(r"[A-Za-z_]+", t)]
    for _ in range(rng.randint(1, 2)):
        tokens[rng.choice(words)] = rng.choice(WORDS)
    return "".join(tokens)


MUTATORS = {"chars": _mutate_chars, "lines": _mutate_lines, "words": _mutate_words}


@pytest.mark.parametrize("kind", sorted(MUTATORS))
def test_mutated_space_war_gives_gdl_errors_only(kind):
    problems = []
    outcomes = {"loaded": 0, "error": 0}
    for seed in range(70):
        text = MUTATORS[kind](SOURCE, random.Random(f"{kind}-{seed}"))
        try:
            load_source(text, "fuzz.gdl")
            outcomes["loaded"] += 1
        except GdlError as err:
            outcomes["error"] += 1
            problem = _badly_located(err, text)
            if problem:
                problems.append(f"seed {seed}: {problem}: {err.message}")
        except Exception as exc:            # noqa: BLE001 - any other type is the failure
            problems.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    assert problems == []
    assert outcomes["error"] > 0


def _badly_located(err, text):
    """Why an error's position does not match the text, or None when it does."""
    rendered = str(err)
    if not rendered.startswith("fuzz.gdl:"):
        return "no file name"
    rows = text.split("\n")
    if err.line is None or not 1 <= err.line <= len(rows):
        return f"line {err.line} is not in the file"
    if err.source_line is None:
        return "no source line"
    clean = "".join(c if c.isprintable() or c == "\t" else "?" for c in rows[err.line - 1])
    if err.source_line not in (rows[err.line - 1], clean):
        return "the source line is not the line named"
    if not 1 <= err.column <= len(err.source_line) + 1:
        return f"column {err.column} is off the line"
    return None


# ----- more bad rule files ---------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("seats a, b\nboard square(1, 1)\nsetup { }\n",
     "setup never enters a phase: end it with 'goto PHASE for SEAT'"),
    ("seats a, b\nboard square(1, 1)\nparam q = [@a1] + [1]\nsetup { goto p for a }\n"
     "phase p { }\n", "type mismatch: cannot join list of a cell with, but this is list "
     "of a number"),
    ("seats a, b\nboard square(1, 1)\nparam q = " + "9" * 5000 + "\n",
     "a number of 5,000 digits is too long to read"),
    ("seats a, b\nboard square(1, 1)\nparam q = " + "-" * 3000 + "1\n", "too deeply"),
    # constants that multiply or join one another stop at the limits, not after hours
    ("seats a, b\nparam a0 = 999999999999999999\n" + "".join(
        f"param a{i} = a{i - 1} * a{i - 1}\n" for i in range(1, 40)),
     "a number of about 37 digits: a constant is at most 1,000,000,000,000,000,000 either "
     "way"),
    ("seats a, b\nparam a0 = [1, 2]\n" + "".join(
        f"param a{i} = a{i - 1} + a{i - 1}\n" for i in range(1, 40)),
     "joining lists of 524288 and 524288 elements: a list holds at most 1,000,000"),
    ("seats a, b\nparam t0 = \"ab\"\n" + "".join(
        f"param t{i} = t{i - 1} + t{i - 1}\n" for i in range(1, 40)),
     "a text of 131,072 characters: a constant text is at most 100,000 long"),
    ("seats a, b\nsetup { goto p for a }\nphase p { action go() { log text(1000000000000 * "
     "1000000000000) } }\n", "a number of about 25 digits: a constant is at most"),
])
def test_more_bad_rule_files_are_gdl_errors(text, message):
    with pytest.raises(GdlError) as info:
        load_source(text, "bad.gdl")
    assert message in info.value.message


def test_a_phase_entered_for_no_seat_is_a_check_error():
    """It stopped the game at run time ("phase 'play' was entered for no seat")."""
    text = 'game "x"\nseats a, b\nsetup {\n  goto play for none\n}\nphase play {\n' \
           '  action go() {\n    win me\n  }\n}\n'
    assert message(text, GdlRuleError) == (
        "bad.gdl:4:17: error: 'play' would be entered for no seat: the seat after 'for' is "
        "always none here (write a seat: me, next(me), a seat's name, a variable set to a "
        "seat)\n      goto play for none\n                    ^")


def test_the_ok_line_shows_a_zero_width_character_in_the_name_escaped(tmp_path):
    from tests.helpers import invoke
    path = tmp_path / "zw.gdl"
    path.write_text(VALID.replace('"T"', '"T\u200b"'), encoding="utf-8")
    done = invoke("check", str(path))
    assert (done.exit_code, done.output) == (0, f"{path}: ok: 'T\\u200b', 2 seats, 1 phase, "
                                                "square board 3x3\n")


@pytest.mark.parametrize("word, quoted", [
    ("x" * 100, "name '" + "x" * 40 + "...'"),
    ("seats a, b\nboard square(1, 1)\n" + "7" * 4_000, "'" + "7" * 40 + "...'"),
])
def test_an_unexpected_long_word_is_quoted_briefly(word, quoted):
    """`gdl check` of a file whose first line is a word of 900,000 letters printed a message
    of 900,000 characters: the word was quoted whole after 'unexpected name'. Now its first
    40 characters and '...', as the source line below it is shortened (and a name that long
    is refused before: test_a_name_longer_than_the_limit_is_refused_at_it)."""
    with pytest.raises(GdlSyntaxError) as info:
        load_source(word + "\n", "bad.gdl")
    assert info.value.message.startswith(f"unexpected {quoted}; expected ")
    assert len(info.value.render()) < 1_000


@pytest.mark.parametrize("body, column", [
    ("setup {\n  goto NAME for a\n}\n", 8),          # unknown phase 'NAME'
    ("setup {\n  NAME = 1\n}\n", 3),
    ("setup {\n  log NAME\n}\n", 7),                # unknown name 'NAME'
])
def test_a_name_longer_than_the_limit_is_refused_at_it(body, column):
    """A name of 50,000 characters was quoted whole by the checker's message about it
    ('unknown phase', 'unknown name', ...): a message of 50,000 characters. Now a name of
    more than 100 characters is refused at it, before parsing; a text or a comment may hold
    a word that long, and a name of 100 characters is a name."""
    head = "seats a, b\nboard square(1, 1)\n"
    with pytest.raises(GdlSyntaxError) as info:
        load_source(head + body.replace("NAME", "x" * 50_000), "bad.gdl")
    assert info.value.render().split("\n")[0] == (
        f"bad.gdl:4:{column}: error: a name of 50,000 characters is too long: a name is at "
        "most 100 characters")
    fine = (head + "# " + "y" * 50_000 + "\nparam t = \"" + "z" * 50_000 + "\"\n"
            + "param " + "w" * 100 + " = 1\nsetup {\n  goto p for a\n}\nphase p {\n"
            "  action x() {\n    win me\n  }\n}\n")
    assert load_source(fine, "fine.gdl").seats == ["a", "b"]
    # a text ending in a backslash: no escape (the grammar's STRING), the next text a text
    slash = fine.replace('param t = "', 'param s = "a\\" + "' + "v" * 120 + '"\nparam t = "')
    assert load_source(slash, "slash.gdl").seats == ["a", "b"]


def test_a_title_longer_than_the_limit_is_refused_at_it():
    """A title of 50,000 characters was accepted and printed whole by every tool (check's
    summary, play's header, the web table's page): at most 200 (limits.MAX_TITLE)."""
    rules = ('game "TITLE"\nseats a, b\nboard square(1, 1)\nsetup {\n  goto p for a\n}\n'
             'phase p {\n  action x() {\n    win me\n  }\n}\n')
    with pytest.raises(GdlRuleError) as info:
        load_source(rules.replace("TITLE", "t" * 50_000), "bad.gdl")
    assert info.value.render().split("\n")[0] == (
        "bad.gdl:1:1: error: a game title of 50,000 characters is too long: a title is at "
        "most 200 characters")
    assert load_source(rules.replace("TITLE", "t" * 200), "fine.gdl").seats == ["a", "b"]
