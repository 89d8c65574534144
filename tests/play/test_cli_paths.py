"""The files the `gdl` command is given: an output option never writes over the command's own
input (the user's file would be lost), a transcript's bad seed is told at its line, a folder
without scenarios says so, and `--workers` has a ceiling."""

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import GAMES, RULES, gdl

RULE_FILE = RULES / "coverage.gdl"          # a short game of two random seats
RULE_TEXT = RULE_FILE.read_bytes()
TIC_TAC_TOE = GAMES / "classic" / "tic_tac_toe.gdl"     # a game long enough for prompts


@pytest.fixture
def folder(tmp_path):
    """A folder holding c.gdl (a rule file), t.txt (its transcript) and r.jsonl (records)."""
    shutil.copy(RULE_FILE, tmp_path / "c.gdl")
    recorded = gdl("record", "c.gdl", "-o", "t.txt", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    (tmp_path / "r.jsonl").write_text('{"seed": 0}\n')
    return tmp_path


# (the command, the option, the input it would overwrite) in a `folder`
OVERWRITES = [
    (["record", "c.gdl", "-o", "./c.gdl"], "--output", "the rule file c.gdl"),
    (["show", "c.gdl", "--svg", "c.gdl"], "--svg", "the rule file c.gdl"),
    (["coverage", "c.gdl", "--games", "1", "--annotate", "c.gdl"], "--annotate",
     "the rule file c.gdl"),
    (["replay", "t.txt", "--html", "t.txt"], "--html", "the transcript t.txt"),
    (["replay", "t.txt", "--html", "c.gdl"], "--html", "the rule file of the transcript c.gdl"),
    (["report", "r.jsonl", "-o", "r.jsonl"], "--output", "the records file r.jsonl"),
    (["serve", "c.gdl", "--save", "c.gdl", "--port", "0"], "--save", "the rule file c.gdl"),
    (["simulate", "c.gdl", "--games", "2", "--out", "c.gdl"], "--out", "the rule file c.gdl"),
    (["test", "s.scenario", "--coverage", "--annotate", "s.scenario"], "--annotate",
     "the scenario file s.scenario"),
]


@pytest.mark.parametrize("args, option, kept", OVERWRITES, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_an_output_that_names_an_input_is_refused_before_anything_is_written(folder, args,
                                                                            option, kept):
    shutil.copy(RULES / "coverage.scenario", folder / "s.scenario")
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    result = gdl(*args, cwd=folder)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines()[-1] == (f"Error: {option} would overwrite {kept}: "
                                              "name another file")
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


@pytest.mark.parametrize("args", [["show", "v.gdl", "--svg", "base.gdl"],
                                  ["record", "v.gdl", "-o", "base.gdl"]])
def test_the_base_file_a_rule_file_extends_is_an_input_too(folder, args):
    os.rename(folder / "c.gdl", folder / "base.gdl")
    (folder / "v.gdl").write_text('extends "base.gdl"\n', encoding="utf-8")
    result = gdl(*args, cwd=folder)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "would overwrite the base rule file base.gdl: name another file" in result.stderr
    assert (folder / "base.gdl").read_bytes() == RULE_TEXT


def test_a_link_to_the_input_is_the_input(folder):
    os.symlink("c.gdl", folder / "picture.svg")
    result = gdl("show", "c.gdl", "--svg", "picture.svg", cwd=folder)
    assert result.returncode == 2
    assert "--svg would overwrite the rule file c.gdl" in result.stderr
    assert (folder / "c.gdl").read_bytes() == RULE_TEXT


def test_serve_refuses_a_save_file_of_a_later_game_that_is_the_rule_file(folder):
    # game 2 of --save c.txt is saved as c-2.txt
    shutil.copy(RULE_FILE, folder / "c-2.gdl")
    result = gdl("serve", "c-2.gdl", "--save", "c.gdl", "--games", "2", "--port", "0",
                 cwd=folder)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == ("Error: --save would overwrite the rule file "
                                              "c-2.gdl: name another file")
    assert (folder / "c-2.gdl").read_bytes() == RULE_TEXT


def test_other_outputs_are_still_written(folder):
    result = gdl("show", "c.gdl", "--svg", "c.svg", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert (folder / "c.svg").read_text().startswith("<svg")


def test_saving_at_the_prompt_keeps_the_rule_file_and_the_moves_file(tmp_path):
    shutil.copy(TIC_TAC_TOE, tmp_path / "ttt.gdl")
    (tmp_path / "moves.txt").write_text("1\n")
    result = gdl("play", "ttt.gdl", "--players", "human,human", "--moves", "moves.txt",
                 stdin="save ttt.gdl\nsave ./moves.txt\nsave game.txt\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "not saved: that would overwrite the rule file ttt.gdl: name another file" in out
    assert "not saved: that would overwrite the moves file moves.txt: name another file" in out
    assert "saved 1 decision to game.txt" in out
    assert (tmp_path / "ttt.gdl").read_bytes() == TIC_TAC_TOE.read_bytes()
    assert (tmp_path / "moves.txt").read_text() == "1\n"


def test_saving_at_the_prompt_over_the_resumed_game_goes_on_with_it(tmp_path):
    shutil.copy(TIC_TAC_TOE, tmp_path / "ttt.gdl")
    first = gdl("play", "ttt.gdl", "--players", "human,human", stdin="1\nsave g.txt\nquit\n",
                cwd=tmp_path)
    assert "saved 1 decision to g.txt" in first.stdout, first.stderr
    again = gdl("play", "--resume", "g.txt", stdin="1\nsave g.txt\nquit\n", cwd=tmp_path)
    assert "saved 2 decisions to g.txt" in again.stdout, again.stderr


NOT_UTF8 = os.fsdecode(b"t\xff.gdl")    # a file name of bytes that are not UTF-8


def test_a_rule_file_whose_name_is_not_utf8_is_no_transcript_s_rule_file(tmp_path):
    shutil.copy(TIC_TAC_TOE, tmp_path / NOT_UTF8)
    message = ("cannot name the rule file t\ufffd.gdl in a transcript: its name is not UTF-8 "
               "text (rename the file)")
    for args in (["-o", "t.txt"], []):
        result = gdl("record", NOT_UTF8, *args, cwd=tmp_path)
        assert (result.returncode, result.stdout, result.stderr) == (1, "", f"error: {message}\n")
    assert not (tmp_path / "t.txt").exists()
    result = gdl("play", NOT_UTF8, "--players", "human,human", stdin="1\nsave g.txt\nquit\n",
                 cwd=tmp_path)
    assert result.returncode == 0 and f"not saved: {message}" in result.stdout, result.stderr


def test_a_file_that_names_a_path_not_utf8_holds_the_path_s_bytes(tmp_path):
    """As the standard output does (a report page and an annotated rule file name their
    input; writing them raised UnicodeEncodeError)."""
    shutil.copy(RULE_FILE, tmp_path / NOT_UTF8)
    records = os.fsdecode(b"r\xff.jsonl")
    for args in (["coverage", NOT_UTF8, "--games", "1", "--annotate", "a.txt"],
                 ["simulate", NOT_UTF8, "--games", "2", "--out", records],
                 ["report", records, "-o", "r.html"]):
        result = subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], cwd=tmp_path,
                                capture_output=True)     # bytes: the output names the file
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.txt").read_bytes().startswith(b"# t\xff.gdl\n")
    assert b"From r\xff.jsonl: " in (tmp_path / "r.html").read_bytes()


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_workers_above_twice_the_cores_are_refused(command):
    cores = os.cpu_count() or 1
    files = [str(RULE_FILE)] * (2 if command == "compare" else 1)
    result = gdl(command, *files, "--games", "2", "--workers", str(2 * cores + 1))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for '--workers': {2 * cores + 1} is more than twice this "
        f"machine's {cores} core{'s' * (cores > 1)}: more processes only wait for the cores "
        f"(give at most {2 * cores})")


def test_workers_up_to_twice_the_cores_are_accepted():
    cores = os.cpu_count() or 1
    result = gdl("simulate", str(RULE_FILE), "--games", "2", "--workers", str(2 * cores))
    assert result.returncode == 0, result.stderr


def test_a_folder_without_scenario_files_says_so(tmp_path):
    (tmp_path / "empty").mkdir()
    result = gdl("test", str(tmp_path / "empty"))
    assert result.returncode == 1
    assert result.stderr == (f"{tmp_path / 'empty'}: error: no scenario files (*.scenario) "
                             "in this folder\n")


def test_a_folder_without_scenario_files_fails_a_run_of_other_files_too(tmp_path):
    (tmp_path / "empty").mkdir()
    result = gdl("test", str(RULES / "coverage.scenario"), str(tmp_path / "empty"))
    assert result.returncode == 1
    assert "no scenario files (*.scenario) in this folder" in result.stderr
    assert result.stdout.splitlines()[-1].endswith("passed, 0 failed")


@pytest.mark.parametrize("args", [["replay", "t.txt"], ["replay", "t.txt", "--html", "t.html"],
                                  ["play", "--resume", "t.txt"],
                                  ["explain", "t.txt", "--legal"]])
@pytest.mark.parametrize("seed", ["-5", str(2 ** 64)])
def test_a_transcript_seed_out_of_range_is_told_at_its_line(folder, args, seed):
    text = (folder / "t.txt").read_text()
    lines = text.split("\n")
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("seed: "))
    lines[number - 1] = f"seed: {seed}"
    (folder / "t.txt").write_text("\n".join(lines))
    result = gdl(*args, cwd=folder)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"t.txt:{number}:7: error: a seed is a number from 0 to {2 ** 64 - 1}, not {seed}",
        f"    seed: {seed}",
        "          ^"]


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["test"]])
def test_a_pipe_in_a_folder_is_no_file_to_read(tmp_path, command):
    """A FIFO named like a rule file or a scenario is passed over: reading it waited for
    ever (`gdl check .` never ended)."""
    shutil.copy(RULE_FILE, tmp_path / "c.gdl")
    (tmp_path / "c.scenario").write_text("rules c.gdl\nexpect playing\n")
    os.mkfifo(tmp_path / "pipe.gdl")
    os.mkfifo(tmp_path / "pipe.scenario")
    result = gdl(*command, str(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    assert "pipe." not in result.stdout + result.stderr
