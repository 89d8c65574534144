"""Transcripts (`gdl record`, `gdl replay`): names that differ only in case replay, a bad step
number is refused, a missing folder is an error."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlDataError
from gdl.interpreter.play.agents.agents import make_agents
from gdl.interpreter.play.transcript import record, replay

from tests.helpers import SPACE_WAR, gdl


def test_case_distinct_names_replay(tmp_path):
    rules = tmp_path / "case.gdl"
    rules.write_text('seats a, A\nboard square(1, 1)\nvar n = 0\nsetup { goto p for a }\n'
                     'phase p turn { action give(s in seats) { n += 1  goto p for s } }\n'
                     'end { win when n >= 6 }\n')
    out = tmp_path / "case.txt"
    game = load_game(str(rules))
    for seed in range(4):
        record(game, str(rules), seed, make_agents("random", 2, seed), ["random"] * 2,
               str(out))
        assert replay(str(out)) == 6


def test_transcript_with_a_bad_step_number_is_refused(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# gdl transcript\ngame: x\nrules: x.gdl\nrules-sha256: 0\nseed: 1\n"
                    "players: random\n---\n3x a (2) go 2\n")
    with pytest.raises(GdlDataError) as info:
        replay(str(path))
    assert "malformed decision line" in info.value.message


def test_record_into_a_missing_folder_is_an_error():
    result = gdl("record", str(SPACE_WAR), "-o", "/nonexistent/dir/t.txt")
    assert result.returncode == 1
    assert "cannot write /nonexistent/dir/t.txt" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("seed", [2, 3])
def test_a_transcript_naming_a_piece_out_of_the_deciders_sight_replays(tmp_path, seed):
    """tests/rules/sight.gdl's `lift` names a mine its lifter cannot see: the transcript
    holds the full text (`lift red:Mine#2`), which the seat itself could not have typed.
    `gdl replay`, the replay page and explain read a transcript's texts in full."""
    rules = "tests/rules/sight.gdl"
    out = tmp_path / "sight.txt"
    game = load_game(rules)
    record(game, rules, seed, make_agents("random", len(game.seats), seed),
           ["random"] * len(game.seats), str(out))
    assert "lift red:Mine#" in out.read_text()
    assert replay(str(out)) > 0
    page = gdl("replay", str(out), "--html", str(tmp_path / "sight.html"))
    assert page.returncode == 0, page.stderr
    explained = gdl("explain", str(out), "--step", "2", "--legal")
    assert explained.returncode == 0, explained.stderr
