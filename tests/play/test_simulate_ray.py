"""`gdl simulate --ray`: games played as tasks on a Ray instance started on this machine give
the same per-game records and summary as one process; without Ray, or with an address
nobody answers at, a clear message and exit 1."""

import json
import os
import sys

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
    RAY = "Ray is not installed (pip install 'gdl[ray]'; the test extra has it)"
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
                                     "pip install 'gdl[ray]'")


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
