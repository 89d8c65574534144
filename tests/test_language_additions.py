"""`on resume`, `hide piece(p) when`, the `sorted` quantifier, `reversed` and `last`."""

import json

from gdl.interpreter import load_source

GAME = """
game "additions"
seats a, b
board square(4, 1)
kinds (power) { Coin = 1 }
var resumed = 0
var order = [a]
var piece.secret = 7
hide piece(p) when p.owner != viewer and p != last(pieces_at(p.cell))
setup {
  create Coin for a at @a1
  create Coin for a at @a1
  create Coin for b at @d1
  order = sorted(s in seats: 0 - len(pieces(s)) * 0 + (if s == a then 2 else 1))
  goto main for a
}
phase main turn {
  on resume { resumed += 1 }
  action ask() { call reply for next(me) }
  action pass() { goto main for next(me) }
}
phase reply {
  action ok() { return }
}
"""


def test_on_resume_runs_when_a_called_phase_returns():
    game = load_source(GAME, "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "ask"))
    assert game.current_player(state) == 1
    game.apply(state, game.parse_action(state, "ok"))
    assert state.globals["resumed"] == 1
    assert game.current_player(state) == 0


def test_sorted_orders_by_key_stably():
    game = load_source(GAME, "t.gdl")
    state = game.new_state(0)
    assert state.globals["order"] == [1, 0]       # b (key 1) before a (key 2)


def test_hidden_pieces_show_no_label_and_no_variables():
    game = load_source(GAME, "t.gdl")
    state = game.new_state(0)
    view = game.view(state, 1)                    # b looks at a's stack of two coins
    labels = [p["label"] for p in view["pieces"]]
    assert labels == ["a:Coin#2", "b:Coin#1", "?"]   # only the top coin of a's stack is known
    hidden = view["pieces"][-1]
    assert hidden == {"label": "?", "kind": "?", "owner": "a", "cell": "a1", "vars": {},
                      "mark": "?"}
    own = game.view(state, 0)
    assert [p["label"] for p in own["pieces"]] == ["a:Coin#1", "a:Coin#2", "b:Coin#1"]
    assert "a:Coin#1" not in json.dumps(view)


def test_visibility_can_depend_on_the_piece_itself():
    """`it` in `visible to`: a token's faces show to the seats that peeked at it."""
    import os
    from gdl.interpreter import load_game
    game = load_game(os.path.join(os.path.dirname(__file__), "rules", "peek.gdl"))
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "look Token#1"))     # seat a peeks
    assert game.view(state, 0)["pieces"][0]["vars"]["faces"] == "6"
    assert game.view(state, 1)["pieces"][0]["vars"]["faces"] == "?"


def test_deciding_and_current_phase():
    game = load_source(GAME.replace("var resumed = 0", "var resumed = 0\nvar seen = \"\"")
                       .replace("action ok() { return }",
                                "action ok() { seen = current_phase + text(deciding)  return }"),
                       "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "ask"))
    game.apply(state, game.parse_action(state, "ok"))
    assert state.globals["seen"] == "replyb"


def test_give_changes_a_pieces_owner():
    game = load_source(GAME.replace("action pass() { goto main for next(me) }",
                                    "action take() { give first(q in pieces(b)) to me }\n"
                                    "  action pass() { goto main for next(me) }"), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.parse_action(state, "take"))
    assert [p["owner"] for p in state.pieces.values()] == [0, 0, 0]
    # b no longer owns b:Coin#1 (a label keeps the seat that first owned the piece), so it
    # is a's top piece on d1; a's a1 stack still hides one
    assert [p["label"] for p in game.view(state, 1)["pieces"]] == ["a:Coin#2", "b:Coin#1", "?"]
