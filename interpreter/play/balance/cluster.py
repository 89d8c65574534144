"""Simulated games on a Ray cluster (the optional extra `gdl[ray]`).

`play_on_ray(game, games, settings, address, workers, progress)` plays the games (with the
run's `batch.RunSettings`) in chunks of consecutive indices as Ray tasks and returns
(`batch.GameRecord`s in game order, interrupted?, the cluster's CPUs): the records a run in
one process gives for the same seed, since game i plays seed `settings.seed + i` wherever
it runs.

The rule file travels as its checked program (plain data, pickled once with `ray.put`), not
as a path, so the cluster's machines need gdl installed but not the rule files; each Ray
worker compiles a program once and keeps it for the tasks that follow. `address` is
'local' (start a Ray instance on this machine, for as many CPUs as `workers`), 'auto' (the
cluster this machine belongs to, after `ray start`), `HOST:PORT` of a head node, or
`ray://HOST:PORT` (Ray Client, which needs `ray[client]`). A rule error in a game stops
the run and is raised as a run in one process would raise it (the first in game order).
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...language.errors import GdlDataError, GdlError
from ...runtime import introspect
from .batch import GameRecord, RunSettings, chunks_of, play_games

if TYPE_CHECKING:
    from ...language.program import Program
    from ...runtime.engine import Game

EXTRA = "pip install -e '.[ray]'"


def import_ray(address: str = "local") -> Any:
    """The `ray` module (untyped: an optional extra), or a GdlDataError saying how to get it.
    For a cluster at `address`, prepares its authentication first (Ray reads the mode when
    it loads)."""
    if address != "local":
        _use_token()
    try:
        import ray
    except ImportError:
        raise GdlDataError(f"--ray needs Ray, an optional extra: {EXTRA}") from None
    return ray


def play_on_ray(game: Game, games: int, settings: RunSettings, address: str, workers: int,
                progress: Callable[[int], object] | None = None,
                ) -> tuple[list[GameRecord], bool, int]:
    """Play games 0..games-1 as Ray tasks; returns (records in game order, interrupted?,
    the cluster's CPUs)."""
    ray = import_ray(address)
    started_here = not ray.is_initialized()
    if started_here:
        _connect(ray, address, workers)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        program = ray.put((introspect.resolved_program(game), game.path, game.source_hash))
        task = ray.remote(_play_chunk)
        pending = {task.remote(program, first, last, settings): first
                   for first, last in chunks_of(games, cpus)}
        records, interrupted = _gather(ray, pending, progress)
        return records, interrupted, cpus
    finally:
        if started_here:
            ray.shutdown()


def _connect(ray: Any, address: str, workers: int) -> None:
    if address == "local":
        ray.init(address="local", num_cpus=workers, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.ERROR)
        return
    _reachable(address)
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        hint = ("" if os.environ.get("RAY_AUTH_MODE") == "token" else
                " (a cluster with token authentication needs its token: copy it to "
                f"{TOKEN_FILE} or set RAY_AUTH_TOKEN; `ray get-auth-token` on the head "
                "node prints it)")
        raise GdlDataError(f"cannot use the Ray cluster at {address}: {exc}{hint}") from None


TOKEN_FILE = Path.home() / ".ray" / "auth_token"


def _use_token() -> None:
    """Ray 2.59 and later start clusters with token authentication by default, but a
    driver connecting by address sends the token only when RAY_AUTH_MODE=token: when the
    user has not chosen a mode and a token is at hand (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH
    or Ray's default token file, which `ray start` writes), send it. A cluster without
    authentication accepts a driver that sends one."""
    if os.environ.get("RAY_AUTH_MODE"):
        return
    if (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
            or TOKEN_FILE.is_file()):
        os.environ["RAY_AUTH_MODE"] = "token"


def _reachable(address: str) -> None:
    """Refuse a HOST:PORT nobody listens on at once (Ray itself would retry for minutes)."""
    if address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise GdlDataError(f"--ray: '{address}' is no cluster address: give HOST:PORT of "
                           "the head node (ray start --head prints it), 'auto', "
                           "ray://HOST:PORT, or 'local' (or nothing) for a Ray instance "
                           "on this machine")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise GdlDataError(f"cannot reach a Ray cluster at {address}: "
                           f"{exc.strerror or exc}") from None


def _gather(ray: Any, pending: dict[Any, int], progress: Callable[[int], object] | None,
            ) -> tuple[list[GameRecord], bool]:
    """Wait for the chunks (`pending`: Ray object reference -> its first game index); file
    each one's records by its first game index."""
    done: dict[int, list[GameRecord]] = {}
    errors: dict[int, GdlError] = {}
    interrupted = False
    waiting = list(pending)
    try:
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            first = pending[ready[0]]
            outcome = ray.get(ready[0])
            if isinstance(outcome, GdlError):
                errors[first] = outcome
                for ref in waiting:
                    if pending[ref] > first:
                        ray.cancel(ref)
                waiting = [ref for ref in waiting if pending[ref] < first]
                continue
            done[first] = outcome
            if progress and outcome:
                progress(len(outcome))
    except KeyboardInterrupt:
        interrupted = True
        for ref in waiting:
            ray.cancel(ref)
    if errors:
        raise errors[min(errors)]
    return [record for first in sorted(done) for record in done[first]], interrupted


# ----- in a Ray worker ----------------------------------------------------------------------
_compiled: dict[str, Game] = {}      # source hash -> Game, so a worker compiles each program once


def _play_chunk(program: tuple[Program, str, str], first: int, last: int,
                settings: RunSettings) -> list[GameRecord] | GdlError:
    """Play games first..last-1; their records, or the GdlError that stopped them.
    `program`: the checked program, the rule file's path and its source hash."""
    from ...runtime.engine import Game
    resolved, path, digest = program
    if digest not in _compiled:
        _compiled[digest] = Game(resolved, path, digest)
    records: list[GameRecord] = []
    try:
        play_games(_compiled[digest], range(first, last), settings, records)
    except GdlError as exc:
        return exc
    return records
