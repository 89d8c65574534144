"""Start-up: each command imports only what it uses, so `gdl check` stays quick.

Structural, not timed: a fresh interpreter runs the command and lists `sys.modules`. (The
time itself is measured by hand: `time .venv/bin/gdl check games/space_war.gdl`, many runs
interleaved with the previous revision's, since this VM's speed drifts from minute to minute.)
"""

import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "games",
                                                                               "*.gdl")))

# What `gdl check` has no use for: playing, simulating, transcripts, scenarios, views.
NOT_FOR_CHECK = ("gdl.interpreter.play", "gdl.interpreter.play.agents.agents",
                 "gdl.interpreter.play.balance.simulate", "gdl.interpreter.play.transcript",
                 "gdl.interpreter.play.scenarios.runner", "gdl.interpreter.play.playing",
                 "gdl.interpreter.runtime.view", "gdl.cli.playthrough", "multiprocessing",
                 "concurrent.futures")

# Nor what would only slow its start: importlib.resources (the grammar is read with pkgutil,
# which Lark imports anyway).
SLOW_AND_UNUSED = ("importlib.resources",)

RUN_CHECK = """
import sys
from gdl.cli.main import main
try:
    main(["check", sys.argv[1]])
except SystemExit as exit:
    assert exit.code == 0, exit.code
print(" ".join(sorted(sys.modules)))
"""


def modules_after(code, *args, **environment):
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                            text=True, cwd=ROOT, timeout=60, env={**os.environ, **environment})
    assert result.returncode == 0, result.stderr
    return set(result.stdout.splitlines()[-1].split())


@pytest.mark.parametrize("path", GAMES)
def test_check_imports_nothing_it_does_not_use(path):
    modules = modules_after(RUN_CHECK, path)
    assert "gdl.interpreter.loader" in modules     # the check did run
    assert sorted(name for name in NOT_FOR_CHECK + SLOW_AND_UNUSED if name in modules) == []


def test_the_command_line_alone_loads_no_rule_machinery():
    # `gdl --help`, and every command before it starts, pays only for click.
    modules = modules_after("import sys, gdl.cli.main; print(' '.join(sys.modules))")
    assert not {"lark", "gdl.interpreter.loader", "gdl.interpreter.language.parser",
                "json"} & modules


def test_the_package_loads_its_pipeline_on_first_use():
    code = ("import sys, gdl.interpreter as gi; before = 'gdl.interpreter.loader' in "
            "sys.modules; gi.load_game; print(before, 'gdl.interpreter.loader' in sys.modules, "
            "'load_game' in dir(gi))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.stdout.split() == ["False", "True", "True"], result.stderr
    import gdl.interpreter
    with pytest.raises(AttributeError, match="has no attribute 'load_everything'"):
        gdl.interpreter.load_everything


def test_check_loads_the_parser_from_lark_cache():
    # Building the LALR tables from the grammar takes some 200 ms; a start with the cache
    # written (by the first run) only reads them back, and never compiles the grammar.
    # (Without the parse cache, which would spare Lark altogether.)
    modules_after(RUN_CHECK, GAMES[0], GDL_NO_CACHE="1")
    no_grammar_build = ("import lark.lark\n"
                        "def refuse(*args, **kwargs):\n"
                        "    raise AssertionError('the grammar was compiled, not cached')\n"
                        "lark.lark.load_grammar = refuse\n")
    modules = modules_after(no_grammar_build + RUN_CHECK, GAMES[0], GDL_NO_CACHE="1")
    assert "gdl.interpreter.language.parser" in modules


@pytest.mark.parametrize("path", GAMES)
def test_a_second_check_reads_the_parse_cache_and_never_imports_lark(path, tmp_path):
    # Importing Lark, loading its tables and parsing cost some 80 ms for the largest game;
    # a rule file checked before (the same text, the same parser) is read from the cache.
    cache = {"GDL_CACHE_DIR": str(tmp_path / "cache"), "GDL_NO_CACHE": ""}
    assert "lark" in modules_after(RUN_CHECK, path, **cache)
    modules = modules_after(RUN_CHECK, path, **cache)
    assert "gdl.interpreter.language.checker" in modules and "lark" not in modules
