"""Fixed picks and shuffles (docs/language.md 15.3 and 16): `new_state(seed, forced=...)`
entries `["pick", items or None, index]` and `["shuffle", order]`, and the scenario lines
`pick ITEMS INDEX` and `shuffle ORDER`, as dice are fixed; their events, errors and
failures pinned."""

import os

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlError
from gdl.interpreter.play.scenarios.runner import run_scenario
from gdl.interpreter.play.transcript import event_text
from gdl.interpreter.runtime import events

from tests.helpers import ROOT
DEAL = os.path.join(ROOT, "tests", "rules", "deal.gdl")


def play_out(game, state):
    told = []
    while not game.is_terminal(state):
        told += game.apply(state, game.legal_actions(state)[0])
    return told


def test_the_api_fixes_a_shuffle_and_picks():
    game = load_game(DEAL)
    state = game.new_state(0, forced=[["shuffle", [5, 4, 3, 2, 1]], ["pick", 5, 1],
                                      ["pick", None, 4]])
    assert state.globals["deck"] == [5, 4, 3, 2, 1]
    assert [e.to_json() for e in state.events] == [["shuffle", 5, "fixed"]]
    told = play_out(game, state)
    assert [state.seat_vars[s]["card"] for s in (0, 1)] == [5, 1]
    assert state.result == {"winners": [0], "draw": False}
    picks = [e for e in told if isinstance(e, events.Pick)]
    assert [e.to_json() for e in picks] == [["pick", 5, 1, "fixed"], ["pick", 4, 4, "fixed"]]
    assert [event_text(game, e) for e in picks] == ["pick 1 of 5 (fixed)", "pick 4 of 4 (fixed)"]
    assert events.event_from_json(picks[0].to_json()) == picks[0]
    assert events.event_from_json(["shuffle", 5, "fixed"]) == events.Shuffle(5, True)


def test_unfixed_chance_is_unchanged_and_a_pick_of_another_size_is_drawn():
    game = load_game(DEAL)
    plain = game.new_state(7)
    fixed = game.new_state(7, forced=[["pick", 3, 1]])    # no pick of 3 items: never used
    assert play_out(game, plain) == play_out(game, fixed)
    assert fixed.forced_picks == [[3, 1]]
    assert all(len(e.to_json()) == 3 for e in play_out(game, game.new_state(7))
               if isinstance(e, events.Pick))


@pytest.mark.parametrize("entry, message", [
    (["pick", 3, 4], "a fixed pick is ['pick', items or None, index from 1 to items], not "
                     "['pick', 3, 4]"),
    (["pick", 3], "a fixed pick is ['pick', items or None, index from 1 to items], not "
                  "['pick', 3]"),
    (["shuffle", [1, 1, 2]], "a fixed shuffle is ['shuffle', an order of 1..n], not "
                             "['shuffle', [1, 1, 2]]"),
    (["pick", None, 10 ** 19], "a number of 20 digits, where the index of a fixed pick is "
                               "at most 1,000,000,000,000,000,000 either way"),
    # a die shows 1 to its sides, a whole number (true is no number, though Python's 1)
    ([6, 7], "a fixed die is [sides or None, value from 1 to sides], not [6, 7]"),
    ([None, 0], "a fixed die is [sides or None, value from 1 to sides], not [None, 0]"),
    ([6, 2.0], "a fixed die is [sides or None, value from 1 to sides], not [6, 2.0]"),
    ([None, True], "a fixed die is [sides or None, value from 1 to sides], not [None, True]"),
    ([True, 1], "a fixed die is [sides or None, value from 1 to sides], not [True, 1]"),
    ([6], "a fixed die is [sides or None, value from 1 to sides], not [6]"),
    # at most limits.MAX_NUMBER, as a number of a saved state (docs/language.md 14.1)
    ([None, 10 ** 18 + 1], "a number of 19 digits, where a fixed die shows at most "
                           "1,000,000,000,000,000,000 either way"),
    ([10 ** 20, 10 ** 19], "a number of 20 digits, where a fixed die shows at most "
                           "1,000,000,000,000,000,000 either way"),
])
def test_a_bad_forced_entry_is_refused(entry, message):
    with pytest.raises(GdlError) as caught:
        load_game(DEAL).new_state(0, forced=[entry])
    assert caught.value.message == message


SHAPES = ("a die [sides or None, value], a pick ['pick', items or None, index] or a shuffle "
          "['shuffle', [an order of 1..n]]")


@pytest.mark.parametrize("forced, message", [
    # forced is a list of results, each a list: not a number, a text, a mapping or none
    (5, f"forced is a list of fixed chance results, each {SHAPES}; not 5"),
    ("6 3", f"forced is a list of fixed chance results, each {SHAPES}; not '6 3'"),
    (b"\x06\x03", f"forced is a list of fixed chance results, each {SHAPES}; not "
                  "b'\\x06\\x03'"),
    ({6: 3}, f"forced is a list of fixed chance results, each {SHAPES}; not {{6: 3}}"),
    (None, f"forced is a list of fixed chance results, each {SHAPES}; not None"),
    ([5], f"a fixed chance result of forced is a list: {SHAPES}; not 5"),
    ([[6, 3], "63"], f"a fixed chance result of forced is a list: {SHAPES}; not '63'"),
    ([{"sides": 6, "value": 3}], f"a fixed chance result of forced is a list: {SHAPES}; not "
                                 "{'sides': 6, 'value': 3}"),
    ([None], f"a fixed chance result of forced is a list: {SHAPES}; not None"),
    # inside a result, numbers where numbers are: whole ones
    ([[6, "3"]], "a fixed die is [sides or None, value from 1 to sides], not [6, '3']"),
    ([[[6], 3]], "a fixed die is [sides or None, value from 1 to sides], not [[6], 3]"),
    ([["shuffle", [1, "2"]]], "a fixed shuffle is ['shuffle', an order of 1..n], not "
                              "['shuffle', [1, '2']]"),
    ([["shuffle", [2.0, 1]]], "a fixed shuffle is ['shuffle', an order of 1..n], not "
                              "['shuffle', [2.0, 1]]"),
    ([["shuffle", [True, 2]]], "a fixed shuffle is ['shuffle', an order of 1..n], not "
                               "['shuffle', [True, 2]]"),
    ([["pick", [5], 1]], "a fixed pick is ['pick', items or None, index from 1 to items], "
                         "not ['pick', [5], 1]"),
])
def test_forced_of_another_shape_is_refused_saying_its_shape(forced, message):
    with pytest.raises(GdlError) as caught:
        load_game(DEAL).new_state(0, forced=forced)
    assert caught.value.message == message


def test_forced_may_be_any_sequence_of_lists_or_tuples():
    state = load_game(DEAL).new_state(0, forced=iter([(6, 3), ["pick", None, 2],
                                                      ("shuffle", (2, 1))]))
    assert (state.forced, state.forced_picks, state.forced_shuffles) == (
        [[6, 3]], [[None, 2]], [[2, 1]])


def test_a_forced_die_may_show_up_to_10_to_the_18():
    state = load_game(DEAL).new_state(0, forced=[[None, 10 ** 18], [10 ** 20, 10 ** 18]])
    assert state.forced == [[None, 10 ** 18], [10 ** 20, 10 ** 18]]


def scenario(tmp_path, body):
    path = tmp_path / "deal.scenario"
    path.write_text(f"rules {DEAL}\n" + body, encoding="utf-8")
    return [f.replace(str(path), "S") for f in run_scenario(str(path))]


def test_a_scenario_fixes_the_deal(tmp_path):
    assert scenario(tmp_path, "shuffle 5 4 3 2 1\npick 5 2\npick any 1\nplay take\n"
                              "expect a.card == 4\nplay take\nexpect b.card == 5\n"
                              "expect winner b\n") == []


def test_a_fixed_pick_of_another_size_fails_its_line(tmp_path):
    assert scenario(tmp_path, "pick 3 1\nplay take\nexpect a.card > 0\n") == [
        "S:2: expected the next pick to be a pick of 3 items (pick 3 1), got a pick of 5 "
        "items first, by line 3"]


def test_a_fixed_pick_past_its_items_fails_its_line(tmp_path):
    assert scenario(tmp_path, "pick 1 2\n") == [
        "S:2:1: error: a pick of 1 item takes item 1 to 1, not 2\n    pick 1 2\n    ^"]


def test_an_unused_fixed_deal_fails_its_line(tmp_path):
    assert scenario(tmp_path, "play take\nshuffle 2 1\nexpect a.card > 0\n") == [
        "S:3: expected 'shuffle 2 1' to be used, got no shuffle of 2 items after it"]


@pytest.mark.parametrize("line, message", [
    ("pick 3 4", "a pick of 3 items takes item 1 to 3, not 4"),
    ("pick 0 1", "a pick is from 1 item or more, not 0"),
    ("pick 3", "expected 'pick ITEMS INDEX' or 'pick any INDEX'"),
    ("shuffle 1 3", "'shuffle 1 3' is not an order of 1 to 2: each place once"),
    ("shuffle", "expected 'shuffle ORDER': the places of the items, from 1, in their shuffled "
                "order (like 'shuffle 3 1 2')"),
])
def test_a_malformed_deal_line_is_an_error(tmp_path, line, message):
    failures = scenario(tmp_path, line + "\nexpect playing\n")
    assert len(failures) == 1 and failures[0].startswith(f"S:2:1: error: {message}\n")
