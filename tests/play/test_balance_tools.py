"""The balance tools: `gdl simulate --out` (per-game records as JSON Lines and CSV),
`gdl report` (one self-contained page) and `gdl compare` (two rule files, the difference of
win shares with its interval), as a user runs them; bad input refused whole, without a
traceback. Ray has its own file, tests/test_simulate_ray.py."""

import csv
import json
import os
import re
import sys

import attrs
import pytest
from click.testing import CliRunner

from gdl.cli.main import main
from gdl.interpreter import load_game
from gdl.interpreter.play.balance.compare import newcombe
from gdl.interpreter.play.balance.game_records import read_records
from gdl.interpreter.play.balance.report import analyse
from gdl.interpreter.play.balance.batch import RECORD_FIELDS, GameRecord
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import ROOT
RULES = os.path.join(ROOT, "tests", "rules", "balance")
RACE = os.path.join(RULES, "race.gdl")
HEAD_START = os.path.join(RULES, "race_head_start.gdl")
COPY = os.path.join(RULES, "race_copy.gdl")
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
KUHN = os.path.join(ROOT, "games", "classic", "kuhn_poker.gdl")     # declares a payoff(s)


def gdl(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result


def test_one_game_one_turn_and_one_worker_read_in_the_singular(tmp_path):
    simulated = gdl("simulate", RACE, "--games", 1, "--max-turns", 1, "--workers", 1)
    assert simulated.exit_code == 0, simulated.output
    lines = simulated.stdout.split("\n")
    assert lines[0] == "Race: 1 game from seed 0"
    assert lines[1].startswith("  finished 0, capped 1 (at 1 turn or ")
    assert re.match(r"  [0-9.]+ s with 1 worker: ", lines[-2]), lines[-2]
    compared = gdl("compare", RACE, HEAD_START, "--games", 1, "--workers", 1)
    assert compared.stdout.startswith(f"{RACE} against {HEAD_START}: 1 game each from seed 0")
    records = tmp_path / "one.jsonl"
    gdl("simulate", RACE, "--games", 1, "--workers", 1, "--out", records)
    page = tmp_path / "one.html"
    assert gdl("report", records, "-o", page).stdout == f"wrote {page}: Race, 1 game\n"
    assert "random (1 game)" in page.read_text() and "1 games" not in page.read_text()


# ----- records ------------------------------------------------------------------------------
def test_a_record_tells_seats_players_first_seat_result_length_and_stats():
    _, records = simulate(load_game(RACE), 30, 5, "random")
    assert [r.seed for r in records] == list(range(5, 35))
    for record in records:
        assert tuple(record.to_json()) == RECORD_FIELDS
        assert GameRecord.from_json(record.to_json()) == record
        assert record.seats == ("a", "b") and record.players == ("random", "random")
        assert record.first == "a" and not record.capped
        assert len(record.winners) == 1
        assert record.returns == tuple(1.0 if s in record.winners else -1.0
                                       for s in ("a", "b"))
        assert record.payoff is False       # race.gdl declares no payoff(s)
        position = record.stats["position"]
        assert max(position.values()) >= 20 and position[record.winners[0]] >= 20
        assert record.stats["close"] == (abs(position["a"] - position["b"]) < 3)
        assert record.scores is None


def test_capped_games_are_recorded_as_capped_with_no_winner():
    _, records = simulate(load_game(SPACE_WAR), 12, 7, max_turns=15)
    capped = [r for r in records if r.capped]
    assert capped and all(r.winners == () and r.returns == (0.0, 0.0) for r in capped)


def test_out_jsonl_is_the_same_for_one_and_two_workers_and_reads_back(tmp_path):
    files = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}.jsonl"
        result = gdl("simulate", SPACE_WAR, "--games", 14, "--seed", 3, "--max-turns", 15,
                     "--workers", workers, "--out", out)
        assert result.exit_code == 0 and f"wrote 14 records to {out}" in result.stdout
        files.append(out.read_bytes())
    assert files[0] == files[1]
    lines = files[0].decode().splitlines()
    assert len(lines) == 14
    assert list(json.loads(lines[0])) == list(RECORD_FIELDS)
    assert [r.seed for r in read_records(str(tmp_path / "w1.jsonl"))] == list(range(3, 17))
    assert sorted(os.listdir(tmp_path)) == ["w1.jsonl", "w2.jsonl"]    # no temporary left


def test_out_csv_spreads_seats_and_stats_over_columns(tmp_path):
    out = tmp_path / "race.csv"
    assert gdl("simulate", RACE, "--games", 5, "--workers", 1, "--out", out).exit_code == 0
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["seed", "game", "first", "winners", "draw", "capped", "turns",
                             "decisions", "player:a", "player:b", "return:a", "return:b",
                             "stat:runs", "stat:position:a", "stat:position:b", "stat:close"]
    records = simulate(load_game(RACE), 5)[1]
    assert [row["winners"] for row in rows] == [r.winners[0] for r in records]
    assert [int(row["stat:position:b"]) for row in rows] == \
        [r.stats["position"]["b"] for r in records]
    assert {row["draw"] for row in rows} == {"false"}


@pytest.mark.parametrize("out, message", [
    ("games.txt", "error: cannot write records to games.txt: the file name must end in .jsonl "
     "(JSON Lines) or .csv"),
    ("no/such/folder/games.jsonl", "error: cannot write no/such/folder/games.jsonl: No such "
     "file or directory"),
])
def test_out_refuses_what_it_cannot_write(tmp_path, monkeypatch, out, message):
    monkeypatch.chdir(tmp_path)
    result = gdl("simulate", RACE, "--games", 3, "--workers", 1, "--out", out)
    assert result.exit_code == 1
    assert result.stderr.strip() == message


# ----- the JSON forms, as they were before records and summaries were typed ------------------
# `gdl simulate games/space_war.gdl --games 20 --seed 1 --json --workers 1` and `gdl compare`
# of the file with itself (10 games, seed 1), printed before summaries became `Summary`
# records: the timing fields (`T` here) aside, the same bytes; the first line of `--out`
# (with the `payoff` field records have had since).
SIMULATE_JSON = (
    '{"capped": 0, "decisions": 1458, "decisions_per_second": T, "draws": 5, "finished": 20, '
    '"game": "Space War", "games": 20, "games_per_second": T, "games_requested": 20, '
    '"interrupted": false, "max_decisions": 100000, "max_turns": 1000, "max_turns_played": 38, '
    '"mean_decisions": 72.9, "mean_turns": 14.9, "min_turns": 1, "ray": null, "seconds": T, '
    '"seed": 1, "win_share": {"blue": [0.3, 0.145, 0.519], "red": [0.45, 0.258, 0.658]}, '
    '"wins": {"blue": 6, "red": 9}, "workers": 1}\n')
SUMMARY_KEYS = ["game", "games", "games_requested", "interrupted", "finished", "capped", "wins",
                "draws", "mean_decisions", "mean_turns", "min_turns", "max_turns_played",
                "win_share", "decisions", "seconds", "workers", "games_per_second",
                "decisions_per_second", "seed", "max_turns", "max_decisions", "ray"]
COMPARE_JSON = (
    '{"base": "games/space_war.gdl", "capped": {"base": 0, "variant": 0}, "differs": false, '
    '"draws": {"base": [0.3, 0.108, 0.603], "variant": [0.3, 0.108, 0.603]}, '
    '"finished": {"base": 10, "variant": 10}, "games": 10, "interrupted": false, '
    '"mean_decisions": {"base": 79.5, "variant": 79.5}, "players": "random", '
    '"seats": {"blue": {"base": [0.1, 0.018, 0.404], "difference": [0.0, -0.315, 0.315], '
    '"differs": false, "variant": [0.1, 0.018, 0.404]}, "red": {"base": [0.6, 0.313, 0.832], '
    '"difference": [0.0, -0.369, 0.369], "differs": false, "variant": [0.6, 0.313, 0.832]}}, '
    '"seed": 1, "variant": "games/space_war.gdl"}\n')
FIRST_RECORD = (
    '{"seed": 1, "game": "Space War", "seats": ["blue", "red"], "players": ["random", '
    '"random"], "first": "blue", "winners": ["blue"], "draw": false, "returns": [1.0, -1.0], '
    '"payoff": false, "turns": 16, "decisions": 81, "capped": false, "scores": {"blue": 15, '
    '"red": 0}, "stats": {}}')


def test_simulate_json_and_records_are_the_bytes_they_were(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "games.jsonl"
    result = gdl("simulate", "games/space_war.gdl", "--games", 20, "--seed", 1, "--json",
                 "--workers", 1, "--out", out)
    timing = r'"(seconds|games_per_second|decisions_per_second)": [0-9.]+'
    assert re.sub(timing, r'"\1": T', result.stdout) == SIMULATE_JSON
    assert out.read_text().splitlines()[0] == FIRST_RECORD
    summary, records = simulate(load_game(SPACE_WAR), 20, 1, workers=1)
    assert list(summary.to_json()) == SUMMARY_KEYS
    assert [json.dumps(r.to_json()) for r in records] == out.read_text().splitlines()
    assert read_records(str(out)) == records


def test_compare_json_is_the_bytes_it_was(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = gdl("compare", "games/space_war.gdl", "games/space_war.gdl", "--games", 10,
                 "--seed", 1, "--json", "--workers", 1)
    assert result.stdout == COMPARE_JSON


# ----- reading records ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def race_lines():
    _, records = simulate(load_game(RACE), 6)
    return [json.dumps(r.to_json()) for r in records]


@pytest.mark.parametrize("change, message", [
    (lambda lines: lines[:3] + ["{not json"] + lines[3:],
     ":4:1: error: not JSON (Expecting property name enclosed in double quotes, column 2); "
     "the file is not read"),
    (lambda lines: lines[:2] + [lines[2].replace('"turns"', '"turnz"')],
     ":3:1: error: the record has no 'turns'; the file is not read"),
    (lambda lines: lines[:1] + [lines[1].replace('"seed": 1', '"seed": -1')],
     ":2:1: error: 'seed' must be a whole number from 0 to 18446744073709551615, not -1; "
     "the file is not read"),
    (lambda lines: lines[:1] + [re.sub('"turns": [0-9]+', '"turns": 1' + "0" * 400, lines[1])],
     ":2:1: error: 'turns' must be a whole number from 0 to 9007199254740992, not 1000"),
    (lambda lines: lines[:1] + [re.sub('"turns": [0-9]+', '"turns": 1' + "0" * 5000, lines[1])],
     ":2:1: error: a number or a nesting too large for a record; the file is not read"),
    (lambda lines: lines[:1] + [re.sub(r'"returns": \[[^,]*', '"returns": [NaN', lines[1])],
     ":2:1: error: 'returns' must be a list of numbers, one per seat, each within "
     "9007199254740992, not [NaN, "),
    (lambda lines: lines[:1] + [re.sub(r'"returns": \[[^,]*', '"returns": [1e999', lines[1])],
     ":2:1: error: 'returns' must be a list of numbers"),
    (lambda lines: lines[:1] + [re.sub(r'"returns": \[[^,]*', '"returns": [1e308', lines[1])],
     ":2:1: error: 'returns' must be a list of numbers, one per seat, each within "
     "9007199254740992, not [1e+308, "),
    (lambda lines: lines[:1] + [lines[1].replace('"payoff": false', '"payoff": "no"')],
     ":2:1: error: 'payoff' must be true or false, not \"no\"; the file is not read"),
    (lambda lines: lines + [lines[0].replace('"winners": [', '"winners": ["c", ')],
     ":7:1: error: 'winners' must be a list of seats, not [\"c\", "),
    (lambda lines: lines[:5] + [lines[5].replace('"Race"', '"Other"')],
     ":6:1: error: 'game' is \"Other\" but the first record's is \"Race\": a file holds the "
     "games of one run; the file is not read"),
    (lambda lines: ["[1, 2]"], ":1:1: error: a record is a JSON object; the file is not read"),
    (lambda lines: lines[:1] + [re.sub('"runs": [0-9]+', '"runs": 1e300', lines[1])],
     ":2:1: error: 'stats' must be an object of numbers within 9007199254740992, truth "
     "values or texts, or of those per seat, not {\"runs\": 1e+300, "),
    (lambda lines: lines[:1] + [re.sub('"position": {[^}]*}', '"position": 3', lines[1])],
     ":2:1: error: stat 'position' is one value a game but the first record's is one value "
     "per seat: a file holds the games of one run; the file is not read"),
    (lambda lines: ["", "  "], ": error: no records in the file"),
    # a record that says both (the report counted the game as a draw and as a win)
    (lambda lines: lines[:1] + [lines[1].replace('"draw": false', '"draw": true')],
     ":2:1: error: a drawn game has no winners, not [\"a\"]; the file is not read"),
    # a seed played twice by the same players is one game counted twice
    (lambda lines: lines + lines[2:3],
     ":7:1: error: seed 2 with players random, random is line 3's too: the same game counted "
     "twice (a file joined to itself, or runs whose seeds overlap); the file is not read"),
])
def test_a_corrupt_records_file_is_refused_whole_naming_the_line(tmp_path, race_lines,
                                                                  change, message):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(change(list(race_lines))) + "\n")
    result = gdl("report", path, "-o", tmp_path / "r.html")
    assert result.exit_code == 1
    assert result.stderr.startswith(str(path) + message), result.stderr
    assert not (tmp_path / "r.html").exists()


def test_seat_swapped_runs_of_the_same_seeds_are_one_file(tmp_path, race_lines):
    """A seed repeated under other players is another game (a seat-swapped run joined with
    `cat`, docs/balance.md): it is read, both games counted."""
    swapped = [line.replace('"players": ["random", "random"]',
                            '"players": ["greedy", "random"]') for line in race_lines]
    assert swapped != race_lines
    path = tmp_path / "both.jsonl"
    path.write_text("\n".join(race_lines + swapped) + "\n")
    assert [r.seed for r in read_records(str(path))] == list(range(6)) * 2


@pytest.mark.parametrize("name, message", [
    ("missing.jsonl", "error: cannot read records file {path}: No such file or directory"),
    ("games.csv", "{path}: error: a report reads JSON Lines records: write them with "
     "'gdl simulate ... --out FILE.jsonl'"),
])
def test_report_refuses_a_missing_or_csv_file(tmp_path, name, message):
    path = tmp_path / name
    if name.endswith(".csv"):
        path.write_text("seed\n0\n")
    result = gdl("report", path, "-o", tmp_path / "r.html")
    assert result.exit_code == 1 and result.stderr.strip() == message.format(path=path)


# ----- report -------------------------------------------------------------------------------
def test_analysis_counts_wins_draws_caps_first_player_and_agents():
    _, records = simulate(load_game(SPACE_WAR), 40, 1, max_turns=20)
    a = analyse(records)
    finished = [r for r in records if not r.capped]
    assert a["games"] == 40 and a["finished"] == len(finished)
    assert a["capped"] == 40 - len(finished) and a["draws"] == sum(r.draw for r in finished)
    assert sum(a["wins"].values()) + a["draws"] == a["finished"]
    assert a["first"]["won"] == sum(r.first in r.winners for r in finished)
    assert a["agents"]["random"]["seat_games"] == 2 * a["finished"]
    assert a["agents"]["random"]["wins"] == sum(a["wins"].values())
    share, low, high = a["win_share"]["blue"]
    assert low <= share == round(a["wins"]["blue"] / a["finished"], 3) <= high


def test_report_page_is_self_contained_has_every_section_and_is_reproducible(tmp_path):
    records = tmp_path / "race.jsonl"
    gdl("simulate", RACE, "--games", 200, "--workers", 1, "--players", "random",
        "--out", records)
    pages = []
    for name in ("one.html", "two.html"):
        result = gdl("report", records, "-o", tmp_path / name)
        assert result.exit_code == 0
        assert result.stdout == f"wrote {tmp_path / name}: Race, 200 games\n"
        pages.append((tmp_path / name).read_text())
    page = pages[0]
    assert pages[0] == pages[1]
    for heading in ("Outcomes: wins, draws and caps", "Win share per seat",
                    "First-player advantage", "Results per agent", "Game length",
                    "Statistics"):
        assert f"<h2>{heading}" in page
    assert page.count("<svg") == 4          # outcomes, seats, first player, lengths
    namespaces = ('xmlns="http://www.w3.org/2000/svg"',
                  'xmlns:xlink="http://www.w3.org/1999/xlink"')
    bare = page
    for namespace in namespaces:
        bare = bare.replace(namespace, "")
    for outside in ("http:", "https:", "<script", "<link", "src="):
        assert outside not in bare, outside
    assert not re.search(r"url\((?!#)", bare)        # only references inside the page
    a = analyse(read_records(str(records)))
    assert f"<td>a</td><td>{a['wins']['a']}</td>" in page
    assert "<td>position</td><td>b</td>" in page


def kuhn_records(tmp_path, players):
    """20 games of Kuhn poker from seed 1, written by `gdl simulate --out` and read back."""
    out = tmp_path / "kuhn.jsonl"
    assert gdl("simulate", KUHN, "--games", 20, "--seed", 1, "--players", players,
               "--workers", 1, "--out", out).exit_code == 0
    return out, read_records(str(out))


def test_a_payoff_game_whose_returns_are_all_one_or_minus_one_has_a_returns_table(tmp_path):
    out, records = kuhn_records(tmp_path, "mcts:iterations=50,greedy")
    assert {abs(x) for r in records for x in r.returns} == {1.0}   # like 1 win, -1 loss
    assert all(r.payoff for r in records)
    assert set(analyse(records)["returns"]) == {"one", "two"}
    assert gdl("report", out, "-o", tmp_path / "kuhn.html").exit_code == 0
    page = (tmp_path / "kuhn.html").read_text()
    assert "<h2>Returns (the rule file's payoff at the end of each finished game)</h2>" in page


def without_payoff(records, path):
    """The records as a file written before records had a `payoff` field."""
    lines = [json.dumps({k: v for k, v in r.to_json().items() if k != "payoff"})
             for r in records]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("players, table", [
    ("mcts:iterations=50,greedy", False),   # every return 1 or -1: the payoff goes unseen
    ("random", True),                       # some return 2 or -2: the table, as before
])
def test_records_without_payoff_written_by_an_older_gdl_are_read(tmp_path, players, table):
    _, records = kuhn_records(tmp_path, players)
    old = without_payoff(records, tmp_path / "old.jsonl")
    read = read_records(str(old))
    assert [r.payoff for r in read] == [None] * 20
    assert read == [attrs.evolve(r, payoff=None) for r in records]
    assert [json.dumps(r.to_json()) for r in read] == old.read_text().splitlines()
    assert ("returns" in analyse(read)) == table
    result = gdl("report", old, "-o", tmp_path / "old.html")
    assert result.exit_code == 0 and result.stderr == ""
    assert ("<h2>Returns" in (tmp_path / "old.html").read_text()) == table


def test_report_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    records = tmp_path / "race.jsonl"
    gdl("simulate", RACE, "--games", 3, "--workers", 1, "--out", records)
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib fails
    result = gdl("report", records, "-o", tmp_path / "r.html")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: gdl report draws with matplotlib, an optional "
                                     "extra: pip install -e '.[report]'")


# ----- compare ------------------------------------------------------------------------------
def test_newcombe_interval_of_a_difference():
    # Newcombe (1998), table II, example (a): 56/70 against 48/80: 0.2000, 0.0524 to 0.3339
    from gdl.interpreter.play.balance.simulate import wilson_exact
    low, high = newcombe(wilson_exact(48, 80), wilson_exact(56, 70))
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_compare_finds_the_edge_a_variant_gives_one_seat():
    result = gdl("compare", RACE, HEAD_START, "--games", 300, "--workers", 1, "--json")
    found = json.loads(result.stdout)
    assert found["differs"] and found["seats"]["a"]["differs"] and found["seats"]["b"]["differs"]
    d, low, high = found["seats"]["a"]["difference"]
    assert 0 < low < d < high
    assert found["seats"]["a"]["variant"][0] > 0.9


def test_compare_finds_no_difference_in_an_identical_copy():
    result = gdl("compare", RACE, COPY, "--games", 300, "--workers", 2)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[-1] == ("verdict: no significant difference in win shares (every seat's 95% "
                         "interval of the difference holds 0)")
    assert "differs" not in "\n".join(lines[:-1])
    assert lines[2].startswith("  a ") and "+0.0 points" in lines[2]


def test_compare_prints_a_verdict_line_naming_the_seats_that_moved():
    result = gdl("compare", RACE, HEAD_START, "--games", 100, "--workers", 1)
    assert result.stdout.splitlines()[-1].startswith(
        "verdict: the win shares differ (a +")


def test_a_report_of_games_none_finished_gives_no_shares(tmp_path):
    records, page = tmp_path / "capped.jsonl", tmp_path / "capped.html"
    assert gdl("simulate", RACE, "--games", 3, "--max-turns", 1, "--workers", 1,
               "--out", records).exit_code == 0
    assert gdl("report", records, "-o", page).exit_code == 0
    text = page.read_text(encoding="utf-8")
    assert "No game finished: every one was capped, so there are no win shares" in text
    assert "win share (95% interval)" not in text


def test_a_dollar_sign_in_a_name_is_text_in_the_plots(tmp_path, race_lines):
    """matplotlib reads '$...$' in a label as TeX: a records file whose agent is named
    '$\\frac{$' raised its ParseSyntaxException with a traceback."""
    records, page = tmp_path / "dollar.jsonl", tmp_path / "dollar.html"
    records.write_text("\n".join(line.replace('"players": ["random", "random"]',
                                               '"players": ["$\\\\frac{$", "random"]')
                                  for line in race_lines) + "\n")
    result = gdl("report", records, "-o", page)
    assert result.exit_code == 0, result.output
    assert "$\\frac{$" in page.read_text(encoding="utf-8")


def test_compare_with_no_game_finished_has_nothing_to_compare():
    result = gdl("compare", RACE, COPY, "--games", 3, "--max-turns", 1, "--workers", 1)
    assert result.exit_code == 0
    assert "finished 0 and 0" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        "verdict: nothing to compare: no game of the base and the variant finished (raise "
        "--max-turns or --max-decisions)")


def test_compare_stopped_in_the_base_leaves_the_variant_unplayed(monkeypatch):
    """Ctrl-C during the base's games (simulate returns what it played, `interrupted`): it
    went on to play every game of the variant, then set the base's few games against them
    as if nothing happened, rows marked 'differs' against a variant of no finished game."""
    from gdl.interpreter.play.balance import compare as module
    asked = []

    def stopped_first(game, games, *args, **kwargs):
        asked.append(games)
        summary, records = simulate(game, min(games, 5), *args, **kwargs)
        return attrs.evolve(summary, interrupted=len(asked) == 1), records
    monkeypatch.setattr(module, "simulate", stopped_first)
    result = CliRunner().invoke(main, ["compare", RACE, COPY, "--games", "1000",
                                       "--workers", "1"])
    assert result.exit_code == 130
    assert asked == [1000, 0]
    lines = result.output.splitlines()
    assert lines[0] == (f"{RACE} against {COPY}: interrupted after 5 and 0 of 1000 games each "
                        "from seed 0, players random")
    assert "differs" not in result.output
    assert lines[-1] == ("verdict: nothing to compare: no game of the variant finished "
                         "(interrupted)")


@pytest.mark.parametrize("args, message", [
    ((RACE, SPACE_WAR), f"error: {SPACE_WAR} has seats blue, red but {RACE} has a, b: compare "
     "plays the same seats in both"),
    ((RACE, "missing.gdl"), "error: cannot read rule file missing.gdl: No such file or "
     "directory"),
])
def test_compare_refuses_bad_input(args, message):
    result = gdl("compare", *args, "--games", 2, "--workers", 1)
    assert result.exit_code == 1
    assert result.stderr.strip().startswith(message)
