"""`gdl fmt`: the canonical layout, pinned on small texts; on every rule file of the repository
and every gdl example of the docs it keeps the meaning (the same syntax tree) and the
comments, is idempotent, and does not depend on the white space it was given; the shipped
files are formatted already; `--check`, `--diff`, `-`, errors and atomic writes."""

import glob
import os
import random
import re
import stat
import time

import pytest

from gdl.interpreter.language.concrete import tokens
from gdl.interpreter.language.errors import GdlSyntaxError
from gdl.interpreter.language.parser import parse_concrete, parse_program
from gdl.interpreter.tools.fmt import format_markdown, format_text

from tests.helpers import ROOT, gdl, invoke


RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True)
                    + glob.glob(os.path.join(ROOT, "tests", "rules", "*.gdl")))
DOCS = [os.path.join(ROOT, "docs", name) for name in ("language.md", "tutorial.md",
                                                      "balance.md")]


def docs_examples():
    """(id, text) of every ```gdl example of the docs that parses as a whole rule file."""
    out = []
    for path in DOCS:
        text = open(path, encoding="utf-8").read()
        for number, match in enumerate(re.finditer(r"^```gdl\n(.*?)^```", text, re.S | re.M)):
            try:
                parse_program(match.group(1))
            except GdlSyntaxError:
                continue
            out.append((f"{os.path.basename(path)}-{number}", match.group(1)))
    return out


EXAMPLES = [(os.path.relpath(p, ROOT), open(p, encoding="utf-8").read()) for p in RULE_FILES]
EXAMPLES += docs_examples()


def comments(text):
    return [c.text.rstrip() for c in parse_concrete(text).comments]


def test_the_examples_are_many():
    assert len(EXAMPLES) > 70


@pytest.mark.parametrize("name, text", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_formatting_keeps_the_meaning_and_the_comments_and_is_idempotent(name, text):
    out = format_text(text, name)
    assert parse_program(out) == parse_program(text)
    assert comments(out) == comments(text)
    assert format_text(out, name) == out


def scrambled(text, seed):
    """The same tokens and comments on the same lines, with other indentation and spacing:
    each line rebuilt from its tokens with 1 to 3 spaces between them."""
    generator = random.Random(seed)
    tree = parse_concrete(text)
    by_line = {}
    for token in sorted(tokens(tree.root) + list(tree.comments),
                        key=lambda t: (t.line, t.column)):
        by_line.setdefault(token.line, []).append(token.text)
    lines = text.split("\n")
    out = []
    for number in range(1, len(lines) + 1):
        words = by_line.get(number)
        if not words:
            out.append(" " * generator.randrange(3) if not lines[number - 1].strip() else "")
            continue
        line = " " * generator.randrange(9)
        for word in words:
            line += word + " " * generator.randint(1, 3)
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_the_layout_does_not_depend_on_the_spacing_it_was_given(path):
    text = open(path, encoding="utf-8").read()
    for seed in range(3):
        assert format_text(scrambled(text, seed)) == format_text(text)


def test_every_shipped_rule_file_and_docs_example_is_formatted():
    result = gdl("fmt", "--check", "games", "tests/rules", *DOCS, cwd=ROOT)
    assert (result.returncode, result.stderr) == (0, "")


MESSY = """\
# a game
game   "Messy"
seats a,b
board square( 3,3 )
kinds(speed,cost){ Ship=2,10
  # the big one
  Cruiser = 10 , -3   # trailing
}
var seat.n=0 # count
var seat.long_name = 1    # aligned with the line above
param p = -(2+3)*4
fn f(x)=if x>0 then x else -x
fn g(x) = all(c in cells() where row(c) > x: column(c)>=1)
setup{goto play for a}
phase play turn{
  on enter {}


  action go(c in cells(), k in [1,2])
  where f(k)>0
  and exists(q in pieces()
  where q.cell==c) {
    me.n+=1
    if me.n>3 { win me } else if me.n < 0 { lose me }
    else { goto play for next(me) }
    # the end of go
  }
}
on enter(p, c) where c in [@a1] { stop }
end { win when seat.n>9 }
# the end
"""

TIDY = """\
# a game
game "Messy"
seats a, b
board square(3, 3)

kinds (speed, cost) {
  Ship    = 2,  10
  # the big one
  Cruiser = 10, -3  # trailing
}

var seat.n = 0          # count
var seat.long_name = 1  # aligned with the line above
param p = -(2 + 3) * 4
fn f(x) = if x > 0 then x else -x
fn g(x) = all(c in cells() where row(c) > x: column(c) >= 1)

setup {
  goto play for a
}

phase play turn {
  on enter {}

  action go(c in cells(), k in [1, 2])
      where f(k) > 0
      and exists(q in pieces()
          where q.cell == c) {
    me.n += 1
    if me.n > 3 {
      win me
    } else if me.n < 0 {
      lose me
    } else {
      goto play for next(me)
    }
    # the end of go
  }
}

on enter(p, c) where c in [@a1] {
  stop
}

end {
  win when seat.n > 9
}
# the end
"""


def test_the_canonical_layout():
    assert format_text(MESSY) == TIDY


def test_a_wide_table_aligns_only_its_names():
    values = ", ".join(["1234567890"] * 9)
    text = (f"kinds (a, b, c, d, e, f, g, h, i) {{\n  A = {values}\n"
            "  Bb = 1, 2, 3, 4, 5, 6, 7, 8, 9\n}\n")
    assert format_text(text).split("\n")[1:3] == [f"  A  = {values}",
                                                  "  Bb = 1, 2, 3, 4, 5, 6, 7, 8, 9"]


def wrapped(text):
    """`text` formatted, checked to be a fixed point of the formatter."""
    out = format_text(text)
    assert format_text(out) == out
    return out


LONG_NAMES = "game \"t\"\nseats blue, red\nvar score = 0\nvar total = 0\n"


def test_an_overlong_condition_breaks_before_its_loosest_operator_keeping_its_comment():
    text = LONG_NAMES + ("setup {\n  if score > 100000 and score < 2000000 or score == 12345678 "
                         "and total != 10 or score == 1234567890 {  # why\n    stop\n  }\n}\n")
    assert wrapped(text).split("\n")[5:9] == [
        "setup {",
        "  if score > 100000 and score < 2000000 or score == 12345678 and total != 10",
        "      or score == 1234567890 {  # why",
        "    stop"]


def test_an_overlong_call_breaks_after_a_comma_of_its_arguments():
    text = LONG_NAMES + ("fn f(x) = some_function_name(x, another_long_argument_name, "
                         "third_argument_value, fourth_one + 1, fifth)\n")
    assert wrapped(text).split("\n")[4:6] == [
        "fn f(x) = some_function_name(x, another_long_argument_name, third_argument_value, "
        "fourth_one + 1,",
        "        fifth)"]


def test_an_overlong_show_breaks_before_a_plus_and_again_while_too_long():
    parts = " + ".join(f"text(score_number_{n})" for n in range(12))
    assert wrapped(LONG_NAMES + f"show seat(s) = {parts}\n").split("\n")[4:] == [
        "show seat(s) = text(score_number_0) + text(score_number_1) + text(score_number_2)",
        "    + text(score_number_3) + text(score_number_4) + text(score_number_5)"
        " + text(score_number_6)",
        "    + text(score_number_7) + text(score_number_8) + text(score_number_9)"
        " + text(score_number_10)",
        "    + text(score_number_11)",
        ""]


def test_an_overlong_action_breaks_before_where_then_before_and():
    condition = " and ".join(f"score != {n}000000" for n in range(1, 10))
    text = LONG_NAMES + ("setup {\n  goto p for blue\n}\nphase p turn {\n  action go(n in [1, 2]) "
                         f"where {condition} {{\n    stop\n  }}\n}}\n")
    lines = wrapped(text).split("\n")
    start = lines.index("phase p turn {") + 1
    assert lines[start:start + 5] == [
        "  action go(n in [1, 2])",
        "      where score != 1000000 and score != 2000000 and score != 3000000"
        " and score != 4000000",
        "      and score != 5000000 and score != 6000000 and score != 7000000 and score != 8000000",
        "      and score != 9000000 {",
        "    stop"]


def test_lines_that_fit_and_breaks_the_author_made_stay_as_written():
    text = LONG_NAMES + ("fn f(x) = x + 1\nfn g(x) = x\n    + 2 + 3\n"
                         "fn h(x) = " + " + ".join(["score"] * 10) + " + total + 12\n")
    assert max(len(line) for line in text.split("\n")) == 100
    assert wrapped(text) == text


def test_a_string_is_never_split_and_an_unbreakable_line_stays():
    message = "x" * 110
    text = (LONG_NAMES + f'setup {{\n  log "{message}"\n  log score + "{message}"\n'
            '  goto p for blue\n}\n')
    lines = wrapped(text).split("\n")
    assert lines[5:9] == ["setup {", f'  log "{message}"', "  log score", f'      + "{message}"']


def statements_on_one_line(text):
    """`text` (a formatted rule file) with each statement the author continued on more lines
    joined back onto its first line, unless a comment is in the way."""
    out = []
    base = 0
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        code = line.strip()
        if (out and code and not code.startswith("#") and indent >= base + 4
                and not out[-1].endswith("{") and "#" not in out[-1]):
            out[-1] += " " + code
            continue
        out.append(line)
        if code and not code.startswith("#"):
            base = indent
    return "\n".join(out)


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_statements_written_on_one_line_are_broken_to_a_fixed_point(path):
    text = open(path, encoding="utf-8").read()
    joined = statements_on_one_line(text)
    out = format_text(joined)
    assert parse_program(out) == parse_program(text)
    assert comments(out) == comments(text)
    assert format_text(out) == out
    assert all(len(line) <= 100 for line in out.split("\n") if '"' not in line)


def test_markdown_examples_are_formatted_unless_they_show_an_error():
    text = ("Intro\n\n```gdl\nseats a,b\n```\n\n<!-- file: x.gdl, error -->\n```gdl\n"
            "seats a,b\n```\n\n```gdl\nseats a,b\n```\n\n```text\nx.gdl:1:9: error: ...\n```\n"
            "\n```gdl\nx = 1 +\n```\n")
    assert format_markdown(text) == text.replace("```gdl\nseats a,b\n```\n\n<", "```gdl\n"
                                                 "seats a, b\n```\n\n<", 1)


def test_a_crlf_markdown_file_has_its_examples_formatted_in_its_own_line_ends():
    text = "Intro\r\n\r\n```gdl\r\nseats a,b  # two\r\n```\r\n\r\n```gdl\r\nseats a,b\r\n```  \r\n"
    assert format_markdown(text) == text.replace("seats a,b", "seats a, b")
    shown = "```gdl\r\nseats a,b\r\n```\r\n\r\n```text\r\nx.gdl:1:9: error: ...\r\n```\r\n"
    assert format_markdown(shown) == shown


@pytest.mark.parametrize("name, text", [
    ("doc.md", "\ufeff```gdl\nseats a,b\n```\n\n```gdl\nseats a,b\n```\n"),
    ("doc.md", "\ufeffIntro\n\n```gdl\nseats a,b\n```\n"),
    ("m.gdl", "\ufeffseats a,b\n")])
def test_a_byte_order_mark_is_kept_and_a_fence_right_after_it_is_formatted(tmp_path, name,
                                                                             text):
    """A byte order mark an editor wrote first is kept, and an example whose fence follows it
    on the first line is formatted (it was left as written)."""
    path = write(tmp_path, name, text)
    result = invoke("fmt", str(path))
    assert (result.exit_code, result.output) == (0, f"{path}: formatted\n")
    assert path.read_text(encoding="utf-8") == text.replace("seats a,b", "seats a, b")


@pytest.mark.parametrize("text", ["\ufeff\ufeffseats a,b\n", "seats a,b\n\ufeff# two\n"])
def test_a_byte_order_mark_gdl_check_refuses_is_refused_by_fmt_too(tmp_path, text):
    """One mark first is what an editor writes, and `gdl check` skips it; a second one, or
    one further on, is a character `gdl check` refuses. fmt refused neither: it dropped the
    doubled mark and called the file formatted (exit 0), a file check still refused."""
    path = tmp_path / "m.gdl"
    path.write_bytes(text.encode())
    checked = invoke("check", str(path))
    assert checked.exit_code == 1 and "unexpected character '\\ufeff'" in checked.output
    for args in ((), ("--check",), ("--diff",)):
        result = invoke("fmt", *args, str(path))
        assert (result.exit_code, result.output) == (1, checked.output), args
    assert path.read_bytes() == text.encode()


@pytest.mark.parametrize("text", ["seats a,b\r\nboard square(3,3)\r\n", "\ufeffseats a,b\r\n"])
def test_a_crlf_rule_file_keeps_its_line_ends(tmp_path, text):
    """A rule file whose lines end in CRLF is formatted in CRLF, as a Markdown file's
    examples are (it was rewritten in LF, every line changed, and `gdl fmt --check` refused
    a formatted file checked out with CRLF line ends)."""
    path = tmp_path / "m.gdl"
    path.write_bytes(text.encode())
    result = invoke("fmt", str(path))
    assert (result.exit_code, result.output) == (0, f"{path}: formatted\n")
    assert path.read_bytes() == text.replace("a,b", "a, b").replace("3,3", "3, 3").encode()
    assert invoke("fmt", "--check", str(path)).exit_code == 0


def test_only_a_line_of_backquotes_alone_closes_an_example():
    text = "```gdl\nseats a,b\n```text\nseats a,b\n```\n"
    assert format_markdown(text) == text


@pytest.mark.parametrize("end", ["\nseats a,b\n", "", "\r\nseats a,b"])
def test_an_example_never_closed_is_an_error_at_its_fence_and_the_file_is_left(tmp_path, end):
    text = "Intro\n\n```gdl\nseats a,b\n```\n\n```gdl" + end
    path = write(tmp_path, "doc.md", text)
    result = gdl("fmt", str(path))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"{path}:7:1: error: this ```gdl example is never closed (a line "
                             "``` ends it), so the file was not formatted\n    ```gdl\n    ^\n")
    assert path.read_bytes() == text.encode()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_fmt_writes_the_file_and_says_so(tmp_path):
    path = write(tmp_path, "m.gdl", MESSY)
    path.chmod(0o640)
    result = gdl("fmt", str(path))
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{path}: formatted\n", "")
    assert path.read_text() == TIDY
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["m.gdl"]      # no temporary file left
    again = gdl("fmt", str(tmp_path))
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_check_lists_the_files_that_would_change_and_changes_nothing(tmp_path):
    messy = write(tmp_path, "a.gdl", MESSY)
    tidy = write(tmp_path, "b.gdl", TIDY)
    result = gdl("fmt", "--check", str(tmp_path))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"{messy}: would be reformatted\n"
    assert messy.read_text() == MESSY and tidy.read_text() == TIDY


def test_diff_prints_what_would_change_and_changes_nothing(tmp_path):
    path = write(tmp_path, "a.gdl", "seats a,b\nboard square(3, 3)\n")
    result = gdl("fmt", "--diff", str(path))
    assert result.returncode == 0
    assert result.stdout == (f"--- {path}\n+++ {path} (formatted)\n@@ -1,2 +1,2 @@\n"
                             "-seats a,b\n+seats a, b\n board square(3, 3)\n")
    assert path.read_text() == "seats a,b\nboard square(3, 3)\n"


def test_a_dash_formats_the_standard_input_to_the_standard_output():
    result = gdl("fmt", "-", stdin=MESSY)
    assert (result.returncode, result.stdout, result.stderr) == (0, TIDY, "")


def test_check_and_diff_of_the_standard_input_name_it_as_errors_do():
    """`gdl fmt --check -` said '-: would be reformatted' and --diff '--- -', where an
    error in the same input says '<stdin>:2:10: error: ...'."""
    checked = gdl("fmt", "--check", "-", stdin=MESSY)
    assert (checked.returncode, checked.stdout, checked.stderr) == (
        1, "", "<stdin>: would be reformatted\n")
    diffed = gdl("fmt", "--diff", "-", stdin=MESSY)
    assert diffed.returncode == 0
    assert diffed.stdout.startswith("--- <stdin>\n+++ <stdin> (formatted)\n@@ ")


def test_a_syntax_error_is_reported_and_the_file_left_alone(tmp_path):
    bad = write(tmp_path, "bad.gdl", "seats a,b\nphase p {\n")
    good = write(tmp_path, "good.gdl", "seats a,b\n")
    result = gdl("fmt", str(bad), str(good))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{bad}:2:10: error: the file ended unexpectedly")
    assert "Traceback" not in result.stderr
    assert bad.read_text() == "seats a,b\nphase p {\n"
    assert good.read_text() == "seats a, b\n"


def test_a_folder_without_rule_files_and_a_missing_file_are_errors(tmp_path):
    result = gdl("fmt", str(tmp_path), str(tmp_path / "none.gdl"))
    assert result.returncode == 1
    assert result.stderr == f"{tmp_path}: error: no rule files (*.gdl) in this folder\n"
    missing = gdl("fmt", str(tmp_path / "none.gdl"))
    assert missing.returncode == 1
    assert missing.stderr == (f"error: cannot read rule file {tmp_path / 'none.gdl'}: No such "
                              "file or directory\n")


def test_a_pipe_is_not_rewritten_in_place(tmp_path):
    """`gdl fmt FIFO` (or `cat x | gdl fmt /dev/stdin`): there is no file to put the result
    in. (It replaced the FIFO by an ordinary file, and /dev/stdin could not be written.)"""
    pipe = tmp_path / "rules.gdl"
    os.mkfifo(pipe)
    result = gdl("fmt", str(pipe), timeout=60)
    assert result.returncode == 1
    assert result.stderr == (f"{pipe}: error: not a file to rewrite (a pipe or a device): "
                             "format the standard input with 'gdl fmt -'\n")
    assert stat.S_ISFIFO(pipe.stat().st_mode)


TOO_DEEP = "the rule file nests expressions or blocks too deeply to read"
DEEP = {"a sum": "param deep = 1" + "+1" * 5000 + "\n",
        "nots": "param deep = " + "not " * 5000 + "true\n",
        "minuses": "param deep = " + "-" * 5000 + "1\n",
        "an else-if chain": "seats a, b\nphase p {\n  action go() {\n    if false {\n"
                            + "    } else if false {\n" * 2000 + "    }\n  }\n}\n"}


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP)
def test_a_text_nested_too_deeply_is_the_error_check_gives_not_a_traceback(text):
    with pytest.raises(GdlSyntaxError) as error:
        format_text(text, "deep.gdl")
    assert error.value.render() == f"deep.gdl: error: {TOO_DEEP}"
    assert format_markdown(f"```gdl\n{text}```\n") == f"```gdl\n{text}```\n"


def test_fmt_and_its_check_of_a_file_nested_too_deeply_say_so_and_leave_it(tmp_path):
    path = write(tmp_path, "deep.gdl", DEEP["a sum"])
    checked = gdl("check", str(path))
    assert (checked.returncode, checked.stderr) == (1, f"{path}: error: {TOO_DEEP}\n")
    for flags in ((), ("--check",), ("--diff",)):
        result = gdl("fmt", *flags, str(path))
        assert (result.returncode, result.stdout, result.stderr) == (1, "", checked.stderr)
    assert path.read_text() == DEEP["a sum"]


CHAINS = {"and": lambda n: "param c = true" + " and true" * n + "\n",
          "+": lambda n: "param c = 1" + " + 1" * n + "\n",
          "not": lambda n: "param c = " + "not " * n + "true\n",
          "if then else": lambda n: "param c = " + "if true then 1 else " * n + "2\n",
          "else if": lambda n: "seats a, b\nphase p {\n  action go() {\n    if false {\n"
                               + "    } else if false {\n" * n + "    }\n  }\n}\n"}


@pytest.mark.parametrize("size", [300, 600, 900, 1500])
@pytest.mark.parametrize("chain", CHAINS)
def test_a_long_chain_is_formatted_or_too_deep_never_a_recursion_error(chain, size):
    try:
        out = format_text(CHAINS[chain](size))
    except GdlSyntaxError as error:
        assert error.message == TOO_DEEP
    else:
        assert format_text(out) == out


def test_a_long_chain_python_can_parse_is_formatted():
    # the formatter's own check of its result once compared syntax trees recursively, which
    # took several times the stack the parser does
    text = "param c = true" + " and true" * 700 + "\n"
    out = format_text(text)
    assert out.startswith("param c = true and true") and format_text(out) == out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_long_line_is_broken_in_linear_time():
    # every piece once measured every break after it: a list of 4,000 items took minutes
    text = "param xs = [" + ", ".join(["1"] * 4000) + "]\n"
    started = time.monotonic()
    out = format_text(text)
    assert time.monotonic() - started < 10
    assert out.splitlines()[1] == "        " + "1, " * 30 + "1,"     # 100 columns


def test_an_empty_file_stays_empty_as_a_file_of_white_space_becomes(tmp_path):
    assert format_text("") == format_text("\n \n\n") == ""
    empty = write(tmp_path, "empty.gdl", "")
    blank = write(tmp_path, "blank.gdl", "\n\n")
    result = gdl("fmt", str(empty), str(blank))
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{blank}: formatted\n", "")
    assert empty.read_text() == blank.read_text() == ""
    assert gdl("fmt", "-").stdout == ""


def test_a_file_that_parses_is_formatted_though_check_refuses_its_rules(tmp_path):
    path = write(tmp_path, "p.gdl", "param  x = 1\n")
    assert gdl("check", str(path)).returncode == 1
    assert gdl("fmt", str(path)).returncode == 0 and path.read_text() == "param x = 1\n"


def test_standard_input_that_is_not_utf8_is_an_error_at_its_byte():
    result = invoke("fmt", "-", stdin=b"seats a,b\nparam x = 1 # \xff\xfe\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("<stdin>:2:15: error: this is not a text rule file: byte 0xff "
                             "is not UTF-8\n    param x = 1 # \ufffd\ufffd\n"
                             "                  ^\n")
