"""`gdl coverage` and `gdl test --coverage`: what games or scenarios never exercised.

Pinned exactly on tests/rules/coverage.gdl, a rule file written so that one branch, one
action, one def and one end rule can never run; and on Space War, whose draw offer random
games rarely reach (line numbers looked up in the rule file)."""

import os
import sys

from gdl.interpreter.play.debug.coverage import games_coverage

from tests.helpers import ROOT, RULES as RULES_DIR, gdl, line_of


RULES = "tests/rules/coverage.gdl"


GAMES_SUMMARY = """\
coverage of tests/rules/coverage.gdl: 2 games from seed 0 (random, random): 2 finished, 0 capped
  rule files: tests/rules/coverage.gdl
  rule-file lines with code that ran: 10 of 14 (71.4%)
  actions never legal: 1
    tests/rules/coverage.gdl:26: action wait (phase play)
  actions never chosen: 1
    tests/rules/coverage.gdl:26: action wait (phase play)
  triggers, hooks, defs and fns that never ran: 1
    tests/rules/coverage.gdl:31: def never
  branches never taken: 1
    tests/rules/coverage.gdl:20: the 'then' of the 'if' at line 19
  end rules that never decided a game: 1
    tests/rules/coverage.gdl:37: draw when total < 0
"""


def test_coverage_of_games_names_every_rule_that_never_ran():
    result = gdl("coverage", RULES, "--games", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == GAMES_SUMMARY


SCENARIO_REPORT = """\
1 passed, 0 failed
coverage of 1 scenario file
  rule files: tests/rules/coverage.gdl
  rule-file lines with code that ran: 10 of 14 (71.4%)
  actions never legal: 1
    tests/rules/coverage.gdl:26: action wait (phase play)
  actions never chosen: 1
    tests/rules/coverage.gdl:26: action wait (phase play)
  triggers, hooks, defs and fns that never ran: 1
    tests/rules/coverage.gdl:31: def never
  branches never taken: 1
    tests/rules/coverage.gdl:20: the 'then' of the 'if' at line 19
  end rules that never decided a game: 2
    tests/rules/coverage.gdl:36: win when total >= 4
    tests/rules/coverage.gdl:37: draw when total < 0
# tests/rules/coverage.gdl
         | # Coverage: a rule file whose branches, hooks and end rules a test knows in advance.
         | game "Coverage"
         | seats a, b
         | board square(3, 1)
         |
         | var total = 0
         |
       1 | fn small(n) = n > 100
         |
         | setup {
       1 |   goto play for a
         | }
         |
         | phase play turn {
         |   on enter {
       2 |     total += 1
         |   }
       1 |   action step() where total < 4 {
       1 |     if small(total) {
       ! |       total = 0
         |       ^ never taken: the 'then' of the 'if' at line 19
         |     } else {
       1 |       total += 1
         |     }
       1 |     goto play for next(me)
         |   }
       1 |   action wait() where total > 10 {
         |   ^ never legal: action wait (phase play)
         |   ^ never chosen: action wait (phase play)
       ! |     goto play for next(me)
         |   }
         | }
         |
       ! | def never() {
         | ^ never ran: def never
       ! |   total = 0
         | }
         |
         | end {
       4 |   win when total >= 4
         |   ^ never decided: win when total >= 4
       2 |   draw when total < 0
         |   ^ never decided: draw when total < 0
         | }
         |
"""


def test_test_coverage_reports_what_the_scenarios_exercised_line_by_line():
    """With `--annotate -` the standard output holds the listing alone; the summary goes
    to the standard error (as every command's own lines do when a file it writes is '-')."""
    result = gdl("test", "--coverage", "tests/rules/coverage.scenario", "--annotate", "-")
    assert result.returncode == 0, result.stderr
    summary, listing = SCENARIO_REPORT.split("# tests/rules/coverage.gdl\n")
    assert result.stdout == "# tests/rules/coverage.gdl\n" + listing
    assert result.stderr == summary + "wrote <stdout>\n"


def test_the_annotated_listing_goes_to_a_file(tmp_path):
    out = tmp_path / "annotated.txt"
    result = gdl("coverage", RULES, "--games", "2", "--annotate", str(out))
    assert result.stdout == GAMES_SUMMARY + f"wrote {out}\n"
    listing = out.read_text().split("\n")
    assert listing[0] == "# " + RULES
    assert "       ! |       total = 0" in listing
    assert "       4 |       total += 1" in listing      # the else branch, once per step


def test_an_annotated_listing_to_a_folder_is_refused_before_the_games(tmp_path):
    for out, why in ((tmp_path, "Is a directory"),
                     (tmp_path / "none" / "a.txt", "No such file or directory")):
        for command in (["coverage", RULES, "--games", "100000"],
                        ["test", "tests/scenarios/space_war", "--coverage"]):
            result = gdl(*command, "--annotate", str(out))
            assert result.returncode == 1
            assert result.stderr == f"error: cannot write {out}: {why}\n"
            assert result.stdout == ""      # no game was played, no scenario run


def test_space_war_random_games_rarely_offer_a_draw():
    lines = games_coverage("games/space_war.gdl", 2).summary()
    offer, accept, refuse = (line_of(f"action {name}(") for name in
                             ("offer_draw", "accept", "refuse"))
    at = lines.index("  actions never legal: 3")
    assert lines[at + 1:at + 4] == [
        f"    games/space_war.gdl:{offer}: action offer_draw (phase play)",
        f"    games/space_war.gdl:{accept}: action accept (phase draw_offer)",
        f"    games/space_war.gdl:{refuse}: action refuse (phase draw_offer)"]
    assert "  end rules that never decided a game: none" in lines
    assert "  branches never taken: none" in lines


def test_tracing_stops_with_the_run():
    before = sys.gettrace()
    games_coverage(RULES, 1)
    assert sys.gettrace() is before


def test_scenarios_failing_still_fail_with_coverage(tmp_path):
    bad = tmp_path / "bad.scenario"
    bad.write_text(f"rules {os.path.join(ROOT, RULES)}\nplay step\nexpect total == 9\n")
    result = gdl("test", "--coverage", str(bad))
    assert result.returncode == 1
    assert "expected total == 9" in result.stderr
    assert "1 failed" in result.stdout and "coverage of 1 scenario file" in result.stdout


def test_rules_that_do_not_load_are_reported_not_covered(tmp_path):
    """A scenario whose rule file fails to load fails, and the coverage says the file did
    not load: it claims nothing of it (no '0 of 0 (100.0%)')."""
    (tmp_path / "broken.gdl").write_text("phase p {\n  action x( {\n}\n")
    bad = tmp_path / "bad.scenario"
    bad.write_text("rules broken.gdl\nexpect playing\n")
    result = gdl("test", "--coverage", str(bad))
    assert result.returncode == 1
    assert f"{bad}:1:1: error: unexpected '{{'" in result.stderr
    assert result.stdout.split("\n")[:5] == [
        "0 passed, 1 failed",
        "coverage of 1 scenario file",
        "  rule files: none",
        f"  rule files that did not load (not counted): {tmp_path / 'broken.gdl'} ({bad})",
        "  rule-file lines with code that ran: none (no rule file loaded)"]
    good = tmp_path / "good.scenario"
    good.write_text(f"rules {os.path.join(ROOT, RULES)}\nplay step\nexpect total == 3\n")
    result = gdl("test", "--coverage", str(good), str(bad))
    assert result.returncode == 1 and "1 passed, 1 failed" in result.stdout
    assert f"  rule files that did not load (not counted): {tmp_path / 'broken.gdl'} ({bad})" \
        in result.stdout.split("\n")
    assert "100.0%" not in result.stdout


def test_annotate_needs_coverage():
    result = gdl("test", "tests/rules/coverage.scenario", "--annotate", "-")
    assert result.returncode == 2 and "give --coverage too" in result.stderr


def test_a_variant_and_its_base_are_traced_apart_whatever_runs_first():
    """Python's code objects compare equal without their file: a variant's function that
    reads as its base's must still count for the variant, whatever file ran first."""
    from tests.play.test_cli import gdl as run_gdl
    base = "tests/scenarios/galaxy_aflame/fall_back.scenario"
    variant = "tests/scenarios/galaxy_aflame/draft_short_deck.scenario"
    found = []
    for order in ((base, variant), (variant, base)):
        result = run_gdl("test", "--coverage", *order)
        assert result.returncode == 0, result.stderr
        found.append([line for line in result.stdout.splitlines() if "lines with code" in line])
    assert found[0] == found[1] and found[0]


def test_scenario_files_of_one_rule_file_add_up(tmp_path):
    """Each scenario file loads its own game; what they exercise of one rule file adds up."""
    from tests.play.test_cli import gdl as run_gdl
    rules = os.path.join(RULES_DIR, "invariants.gdl")
    one, two = tmp_path / "spend.scenario", tmp_path / "pass.scenario"
    one.write_text(f"rules {rules}\nplay spend\nexpect a.money == 1\n")
    two.write_text(f"rules {rules}\nplay pass\nexpect a.money == 2\n")
    result = run_gdl("test", "--coverage", str(one), str(two))
    assert result.returncode == 0, result.stderr
    assert "  actions never chosen: none" in result.stdout.splitlines()
    result = run_gdl("test", "--coverage", str(one))
    assert "  actions never chosen: 1" in result.stdout.splitlines()
    assert "action pass (phase p)" in result.stdout


def test_a_fn_over_the_pieces_of_an_empty_cell_counts_as_run(tmp_path):
    """`occupied(c)` asked only of empty cells (which play answers without the call:
    codegen `empty_cell_answer`) counts as run: under the trace it is called."""
    rules = tmp_path / "empty.gdl"
    rules.write_text("""game "Empty"
seats a, b
board square(3, 1)
var n = 0
fn occupied(c) = exists(q in pieces_at(c) where q.owner == a)
fn clear(c) = all(q in pieces_at(c): q.owner == b)
fn never(c) = exists(q in pieces_at(c) where q.owner == b)
setup { goto main for a }
phase main turn {
  action go(c in cells()) where not occupied(c) and clear(c) { n += 1  goto main for next(me) }
}
end { draw when n >= 2 }
""")
    lines = games_coverage(str(rules), 1).summary()
    ran = lines.index("  triggers, hooks, defs and fns that never ran: 1")
    assert lines[ran + 1] == f"    {rules}:7: fn never"


def test_a_fn_that_and_skips_never_ran(tmp_path):
    """A small fn (one the generator would write in place) and a fn over the pieces of a
    cell (one it would answer without the call on an empty cell), both after an `and`
    whose left side is always false: neither runs, and coverage says so. Games loaded
    under the trace call every fn (`codegen.calling_every_fn`), so a fn is counted when
    it runs, not when the line that could call it does; the games are the same."""
    rules = tmp_path / "skipped.gdl"
    rules.write_text("""game "Skipped"
seats a, b
board square(3, 1)
var n = 0
var never_one = 0
fn small(k) = k > 100
fn occupied(c) = exists(q in pieces_at(c) where q.owner == a)
setup { goto main for a }
phase main turn {
  action go(c in cells()) where not (never_one == 1 and small(n)) and
      not (never_one == 1 and occupied(c)) { n += 1  goto main for next(me) }
}
end { draw when n >= 3 }
""")
    lines = games_coverage(str(rules), 2).summary()
    ran = lines.index("  triggers, hooks, defs and fns that never ran: 2")
    assert lines[ran + 1:ran + 3] == [f"    {rules}:6: fn small", f"    {rules}:7: fn occupied"]


def test_the_listing_shows_a_variant_without_code_line_by_line(tmp_path):
    """A variant of params and kinds has no line that runs, and still is listed whole
    (it was a heading with no lines under it)."""
    base = os.path.join(RULES_DIR, "coverage.gdl")        # a short game
    variant = tmp_path / "v.gdl"
    variant.write_text(f'extends "{base}"\n# richer\nvar seat.money = 3\n')
    text = "\n".join(games_coverage(str(variant), 1).annotated())
    assert f"# {variant}\n         | extends \"{base}\"\n         | # richer\n" \
           "         | var seat.money = 3\n         |\n# " in text


def test_a_run_time_error_names_the_game_and_its_seed(tmp_path):
    """As `gdl simulate` does: which of the games failed, and how to play it again. (Only
    the error was told, with nothing to say which of the games to record.)"""
    rules = tmp_path / "late.gdl"
    rules.write_text("""seats a, b
var n = 0
setup { goto main for a }
phase main turn {
  action go() { n += 1 / (if n == 2 then 0 else 1)  goto main for next(me) }
}
end { draw when n >= 2 + turn_number }
""")
    result = gdl("coverage", str(rules), "--games", "3", "--seed", "7")
    assert result.returncode == 1
    assert result.stderr.endswith("in game 1 of the coverage run, seed 7 (gdl record with "
                                  "--seed 7 plays it again)\n"), result.stderr
