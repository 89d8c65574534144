"""Bad input to the command line is a message and a non-zero exit, never a traceback:
malformed transcript decision lines, numbers of thousands of digits, bytes that are not
UTF-8 on standard input, negative counts, a zero cap, seeds outside 64 bits."""

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlError

from tests.helpers import RULES, invoke


SPACE_WAR = "games/space_war.gdl"
HUGE = "7" * 5000


@pytest.mark.parametrize("decision", ["1", "1 red", "1 red side", "1 red 2 side south"])
def test_replay_refuses_a_malformed_decision_line(tmp_path, monkeypatch, decision):
    monkeypatch.chdir(tmp_path.parent)
    path = tmp_path / "game.txt"
    path.write_text("# gdl transcript\ngame: Space War\nrules: x.gdl\nrules-sha256: x\n"
                    f"seed: 1\nplayers: random, random\n---\n{decision}\n", encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert result.output == (f"error: {path}:8: malformed decision line (expected: STEP SEAT "
                             "(COUNT) ACTION)\n")


def _space_war_transcript(tmp_path, decision):
    """A transcript of Space War (line 9: its first decision) with that decision line."""
    result = invoke("record", SPACE_WAR, "--seed", "1", "--max-turns", "1",
                    "-o", str(tmp_path / "game.txt"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "game.txt").read_text()
    head, _, body = text.partition("---\n")
    lines = body.split("\n")
    lines[0] = decision
    (tmp_path / "game.txt").write_text(head + "---\n" + "\n".join(lines))
    return str(tmp_path / "game.txt")


def test_replay_of_a_decision_of_thousands_of_digits(tmp_path):
    path = _space_war_transcript(tmp_path, f"1 red (2) {HUGE}")
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert result.output == (f"error: {path}:9: there is no action number "
                             "77777777777777777777... (5000 digits); choose 1 to 2\n")


def test_replay_of_a_step_of_thousands_of_digits(tmp_path):
    path = _space_war_transcript(tmp_path, f"{HUGE} red (2) side south")
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {path}:9: replay differs at step 7777")


def test_a_moves_line_of_thousands_of_digits(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text(HUGE + "\n")
    result = invoke("play", SPACE_WAR, "--moves", str(moves))
    assert result.exit_code == 1
    assert result.output.endswith(f"error: {moves}:1: there is no action number "
                                  "77777777777777777777... (5000 digits); choose 1 to 2\n")


@pytest.mark.parametrize("typed", ["²", "007", "0"])
def test_odd_numbers_typed_at_the_prompt(typed):
    result = invoke("play", SPACE_WAR, "--players", "human,human", stdin=f"{typed}\nquit\n")
    assert result.exit_code == 0
    if typed == "007":
        assert "not accepted: there is no action number 7; choose 1 to 2" in result.output
    elif typed == "0":
        assert "not accepted: there is no action number 0; choose 1 to 2" in result.output
    else:
        assert "not accepted: '²' is not legal: there is no action '²'" in result.output


def test_a_byte_that_is_not_utf8_on_standard_input():
    result = invoke("play", SPACE_WAR, "--players", "human,human", stdin=b"side south\n\xff\xfe\n")
    assert result.exit_code == 1
    assert result.output.endswith("error: standard input is not UTF-8 text: byte 0xff in "
                                  "b'\\xff\\xfe\\n'\n")


@pytest.mark.parametrize("args, message", [
    (["simulate", SPACE_WAR, "--games", "-1"],
     "Invalid value for '--games': -1 is not in the range x>=1."),
    (["bench", SPACE_WAR, "--games", "-1"],
     "Invalid value for '--games': -1 is not in the range x>=1."),
    (["simulate", SPACE_WAR, "--max-turns", "0"],
     "Invalid value for '--max-turns': 0 is not in the range x>=1."),
    (["record", SPACE_WAR, "--max-turns", "0"],
     "Invalid value for '--max-turns': 0 is not in the range x>=1."),
    (["play", SPACE_WAR, "--max-turns", "0"],
     "Invalid value for '--max-turns': 0 is not in the range x>=1."),
    (["simulate", SPACE_WAR, "--max-decisions", "0"],
     "Invalid value for '--max-decisions': 0 is not in the range x>=1."),
    # the native engine's playout took them as C longs: 'OverflowError: Python int too
    # large to convert to C long' (a traceback)
    (["simulate", SPACE_WAR, "--max-turns", str(10 ** 25), "--backend", "native"],
     f"Invalid value for '--max-turns': {10 ** 25} is more than 10**18, which no game "
     "reaches: give a smaller cap, or leave the option out"),
    (["bench", SPACE_WAR, "--max-decisions", "9" * 40],
     "Invalid value for '--max-decisions': 99999999999999999999... (40 digits) is more "
     "than 10**18, which no game reaches: give a smaller cap, or leave the option out"),
    (["simulate", SPACE_WAR, "--workers", "0"],
     "Invalid value for '--workers': 0 is not in the range x>=1."),
    (["record", SPACE_WAR, "--seed", str(2 ** 64)],
     f"Invalid value for '--seed': {2 ** 64} is not in the range "
     f"0<=x<={2 ** 64 - 1}."),
    (["play", SPACE_WAR, "--seed", "-1"],
     f"Invalid value for '--seed': -1 is not in the range 0<=x<={2 ** 64 - 1}."),
    (["simulate", SPACE_WAR, "--seed", str(2 ** 64 - 1), "--games", "2"],
     f"Invalid value for '--seed' and '--games': the last game would play seed {2 ** 64}, "
     f"more than {2 ** 64 - 1}"),
    (["bench", SPACE_WAR, "--seed", str(2 ** 64 - 2), "--games", "3"],
     f"Invalid value for '--seed' and '--games': the last game would play seed {2 ** 64}, "
     f"more than {2 ** 64 - 1}"),
    (["coverage", SPACE_WAR, "--games", str(2 ** 64 + 1)],      # --seed 0: too many games
     f"Invalid value for '--seed' and '--games': the last game would play seed {2 ** 64}, "
     f"more than {2 ** 64 - 1}"),
    (["simulate", SPACE_WAR, "--seed", HUGE],
     f"Invalid value for '--seed': '{HUGE}' is not a valid integer range."),
    # 'nan' compares false with both ends of a range: agents paced by it never moved (a
    # missing rule file: a server that started would not stop)
    (["serve", "missing.gdl", "--pace", "nan"],
     "Invalid value for '--pace': nan is not a number of seconds from 0 to 60"),
    (["serve", "missing.gdl", "--pace", "-0.5"],
     "Invalid value for '--pace': -0.5 is not in the range 0<=x<=60."),
])
def test_counts_caps_and_seeds_out_of_range_are_refused(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"


def test_the_largest_seed_plays():
    result = invoke("record", SPACE_WAR, "--seed", str(2 ** 64 - 1), "--max-turns", "1")
    assert result.exit_code == 0
    assert f"seed: {2 ** 64 - 1}" in result.output


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5])
def test_the_engine_refuses_a_seed_outside_64_bits(seed):
    with pytest.raises(GdlError) as info:
        load_game(SPACE_WAR).new_state(seed)
    assert info.value.message == f"a seed is a number from 0 to {2 ** 64 - 1}, not {seed}"


def test_a_transcript_seed_outside_64_bits_is_refused(tmp_path):
    path = _space_war_transcript(tmp_path, "1 red (2) side south")
    text = open(path).read().replace("seed: 1\n", f"seed: {2 ** 64}\n")
    open(path, "w").write(text)
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert result.output == (f"{path}:5:7: error: a seed is a number from 0 to {2 ** 64 - 1}, "
                             f"not {2 ** 64}\n    seed: {2 ** 64}\n          ^\n")


def _space_war_in_play():
    from gdl.interpreter.play.agents.agents import RandomAgent
    game = load_game(SPACE_WAR)
    state = game.new_state(1)
    agent = RandomAgent(1)
    for _ in range(12):
        game.apply(state, agent.choose(game, state, game.legal_actions(state)))
    return game, state


@pytest.mark.parametrize("typed, message", [
    # an action typed without its arguments: their names, and whether any is legal now
    ("fire", "'fire' takes 2 arguments (p, at), not 0; no 'fire' is legal now"),
    ("move", "'move' takes 2 arguments (p, to), not 0; 132 legal now, e.g. 'move Station#2 d3'"),
    # a piece or a cell typed first: it is no action, and how an action names it
    ("Fighter#9", "there is no action 'Fighter#9' in phase 'play'; actions here: move, fire, "
     "end, offer_draw ('Fighter#9' is a piece: the action's name comes first, as in 'move "
     "Fighter#9 TO')"),
    ("c4", "there is no action 'c4' in phase 'play'; actions here: move, fire, end, offer_draw "
     "('c4' is a cell: the action's name comes first, as in 'move P c4')"),
])
def test_a_half_typed_action_says_what_is_missing(typed, message):
    from tests.helpers import reason
    game, state = _space_war_in_play()
    assert reason(game, state, typed) == message


@pytest.mark.parametrize("args, what", [
    (["replay", "{big}"], "transcript"),
    (["report", "{big}", "-o", "{tmp}/r.html"], "records file"),
    (["test", "{big}"], "scenario"),
    (["show", SPACE_WAR, "--moves", "{big}"], "moves file"),
    (["explain", SPACE_WAR, "--moves", "{big}", "--legal"], "moves file"),
])
def test_a_data_file_too_large_is_refused_before_it_fills_the_memory(tmp_path, monkeypatch,
                                                                      args, what):
    """(Transcripts, records, scenarios and moves files were read whole, however large:
    `gdl replay /dev/zero` filled the memory, then a MemoryError traceback.)"""
    monkeypatch.setattr("gdl.interpreter.files.MAX_DATA", 100)
    big = tmp_path / "big.scenario"
    big.write_text("# comment\n" * 11)
    result = invoke(*[a.format(big=big, tmp=tmp_path) for a in args])
    assert result.exit_code == 1
    assert (f"error: cannot read {what} {big}: it holds more than 100 characters, more than a "
            f"{what} can be (is it a {what}?)\n") in result.output


@pytest.mark.parametrize("content, why", [
    (None, "No such file or directory"), (b"\xff\xfe", "byte 0xff is not UTF-8")])
def test_a_moves_file_that_cannot_be_read_is_told_in_words(tmp_path, content, why):
    """(Python's words: "[Errno 2] No such file or directory: 'moves.txt'", "'utf-8' codec
    can't decode byte 0xff in position 0: invalid start byte".)"""
    moves = tmp_path / "moves.txt"
    if content is not None:
        moves.write_bytes(content)
    result = invoke("show", SPACE_WAR, "--moves", str(moves))
    assert result.exit_code == 1
    assert result.output == f"error: cannot read moves file {moves}: {why}\n"


@pytest.mark.parametrize("command", [["check"], ["show"], ["simulate", "--games", "1"],
                                     ["fmt"]])
def test_a_transcript_given_as_a_rule_file_is_named_a_transcript(tmp_path, command):
    """Not a syntax error at its line 2 ('game: ...')."""
    path = tmp_path / "game.txt"
    assert invoke("record", "games/classic/tic_tac_toe.gdl", "-o", str(path)).exit_code == 0
    result = invoke(*command, str(path))
    assert result.exit_code == 1
    assert result.output == (f"{path}: error: this is a transcript, not a rule file: its "
                             "'rules:' line names the rule file ('gdl replay', 'gdl play "
                             "--resume' and '--moves' read a transcript)\n")


@pytest.mark.parametrize("line, message", [
    ("max-turns: 0", "max-turns must be a whole number of at least 1 (at most 20 digits), "
     "not '0'"),
    ("max-decisions: -3", "max-decisions must be a whole number of at least 1 (at most 20 "
     "digits), not '-3'"),
    ("max-turns: 1_0", "max-turns must be a whole number of at least 1 (at most 20 digits), "
     "not '1_0'"),
])
def test_a_transcript_cap_that_no_command_takes_is_refused_at_its_line(tmp_path, line,
                                                                       message):
    """Not replayed as 'differs at step 0 ... passed the cap of 0'."""
    path = tmp_path / "game.txt"
    assert invoke("record", "games/classic/tic_tac_toe.gdl", "-o", str(path)).exit_code == 0
    text = path.read_text().replace("players: random, random\n",
                                    f"players: random, random\n{line}\n")
    path.write_text(text)
    result = invoke("replay", str(path))
    assert (result.exit_code, result.output) == (1, f"error: {path}:7: {message}\n")


def test_an_action_text_with_a_right_to_left_override_is_quoted_escaped(tmp_path):
    """What a person typed, quoted in a refusal, shows U+202E as '\\u202e' (it would show
    the rest of the line reversed): at the prompt, in a moves file, in an option."""
    nim = str(RULES / "nim.gdl")
    typed = invoke("play", nim, "--players", "human", stdin="ta\u202eke 1\nquit\n")
    assert "blue> not accepted: 'ta\\u202eke 1' is not legal: there is no action " \
           "'ta\\u202eke' in phase 'play'" in typed.output
    assert "\u202e" not in typed.output
    moves = tmp_path / "moves.txt"
    moves.write_text("1\u202e\n", encoding="utf-8")
    scripted = invoke("play", nim, "--moves", str(moves))
    assert scripted.exit_code == 1
    assert scripted.output.endswith(f"error: {moves}:1: '1\\u202e' is not legal: there is no "
                                    "action '1\\u202e' in phase 'play'; actions here: take\n")
    seat = invoke("show", nim, "--seat", "b\u202elue")
    assert (seat.exit_code, seat.output) == (
        1, "error: unknown seat 'b\\u202elue'; the seats of Nim are blue, red\n")
    kept = tmp_path / "n\u202eim.gdl"
    kept.write_text("")
    overwrite = invoke("record", str(kept), "-o", str(kept))
    assert overwrite.exit_code == 2
    assert f"would overwrite the rule file {tmp_path}/n\\u202eim.gdl" in overwrite.output


def test_bench_with_no_rule_file_and_no_games_folder_says_so(tmp_path):
    """`gdl bench` alone runs games/*.gdl of the current folder: outside the project it
    printed the table's heading and nothing else, and exited 0 as if it had measured."""
    from tests.helpers import gdl
    result = gdl("bench", "--games", "1", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (
        "Error: no rule file to benchmark: name the rule files (without any, gdl bench runs "
        "games/*.gdl of the current folder, and there is none here)")
