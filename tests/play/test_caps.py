"""Games are capped by decisions as well as by turns, so a game whose turn counter never
advances still stops: in simulate, record (and its replay), play and bench, each reporting
the game as capped."""

import json

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.limits import DEFAULT_MAX_DECISIONS
from gdl.interpreter.play.playing import run_game
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import invoke


# No phase is a turn phase: the turn counter stays at 0 and --max-turns never stops it.
ENDLESS = """game "Endless"
seats a, b
board square(3, 3)
var n = 0
setup {
  goto main for a
}
phase main {
  action tick() {
    n += 1
    goto main for next(me)
  }
  action tock() {
    goto main for next(me)
  }
}
"""


def endless(tmp_path):
    path = tmp_path / "endless.gdl"
    path.write_text(ENDLESS)
    return str(path)


def test_simulate_caps_a_game_whose_turns_never_advance(tmp_path):
    result = invoke("simulate", endless(tmp_path), "--games", "3", "--max-turns", "5",
                    "--max-decisions", "40", "--workers", "1", "--json")
    summary = json.loads(result.output)
    assert (summary["capped"], summary["finished"], summary["decisions"]) == (3, 0, 120)
    assert (summary["max_turns"], summary["max_decisions"]) == (5, 40)


def test_simulate_text_names_both_caps(tmp_path):
    result = invoke("simulate", endless(tmp_path), "--games", "2", "--max-decisions", "10",
                    "--workers", "1")
    assert "  finished 0, capped 2 (at 1000 turns or 10 decisions), draws 0" in result.output


@pytest.mark.parametrize("players", ["random", "greedy"])
def test_a_game_the_turn_cap_stops_played_that_many_turns(tmp_path, players):
    """The cap stops the game as turn N + 1 starts: it played N turns, not N + 1 (random
    players play in one playout, greedy ones through run_game)."""
    path = tmp_path / "turns.gdl"
    path.write_text(ENDLESS.replace("phase main {", "phase main turn {"))
    out = tmp_path / "games.jsonl"
    result = invoke("simulate", str(path), "--games", "3", "--max-turns", "5", "--players",
                    players, "--workers", "1", "--json", "--out", str(out))
    summary = json.loads(result.output.splitlines()[0])
    assert (summary["capped"], summary["min_turns"], summary["max_turns_played"],
            summary["mean_turns"]) == (3, 5, 5, 5)
    assert [json.loads(line)["turns"] for line in out.read_text().splitlines()] == [5, 5, 5]
    text = invoke("simulate", str(path), "--games", "3", "--max-turns", "5", "--players",
                  players, "--workers", "1").output
    assert "5.0 turns a game on average (turns 5 to 5)" in text


def test_the_default_decision_cap_stops_simulate():
    game = load_source(ENDLESS, "endless.gdl")
    summary, records = simulate(game, 1, 0, workers=1)
    assert records[0].capped and records[0].decisions == DEFAULT_MAX_DECISIONS


def test_record_caps_and_its_transcript_replays(tmp_path):
    out = tmp_path / "endless.txt"
    result = invoke("record", endless(tmp_path), "--max-decisions", "7", "-o", str(out))
    assert result.exit_code == 0
    text = out.read_text()
    assert "max-decisions: 7\n" in text
    assert text.endswith("capped: decision 7 reached the cap of 7\n")
    replayed = invoke("replay", str(out))
    assert replayed.output == f"{out}: ok: 7 decisions replay identically\n"


def test_play_caps(tmp_path):
    result = invoke("play", endless(tmp_path), "--max-decisions", "4")
    assert result.exit_code == 0
    assert result.output.endswith("stopped: decision 4 reached the cap of 4\n")


def test_bench_caps(tmp_path):
    result = invoke("bench", endless(tmp_path), "--games", "2", "--max-decisions", "25")
    assert result.exit_code == 0
    assert result.output.splitlines()[1].split()[2:4] == ["2", "50"]


def test_galaxy_of_d_when_both_seats_always_throw_rock():
    game = load_game("games/galaxy_of_d.gdl")
    state = game.new_state(0)
    status, sentence = run_game(game, state, lambda seat, legal: legal[0], max_turns=10,
                                max_decisions=200)
    assert (status, sentence, state.turn) == ("capped", "decision 200 reached the cap of "
                                              "200", 0)
