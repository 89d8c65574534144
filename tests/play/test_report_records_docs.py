"""docs/balance.md's account of the records that `gdl simulate --out` writes and `gdl report`
reads: the `scores` field it describes is the one simulate fills."""

import json
import re

from gdl.interpreter import load_game
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import ROOT, SPACE_WAR


def balance_doc() -> str:
    return (ROOT / "docs" / "balance.md").read_text(encoding="utf-8")


def test_the_scores_the_docs_show_are_the_show_scores_simulate_records() -> None:
    row = re.search(r"^\| `scores` \| (.*) \|$", balance_doc(), re.M)
    assert row is not None and "`show score(s)`" in row.group(1)
    shown = json.loads(re.findall(r"`(\{.*?\})`", row.group(1))[0])
    _, records = simulate(load_game(str(SPACE_WAR)), 1, seed=0)
    assert records[0].scores == shown       # Space War's `show score(s)`, seed 0, random play


def test_a_rule_file_without_a_show_score_records_none() -> None:
    _, records = simulate(load_game(str(ROOT / "tests" / "rules" / "nim.gdl")), 1, seed=0)
    assert records[0].scores is None
    assert "until the language has one" not in balance_doc()
