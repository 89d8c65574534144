"""Quantifiers (docs/language.md 6.3): `sorted`."""

from __future__ import annotations

from gdl.interpreter import load_source

from tests.helpers import COINS


def test_sorted_orders_by_key_stably():
    game = load_source(COINS, "t.gdl")
    state = game.new_state(0)
    assert state.globals["order"] == [1, 0]       # b (key 1) before a (key 2)
