"""Many games for balance: seeds, caps, worker processes and a summary; and the benchmark.

`simulate(game, games, seed, spec, max_turns, workers=1, path=None, progress=None,
max_decisions=DEFAULT_MAX_DECISIONS, ray=None, check=False)` plays `games` games and returns
`(summary, records)`: a `Summary` and one `batch.GameRecord` per game, in game order; a game
still running after `max_turns` turns or `max_decisions` decisions is capped. Game i always
uses seed `seed + i`, so the records and the summary are the same for a seed whatever the
number of workers, and on Ray; only the fields that say how the run went (`RUN_FIELDS`:
seconds, games_per_second, decisions_per_second, workers, ray) differ. The run's settings
travel as one `batch.RunSettings`. `batch` plays the games of one process, `game_records`
writes the records to a file, `cluster` plays on Ray.

With `workers` > 1 the first games are played in this process, one by one, for as long as
the games left would take less time here than starting workers costs (a short run never
starts any, so it is never slower than with one worker); the rest in that many worker
processes (spawned, so the same on every platform). Each worker loads the rule file at
`path` once and plays chunks of consecutive game indices; the results are put back in game
order. Ctrl-C
(KeyboardInterrupt) during a run stops it: the workers finish the game they are playing
and stop, and the summary covers the games finished so far, with `interrupted` true.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any

import attrs

from ...language.errors import GdlDataError, GdlError
from ...language.limits import DEFAULT_MAX_DECISIONS
from ...loader import load_game, load_source
from ..agents.agents import make_agents
from .batch import GameRecord, RunSettings, chunks_of, play_games

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

    from ...runtime.engine import Game

DEFAULT_MAX_TURNS = 1000
WARM_UP = "seats a, b\nboard square(1, 1)\nsetup { goto p for a }\nphase p { action x() { } }\n"

Progress = Callable[[int], object]      # told of every n finished games


@attrs.frozen
class Summary:
    """What a run of `games_requested` games found: `games` played (fewer when
    `interrupted`), `finished` and `capped`; wins and win share per seat (of finished games,
    [share, low, high] with the 95% Wilson interval), draws; mean decisions and turns a game,
    the fewest and most turns, all decisions; the run's seed and caps; with a `payoff(s)`,
    each seat's mean return over finished games (else None). And how it went (the
    fields of `RUN_FIELDS`): seconds, worker processes (or the Ray cluster's CPUs), games
    and decisions a second, the Ray address (None off Ray). `to_json` is the object
    `gdl simulate --json` prints."""

    game: str
    games: int
    games_requested: int
    interrupted: bool
    finished: int
    capped: int
    wins: dict[str, int]
    draws: int
    mean_decisions: float
    mean_turns: float
    min_turns: int
    max_turns_played: int
    win_share: dict[str, list[float]]
    decisions: int
    seconds: float
    workers: int
    games_per_second: float
    decisions_per_second: int
    seed: int
    max_turns: int
    max_decisions: int
    ray: str | None = None
    mean_returns: dict[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The plain form, fields in declaration order (`mean_returns` only with a payoff)."""
        plain = attrs.asdict(self, recurse=False)
        if self.mean_returns is None:
            del plain["mean_returns"]
        return plain


# The timing fields of a summary, `workers` and `ray`: how the run went, not what it found.
RUN_FIELDS = ("seconds", "games_per_second", "decisions_per_second", "workers", "ray")


def simulate(game: Game, games: int, seed: int = 0, spec: str = "random",
             max_turns: int = DEFAULT_MAX_TURNS, workers: int = 1, path: str | None = None,
             progress: Progress | None = None, max_decisions: int = DEFAULT_MAX_DECISIONS,
             ray: str | None = None, check: bool = False) -> tuple[Summary, list[GameRecord]]:
    """Play `games` games; returns (summary, records). `progress(n)` is told of every n
    finished games. `workers` > 1 needs `path`, the rule file `game` was loaded from.
    `ray` (an address, or 'local') plays them on a Ray cluster instead (`cluster`).
    `check`: the rule file's invariants are checked after every decision."""
    if "human" in make_agents(spec, len(game.seats), seed):
        raise GdlDataError("simulate plays agents only; use 'gdl play' for humans")
    started = time.perf_counter()
    settings = RunSettings(spec, seed, max_turns, max_decisions, check)
    if ray is not None:
        from .cluster import play_on_ray
        records, interrupted, workers = play_on_ray(game, games, settings, ray, workers,
                                                    progress)
    else:
        workers = max(1, min(workers, len(chunks_of(games, workers))))
        if workers == 1:
            records, interrupted = _in_process(game, range(games), settings, progress)
        else:
            if path is None:
                raise ValueError("simulate with workers needs the rule file's path")
            records, interrupted, workers = _in_pool_when_long(game, path, games, workers,
                                                               settings, progress)
    seconds = time.perf_counter() - started
    summary = summarise(game, records, games, settings, seconds, workers, interrupted, ray)
    return summary, records


def default_workers(ray: str | None = None) -> int:
    """The worker count when none is asked for: one per core, less the cores busy now (the
    load average over the last minute), at least one. On a machine whose cores are taken,
    more processes only share the same cores and pay their start-up. On Ray, one per core
    of this machine."""
    cores = os.cpu_count() or 1
    if ray is not None or not hasattr(os, "getloadavg"):
        return cores
    return max(1, min(cores, round(cores - os.getloadavg()[0])))


def _in_process(game: Game, indices: range, settings: RunSettings,
                progress: Progress | None) -> tuple[list[GameRecord], bool]:
    records: list[GameRecord] = []
    try:
        play_games(game, indices, settings, records,
                   after_game=(lambda: progress(1)) if progress else None)
    except KeyboardInterrupt:
        return records, True
    return records, False


def _in_pool_when_long(game: Game, path: str, games: int, workers: int,
                       settings: RunSettings,
                       progress: Progress | None) -> tuple[list[GameRecord], bool, int]:
    """Play the games in this process, one by one, for as long as the games left would take
    less time here than starting workers costs (`WORKER_START`, projected from the games
    played so far); then the rest in `workers` processes. Returns (records in game order,
    interrupted?, the workers that played: 1 when none was started)."""
    records: list[GameRecord] = []
    started = time.perf_counter()
    played = 0
    while played < games:
        more, interrupted = _in_process(game, range(played, played + 1), settings, progress)
        records += more
        played += 1
        if interrupted:
            return records, True, 1
        left = (time.perf_counter() - started) / played * (games - played)
        if left > WORKER_START * workers / (workers - 1) * START_MARGIN:
            break
    if played == games:
        return records, False, 1
    chunks = [(first + played, last + played) for first, last in chunks_of(games - played,
                                                                           workers)]
    workers = min(workers, len(chunks))
    rest, interrupted = _in_pool(path, chunks, workers, settings, progress)
    return records + rest, interrupted, workers


Chunks = dict[Future[list[GameRecord]], int]      # a chunk's future -> its first index

# Seconds it takes to start a worker process and load the rule file in it (spawn, imports,
# a parse-cache hit; measured 0.5-1.2 s on a busy 2-core machine); workers start only when
# the games left would take longer in one process than workers starting and sharing them,
# by `START_MARGIN` (so a run is never slower with more workers than with one).
WORKER_START = 1.0
START_MARGIN = 1.5


def _in_pool(path: str, chunks: Sequence[tuple[int, int]], workers: int,
             settings: RunSettings,
             progress: Progress | None) -> tuple[list[GameRecord], bool]:
    """Play `chunks` ((first, last) index ranges) in worker processes; returns (records in
    game order, interrupted?). A rule error stops the run: the chunks after the failing one
    are dropped, the ones before it still run, and the first error in game order is
    raised, as a run in one process would raise it."""
    context = multiprocessing.get_context("spawn")
    done: dict[int, list[GameRecord]] = {}
    errors: dict[int, GdlError] = {}
    futures: Chunks = {}
    interrupted = False
    executor: ProcessPoolExecutor | None = None
    stop: Event | None = None
    try:
        # Made before Ctrl-C is held: making the first one starts multiprocessing's
        # resource tracker, which unblocks Ctrl-C when it has started.
        stop = context.Event()
        with _sigint_held():    # started workers inherit the mask and never see Ctrl-C
            executor = ProcessPoolExecutor(workers, mp_context=context,
                                           initializer=_start_worker,
                                           initargs=(path, settings, stop, os.getpid()))
            for first, last in chunks:
                futures[executor.submit(_play_chunk, first, last)] = first
        for future in as_completed(futures):
            _collect(future, futures, done, errors, progress)
    except KeyboardInterrupt:
        interrupted = True
        with _sigint_ignored():     # a second Ctrl-C must not cut the clean-up short
            if stop is not None:
                stop.set()
            for future in futures:
                future.cancel()
            for future in futures:
                if futures[future] not in done and futures[future] not in errors:
                    _collect(future, futures, done, errors, None)
    finally:
        if executor is not None:
            with _sigint_ignored():
                executor.shutdown(wait=True, cancel_futures=True)
    if errors:
        raise errors[min(errors)]
    return [record for first in sorted(done) for record in done[first]], interrupted


def _collect(future: Future[list[GameRecord]], futures: Chunks,
             done: dict[int, list[GameRecord]], errors: dict[int, GdlError],
             progress: Progress | None) -> None:
    """File a finished chunk's records (or its error, dropping the chunks after it)."""
    first = futures[future]
    try:
        records = future.result()
    except CancelledError:
        return
    except GdlError as exc:
        errors[first] = exc
        for other, other_first in futures.items():
            if other_first > first:
                other.cancel()
        return
    done[first] = records
    if progress and records:
        progress(len(records))


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back (POSIX): processes started meanwhile inherit the mask; the parent
    gets a held Ctrl-C when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C for the block (only the main thread may set signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


# ----- in a worker process ----------------------------------------------------------------
@attrs.frozen
class _Worker:
    """A worker process's game (or the GdlError loading it, raised by each task so the
    parent reports it), the run's settings and the flag that tells it to stop."""

    game: Game | None
    error: GdlError | None
    settings: RunSettings
    stop: Event


_worker: _Worker | None = None      # set once in each worker process, by `_start_worker`


def _start_worker(path: str, settings: RunSettings, stop: Event, parent: int) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the parent handles Ctrl-C
    # `parent` as the run saw itself: a run killed while this worker started is gone already
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="gdl-parent-watch").start()
    try:
        _worker = _Worker(load_game(path), None, settings, stop)
    except GdlError as exc:
        _worker = _Worker(None, exc, settings, stop)


def _watch_parent(parent: int) -> None:
    """End this worker once the run that started it is gone (killed, say, with no chance
    to stop its workers): a worker waiting for its next chunk would otherwise wait for
    ever."""
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH)
    os.kill(os.getpid(), signal.SIGKILL)    # no clean-up to wait for: nothing to keep


PARENT_WATCH = 0.5      # seconds between a worker's looks at its parent


def _play_chunk(first: int, last: int) -> list[GameRecord]:
    assert _worker is not None, "a chunk is played in a started worker"
    if _worker.error is not None:
        raise _worker.error
    assert _worker.game is not None
    records: list[GameRecord] = []
    play_games(_worker.game, range(first, last), _worker.settings, records,
               stopped=_worker.stop.is_set)
    return records


# ----- summary ------------------------------------------------------------------------------
def summarise(game: Game, records: Sequence[GameRecord], requested: int,
              settings: RunSettings, seconds: float, workers: int, interrupted: bool,
              ray: str | None = None) -> Summary:
    """The summary of `records` (in game order) of a run of `requested` games."""
    games = len(records)
    wins = {name: 0 for name in game.seats}
    finished = draws = decisions = 0
    turns = [record.turns for record in records]
    for record in records:
        decisions += record.decisions
        if not record.capped:
            finished += 1
            draws += record.draw
            for name in record.winners:
                wins[name] += 1
    return Summary(
        game=game.name, games=games, games_requested=requested,
        interrupted=interrupted, finished=finished, capped=games - finished,
        wins=wins, draws=draws,
        mean_decisions=round(decisions / games, 2) if games else 0,
        mean_turns=round(sum(turns) / games, 2) if games else 0,
        min_turns=min(turns, default=0), max_turns_played=max(turns, default=0),
        win_share={name: wilson(n, finished) for name, n in wins.items()},
        decisions=decisions, seconds=round(seconds, 3), workers=workers,
        games_per_second=round(games / seconds, 2) if seconds else 0,
        decisions_per_second=round(decisions / seconds) if seconds else 0,
        seed=settings.seed, max_turns=settings.max_turns,
        max_decisions=settings.max_decisions, ray=ray,
        mean_returns=mean_returns(game.seats, records) if game.rules.payoff else None)


def mean_returns(seats: Sequence[str], records: Sequence[GameRecord]) -> dict[str, float]:
    """Each seat's mean return over the finished games of `records` (0 with none), 3
    decimals."""
    finished = [record for record in records if not record.capped]
    return {seat: round(sum(r.returns[i] for r in finished) / len(finished), 3)
            if finished else 0.0 for i, seat in enumerate(seats)}


def wilson(successes: int, trials: int, z: float = 1.96) -> list[float]:
    """A win share with its 95% Wilson interval: [share, low, high], 3 decimals."""
    return [round(value, 3) for value in wilson_exact(successes, trials, z)]


def wilson_exact(successes: int, trials: int,
                 z: float = 1.96) -> tuple[float, float, float]:
    """(share, low, high) of the Wilson score interval, unrounded; (0, 0, 0) of no trials."""
    if trials == 0:
        return (0.0, 0.0, 0.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * ((p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5) / denominator
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def benchmark(path: str, games: int = 200, seed: int = 1, max_turns: int = DEFAULT_MAX_TURNS,
              max_decisions: int = DEFAULT_MAX_DECISIONS) -> dict[str, Any]:
    """Load (parse + check + compile) milliseconds, and random-play decisions per second in
    this one process. The file is loaded once: the load time is that load's, after a tiny
    game has paid what a process's first load pays once (imports, first compiles)."""
    load_source(WARM_UP, "<warm-up>", "python")
    started = time.perf_counter()
    game = load_game(path)
    loaded = time.perf_counter() - started
    summary, _ = simulate(game, games, seed, max_turns=max_turns, max_decisions=max_decisions)
    return {"file": path, "game": game.name, "parse_check_ms": round(loaded * 1000, 1),
            "games": games, "decisions": summary.decisions,
            "decisions_per_second": summary.decisions_per_second,
            "games_per_second": summary.games_per_second}
