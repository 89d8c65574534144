"""`symbols` (docs/language.md 3.3): typed symbols ignore case; a failing rule is named."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import IllegalAction

from tests.helpers import RULES


REGRESSIONS = str(RULES / "regressions.gdl")


def test_typed_symbols_ignore_case_and_the_failing_rule_is_named():
    game = load_game(REGRESSIONS)
    state = game.new_state(1)
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, "face south")
    assert info.value.message == "the rule 's != South' does not hold"
    assert game.parse_action(state, "FACE north") == game.legal_actions(state)[0]
