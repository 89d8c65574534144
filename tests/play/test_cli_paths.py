"""The files the `gdl` command is given: an output option never writes over the command's own
input (the user's file would be lost), a transcript's bad seed is told at its line, a folder
without scenarios says so, and `--workers` has a ceiling; `-` is the standard output for a
file written and the standard input for a file read, in every command; a file that cannot be
read is told in one wording; a name that is not UTF-8 is printed as its bytes."""

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import GAMES, RULES, gdl

RULE_FILE = RULES / "coverage.gdl"          # a short game of two random seats
RULE_TEXT = RULE_FILE.read_bytes()
TIC_TAC_TOE = GAMES / "classic" / "tic_tac_toe.gdl"     # a game long enough for prompts


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """c.gdl (a rule file), t.txt (its transcript) and r.jsonl (records), made once."""
    made = tmp_path_factory.mktemp("recorded")
    shutil.copy(RULE_FILE, made / "c.gdl")
    done = gdl("record", "c.gdl", "-o", "t.txt", cwd=made)
    assert done.returncode == 0, done.stderr
    (made / "r.jsonl").write_text('{"seed": 0, "game": "c", "seats": []}\n')
    return made


@pytest.fixture
def folder(tmp_path, recorded):
    """A folder of the test's own holding copies of `recorded`'s three files."""
    for name in ("c.gdl", "t.txt", "r.jsonl"):
        shutil.copy(recorded / name, tmp_path / name)
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


def gdl_bytes(*args: str, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess:
    """`gdl` as a subprocess, its streams as bytes: a name that is not UTF-8 is printed as
    its own bytes (text streams would refuse them)."""
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], input=stdin,
                          capture_output=True, cwd=cwd)


def test_a_rule_file_whose_name_is_not_utf8_is_no_transcript_s_rule_file(tmp_path):
    shutil.copy(TIC_TAC_TOE, tmp_path / NOT_UTF8)
    message = (b"cannot name the rule file t\xff.gdl in a transcript: its name is not UTF-8 "
               b"text (rename the file)")
    for args in (["-o", "t.txt"], []):
        result = gdl_bytes("record", NOT_UTF8, *args, cwd=tmp_path)
        assert (result.returncode, result.stdout, result.stderr) == (
            1, b"", b"error: " + message + b"\n")
    assert not (tmp_path / "t.txt").exists()
    result = gdl_bytes("play", NOT_UTF8, "--players", "human,human",
                       stdin=b"1\nsave g.txt\nquit\n", cwd=tmp_path)
    assert result.returncode == 0 and b"not saved: " + message in result.stdout, result.stderr


def test_a_name_not_utf8_is_printed_as_its_bytes_on_both_streams(tmp_path):
    """As the standard output always printed it (`FILE: ok`, `FILE: formatted`): `gdl fmt
    --check` and every error on the standard error printed 't\\udcff.gdl'."""
    (tmp_path / NOT_UTF8).write_text("seats a, b\nboard  square(1, 1)\n", encoding="utf-8")
    name = os.fsencode(tmp_path / NOT_UTF8)
    checked = gdl_bytes("fmt", "--check", str(tmp_path))
    assert (checked.returncode, checked.stderr) == (1, name + b": would be reformatted\n")
    missing = gdl_bytes("replay", os.fsdecode(b"n\xff.txt"), cwd=tmp_path)
    assert missing.stderr == (b"error: cannot read transcript n\xff.txt: No such file or "
                              b"directory\n")
    formatted = gdl_bytes("fmt", str(tmp_path))
    assert formatted.stdout == name + b": formatted\n"


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


# ----- '-': the standard output for a file written, the standard input for a file read -----

@pytest.fixture
def played(folder):
    """`folder`, with r.jsonl holding the records of three games of c.gdl."""
    result = gdl("simulate", "c.gdl", "--games", "3", "--out", "r.jsonl", cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


# (a command writing a file to the standard output, the same command writing it to OUT)
TO_STANDARD_OUTPUT = [
    ["record", "c.gdl", "-o", "OUT"],
    ["report", "r.jsonl", "-o", "OUT"],
    ["show", "c.gdl", "--svg", "OUT"],
    ["replay", "t.txt", "--html", "OUT"],
    ["coverage", "c.gdl", "--games", "2", "--annotate", "OUT"],
    ["test", "s.scenario", "--coverage", "--annotate", "OUT"],
    ["simulate", "c.gdl", "--games", "3", "--out", "OUT.jsonl"],
]


@pytest.mark.parametrize("args", TO_STANDARD_OUTPUT, ids=" ".join)
def test_an_output_named_dash_is_the_standard_output_and_holds_the_file_alone(played, args):
    """The standard output holds what the file would: the command's own lines (what it
    wrote, a summary) go to the standard error, and no file named '-' is made."""
    (played / "s.scenario").write_text("rules c.gdl\nplay step\nexpect total == 3\n")
    to_file = gdl(*[a.replace("OUT", "out") for a in args], cwd=played)
    assert to_file.returncode == 0, to_file.stderr
    written = next(played.glob("out*")).read_text()
    to_stdout = gdl(*[a.replace("OUT.jsonl", "-").replace("OUT", "-") for a in args],
                    cwd=played)
    assert to_stdout.returncode == 0, to_stdout.stderr
    if args[0] == "simulate":       # its summary says how fast: the records only
        assert to_stdout.stdout.split("\n") == written.split("\n")
    else:
        assert to_stdout.stdout == written
    assert not (played / "-").exists()
    if args[0] != "record":         # (record writes no line but the transcript)
        assert to_stdout.stderr and "Traceback" not in to_stdout.stderr
        assert "wrote" in to_file.stdout and "wrote -" not in to_stdout.stderr


def test_records_piped_from_simulate_make_a_report(played):
    records = gdl("simulate", "c.gdl", "--games", "3", "--out", "-", cwd=played)
    assert records.stderr.startswith("Coverage: 3 games from seed 0")
    report = gdl("report", "-", "-o", "page.html", stdin=records.stdout, cwd=played)
    assert report.returncode == 0, report.stderr
    assert report.stdout == "wrote page.html: Coverage, 3 games\n"
    assert "From &lt;stdin&gt;: seeds 0 to 2" in (played / "page.html").read_text()


@pytest.mark.parametrize("args, expected", [
    (["replay", "-"], "<stdin>: ok: {n} decisions replay identically\n"),
    (["play", "--resume", "-", "--players", "random,random"], None),
    (["play", "c.gdl", "--moves", "-"], None),
    (["show", "c.gdl", "--moves", "-"], None),
    (["explain", "-", "--step", "2", "--legal"], None),
    (["explain", "c.gdl", "--moves", "-", "--legal"], None),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_transcript_named_dash_is_read_from_the_standard_input(folder, args, expected):
    """Read once, whatever the command reads of it (`replay` reads it three times: its
    seed, its replay, its ending); as given by name it gives the same answer."""
    if args[:2] == ["play", "--resume"]:        # a saved game, unfinished
        saved = gdl("play", "c.gdl", "--players", "human,human",
                    stdin="1\nsave saved.txt\nquit\n", cwd=folder)
        assert saved.returncode == 0, saved.stderr
    else:
        shutil.copy(folder / "t.txt", folder / "saved.txt")
    text = (folder / "saved.txt").read_text()
    from_file = gdl(*[a if a != "-" else "saved.txt" for a in args], cwd=folder)
    from_stdin = gdl(*args, stdin=text, cwd=folder)
    assert from_stdin.returncode == from_file.returncode == 0, from_stdin.stderr
    if expected is not None:
        decisions = sum(line[:1].isdigit() for line in text.split("---", 1)[1].split("\n"))
        assert from_stdin.stdout == expected.format(n=decisions)
    else:
        assert from_stdin.stdout == from_file.stdout.replace("saved.txt", "<stdin>")
    assert not (folder / "-").exists()


def test_replay_of_the_standard_input_to_the_standard_output(folder):
    from_file = gdl("replay", "t.txt", "--html", "t.html", cwd=folder)
    assert from_file.returncode == 0, from_file.stderr
    piped = gdl("replay", "-", "--html", "-", stdin=(folder / "t.txt").read_text(),
                cwd=folder)
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr.startswith("<stdin>: ok: wrote <stdout> (")
    page = (folder / "t.html").read_text()
    assert piped.stdout == page.replace("t.txt - ", "&lt;stdin&gt; - ")


def test_a_transcript_from_the_standard_input_names_it_in_its_errors(folder):
    """Its rule file is named from the current folder; a line that differs is told at
    `<stdin>:LINE`."""
    lines = (folder / "t.txt").read_text().split("\n")
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("2 "))
    lines[number - 1] = lines[number - 1].rsplit(" ", 1)[0] + " nowhere"
    result = gdl("replay", "-", stdin="\n".join(lines), cwd=folder)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: <stdin>:{number}: '")
    assert "' is not legal: " in result.stderr
    elsewhere = gdl("replay", "-", stdin=(folder / "t.txt").read_text(), cwd=folder.parent)
    assert elsewhere.stderr.startswith("<stdin>:3:8: error: cannot read rule file c.gdl: No "
                                       "such file or directory\n    rules: c.gdl\n")


def test_records_and_scenarios_named_dash_are_read_from_the_standard_input(played):
    report = gdl("report", "-", "-o", "-", stdin=(played / "r.jsonl").read_text(), cwd=played)
    assert report.returncode == 0 and report.stdout.startswith("<!DOCTYPE html>")
    scenario = (RULES / "coverage.scenario").read_text()
    test = gdl("test", "-", stdin=scenario, cwd=RULES)     # its rule file: from here
    assert (test.returncode, test.stdout) == (0, "1 passed, 0 failed\n"), test.stderr
    failing = gdl("test", "-", stdin=scenario.replace("== 3", "== 4"), cwd=RULES)
    assert failing.returncode == 1
    assert failing.stderr.startswith("<stdin>:4: expected ")


def test_a_rule_file_named_dash_is_the_standard_input_for_check_compile_and_fmt():
    text = RULE_FILE.read_text()
    check = gdl("check", "-", stdin=text)
    assert check.stdout == "<stdin>: ok: 'Coverage', 2 seats, 1 phase, square board 3x1\n"
    wrong = gdl("check", "-", stdin="seats a, b\nboard square(1, 1)\nvar x = y\n")
    assert wrong.returncode == 1 and wrong.stderr.startswith("<stdin>:3:9: error: ")
    compiled = gdl("compile", "-", stdin=text)
    by_name = gdl("compile", str(RULE_FILE))
    assert compiled.stdout == by_name.stdout.replace(str(RULE_FILE), "<stdin>", 1)
    assert gdl("fmt", "-", stdin=text).stdout == text


@pytest.mark.parametrize("args", [
    ["play", "-"], ["serve", "-"], ["simulate", "-"], ["compare", "-", "c.gdl"],
    ["record", "-"], ["show", "-"], ["coverage", "-"], ["bench", "-"]], ids=" ".join)
def test_a_command_that_reads_the_rule_file_by_name_refuses_dash(folder, args):
    """Its name goes into what it writes (a transcript's `rules:`), worker processes load
    it again, the server watches it: a usage error, not 'cannot read -'."""
    result = gdl(*args, stdin=RULE_TEXT.decode(), cwd=folder)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].endswith(
        "'-' (the standard input) is a rule file for gdl check, compile and fmt only: this "
        "command reads the rule file by its name (a file named '-' is ./-)")


def test_a_file_named_dash_is_dot_slash_dash(folder):
    shutil.copy(RULE_FILE, folder / "-")
    result = gdl("check", "./-", cwd=folder)
    assert result.stdout.startswith("./-: ok: ")


@pytest.mark.parametrize("args, stdin, message", [
    (["play", "c.gdl", "--players", "human", "--moves", "-"], "1\n",
     "error: the standard input ('-') holds the moves, so a human seat could not type its "
     "decisions there: give the file by its name, or agents for every seat (--players)"),
    (["play", "c.gdl", "--moves", "-", "--resume", "-"], "",
     "Error: --moves and --resume cannot both read the standard input ('-'): give one of "
     "them as a file"),
    (["serve", "c.gdl", "--save", "-", "--port", "0"], "",
     "Error: Invalid value for '--save': the standard output ('-') cannot hold a saved "
     "game: --save writes the game again after every decision, so that it outlives the "
     "server, and game N to FILE-N; the standard output holds the URLs. Give a file, or "
     "save a game from the lobby's 'save' link"),
])
def test_where_dash_cannot_be_read_or_written_the_command_says_why(folder, args, stdin,
                                                                    message):
    result = gdl(*args, stdin=stdin, cwd=folder)
    assert result.returncode in (1, 2)
    assert result.stderr.splitlines()[-1] == message


def test_save_at_the_prompt_refuses_dash(tmp_path):
    shutil.copy(TIC_TAC_TOE, tmp_path / "ttt.gdl")
    result = gdl("play", "ttt.gdl", "--players", "human,human", stdin="save -\nquit\n",
                 cwd=tmp_path)
    assert ("not saved: save writes a file: name one ('-' would be the standard output, "
            "where the game is played)") in result.stdout
    assert not (tmp_path / "-").exists()


# ----- a file that cannot be read: one wording, whatever the file and the command ------------

@pytest.mark.parametrize("args, what", [
    (["check", "none"], "rule file"),
    (["compile", "none"], "rule file"),
    (["fmt", "none"], "rule file"),
    (["play", "none"], "rule file"),
    (["show", "none"], "rule file"),
    (["simulate", "none", "--games", "1"], "rule file"),
    (["coverage", "none", "--games", "1"], "rule file"),
    (["explain", "none", "--legal"], "rule file"),
    (["report", "none", "-o", "r.html"], "records file"),
    (["replay", "none"], "transcript"),
    (["play", "--resume", "none"], "transcript"),
    (["play", "c.gdl", "--moves", "none"], "moves file"),
    (["show", "c.gdl", "--moves", "none"], "moves file"),
    (["test", "none"], "scenario"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_file_that_cannot_be_read_is_told_in_one_wording(folder, args, what):
    """'error: cannot read WHAT PATH: why', from one helper (`files.cannot_read`): `gdl
    report` said it so, the rule-file commands 'PATH: error: cannot read PATH: why'."""
    result = gdl(*args, cwd=folder)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (f"error: cannot read {what} none: No such file "
                                             "or directory")


@pytest.mark.parametrize("stdin, why", [
    (b"# gdl transcript\n" + b"x" * 200, "it holds more than 100 characters, more than a "
     "transcript can be (is it a transcript?)"),
    (b"# gdl transcript\n\xff\n", "byte 0xff is not UTF-8"),
])
def test_the_standard_input_is_read_as_a_file_is(monkeypatch, stdin, why):
    """UTF-8, at most MAX_DATA characters (read a part at a time: `< /dev/zero` ends)."""
    from tests.helpers import invoke
    monkeypatch.setattr("gdl.interpreter.files.MAX_DATA", 100)
    result = invoke("replay", "-", stdin=stdin)
    assert result.exit_code == 1
    assert result.output == f"error: cannot read transcript <stdin>: {why}\n"
    # `play --moves -` reads it first for a transcript's seed, then as the moves file it is
    # ('cannot read transcript <stdin>' was said of moves)
    moves = invoke("play", str(RULE_FILE), "--moves", "-", stdin=stdin)
    assert moves.exit_code == 1
    assert moves.output == "error: cannot read moves file <stdin>: " + why.replace(
        "transcript", "moves file") + "\n"


# ----- an empty file name: a usage error naming the option, whatever the command -------------

@pytest.mark.parametrize("args, option", [
    (["check", ""], "'FILES...'"), (["compile", ""], "'FILE'"), (["fmt", ""], "'PATHS...'"),
    (["play", ""], "'[FILE]'"), (["play", "c.gdl", "--moves", ""], "'--moves'"),
    (["play", "--resume", ""], "'--resume'"), (["play", "c.gdl", "--save", ""], "'--save'"),
    (["record", "c.gdl", "-o", ""], "'-o' / '--output'"), (["replay", ""], "'TRANSCRIPT'"),
    (["replay", "t.txt", "--html", ""], "'--html'"), (["show", "c.gdl", "--svg", ""], "'--svg'"),
    (["show", "c.gdl", "--moves", ""], "'--moves'"),
    (["simulate", "c.gdl", "--games", "1", "--out", ""], "'--out'"),
    (["report", "r.jsonl", "-o", ""], "'-o' / '--output'"), (["report", "", "-o", "r.html"],
                                                             "'RECORDS'"),
    (["compare", "c.gdl", ""], "'VARIANT'"), (["test", ""], "'PATHS...'"),
    (["test", "-", "--coverage", "--annotate", ""], "'--annotate'"),
    (["explain", "", "--legal"], "'FILE'"), (["explain", "c.gdl", "--moves", "", "--legal"],
                                             "'--moves'"),
    (["coverage", "c.gdl", "--games", "1", "--annotate", ""], "'--annotate'"),
    (["bench", ""], "'[FILES]...'"), (["serve", "c.gdl", "--save", "", "--port", "0"],
                                      "'--save'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_an_empty_file_name_is_a_usage_error(folder, args, option):
    """An empty name ("$OUT" unset in a script) was read as a folder ('cannot write : Is a
    directory'), as no file at all (`record -o ''` printed the transcript, `coverage
    --annotate ''` wrote nothing, `show --moves ''` drew the setup) or as a file no one
    could find ('cannot read rule file : No such file or directory'). Nothing is written."""
    before = sorted(os.listdir(folder))
    result = gdl(*args, cwd=folder, stdin="")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (f"Error: Invalid value for {option}: the file "
                                              "name is empty: give a file's name")
    assert sorted(os.listdir(folder)) == before


@pytest.mark.parametrize("args", [
    ["simulate", "stuck.gdl", "--games", "3", "--out", "{out}.jsonl"],
    ["record", "stuck.gdl", "-o", "{out}.txt"]], ids=lambda v: v[0])
@pytest.mark.parametrize("out", ["missing/r", "folder", "stuck.gdl/r"])
def test_an_output_that_cannot_be_written_is_refused_before_the_games(tmp_path, args, out):
    """`gdl simulate --out missing/r.jsonl` played every game (minutes of them), then said
    'cannot write missing/r.jsonl'; `gdl record -o` too. The rule file here gets stuck at
    its first decision: the games were played when that error comes first."""
    (tmp_path / "stuck.gdl").write_text(
        'game "Stuck"\nseats a, b\nboard square(1, 1)\n\nsetup {\n  goto play for a\n}\n\n'
        "phase play turn {\n  action pass() where false {\n    goto play for next(me)\n"
        "  }\n}\n")
    (tmp_path / "folder.jsonl").mkdir()
    (tmp_path / "folder.txt").mkdir()
    path = args[-1].format(out=out)
    result = gdl(*args[:-1], path, cwd=tmp_path)
    # (a file where the folder should be was said to be missing, as the write says it is not)
    why = {"missing/r": "No such file or directory", "folder": "Is a directory",
           "stuck.gdl/r": "Not a directory"}[out]
    assert (result.returncode, result.stderr) == (1, f"error: cannot write {path}: {why}\n")
