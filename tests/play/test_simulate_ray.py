"""`gdl simulate --ray`: games played as tasks on a Ray instance started on this machine give
the same per-game records and summary as one process; without Ray, or with an address
nobody answers at, a clear message and exit 1."""

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest
from click.testing import CliRunner

from gdl.cli.main import main
from gdl.interpreter.play.balance.simulate import RUN_FIELDS

from tests.helpers import ROOT
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
RACE = os.path.join(ROOT, "tests", "rules", "balance", "race.gdl")

try:
    import ray      # noqa: F401
    RAY = None
except ImportError:
    RAY = "Ray is not installed (pip install -e '.[ray]'; the test extra has it)"
needs_ray = pytest.mark.skipif(RAY is not None, reason=RAY or "")


def gdl(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def outcome(summary):
    return {key: value for key, value in summary.items() if key not in RUN_FIELDS}


@needs_ray
def test_ray_gives_the_records_and_summary_of_one_process(tmp_path):
    common = ["simulate", SPACE_WAR, "--games", 21, "--seed", 7, "--max-turns", 15, "--json"]
    local = gdl(*common, "--workers", 1, "--out", tmp_path / "local.jsonl")
    on_ray = gdl(*common, "--workers", 2, "--ray", "--out", tmp_path / "ray.jsonl")
    assert on_ray.exit_code == 0, on_ray.output
    one, cluster = json.loads(local.stdout), json.loads(on_ray.stdout)
    assert cluster["ray"] == "local" and cluster["workers"] == 2
    assert 0 < cluster["capped"] < 21         # capped and finished games alike
    assert outcome(cluster) == outcome(one)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_ray_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)       # import ray fails
    result = gdl("simulate", RACE, "--games", 2, "--ray")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: --ray needs Ray, an optional extra: "
                                     "pip install -e '.[ray]'")


@needs_ray
@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:1", "error: cannot reach a Ray cluster at 127.0.0.1:1: Connection refused"),
    ("nowhere", "error: --ray: 'nowhere' is no cluster address: give HOST:PORT of the head "
     "node (ray start --head prints it), 'auto', ray://HOST:PORT, or 'local' (or nothing) "
     "for a Ray instance on this machine"),
    ("host:99999", "error: --ray: 'host:99999' is no cluster address"),
])
def test_a_bad_ray_address_is_refused_at_once(address, message):
    result = gdl("simulate", RACE, "--games", 2, "--ray", address)
    assert result.exit_code == 1
    assert result.stderr.strip().startswith(message)


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stop(temp_dir):
    """Stop the processes of the head started in `temp_dir` only (`ray stop` would stop
    every Ray on the machine, other tests' too)."""
    for attempt in (signal.SIGTERM, signal.SIGKILL):
        for proc in glob.glob("/proc/[0-9]*/cmdline"):
            try:
                with open(proc, "rb") as f:
                    if temp_dir.encode() in f.read():
                        os.kill(int(proc.split("/")[2]), attempt)
            except (OSError, ValueError):
                pass
        time.sleep(1)


@needs_ray
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the head's processes "
                    "in /proc")
def test_ray_by_address_on_a_head_started_with_ray_start():
    """As a user does: `ray start --head` (Ray 2.59+ turns token authentication on for it),
    then `gdl simulate --ray HOST:PORT`: the same records as one process (was
    InvalidAuthToken warnings and 'Failed to connect' after 21 s)."""
    ray_cli = os.path.join(os.path.dirname(sys.executable), "ray")
    port = _free_port()
    temp_dir = tempfile.mkdtemp(prefix="gdlray", dir="/tmp")   # short: Ray's socket paths
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    try:
        started = subprocess.run(
            [ray_cli, "start", "--head", f"--port={port}", "--num-cpus=1",
             f"--temp-dir={temp_dir}", "--include-dashboard=false", "--disable-usage-stats"],
            capture_output=True, text=True, timeout=120, env=env)
        assert started.returncode == 0, started.stderr
        common = [sys.executable, "-m", "gdl.cli.main", "simulate", SPACE_WAR, "--games", "6",
                  "--seed", "3", "--max-turns", "15", "--json"]
        on_ray = subprocess.run(common + ["--ray", f"127.0.0.1:{port}"], capture_output=True,
                                text=True, timeout=120, env=env, cwd=ROOT)
        local = subprocess.run(common + ["--workers", "1"], capture_output=True, text=True,
                               timeout=120, env=env, cwd=ROOT)
        assert on_ray.returncode == 0, on_ray.stderr[-2000:]
        assert "InvalidAuthToken" not in on_ray.stderr
        assert outcome(json.loads(on_ray.stdout)) == outcome(json.loads(local.stdout))
    finally:
        _stop(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
