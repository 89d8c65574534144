"""Test-wide settings: the parse cache of the whole run lives in a temporary folder, so the
suite never writes into the user's own cache (`~/.cache/gdl`)."""

import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="gdl-test-cache-")


def pytest_configure(config):
    os.environ["GDL_CACHE_DIR"] = _CACHE     # subprocesses (the gdl command) inherit it


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)
