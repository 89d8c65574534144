"""The checker's reference table (`language/references.py`): every name a shipped game
declares or uses is in it, located exactly, and a variant's uses of its base file's names
lead into the base file."""

import glob
import os

import pytest

from gdl.interpreter.language import ast
from gdl.interpreter.language.checker import check_program
from gdl.interpreter.language.parser import parse_program
from gdl.interpreter.loader import check_file
from tests.helpers import GAMES as GAMES_DIR

GAMES = sorted(glob.glob(os.path.join(GAMES_DIR, "*.gdl")))


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_every_span_of_the_table_is_its_name_as_written(path):
    table = check_file(path).references
    assert table.uses and table.declarations
    for span, name in [(d.span, d.name) for d in table.declarations] + [
            (r.span, r.declaration.name) for r in table.uses]:
        assert span.text == name, (span, name)
    declared = {d.name for d in table.declarations}
    used = {(r.span.file, r.span.line, r.span.column) for r in table.uses}
    program = parse_program(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(program):      # every name of this file naming a declaration
        if isinstance(node, ast.Name) and node.name in declared:
            assert (path, node.span.line, node.span.column) in used, node


@pytest.mark.parametrize("path", [p for p in GAMES
                                  if open(p, encoding="utf-8").read().startswith("extends")
                                  or "\nextends" in open(p, encoding="utf-8").read()],
                         ids=os.path.basename)
def test_a_variant_uses_the_names_of_its_base_file(path):
    table = check_file(path).references
    assert len({d.span.file for d in table.declarations}) == 2      # the variant's, the base's
    assert any(r.span.file != r.declaration.span.file for r in table.uses)


def test_scopes_decide_what_a_name_names():
    text = """\
game "Scopes"
seats a, b
board square(3, 3)
param n = 2
var piece.hits = 0
kinds (size) {
  Pawn = n
}
fn twice(n) = n + n
setup {
  let n = twice(1)
  create Pawn for a at @a1
  for p in pieces(a) { p.hits += n }
  goto play for a
}
phase play turn {
  action pass() { goto play for next(me) }
}
"""
    table = check_program(parse_program(text)).references
    uses = {(r.span.line, r.span.column): r.declaration for r in table.uses}
    assert uses[7, 10].kind == "param"                          # Pawn = n
    assert uses[9, 15].kind == "parameter" and uses[9, 15].span.line == 9
    assert uses[13, 34].kind == "local" and uses[13, 34].span.line == 11    # the let
    assert uses[13, 26].kind == "var" and uses[13, 26].scope == "piece"
    assert uses[13, 24].kind == "local" and uses[13, 24].span.line == 13    # the for
    assert uses[12, 10].kind == "kind" and uses[11, 11].kind == "fn"
    assert uses[17, 24].kind == "phase" and uses[14, 8].kind == "phase"
    assert [d.name for d in table.visible_at("<string>", 13, 30)] == ["n", "p"]
