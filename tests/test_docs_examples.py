"""The gdl examples of the docs (docs/language.md, docs/tutorial.md) say what they show.

A block marked `<!-- file: NAME.gdl -->` is a whole rule file that checks (`, error`: one
that the checker refuses, as its text explains; `, play: A; B`: those actions are legal in
turn from the setup). A block marked `<!-- from: games/classic/GAME.gdl -->` is an excerpt
of that game, copied as it stands: each of its paragraphs (lines between blank lines) is a
run of the game's lines, indented alike, so the excerpt checks with its game and stays in
step with it. (`tests/tools/test_fmt.py` keeps every example that parses formatted.)
"""

from __future__ import annotations

import os
import re

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError

from tests.helpers import ROOT

DOCS = [os.path.join(ROOT, "docs", name) for name in ("language.md", "tutorial.md")]
MARKED = re.compile(r"^<!-- (file|from): (.*?) -->\n```gdl\n(.*?)^```", re.S | re.M)


def marked(kind: str) -> list[tuple[str, str, str]]:
    """(test id, the marker's text, the block) of the blocks marked `kind`."""
    out = []
    for path in DOCS:
        text = open(path, encoding="utf-8").read()
        for match in MARKED.finditer(text):
            if match.group(1) == kind:
                line = text.count("\n", 0, match.start()) + 1
                out.append((f"{os.path.basename(path)}:{line}", match.group(2), match.group(3)))
    return out


FILES = marked("file")
EXCERPTS = marked("from")


def test_the_docs_quote_the_classic_games_often() -> None:
    assert len(EXCERPTS) >= 12 and len({source for _, source, _ in EXCERPTS}) >= 8


@pytest.mark.parametrize("where, marker, block", FILES, ids=[w for w, _, _ in FILES])
def test_a_whole_example_checks_or_fails_as_it_says(where: str, marker: str,
                                                    block: str) -> None:
    name, *notes = [part.strip() for part in marker.split(",")]
    # A variant extends a shipped game, found beside it in games/.
    path = os.path.join(ROOT, "games", name) if "extends" in block else name
    if "show shape" in block:       # its SVG files are beside the test rule files
        path = os.path.join(ROOT, "tests", "rules", name)
    if "error" in notes:
        with pytest.raises(GdlError):
            load_source(block, path)
        return
    game = load_source(block, path)
    state = game.new_state(0)
    for note in notes:
        assert note.startswith("play: "), f"{where}: unknown note '{note}'"
        for text in note.removeprefix("play: ").split(";"):
            game.apply(state, game.parse_action(state, text.strip()))


def paragraphs(block: str) -> list[list[str]]:
    return [part.split("\n") for part in block.strip("\n").split("\n\n")]


def found_in(lines: list[str], paragraph: list[str]) -> bool:
    """Is `paragraph` a run of `lines`, each line indented by the same amount more?"""
    for start in range(len(lines) - len(paragraph) + 1):
        indent = lines[start][:len(lines[start]) - len(paragraph[0])]
        if indent.strip() == "" and all(lines[start + k] == indent + line if line else
                                        lines[start + k] == ""
                                        for k, line in enumerate(paragraph)):
            return True
    return False


@pytest.mark.parametrize("where, source, block", EXCERPTS, ids=[w for w, _, _ in EXCERPTS])
def test_an_excerpt_of_a_game_is_copied_from_it_as_it_stands(where: str, source: str,
                                                             block: str) -> None:
    lines = open(os.path.join(ROOT, source), encoding="utf-8").read().split("\n")
    for paragraph in paragraphs(block):
        assert found_in(lines, paragraph), f"{where}: not in {source}:\n" + "\n".join(paragraph)


RAN_LINE = re.compile(r"^\s+((?:games|tests)/[\w/]+\.gdl):(\d+) \(\d+x\): (.*)$", re.M)


def test_a_rule_file_line_quoted_by_number_is_that_line() -> None:
    # `gdl explain` lists the lines that ran as FILE:LINE (Nx): TEXT; a doc quoting one
    # must follow the file when lines move (docs/explain.md quoted line 131 for 135).
    quoted = []
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            text = open(os.path.join(ROOT, "docs", name), encoding="utf-8").read()
            quoted += [(name, *match.groups()) for match in RAN_LINE.finditer(text)]
    assert quoted, "docs/explain.md quotes a rule-file line that ran"
    for doc, path, number, source in quoted:
        lines = open(os.path.join(ROOT, path), encoding="utf-8").read().splitlines()
        assert lines[int(number) - 1].strip() == source.strip(), (doc, path, number)
