"""Write the TextMate grammar of the VS Code extension from the gdl grammar's words and the
highlighting patterns (interpreter/tools/highlight.py). Run after the grammar gains a word;
tests/tools/test_highlight.py fails until then.
Usage: python scripts/regenerate_textmate.py   (run from the repository root)."""

import json
import os
import sys

from gdl.interpreter.tools.highlight import textmate_grammar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "editors", "vscode", "syntaxes", "gdl.tmLanguage.json")


def main():
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(textmate_grammar(), indent=2) + "\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
