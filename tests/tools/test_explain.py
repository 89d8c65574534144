"""`gdl explain`: why an action is legal or not, test by test, and what playing it does.

Pinned on Space War (a position after scripted moves, and golden transcripts at a step) and
on Galaxy of D, which hides pieces, for what a seat is told. Rule-file line numbers are
looked up in the rule file, so a comment added above a rule does not break a test."""

import subprocess
import sys

import pytest

from gdl.interpreter.language.errors import IllegalAction
from gdl.interpreter.play.debug import explain
from gdl.interpreter.play.hints import close_name
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT, gdl, line_of


SPACE_WAR = "games/space_war.gdl"
SW_GOLDEN = "tests/golden/space_war_seed1.txt"
GOD_GOLDEN = "tests/golden/galaxy_of_d_seed1.txt"


@pytest.fixture
def deployed(tmp_path):
    """A moves file: both sides deployed, blue to play its first turn."""
    moves = tmp_path / "moves.txt"
    moves.write_text("side south\nstation d11\nstation b2\n")
    return str(moves)


PLAY_DOC = '  "Your turn: move each piece once, fire its cannons, then end the turn."'
HEAD = ["blue to play in phase 'play', turn 1 (seed 0, after 3 decisions)", PLAY_DOC]
MOVE_DOC = '  "Move a piece up to its speed in a straight line (not through a black hole)."'
MOVE_TESTS = [
    "  p in pieces(me) = [Station#1, Fighter#1, Fighter#2, Fighter#3, Fighter#4, Fighter#5, "
    "Fighter#6, Fighter#7, ... 9 in all]: Fighter#1 is one of them",
    "  where not p.has_moved: true",
]


def test_an_illegal_move_names_the_domain_that_refuses_it(deployed):
    result = gdl("explain", SPACE_WAR, "--moves", deployed, "move", "Fighter#1", "a5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n") == HEAD + ["move Fighter#1 a5", MOVE_DOC] + MOVE_TESTS + [
        "  to in reach(p.cell, speed(p), holes) = [b12, c12, d12, e12, b11, c10, d9, e8, ... "
        "11 in all]: a5 is not one of them   <- the first test that fails",
        "  where not (p.kind == Station and station_on(to)): true",
        "legal: no: a5 is not a possible 'to' now (not in reach(p.cell, speed(p), holes))",
        ""]


def test_an_illegal_action_names_the_failing_where_part(deployed):
    result = gdl("explain", SPACE_WAR, "--moves", deployed, "end")
    assert result.stdout.split("\n") == HEAD + [
        "end", '  "End your turn once you have moved at least one piece."',
        "  where me.moved > 0: false   <- the first test that fails",
        "  where not exists(p in pieces(me) where p.warped_on > 0 and p.warped_on < "
        "turn_number): true",
        "legal: no: the rule 'me.moved > 0' does not hold", ""]


def test_a_legal_move_lists_its_events_changes_and_the_rules_that_ran(deployed):
    result = gdl("explain", SPACE_WAR, "--moves", deployed, "move", "fighter#1", "A11")
    moved = line_of("p.has_moved = true")
    assert result.stdout.split("\n")[:15] == HEAD + ["move fighter#1 A11", MOVE_DOC] + \
        MOVE_TESTS + [
        "  to in reach(p.cell, speed(p), holes) = [b12, c12, d12, e12, b11, c10, d9, e8, ... "
        "11 in all]: a11 is one of them",
        "  where not (p.kind == Station and station_on(to)): true",
        "legal: yes, one of 132 legal actions",
        "playing it (on a copy of the position):",
        "  events:",
        "    Fighter#1 (blue) moved from a12 to a11 (by move, blue)",
        "  changes:",
        "    blue moved: 0 -> 1",
        "    Fighter#1 (blue) has_moved: false -> true"]
    ran = result.stdout.split("\n")[15:]
    assert ran[0] == "  rule-file lines that ran (10):"
    assert ran[1:3] == [f"    {SPACE_WAR}:{moved} (1x): p.has_moved = true",
                        f"    {SPACE_WAR}:{moved + 1} (1x): p.parked = false"]
    assert f"    {SPACE_WAR}:{line_of('def arrive(p)') + 1} (1x): collide(p)" in ran


def test_a_transcript_at_a_step_and_a_hit_changes_the_target():
    result = gdl("explain", SW_GOLDEN, "--step", "56", "fire", "Station#2", "c5")
    lines = result.stdout.split("\n")
    assert lines[0] == ("red to play in phase 'play', turn 8 (tests/golden/space_war_seed1.txt, "
                        "seed 1, step 56)")
    assert "  where at in enemy_cells(me): true" in lines
    at = lines.index("  changes:")
    assert lines[at + 1:at + 4] == ["    Station#2 (red) shots: 0 -> 1",
                                    "    Fighter#3 (blue) damage: 0 -> 1",
                                    "    Fighter#3 (blue) first_hit: 0 -> 8"]


def test_ending_a_turn_says_whose_turn_follows():
    lines = gdl("explain", SW_GOLDEN, "--step", "56", "end").stdout.split("\n")
    assert "  then: blue to play in phase 'play' (was red to play in phase 'play')" in lines


def test_legal_lists_the_actions_grouped_with_counts(deployed):
    result = gdl("explain", SW_GOLDEN, "--step", "56", "--legal")
    assert result.stdout.split("\n") == [
        "red to play in phase 'play', turn 8 (tests/golden/space_war_seed1.txt, seed 1, step 56)",
        PLAY_DOC, "2 legal actions", "  fire (1):", "    fire Station#2 c5", "  end (1):", "    end", ""]
    lines = gdl("explain", SPACE_WAR, "--moves", deployed, "--legal").stdout.split("\n")
    assert lines[2:4] == ["132 legal actions", "  move (132):"]
    assert lines[4] == ("    move Station#1 d12, move Station#1 e12, move Station#1 e11, "
                        "move Station#1 f11,")
    assert all(len(line) <= 96 for line in lines)



def test_moves_may_be_a_transcript_played_from_its_seed():
    """`--moves` reads a transcript as `gdl play --moves` does (its header was taken for a
    decision); its last position is the step after its last decision."""
    by_moves = gdl("explain", SPACE_WAR, "--moves", SW_GOLDEN, "--legal")
    assert by_moves.returncode == 0, by_moves.stderr
    assert by_moves.stdout.split("\n")[0] == (
        "the game is over: blue won (seed 1, after 81 decisions)")
    by_step = gdl("explain", SW_GOLDEN, "--step", "82", "--legal")
    assert by_moves.stdout.split("\n")[1:] == by_step.stdout.split("\n")[1:]

def test_dice_are_shown_as_the_seeds_and_hidden_from_a_seat():
    full = gdl("explain", GOD_GOLDEN, "--step", "33", "pirate", "Pirate#1").stdout
    assert "    roll d6 = 4 (by pirate, one)" in full
    assert "  chance: 1 roll, pick or shuffle from this game's seed at this position" in full
    seat = gdl("explain", GOD_GOLDEN, "--step", "33", "--seat", "one", "pirate",
               "Pirate#1").stdout.split("\n")
    assert seat[-3:] == ["legal: yes, one of 1 legal action",
                         "playing it draws on chance (1 roll, pick or shuffle): what it would "
                         "do depends on dice a seat does not know yet, so it is not told", ""]
    assert not any("roll d6" in line for line in seat)


def test_a_seat_is_told_only_about_its_own_decisions():
    result = gdl("explain", GOD_GOLDEN, "--step", "33", "--seat", "two", "pirate", "Pirate#1")
    assert result.stdout.split("\n")[1:3] == ['  "6.3 The Pirates move."', (
        "pirate Pirate#1: not legal: it is one's decision now, not two's: a seat is told only "
        "about its own decisions")]
    legal = gdl("explain", GOD_GOLDEN, "--step", "33", "--seat", "two", "--legal")
    assert "it is one's decision now" in legal.stdout and "Pirate#1" not in legal.stdout


def test_a_hidden_piece_reads_for_a_seat_as_a_label_of_no_piece():
    game, state, _ = explain.position(GOD_GOLDEN, step=24)
    hidden = [p["label"] for pid, p in state.pieces.items()
              if p["alive"] and introspect.hidden_from(game, state, pid, 0)]
    assert hidden
    seen = [p["label"] for p in game.view(state, 0)["pieces"] if p["label"] != "?"]
    for label in (hidden[0], "two:Nothing#9"):
        with pytest.raises(IllegalAction) as refused:
            explain.explain(game, state, f"move {label} a8", viewer=0)
        # the same answer as for a label of no piece: "did you mean" is of what it sees
        assert refused.value.message == f"'{label}' is not a piece" + close_name(label, seen)
    # the full view (a designer's) reads every label
    lines = explain.explain(game, state, f"move {hidden[0]} a8")
    assert lines[0] == f"move {hidden[0]} a8" and lines[-1].startswith("legal: no: ")


def test_a_misspelt_piece_is_never_told_as_a_hidden_one():
    """A seat is offered only the labels it sees; the full view, every label."""
    game, state, _ = explain.position(GOD_GOLDEN, step=24)
    hidden = next(p["label"] for pid, p in state.pieces.items()
                  if p["alive"] and introspect.hidden_from(game, state, pid, 0))
    misspelt = hidden.replace("#", "#0")     # two:Scout#3 -> two:Scout#03
    for viewer, told in ((0, False), (None, True)):
        with pytest.raises(IllegalAction) as refused:
            explain.explain(game, state, f"move {misspelt} a8", viewer=viewer)
        assert (f"did you mean '{hidden}'?" in refused.value.message) is told


def test_a_misspelt_cell_or_kind_gets_a_did_you_mean(deployed):
    cell = gdl("explain", SPACE_WAR, "--moves", deployed, "move", "Fighter#1", "a55")
    assert cell.returncode == 1
    assert cell.stderr == ("error: 'move Fighter#1 a55' is not an action here: 'a55' is not a "
                           "cell; did you mean 'a5'?\n")
    # a kind the rules do not have is no action of the game, as `gdl play` reads it too
    kind = gdl("explain", GOD_GOLDEN, "--step", "14", "--seat", "one", "buy", "Intercepter")
    assert kind.returncode == 1
    assert kind.stderr == ("error: 'buy Intercepter' is not an action here: 'Intercepter' is "
                           "not a piece kind of the game; did you mean 'Interceptor'?\n")


def test_a_seats_answer_stops_at_the_first_test_that_fails(deployed):
    game, state, _ = explain.position(SPACE_WAR, moves=deployed)
    seat = explain.explain(game, state, "fire Fighter#1 a5", viewer=0)
    assert seat[-2:] == ["  (the tests after it are not told to a seat)",
                         "legal: no: a5 is not a possible 'at' now (not in sight(p.cell, "
                         "laser_range, stars + holes))"]
    full = explain.explain(game, state, "fire Fighter#1 a5")
    assert "  where at in enemy_cells(me): false" in full


@pytest.mark.parametrize("args, message", [
    (("games/nothing.gdl", "end"), "cannot read rule file games/nothing.gdl"),
    ((SPACE_WAR, "--step", "3", "end"), "is a rule file: --step is for a transcript"),
    ((SW_GOLDEN, "end"), "is a transcript: give --step K (1 to 82)"),
    ((SW_GOLDEN, "--step", "99", "end"), "has 81 decisions: --step is 1 to 82"),
    ((SPACE_WAR, "--seat", "green", "end"), "unknown seat 'green'"),
    ((SPACE_WAR, "jump", "a1"), "'jump a1' is not an action here: there is no action 'jump'"),
    ((SPACE_WAR, "sied", "south"), "'sied south' is not an action here: there is no action "
     "'sied' in phase 'choose_side'; actions here: side; did you mean 'side'?"),
    ((SPACE_WAR, "side", "south", "north"), "'side' takes 1 argument (s), not 2"),
    ((SPACE_WAR,), "give an action to explain"),
])
def test_errors_are_messages_with_exit_1(args, message):
    result = gdl("explain", *args)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_one_decision_reads_in_the_singular(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("side south\n")
    heading = gdl("explain", SPACE_WAR, "--moves", str(moves), "--legal").stdout.split("\n")[0]
    assert heading.endswith("(seed 0, after 1 decision)")
    one = tmp_path / "one.txt"
    assert gdl("record", SPACE_WAR, "--max-decisions", "1", "-o", str(one)).returncode == 0
    result = gdl("explain", str(one), "--step", "5", "end")
    assert result.stderr == f"error: {one} has 1 decision: --step is 1 to 2 (the position " \
        "before decision K), not 5\n"


def test_without_an_action_the_usage_says_its_form_in_no_game_s_words():
    result = gdl("explain", SPACE_WAR)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: give an action to explain as --legal lists it (its name, then its arguments: "
        "'ACTION PIECE CELL'), or --legal")


def test_the_game_over_is_an_answer():
    result = gdl("explain", SW_GOLDEN, "--step", "82", "end")
    assert result.returncode == 0
    assert result.stdout.split("\n")[1].startswith("end: not legal: the game is over (")
    assert result.stdout.startswith("the game is over: ")


def test_a_transcript_that_no_longer_replays_is_refused_at_its_line(tmp_path):
    """A decision line removed: the later lines no longer replay. explain explained the
    shifted positions (exit 0); it says, as gdl replay does, which line differs and how."""
    saved = tmp_path / "game.txt"
    assert gdl("record", "games/classic/tic_tac_toe.gdl", "--seed", "3",
               "-o", str(saved)).returncode == 0
    lines = saved.read_text().split("\n")
    second = next(i for i, line in enumerate(lines) if line.startswith("2 "))
    saved.write_text("\n".join(lines[:second] + lines[second + 1:]))
    replayed = gdl("replay", str(saved))
    assert replayed.returncode == 1 and f"{saved}:" in replayed.stderr
    for step in ("1", "5"):
        result = gdl("explain", str(saved), "--step", step, "--legal")
        assert (result.returncode, result.stdout) == (1, ""), result.stdout
        assert result.stderr == replayed.stderr


def test_moves_from_a_transcript_that_no_longer_replays_are_refused(tmp_path):
    """explain RULES --moves T played T's decisions and explained where they led (exit 0)
    when T no longer replayed but each decision was still legal (here step 5 moves to e10,
    not e11, and every later decision still fits): a position that was never T's. Now T
    is replayed in RULES first and refused as gdl replay refuses it (exit 1); gdl play and
    gdl show, which read --moves alike, too."""
    saved = tmp_path / "game.txt"
    text = (ROOT / SW_GOLDEN).read_text().replace("rules: ../../games/space_war.gdl",
                                                  f"rules: {ROOT / SPACE_WAR}")
    edited = text.replace("5 blue (122) move Fighter#5 e11", "5 blue (122) move Fighter#5 e10")
    assert edited != text
    saved.write_text(edited)
    replayed = gdl("replay", str(saved))
    assert replayed.returncode == 1
    assert replayed.stderr.startswith(f"error: {saved}:22: replay differs at step 13\n")
    for command in (["explain", SPACE_WAR, "--moves", str(saved), "--legal"],
                    ["play", SPACE_WAR, "--moves", str(saved)],
                    ["show", SPACE_WAR, "--moves", str(saved)]):
        result = gdl(*command)
        assert (result.returncode, result.stdout) == (1, ""), command
        assert result.stderr == replayed.stderr, command
    saved.write_text(text)      # as recorded: explained as before
    result = gdl("explain", SPACE_WAR, "--moves", str(saved), "--legal")
    assert result.returncode == 0 and result.stdout.startswith("the game is over: blue won")


def test_moves_of_a_transcript_of_rules_edited_since_are_played_with_a_warning(tmp_path):
    """A transcript recorded before its rule file was edited (here an action `wait` added,
    so every position lists one action more) no longer replays as recorded, yet each of its
    decisions is legal and leads where it did: --moves warns and plays them (session 35's
    reviewer found them refused, a designer's everyday replay after an edit). A transcript
    changed by hand under the same rules is still refused (the test above)."""
    rules = tmp_path / "ttt.gdl"
    text = (ROOT / "games" / "classic" / "tic_tac_toe.gdl").read_text()
    rules.write_text(text)
    saved = tmp_path / "t.txt"
    recorded = gdl("record", str(rules), "--seed", "3", "-o", str(saved))
    assert recorded.returncode == 0, recorded.stderr
    rules.write_text(text.replace('    goto play for next(me)\n  }\n', '    goto play for next('
                                  'me)\n  }\n  action wait() {\n    goto play for next(me)\n'
                                  '  }\n', 1))
    assert gdl("replay", str(saved)).returncode == 1
    for command in (["show", str(rules), "--moves", str(saved)],
                    ["explain", str(rules), "--moves", str(saved), "--legal"]):
        result = gdl(*command)
        assert result.returncode == 0, (command, result.stderr)
        assert result.stderr.startswith(f"warning: {saved} no longer replays as recorded in "
                                        "the rule file as it is now ("), result.stderr
        assert "its decisions are played as they are" in result.stderr


def test_a_step_of_a_transcript_comes_after_the_concessions_before_it(tmp_path):
    """A seat that conceded before decision K (a `concede:` line) is out at --step K."""
    saved = tmp_path / "game.txt"
    gdl_play = [sys.executable, "-m", "gdl.cli.main", "play", "games/game.gdl", "--players",
                "human,human", "--seed", "1"]
    subprocess.run(gdl_play, input=f"done\nconcede\nsave {saved}\nquit\n", text=True,
                   capture_output=True, cwd=ROOT, timeout=120, check=True)
    assert saved.read_text().count("\nconcede: yellow\n") == 1
    game, state, _ = explain.position(str(saved), step=1)
    assert not state.out[1] and state.decisions == 0
    game, state, _ = explain.position(str(saved), step=2)
    assert state.out[1] and state.decisions == 1
    assert game.seats[game.current_player(state)] == "green"


def test_an_action_whose_argument_is_a_list_is_explained_from_its_text():
    """`take [1, 2]`: the list argument has spaces in its text, and is one argument."""
    result = gdl("explain", "tests/rules/flatten.gdl", "take [1, 2]")
    assert result.returncode == 0, result.stderr
    assert "[1, 2] is one of them" in result.stdout and "legal: yes" in result.stdout


def test_an_action_of_a_long_word_is_quoted_briefly():
    """explain TRANSCRIPT --step K with a word of 100,000 characters quoted it whole, twice
    (the command's 'is not an action here' and the engine's refusal): now the command quotes
    the action's first 200 characters (errors.QUOTED_LINE), the engine the word's first 40."""
    long = "x" * 100_000
    result = gdl("explain", SW_GOLDEN, "--step", "5", "move", long)
    assert result.returncode == 1 and len(result.stderr) < 500, result.stderr[:500]
    assert result.stderr.startswith(f"error: 'move {'x' * 195}...' is not an action here: ")
    # an action of words of ordinary length is quoted whole (up to errors.QUOTED_LINE)
    words = ["move", "Fighter#1", "a" * 30, "b" * 30]
    result = gdl("explain", SW_GOLDEN, "--step", "5", *words)
    assert result.stderr.startswith(f"error: '{' '.join(words)}' is not an action here: ")


def test_an_unknown_seat_of_a_long_word_is_quoted_briefly():
    """--seat with a word of 100,000 characters (explain, show, replay --html) quoted it
    whole in 'unknown seat'; now its first 40 characters."""
    result = gdl("explain", SPACE_WAR, "--legal", "--seat", "x" * 100_000)
    assert result.returncode == 1
    assert result.stderr == (f"error: unknown seat '{'x' * 40}...'; the seats of Space War "
                             "are blue, red\n")
