"""The scenario language itself (section 15 of docs/language.md): what each line checks, what
it refuses, and how failures and errors are reported. The shipped scenarios are run by
tests/test_scenarios.py.

A scenario that passes must mean the rule holds: so every unknown name is an error of its
line (never a pass), fixed dice must be used, and a file that tests nothing is an error."""

from __future__ import annotations


import pytest

from gdl.interpreter.loader import load_game
from gdl.interpreter.play.scenarios.runner import run_scenario, run_scenarios
from gdl.interpreter.language.errors import IllegalAction


from tests.helpers import ROOT, gdl
SPACE_WAR = ROOT / "games" / "space_war.gdl"
GALAXY_OF_D = ROOT / "games" / "galaxy_of_d.gdl"
DICE = ROOT / "tests" / "rules" / "dice.gdl"

# Space War, blue to play: Fighter#1 (blue) on b4, Fighter#2 (red) on a12. Lines 2 to 7.
POSITION = """\
clear
piece Station blue a2
piece Station red h11
piece Fighter blue b4
piece Fighter red a12
phase play for blue
"""

# Galaxy of D, two to move: of one's stack on e5 two sees the top ship (one:Interceptor#4) only.
STACK = """\
clear
piece Starbase one c3
piece Starbase two g7
piece Cruiser one e5
piece Freighter one e5 cargo=true
piece Interceptor one e5
piece Destroyer two g7
phase movement for two
"""


def write(tmp_path, text, rules=SPACE_WAR, name="test.scenario"):
    path = tmp_path / name
    path.write_text(f"rules {rules}\n{text}", encoding="utf-8")
    return path


def failures(tmp_path, text, rules=SPACE_WAR):
    """The failures of a scenario, with its path shortened to 'S'."""
    path = write(tmp_path, text, rules)
    return [f.replace(str(path), "S") for f in run_scenario(str(path))]


def error(tmp_path, text, rules=SPACE_WAR):
    """The first line of the one failure, an error, of a scenario."""
    found = failures(tmp_path, text, rules)
    assert len(found) == 1, found
    return found[0].split("\n")[0]


SHOWN_TEXT_FORM = ("expected 'expect view of SEAT shows WHAT == \"TEXT\"' (or 'contains "
                   "\"TEXT\"'), WHAT being status of LABEL, seat text of SEAT or game text, the "
                   "text in double quotes")


# ----- unknown names are errors, never passes ----------------------------------------------
@pytest.mark.parametrize("line, message", [
    ("expect illegal move Fighter#1 zz99",
     "'move Fighter#1 zz99' is not an action of the game: 'zz99' is not a cell"),
    ("expect illegal move Fighter#99 c4",
     "'move Fighter#99 c4' is not an action of the game: 'Fighter#99' is not a piece; "
     "did you mean 'Fighter#2'?"),
    ("expect illegal mvoe Fighter#1 c4",
     "'mvoe Fighter#1 c4' is not an action of the game: there is no action 'mvoe' in phase "
     "'play'; actions here: move, fire, end, offer_draw; did you mean 'move'?"),
    ("expect illegal move Fighter#1",
     "'move Fighter#1' is not an action of the game: 'move' takes 2 arguments (p, to), not 1; "
     "27 legal now, e.g. 'move Station#1 a3'"),
    ("expect illegal side west",
     "'side west' is not an action of the game: there is no action 'side' in phase 'play'; "
     "actions here: move, fire, end, offer_draw"),
    ("expect legal move Fighter#1 zz99",
     "'move Fighter#1 zz99' is not an action of the game: 'zz99' is not a cell"),
    ("play move Fighter#1 zz99",
     "'move Fighter#1 zz99' is not an action of the game: 'zz99' is not a cell"),
    ("piece Fightr blue c4", "unknown piece kind 'Fightr'; did you mean 'Fighter'?"),
    ("piece Fighter bleu c4", "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("piece Fighter blue zz99", "'zz99' is not a cell of the board"),
    ("set Fighter#1.damag = 1", "unknown piece variable 'damag'; did you mean 'damage'?"),
    ("set blue.moves = 1", "unknown seat variable 'moves'; did you mean 'moved'?"),
    ("set turn_number = 3", "the turn number is set with 'turn N'"),
    ("turn 1000000000000000000",       # it said "with N a number, not '1000000000000000000'"
     "a turn number is at most 999,999,999,999,999,999, not 1000000000000000000"),
    ("phase pley for blue", "unknown phase 'pley'; did you mean 'play'?"),
    ("concede bleu", "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect phase pley", "unknown phase 'pley'; did you mean 'play'?"),
    ("expect phase play for bleu", "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect winner bleu", "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect Fighter#9 at c4", "no piece labelled Fighter#9; did you mean 'Fighter#2'?"),
    ("expect Fighter#1 at zz99", "'zz99' is not a cell of the board"),
    ("expect Fighter#9 removed", "no piece labelled Fighter#9; did you mean 'Fighter#2'?"),
    ("expect Fighter#1 removed at zz99", "'zz99' is not a cell of the board"),
    ("expect Fighter#9.damage == 0", "no piece labelled Fighter#9; did you mean 'Fighter#2'?"),
    ("expect legal count 3 mvoe", "unknown action 'mvoe'; did you mean 'move'?"),
    ("expect legal count 3 for Fighter#9",
     "no piece labelled Fighter#9; did you mean 'Fighter#2'?"),
    ("expect no legal mvoe for Fighter#1", "unknown action 'mvoe'; did you mean 'move'?"),
    ("expect legal actions move: move Fighter#1 zz99",
     "'move Fighter#1 zz99' is not an action of the game: 'zz99' is not a cell"),
    ("expect view of bleu shows blue.moved",
     "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect view of red shows blue.moves", "unknown seat variable 'moves'; did you mean 'moved'?"),
    ("expect view of red shows count Fightr == 1",
     "unknown piece kind 'Fightr'; did you mean 'Fighter'?"),
    ("expct playing", "unknown instruction 'expct'; expected clear, concede, expect, phase, "
     "pick, piece, play, reset, roll, rules, seed, set, shuffle, turn; did you mean "
     "'expect'?"),
    ("roll 6 99", "a d6 shows 1 to 6, not 99"),
    ("roll 0 5", "a die has at least 1 side, not 0"),
    ("roll 6 0", "a d6 shows 1 to 6, not 0"),
    ("roll 6 9999999999999999999999", "expected 'roll SIDES VALUE' or 'roll any VALUE'"),
    ('expect illegal end because "moved',
     "expected 'because \"TEXT\"': the reason in double quotes, closed on the same line"),
    ('expect legal end because "moved"', "'because \"TEXT\"' goes with 'expect illegal'"),
    ('expect view of bleu shows status of Fighter#1 == ""',
     "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ('expect view of red shows status of Fighter#9 == ""',
     "no piece labelled Fighter#9; did you mean 'Fighter#2'?"),
    ('expect view of red shows seat text of bleu == ""',
     "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect view of red shows status of Fighter#1 == 1 hit", SHOWN_TEXT_FORM),
    ('expect view of red shows status of Fighter#1 == "1 hit', SHOWN_TEXT_FORM),
    ('expect view of red shows game text is "x"', SHOWN_TEXT_FORM),
    ('expect view of red shows seat text == "x"', SHOWN_TEXT_FORM),
    ("expect view of red hides status of Fighter#1", SHOWN_TEXT_FORM),
    ("expect score of bleu == 3", "unknown seat 'bleu'; seats: blue, red; did you mean 'blue'?"),
    ("expect score of blue = 3", "expected 'expect score of SEAT == N' (or !=, <, <=, >, >= N)"),
    ("expect score of blue == many",
     "expected 'expect score of SEAT == N' (or !=, <, <=, >, >= N)"),
])
def test_an_unknown_name_is_an_error_of_its_line(tmp_path, line, message):
    assert error(tmp_path, POSITION + line + "\nexpect playing\n") == f"S:8:1: error: {message}"


LONG = "x" * 100_000
SHORT = "x" * 40 + "..."


@pytest.mark.parametrize("line, message", [
    (LONG, f"unknown instruction '{SHORT}'; expected clear, "),
    (f"play {LONG}", f"'{SHORT}' is not an action of the game: there is no action '{SHORT}'"),
    (f"expect illegal move {LONG} c4", f"'move {'x' * 35}...' is not an action of the game: "
     f"'{SHORT}' is not a piece"),
    (f"expect view of {LONG} shows status of Fighter#1 == \"\"", f"unknown seat '{SHORT}'"),
    (f"turn {LONG}", f"expected 'turn N' with N a number, not '{SHORT}'"),
])
def test_a_long_word_is_quoted_briefly(tmp_path, line, message):
    """A scenario line with a word of 100,000 characters was quoted whole in its error
    (the source line under it was shortened); now the word's first 40 characters."""
    told = error(tmp_path, POSITION + line + "\nexpect playing\n")
    assert told.startswith(f"S:8:1: error: {message}") and len(told) < 400, told[:400]


NEEDS_VALUE = "the piece variable 'damage' needs a value: write damage=VALUE"


@pytest.mark.parametrize("line, column, message", [
    ("piece Fighter blue c4 damage", 29, NEEDS_VALUE),
    ("piece Fighter blue c4 damage=", 30, NEEDS_VALUE),
    ("piece Fighter blue c4 damage= has_moved=true", 30, NEEDS_VALUE),
    ("piece Fighter blue c4 damage==3", 29, "'==' compares; a piece variable is given its "
     "value with one '=': damage=VALUE"),    # it was "not 'damage==3'; did you mean 'damage'?"
    ("piece Fighter blue c4 damage == 3", 30, "'==' compares; a piece variable is given its "
     "value with one '=': damage=VALUE"),
    ("piece Fighter blue c4 damag=1", 23, "unknown piece variable 'damag'; did you mean "
     "'damage'?"),
    ("piece Fighter blue c4 damag", 23, "expected VARIABLE=VALUE after the cell, not 'damag'; "
     "did you mean 'damage'?"),
    ("piece Fighter blue c4 1 damage=1", 23, "expected VARIABLE=VALUE after the cell, not '1'"),
    ("piece Fighter blue c4 damage=1 2", 30, "bad expression '1 2': unexpected '2'; expected "
     "'!=', '%', '*', '+', '-', '.', '/', '<', ..."),
    ("piece Fighter blue c4 damage=3=4", 30, "bad expression '3=4': unexpected '='; expected "
     "'!=', '%', '*', '+', '-', '.', '/', '<', ..."),      # '3=' names no variable
    ("piece Fighter blue c4 damage=3 =", 30, "bad expression '3 =': unexpected '='; expected "
     "'!=', '%', '*', '+', '-', '.', '/', '<', ..."),
])
def test_a_piece_line_sets_its_variables_as_var_equals_value(tmp_path, line, column, message):
    """A variable written without '=VALUE' is told so, with the caret where the value is
    missing (it was 'bad expression '': the file ended unexpectedly', at column 1), and a
    value that is no expression at the value."""
    assert failures(tmp_path, POSITION + line + "\nexpect playing\n") == [
        f"S:8:{column}: error: {message}\n    {line}\n    {' ' * (column - 1)}^"]


@pytest.mark.parametrize("values", [
    "damage=1 + 2 has_moved=true", "damage = 3 has_moved = 1 == 1",
    "has_moved=3 == 3 damage=if true then 3 else 0  # a comment"])
def test_a_piece_value_may_be_an_expression_with_spaces(tmp_path, values):
    """A value runs to the next VARIABLE= (a comparison's '==' is none): 'damage=1 + 2'
    (it was 'expected VARIABLE=VALUE after the cell (one word, no spaces), not '+''."""
    text = POSITION + f"piece Fighter blue c4 {values}\nexpect Fighter#3.damage == 3\n" \
        "expect Fighter#3.has_moved\n"
    assert failures(tmp_path, text) == []


def test_a_quoted_piece_value_may_hold_an_equals_sign(tmp_path):
    rules = tmp_path / "notes.gdl"
    rules.write_text('seats a, b\nboard square(3, 3)\nkinds (symbol) { Pawn = "p" }\n'
                     'var piece.note = ""\nvar piece.n = 0\nsetup { goto p for a }\n'
                     "phase p { action x() {} }\n")
    text = ('clear\npiece Pawn a a1 note="n=1 + 2" n=2\nexpect Pawn#1.note == "n=1 + 2"\n'
            "expect Pawn#1.n == 2\n")
    assert failures(tmp_path, text, rules) == []


@pytest.mark.parametrize("line", [
    "expect illegal move Fighter#1 c11",        # well formed, too far
    "expect illegal move Fighter#2 a11",        # red's fighter, blue to play
    "expect illegal side south",                # an action of another phase
    "expect illegal end because \"moved\"",
])
def test_illegal_passes_for_a_well_formed_action_a_rule_refuses(tmp_path, line):
    assert failures(tmp_path, POSITION + line + "\n") == []


def test_the_engine_says_whether_a_text_is_an_action_at_all():
    game = load_game(str(SPACE_WAR))
    state = game.new_state(0)
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(state, "side up")
    assert refused.value.malformed and refused.value.unknown == ("up", "symbol")
    assert refused.value.message == "up is not a possible 's' now (not in [south, north])"
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(state, "station a1")      # well formed, another phase
    assert not refused.value.malformed and refused.value.unknown is None
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(state, "Wrap a1")
    assert refused.value.unknown == ("Wrap", "action")


def test_an_error_keeps_the_failures_before_it(tmp_path):
    found = failures(tmp_path, POSITION + (
        "expect Fighter#1 at c5\n"                  # 8: fails
        "expect illegal move Fighter#1 zz99\n"      # 9: an error, ends the scenario
        "expect Fighter#1 at c6\n"))                # 10: not run
    assert [f.split("\n")[0] for f in found] == [
        "S:8: expected Fighter#1 at c5, got at b4",
        "S:9:1: error: 'move Fighter#1 zz99' is not an action of the game: 'zz99' is not a "
        "cell",
    ]


# ----- files that test nothing ----------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("", "S:1:1: error: this scenario has no 'rules FILE' line"),
    ("# only a comment\n", "S:1:1: error: this scenario has no 'rules FILE' line"),
    (f"rules {SPACE_WAR}\n", "S:1:1: error: this scenario has no 'expect' line, so it tests "
     "nothing"),
    (f"rules {SPACE_WAR}\nplay side south\n", "S:1:1: error: this scenario has no 'expect' "
     "line, so it tests nothing"),
    (f"rules {SPACE_WAR}\nexpect playing\nreset\n", "S:3:1: error: this scenario has no "
     "'expect' line, so it tests nothing"),
])
def test_a_scenario_that_tests_nothing_is_an_error(tmp_path, text, message):
    path = tmp_path / "empty.scenario"
    path.write_text(text, encoding="utf-8")
    found = [f.replace(str(path), "S").split("\n")[0] for f in run_scenario(str(path))]
    assert found == [message]
    result = gdl("test", str(path))
    assert result.returncode == 1
    assert " passed, 1 failed" in result.stdout


# ----- dice -----------------------------------------------------------------------------------
def test_fixed_rolls_are_used_in_order(tmp_path):
    assert failures(tmp_path, (
        "roll 6 5\nroll any 3\nroll 20 20\n"
        "play d6\nexpect rolls == [5]\nexpect rolled 1 d6\n"
        "play die 4\nexpect last == 3\n"
        "play d20x3\nexpect rolled 3 d20\nexpect total > 20\n"), DICE) == []


def test_an_unused_roll_fails_naming_its_line(tmp_path):
    found = failures(tmp_path, (
        "roll 6 5\n"                # 2: used
        "roll 6 2\n"                # 3: never
        "play d6\nexpect rolls == [5]\n"
        "reset\n"                   # 6: the next scenario; the roll of line 3 is reported
        "roll any 1\n"              # 7: never
        "expect rolled no dice\n"), DICE)
    assert found == ["S:3: expected 'roll 6 2' to be used, got no d6 rolled after it",
                     "S:7: expected 'roll any 1' to be used, got no die rolled after it"]


def test_a_die_of_another_size_fails_the_roll_line_and_stops(tmp_path):
    found = failures(tmp_path, (
        "roll 6 4\n"                # 2: waits for a d6...
        "play die 4\n"              # 3: ...but a d4 comes first
        "expect last == 4\n"), DICE)
    assert found == ["S:2: expected the next die to be a d6 (roll 6 4), got a d4 rolled "
                     "first, by line 3"]


def test_rolled_counts_the_dice_of_the_last_play(tmp_path):
    found = failures(tmp_path, (
        "roll 20 1\nroll 20 2\nroll 20 3\n"
        "play d20x3\n"
        "expect rolled 3 d20\n"         # 6
        "expect rolled 2 d20, 1 d6\n"   # 7
        "expect rolled no dice\n"       # 8
        "play mix\n"
        "expect rolled no dice\n"), DICE)   # a shuffle rolls no die
    assert found == ["S:7: expected rolled 2 d20, 1 d6, got 3 d20 (1, 2, 3)",
                     "S:8: expected rolled no dice, got 3 d20 (1, 2, 3)"]


@pytest.mark.parametrize("seed", ["18446744073709551616", "-1", "1e3"])
def test_a_seed_is_any_seed_a_command_takes(tmp_path, seed):
    assert run_scenario(str(write(tmp_path, "seed 18446744073709551615\nexpect playing\n"))) == []
    assert error(tmp_path, f"seed {seed}\nexpect playing\n") == (
        f"S:2:1: error: a seed is a number from 0 to 18446744073709551615, not '{seed}'")


# ----- several scenarios in one file ------------------------------------------------------------
def test_each_reset_starts_a_fresh_game_reported_apart(tmp_path):
    path = write(tmp_path, (
        "play side south\n"                 # 2
        "expect phase deploy for blue\n"    # 3
        "reset\n"                           # 4: a fresh game of the same rules
        "expect phase choose_side for red\n"
        "expect red.home == north\n"        # 6: fails
        "reset   # the third\n"             # 7
        "seed 3\n"
        "expect phase choose_side\n"))
    outcomes = run_scenarios(str(path))
    assert [(o.line, len(o.failures)) for o in outcomes] == [(1, 0), (4, 1), (7, 0)]
    assert outcomes[1].failures[0].startswith(f"{path}:6: expected red.home == north")
    result = gdl("test", str(path))
    assert result.returncode == 1
    assert "2 passed, 1 failed" in result.stdout


def test_a_second_rules_line_in_a_scenario_is_an_error_naming_the_first(tmp_path):
    assert error(tmp_path, f"# another\nrules {GALAXY_OF_D}\nexpect playing\n") == (
        "S:3:1: error: 'rules' is declared twice in this scenario; the first is at line 1")
    assert error(tmp_path, f"reset\nrules {GALAXY_OF_D}\nexpect playing\n") == (
        "S:3:1: error: 'rules' is declared twice in this scenario; the first is at line 1")
    path = write(tmp_path, f"expect phase choose_side\nreset\nrules {GALAXY_OF_D}\n"
                           "expect playing\n")     # after a reset: the next scenario's own
    assert run_scenario(str(path)) == []


def test_a_failure_on_rules_an_earlier_scenario_named_says_so(tmp_path):
    """A `rules` line holds for the scenarios after it: a failing scenario without its own,
    playing another scenario's rules (not the file's first), is told which and where."""
    path = write(tmp_path, (
        "expect phase choose_side\n"
        f"reset\nrules {GALAXY_OF_D}\nexpect playing\n"     # 3: Galaxy of D from here
        "reset\nexpect phase choose_side\n"))             # 6: meant for Space War, fails
    found = [f.replace(str(path), "S") for f in run_scenario(str(path))]
    assert found[0].startswith("S:7:1: error: unknown phase 'choose_side'")
    assert found[1:] == [
        f"S:6: note: this scenario has no 'rules' line, so it plays {GALAXY_OF_D}, of line 4 "
        "in an earlier scenario (a 'rules' line holds for the scenarios after it; "
        "docs/language.md 15.5)"]
    passing = write(tmp_path, f"expect phase choose_side\nreset\nrules {GALAXY_OF_D}\n"
                              "expect playing\nreset\nexpect playing\n")     # no note
    assert run_scenario(str(passing)) == []
    header = write(tmp_path, "reset\nexpect phase deploy\n")     # the file's first rules
    assert [f.replace(str(header), "S") for f in run_scenario(str(header))] == [
        "S:3: expected phase deploy, got phase choose_side for red"]


def test_a_rules_line_without_a_file_says_what_it_needs(tmp_path):
    """(It read the scenario's own folder: "cannot read .: Is a directory".)"""
    path = tmp_path / "test.scenario"
    path.write_text("rules   # the file is missing\nexpect playing\n")
    assert [f.split("\n")[0] for f in run_scenario(str(path))] == [
        f"{path}:1:1: error: expected 'rules FILE': the rule file, relative to this scenario"]


def test_a_header_of_rules_is_shared_by_the_scenarios_after_it(tmp_path):
    path = write(tmp_path, "# the rule file for all\nreset\nexpect playing\nreset\n"
                           "expect phase choose_side for red\n")
    assert [o.line for o in run_scenarios(str(path))] == [3, 5]
    assert run_scenario(str(path)) == []


# ----- legal actions --------------------------------------------------------------------------
STATION_MOVES = ("move Station#1 a3, move Station#1 a4, move Station#1 b3, move Station#1 c4, "
                 "move Station#1 b2, move Station#1 c2, move Station#1 b1, move Station#1 a1")


def test_legal_count_and_actions(tmp_path):
    assert failures(tmp_path, POSITION + (
        "expect legal count 27\n"                   # 8 station moves, 19 fighter moves
        "expect legal count 8 move for Station#1\n"
        "expect legal count 19 for Fighter#1\n"
        "expect no legal fire\n"                    # nothing in range
        "expect no legal end\n"                     # nothing has moved yet
        "expect no legal action for Fighter#2\n"    # red's
        f"expect legal actions for Station#1: {STATION_MOVES}\n"
        f"expect legal actions move for Station#1: MOVE station#1 A3, {STATION_MOVES[19:]}\n"
        "play move Fighter#1 b8\n"                  # lost in the star at b6
        "expect no legal move for Fighter#1\n"
        "expect legal actions end: end\n"
        f"expect legal actions: {STATION_MOVES}, end\n")) == []  # no name: every action


def test_legal_count_and_actions_failures_list_what_is_legal(tmp_path):
    found = failures(tmp_path, POSITION + (
        "expect legal count 26\n"                                       # 8
        "expect no legal move for Station#1\n"                          # 9
        "expect legal actions move for Station#1: move Station#1 a3, move Station#1 a9, "
        "end\n"))                                                       # 10
    assert found == [
        "S:8: expected legal count 26, got 27: move Station#1 a3, move Station#1 a4, "
        "move Station#1 b3, move Station#1 c4, move Station#1 b2, move Station#1 c2, "
        "move Station#1 b1, move Station#1 a1, move Fighter#1 b5, move Fighter#1 b6, ... "
        "(17 more)",
        f"S:9: expected no legal move for Station#1, got 8: {STATION_MOVES}",
        "S:10: expected legal actions move for Station#1: move Station#1 a3, "
        "move Station#1 a9, end, got " + STATION_MOVES + " (missing move Station#1 a9 "
        "(illegal: a9 is not a possible 'to' now (not in reach(p.cell, speed(p), holes))), "
        "end (illegal: the rule 'me.moved > 0' does not hold); not expected "
        + STATION_MOVES[19:] + ")",
    ]


# ----- views ----------------------------------------------------------------------------------
def test_view_shows_and_hides(tmp_path):
    assert failures(tmp_path, STACK + (
        "expect view of two hides one:Cruiser#2\n"
        "expect view of two hides one:Cruiser#2.kind\n"
        "expect view of two hides one:Freighter#3.cargo\n"
        "expect view of two shows one:Cruiser#2.cell == e5\n"       # an unnamed piece is there
        "expect view of two shows one:Interceptor#4\n"
        "expect view of two shows one:Interceptor#4.kind == Interceptor\n"
        "expect view of two shows count hidden of one == 2\n"
        "expect view of two shows count Cruiser == 0\n"
        "expect view of one shows count Cruiser == 1\n"
        "expect view of one shows one:Freighter#3.cargo == true\n"
        "expect view of two hides one.order\n"
        "expect view of one shows one.order == []\n"), GALAXY_OF_D) == []


def test_view_failures_say_what_the_seat_sees(tmp_path):
    found = failures(tmp_path, STACK + (
        "expect view of two shows one:Cruiser#2.kind == Cruiser\n"     # 10
        "expect view of two hides one:Interceptor#4\n"                 # 11
        "expect view of two hides one:Interceptor#4.kind\n"            # 12
        "expect view of two shows count pieces of one == 1\n"      # 13
        "expect view of two shows one.money == 99\n"), GALAXY_OF_D)
    assert found == [
        "S:10: expected view of two shows one:Cruiser#2.kind == Cruiser, got one:Cruiser#2.kind hidden",
        "S:11: expected view of two hides one:Interceptor#4, got one:Interceptor#4 shown",
        "S:12: expected view of two hides one:Interceptor#4.kind, got one:Interceptor#4.kind = "
        "Interceptor",
        "S:13: expected view of two shows count pieces of one == 1, got count pieces of one "
        "= 4",
        "S:14: expected view of two shows one.money == 99, got one.money = 0",
    ]


# ----- the rule file's texts and scores -------------------------------------------------------
def test_shown_texts_and_scores_hold(tmp_path):
    assert failures(tmp_path, POSITION + (
        "set Fighter#2.damage = 1\n"
        'expect view of blue shows status of Fighter#2 == "1 hit"\n'
        'expect view of red shows status of fighter#2 contains "hit"\n'     # any case of label
        'expect view of red shows status of Fighter#1 == ""\n'
        'expect view of red shows seat text of blue == "south side, 1 fighter"\n'
        'expect view of blue shows seat text of red contains "1 fighter"\n'
        'expect view of blue shows game text == ""\n'
        'expect view of blue shows game text contains ""\n'
        "expect score of blue == 15\n"        # station 3 + 10, fighter 2
        "expect score of red == 14\n"         # its fighter hit once
        "expect score of red != 15\n"
        "expect score of red < 15\n"
        "expect score of red <= 14\n"
        "expect score of blue > 14\n"
        "expect score of blue >= 15\n"
        "expect score of blue>-1\n")) == []


def test_shown_text_and_score_failures_say_what_is_shown(tmp_path):
    found = failures(tmp_path, POSITION + (
        "set Fighter#2.damage = 1\n"                                          # 8
        'expect view of red shows status of Fighter#2 == "2 hits"\n'          # 9
        'expect view of red shows status of Fighter#2 == "1 Hit"\n'           # 10: exact
        'expect view of red shows status of Fighter#1 contains "hit"\n'       # 11
        'expect view of red shows seat text of blue == "north side"\n'        # 12
        'expect view of red shows seat text of blue contains "2 fighters"\n'  # 13
        'expect view of red shows game text == "round 1"\n'                   # 14
        'expect view of red shows game text contains "round"\n'               # 15
        "expect score of blue == 14\n"                                        # 16
        "expect score of red != 14\n"
        "expect score of red < 14\n"
        "expect score of red <= 13\n"
        "expect score of blue > 15\n"
        "expect score of blue >= 16\n"                                        # 21
        "play move Fighter#1 b8\n"                                            # lost in a star
        'expect view of red shows status of Fighter#1 == ""\n'))              # 23
    assert found == [
        'S:9: expected view of red shows status of Fighter#2 == "2 hits", got "1 hit"',
        'S:10: expected view of red shows status of Fighter#2 == "1 Hit", got "1 hit"',
        'S:11: expected view of red shows status of Fighter#1 contains "hit", got ""',
        'S:12: expected view of red shows seat text of blue == "north side", got "south side, '
        '1 fighter"',
        'S:13: expected view of red shows seat text of blue contains "2 fighters", got "south '
        'side, 1 fighter"',
        'S:14: expected view of red shows game text == "round 1", got ""',
        'S:15: expected view of red shows game text contains "round", got ""',
        "S:16: expected score of blue == 14, got 15",
        "S:17: expected score of red != 14, got 14",
        "S:18: expected score of red < 14, got 14",
        "S:19: expected score of red <= 13, got 14",
        "S:20: expected score of blue > 15, got 15",
        "S:21: expected score of blue >= 16, got 15",
        'S:23: expected view of red shows status of Fighter#1 == "", got Fighter#1 removed (in '
        'no view)',
    ]


def test_shown_texts_are_the_viewing_seats(tmp_path):
    found = failures(tmp_path, STACK + (
        'expect view of one shows status of one:Freighter#3 == "carrying cargo"\n'   # 10
        'expect view of two shows status of one:Freighter#3 == "carrying cargo"\n'   # 11: hidden
        'expect view of two shows status of one:Starbase#1 == "armor 20"\n'
        "play move two:Destroyer#2 g8\n"
        'expect view of two shows game text contains "moving two:Destroyer#2"\n'
        'expect view of one shows game text contains "moving"\n'), GALAXY_OF_D)     # 15
    assert found == [
        'S:11: expected view of two shows status of one:Freighter#3 == "carrying cargo", got '
        'one:Freighter#3 hidden',
        'S:15: expected view of one shows game text contains "moving", got "one plays first, '
        'cargo price 16"',
    ]


@pytest.mark.parametrize("line, message", [
    ('expect view of a shows status of Pawn#1 == ""', "the rule file has no 'show status(p) = "
     "...', so no piece has a status to expect"),
    ('expect view of a shows seat text of b == ""', "the rule file has no 'show seat(s) = "
     "...', so no seat has a text to expect"),
    ('expect view of b shows game text contains "round"', "the rule file has no 'show "
     "game(s) = ...', so the game has no text to expect"),
    ("expect score of a >= 0", "the rule file has no 'show score(s) = ...', so no seat has a "
     "score to expect"),
])
def test_a_text_the_rule_file_does_not_show_is_an_error(tmp_path, line, message):
    assert error(tmp_path, line + "\n", DICE) == f"S:2:1: error: {message}"


# ----- pieces -------------------------------------------------------------------------------
def test_a_removed_piece_keeps_its_last_cell(tmp_path):
    found = failures(tmp_path, POSITION + (
        "play move Fighter#1 b8\n"          # 8: through the star at b6
        "expect Fighter#1 removed at b6\n"
        "expect Fighter#1 removed\n"
        "expect Fighter#1 removed at b8\n"  # 11
        "expect Fighter#2 removed at a12\n"  # 12
        "expect Fighter#1 at b8\n"))        # 13
    assert found == ["S:11: expected Fighter#1 removed at b8, got removed at b6",
                     "S:12: expected Fighter#2 removed at a12, got it is at a12",
                     "S:13: expected Fighter#1 at b8, got removed at b6"]


# ----- the turn number -------------------------------------------------------------------------
def test_a_result_after_a_phase_that_started_no_turn_is_an_error(tmp_path):
    text = ("clear\npiece Station blue a2\npiece Fighter blue b4\n"
            "phase deploy for blue\n"       # 5: not a turn phase: turn_number stays 0
            "expect playing\n")
    assert error(tmp_path, text) == (
        "S:6:1: error: the end rules have not run: no turn has started (turn_number is 0), "
        "as line 5 entered 'deploy', which is not a turn phase; write 'turn 1' (or enter a "
        "turn phase) before that line")
    assert failures(tmp_path, "turn 1\n" + text) == []


def test_turn_sets_the_turn_number(tmp_path):
    assert failures(tmp_path, POSITION + "expect turn_number == 1\nturn 7\n"
                                         "expect turn_number == 7\n") == []


def test_a_play_line_after_rules_that_did_not_load_is_an_error_not_a_crash(tmp_path):
    bad = tmp_path / "bad.gdl"
    bad.write_text("seats a, b\nboard square(2, 2)\nsetup { goto p for a\n")
    path = tmp_path / "s.scenario"
    path.write_text(f"rules {bad}\n\nreset\nplay go\nexpect a == a\n\nreset\nplay go\n"
                    "expect a == a\n")
    found = [f.replace(str(tmp_path), "T").split("\n")[0] for f in run_scenario(str(path))]
    assert len(found) == 2 and found[0].startswith("T/s.scenario:1:1: error: ")
    assert found[1] == "T/s.scenario:8:1: error: the rules of line 1 did not load"


def test_after_later_rules_that_did_not_load_the_next_scenario_is_an_error(tmp_path):
    """A scenario after a `rules` line whose file did not load has those rules (the last
    `rules` line's): it stops at its first line that needs them, never running quietly on
    the rules of an earlier `rules` line."""
    bad = tmp_path / "bad.gdl"
    bad.write_text("seats a, b\nboard square(2, 2)\nsetup { goto p for a\n")
    path = tmp_path / "s.scenario"
    path.write_text(f"rules {SPACE_WAR}\nexpect phase choose_side\n"
                    f"reset\nrules {bad}\nexpect phase choose_side\n"
                    "reset\nexpect phase choose_side\n"
                    f"reset\nrules {SPACE_WAR}\nexpect phase choose_side\n")
    outcomes = run_scenarios(str(path))
    assert [len(outcome.failures) for outcome in outcomes] == [0, 1, 1, 0]
    assert outcomes[1].failures[0].startswith(f"{path}:4:1: error: ")
    assert outcomes[2].failures[0].split("\n")[0] == (
        f"{path}:7:1: error: the rules of line 4 did not load")
    assert gdl("test", str(path)).stdout == "2 passed, 2 failed\n"


@pytest.mark.parametrize("line", ["concede blue", "piece Fighter blue a1",
                                  "expect blue.moved == 0"])
def test_a_line_before_any_rules_is_an_error_not_a_crash(tmp_path, line):
    path = tmp_path / "s.scenario"
    path.write_text(f"{line}\nexpect 1 == 1\n")
    result = gdl("test", str(path))
    assert result.stderr.split("\n")[0] == (
        f"{path}:1:1: error: no 'rules FILE' line before this one")
    assert result.returncode == 1 and "Traceback" not in result.stderr


def test_a_run_time_error_of_an_expect_expression_is_of_its_line_alone(tmp_path):
    """The expression is compiled alone, so its own place is its line 1: never told as
    `(at S:1)` beside the line it is on."""
    assert error(tmp_path, POSITION + "expect 1 / 0 == 1\n") == (
        "S:8:1: error: run-time error: division by zero")


def test_an_error_of_the_rule_file_keeps_its_line_and_column(tmp_path):
    rules = tmp_path / "v.gdl"
    rules.write_text(f'extends "{SPACE_WAR}"\nfn speed(p) = p.speed / 0\n')
    assert error(tmp_path, POSITION + "play move Fighter#1 b5\nexpect playing\n", rules) == (
        f"S:8:1: error: run-time error: division by zero (at {rules}:2:15)")



@pytest.mark.parametrize("name, content, message", [
    ("v.gdl", b'extends "x.gdl"\n', "{p} is a rule file, not a scenario: a scenario "
     "(*.scenario) names its rule file on a 'rules' line (check a rule file with 'gdl check')"),
    ("none.scenario", None, "cannot read scenario {p}: No such file or directory"),
    # (a missing file named *.gdl was said to be a rule file)
    ("none.gdl", None, "cannot read scenario {p}: No such file or directory"),
    ("bad.scenario", b"rules \xff\n", "cannot read scenario {p}: byte 0xff is not UTF-8"),
])
def test_a_file_that_is_no_scenario_is_one_plain_error(tmp_path, name, content, message):
    """(A rule file was read as a scenario: "unknown instruction 'extends'"; a missing file
    said "[Errno 2] ...: 'none.scenario'", and bytes not UTF-8 Python's codec words.)"""
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    result = gdl("test", str(path))
    assert result.returncode == 1
    assert result.stderr == "error: " + message.format(p=path) + "\n"



@pytest.mark.parametrize("line, column, message", [
    ("set blue.moved = \"two\"", 1,
     "bad expression '\"two\"': type mismatch: this needs a number, but this is text"),
    ("set Fighter#1.parked = 3", 1,
     "bad expression '3': type mismatch: this needs true/false, but this is a number"),
    ("piece Fighter blue c4 damage=true", 30,        # at the value
     "bad expression 'true': type mismatch: this needs a number, but this is true/false"),
])
def test_a_value_of_another_type_than_its_variable_is_an_error_of_its_line(tmp_path, line,
                                                                            column, message):
    """(It was stored as it was, and a rule reading it later failed: 'this cannot be
    computed with these values', at the rule's line.)"""
    assert error(tmp_path, POSITION + line + "\nexpect playing\n") == \
        f"S:8:{column}: error: {message}"


PAYOFF = ROOT / "tests" / "rules" / "payoff.gdl"


def test_returns_at_the_end_are_the_payoffs(tmp_path):
    assert failures(tmp_path, (
        "roll 3 3\nroll 3 1\n"          # a has the higher card
        "expect return of a == 0\n"     # still playing: a failure (line 4)
        "play bet\nplay call\n"
        "expect winner a\n"
        "expect return of a == 2\n"
        "expect return of b == -2\n"
        "expect return of b < 0\n"
        "expect return of a == 1\n"),   # line 11
        rules=PAYOFF) == [
        "S:4: expected return of a == 0, got the game still playing (a return is known at "
        "the end)",
        "S:11: expected return of a == 1, got 2"]


def test_returns_without_a_payoff_are_one_for_a_win(tmp_path):
    assert failures(tmp_path, "concede red\nexpect winner blue\nexpect return of blue == 1\n"
                    "expect return of red == -1\n") == []


@pytest.mark.parametrize("line, message", [
    ("expect return of bleu == 1", "unknown seat 'bleu'; seats: blue, red; did you mean "
     "'blue'?"),
    ("expect return of blue is 1",
     "expected 'expect return of SEAT == N' (or !=, <, <=, >, >= N)"),
])
def test_a_malformed_return_is_an_error_of_its_line(tmp_path, line, message):
    assert error(tmp_path, POSITION + line + "\n") == f"S:8:1: error: {message}"


def test_the_payoff_scenario_passes():
    assert run_scenario(str(ROOT / "tests" / "rules" / "payoff.scenario")) == []
