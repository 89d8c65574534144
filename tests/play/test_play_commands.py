"""`gdl play` at the prompt: narrowing by piece, cell or word, undo, save and --resume (a
concession included), --moves with a transcript or a concession, a lone 'human' against
random seats (plain, piped output)."""

import os

import pytest

from gdl.cli.playthrough import unmatched
from gdl.interpreter.loader import load_source
from gdl.interpreter.play.agents.agents import matching

from tests.helpers import gdl


FOG = """game "Fog"
seats blue, red
board square(4, 3)
var piece.hp = 2
kinds (symbol) {
  Scout = "S"
  Tank = "T"
}
show piece(p) = p.symbol
hide piece(p) when p.owner != viewer and p != last(pieces_at(p.cell))
setup {
  create Tank for red at @c2
  create Scout for red at @c2
  create Tank for blue at @b2
  goto play for blue
}
phase play turn {
  action hurt(p in pieces()) { p.hp -= 1 }
  action go(p in pieces(me), c in cells()) where c != p.cell { place p at c }
  action pass() { goto play for next(me) }
}
"""


def named(game, state, typed):
    legal = game.legal_actions(state)
    return [game.action_text(state, legal[i], 0) for i in matching(game, state, legal, typed, 0)]


def test_a_cell_names_the_pieces_standing_there_as_the_seat_sees_them():
    game = load_source(FOG, "fog.gdl")
    state = game.new_state(0)
    # c2 holds red's Scout (seen) over red's Tank (hidden from blue): only the Scout answers
    assert named(game, state, "hurt c2") == ["hurt red:Scout#2"]
    assert named(game, state, "b2 a1") == ["go blue:Tank#1 a1"]
    assert named(game, state, "Tank#1 a1") == ["go blue:Tank#1 a1"]
    # red's hidden Tank is labelled red:Tank#1: typing its label finds only blue's own Tank
    assert all("blue:Tank#1" in text for text in named(game, state, "Tank#1"))
    assert named(game, state, "red:Tank#1") == []
    assert named(game, state, "a1 b2") == []          # order matters: the piece comes first


def test_narrowing_words_that_match_nothing_are_refused_as_the_seat_sees_the_board():
    """The refusal names the pieces on a cell the seat sees (red's Tank under the Scout on
    c2 is hidden from blue) and leaves a first word that is no piece or cell to the engine."""
    game = load_source(FOG, "fog.gdl")
    state = game.new_state(0)
    legal = game.legal_actions(state)
    assert [unmatched(game, state, legal, typed, 0) for typed in
            ["c2 c2", "a1 b2 c1", "Scout#2 a1", "hurt c9"]] == [
        "no legal action names both c2 (where red:Scout#2 stands) and c2",
        "no legal action names all of a1, b2 and c1",
        "no legal action names both Scout#2 and a1",
        None]


def test_a_seat_acting_on_a_piece_hidden_from_it_reads_it_as_hidden(tmp_path):
    """Blue's `hurt ?` (red's Tank under red's Scout) is echoed as blue may read it: the
    plain output never names the Tank once blue has chosen it."""
    rules = tmp_path / "fog.gdl"
    rules.write_text(FOG, encoding="utf-8")
    result = gdl("play", str(rules), "--players", "human,random", "--seed", "1",
                 stdin="hurt ?\nquit\n")
    assert result.returncode == 0, result.stderr
    after = result.stdout.split("blue> ", 1)[1]
    assert after.startswith("blue: hurt ?\n")
    assert "red:Tank#1" not in after


def test_a_piece_then_a_cell_plays_and_a_piece_alone_lists():
    result = gdl("play", "games/space_war.gdl", "--players", "human", "--seed", "3",
                 stdin="station c2\nFighter#5\ne1 e3\nquit\n")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert " 74. move Fighter#5 e2" in out and "blue: move Fighter#5 e3" in out
    assert "blue (human), red (random)" in out.splitlines()[0]


def test_words_that_name_no_legal_action_say_which():
    """A piece or a cell first narrows the list: when nothing matches, the refusal names the
    word that names no legal action, or says that none names them all, as the seat sees
    the pieces (not that the cell is no action's name)."""
    result = gdl("play", "games/space_war.gdl", "--players", "human", "--seed", "3",
                 stdin="station c2\ne1 e0\nb2 b7\ne1 e3\ne3 e5\nquit\n")
    assert result.returncode == 0, result.stderr
    refusals = [line.split("blue> ")[-1] for line in result.stdout.splitlines()
                if "not accepted" in line]
    assert refusals == [
        "not accepted: 'e0' is not a cell, a piece or a word of a legal action",
        "not accepted: no legal action names b7 or a piece on it",
        # Fighter#5 has moved this turn: e3 names only other fighters' moves there
        "not accepted: no legal action names both e3 (where Fighter#5 stands) and e5"]


def test_a_prompt_word_given_an_argument_and_a_long_line_are_told_briefly():
    """'concede x' said "there is no action 'concede'" (concede takes no argument), and a
    line of 100,000 characters was quoted whole, twice, in its refusal."""
    long = "a" * 100_000
    result = gdl("play", "games/classic/tic_tac_toe.gdl", "--players", "human,random",
                 "--seed", "1", stdin=f"concede x\nundo 2\n{long}\nquit\n")
    assert result.returncode == 0, result.stderr
    told = [line.split("x> ")[-1] for line in result.stdout.splitlines()
            if line.startswith("x> ") and not line.endswith("bye")]
    assert told[:2] == ["concede takes no argument: type concede alone",
                        "undo takes no argument: type undo alone"]
    assert len(told) == 3 and len(told[2]) < 300, told[2][:300]
    assert told[2].startswith("not accepted: '" + "a" * 40 + "...' is not legal")


def test_undo_save_replay_and_resume(tmp_path):
    saved = tmp_path / "game.txt"
    result = gdl("play", "games/space_war.gdl", "--players", "human", "--seed", "3",
                 stdin=f"undo\nstation c2\ne1 e3\nundo\ne1 e2\nsave {saved}\nquit\n")
    out = result.stdout
    assert "nothing to undo: no decision of yours yet" in out
    assert "(undone: back to blue's decision, turn 1)" in out
    assert f"saved 4 decisions to {saved}" in out
    assert gdl("replay", str(saved)).returncode == 0
    decisions = [line for line in saved.read_text().splitlines() if line[:1].isdigit()]
    assert decisions[-1] == "4 blue (132) move Fighter#5 e2"
    resumed = gdl("play", "--resume", str(saved), stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 4 decisions" in resumed.stdout
    assert "blue: Station#1 c2, Fighter#1 a1, #2 b1, #3 c1, #4 d1, #5 e2" in resumed.stdout


def test_a_corrupt_or_finished_transcript_is_not_resumed(tmp_path):
    saved = tmp_path / "game.txt"
    gdl("play", "games/space_war.gdl", "--players", "human", "--seed", "3",
        stdin=f"station c2\nsave {saved}\nquit\n")
    text = saved.read_text()
    saved.write_text(text.replace("2 blue (8) station c2", "2 blue (8) station d2"))
    result = gdl("play", "--resume", str(saved))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "replay differs at step" in result.stderr
    finished = tmp_path / "done.txt"
    gdl("record", "games/space_war.gdl", "--seed", "2", "-o", str(finished))
    result = gdl("play", "--resume", str(finished))
    assert result.returncode == 1 and "the game is over" in result.stderr


def test_moves_may_be_a_transcript(tmp_path):
    recorded = tmp_path / "game.txt"
    gdl("record", "games/space_war.gdl", "--seed", "2", "-o", str(recorded))
    result = gdl("play", "games/space_war.gdl", "--moves", str(recorded))
    assert result.returncode == 0, result.stderr
    last = recorded.read_text().splitlines()[-1]
    assert result.stdout.rstrip().endswith(f"game over: {last.split(': ', 1)[1]}")


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="no /dev/stdin")
def test_moves_may_come_through_a_pipe():
    """A pipe can be read once: its moves (or transcript) are read in one go."""
    result = gdl("play", "games/classic/tic_tac_toe.gdl", "--moves", "/dev/stdin",
                 "--players", "random", stdin="mark a1\nmark b1\n")
    assert result.returncode == 0, result.stderr
    assert "x: mark a1 (scripted)" in result.stdout
    assert "o: mark b1 (scripted)" in result.stdout


def test_a_game_with_a_concession_is_saved_replayed_and_resumed(tmp_path):
    """Red concedes while yellow still plays: the game goes on, and either save (right
    after the concession, or later) holds it, so replay and --resume put red out there."""
    first, later = tmp_path / "first.txt", tmp_path / "later.txt"
    result = gdl("play", "games/game.gdl", "--players", "human,human", "--seed", "1",
                 stdin=f"concede\nsave {first}\ndone\nsave {later}\nquit\n")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "red concedes\n  out: red\n" in out
    assert f"saved 0 decisions and 1 concession to {first}" in out
    assert "not saved" not in out
    for saved in (first, later):
        assert gdl("replay", str(saved)).returncode == 0
        body = saved.read_text().split("---\n", 1)[1].splitlines()
        assert body[body.index("concede: red") + 1] == "  out: red"
    assert first.read_text().splitlines()[-1] == "unfinished: saved after 0 decisions"
    decisions = [line for line in later.read_text().splitlines() if line[:1].isdigit()]
    assert decisions[0] == "1 yellow (6) done"
    assert f"saved {len(decisions)} decisions and 1 concession to {later}" in out
    resumed = gdl("play", "--resume", str(first), stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 0 decisions" in resumed.stdout
    assert "red (out)" in resumed.stdout and "yellow> " in resumed.stdout


def test_a_transcript_whose_concession_was_changed_does_not_replay(tmp_path):
    saved = tmp_path / "game.txt"
    gdl("play", "games/game.gdl", "--players", "human,human", "--seed", "1",
        stdin=f"concede\ndone\nsave {saved}\nquit\n")
    saved.write_text(saved.read_text().replace("concede: red", "concede: green"))
    result = gdl("replay", str(saved))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (f"{saved}:11: replay differs at step 0\n  recorded:   out: red\n"
            "  replayed:   out: green") in result.stderr


def test_moves_may_concede(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("done\nconcede: yellow\ndone\n")
    result = gdl("play", "games/game.gdl", "--seed", "1", "--moves", str(moves),
                 "--max-decisions", "3")
    assert result.returncode == 0, result.stderr
    assert "yellow concedes (scripted)\n  out: yellow\n" in result.stdout
    assert "green: done (scripted)" in result.stdout
    moves.write_text("concede: nobody\n")
    result = gdl("play", "games/game.gdl", "--seed", "1", "--moves", str(moves))
    assert result.returncode == 1
    assert f"{moves}:1: 'nobody' is not a seat; seats: red, yellow, green, blue" in result.stderr


def test_moves_left_when_the_game_is_over_are_refused(tmp_path):
    """A line the game never reached is an error, as `gdl show` and `explain` say it, not
    skipped: after a win and after a concession."""
    moves = tmp_path / "moves.txt"
    won = "mark a1\nmark b1\nmark a2\nmark b2\nmark a3\n"
    for text, line in ((won + "mark c3\n", 6), ("mark a1\nconcede: o\nmark b1\n", 3)):
        moves.write_text(text)
        for command in ("play", "show"):
            result = gdl(command, "games/classic/tic_tac_toe.gdl", "--moves", str(moves))
            assert result.returncode == 1, (command, result.stdout)
            assert (f"{moves}:{line}: the game is over (x won); no decision is left to play"
                    in result.stderr), command
    moves.write_text(won)
    result = gdl("play", "games/classic/tic_tac_toe.gdl", "--moves", str(moves))
    assert result.returncode == 0 and "game over: x won" in result.stdout
