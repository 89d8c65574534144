"""Shared helpers of the benchmark scripts (standard library only).

- `run_json(argv)`: run one subprocess that prints one JSON object, return it.
- `tree_command(tree, args)`: the argv that runs `gdl ARGS` with the code of one source tree
  (a checkout of this repository), whatever gdl the current interpreter has installed.
- `median`, `us_per_decision`, `decisions_per_second`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


class BenchError(Exception):
    """A problem the user must fix; the scripts print it on one line and exit 2."""


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def us_per_decision(run):
    """Microseconds per decision point: 1e6 * seconds / decisions (None if unmeasurable)."""
    if not run["decisions"] or not run["seconds"]:
        return None
    return 1e6 * run["seconds"] / run["decisions"]


def decisions_per_second(run):
    if not run["seconds"]:
        return None
    return run["decisions"] / run["seconds"]


def show(argv):
    """argv as one line, the tree shim's source abbreviated."""
    return " ".join("<gdl tree shim>" if a == _SHIM else str(a) for a in argv)


def run_json(argv, cwd=None, env=None):
    """Run argv; its stdout must be one JSON object. Raise BenchError otherwise."""
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"command failed (exit {proc.returncode}): {show(argv)}\n"
                         f"{proc.stderr.strip()}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise BenchError(f"command printed no JSON object: {show(argv)}\n"
                         f"stdout: {proc.stdout[:500]!r}") from None


# Run `gdl` from one source tree. The project maps folders to the package `gdl` through
# pyproject's [tool.setuptools.package-dir] ("gdl" = "gdl_root", "gdl.cli" = "cli", ...), and the
# development venv has an editable install pointing at one checkout. This shim puts a finder at
# the front of sys.meta_path that resolves `gdl` and every `gdl.*` module inside TREE instead,
# then calls the tree's `gdl` console-script entry point. Third-party packages (lark, attrs,
# click) come from the running interpreter. argv: -c SHIM TREE [--print-origin | gdl args...]
_SHIM = r'''
import importlib.machinery, importlib.util, os, sys, tomllib
tree = os.path.abspath(sys.argv[1])
with open(os.path.join(tree, "pyproject.toml"), "rb") as f:
    project = tomllib.load(f)
dirs = project.get("tool", {}).get("setuptools", {}).get("package-dir", {})
mapping = {name: os.path.join(tree, d) for name, d in dirs.items() if name}
base = os.path.join(tree, dirs.get("", ""))
if os.path.isdir(os.path.join(base, "gdl")) and "gdl" not in mapping:
    mapping["gdl"] = os.path.join(base, "gdl")
tops = {name.split(".")[0] for name in mapping}

class TreeFinder:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname.split(".")[0] not in tops:
            return None
        if fullname in mapping:
            d = mapping[fullname]
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(d, "__init__.py"), submodule_search_locations=[d])
        parent = fullname.rpartition(".")[0]
        search = path if path is not None else getattr(sys.modules.get(parent), "__path__", None)
        if search is None:
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, list(search))

sys.meta_path.insert(0, TreeFinder)
for name in [m for m in sys.modules if m.split(".")[0] in tops]:
    del sys.modules[name]
entry = project.get("project", {}).get("scripts", {}).get("gdl", "gdl.cli.main:main")
module_name, _, attr = entry.partition(":")
module = importlib.import_module(module_name)
if sys.argv[2:3] == ["--print-origin"]:
    print(os.path.abspath(module.__file__))
    sys.exit(0)
sys.argv = ["gdl"] + sys.argv[2:]
sys.exit(getattr(module, attr)())
'''


def tree_command(tree, args, python=None):
    """argv running `gdl ARGS` with the gdl code of source tree TREE."""
    return [python or sys.executable, "-c", _SHIM, str(tree), *map(str, args)]


def tree_origin(tree, python=None):
    """The file of the tree's CLI module as the shim imports it (to check the mapping)."""
    proc = subprocess.run(tree_command(tree, ["--print-origin"], python),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"cannot import gdl from {tree}:\n{proc.stderr.strip()}")
    return proc.stdout.strip()


def installed_gdl_command():
    """The installed `gdl`: the console script beside sys.executable, else `python -m`."""
    script = Path(sys.executable).parent / ("gdl.exe" if os.name == "nt" else "gdl")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "gdl.cli.main"]


def single_process_args(gdl_argv, cwd=None):
    """["--workers", "1"] if `GDL_ARGV simulate --help` lists --workers, else [].

    gdl_argv runs gdl (e.g. installed_gdl_command() or tree_command(tree, [])). Timings are
    compared one process against one process, so a gdl that can spread games over worker
    processes is asked not to."""
    proc = subprocess.run([*gdl_argv, "simulate", "--help"], cwd=cwd, capture_output=True,
                          text=True)
    return ["--workers", "1"] if "--workers" in proc.stdout else []


def simulate_run(out, argv):
    """The figures of one `gdl simulate --json` object (BenchError if they are not there)."""
    if not isinstance(out, dict) or "decisions" not in out:
        raise BenchError(f"unexpected output of {show(argv)}: {json.dumps(out)[:300]}")
    seconds = out.get("seconds")
    if seconds is None and out.get("decisions_per_second"):
        seconds = out["decisions"] / out["decisions_per_second"]
    if seconds is None:
        raise BenchError(f"no 'seconds' in the output of {show(argv)}")
    return {"decisions": out["decisions"], "seconds": seconds, "games": out.get("games"),
            "capped": out.get("capped"), "workers": out.get("workers", 1)}


def fmt(value, spec=",.0f"):
    return "n/a" if value is None else format(value, spec)
