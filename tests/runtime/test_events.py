"""Events (`runtime/events.py`): typed records read by field, with a JSON form that reads
back to the same record, for every kind the shipped games produce, narrated or not."""

import glob
import json
import os
import random

import pytest

from gdl.interpreter import load_game
from gdl.interpreter.runtime import events

from tests.helpers import ROOT
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "*.gdl")))


def played_events(path, narrate, seed, decisions=150):
    game = load_game(path)
    state = game.new_state(seed, narrate=narrate)
    found = list(state.events)
    chooser = random.Random(seed)
    for _ in range(decisions):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        found += game.apply(state, legal[chooser.randrange(len(legal))], check=False)
    return found


@pytest.mark.parametrize("narrate", [False, True], ids=["quiet", "narrated"])
@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_every_event_reads_back_from_its_json(path, narrate):
    found = played_events(path, narrate, seed=3)
    assert found
    for event in found:
        assert isinstance(event, events.Event)
        data = json.loads(json.dumps(event.to_json()))
        assert data[0] == event.kind
        assert events.event_from_json(data) == event


def test_narration_adds_piece_events_and_who_rolled():
    path = os.path.join(ROOT, "games", "space_war.gdl")
    loud = played_events(path, True, seed=5, decisions=60)
    quiet = played_events(path, False, seed=5, decisions=60)
    assert any(isinstance(e, events.PieceEvent) for e in loud)
    assert not any(isinstance(e, events.PieceEvent) for e in quiet)
    assert all(e.by is not None for e in loud if isinstance(e, events.Roll))
    assert all(e.by is None for e in quiet if isinstance(e, events.Roll))


@pytest.mark.parametrize("event, data", [
    (events.Roll(6, 4), ["roll", 6, 4]),
    (events.Roll(6, 4, True), ["roll", 6, 4, "fixed"]),
    (events.Roll(6, 4, False, events.By("fire", 1)), ["roll", 6, 4, "", "fire", 1]),
    (events.Pick(3, 2), ["pick", 3, 2]),
    (events.Shuffle(8), ["shuffle", 8]),
    (events.Log("hi"), ["log", "hi"]),
    (events.Out(2), ["out", 2]),
    (events.Auto(0, "park"), ["auto", 0, "park"]),
    (events.Reveal(1, "throw rock", ("throw rock", "throw ?")),
     ["reveal", 1, "throw rock", ["throw rock", "throw ?"]]),
    (events.Moved("A#1", "red", events.By("move", 0), (1,), "a1", "b2"),
     ["moved", "A#1", "red", "a1", "b2", "move", 0, [1]]),
    (events.Given("A#1", None, events.By(None, None), (), "blue"),
     ["given", "A#1", None, "blue", None, None, []]),
    (events.Changed("K#1", "red", events.By("crown", 1), (0,), "P#3"),
     ["changed", "K#1", "red", "P#3", "crown", 1, [0]]),
])
def test_the_json_form_of_each_kind(event, data):
    assert event.to_json() == data
    assert events.event_from_json(data) == event


def test_a_played_action_is_read_as_each_seat_may_read_it():
    shown = events.Reveal(0, "buy Ship#3", ("buy Ship#3", "buy ?"))
    assert (shown.read_by(None), shown.read_by(0), shown.read_by(1)) == (
        "buy Ship#3", "buy Ship#3", "buy ?")
    assert events.Auto(1, "park").read_by(0) == "park"
