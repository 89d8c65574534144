"""The language reference's table of built-ins (docs/language.md section 7) is generated from
the `BUILTINS` rows: the committed document must be what scripts/gen_builtins_doc.py writes."""

from __future__ import annotations

import importlib.util
import os

from gdl.interpreter.language.builtins import BUILTINS, reference_table

from tests.helpers import ROOT
SCRIPT = os.path.join(ROOT, "scripts", "gen_builtins_doc.py")
DOC = os.path.join(ROOT, "docs", "language.md")


def _script():
    spec = importlib.util.spec_from_file_location("gen_builtins_doc", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_table_of_built_ins_is_the_generated_one():
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    assert _script().with_table(text) == text, "run python scripts/gen_builtins_doc.py"


def test_every_built_in_has_a_line_with_each_way_to_call_it():
    table = reference_table()
    for row in BUILTINS.values():
        assert row.doc and row.result, row.name
        assert len(row.params) >= max(row.arities), row.name
        line = next(line for line in table.splitlines() if f"`{row.name}(" in line)
        assert all(f"`{form}`" in line for form in row.forms()), line
