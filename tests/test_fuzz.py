"""Fuzzing the shipped rule files, through the benchmark command the long run uses
(`benchmarks/fuzz.py`): each mutant (a token or a line deleted, repeated or swapped, a
number changed) is refused with a GdlError, by the checker or while it runs, or plays a clean
game within a decision cap; never another exception, never a hang (10 s), never more than
the worker's memory limit.

Deterministic: the mutants come from their seeds. GDL_FUZZ_MUTANTS=N runs N of them
(default 120, some 15 s); a failure names the mutant's seed, so
`python benchmarks/fuzz.py --first SEED --mutants 1` runs that one again."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

MUTANTS = int(os.environ.get("GDL_FUZZ_MUTANTS", "120"))
FIRST = int(os.environ.get("GDL_FUZZ_FIRST", "0"))


@pytest.mark.skipif(sys.platform == "win32", reason="the watchdog needs SIGALRM and rlimits")
def test_mutated_rule_files_fail_cleanly_or_play():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fuzz.py"), "--mutants",
                           str(MUTANTS), "--first", str(FIRST), "--workers", "1", "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60 + MUTANTS * 10)
    assert done.returncode in (0, 1), done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["mutants"] == MUTANTS
    assert result["failures"] == []
    counts = result["counts"]
    # The mutants exercise both sides: refused files and games that play.
    assert counts.get("refused", 0) > 0 and counts.get("finished", 0) + counts.get("capped", 0) > 0
