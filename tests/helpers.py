"""What many test files share: the repository's folders and small helpers. Import from here
(`from tests.helpers import ROOT, rule, act`); never copy a helper into a test file."""

from __future__ import annotations

import functools
import glob
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import pytest
from hypothesis import strategies as st

from gdl.interpreter import GdlError, load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError, GdlRuntimeError, IllegalAction
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.engine import Game
from gdl.interpreter.runtime.events import Event, as_json
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import HIDDEN, render

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent                        # the checkout
RULES = TESTS / "rules"                    # small rule files made for the tests
GOLDEN = TESTS / "golden"                  # golden transcripts, screens and pictures
SCENARIOS = TESTS / "scenarios"            # the shipped games' scenario files
GAMES = ROOT / "games"                     # the shipped games
SPACE_WAR = GAMES / "space_war.gdl"


# ----- rule files and actions ------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def rule(name: str) -> Game:
    """The game of tests/rules/NAME, loaded once per run."""
    return load_game(str(RULES / name))


def act(game: Game, state: State, text: str) -> list[Event]:
    """Play the legal action whose text is `text`; return its events."""
    return game.apply(state, game.parse_action(state, text))


def act_json(game: Game, state: State, text: str) -> list[list[Any]]:
    """Play the legal action whose text is `text`; return its events in their JSON form."""
    return as_json(act(game, state, text))


def texts(game: Game, state: State, viewer: int | None = None) -> list[str]:
    """The texts of the legal actions, as `viewer` reads them."""
    return [game.action_text(state, a, viewer) for a in game.legal_actions(state)]


def reason(game: Game, state: State, text: str) -> str:
    """Why `text` is refused (the IllegalAction's message)."""
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, text)
    return str(info.value).removeprefix("error: ")


def deciding(game: Game, state: State) -> str:
    """The name of the seat to decide."""
    return game.seats[game.current_player(state)]


def logs(events: list[Event]) -> list[Any]:
    """What the `log` statements among `events` wrote."""
    return [e[1] for e in as_json(events) if e[0] == "log"]


def cell_names(game: Game, cells: list[int]) -> list[str]:
    """The names of `cells`."""
    return [game.rules.board.names[c] for c in cells]


def values(board: str, *exprs: str, extra: str = "",
           forced: Sequence[tuple[int, int]] = ()) -> list[Any]:
    """`text(e)` of each expression, worked out in the setup of a game on `board`."""
    lines = "\n".join(f"  log text({e})" for e in exprs)
    source = (f"seats a, b\n{board}\n{extra}\nsetup {{\n{lines}\n  goto play for a\n}}\n"
              "phase play turn { action pass() { goto play for next(me) } }\n")
    return logs(load_source(source, "values.gdl").new_state(0, forced=forced).events)


def value(board: str, expr: str, extra: str = "",
          forced: Sequence[tuple[int, int]] = ()) -> Any:
    """`text(expr)`, worked out in the setup of a game on `board`."""
    return values(board, expr, extra=extra, forced=forced)[0]


def runtime_error(board: str, expr: str, extra: str = "") -> str:
    """The first line of the run-time error working out `expr` on `board` gives."""
    with pytest.raises(GdlRuntimeError) as info:
        values(board, expr, extra=extra)
    return str(info.value).splitlines()[0]


def play_to_the_end(game: Game, name: str, limit: int, draw: bool = False) -> None:
    """Random legal play from seeds 0 to 2 ends within `limit` decisions; every action's
    text reads back to it and every state survives a JSON round trip (and, with `draw`, every
    seat's view draws)."""
    for seed in range(3):
        state = game.new_state(seed)
        chooser = random.Random(seed)
        while state.result is None and state.decisions < limit:
            legal = game.legal_actions(state)
            assert legal, f"{name}: stuck in {state.frames[-1]['phase']}"
            action = chooser.choice(legal)
            assert game.parse_action(state, game.action_text(state, action)) == action
            game.apply(state, action)
            assert State.from_json(state.to_json()).to_json() == state.to_json()
            if draw:
                for seat in range(len(game.seats)):
                    render(game, game.view(state, seat))
        assert state.result is not None, f"{name} seed {seed} did not end"


# A small game used by the tests of several constructs (on resume, sorted, hide piece when,
# deciding, give): a's two coins stacked on a1 (only the top one seen by b), b's coin on d1.
COINS = """
game "additions"
seats a, b
board square(4, 1)
kinds (power) { Coin = 1 }
var resumed = 0
var order = [a]
var piece.secret = 7
hide piece(p) when p.owner != viewer and p != last(pieces_at(p.cell))
setup {
  create Coin for a at @a1
  create Coin for a at @a1
  create Coin for b at @d1
  order = sorted(s in seats: 0 - len(pieces(s)) * 0 + (if s == a then 2 else 1))
  goto main for a
}
phase main turn {
  on resume { resumed += 1 }
  action ask() { call reply for next(me) }
  action pass() { goto main for next(me) }
}
phase reply {
  action ok() { return }
}
"""


def line_of(text: str, path: str = "games/space_war.gdl") -> int:
    """The number of the line of the file at `path` (from the checkout) that holds `text`
    (exactly one must)."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        found = [n for n, line in enumerate(handle.read().split("\n"), 1) if text in line]
    assert len(found) == 1, (text, found)
    return found[0]


# ----- broken rule files -----------------------------------------------------------------------

# A valid game of 11 lines; cases edit it or add lines from line 12 on.
VALID = textwrap.dedent("""\
    game "T"
    seats a, b
    board square(3, 3)
    setup {
      goto play for a
    }
    phase play {
      action pass() {
        goto play for next(me)
      }
    }
    """)
VALID_3 = VALID.replace("seats a, b\n", "seats a, b, c\n")     # the same with three seats


def error_of(text: str, cls: type[GdlError] = GdlError) -> GdlError:
    """The error loading `text` as bad.gdl raises; it must be a `cls`."""
    with pytest.raises(GdlError) as info:
        load_source(text, "bad.gdl")
    assert isinstance(info.value, cls), type(info.value).__name__
    return info.value


def message(text: str, cls: type[GdlError] = GdlError) -> str:
    """The whole text of the error loading `text` as bad.gdl raises."""
    return str(error_of(text, cls))


def rule_error(text: str) -> str:
    """The whole text of the checker's error (a GdlRuleError) on `text`."""
    return message(text, GdlRuleError)


def lines(*parts: str) -> str:
    return "\n".join(parts)


# ----- the gdl command -------------------------------------------------------------------------

def gdl(*args: str, stdin: str = "", cwd: str | Path | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the `gdl` command as a user does (a subprocess), from the checkout unless `cwd`
    says otherwise, with `stdin` as its standard input."""
    return subprocess.run([sys.executable, "-m", "gdl.cli.main", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=timeout)


def invoke(*args: str, stdin: str | bytes | None = None) -> Any:
    """Run the `gdl` command in this process (click's CliRunner); it may exit, never raise."""
    from click.testing import CliRunner

    from gdl.cli.main import main
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result



# ----- hidden information -----------------------------------------------------------------------

@functools.cache
def hiding_games() -> list[str]:
    """The shipped games that hide pieces or variables (a game whose only secret is a
    simultaneous choice, as Galaxy Grid's, is tested by its own reveal tests)."""
    return [path for path in sorted(glob.glob(os.path.join(GAMES, "*.gdl")))
            if load_game(path).rules.hides_pieces_or_variables]


KEEP = ("id", "owner", "cell", "alive", "zone")


def positions(game: Game, seed: int, count: int = 80) -> list[State]:
    """Up to `count` positions of one random game, a few decisions apart."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    found = []
    while not game.is_terminal(state) and len(found) < count and state.decisions < 600:
        game.apply(state, rng.choice(game.legal_actions(state)), check=False)
        if state.decisions % 4 == 0:
            found.append(state.clone())
    return found


def twin(game: Game, state: State, seat: int) -> State | None:
    """A copy of `state` differing only in what `seat` may not see, or None."""
    other = state.clone()
    changed = False
    hidden = [pid for pid, p in state.pieces.items()
              if p["alive"] and introspect.hidden_from(game, state, pid, seat)]
    for i, a in enumerate(hidden):
        for b in hidden[i + 1:]:
            pa, pb = other.pieces[a], other.pieces[b]
            same_place = (pa["owner"], pa["cell"], (pa.get("zone") or [None, None])[:2]) == (
                pb["owner"], pb["cell"], (pb.get("zone") or [None, None])[:2])
            if same_place and pa["kind"] != pb["kind"]:
                for key in set(pa) | set(pb):
                    if key not in KEEP:
                        pa[key], pb[key] = pb.get(key), pa.get(key)
                changed = True
                break
        if changed:
            break
    for pid in hidden:                  # a hidden piece's numbers are not seen either
        for key, value in other.pieces[pid].items():
            if key not in KEEP and isinstance(value, int) and not isinstance(value, bool):
                other.pieces[pid][key] = value + 1
                changed = True
    view = game.view(state, seat)
    for entry, values in zip(view["seats"], other.seat_vars):
        for name, shown in entry["vars"].items():
            if shown == HIDDEN and isinstance(values[name], int) and not isinstance(
                    values[name], bool):
                values[name] += 1
                changed = True
    for name, shown in view["globals"].items():
        if shown == HIDDEN and isinstance(other.globals[name], int):
            other.globals[name] += 1
            changed = True
    if not changed:             # (owners and places are kept: the indexes stay right)
        return None
    # the twin must hide the same pieces (what is hidden may depend on what was changed)
    for pid in hidden:
        if not introspect.hidden_from(game, other, pid, seat):
            return None
    return other


def twins(game: Game, limit: int | None = None) -> Iterator[tuple[int, State, State, int]]:
    """(seed, position, its twin for a seat, the seat), from random games of seeds 0 to 3;
    at most `limit` of them. Fails the test when there is none."""
    found = 0
    for seed in range(4):
        for state in positions(game, seed):
            for seat in range(len(game.seats)):
                other = twin(game, state, seat)
                if other is None:
                    continue
                yield seed, state, other, seat
                found += 1
                if found == limit:
                    return
    assert found > 0, "no position hid anything: the test tested nothing"


# ----- random play (the property tests of every game) --------------------------------------------

MAX_DECISIONS = 400


def play(game: Game, seed: int, choices: Iterable[int | None],
         check: Callable[[State | None, State], None] | None = None) -> State:
    """Random legal play: `choices` picks among the legal actions; `check` sees each state."""
    state = game.new_state(seed)
    picks = iter(choices)
    while not game.is_terminal(state) and state.decisions < MAX_DECISIONS:
        legal = game.legal_actions(state)
        assert legal, "a running game always offers a legal action"
        index = next(picks, None)
        action = legal[(index or 0) % len(legal)]
        before = state.clone() if check else None
        game.apply(state, action)
        if check:
            check(before, state)
    return state


SEEDS = st.integers(min_value=0, max_value=2**32)
CHOICES = st.lists(st.integers(min_value=0, max_value=10**6), max_size=MAX_DECISIONS)


# ----- the language server ------------------------------------------------------------------

def read_lsp_message(stream: Any) -> Any:
    """The next JSON-RPC message a language server wrote on `stream` (its Content-Length
    framed body, decoded), or None at the end of the stream."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))
