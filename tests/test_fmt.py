"""`gdl fmt`: the canonical layout, pinned on small texts; on every rule file of the repository
and every gdl example of the docs it keeps the meaning (the same syntax tree) and the
comments, is idempotent, and does not depend on the white space it was given; the shipped
files are formatted already; `--check`, `--diff`, `-`, errors and atomic writes."""

import glob
import os
import random
import re
import stat
import subprocess
import sys

import pytest

from gdl.interpreter.language.concrete import tokens
from gdl.interpreter.language.errors import GdlSyntaxError
from gdl.interpreter.language.parser import parse_concrete, parse_program
from gdl.interpreter.tools.fmt import format_markdown, format_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl"))
                    + glob.glob(os.path.join(ROOT, "tests", "rules", "*.gdl")))
DOCS = [os.path.join(ROOT, "docs", name) for name in ("language.md", "tutorial.md")]


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


def gdl(*args, stdin=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd)


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
    result = gdl("fmt", "--check", "games", "tests/rules", "docs/language.md",
                 "docs/tutorial.md", cwd=ROOT)
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


def test_markdown_examples_are_formatted_unless_they_show_an_error():
    text = ("Intro\n\n```gdl\nseats a,b\n```\n\n<!-- file: x.gdl, error -->\n```gdl\n"
            "seats a,b\n```\n\n```gdl\nseats a,b\n```\n\n```text\nx.gdl:1:9: error: ...\n```\n"
            "\n```gdl\nx = 1 +\n```\n")
    assert format_markdown(text) == text.replace("```gdl\nseats a,b\n```\n\n<", "```gdl\n"
                                                 "seats a, b\n```\n\n<", 1)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
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
    assert missing.stderr.startswith(f"{tmp_path / 'none.gdl'}: error: cannot read")
