"""Lexical structure (docs/language.md 2): names that start with a reserved word; list
equality."""

from __future__ import annotations

from gdl.interpreter import load_game

from tests.helpers import RULES


REGRESSIONS = str(RULES / "regressions.gdl")


def test_names_starting_with_a_quantifier_word_and_list_equality():
    game = load_game(REGRESSIONS)
    state = game.new_state(1)
    # `allowed`, `counter`, `[me] == [blue]`, `range(1, 2) == [1, 2]` all hold
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == ["face North"]


KEYWORD_NAMES = """game "Keyword names"
seats a, b
board square(2, 2)
var to = 0
var where = 0
var got = 0

setup {
  goto play for a
}

phase play turn {
  action go() {
    got = 1
    to = got + 1
    let at = [c for c in cells() where true]
    where += len(at)
    at = []
    to -= 1
    goto play for next(me)
  }
}

end {
  draw when where > 4 and to == 1
}
"""


def test_a_variable_named_by_a_keyword_is_assigned_after_any_statement(tmp_path):
    """Where only a name can stand a keyword is read as a name (docs/language.md 2); an
    assignment `to = ...` after a statement that ends in an expression was refused ('to' is
    a reserved word), though `let at = ...` and reading `to` were accepted: a word that is
    assigned is a name wherever it stands."""
    from gdl.interpreter.tools.fmt import format_text
    path = tmp_path / "keywords.gdl"
    path.write_text(KEYWORD_NAMES, encoding="utf-8")
    game = load_game(str(path))
    state = game.new_state(0)
    for _ in range(2):
        game.apply(state, game.legal_actions(state)[0])
    assert game.view(state, None)["globals"] == {"to": "1", "where": "8", "got": "1"}
    assert game.is_terminal(state)      # the end rule read `where` and `to`: a draw
    assert format_text(KEYWORD_NAMES) == KEYWORD_NAMES      # gdl fmt keeps it as written
