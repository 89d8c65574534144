"""mypy, as configured in pyproject.toml, passes on the interpreter and the command line:
default checks everywhere, strict checks on the modules listed there (README, "Types")."""

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# The four "Need type annotation" errors left (language/builtins.py, play/simulate.py,
# play/cluster.py) are fixed on the branches that annotate those modules; then this passes
# (XPASS) and the mark goes.
@pytest.mark.xfail(strict=False, reason="mypy's 4 'Need type annotation' errors in builtins.py, "
                   "simulate.py and cluster.py are fixed on other branches of issue 19")
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (pip install -e '.[test]' installs it)")
def test_mypy_passes():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
