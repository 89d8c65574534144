"""The benchmark scripts in benchmarks/ run and print what they promise.

Structure only, never speed: tiny settings, a few seconds in all.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gdl.interpreter.runtime import native

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "benchmarks" / "space_war_reference.py"
COMPARE = ROOT / "benchmarks" / "compare_revisions.py"
STRENGTH = ROOT / "benchmarks" / "strength.py"
BENCH_DIR = Path(os.environ.get("GDL_BENCH_DIR") or ROOT.parent / "shared" / "bench")

needs_bench = pytest.mark.skipif(not (BENCH_DIR / "space_war_ref.py").is_file(),
                                 reason=f"no Space War reference in {BENCH_DIR}")
needs_git = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="not a git checkout")


def run(script, *args, env=None):
    return subprocess.run([sys.executable, str(script), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def positive(value):
    return isinstance(value, (int, float)) and value > 0


def check_side(side, pairs):
    assert len(side["runs"]) == pairs
    for run_ in side["runs"]:
        assert positive(run_["decisions"]) and positive(run_["seconds"])
    assert positive(side["decisions_per_second_median"])
    assert positive(side["us_per_decision_median"])


@needs_bench
def test_space_war_reference_json():
    proc = run(REFERENCE, "--pairs", "1", "--games", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["pairs"], result["games"], result["seed"], result["max_turns"]) == (1, 5, 1, 1000)
    for name in ("reference", "gdl"):
        check_side(result[name], 1)
        assert all(r["games"] == 5 for r in result[name]["runs"])
    assert len(result["ratios"]) == 1 and positive(result["ratios"][0])
    assert positive(result["ratio_median"])


@needs_bench
def test_space_war_reference_text():
    proc = run(REFERENCE, "--pairs", "1", "--games", "3")
    assert proc.returncode == 0, proc.stderr
    for text in ("decisions/s (median)", "us/decision point (median)", "reference", "gdl",
                 "gdl/ref, us per decision point:"):
        assert text in proc.stdout


def test_space_war_reference_missing(tmp_path):
    proc = run(REFERENCE, "--pairs", "1", "--games", "1", env={"GDL_BENCH_DIR": str(tmp_path)})
    assert proc.returncode != 0
    assert "space_war_ref.py" in proc.stderr and "GDL_BENCH_DIR" in proc.stderr
    proc = run(REFERENCE, "--bench-dir", str(tmp_path / "nowhere"))
    assert proc.returncode != 0 and "missing" in proc.stderr


@needs_git
def test_compare_revisions_json(tmp_path):
    proc = run(COMPARE, "HEAD", "--games", "5", "--pairs", "1", "games/space_war.gdl", "--json",
               env={"TMPDIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["games"], result["pairs"], result["seed"]) == (5, 1, 1)
    assert result["old"]["rev"] == "HEAD" and len(result["old"]["commit"]) == 40
    assert result["new"]["commit"] == ""          # the working tree
    assert result["new"]["code"].startswith(str(ROOT))
    assert [row["file"] for row in result["files"]] == ["games/space_war.gdl"]
    row = result["files"][0]
    check_side(row["old"], 1)
    check_side(row["new"], 1)
    assert positive(row["speedup_median"]) and len(row["speedups"]) == 1
    assert not list(tmp_path.glob("gdl-compare-*"))  # the exported tree is gone


@needs_git
def test_compare_revisions_text_two_revisions(tmp_path):
    proc = run(COMPARE, "HEAD", "HEAD", "--games", "2", "--pairs", "1", "games/space_war.gdl",
               env={"TMPDIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "games/space_war.gdl" in proc.stdout and "speed-up" in proc.stdout
    assert not list(tmp_path.glob("gdl-compare-*"))


@needs_git
def test_compare_revisions_bad_input_cleans_up(tmp_path):
    env = {"TMPDIR": str(tmp_path)}
    proc = run(COMPARE, "no-such-revision-xyz", "--games", "1", env=env)
    assert proc.returncode == 2 and "not a revision" in proc.stderr
    proc = run(COMPARE, "HEAD", "games/no_such_game.gdl", "--games", "1", env=env)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    assert not list(tmp_path.glob("gdl-compare-*"))


def test_strength_json_and_text():
    args = ["tests/rules/nim.gdl", "--games", "4", "--agent", "mcts:iterations=30",
            "--workers", "1"]
    proc = run(STRENGTH, *args, "--json")
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert row["file"] == "tests/rules/nim.gdl" and row["games"] == 4
    assert row["games_by_seat"] == [2, 2] and sum(row["wins_by_seat"]) == row["wins"]
    share, low, high = row["win_share"]
    assert 0 <= low <= share <= high <= 1 and row["chance"] == 0.5
    assert row["ms_per_decision"] >= 0 and row["ms_per_choice"] >= 0
    proc = run(STRENGTH, *args)
    assert proc.returncode == 0, proc.stderr
    assert "95% interval" in proc.stdout and "tests/rules/nim.gdl" in proc.stdout
    proc = run(STRENGTH, "tests/rules/nim.gdl", "--timing", "2", "--agent", "mcts:iterations=9")
    assert proc.returncode == 0, proc.stderr
    timed = json.loads(proc.stdout)
    assert timed["positions"] == 2 and timed["cpu_ms_per_choice"] >= 0


@pytest.mark.skipif(native.missing_tools() is not None, reason="no native backend here")
def test_backends_prints_both_backends_and_load_times():
    done = run(ROOT / "benchmarks" / "backends.py", "games/space_war.gdl", "--games", "2",
               "--rounds", "1", "--json", env={"GDL_NATIVE_CFLAGS": "-O0"})
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)["files"]
    assert positive(row["python_median"]) and positive(row["native_median"])
    assert positive(row["first_load_ms"]) and positive(row["cached_load_ms"])


VERSUS = ROOT / "benchmarks" / "versus_openspiel.py"


def test_versus_openspiel_json_and_text():
    proc = run(VERSUS, "tic_tac_toe", "connect_four", "--games", "1", "--rounds", "2",
               "--backends", "python", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["games"], result["rounds"], result["backends"]) == (1, 2, ["python"])
    assert [row["game"] for row in result["rows"]] == ["tic_tac_toe", "connect_four"]
    for row in result["rows"]:
        for side in ("python", "spiel"):
            assert len(row[f"{side}_decisions_per_second"]) == 2
            assert positive(row[f"{side}_median"])
        assert positive(row["ratio_spiel_over_python_median"])
    proc = run(VERSUS, "tic_tac_toe", "--games", "1", "--rounds", "1", "--backends", "python")
    assert proc.returncode == 0, proc.stderr
    assert "pyspiel" in proc.stdout and "spiel/python" in proc.stdout
    assert proc.stdout.splitlines()[1].split()[0] == "tic_tac_toe"


def test_versus_openspiel_bad_input():
    proc = run(VERSUS, "tictactoe", "--games", "1")
    assert proc.returncode == 2 and "unknown game(s) tictactoe" in proc.stderr
    proc = run(VERSUS, "tic_tac_toe", "--backends", "java")
    assert proc.returncode == 2 and "unknown backend(s) java" in proc.stderr


@pytest.mark.skipif(native.missing_tools() is not None, reason="no native backend here")
def test_versus_openspiel_native():
    proc = run(VERSUS, "tic_tac_toe", "--games", "1", "--rounds", "1", "--json",
               env={"GDL_NATIVE_CFLAGS": "-O0"})
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)["rows"]
    assert positive(row["native_median"]) and positive(row["ratio_spiel_over_native_median"])


SEARCH = ROOT / "benchmarks" / "search.py"


def test_search_json_and_text():
    proc = run(SEARCH, "games/classic/tic_tac_toe.gdl", "--positions", "2", "--rounds", "1",
               "--backends", "python", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    [row] = result["rows"]
    assert (row["file"], row["backend"]) == ("games/classic/tic_tac_toe.gdl", "python")
    for key in ("mcts_ms_per_choice", "mcts_iterations_per_second", "clone_us",
                "bytes_per_state"):
        assert positive(row[key]), key
    proc = run(SEARCH, "games/classic/tic_tac_toe.gdl", "--positions", "1", "--rounds", "1",
               "--backends", "python")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].split()[:3] == ["file", "backend", "mcts"]
    assert proc.stdout.splitlines()[1].split()[:2] == ["games/classic/tic_tac_toe.gdl",
                                                       "python"]


def test_search_bad_input():
    proc = run(SEARCH, "games/nothing.gdl", "--positions", "1")
    assert proc.returncode == 2 and "no such file(s) games/nothing.gdl" in proc.stderr


FLAT = ROOT / "benchmarks" / "flat_state.py"


def test_flat_state_json_text_and_bad_input(tmp_path):
    """The flat prototype lists what gdl lists on every position (else exit 1), and times
    both, with the reference when it is there."""
    proc = run(FLAT, "--games", "22", "--rounds", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["positions"] > 20 and result["rounds"] == 1
    assert positive(result["us_per_listing"]["gdl"]) and positive(result["us_per_listing"]["flat"])
    if (BENCH_DIR / "space_war_ref.py").is_file():
        assert positive(result["us_per_listing"]["reference"])
    proc = run(FLAT, "--games", "21", "--rounds", "1", "--bench-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "gdl" in proc.stdout and "flat" in proc.stdout and "no reference" in proc.stdout
    proc = run(FLAT, "--games", "5", "--skip", "20")
    assert proc.returncode == 2 and "--games must be above --skip" in proc.stderr


# ----- instructions.py, with a stand-in for valgrind ------------------------------------------

_FAKE_VALGRIND = r'''#!/usr/bin/env python3
"""valgrind stand-in: runs the command after valgrind's own options and reports 1,000
instructions a decision plus 5,000 for start-up, as callgrind's summary line says it."""
import json, subprocess, sys
args = sys.argv[1:]
while args and args[0].startswith("--"):
    args.pop(0)
proc = subprocess.run(args, capture_output=True, text=True)
sys.stdout.write(proc.stdout)
decisions = json.loads(proc.stdout)["decisions"]
sys.stderr.write(f"==1== Collected : {1000 * decisions + 5000}\n")
sys.exit(proc.returncode)
'''


def test_instructions_counts_the_games_between_the_two_runs(tmp_path):
    fake = tmp_path / "valgrind"
    fake.write_text(_FAKE_VALGRIND)
    fake.chmod(0o755)
    env = {"PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    proc = run(ROOT / "benchmarks" / "instructions.py", "--games", "1", "3", "--json",
               "games/classic/tic_tac_toe.gdl", env=env)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    counts = result["files"]["games/classic/tic_tac_toe.gdl"][str(ROOT)]
    assert counts["instructions"] == 1000       # the start-up cancels out
    assert 10 <= counts["decisions"] <= 18      # two games of tic-tac-toe


def test_instructions_without_valgrind_says_so(tmp_path):
    proc = run(ROOT / "benchmarks" / "instructions.py", env={"PATH": str(tmp_path)})
    assert proc.returncode == 2 and "valgrind is not installed" in proc.stderr


BRIDGE = ROOT / "benchmarks" / "bridge_speed.py"


def test_bridge_speed_json_text_and_bad_input():
    pytest.importorskip("pyspiel")
    proc = run(BRIDGE, "tic_tac_toe", "--games", "2", "--moves", "1", "--simulations", "5",
               "--rounds", "2", "--backend", "python", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["game"], result["backend"]) == ("tic_tac_toe", "python")
    for name, values in result["runs"].items():
        assert len(values) == 2 and all(positive(v) for v in values), name
        assert positive(result["medians"][name])
    proc = run(BRIDGE, "tic_tac_toe", "--games", "1", "--moves", "1", "--simulations", "5",
               "--rounds", "1", "--backend", "python")
    assert proc.returncode == 0, proc.stderr
    assert "bridge" in proc.stdout and "pyspiel" in proc.stdout and "ms/move" in proc.stdout
    proc = run(BRIDGE, "tictactoe")
    assert proc.returncode == 2 and "no OpenSpiel twin for 'tictactoe'" in proc.stderr


SPLIT = ROOT / "benchmarks" / "space_war_split.py"


@needs_bench
def test_space_war_split_json_and_text(tmp_path):
    proc = run(SPLIT, "--games", "2", "--rounds", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    for side in ("reference", "gdl"):
        parts = result["medians"][side]
        assert all(positive(parts[p]) for p in ("total", "listing", "rest"))
        runs = result["runs"][side]
        assert len(runs["total"]) == 2
        for total, listing, rest in zip(runs["total"], runs["listing"], runs["rest"]):
            assert abs(total - listing - rest) < 1e-9 * total
    proc = run(SPLIT, "--games", "1", "--rounds", "1")
    assert proc.returncode == 0 and "listing" in proc.stdout and "reference" in proc.stdout
    proc = run(SPLIT, "--bench-dir", str(tmp_path))
    assert proc.returncode == 2 and "the Space War reference is missing" in proc.stderr
