"""`gdl record` and `gdl bench` read, parse and check each rule file once."""

import pytest
from click.testing import CliRunner

from gdl.cli.main import main
from gdl.interpreter import loader


@pytest.fixture
def loads(monkeypatch):
    """The rule files parsed and checked, in order."""
    seen = []
    checked = loader._checked

    def counting(text, path):
        if not path.startswith("<"):        # not a file (bench warms up with a text)
            seen.append(path)
        return checked(text, path)
    monkeypatch.setattr(loader, "_checked", counting)
    return seen


def test_record_loads_the_rule_file_once(loads, tmp_path):
    result = CliRunner().invoke(main, ["record", "games/space_war.gdl", "--max-turns", "2",
                                       "-o", str(tmp_path / "t.txt")])
    assert result.exit_code == 0, result.output
    assert loads == ["games/space_war.gdl"]


def test_bench_loads_each_rule_file_once_and_keeps_its_columns(loads):
    result = CliRunner().invoke(main, ["bench", "games/space_war.gdl", "games/game.gdl",
                                       "--games", "2"])
    assert result.exit_code == 0, result.output
    assert loads == ["games/space_war.gdl", "games/game.gdl"]
    header, *rows = result.output.splitlines()
    assert header.split() == ["file", "load", "ms", "games", "decisions", "decisions/s"]
    assert [row.split()[0] for row in rows] == ["games/space_war.gdl", "games/game.gdl"]
    assert all(float(row.split()[1]) > 0 and row.split()[2] == "2" for row in rows)
