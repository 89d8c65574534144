"""benchmarks/classic_differential.py prints one row per classic game (shape only, never
speed), fails on unknown names, and the harness finds a disagreement when there is one; a
classic game missing from SUITE_GAMES is refused with what to add."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest

from gdl.interpreter import load_source

from .differential import CLASSIC, Pairing, games_in_suite, play
from .test_kuhn_poker import KUHN_POKER
from .test_tic_tac_toe import TIC_TAC_TOE

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "benchmarks" / "classic_differential.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_the_benchmark_prints_a_row_per_game() -> None:
    done = run("--games", "3", "--speed-games", "1", "--rounds", "1", "tic_tac_toe", "pig")
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split()[:5] == ["game", "lines", "games", "decisions", "disagree"]
    assert [row.split()[0] for row in rows] == ["tic_tac_toe", "pig"]
    assert all(row.split()[2] == "3" and row.split()[4] == "0" for row in rows)


def test_suite_plays_as_many_games_as_the_suite_does() -> None:
    done = run("--suite", "--speed-games", "0", "kuhn_poker")
    assert done.returncode == 0, done.stderr
    row = done.stdout.splitlines()[1].split()
    assert row[0] == "kuhn_poker" and int(row[2]) == games_in_suite(KUHN_POKER)


def test_an_unknown_game_is_refused() -> None:
    done = run("--games", "1", "tictactoe")
    assert done.returncode == 2
    assert "unknown game(s): tictactoe" in done.stderr


def test_a_wrong_rule_is_a_disagreement() -> None:
    # A tic-tac-toe whose board is full at eight marks ends a move early.
    text = (CLASSIC / "tic_tac_toe.gdl").read_text().replace("len(pieces()) == 9",
                                                             "len(pieces()) == 8")
    wrong = (load_source(text, "tic_tac_toe.gdl"), pyspiel.load_game("tic_tac_toe"))
    outcomes = [play(TIC_TAC_TOE, seed, wrong) for seed in range(40)]
    found = [o.disagreement for o in outcomes if o.disagreement is not None]
    assert found and "terminal gdl True, OpenSpiel False" in found[0]


def test_a_card_the_other_seat_can_see_is_a_disagreement() -> None:
    # A Kuhn poker whose cards every seat may see shows more than OpenSpiel's information
    # state holds.
    text = (CLASSIC / "kuhn_poker.gdl").read_text().replace(
        "var seat.card = 0 visible to viewer == owner", "var seat.card = 0")
    wrong = (load_source(text, "kuhn_poker.gdl"), pyspiel.load_game("kuhn_poker"))
    found = play(KUHN_POKER, 0, wrong).disagreement
    assert found is not None and "OpenSpiel's information state holds" in found
    assert "other's card ?" in found.splitlines()[0].split(" in gdl")[1]


def test_a_deal_openspiel_cannot_make_is_a_disagreement() -> None:
    # Both seats dealt the same card.
    text = (CLASSIC / "kuhn_poker.gdl").read_text().replace("two.card = nth(deck, 2)",
                                                            "two.card = nth(deck, 1)")
    wrong = (load_source(text, "kuhn_poker.gdl"), pyspiel.load_game("kuhn_poker"))
    found = play(KUHN_POKER, 0, wrong).disagreement
    assert found is not None and "gdl dealt what OpenSpiel cannot deal now" in found


def test_a_game_missing_from_the_suite_table_says_what_to_add() -> None:
    with pytest.raises(AssertionError) as info:
        games_in_suite(Pairing("new_game.gdl", "tic_tac_toe"))
    assert str(info.value).splitlines()[0] == (
        "new_game.gdl is not in SUITE_GAMES (tests/games/classic/differential.py): add "
        "'\"new_game.gdl\": N,' to it, N the random games its differential test plays (as many "
        "as keep the test to a few seconds)")
