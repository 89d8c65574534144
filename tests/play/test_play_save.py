"""`gdl play --save FILE`: the game so far kept in a transcript, before each human decision,
at the end, and on Ctrl-C, so a game a person played is never lost."""

import os
import signal
import subprocess
import sys
import time

import pytest

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


def test_save_does_not_write_over_a_file_that_is_no_transcript(tmp_path):
    """`save FILE` at a prompt (and --save) refuses an existing file that is not a gdl
    transcript, which it would lose; `save! FILE` overwrites it when the person means it, and
    a transcript (an earlier save) is written over without asking."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my own notes\n", encoding="utf-8")
    done = invoke("play", TTT, "--players", "human,random", "--seed", "1",
                  stdin=f"save {notes}\nquit\n")
    assert done.exit_code == 0, done.output
    assert f"not saved: {notes} exists and is not a gdl transcript" in done.output
    assert notes.read_text(encoding="utf-8") == "my own notes\n"
    over = invoke("play", TTT, "--players", "human,random", "--seed", "1", "--save", str(notes))
    assert over.exit_code != 0
    assert f"--save: {notes} exists and is not a gdl transcript" in over.output
    assert notes.read_text(encoding="utf-8") == "my own notes\n"
    forced = invoke("play", TTT, "--players", "human,random", "--seed", "1",
                    stdin=f"1\nsave! {notes}\nsave {notes}\nquit\n")
    assert forced.exit_code == 0, forced.output
    assert forced.output.count(f"saved 2 decisions to {notes}") == 2
    assert _last(notes) == "unfinished: saved after 2 decisions"


def test_serve_does_not_save_over_a_file_that_is_no_transcript(tmp_path):
    """`gdl serve --save FILE` writes FILE (and FILE-2... for more games) after every
    decision: an existing file there that is not a transcript is refused before the server
    starts, as `gdl play --save` refuses it."""
    pytest.importorskip("starlette")
    notes = tmp_path / "notes.txt"
    (tmp_path / "notes-2.txt").write_text("mine too\n", encoding="utf-8")
    done = invoke("serve", TTT, "--save", str(notes), "--games", "2", "--port", "1")
    assert done.exit_code != 0
    assert f"{tmp_path / 'notes-2.txt'} exists and is not a gdl transcript" in done.output
    assert (tmp_path / "notes-2.txt").read_text(encoding="utf-8") == "mine too\n"


def test_a_game_the_lobby_starts_does_not_save_over_a_file_of_the_person_s(tmp_path):
    """Game N the lobby starts later is saved to FILE-N: a file there that is not a
    transcript, or the rule file, is refused as the command line refuses those of the
    games it starts (the new game is not started, and the lobby says why); the file is
    kept."""
    pytest.importorskip("starlette")
    import shutil
    from starlette.testclient import TestClient
    from gdl.cli.inputs import save_refused
    from gdl.interpreter.play.serve.app import make_server
    rules = tmp_path / "g-3.gdl"            # game 3 of --save g.gdl would be saved here
    shutil.copy(TTT, rules)
    (tmp_path / "g-2.gdl").write_text("mine\n", encoding="utf-8")
    server = make_server(str(rules), None, 0, 0, lambda line: None,
                         save=str(tmp_path / "g.gdl"),
                         refused=lambda path: save_refused(path, ("rule file", str(rules))))
    with TestClient(server.app()) as client:
        refused = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert refused.status_code == 400
        assert refused.json()["error"] == (
            f"no game 2: it would be saved to {tmp_path / 'g-2.gdl'}, but "
            f"{tmp_path / 'g-2.gdl'} exists and is not a gdl transcript (move that file away, "
            "or start the server again with another --save)")
        os.rename(tmp_path / "g-2.gdl", tmp_path / "kept.txt")
        assert client.post(f"/lobby/{server.lobby_token}/games", json={}).status_code == 200
        third = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert third.json()["error"] == (
            f"no game 3: it would be saved to {rules}, but that would overwrite the rule "
            f"file {rules} (move that file away, or start the server again with another "
            "--save)")
    assert len(server.tables) == 2
    assert (tmp_path / "kept.txt").read_text(encoding="utf-8") == "mine\n"
    assert rules.read_bytes() == open(TTT, "rb").read()


def test_a_saved_game_naming_the_largest_mcts_replays_and_resumes_at_once(tmp_path):
    """A transcript's players line may name mcts with the most iterations an agent takes:
    replaying it and resuming it apply the saved decisions without asking any agent, so
    neither waits on the search (the seat searches only for the decisions still to come)."""
    kept = tmp_path / "game.txt"
    invoke("play", TTT, "--players", "human,random", "--seed", "1", "--save", str(kept),
           stdin="1\nquit\n")
    text = kept.read_text(encoding="utf-8")
    kept.write_text(text.replace("players: human, random",
                                 "players: human, mcts:iterations=1000000000"), encoding="utf-8")
    started = time.monotonic()
    assert gdl("replay", str(kept), timeout=60).returncode == 0
    again = invoke("play", "--resume", str(kept), stdin="quit\n")
    assert again.exit_code == 0, again.output
    assert "resumed after 2 decisions" in again.output
    assert time.monotonic() - started < 30


def test_record_does_not_write_over_a_file_that_is_no_transcript(tmp_path):
    """`gdl record -o FILE` writes a transcript as a save does: an existing file that is not
    one is refused before the game is played; an earlier transcript is written over."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my own notes\n", encoding="utf-8")
    done = invoke("record", TTT, "-o", str(notes))
    assert done.exit_code != 0
    assert f"{notes} exists and is not a gdl transcript" in done.output
    assert notes.read_text(encoding="utf-8") == "my own notes\n"
    kept = tmp_path / "game.txt"
    for seed in ("1", "2"):
        again = invoke("record", TTT, "--seed", seed, "-o", str(kept))
        assert again.exit_code == 0, again.output
        assert f"seed: {seed}" in kept.read_text(encoding="utf-8")


def test_a_game_the_lobby_starts_is_saved_at_once_and_a_name_not_utf8_is_told(tmp_path):
    """Game N the lobby starts is written to FILE-N when it starts (a file put there before
    its first decision would have been written over unchecked), and a refusal naming a
    --save path that is not UTF-8 is the lobby's 400 with the path shown (it was a 500 and
    a traceback in the server's log: the reply is UTF-8)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from gdl.cli.inputs import save_refused
    from gdl.interpreter.play.serve.app import make_server
    folder = os.fsencode(str(tmp_path))
    save = os.fsdecode(folder + b"/g\xff.txt")
    with open(folder + b"/g\xff-3.txt", "w", encoding="utf-8") as mine:
        mine.write("mine\n")
    server = make_server(TTT, None, 0, 0, lambda line: None, save=save,
                         refused=lambda path: save_refused(path, ("rule file", TTT)))
    assert os.path.exists(save)
    with TestClient(server.app()) as client:
        second = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert second.status_code == 200
        assert open(folder + b"/g\xff-2.txt", "rb").read().startswith(b"# gdl transcript")
        third = client.post(f"/lobby/{server.lobby_token}/games", json={})
        assert third.status_code == 400
        assert "g\ufffd-3.txt exists and is not a gdl transcript" in third.json()["error"]
    assert open(folder + b"/g\xff-3.txt", "rb").read() == b"mine\n"
