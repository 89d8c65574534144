"""What many test files share: the repository's folders and small helpers. Import from here
(`from tests.helpers import ROOT, rule, act`); never copy a helper into a test file."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent                        # the checkout
RULES = TESTS / "rules"                    # small rule files made for the tests
GOLDEN = TESTS / "golden"                  # golden transcripts, screens and pictures
SCENARIOS = TESTS / "scenarios"            # the shipped games' scenario files
GAMES = ROOT / "games"                     # the shipped games
SPACE_WAR = GAMES / "space_war.gdl"
