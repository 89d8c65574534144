"""`gdl play --save FILE`: the game so far kept in a transcript, before each human decision,
at the end, and on Ctrl-C, so a game a person played is never lost."""

import os
import signal
import subprocess
import sys
import time

from tests.helpers import ROOT, gdl, invoke

TTT = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")


def _last(path):
    with open(path, encoding="utf-8") as stream:
        return stream.read().splitlines()[-1]


def test_quitting_leaves_the_game_so_far_which_resumes(tmp_path):
    kept = tmp_path / "game.txt"
    done = invoke("play", TTT, "--players", "human,random", "--seed", "1", "--save", str(kept),
                  stdin="1\nquit\n")
    assert done.exit_code == 0, done.output
    assert _last(kept) == "unfinished: saved after 2 decisions"
    assert f"saved 2 decisions to {kept}" in done.output
    # resumed and kept in the same file: the two decisions, then one more of each seat
    again = invoke("play", "--resume", str(kept), "--save", str(kept), stdin="1\nquit\n")
    assert again.exit_code == 0, again.output
    assert _last(kept) == "unfinished: saved after 4 decisions"
    assert gdl("replay", str(kept)).returncode == 0


def test_a_finished_game_is_kept_whole(tmp_path):
    kept = tmp_path / "game.txt"
    done = invoke("play", TTT, "--players", "random,random", "--save", str(kept))
    assert done.exit_code == 0, done.output
    assert _last(kept).startswith("result: ")
    assert f"the game is in {kept} (gdl replay {kept})" in done.output


def test_a_file_that_cannot_be_written_is_refused_before_play(tmp_path):
    missing = tmp_path / "no" / "game.txt"
    done = invoke("play", TTT, "--save", str(missing))
    assert done.exit_code != 0
    assert done.output.splitlines()[-1] == (
        f"error: --save: cannot write {missing}: No such file or directory")
    over = invoke("play", TTT, "--save", TTT)
    assert over.exit_code != 0
    assert f"--save: that would overwrite the rule file {TTT}" in over.output
    assert "--save: save writes a file" in invoke("play", TTT, "--save", "-").output


def test_ctrl_c_at_a_prompt_leaves_the_game_so_far(tmp_path):
    """A person's decision, then Ctrl-C while gdl waits for the next one: exit 130, and the
    file holds both seats' decisions."""
    kept = tmp_path / "game.txt"
    process = subprocess.Popen(
        [sys.executable, "-m", "gdl.cli.main", "play", TTT, "--players", "human,random",
         "--seed", "1", "--save", str(kept)], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdin is not None
    process.stdin.write("1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:      # written before the human's second decision
        if kept.exists() and _last(kept) == "unfinished: saved after 2 decisions":
            break
        time.sleep(0.05)
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert _last(kept) == "unfinished: saved after 2 decisions"
    assert f"saved 2 decisions to {kept}" in out
