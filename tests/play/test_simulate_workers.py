"""`gdl simulate` in worker processes: the same seed gives the same games and the same
summary whatever the number of workers; a run too short to gain from workers starts none;
Ctrl-C keeps the games finished so far; a rule error names the first failing game, as one
process would; bad `--workers` values. Workers here start after the first game, however
short the run (`WORKER_START` is 0), except where a test says otherwise."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from gdl.cli.main import main
from gdl.interpreter import GdlError, load_game
from gdl.interpreter.play.balance import batch
from gdl.interpreter.play.balance import simulate as simulating
from gdl.interpreter.play.balance.simulate import RUN_FIELDS, simulate, summarise

from tests.helpers import ROOT
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
GAMES, SEED, CAP = 21, 7, 15        # a cap of 15 turns leaves some games capped


@pytest.fixture(autouse=True)
def workers_start_at_once(monkeypatch):
    monkeypatch.setattr(simulating, "WORKER_START", 0.0)


@pytest.fixture(scope="module")
def space_war():
    return load_game(SPACE_WAR)


@pytest.fixture(scope="module")
def one_process(space_war):
    return simulate(space_war, GAMES, SEED, max_turns=CAP, workers=1)


def outcome(summary):
    """A summary's JSON without the fields that say how the run went."""
    return {key: value for key, value in summary.items() if key not in RUN_FIELDS}


def test_records_say_how_each_game_went(one_process):
    summary, records = one_process
    assert [r.seed for r in records] == list(range(SEED, SEED + GAMES))
    assert tuple(records[0].to_json()) == batch.RECORD_FIELDS
    capped = [r for r in records if r.capped]
    assert 0 < len(capped) < GAMES
    assert all(r.winners == () and not r.draw and r.turns == CAP for r in capped)
    assert summary.capped == len(capped)
    assert summary.decisions == sum(r.decisions for r in records)
    assert not summary.interrupted and summary.games == summary.games_requested


@pytest.mark.parametrize("workers", [2, 3])
def test_the_same_seed_gives_the_same_games_for_any_number_of_workers(space_war, one_process,
                                                                       workers):
    summary, records = simulate(space_war, GAMES, SEED, max_turns=CAP, workers=workers,
                                path=SPACE_WAR)
    assert summary.workers == workers
    assert records == one_process[1]
    assert outcome(summary.to_json()) == outcome(one_process[0].to_json())


def test_the_json_summary_names_its_workers_and_only_timing_differs():
    runner = CliRunner()
    args = ["simulate", SPACE_WAR, "--games", "6", "--seed", "3", "--json", "--workers"]
    one, two = (json.loads(runner.invoke(main, args + [n]).stdout) for n in ("1", "2"))
    assert (one["workers"], two["workers"]) == (1, 2)
    assert outcome(one) == outcome(two)


def test_a_run_too_short_to_gain_from_workers_starts_none(space_war, one_process,
                                                          monkeypatch):
    monkeypatch.setattr(simulating, "WORKER_START", 1000.0)
    summary, records = simulate(space_war, GAMES, SEED, max_turns=CAP, workers=2,
                                path=SPACE_WAR)
    assert summary.workers == 1 and records == one_process[1]
    assert multiprocessing.active_children() == []


def test_the_default_worker_count_leaves_out_busy_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setattr(os, "getloadavg", lambda: (2.6, 0.0, 0.0))
    assert simulating.default_workers() == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 0.0, 0.0))
    assert simulating.default_workers() == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert simulating.default_workers() == 4
    assert simulating.default_workers("local") == 4


FRAGILE = """
game "Fragile"
seats blue, red
board square(3, 3)
var luck = 0
setup {
  luck = roll(30)
  if luck == 1 { luck = roll(luck - 1) }
  goto play for blue
}
phase play turn {
  action go() {
    luck = roll(20)
    goto play for next(me)
  }
}
end {
  win when luck >= 19
}
"""


def test_the_first_rule_error_in_game_order_is_raised_for_any_number_of_workers(tmp_path):
    # Setup fails on seeds 10, 21, 48, ...: every run reports seed 10, as one process does,
    # though with three workers the chunk with seed 48 may fail first.
    fragile = tmp_path / "fragile.gdl"
    fragile.write_text(FRAGILE, encoding="utf-8")
    fragile = str(fragile)
    game = load_game(fragile)
    for workers in (1, 2, 3):
        with pytest.raises(GdlError) as info:
            simulate(game, 60, 0, workers=workers, path=fragile)
        assert info.value.message == "run-time error: cannot roll 1 dice of 0 sides"
        assert info.value.hints[-1] == ("in simulated game 11, seed 10 (gdl record with "
                                        "--seed 10 plays it again)")


class Interrupt:
    """A progress callback that raises KeyboardInterrupt, as Ctrl-C does, once `after`
    games are reported finished."""

    def __init__(self, after):
        self.after = after
        self.seen = 0

    def __call__(self, games):
        self.seen += games
        if self.seen >= self.after:
            raise KeyboardInterrupt


def test_an_interrupt_keeps_the_games_finished_so_far(space_war, one_process):
    summary, records = simulate(space_war, GAMES, SEED, max_turns=CAP, workers=1,
                                progress=Interrupt(5))
    assert records == one_process[1][:5]
    assert summary.interrupted and summary.games == 5
    assert summary.games_requested == GAMES
    assert summary.decisions == sum(r.decisions for r in records)


def test_an_interrupt_stops_the_workers_and_keeps_their_finished_games(space_war,
                                                                      one_process):
    summary, records = simulate(space_war, GAMES, SEED, max_turns=CAP, workers=2,
                                path=SPACE_WAR, progress=Interrupt(2))
    assert summary.interrupted and 1 <= summary.games == len(records) <= GAMES
    expected = {r.seed: r for r in one_process[1]}
    assert records == sorted(records, key=lambda r: r.seed)
    assert all(record == expected[record.seed] for record in records)
    same = summarise(space_war, records, GAMES, batch.RunSettings("random", SEED, CAP), 1.0, 2,
                     True)
    assert outcome(summary.to_json()) == outcome(same.to_json())
    assert multiprocessing.active_children() == []


def test_the_command_prints_the_interrupted_summary_and_exits_130(monkeypatch):
    real = batch.play_one

    def ctrl_c_in_the_fourth_game(game, seed, settings):
        if seed == 3:
            raise KeyboardInterrupt
        return real(game, seed, settings)

    monkeypatch.setattr(batch, "play_one", ctrl_c_in_the_fourth_game)
    runner = CliRunner()
    args = ["simulate", SPACE_WAR, "--games", "10", "--workers", "1"]
    text = runner.invoke(main, args)
    assert text.exit_code == 130, text.output
    assert text.output.startswith("Space War: interrupted after 3 of 10 games from seed 0\n")
    assert "decisions/s" in text.output
    as_json = runner.invoke(main, args + ["--json"])
    assert as_json.exit_code == 130
    summary = json.loads(as_json.stdout)
    assert (summary["interrupted"], summary["games"], summary["games_requested"]) == (True, 3, 10)


@pytest.mark.skipif(not os.path.isdir(f"/proc/{os.getpid()}/task"), reason="needs /proc")
def test_ctrl_c_in_a_terminal_stops_the_workers_cleanly():
    """Ctrl-C reaches the whole foreground process group: the workers must ignore it
    and stop when told, the command prints its summary and exits 130, no traceback."""
    command = [sys.executable, "-m", "gdl.cli.main", "simulate", SPACE_WAR, "--games",
               "100000", "--workers", "2", "--json"]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, start_new_session=True)
    try:
        workers = _wait_for_workers(run)
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130, err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["interrupted"] and summary["games"] < 100000
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")]


def _wait_for_workers(run, timeout=60):
    """The process ids of the worker processes of `run`, once one has started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert run.poll() is None, run.communicate()
        workers = [pid for pid in _children(run.pid)
                   if b"spawn_main" in _read(f"/proc/{pid}/cmdline")]
        if workers:
            return workers
        time.sleep(0.02)
    raise AssertionError("no worker process started")


def _children(pid):
    tasks = os.listdir(f"/proc/{pid}/task")
    return [int(child) for task in tasks
            for child in _read(f"/proc/{pid}/task/{task}/children").split()]


def _read(path):
    """A /proc file's bytes; empty when the process or thread has gone meanwhile."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return b""


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_bad_workers_values_are_refused(value):
    result = CliRunner().invoke(main, ["simulate", SPACE_WAR, "--games", "2",
                                       "--workers", value])
    assert result.exit_code == 2
    assert "Invalid value for '--workers': " in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.skipif(not os.path.isdir(f"/proc/{os.getpid()}/task"), reason="needs /proc")
def test_the_workers_of_a_killed_run_end_too():
    """A run killed outright (no chance to stop its workers) leaves no worker waiting for
    its next chunk for ever: each watches its parent and ends when it is gone."""
    command = [sys.executable, "-m", "gdl.cli.main", "simulate", SPACE_WAR, "--games",
               "100000", "--workers", "2", "--json"]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        workers = _wait_for_workers(run)
        run.kill()
        run.wait(timeout=60)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        if run.poll() is None:
            run.kill()
        for pid in _children_of_session(run.pid):
            os.kill(pid, signal.SIGKILL)


def _alive(pid):
    """A process that runs (not a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _children_of_session(session):
    """The processes still in the session the run started (left-over workers)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.getsid(int(name)) == session and int(name) != session:
                    found.append(int(name))
            except OSError:
                pass
    return found
