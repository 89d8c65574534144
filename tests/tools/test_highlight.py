"""Highlighting: the Pygments lexer (found through its entry point) and the TextMate grammar
of the VS Code extension read every rule file of the repository without an error and agree
with the parser on which words are keywords; the extension folder is well formed."""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("pygments")

from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Error, Keyword, Operator  # noqa: E402

from gdl.interpreter.language.concrete import tokens  # noqa: E402
from gdl.interpreter.language.parser import parse_concrete  # noqa: E402
from gdl.interpreter.tools.highlight import KINDS, textmate_grammar, words  # noqa: E402
from gdl.interpreter.tools.pygments_lexer import GdlLexer  # noqa: E402

from tests.helpers import ROOT
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True)
                    + glob.glob(os.path.join(ROOT, "tests", "rules", "*.gdl")))
VSCODE = os.path.join(ROOT, "editors", "vscode")
TEXTMATE = os.path.join(VSCODE, "syntaxes", "gdl.tmLanguage.json")
WORDS = {w for category, found in words().items()
         if category not in ("quantifier", "builtin", "builtin_value") for w in found}


def offsets(text):
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return starts


def words_of(text):
    """(offset, token) of every word the parser reads: keywords and names."""
    starts = offsets(text)
    return [(starts[t.line - 1] + t.column - 1, t) for t in tokens(parse_concrete(text).root)
            if re.fullmatch(r"[A-Za-z_]\w*", t.text)]


def test_the_lexer_is_found_by_name_and_by_file_name():
    assert isinstance(get_lexer_by_name("gdl"), GdlLexer)
    assert isinstance(get_lexer_for_filename("space_war.gdl"), GdlLexer)


def test_pygmentize_colours_a_rule_file():
    result = subprocess.run([sys.executable, "-m", "pygments", "-f", "html",
                             os.path.join(ROOT, "games", "space_war.gdl")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert '<span class="kd">phase</span>' in result.stdout
    assert '<span class="n">speed</span>' in result.stdout
    assert '<span class="c1"># Stars</span>' in result.stdout


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_the_lexer_reads_every_rule_file_and_agrees_with_the_parser(path):
    text = open(path, encoding="utf-8").read()
    found = list(GdlLexer().get_tokens_unprocessed(text))
    assert "".join(value for _, _, value in found) == text
    assert [value for _, kind, value in found if kind in Error] == []
    kinds = {offset: kind for offset, kind, _ in found}
    for offset, token in words_of(text):
        keyword = kinds[offset] in Keyword or kinds[offset] in Operator.Word
        if token.kind not in ("NAME", "QUANT"):
            assert keyword, (token, kinds[offset])
        elif keyword:       # a word of the grammar used as a name: a regex cannot tell
            assert token.text in WORDS, (token, kinds[offset])


def test_textmate_file_is_the_generated_grammar():
    with open(TEXTMATE, encoding="utf-8") as handle:
        assert json.load(handle) == textmate_grammar(), \
            "run python scripts/regenerate_textmate.py"


def textmate_rules():
    with open(TEXTMATE, encoding="utf-8") as handle:
        grammar = json.load(handle)
    assert grammar["scopeName"] == "source.gdl"
    rules = []
    for pattern in grammar["patterns"]:
        names = ({0: pattern["name"]} if "name" in pattern else
                 {int(k): v["name"] for k, v in pattern["captures"].items()})
        assert all(name.endswith(".gdl") for name in names.values())
        rules.append((re.compile(pattern["match"]), names))
    return rules


def textmate_scopes(text, rules):
    """offset -> scope, as a TextMate engine reads the text: line by line, the leftmost
    match of any pattern, the first pattern on a tie."""
    scopes = {}
    for start, line in zip(offsets(text), text.split("\n")):
        position = 0
        while position < len(line):
            best = None
            for regex, names in rules:
                match = regex.search(line, position)
                if match and (best is None or match.start() < best[0].start()):
                    best = (match, names)
            if best is None:
                break
            match, names = best
            for group, name in names.items():
                if match.group(group):
                    scopes[start + match.start(group)] = name
            position = max(match.end(), position + 1)
    return scopes


def test_textmate_keywords_are_the_grammar_words():
    alternatives = set()
    for pattern in textmate_grammar()["patterns"]:
        for group in re.findall(r"\\b\(\?:([a-z_|]+)\)\\b", pattern["match"]):
            alternatives.update(group.split("|"))
    assert alternatives == {w for found in words().values() for w in found}


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_textmate_grammar_agrees_with_the_parser(path):
    text = open(path, encoding="utf-8").read()
    scopes = textmate_scopes(text, textmate_rules())
    keyword_scopes = {KINDS[k][1] for k in ("declaration", "keyword", "operator_word",
                                            "constant")}
    for offset, token in words_of(text):
        keyword = scopes.get(offset) in keyword_scopes
        if token.kind not in ("NAME", "QUANT"):
            assert keyword, (token, scopes.get(offset))
        elif keyword:
            assert token.text in WORDS, (token, scopes.get(offset))


def test_the_vscode_extension_folder():
    with open(os.path.join(VSCODE, "package.json"), encoding="utf-8") as handle:
        package = json.load(handle)
    language = package["contributes"]["languages"][0]
    assert (language["id"], language["extensions"]) == ("gdl", [".gdl"])
    grammar = package["contributes"]["grammars"][0]
    assert (grammar["language"], grammar["scopeName"]) == ("gdl", "source.gdl")
    assert os.path.samefile(os.path.join(VSCODE, grammar["path"]), TEXTMATE)
    with open(os.path.join(VSCODE, language["configuration"]), encoding="utf-8") as handle:
        configuration = json.load(handle)
    assert configuration["comments"] == {"lineComment": "#"}
    assert configuration["brackets"] == [["{", "}"], ["[", "]"], ["(", ")"]]
    assert os.path.exists(os.path.join(VSCODE, package["main"]))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_extension_script_is_valid_javascript():
    result = subprocess.run(["node", "--check", os.path.join(VSCODE, "extension.js")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
