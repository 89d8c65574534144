"""Narration: on a state made with `game.new_state(seed, narrate=True)`, events tell what pieces did and which rule did it, as
each seat may see it; `narrate.changes` tells what a seat saw change in the variables."""

import os
import random

from gdl.interpreter import load_game
from gdl.interpreter.play.render.narrate import changes
from gdl.interpreter.play.transcript import event_text
from gdl.interpreter.runtime.events import as_json

from tests.helpers import ROOT
RULES = os.path.join(ROOT, "tests", "rules", "narration.gdl")


def narrated(seed=1):
    game = load_game(RULES)
    return game, game.new_state(seed, narrate=True)


def play(game, state, text, viewer=None):
    events = game.apply(state, game.parse_action(state, text))
    return [event_text(game, e, viewer) for e in events]


def test_setup_tells_what_it_created_and_hides_the_hidden_piece():
    game, state = narrated()
    assert [event_text(game, e) for e in state.events] == [
        "blue:Scout#1 created at a1 (by setup)", "blue:Spy#2 created at b1 (by setup)"]
    assert [event_text(game, e, 1) for e in state.events] == [
        "blue:Scout#1 created at a1 (by setup)", "a hidden piece of blue created at b1 (by setup)"]
    assert [event_text(game, e, 0) for e in state.events][1] == \
        "blue:Spy#2 created at b1 (by setup)"


def test_a_move_is_one_event_from_start_to_end():
    game, state = narrated()
    assert play(game, state, "run blue:Scout#1 b1") == [
        "blue:Scout#1 moved from a1 to b1 (by run, blue)"]


def test_a_removal_names_the_innermost_rule_and_the_cell():
    """The trigger on the pit calls `fall`, whose `remove` is the one narrated."""
    game, state = narrated()
    assert play(game, state, "run blue:Spy#2 d1", viewer=1) == [
        "a hidden piece of blue removed at c1 (by fall, blue)"]
    game, state = narrated()
    assert play(game, state, "run blue:Spy#2 d1", viewer=0) == [
        "blue:Spy#2 removed at c1 (by fall, blue)"]


def test_place_put_give_and_dice():
    game, state = narrated()
    assert play(game, state, "jump blue:Scout#1") == [
        "blue:Scout#1 moved from a1 to d1 (by jump, blue)"]
    assert play(game, state, "hurt blue:Scout#1") == ["roll d6 = 4 (by hurt, red)"]
    assert play(game, state, "pocket blue:Scout#1") == [
        "blue:Scout#1 put into hand of blue (by pocket, blue)"]


def test_put_into_a_hidden_zone_hides_the_piece_from_the_others():
    game, state = narrated()
    play(game, state, "hurt blue:Scout#1")      # blue
    play(game, state, "hurt blue:Scout#1")      # red
    events = game.apply(state, game.parse_action(state, "pocket blue:Scout#1"))
    assert [event_text(game, e, 1) for e in events] == [
        "a hidden piece of blue put into hand of blue (by pocket, blue)"]
    assert [event_text(game, e, 0) for e in events] == [
        "blue:Scout#1 put into hand of blue (by pocket, blue)"]


def test_give_tells_the_new_owner():
    game, state = narrated()
    assert play(game, state, "hand_over blue:Scout#1") == [
        "blue:Scout#1 (red) given to red (by hand_over, blue)"]


def test_without_narrate_events_are_as_before_and_games_the_same():
    """Narration adds events and nothing else: the same decisions give the same states."""
    plain = load_game(os.path.join(ROOT, "games", "galaxy_of_d.gdl"))
    told = load_game(os.path.join(ROOT, "games", "galaxy_of_d.gdl"))
    a, b = plain.new_state(5), told.new_state(5, narrate=True)
    rng = random.Random(5)
    kinds = set()
    for _ in range(300):
        if plain.is_terminal(a):
            break
        legal = plain.legal_actions(a)
        assert told.legal_actions(b) == legal
        action = rng.choice(legal)
        quiet, loud = plain.apply(a, action), told.apply(b, action)
        loud, quiet = as_json(loud), as_json(quiet)
        assert [e for e in loud if e[0] not in ("created", "moved", "removed", "put", "given",
                                                  "changed")
                and e[0] != "roll"] == [e for e in quiet if e[0] != "roll"]
        assert [e[:3] for e in loud if e[0] == "roll"] == [e[:3] for e in quiet
                                                           if e[0] == "roll"]
        kinds |= {e[0] for e in loud}
    assert a.pieces == b.pieces and a.seat_vars == b.seat_vars and a.globals == b.globals
    assert {"moved", "roll"} <= kinds


def test_changes_use_the_rule_files_words_and_never_a_hidden_value():
    game, state = narrated()
    before = [game.view(state, s) for s in (0, 1)]
    play(game, state, "hurt blue:Scout#1")
    after = [game.view(state, s) for s in (0, 1)]
    assert changes(before[0], after[0]) == ["blue: score 1 (was score 0)",
                                            "blue:Scout#1 hp: 2 -> -2"]
    # red sees the same: the scout is not hidden from it
    assert changes(before[1], after[1]) == changes(before[0], after[0])
    # the spy is hidden from red: a change of its hp never reaches red
    play(game, state, "hurt blue:Scout#1")      # red's turn
    before = [game.view(state, s) for s in (0, 1)]
    play(game, state, "hurt blue:Spy#2")
    after = [game.view(state, s) for s in (0, 1)]
    assert changes(before[0], after[0]) == ["blue: score 2 (was score 1)",
                                            "blue:Spy#2 hp: 2 -> -4"]
    assert changes(before[1], after[1]) == ["blue: score 2 (was score 1)"]


GAME_LINE = """game "Lines"
seats a, b
board square(2, 1)
var round = 1
var secret = 7 visible to viewer == a
var seat.gold = 0
show seat(s) = join([text(s.gold) + " gold", if s == me then "you" else ""], ", ")
show game(s) = join(["round " + text(round), if me == a then "secret " + text(secret)
                     else ""], ", ")
setup { goto p for a }
phase p { action go() { round += 1  me.gold += 2  goto p for next(me) } }
"""


def test_show_game_replaces_the_globals_and_join_leaves_out_empty_parts():
    from gdl.interpreter import load_source
    from gdl.interpreter.runtime.view import render
    game = load_source(GAME_LINE, "lines.gdl")
    state = game.new_state(0)
    a_view, b_view = game.view(state, 0), game.view(state, 1)
    assert (a_view["status"], b_view["status"]) == ("round 1, secret 7", "round 1")
    drawn = render(game, b_view).splitlines()
    assert "  round 1" in drawn and "  b: 0 gold, you" in drawn and "  a: 0 gold" in drawn
    assert not any("secret" in line or "round=" in line for line in drawn)
    game.apply(state, game.legal_actions(state)[0])
    assert changes(b_view, game.view(state, 1)) == ["game: round 2 (was round 1)",
                                                    "a: 2 gold (was 0 gold)"]


def test_a_run_of_pieces_created_by_one_rule_is_one_line():
    from gdl.interpreter.play.render.narrate import event_lines
    game = load_game(os.path.join(ROOT, "games", "space_war.gdl"))
    state = game.new_state(1, narrate=True)
    game.apply(state, game.parse_action(state, "side south"))
    events = game.apply(state, game.parse_action(state, "station d11"))
    assert event_lines(game, events, 0) == [
        "created by station, blue: Station#1 d11, Fighter#1 a12, Fighter#2 b12, Fighter#3 c12, "
        "Fighter#4 d12, Fighter#5 e12, Fighter#6 f12, Fighter#7 g12, 1 more"]


def test_hidden_pieces_in_a_run_are_only_counted():
    from gdl.interpreter.play.render.narrate import event_lines
    game = load_game(os.path.join(ROOT, "games", "game.gdl"))
    state = game.new_state(3, narrate=True)
    lines = event_lines(game, state.events, 0)
    assert any(line.startswith("created by setup: ") and line.endswith(" hidden pieces")
               for line in lines)
    assert not any("DiceToken" in line or "IpecToken" in line for line in lines)
    full = event_lines(game, state.events, None)
    assert any("DiceToken#1" in line for line in full)


def test_a_deal_into_zones_is_one_line_naming_only_what_the_seat_may_see():
    from gdl.interpreter.play.render.narrate import event_lines
    game = load_game(os.path.join(ROOT, "games", "classic", "hearts.gdl"))
    state = game.new_state(2, narrate=True)
    dealt = [line for line in event_lines(game, state.events, 0) if line.startswith("put ")]
    assert len(dealt) == 1, dealt      # 52 lines before, one a card
    own, *others = dealt[0].removeprefix("put by setup: ").split("; ")
    assert own.startswith("into hand of north: ") and own.endswith(", 5 more")
    assert others == [f"into hand of {seat}: 13 hidden pieces"
                      for seat in ("east", "south", "west")]


def test_narration_belongs_to_a_state_not_to_the_game():
    from gdl.interpreter.runtime.events import PieceEvent
    from gdl.interpreter.runtime.state import State
    game = load_game(os.path.join(ROOT, "games", "space_war.gdl"))
    loud, quiet = game.new_state(1, narrate=True), game.new_state(1)
    assert loud == quiet and hash(loud) == hash(quiet)      # not part of the position
    copy = loud.clone()
    for state in (loud, quiet, copy):
        game.apply(state, game.parse_action(state, "side south"))
    told = {name: any(isinstance(e, PieceEvent) for e in game.apply(
        state, game.parse_action(state, "station d11")))
        for name, state in (("loud", loud), ("quiet", quiet), ("copy", copy))}
    assert told == {"loud": True, "quiet": False, "copy": True}
    assert not State.from_json(loud.to_json()).narrate


def test_a_changed_list_in_a_worded_line_is_one_part():
    """GAME's 'round 7, order [blue, red, green, yellow]': a list's commas do not cut it."""
    before = {"status": "round 1, order [red, yellow]", "globals": {}, "seats": [],
              "pieces": []}
    after = dict(before, status="round 1, order [yellow, red]")
    assert changes(before, after) == ["game: order [yellow, red] (was order [red, yellow])"]
