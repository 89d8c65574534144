"""Test-wide settings: the parse cache of the whole run lives in a temporary folder, so the
suite never writes into the user's own cache (`~/.cache/gdl`); the native backend's modules
are built with -O0 (3x quicker to compile than the default -O2; the same C, and one test,
test_native_backend's `test_the_default_build_optimises`, builds with the default); Python's
bytecode caches are written whatever the environment says."""

import os
import shutil
import sys
import tempfile

import pytest

_CACHE = tempfile.mkdtemp(prefix="gdl-test-cache-")


def pytest_configure(config):
    os.environ["GDL_CACHE_DIR"] = _CACHE     # subprocesses (the gdl command) inherit it
    os.environ["GDL_NATIVE_CFLAGS"] = "-O0"   # (native_cache.OPTIMISE)
    # Python's bytecode caches written, even where PYTHONDONTWRITEBYTECODE is set (some
    # sandboxes and CI machines set it): each of the suite's hundreds of `gdl` subprocesses
    # would otherwise compile gdl's modules from their source again (0.2-0.5 s a process;
    # test_cli.py took 50 s so against 32 s). They go in `__pycache__` folders (git ignores
    # them); the workers, started after this, inherit the setting.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)


# With workers (-n), each test file runs on one worker, in file order (`--dist loadfile` in
# pyproject.toml): some files share one running process between their tests (the language
# server's). The parametrized tests of SPREAD are each their own unit instead, spread over the
# workers: one game each, compiled and played under both engines, minutes of the run that
# would otherwise queue on one worker behind their file.
SPREAD = ("test_typed_and_python_play_the_same_games", "test_both_backends_play_the_same_game")


@pytest.hookimpl(tryfirst=True, optionalhook=True)     # a hook of pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":       # another --dist asked: xdist's own
        return None
    from xdist.scheduler import LoadFileScheduling

    class ByFile(LoadFileScheduling):
        def _split_scope(self, nodeid):
            path, _, test = nodeid.partition("::")
            return nodeid if test.partition("[")[0] in SPREAD else path

    return ByFile(config, log)
