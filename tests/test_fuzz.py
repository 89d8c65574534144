"""Fuzzing the shipped rule files: each mutant (a token or a line deleted, repeated or
swapped, a number changed) is refused with a GdlError, by the checker or while it runs, or
plays a clean game within a decision cap; never another exception, never a hang.

Deterministic: the mutants come from a fixed seed. GDL_FUZZ_MUTANTS=N runs N of them
(default 120, some 15 s); a failure names the mutant's seed, so
`GDL_FUZZ_FIRST=SEED GDL_FUZZ_MUTANTS=1` runs that one again."""

import glob
import os
import random
import re
import signal
import time

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.play.playing import run_game

GAMES = sorted(glob.glob("games/*.gdl"))
MUTANTS = int(os.environ.get("GDL_FUZZ_MUTANTS", "120"))
FIRST = int(os.environ.get("GDL_FUZZ_FIRST", "0"))
MAX_TURNS, MAX_DECISIONS = 100, 400
SECONDS = 10            # a mutant that takes longer hangs (the suite's own runs take < 1 s)
TOKEN = re.compile(r'"[^"\n]*"|@[A-Za-z]+[0-9]+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|'
                   r'\+=|-=|\S')
NUMBERS = ["0", "1", "2", "7", "100", "1000000", "1000000000000"]


def mutate(text, rng):
    """One random change of `text`, and its description."""
    lines = text.split("\n")
    numbers = list(re.finditer(r"\b[0-9]+\b", text))
    op = rng.choice(["delete token", "repeat token", "swap tokens", "delete line",
                     "repeat line", "swap lines"] + ["change number"] * bool(numbers))
    if op.endswith("token") or op.endswith("tokens"):
        tokens = [m.span() for m in TOKEN.finditer(text)]
        i = rng.randrange(len(tokens) - 1)
        (s, e), (s2, e2) = tokens[i], tokens[i + 1]
        if op == "delete token":
            return text[:s] + text[e:], f"{op} {text[s:e]!r} at {s}"
        if op == "repeat token":
            return text[:e] + " " + text[s:e] + text[e:], f"{op} {text[s:e]!r} at {s}"
        return (text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:],
                f"{op} {text[s:e]!r} {text[s2:e2]!r} at {s}")
    if op == "change number":
        m = rng.choice(numbers)
        new = rng.choice(NUMBERS)
        return text[:m.start()] + new + text[m.end():], f"{op} {m.group()} at {m.start()} to {new}"
    i = rng.randrange(len(lines))
    if op == "delete line":
        del lines[i]
    elif op == "repeat line":
        lines.insert(i, lines[i])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        op += f" {j + 1} and"
    return "\n".join(lines), f"{op} {i + 1}"


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def outcome(text, path, seed):
    """What a mutant does: 'refused' (a GdlError) or 'finished' / 'capped'."""
    try:
        game = load_source(text, path)
        state = game.new_state(seed)
        agents = [RandomAgent(seed * 7 + s) for s in range(len(game.seats))]
        status, _ = run_game(game, state,
                             lambda seat, legal: agents[seat].choose(game, state, legal),
                             max_turns=MAX_TURNS, max_decisions=MAX_DECISIONS)
        return status
    except GdlError:
        return "refused"


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="needs SIGALRM for the time guard")
def test_mutated_rule_files_fail_cleanly_or_play(monkeypatch):
    monkeypatch.setenv("GDL_NO_CACHE", "1")     # mutants would only fill the parse cache
    texts = {path: open(path, encoding="utf-8").read() for path in GAMES}
    old = signal.signal(signal.SIGALRM, _alarm)
    seen = {}
    try:
        for seed in range(FIRST, FIRST + MUTANTS):
            rng = random.Random(seed)
            path = rng.choice(GAMES)
            text, change = mutate(texts[path], rng)
            where = f"mutant {seed} of {path} ({change})"
            signal.alarm(SECONDS)
            started = time.perf_counter()
            try:
                result = outcome(text, path, seed)
            except Hang:
                pytest.fail(f"{where} ran for more than {SECONDS} s")
            except Exception as exc:    # noqa: BLE001 - the point: nothing but GdlError
                raise AssertionError(f"{where} raised {type(exc).__name__}: {exc}") from exc
            finally:
                signal.alarm(0)
            assert time.perf_counter() - started < SECONDS
            seen[result] = seen.get(result, 0) + 1
    finally:
        signal.signal(signal.SIGALRM, old)
    # The mutants exercise both sides: refused files and games that play.
    assert seen.get("refused", 0) > 0 and seen.get("finished", 0) + seen.get("capped", 0) > 0
