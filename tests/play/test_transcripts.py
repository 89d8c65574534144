"""Transcripts (`gdl record`, `gdl replay`): names that differ only in case replay, a bad step
number is refused, a missing folder is an error; a game saved unfinished ends `unfinished:`
and is read back as a game that goes on (saves of older versions, ending `capped:`, too); a
`rules:` line that names no rule file is told at its line; a transcript of another game
given as `--moves` says so."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlDataError
from gdl.interpreter.play.agents.agents import make_agents
from gdl.interpreter.play.transcript import event_text, read_transcript, record, replay
from gdl.interpreter.runtime import events

from tests.helpers import GAMES, RULES, SPACE_WAR, gdl, invoke


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


def _saved_nim(tmp_path, typed):
    """A game of tests/rules/nim.gdl saved at the `gdl play` prompt after the decisions
    `typed` (one a line) make."""
    saved = tmp_path / "saved.txt"
    result = gdl("play", str(RULES / "nim.gdl"), "--players", "human,random", "--seed", "1",
                 stdin=typed + f"save {saved}\nquit\n")
    assert result.returncode == 0, result.stderr
    return saved


def test_a_game_saved_at_the_prompt_ends_unfinished(tmp_path):
    saved = _saved_nim(tmp_path, "1\n")
    text = saved.read_text()
    assert text.splitlines()[-1] == "unfinished: saved after 2 decisions"
    assert "capped" not in text and "max-decisions" not in text
    assert read_transcript(str(saved)).ending == "unfinished"
    assert _saved_nim(tmp_path, "").read_text().splitlines()[-1] == (
        "unfinished: saved after 0 decisions")


def test_an_unfinished_transcript_replays_resumes_and_is_a_moves_file(tmp_path):
    saved = _saved_nim(tmp_path, "1\n")
    replayed = gdl("replay", str(saved))
    assert (replayed.returncode, replayed.stdout) == (
        0, f"{saved}: ok: the game is unfinished after 2 decisions, replayed identically "
        "('gdl play --resume' goes on from there)\n")
    resumed = gdl("play", "--resume", str(saved), stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 2 decisions" in resumed.stdout and "pile=9" in resumed.stdout
    moved = gdl("play", str(RULES / "nim.gdl"), "--moves", str(saved))
    assert moved.returncode == 0, moved.stderr
    assert "blue: take 1 (scripted)" in moved.stdout and "game over: " in moved.stdout


def test_a_save_of_an_older_version_ending_capped_still_replays_and_resumes(tmp_path):
    """Before `unfinished:`, a save was written as a game capped after its decisions."""
    text = _saved_nim(tmp_path, "1\n").read_text()
    old = tmp_path / "old.txt"
    old.write_text(text.replace("---\n", "max-decisions: 2\n---\n").replace(
        "unfinished: saved after 2 decisions", "capped: decision 2 reached the cap of 2"))
    assert read_transcript(str(old)).ending == "capped"
    assert replay(str(old)) == 2
    resumed = gdl("play", "--resume", str(old), stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 2 decisions" in resumed.stdout


def test_an_unfinished_ending_that_does_not_replay_is_a_divergence(tmp_path):
    saved = _saved_nim(tmp_path, "1\n")
    saved.write_text(saved.read_text().replace("after 2 decisions", "after 3 decisions"))
    result = gdl("replay", str(saved))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "recorded: unfinished: saved after 3 decisions\n" \
           "  replayed: unfinished: saved after 2 decisions" in result.stderr


def test_the_ending_of_a_transcript(tmp_path):
    path = tmp_path / "t.txt"
    head = "# gdl transcript\ngame: x\nrules: x.gdl\nrules-sha256: 0\nseed: 1\nplayers: a\n---\n"
    for last, ending in (("result: red won", "result"), ("capped: turn 6 passed the cap of 5",
                         "capped"), ("unfinished: saved after 1 decision", "unfinished"),
                         ("1 a (2) go", None), ("", None)):
        path.write_text(head + last + "\n")
        assert read_transcript(str(path)).ending == ending


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


def test_one_decision_reads_in_the_singular(tmp_path):
    """'1 decision', never '1 decisions': a replay, a save, a resume, a changed rule file."""
    rules = tmp_path / "nim.gdl"
    rules.write_text((RULES / "nim.gdl").read_text())
    out = tmp_path / "one.txt"
    assert gdl("record", str(rules), "--max-decisions", "1", "-o", str(out)).returncode == 0
    assert gdl("replay", str(out)).stdout == f"{out}: ok: 1 decision replays identically\n"
    rules.write_text(rules.read_text() + "# changed\n")
    changed = gdl("replay", str(out))
    assert changed.returncode == 1
    assert changed.stderr.rstrip("\n").endswith(", although 1 decision replays identically")
    saved = tmp_path / "saved.txt"
    played = gdl("play", str(rules), "--players", "random,human", "--seed", "1",
                 stdin=f"save {saved}\nquit\n")
    assert f"saved 1 decision to {saved} " in played.stdout
    assert saved.read_text().splitlines()[-1] == "unfinished: saved after 1 decision"
    assert gdl("replay", str(saved)).stdout.startswith(
        f"{saved}: ok: the game is unfinished after 1 decision, replayed identically")
    assert "resumed after 1 decision\n" in gdl("play", "--resume", str(saved),
                                               stdin="quit\n").stdout


@pytest.mark.parametrize("event, line", [
    (events.Shuffle(1), "shuffle 1 item"), (events.Shuffle(0), "shuffle 0 items"),
    (events.Shuffle(24, fixed=True), "shuffle 24 items (fixed)")])
def test_a_shuffle_counts_its_items_in_the_singular_or_plural(event, line):
    """'shuffle 1 item' (it said '1 items')."""
    assert event_text(None, event) == line


class _Interrupting:
    """A random agent on whose decision `at` (counted over every seat) Ctrl-C is pressed."""

    def __init__(self, agent, counter, at):
        self.agent, self.name, self.counter, self.at = agent, agent.name, counter, at

    def choose(self, game, state, legal):
        self.counter.append(1)
        if len(self.counter) == self.at:
            raise KeyboardInterrupt
        return self.agent.choose(game, state, legal)


def test_ctrl_c_during_record_writes_the_game_so_far_unfinished(tmp_path, monkeypatch):
    """Ctrl-C on decision 31 of a game that hides something: the 30 decisions before it
    are written as `gdl play`'s save writes them, which is the transcript of the whole game
    up to them, and `gdl play` goes on from there (--resume, or --moves)."""
    from gdl.interpreter.play.agents import agents
    path = str(GAMES / "galaxy_of_d.gdl")
    whole, cut = tmp_path / "whole.txt", tmp_path / "cut.txt"
    assert invoke("record", path, "--seed", "3", "-o", str(whole)).exit_code == 0
    counter: list[int] = []
    made = agents.make_agents
    monkeypatch.setattr(agents, "make_agents", lambda *args: [
        _Interrupting(agent, counter, 31) for agent in made(*args)])
    result = invoke("record", path, "--seed", "3", "-o", str(cut))
    assert result.exit_code == 130
    assert result.stderr == ("\ninterrupted after 30 decisions: wrote "
                             f"{cut}, the game so far (gdl play --resume {cut} goes on)\n")
    lines = cut.read_text().splitlines()
    assert lines[-1] == "unfinished: saved after 30 decisions"
    assert lines[:-1] == whole.read_text().splitlines()[:len(lines) - 1]
    monkeypatch.undo()
    assert replay(str(cut)) == 30
    resumed = gdl("play", "--resume", str(cut), "--max-decisions", "32")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 30 decisions" in resumed.stdout
    moved = gdl("play", path, "--moves", str(cut), "--max-decisions", "32")
    assert moved.returncode == 0, moved.stderr
    assert "reached the cap of 32" in moved.stdout


def test_ctrl_c_during_record_to_the_standard_output_prints_the_game_so_far(monkeypatch):
    from gdl.interpreter.play.agents import agents
    made = agents.make_agents
    monkeypatch.setattr(agents, "make_agents", lambda *args: [
        _Interrupting(agent, [], 1) for agent in made(*args)])
    result = invoke("record", str(RULES / "nim.gdl"))
    assert result.exit_code == 130
    assert result.stdout.splitlines()[-1] == "unfinished: saved after 0 decisions"
    assert result.stderr == ("\ninterrupted after 0 decisions: wrote it to the standard "
                             "output, the game so far (gdl play --resume FILE goes on)\n")


def test_a_second_ctrl_c_while_the_game_so_far_is_written_writes_nothing(tmp_path,
                                                                       monkeypatch):
    from gdl.interpreter.play import transcript
    from gdl.interpreter.play.agents import agents
    made = agents.make_agents
    monkeypatch.setattr(agents, "make_agents", lambda *args: [
        _Interrupting(agent, [], 3) for agent in made(*args)])

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(transcript, "saved_lines", interrupted)
    result = invoke("record", str(RULES / "nim.gdl"), "-o", str(tmp_path / "t.txt"))
    assert (result.exit_code, result.stderr) == (130, "\ninterrupted\n")
    assert list(tmp_path.iterdir()) == []
def _recorded(tmp_path, rules=SPACE_WAR, seed=1):
    """A transcript of `rules` recorded in `tmp_path`: its path and its lines."""
    out = tmp_path / "t.txt"
    result = gdl("record", str(rules), "--seed", str(seed), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out, out.read_text().split("\n")


@pytest.mark.parametrize("args", [["replay", "T"], ["replay", "T", "--html", "T.html"],
                                  ["play", "--resume", "T"], ["explain", "T", "--step", "2",
                                                               "--legal"]])
@pytest.mark.parametrize("rules, message", [
    ("", "the 'rules:' line names no rule file: expected 'rules: FILE', the rule file the "
     "game was played in, relative to the transcript's folder"),
    ("   ", "the 'rules:' line names no rule file: expected 'rules: FILE', the rule file "
     "the game was played in, relative to the transcript's folder"),
    ("gone.gdl", "cannot read rule file {tmp}/gone.gdl: No such file or directory"),
    (".", "cannot read rule file {tmp}: Is a directory"),
])
def test_a_rules_line_naming_no_rule_file_is_told_at_its_line(tmp_path, args, rules, message):
    """(An empty one read the transcript's folder: 'cannot read .: Is a directory', and a
    file that was not there was told with no word of the transcript.)"""
    out, lines = _recorded(tmp_path)
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("rules: "))
    lines[number - 1] = f"rules: {rules}"
    out.write_text("\n".join(lines))
    result = gdl(*[str(out) if a == "T" else a for a in args])
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{out}:{number}:8: error: {message.format(tmp=tmp_path)}", f"    rules: {rules}",
        "           ^"]


def test_moves_of_a_transcript_whose_rules_line_is_empty_are_played(tmp_path):
    """`--moves` plays a transcript's decisions, never its rule file: the rule file given
    is the game."""
    out, lines = _recorded(tmp_path)
    out.write_text("\n".join("rules: " if line.startswith("rules: ") else line
                             for line in lines))
    result = gdl("play", SPACE_WAR, "--moves", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(f"game over: {lines[-2].split(': ', 1)[1]}\n")


WARNING = ("warning: {t} is a transcript of the game 'Space War' (rules: {rules}), not of "
           "'{other}': its decisions are played as they are")


def test_a_game_line_of_a_long_word_is_quoted_briefly(tmp_path):
    """A transcript whose 'game:' line (and 'rules:' line) is a word of 100,000 characters:
    replay, --resume and explain quoted it whole in 'the transcript is of the game', and
    --moves in its warning; now its first 40 characters and '...' (the rules path its first
    4,096, errors.QUOTED_PATH: a real path is quoted whole)."""
    out, lines = _recorded(tmp_path)
    long = "x" * 100_000
    edited = [f"game: {long}" if line.startswith("game: ") else line for line in lines]
    out.write_text("\n".join(edited))
    result = invoke("replay", str(out))
    assert result.exit_code == 1
    assert result.stderr == (f"error: {out}: the transcript is of the game '{'x' * 40}...', "
                             "its rule file's is 'Space War'\n")
    edited = [f"rules: {long}" if line.startswith("rules: ") else line for line in edited]
    out.write_text("\n".join(edited))
    result = invoke("show", str(GAMES / "galaxy_of_d.gdl"), "--moves", str(out))
    assert result.stderr.startswith(WARNING.format(t=out, rules=f"{'x' * 4096}...",
                                                   other="Galaxy of D").replace(
        "'Space War'", f"'{'x' * 40}...'"))


@pytest.mark.parametrize("command", [["play"], ["show"], ["explain", "--legal"]])
def test_moves_of_a_transcript_of_another_game_say_so_and_fail_at_the_first_misfit(
        tmp_path, command):
    """A transcript of Space War as the moves of Galaxy of D: the first line says whose
    transcript it is, then its first decision that is no action of this game is refused
    at its line (it was refused with no word of the other game)."""
    out, lines = _recorded(tmp_path)
    rules = next(line for line in lines if line.startswith("rules: "))[len("rules: "):]
    galaxy_of_d = SPACE_WAR.parent / "galaxy_of_d.gdl"
    result = gdl(command[0], str(galaxy_of_d), "--moves", str(out), *command[1:])
    assert result.returncode == 1
    errors = result.stderr.splitlines()
    assert errors[0] == WARNING.format(t=out, rules=rules, other="Galaxy of D")
    first = next(n for n, line in enumerate(lines, 1) if line.startswith("1 "))
    assert errors[1].startswith(f"error: {out}:{first}: 'side south' is not legal: there is no "
                                "action 'side'")


def test_moves_of_a_transcript_of_another_game_that_fit_are_played(tmp_path):
    """A variant's: Space War's first decision (a side) fits the big board's, and is played
    after the warning; a transcript of the same game says nothing."""
    out, lines = _recorded(tmp_path)
    rules = next(line for line in lines if line.startswith("rules: "))[len("rules: "):]
    big = SPACE_WAR.parent / "space_war_big.gdl"
    first = next(line for line in lines if line.startswith("1 "))
    assert first == "1 red (2) side south"
    out.write_text("\n".join(lines[:lines.index("---") + 1] + [first]) + "\n")
    result = gdl("show", str(big), "--moves", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == WARNING.format(t=out, rules=rules, other="Space War (big board)") \
        + "\n"
    same = gdl("show", SPACE_WAR, "--moves", str(out))
    assert same.returncode == 0 and same.stderr == ""


@pytest.mark.parametrize("edit, told", [
    (("max-turns: 3", "max-turn: 3"),
     "t.txt:7: unknown header line 'max-turn: 3' (did you mean 'max-turns'?); a transcript's "
     "header holds game, rules, rules-sha256, seed, players, max-turns and max-decisions"),
    (("seed: 0", "seed: 0\nseed: 5"),
     "t.txt:6: 'seed:' is given twice in the header, at lines 5 and 6: keep one"),
])
def test_a_header_line_edited_by_hand_is_told_at_its_line(tmp_path, edit, told):
    """A misspelt header line was ignored (a transcript capped by `max-turn: 3` then
    differed at its end, the cap unread), and a second one silently won over the first."""
    rules = tmp_path / "nim.gdl"
    rules.write_text((RULES / "nim.gdl").read_text())
    path = tmp_path / "t.txt"
    recorded = gdl("record", "nim.gdl", "--max-turns", "3", "-o", "t.txt", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    assert edit[0] in path.read_text()
    path.write_text(path.read_text().replace(edit[0], edit[1], 1))
    for command in (("replay", "t.txt"), ("play", "--resume", "t.txt"),
                    ("explain", "t.txt", "--step", "1", "--legal")):
        result = gdl(*command, cwd=tmp_path)
        assert (result.returncode, result.stdout, result.stderr) == (
            1, "", f"error: {told}\n"), command


@pytest.mark.parametrize("players, told", [
    ("foo, random", "unknown player type 'foo'"),
    ("human, mcts:iterations=abc", "mcts: iterations must be a whole number of at least 1, "
     "not 'abc'")])
def test_a_saved_game_whose_players_line_is_wrong_is_told_at_that_line(tmp_path, players,
                                                                       told):
    """`gdl play --resume` and `gdl serve --resume` play the saved game's players: one they
    cannot play was an error that named no file ('unknown player type 'foo''), as if the
    person had typed it in --players. It is told at the transcript's 'players:' line."""
    saved = _saved_nim(tmp_path, "1\n")
    saved.write_text(saved.read_text().replace("players: human, random",
                                               f"players: {players}"))
    result = gdl("play", "--resume", "saved.txt", cwd=tmp_path, stdin="quit\n")
    assert (result.returncode, "Traceback" in result.stderr) == (1, False)
    assert result.stderr.startswith(f"saved.txt:6:10: error: the saved game's players: {told}")
    assert f"    players: {players}\n             ^\n" in result.stderr
    from gdl.interpreter.play.serve.app import resumed
    with pytest.raises(GdlDataError) as info:
        resumed(str(saved), str(RULES / "nim.gdl"), None)
    assert (info.value.line, info.value.message.startswith("the saved game's players: ")) == (
        6, True)
    other = gdl("play", "--resume", "saved.txt", "--players", "random", cwd=tmp_path)
    assert other.returncode == 0, other.stderr       # --players replaces them


def test_a_saved_game_resumes_when_only_its_rule_file_s_text_changed(tmp_path):
    """A comment added to the rule file (or `gdl fmt` run on it) changes its hash: `gdl play
    --resume` refused the save although every decision replays identically, and said
    nothing of what to do. It goes on, with a warning; a save then holds the new hash."""
    rules = tmp_path / "nim.gdl"
    rules.write_text((RULES / "nim.gdl").read_text())
    saved = tmp_path / "saved.txt"
    made = gdl("play", "nim.gdl", "--players", "human,random", "--seed", "1", cwd=tmp_path,
               stdin="1\nsave saved.txt\nquit\n")
    assert made.returncode == 0, made.stderr
    rules.write_text(rules.read_text() + "\n# a comment\n")
    old, new = (read_transcript(str(saved)).header["rules-sha256"][:12],
                load_game(str(rules)).source_hash[:12])
    resumed = gdl("play", "--resume", "saved.txt", "--save", "saved.txt", cwd=tmp_path,
                  stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == (
        f"warning: saved.txt: the rule file changed since recording (sha256 {new} != {old}),"
        " although all 2 decisions replay identically: the game goes on in the rule file as "
        "it is now\n")
    assert "resumed after 2 decisions" in resumed.stdout
    assert replay(str(saved)) == 2          # saved again, with the rule file's new hash
    still = gdl("replay", "saved.txt", cwd=tmp_path)
    assert still.returncode == 0, still.stderr
