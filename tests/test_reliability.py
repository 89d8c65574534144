"""Bad input from the command line and rule files that nest without end: a clear message
and a non-zero exit, never a traceback (issue 20's regressions)."""

import os
import time

import pytest
from click.testing import CliRunner

from gdl.cli.main import main
from gdl.interpreter.tools import fmt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
HEAD = 'game "x"\nseats a, b\nboard square(2, 2)\nvar t = 0\nsetup { goto q for a }\n'


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", [
    ["simulate", SPACE_WAR, "--games", "1"], ["record", SPACE_WAR, "--seed", "1"],
    ["play", SPACE_WAR, "--seed", "1"]])
@pytest.mark.parametrize("value, message", [
    ("iterations=1" + "0" * 309, "mcts: iterations must be at most 1,000,000,000, not "
     "'10000000000000000000...'"),
    ("c=1e400", "mcts: c must be at most 1,000,000,000, not '1e400'"),
    ("rollout=5000000000", "mcts: rollout must be at most 1,000,000,000, not '5000000000'"),
])
def test_an_agent_parameter_too_large_is_refused_by_name(command, value, message):
    result = run(*command, "--players", f"mcts:{value},random")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"Invalid value for '--players': {message}" in result.output


def write(tmp_path, text, name="deep.gdl"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["play", "--seed", "1"]])
def test_parentheses_nested_past_the_limit_give_one_message_to_every_tool(tmp_path, command):
    path = write(tmp_path, HEAD + "param p = " + "(" * 1000 + "1" + ")" * 1000 + "\n"
                 "phase q { action go() { win me } }\n")
    result = run(*command[:1], path, *command[1:])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}:6:211: error: nested too deeply: more than 200 parentheses, brackets " \
           "and braces open at once" in result.output


def test_a_file_at_the_nesting_limit_is_checked_formatted_and_played(tmp_path):
    path = write(tmp_path, HEAD + "param p = " + "[" * 199 + "1" + "]" * 199 + "\n"
                 "phase q { action go() { win me } }\n")
    assert run("check", path).exit_code == 0
    assert run("fmt", path).exit_code == 0
    assert run("check", path).exit_code == 0
    assert "game over: a won" in run("play", path, "--seed", "1").output


def loops(n):
    return HEAD + "phase q { action go() { " + "".join(
        f"for x{i} in [1] {{ " for i in range(n)) + "t += 1" + " }" * n + " win me } }\n"


def blocks(n):
    return HEAD + "phase q { action go() { " + "if true { " * n + "win me" + " }" * n + " } }\n"


def dense(rows):
    """A rule file of `rows` params, each a list of 200 numbers: 401 tokens a row (a 1 MB file
    of 1,600 rows is 640,000 tokens, which Lark took 30 s to parse)."""
    return HEAD + "phase q { action go() { win me } }\n" + "".join(
        f"param p{i} = [" + ", ".join(["1"] * 200) + "]\n" for i in range(rows))


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["play", "--seed", "1"]])
def test_a_rule_file_of_too_many_tokens_is_refused_at_once(tmp_path, command):
    """A file under the size limit but dense with tokens is refused before it is parsed,
    from every tool that parses it (the language server parses with the same parser)."""
    path = write(tmp_path, dense(1_600))
    started = time.monotonic()
    result = run(*command[:1], path, *command[1:])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error: too many tokens: more than 100,000 words, numbers, texts and signs" in \
        result.output, result.output
    assert time.monotonic() - started < 10
    assert run("check", write(tmp_path, dense(240), "fine.gdl")).exit_code == 0


def binders(n):
    return HEAD + "phase q { action go(" + ", ".join(f"x{i} in [1]" for i in range(n)) + \
        ") where exists(y in [1] where y == x0) { win me } }\n"


def sums(n):
    """`t = t + t + ... + t`, n terms: n operations inside one another (the code generator
    nests one `+` inside the next; at 199 the checker passed a file Python could not load,
    'SyntaxError: too many nested parentheses')."""
    return HEAD + "phase q { action go() { t = " + " + ".join(["t"] * n) + " win me } }\n"


@pytest.mark.parametrize("rules, limit, message", [
    (sums, 150, "expression nested too deeply: more than 150 operations inside one another "
     "(give parts of it names: a let, a fn)"),
    (loops, 16, "loops nested too deeply: more than 16 'for' loops inside one another"),
    (blocks, 89, "blocks nested too deeply: more than 90 blocks inside one another"),
    (binders, 16, "action 'go' takes 17 parameters: at most 16"),
], ids=["expression", "loops", "blocks", "binders"])
def test_blocks_loops_and_binders_nest_only_as_deep_as_the_code_can_run(
        tmp_path, rules, limit, message):
    at_limit = write(tmp_path, rules(limit), "ok.gdl")
    played = run("play", at_limit, "--seed", "1")
    assert played.exit_code == 0 and "game over: a won" in played.output, played.output
    past = write(tmp_path, rules(limit + 1), "past.gdl")
    checked = run("check", past)
    assert checked.exit_code == 1 and message in checked.output
    assert "Traceback" not in checked.output


def test_fmt_formats_the_target_of_a_link_and_keeps_the_link(tmp_path):
    target = tmp_path / "rules.gdl"
    target.write_text('game "x"\nseats a,b\nboard square(2,2)\nsetup {goto q for a}\n'
                      'phase q { action go() { win me } }\n')
    link = tmp_path / "link.gdl"
    link.symlink_to(target)
    assert run("fmt", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "seats a, b" in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.gdl", "rules.gdl"]


def test_fmt_in_a_folder_it_cannot_write_says_so(tmp_path, monkeypatch):
    path = write(tmp_path, 'game "x"\nseats a,b\nboard square(2,2)\nsetup {goto q for a}\n'
                 'phase q { action go() { win me } }\n')
    before = open(path).read()

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(fmt, "write_atomic", refuse)
    said, warned = [], []
    assert not fmt.format_files([path], False, False, say=said.append, warn=warned.append)
    assert warned == [f"{path}: error: cannot write the formatted file: Permission denied"]
    assert open(path).read() == before and said == []


def test_a_scenario_phase_line_whose_on_enter_faults_is_an_error_of_that_line(tmp_path):
    (tmp_path / "r.gdl").write_text(
        HEAD + "phase q { action go() { goto bad for me } }\n"
        "phase bad { on enter { t = 1 / (t - t) } action stay() { win me } }\n")
    scenario = tmp_path / "t.scenario"
    scenario.write_text("rules r.gdl\nphase bad for a\nexpect winner none\n")
    result = run("test", str(scenario))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{scenario}:2:1: error: run-time error: division by zero (at " in result.output


def test_a_binary_file_is_refused_without_printing_it(tmp_path):
    path = tmp_path / "program"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(128, 256)) * 40 + b"\n")
    result = run("play", str(path))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"{path}:1:9: error: this is not a text rule file: byte "
                                     "0x80 is not UTF-8 (it looks like a binary file)")


def test_a_long_line_is_shown_around_the_error_only(tmp_path):
    path = tmp_path / "long.gdl"
    path.write_text('game "x"\n' + "var a = 1 " * 400 + "$\n")
    result = run("check", str(path))
    assert result.exit_code == 1
    shown, caret = result.stderr.splitlines()[1:3]
    assert len(shown) < 120 and shown.startswith("    ...") and shown.endswith("$")
    assert caret.index("^") == shown.index("$")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [
    ["check", "tests/rules/nim.gdl"], ["compile", "tests/rules/nim.gdl"], ["--help"],
    ["show", "tests/rules/nim.gdl"], ["record", "tests/rules/nim.gdl"],
    ["simulate", "tests/rules/nim.gdl", "--games", "2", "--out", "-"],
    ["explain", "tests/rules/nim.gdl", "--legal"]], ids=" ".join)
def test_a_standard_output_that_cannot_be_written_is_one_message(args):
    """A full disk (here /dev/full) under the standard output gave a Python traceback
    ending 'OSError: [Errno 28] No space left on device', then another as Python flushed
    the stream at exit."""
    import subprocess
    import sys
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], cwd=ROOT,
                                stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1:] == [
        "error: cannot write the standard output: No space left on device"]
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


def _closed(fd, *args, stdin=None):
    """`gdl ARGS` with file descriptor `fd` closed (`gdl ... >&-`, `<&-`): Python then
    has no sys.stdout (sys.stdin)."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], cwd=ROOT,
                          stdin=stdin, stdout=subprocess.PIPE if fd != 1 else None,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(fd))


@pytest.mark.parametrize("args, status, message", [
    (["check", "tests/rules/nim.gdl"], 0, None),      # its lines go nowhere, as before
    (["simulate", "tests/rules/nim.gdl", "--games", "2", "--out", "-"], 1,
     "error: cannot write <stdout>: there is no standard output"),
    # the transcript is the command's work: not lost in silence with exit status 0
    (["record", "tests/rules/nim.gdl", "-o", "-"], 1,
     "error: cannot write <stdout>: there is no standard output"),
    (["record", "tests/rules/nim.gdl"], 1,
     "error: cannot write <stdout>: there is no standard output")], ids=str)
def test_a_closed_standard_output_is_no_traceback(args, status, message):
    """(`gdl simulate --out - >&-` failed with 'AttributeError: 'NoneType' object has no
    attribute 'flush''; `gdl record FILE -o - >&-` exited 0, its transcript lost.)"""
    result = _closed(1, *args)
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    if message is not None:
        assert result.stderr.splitlines()[-1] == message


def test_a_closed_standard_input_is_its_end_for_a_human_seat():
    """(`gdl play FILE --players human <&-` failed with 'AttributeError: 'NoneType' object
    has no attribute 'isatty''.) As with an empty input, the human leaves at once."""
    import subprocess
    result = _closed(0, "play", "tests/rules/nim.gdl", "--players", "human", "--seed", "1",
                     stdin=subprocess.DEVNULL)
    assert (result.returncode, "Traceback" in result.stderr) == (0, False), result.stderr
    assert result.stdout.rstrip().endswith("bye")
