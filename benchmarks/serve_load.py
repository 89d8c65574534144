"""`gdl serve` under load: many games at once, every seat played through the websocket API.

    .venv/bin/python benchmarks/serve_load.py [FILE] [--games 50] [--moves 100] [--seed 1]
                                              [--json] [--profile OUT]

Starts one `gdl serve FILE --games N --seats SEAT=human,... --port 0 --pace 0` (every seat
human), reads the URLs it prints, and opens one websocket per seat of every game at once
(with the `websockets` client that uvicorn's standard extra installs). Each seat plays as a
random agent: when a `position` offers it actions it sends one (`{"type": "act", "index":
I, "text": T}`) and times the move from that send to the first `position` the server sends
it back. A game stops at its end or after `--moves` decisions of each seat.

Prints the games, the decisions played, the errors (an `error` message, a dropped
connection or a game that did not finish in time: must be 0), the latency per move
(median, 95th percentile, most) and the server's memory (its resident set at the start,
with every game started, and at its peak, from /proc). With `--profile OUT` the server runs
under cProfile and the functions it spent most time in are printed. Not a timed test: the figures are the
machine's of the moment (docs/serve.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time

import websockets

from benchlib import installed_gdl_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URL = re.compile(r"^  (\w+): http://([^/]+)/play/(\S+)$")
WAIT = 60           # seconds a seat waits to connect, or for a message, before an error


def start_server(path, games, seed, profile=None):
    """`gdl serve` with every seat human (with `profile`, under cProfile, its statistics
    written to that file when it stops); (process, [{seat: websocket URL}] per game)."""
    seats = seat_names(path)
    spec = ",".join(f"{seat}=human" for seat in seats)
    gdl = installed_gdl_command() if profile is None else \
        [sys.executable, "-m", "cProfile", "-o", profile, "-m", "gdl.cli.main"]
    process = subprocess.Popen(
        [*gdl, "serve", path, "--games", str(games), "--seats", spec,
         "--port", "0", "--pace", "0", "--seed", str(seed)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tables, current = [], None
    for line in process.stdout:
        if line.startswith("game ") or current is None and URL.match(line):
            current = {}
            tables.append(current)
        found = URL.match(line.rstrip("\n"))
        if found and found.group(1) != "spectator":
            current[found.group(1)] = f"ws://{found.group(2)}/ws/{found.group(3)}"
        if line.startswith("each URL holds a secret"):
            return process, tables
    raise SystemExit("gdl serve stopped: " + process.stderr.read())


def seat_names(path):
    from gdl.interpreter.loader import load_game
    return load_game(path).seats


def rss_kb(pid, field="VmRSS"):
    """A process's resident memory in kB (`VmHWM`: its peak), from /proc."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


async def play_seat(url, game, moves, chooser, latencies, errors):
    """One seat's browser: a random legal action whenever it decides, each move timed;
    `game` counts the decisions of the game's seats (it stops at `moves` per seat)."""
    made, sent = 0, None
    async with websockets.connect(url, max_size=None, open_timeout=WAIT) as socket:
        while True:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), WAIT))
            except asyncio.TimeoutError:
                errors.append(f"nothing received in {WAIT} s")
                return made
            if message["type"] == "error":
                errors.append(message["message"])
                return made
            if message["type"] != "position":
                continue
            if sent is not None:
                latencies.append(time.perf_counter() - sent)
                sent = None
            if message["result"] is not None or message["error"] is not None or \
                    game["decisions"] >= moves * game["seats"]:
                return made
            actions = message["actions"]
            if actions:
                index = chooser.randrange(len(actions))
                sent = time.perf_counter()
                await socket.send(json.dumps({"type": "act", "index": index,
                                              "text": actions[index]}))
                made += 1
                game["decisions"] += 1


async def drive(tables, moves, seed):
    latencies, errors = [], []
    games = [{"decisions": 0, "seats": len(table)} for table in tables]
    tasks = [play_seat(url, games[number], moves, random.Random(seed * 1000 + number),
                       latencies, errors)
             for number, table in enumerate(tables) for url in table.values()]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    made = 0
    for result in results:
        if isinstance(result, BaseException):
            errors.append(f"{type(result).__name__}: {result}")
        else:
            made += result
    return made, latencies, errors


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=os.path.join(ROOT, "games", "space_war.gdl"))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=100, help="most decisions per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", metavar="OUT", help="run the server under cProfile, "
                        "write its statistics to OUT and print the functions that took most")
    args = parser.parse_args()
    process, tables = start_server(args.file, args.games, args.seed, args.profile)
    try:
        started_kb = rss_kb(process.pid)
        start = time.perf_counter()
        made, latencies, errors = asyncio.run(drive(tables, args.moves, args.seed))
        seconds = time.perf_counter() - start
        peak_kb = rss_kb(process.pid, "VmHWM")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60 if args.profile else 10)
        except subprocess.TimeoutExpired:
            process.kill()
    if len(tables) != args.games:
        errors.append(f"gdl serve printed {len(tables)} games, not {args.games}")
    report = {"file": os.path.relpath(args.file, ROOT), "games": len(tables),
              "connections": sum(len(table) for table in tables), "decisions": made,
              "errors": len(errors), "seconds": round(seconds, 2),
              "decisions_per_second": round(made / seconds, 1) if seconds else 0,
              "latency_ms": {"median": round(1000 * statistics.median(latencies), 1),
                             "p95": round(1000 * percentile(latencies, 0.95), 1),
                             "max": round(1000 * max(latencies), 1)} if latencies else None,
              "server_rss_mb": {"started": round(started_kb / 1024, 1),
                                "peak": round(peak_kb / 1024, 1)},
              "load": round(os.getloadavg()[0], 1)}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['file']}: {report['games']} games at once, {report['connections']} "
              f"websockets, {made} decisions in {report['seconds']} s "
              f"({report['decisions_per_second']}/s), errors {len(errors)}")
        if latencies:
            lat = report["latency_ms"]
            print(f"  latency per move: median {lat['median']} ms, p95 {lat['p95']} ms, "
                  f"most {lat['max']} ms")
        mem = report["server_rss_mb"]
        print(f"  server memory: {mem['started']} MB with the games started, peak "
              f"{mem['peak']} MB; load average {report['load']}")
        for error in errors[:5]:
            print("  error: " + error)
    if args.profile and os.path.exists(args.profile):
        import pstats
        stats = pstats.Stats(args.profile, stream=sys.stderr if args.json else sys.stdout)
        stats.sort_stats("cumulative").print_stats(25)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
