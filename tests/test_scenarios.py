"""Scenario files: every `tests/scenarios/**/*.scenario` is one test.

A scenario (format: the docstring of gdl.interpreter.play.scenarios.runner) sets up a
position, plays actions and states what must then hold; `run_scenario` returns the failed
expectations, so a passing scenario returns []. The test id is the file's path relative to tests/scenarios.

A scenario that shows a rule file or the engine breaking a rule stays as the rulebook says
it should be; list its file name in KNOWN_BROKEN to mark it xfail (strict, so a fix is
noticed and the entry removed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gdl.interpreter.play.scenarios.runner import run_scenario

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "scenarios"
SPACE_WAR = TESTS.parent / "games" / "space_war.gdl"

# File names (or paths relative to tests/scenarios, needed when two games share a file
# name such as setup.scenario) of scenarios that currently fail because the rule file or
# the engine breaks the rule they test.
KNOWN_BROKEN: set[str] = set()


def _scenario_params():
    params = []
    for path in sorted(SCENARIOS.glob("**/*.scenario")):
        relative = path.relative_to(SCENARIOS).as_posix()
        marks = []
        if path.name in KNOWN_BROKEN or relative in KNOWN_BROKEN:
            marks.append(pytest.mark.xfail(strict=True, reason="listed in KNOWN_BROKEN"))
        params.append(pytest.param(path, id=relative, marks=marks))
    return params


@pytest.mark.parametrize("path", _scenario_params())
def test_scenario(path):
    assert run_scenario(str(path)) == []


def test_scenarios_are_collected():
    names = {p.name for p in SCENARIOS.glob("space_war/*.scenario")}
    assert "stars.scenario" in names
    assert len(names) >= 10
    assert KNOWN_BROKEN <= names | {p.relative_to(SCENARIOS).as_posix()
                                    for p in SCENARIOS.glob("**/*.scenario")}


def test_failure_is_reported_as_file_line_expected_got(tmp_path):
    bad = tmp_path / "bad.scenario"
    bad.write_text(
        f"rules {SPACE_WAR.resolve()}\n"             # 1
        "clear\n"                                     # 2
        "piece Station blue a2\n"                     # 3
        "piece Station red h11\n"                     # 4
        "piece Fighter blue c2\n"                     # 5
        "piece Fighter red c11\n"                     # 6
        "phase play for blue\n"                       # 7
        "# a comment line keeps the numbering\n"      # 8
        "play move Fighter#1 c4\n"                    # 9
        "expect Fighter#1 at c5      # wrong\n"       # 10
        "expect Fighter#1.damage == 1\n"              # 11
        "expect Fighter#1 at c4      # right\n"       # 12
        "expect winner blue\n",                       # 13
        encoding="utf-8")
    failures = run_scenario(str(bad))
    assert failures == [
        f"{bad}:10: expected Fighter#1 at c5, got at c4",
        f"{bad}:11: expected Fighter#1.damage == 1, got Fighter#1.damage = 0",
        f"{bad}:13: expected winner blue, got still playing",
    ]
    for failure in failures:
        assert re.fullmatch(re.escape(str(bad)) + r":\d+: expected .+, got .+", failure)
