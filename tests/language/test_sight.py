"""Pieces out of sight (docs/language.md 11.3): a kinds table's `visible to` keeps a piece of
its kinds out of a seat's view altogether (no entry, no mark, no count), names it `?` in
action texts, tells that seat nothing of what it did, and lets a seat that learns of it see
it; determinization puts it somewhere else; the checker's messages pinned whole
(tests/rules/sight.gdl)."""

from __future__ import annotations

import json

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.play.agents.determinize import Determinizer, Stream
from gdl.interpreter.play.render.narrate import event_lines
from gdl.interpreter.runtime import events as ev
from gdl.interpreter.runtime.view import render

from tests.helpers import RULES, VALID, act, gdl, lines, play_to_the_end, rule, rule_error, texts


def laid():
    """Mines after blue laid one on c2 and red one on a1 (red's b1 laid by the setup)."""
    game = rule("sight.gdl")
    state = game.new_state(0, narrate=True)
    act(game, state, "lay c2")
    act(game, state, "lay a1")
    return game, state


def cells_of(view):
    return sorted((p["owner"], p["cell"]) for p in view["pieces"])


def test_a_seat_sees_its_own_pieces_and_none_of_the_others_out_of_its_sight():
    game, state = laid()
    assert cells_of(game.view(state, 0)) == [("blue", "a2"), ("blue", "c2")]
    assert cells_of(game.view(state, 1)) == [("blue", "a2"), ("red", "a1"), ("red", "b1")]
    assert cells_of(game.view(state, None)) == [
        ("blue", "a2"), ("blue", "c2"), ("red", "a1"), ("red", "b1")]
    drawn = render(game, game.view(state, 0))
    assert "r*" not in drawn and "red:" not in drawn.replace("red: probed=?", "")


def test_a_seat_that_learns_of_a_piece_sees_it():
    game, state = laid()
    act(game, state, "probe a1")
    assert ("red", "a1") in cells_of(game.view(state, 0))
    assert ("red", "b1") not in cells_of(game.view(state, 0))


def test_action_texts_name_a_piece_out_of_sight_as_unknown():
    game, state = laid()
    assert texts(game, state, 0)[-2:] == ["lift ?", "lift ?"]
    assert texts(game, state)[-2:] == ["lift red:Mine#1", "lift red:Mine#2"]


def test_a_seat_is_told_nothing_of_what_a_piece_out_of_its_sight_did():
    game = rule("sight.gdl")
    events = game.new_state(0, narrate=True).events
    assert event_lines(game, events, 0) == ["blue:Flag#1 created at a2 (by setup)"]
    assert event_lines(game, events, 1) == ["red:Mine#1 created at b1 (by setup)",
                                           "blue:Flag#1 created at a2 (by setup)"]
    assert events[0].unseen == (0,) and events[1].unseen == ()


def test_an_event_out_of_sight_survives_a_json_round_trip():
    events = rule("sight.gdl").new_state(0, narrate=True).events
    data = [event.to_json() for event in events]
    assert data[0][-1] == [0] and len(data[1]) == len(data[0]) - 1
    assert [ev.event_from_json(json.loads(json.dumps(d))) for d in data] == events


def test_a_determinization_puts_pieces_out_of_sight_where_the_seat_sees_no_piece():
    game, state = laid()
    seen = {json.dumps(game.view(state, 0), sort_keys=True)}
    cells = set()
    for seed in range(12):
        other = Determinizer(game, state, 0).sample(Stream(seed))
        seen.add(json.dumps(game.view(other, 0), sort_keys=True))
        red = sorted(p["cell"] for p in other.pieces.values() if p["owner"] == 1)
        assert len(set(red)) == 2 and not {0 * 3 + 2 + 3, 3} & set(red)  # not c2 nor a2
        cells.add(tuple(red))
        assert sorted(other.at) == sorted({p["cell"] for p in other.pieces.values()})
    assert len(seen) == 1 and len(cells) > 1


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("sight.gdl"), "sight.gdl", 200)


def test_the_rule_file_is_formatted():
    result = gdl("fmt", "--check", "tests/rules/sight.gdl", "games/classic/phantom_ttt.gdl")
    assert result.returncode == 0, result.stdout + result.stderr


TABLE = 'kinds (symbol) visible to {} {{\n  Mine = "*"\n}}\n'


@pytest.mark.parametrize("condition, expected", [
    ("3", [
        "bad.gdl:12:27: error: type mismatch: a visibility condition needs true/false, but "
        "this is a number",
        "    kinds (symbol) visible to 3 {",
        "                              ^"]),
    ("seer == owner", [
        "bad.gdl:12:27: error: unknown name 'seer'",
        "    kinds (symbol) visible to seer == owner {",
        "                              ^",
        "did you mean 'viewer'?"]),
    ("it.hp > 0", [
        "bad.gdl:12:27: error: a piece has no field 'hp'",
        "    kinds (symbol) visible to it.hp > 0 {",
        "                              ^"]),
], ids=["not-bool", "unknown-name", "unknown-field"])
def test_check_errors(condition, expected):
    assert rule_error(VALID + TABLE.format(condition)) == lines(*expected)


def test_a_game_without_the_declaration_is_unchanged():
    game = load_source(VALID + 'kinds (symbol) {\n  Mine = "*"\n}\n', "t.gdl")
    assert not game.rules.hidden_information


def test_a_variant_keeps_the_base_tables_sight(tmp_path):
    base = tmp_path / "base.gdl"
    base.write_text((RULES / "sight.gdl").read_text())
    variant = tmp_path / "variant.gdl"
    variant.write_text('extends "base.gdl"\nkinds (symbol) {\n  Mine = "m"\n}\n')
    game = load_game(str(variant))
    state = game.new_state(0)
    assert game.view(state, 0)["pieces"] == [
        p for p in game.view(state, None)["pieces"] if p["owner"] == "blue"]
