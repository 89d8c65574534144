"""`Game.rules` (`runtime/rules.py`): the read-only public description of a compiled rule
file that tools read instead of the engine's private members."""

import glob
import os

import attrs
import pytest

from gdl.interpreter import load_game, load_source

from tests.helpers import ROOT
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))

RULES = '''game "Tally"
seats a, b
board square(3, 3)
symbols up, down
kinds (cost) {
  Coin = 2
}
terrain pit = [@b2] "o"
zone pouch per seat
var total = 0
var seat.coins = 3 visible to viewer == owner
var piece.shine = 1
setup { goto p for a }
phase p turn {
  "Spend or pass."
  action spend(c in cells()) where c != @b2 {
    "Spend one coin."
    total += 1
  }
  action pass() { }
}
show score(s) = s.coins
invariant "total never negative": total >= 0
'''


def test_the_description_of_a_small_game():
    rules = load_source(RULES, "tally.gdl").rules
    assert (rules.name, rules.seats) == ("Tally", ("a", "b"))
    assert rules.board.width == 3 and rules.symbols == ("down", "up")
    assert dict(rules.kinds["Coin"]) == {"cost": 2} and rules.columns["cost"] == "int"
    assert rules.terrain["pit"][1] == "o"
    assert rules.zones["pouch"].per_seat and not rules.zones["pouch"].visible_to
    phase = rules.phases["p"]
    assert (phase.mode, phase.auto, phase.doc, phase.private) == ("turn", False,
                                                                   "Spend or pass.", False)
    spend = phase.actions[0]
    assert (spend.name, spend.index, spend.doc) == ("spend", 0, "Spend one coin.")
    assert [(p.name, p.type, p.domain) for p in spend.params] == [("c", "cell", "cells()")]
    assert rules.action_names == ["pass", "spend"]
    assert rules.doc("p") == "Spend or pass." and rules.doc("p", "pass") is None
    coins = rules.variables["seat"]["coins"]
    assert (coins.type, coins.initial, coins.visible_to) == ("int", 3, True)
    assert rules.variable_types["piece"] == {"shine": "int"}
    assert rules.shows == {"score"} and rules.invariants == ("total never negative",)
    assert rules.hides_pieces_or_variables and rules.hidden_information
    assert not rules.hides_pieces


def test_the_description_cannot_be_changed():
    rules = load_source(RULES, "tally.gdl").rules
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.name = "other"
    with pytest.raises(TypeError):
        rules.kinds["Coin"] = {}
    with pytest.raises(TypeError):
        rules.kinds["Coin"]["cost"] = 9
    with pytest.raises(TypeError):
        rules.variables["seat"]["coins"] = None


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_every_shipped_game_is_described(path):
    game = load_game(path)
    rules = game.rules
    assert rules.seats == tuple(game.seats) and rules.name == game.name
    assert rules.phases and all(phase.name == name for name, phase in rules.phases.items())
    for phase in rules.phases.values():
        for index, action in enumerate(phase.actions):
            assert action.index == index and action.phase == phase.name
            assert all(param.type is not None for param in action.params)
