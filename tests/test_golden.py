"""Golden transcripts: every file under tests/golden/ must replay exactly. After a deliberate
rule change, regenerate them with `python scripts/regenerate_golden.py` and review the diff."""

import glob
import os
import shutil

import pytest

from gdl.interpreter.play.transcript import Divergence, replay

from tests.helpers import invoke

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
    assert info.value.message.startswith(f"{transcript}:{index + 1}: 'warp a9' is not legal: "
                                         "there is no action 'warp' in phase 'play'")
    assert "\n" not in info.value.message      # the first line that differs: no more to say


def _without_decision(transcript, step):
    """Remove the decision line of `step`; its number."""
    lines = transcript.read_text().split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith(f"{step} "))
    transcript.write_text("\n".join(lines[:index] + lines[index + 1:]))
    return index + 1


def test_a_removed_decision_names_the_line_that_no_longer_applies(tmp_path):
    """A decision line removed: the replay said only where it first differed ('t:13:
    replay differs at step 6', the step after the one removed), not which decision of the
    transcript no longer applies. Now it says that line and why, as gdl play --moves does,
    then where the replay first differed."""
    transcript, _ = _copy_with_rules(tmp_path, SPACE_WAR_1)
    assert _without_decision(transcript, 5) == 13
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    assert info.value.message == (
        f"{transcript}:36: 'move Fighter#5 e8' is not legal: Fighter#5 is not a possible 'p' "
        "now (not in pieces(me))\n"
        "  the replay first differs at line 13 (step 6):\n"
        "  recorded: 6 blue (104) move Fighter#6 b8\n"
        "  replayed: 5 blue (122) move Fighter#6 b8")
    moves = invoke("play", str(tmp_path / "space_war.gdl"), "--moves", str(transcript))
    assert moves.exit_code == 1     # (--moves replays a transcript first: the same message)
    assert moves.stderr == f"error: {info.value.message}\n"


def test_a_removed_decision_that_leaves_one_after_the_end_names_it(tmp_path):
    """A decision line removed, and every later one still legal: the game ends before the
    last, which is named, as gdl play --moves names it."""
    transcript = tmp_path / "game.txt"
    assert invoke("record", "games/classic/tic_tac_toe.gdl", "--seed", "1", "-o",
                  str(transcript)).exit_code == 0
    removed = _without_decision(transcript, 2)
    result = invoke("replay", str(transcript))
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: {transcript}:20: the game is over (x won); no decision is left to play\n"
        f"  the replay first differs at line {removed} (step 1):\n")


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
    assert "the replay first differs at line 30 (step 20):\n" in info.value.message


def test_a_comment_edit_still_fails_on_the_hash(tmp_path):
    transcript, rules = _copy_with_rules(tmp_path, SPACE_WAR_1)
    rules.write_text(rules.read_text() + "\n# a harmless comment\n")
    with pytest.raises(Divergence) as info:
        replay(str(transcript))
    assert "the rule file changed since recording" in info.value.message
