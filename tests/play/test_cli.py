"""The `gdl` command line end to end, as a user runs it (a subprocess per command)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gdl.interpreter.language.errors import counted
from gdl.interpreter.play.hints import close_name
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")


def gdl(*args, stdin="", cwd=None):
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=120)


def test_check_valid_file_prints_one_line():
    result = gdl("check", "games/space_war.gdl")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "games/space_war.gdl: ok: 'Space War', 2 seats, 5 phases, square board 8x12"]


def test_check_broken_file_exits_1_with_position_and_caret(tmp_path):
    bad = tmp_path / "bad.gdl"
    bad.write_text('game "x"\nseats a, b\nboard square(3, 3)\nsetup {\n  goto p for a\n')
    result = gdl("check", str(bad))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{bad}:5:")
    assert "error: the file ended unexpectedly (an unclosed block?)" in lines[0]
    assert lines[1] == "      goto p for a"
    assert lines[2].strip() == "^"


def test_check_missing_file():
    result = gdl("check", "no/such.gdl")
    assert result.returncode == 1
    assert result.stderr == "error: cannot read rule file no/such.gdl: No such file or directory\n"
    assert "Traceback" not in result.stderr


def test_play_random_game_to_the_end():
    result = gdl("play", "games/space_war.gdl", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "game over:" in result.stdout
    assert "Traceback" not in result.stderr


def test_play_human_bad_input_help_and_end_of_input():
    result = gdl("play", "games/space_war.gdl", "--players", "random,human", "--seed", "3",
                 stdin="help\nnonsense\n99\nside south\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Type the number of an action or its text" in out
    assert "not accepted: 'nonsense' is not legal: there is no action 'nonsense'" in out
    assert "not accepted: there is no action number 99; choose 1 to 2" in out
    assert "1. side south" in out
    assert out.rstrip().endswith("bye")


def test_play_quit_by_number_and_text():
    result = gdl("play", "games/space_war.gdl", "--players", "human,human", "--seed", "1",
                 stdin="2\nstation c2\nquit\n")
    assert result.returncode == 0
    assert "red: side north" in result.stdout
    assert "blue: station c2" in result.stdout
    assert "bye" in result.stdout


def test_play_board_shows_stars_holes_pieces_and_damage():
    result = gdl("play", "games/space_war.gdl", "--seed", "3", "--max-turns", "6")
    board = result.stdout
    assert " * " in board and " O " in board
    assert "bS" in board and "rF" in board


def test_play_scripted_moves(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("# red chooses the south side\nside south\nstation d11\n1\n")
    result = gdl("play", "games/space_war.gdl", "--moves", str(moves), "--max-turns", "2")
    assert result.returncode == 0, result.stderr
    assert "red: side south (scripted)" in result.stdout
    assert "blue: station d11 (scripted)" in result.stdout
    assert "red: station a2 (scripted)" in result.stdout


def test_play_scripted_illegal_move_names_line(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("side west\n")
    result = gdl("play", "games/space_war.gdl", "--moves", str(moves))
    assert result.returncode == 1
    assert result.stderr.strip() == (f"error: {moves}:1: 'side west' is not legal: west is "
                                     "not a possible 's' now (not in [south, north])")


@pytest.mark.parametrize("line, refusal", [
    ("sied south", "there is no action 'sied' in phase 'choose_side'; actions here: side; "
     "did you mean 'side'?"),
    ("side south\nstation d111", "'d111' is not a cell; did you mean 'd11'?"),
    ("side south\nstation d11\nstation b2\nmove Figter#1 a5",
     "'Figter#1' is not a piece; did you mean 'Fighter#1'?"),
])
def test_play_scripted_misspelt_word_gets_a_did_you_mean(tmp_path, line, refusal):
    """As `gdl explain` answers the same text."""
    moves = tmp_path / "moves.txt"
    moves.write_text(line + "\n")
    result = gdl("play", "games/space_war.gdl", "--moves", str(moves))
    assert result.returncode == 1
    number = line.count("\n") + 1
    typed = line.split("\n")[-1]
    assert result.stderr == f"error: {moves}:{number}: '{typed}' is not legal: {refusal}\n"


def test_play_scripted_did_you_mean_names_no_hidden_piece(tmp_path):
    """The deciding seat is offered only the labels it sees, never one hidden from it."""
    from gdl.interpreter.play.debug import explain
    golden = os.path.join(ROOT, "tests", "golden", "galaxy_of_d_seed1.txt")
    game, state, _ = explain.position(golden, step=24)      # one to move, two's fleet hidden
    hidden = [p["label"] for pid, p in state.pieces.items()
              if p["alive"] and introspect.hidden_from(game, state, pid, 0)]
    seen = [p["label"] for p in game.view(state, 0)["pieces"] if p["label"] != "?"]
    decisions = [line.split(") ", 1)[1] for line in Path(golden).read_text().split("\n")
                 if line[:1].isdigit()][:23]
    for label in hidden:
        misspelt = label.replace("#", "#0")                 # two:Freighter#02
        moves = tmp_path / "moves.txt"
        moves.write_text("\n".join(decisions + [f"move {misspelt} a8"]) + "\n")
        result = gdl("play", "games/galaxy_of_d.gdl", "--seed", "1", "--moves", str(moves))
        assert result.returncode == 1
        assert result.stderr == (f"error: {moves}:24: 'move {misspelt} a8' is not legal: "
                                 f"'{misspelt}' is not a piece{close_name(misspelt, seen)}\n")
        assert label not in result.stderr


def test_simulate_json_has_the_contract_fields():
    result = gdl("simulate", "games/space_war.gdl", "--games", "30", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    for key in ("games", "finished", "capped", "wins", "draws", "mean_decisions",
                "decisions", "seconds"):
        assert key in summary
    assert summary["games"] == 30
    assert summary["finished"] + summary["capped"] == 30
    assert summary["finished"] == sum(summary["wins"].values()) + summary["draws"]
    assert set(summary["wins"]) == {"blue", "red"}


def test_simulate_cap_is_reported_as_capped_not_draw():
    result = gdl("simulate", "games/space_war.gdl", "--games", "20", "--max-turns", "2",
                 "--json")
    summary = json.loads(result.stdout)
    assert summary["capped"] > 0
    assert summary["finished"] + summary["capped"] == 20


def test_simulate_with_no_game_finished_gives_no_share_of_wins():
    result = gdl("simulate", "games/galaxy_of_d.gdl", "--games", "3", "--max-turns", "1",
                 "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "finished 0, capped 3" in result.stdout
    assert "  one won 0 (no game finished)\n" in result.stdout
    assert "interval" not in result.stdout


def test_simulate_text_summary():
    result = gdl("simulate", "games/space_war.gdl", "--games", "10")
    assert result.returncode == 0
    assert "blue won" in result.stdout and "decisions/s" in result.stdout


def test_record_and_replay(tmp_path):
    out = tmp_path / "game.txt"
    result = gdl("record", "games/space_war.gdl", "--seed", "5", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("# gdl transcript\ngame: Space War\n")
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".gdl-")]
    ok = gdl("replay", str(out))
    assert ok.returncode == 0, ok.stderr
    lines = out.read_text().split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("2 "))
    lines[index] = lines[index].rsplit(" ", 1)[0] + " a12"
    out.write_text("\n".join(lines))
    bad = gdl("replay", str(out))
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"error: {out}:{index + 1}: '") and " a12' is not legal: " \
        in bad.stderr


def test_replay_refuses_a_transcript_of_another_game_or_seat_count(tmp_path):
    out = tmp_path / "game.txt"
    assert gdl("record", "games/classic/tic_tac_toe.gdl", "--seed", "2", "-o",
               str(out)).returncode == 0
    text = out.read_text()
    for old, new, said in (
            ("game: Tic-tac-toe", "game: Chess",
             "the transcript is of the game 'Chess', its rule file's is 'Tic-tac-toe'"),
            ("players: random, random", "players: random",
             "the transcript names 1 player for the 2 seats of 'Tic-tac-toe'")):
        out.write_text(text.replace(old, new))
        result = gdl("replay", str(out))
        assert result.returncode == 1 and f"{out}: {said}" in result.stderr


def test_replay_refuses_a_corrupt_transcript(tmp_path):
    out = tmp_path / "junk.txt"
    out.write_bytes(b"\x00\x01 not a transcript")
    result = gdl("replay", str(out))
    assert result.returncode == 1
    assert "is not a gdl transcript" in result.stderr
    assert "Traceback" not in result.stderr


def test_test_command_runs_scenarios(tmp_path):
    # a folder of them (tests/test_scenarios.py runs every scenario, in-process: the whole
    # tree through the command took 27 s of the suite)
    result = gdl("test", "tests/scenarios/space_war")
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed, 0 failed" in result.stdout
    bad = tmp_path / "bad.scenario"
    bad.write_text(f"rules {SPACE_WAR}\nexpect phase play\n")
    failed = gdl("test", str(bad))
    assert failed.returncode == 1
    assert f"{bad}:2: expected phase play, got phase choose_side for red" in failed.stderr


@pytest.mark.parametrize("players, status", [("human,random,random", 1), ("robot", 2)])
def test_bad_players_option(players, status):
    """(A player type gdl has not is a usage error of --players; how many the game takes is
    known once its rule file is loaded.)"""
    result = gdl("simulate", "games/space_war.gdl", "--games", "1", "--players", players)
    assert result.returncode == status
    assert "Traceback" not in result.stderr


def test_a_human_gets_a_fresh_seed_told_only_at_the_end():
    first = gdl("play", "games/space_war.gdl", "--players", "human,random", stdin="quit\n")
    second = gdl("play", "games/space_war.gdl", "--players", "human,random", stdin="quit\n")
    for result in (first, second):
        assert result.returncode == 0, result.stderr
        head = result.stdout.splitlines()[0]
        assert "a fresh seed, told at the end" in head and "seed 0" not in head
        assert result.stdout.splitlines()[-1].startswith("the seed was ")
    assert first.stdout.splitlines()[-1] != second.stdout.splitlines()[-1]
    seed = first.stdout.splitlines()[-1].split()[3]
    again = gdl("play", "games/space_war.gdl", "--players", "human,random", "--seed", seed,
                stdin="quit\n")
    assert f"seed {seed};" in again.stdout.splitlines()[0]
    assert again.stdout.splitlines()[1] == first.stdout.splitlines()[1]


def test_a_long_list_of_actions_is_summarised_and_can_be_narrowed():
    """Galaxy Aflame's deployment offers 288 squares: the list is one line per action name;
    'list WORDS' shows the actions whose text contains them."""
    answers = "\n".join(["1"] * 9 + ["list at a3", "quit"]) + "\n"
    result = gdl("play", "games/galaxy_aflame.gdl", "--players", "human,random", "--seed", "4",
                 stdin=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "  at (288, 1-288): a31, b31, c31, " in out
    assert ", ... av36\n" in out
    assert "'list WORDS'" in out
    listed = out.split("blue> ")[-2]           # the answer to 'list at a3'
    assert "1. at a31" in listed and "at a36" in listed and "at b31" not in listed


def test_version():
    result = gdl("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("gdl ") and result.stdout.strip().split()[1][0].isdigit()


def test_check_a_folder_checks_every_rule_file_in_it(tmp_path):
    result = gdl("check", "games")
    assert result.returncode == 0, result.stderr
    checked = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert checked == sorted(checked) and "games/space_war.gdl" in checked
    assert len(checked) == len(list(Path(ROOT, "games").rglob("*.gdl")))
    empty = gdl("check", str(tmp_path))
    assert empty.returncode == 1
    assert "no rule files (*.gdl) in this folder" in empty.stderr


def _endless_record(tmp_path, signum):
    """`gdl record` of a game that never ends into tmp_path/out/game.txt, sent `signum` once
    it plays: (the process, finished; the folder out)."""
    import time
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endless.gdl").write_text(
        'seats a, b\nboard square(2, 2)\nsetup { goto play for a }\n'
        'phase play turn { action pass() { goto play for next(me) } }\n')
    folder = tmp_path / "out"
    folder.mkdir()
    started = time.perf_counter()       # how long this machine takes to start gdl, now
    assert gdl("check", str(rules / "endless.gdl")).returncode == 0
    start_up = time.perf_counter() - started
    process = subprocess.Popen(
        [sys.executable, "-m", "gdl.cli.main", "record", str(rules / "endless.gdl"),
         "--max-turns", "100000000", "--max-decisions", "100000000",
         "-o", str(folder / "game.txt")], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    time.sleep(max(1.5, 3 * start_up))  # playing by then, on a loaded machine too
    process.send_signal(signum)
    process.wait(timeout=30)
    return process, folder


def test_record_stopped_by_sigterm_leaves_no_file(tmp_path):
    """A SIGTERM stops `gdl record`: exit 143, and no transcript, whole or temporary, is
    left in the folder."""
    import signal
    process, folder = _endless_record(tmp_path, signal.SIGTERM)
    assert process.returncode == 143
    assert list(folder.iterdir()) == []


def test_record_interrupted_by_ctrl_c_writes_the_game_so_far(tmp_path):
    """Ctrl-C (SIGINT) stops `gdl record`: exit 130, the decisions so far written as a
    transcript ending `unfinished:`, which replays, and a line on stderr that says where."""
    import signal
    process, folder = _endless_record(tmp_path, signal.SIGINT)
    saved = folder / "game.txt"
    assert process.returncode == 130
    assert list(folder.iterdir()) == [saved]
    last = saved.read_text().splitlines()[-1]
    assert last.startswith("unfinished: saved after ")
    decisions = last.removeprefix("unfinished: saved after ").split()[0]
    assert process.stderr.read() == (
        f"\ninterrupted after {counted(int(decisions), 'decision')}: wrote {saved}, the game "
        f"so far (gdl play --resume {saved} goes on)\n")
    replayed = gdl("replay", str(saved))
    assert replayed.returncode == 0, replayed.stderr


def test_check_strict_notes_what_keeps_a_file_off_the_typed_engine():
    """A note, not a failure: the file is valid; plain `check` says nothing of it."""
    from tests.helpers import invoke
    deal = str(ROOT / "tests" / "rules" / "deal.gdl")
    strict = invoke("check", "--strict", deal)
    assert strict.exit_code == 0
    assert f"{deal}:18:15: note: pick() of a list of int is outside the typed subset: " \
           "--backend native runs this file untyped, several times slower ('gdl compile " \
           "--backend native' says more)\n" in strict.output
    assert "note:" not in invoke("check", deal).output
    inside = invoke("check", "--strict", str(ROOT / "games" / "space_war.gdl"))
    assert (inside.exit_code, "note:" in inside.output) == (0, False)


@pytest.mark.parametrize("command", [
    ("simulate", "--games", "2"), ("compare", "--games", "2", "tests/rules/nim.gdl"),
    ("coverage", "--games", "2"), ("record",)])
def test_a_command_of_agents_given_a_human_names_itself(command):
    """`gdl compare --players human` said 'simulate plays without humans': the command the
    person ran is the one the message names."""
    result = gdl(*command, "--players", "human", "tests/rules/nim.gdl")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"error: {command[0]} plays agents only; use 'gdl play' for "
                             "humans\n")
