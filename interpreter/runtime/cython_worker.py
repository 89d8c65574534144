"""A Cython process kept by a gdl process for its native builds (native_cache.py `_translate`),
run as a script (`python cython_worker.py`, importing nothing of gdl): Cython's own start-up
(Python, its modules, its lexicon: some 1.3 s of the 2.2 s a module takes as a command) is
paid once, not at every build.

Reads lines `[PYX, C]` (JSON, absolute paths) on stdin; for each, translates PYX to C as
`cython -3 PYX -o C` does and writes a line on stdout: JSON `null`, or the message of the
error that stopped it. Ends at the end of its input (its gdl process ended or let it go)."""

import json
import os
import sys
from typing import Any


def _error(listing: str) -> str:
    """The last error in Cython's listing file (its warnings passed over)."""
    try:
        with open(listing, encoding="utf-8", errors="replace") as stream:
            lines = [line.strip() for line in stream if line.strip()]
    except OSError:
        lines = []
    errors = [line for line in lines if not line.startswith("warning:")]
    return (errors or lines or ["Cython stopped without saying why"])[-1]


def main() -> None:
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr         # anything Cython prints stays off the replies
    from Cython.Compiler import Main, PyrexTypes
    translate: Any = Main.compile        # (Cython is not annotated)
    # a cache of Cython's that keeps each module's whole symbol table (1.5 MB, and each
    # translation 3% slower than the one before): emptied after each
    kept = getattr(PyrexTypes, "_type_identifier_cache", None)
    for line in sys.stdin:
        pyx, c_file = json.loads(line)
        try:
            done = translate(pyx, output_file=c_file, language_level=3,
                             use_listing_file=True, errors_to_stderr=False)
            error = None if done.num_errors == 0 else _error(os.path.splitext(pyx)[0] + ".lis")
        except Exception as exc:        # Cython's own fault: said, the next build goes on
            error = f"{type(exc).__name__}: {exc}"
        if isinstance(kept, dict):
            kept.clear()
        replies.write(json.dumps(error) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
