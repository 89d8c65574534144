"""Write the table of built-in functions in docs/language.md (section 7) from the `BUILTINS`
rows of interpreter/language/builtins.py, between the marker comments. Run after a built-in
is added or its documentation changes; tests/tools/test_builtins_doc.py fails until then.
Usage: python scripts/gen_builtins_doc.py   (run from the repository root)."""

from __future__ import annotations

import os
import sys

from gdl.interpreter.language.builtins import reference_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "language.md")
BEGIN = ("<!-- The table of built-ins is generated from interpreter/language/builtins.py by "
         "scripts/gen_builtins_doc.py: edit the rows there, not here. -->\n")
END = "<!-- end of the generated table of built-ins -->\n"


def with_table(text: str) -> str:
    """The document `text` with the generated table between its markers."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[:start] + "\n" + reference_table() + "\n" + text[text.index(END, start):]


def main() -> int:
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    new = with_table(text)
    if new != text:
        with open(DOC, "w", encoding="utf-8") as handle:
            handle.write(new)
    print(f"{'wrote' if new != text else 'unchanged:'} {os.path.relpath(DOC, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
