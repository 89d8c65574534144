"""Which tool compiles gdl's generated Python best: the generated module of one game run as
Python, compiled unchanged with Cython, and with mypyc (when installed: it ships with mypy).

    .venv/bin/python benchmarks/native_tools.py [FILE] [--games 600] [--rounds 3] [--json]

Each tool gets the generated module exactly as `gdl compile FILE` prints it (without its
comment header), with one line in front that declares the names the engine gives it as module
globals (the runtime, the built-ins, the constant tables; mypyc needs them typed `Any`). The
module is built once, then every round runs each tool alternately in a subprocess of its own:
`--games` random playouts from seeds 0.. (random.Random(1) choosing), the loop timed in the
process. It prints the median decisions/s per tool and the build seconds. What the engine
does around the rules (listing, applying, the state) stays Python in every column: this is
the choice of tool for the generated module, not the native backend's speed
(benchmarks/backends.py measures that).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

TOOLS = ("python", "cython", "mypyc")


def build(tool, path, folder):
    """Build the generated module of `path` with `tool` in `folder`; seconds taken."""
    from gdl.interpreter import load_game
    game = load_game(path, "python")
    source = game._python_source
    names = sorted(set(game._module) - {"__builtins__"} - _defined(source))
    if tool == "mypyc":
        prologue = "from typing import Any\n" + "".join(f"{n}: Any = None\n" for n in names)
    else:
        prologue = " = ".join(names) + " = None\n"
    with open(os.path.join(folder, f"rules_{tool}.py"), "w") as stream:
        stream.write(prologue + source)
    started = time.perf_counter()
    if tool == "cython":
        subprocess.run([sys.executable, "-m", "cython", "-3", "rules_cython.py"], cwd=folder,
                       check=True, capture_output=True)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-w", "-I",
                        sysconfig.get_paths()["include"], "rules_cython.c", "-o",
                        "rules_cython" + sysconfig.get_config_var("EXT_SUFFIX")],
                       cwd=folder, check=True)
    elif tool == "mypyc":
        subprocess.run([os.path.join(os.path.dirname(sys.executable), "mypyc"),
                        "rules_mypyc.py"], cwd=folder, check=True, capture_output=True)
    return time.perf_counter() - started


def _defined(source):
    return {line[4:line.index("(")] for line in source.splitlines() if line.startswith("def ")}


def play(tool, path, folder, games):
    """Decisions/s of `games` random playouts with the rules built by `tool`."""
    from gdl.interpreter import load_game
    from gdl.interpreter.runtime import engine
    if tool != "python":
        sys.path.insert(0, folder)
        module = importlib.import_module(f"rules_{tool}")
        python_load = engine.Game._load

        def load(self, source, lines, name, backend="python"):
            namespace = python_load(self, source, lines, name, backend)
            given = {k: v for k, v in namespace.items() if k not in _defined(source)}
            module.__dict__.update(given)   # one game per process: globals are the game's
            namespace.update({k: getattr(module, k) for k in _defined(source)})
            return namespace
        engine.Game._load = load
    game = load_game(path, "python")
    choose = random.Random(1)
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            actions = game.legal_actions(state)
            game.apply(state, actions[choose.randrange(len(actions))])
            decisions += 1
    return decisions / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", default="games/space_war.gdl")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("TOOL", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(play(args.one[0], args.file, args.one[1], args.games))
        return
    tools = [t for t in TOOLS if t != "mypyc" or shutil.which("mypyc") or
             os.path.exists(os.path.join(os.path.dirname(sys.executable), "mypyc"))]
    if importlib.util.find_spec("Cython") is None:
        tools.remove("cython")
    with tempfile.TemporaryDirectory(prefix="gdl-tools-") as folder:
        seconds = {tool: build(tool, args.file, folder) for tool in tools if tool != "python"}
        rates = {tool: [] for tool in tools}
        for _ in range(args.rounds):
            for tool in tools:
                out = subprocess.run([sys.executable, __file__, args.file, "--games",
                                      str(args.games), "--one", tool, folder],
                                     capture_output=True, text=True, check=True)
                rates[tool].append(float(out.stdout))
    medians = {tool: sorted(r)[len(r) // 2] for tool, r in rates.items()}
    if args.json:
        print(json.dumps({"file": args.file, "games": args.games, "rates": rates,
                          "medians": medians, "build_seconds": seconds}))
        return
    for tool in tools:
        built = f"built in {seconds[tool]:.1f} s" if tool in seconds else ""
        print(f"{tool:8} {medians[tool]:>10,.0f} decisions/s  "
              f"{medians[tool] / medians['python']:.2f}x  {built}")


if __name__ == "__main__":
    main()
