"""Golden transcripts: every file under tests/golden/ must replay exactly. After a deliberate
rule change, regenerate them with `python scripts/regenerate_golden.py` and review the diff."""

import glob
import os
import shutil

import pytest

from gdl.interpreter.play.transcript import Divergence, replay

GOLDEN = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "golden", "*.txt")))
SPACE_WAR_1 = os.path.join(os.path.dirname(__file__), "golden", "space_war_seed1.txt")


def test_there_are_golden_transcripts():
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=os.path.basename)
def test_golden_replays(path):
    assert replay(path) > 0


def _copy_with_rules(tmp_path, golden):
    """Copy a transcript and its rule file side by side so both can be edited."""
    rules = os.path.join(os.path.dirname(__file__), "..", "games", "space_war.gdl")
    shutil.copy(rules, tmp_path / "space_war.gdl")
    text = open(golden).read().replace("rules: ../../games/space_war.gdl", "rules: space_war.gdl")
    (tmp_path / "game.txt").write_text(text)
    return tmp_path / "game.txt", tmp_path / "space_war.gdl"


def test_an_edited_decision_is_named(tmp_path):
    transcript, _ = _copy_with_rules(tmp_path, SPACE_WAR_1)
    lines = transcript.read_text().split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("5 "))
    step, seat, count, _ = lines[index].split(" ", 3)
    lines[index] = f"{step} {seat} {count} warp a9"
    transcript.write_text("\n".join(lines))
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    assert "replay differs at step 5" in info.value.message
    assert f"recorded: 5 {seat} {count} warp a9" in info.value.message
    assert "there is no action 'warp' in phase 'play'" in info.value.message


@pytest.mark.parametrize("kept", ["header", "some"])
def test_a_transcript_cut_short_is_called_so(tmp_path, kept):
    transcript, _ = _copy_with_rules(tmp_path, SPACE_WAR_1)
    lines = transcript.read_text().split("\n")
    body = lines.index("---") + 1
    last = body if kept == "header" else next(
        i for i, line in enumerate(lines) if line.startswith("5 "))
    transcript.write_text("\n".join(lines[:last]) + "\n")
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    where = "after its header (0 decisions)" if kept == "header" else \
        f"after line {last} (4 decisions)"
    assert info.value.message == (
        f"{transcript}: the transcript was cut short: it ends {where} without the line "
        "that says how the game ended (result:, capped: or unfinished:)")


def test_an_edited_rule_file_is_named(tmp_path):
    transcript, rules = _copy_with_rules(tmp_path, SPACE_WAR_1)
    rules.write_text(rules.read_text().replace("param laser_range = 4", "param laser_range = 2"))
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    assert "replay differs at step" in info.value.message


def test_a_comment_edit_still_fails_on_the_hash(tmp_path):
    transcript, rules = _copy_with_rules(tmp_path, SPACE_WAR_1)
    rules.write_text(rules.read_text() + "\n# a harmless comment\n")
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    assert "the rule file changed since recording" in info.value.message
