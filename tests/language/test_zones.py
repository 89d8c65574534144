"""Zones off the board: hands, decks, piles (docs/language.md 11.4): `zone`, `put ... into`,
`pieces_in`, hidden zones; the checker's messages pinned whole; a small game with zones
(tests/rules/zones.gdl) plays to the end."""

from __future__ import annotations

import textwrap

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.play.transcript import play_game
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime.view import render

from tests.helpers import RULES, VALID, act, lines, logs, play_to_the_end, rule, rule_error, texts


ZONES = textwrap.dedent("""\
    kinds (worth) {
      Card = 1
    }
    zone hand per seat visible to viewer == owner
    zone pile
    """)


def zone_values(*exprs, before=""):
    """`text(e)` of each expression after `before` ran in the setup; three cards of a on a1,
    b1, c1 and one of b off the board."""
    setup = ("create Card for a at @a1\n  create Card for a at @b1\n"
             "  create Card for a at @c1\n  create Card for b at none\n  cards = pieces()\n  "
             + before.replace("\n", "\n  "))
    extra = ZONES + "var cards = []\nfn card(n) = nth(cards, n)\n"
    lines_ = "\n".join(f"  log text({e})" for e in exprs)
    source = (f"seats a, b\nboard square(3, 3)\n{extra}\nsetup {{\n  {setup}\n{lines_}\n"
              "  goto play for a\n}\nphase play turn { action pass() { goto play for next(me) } }\n")
    return logs(load_source(source, "zones.gdl").new_state(0).events)


def test_put_takes_a_piece_off_the_board_into_a_zone_as_its_newest():
    before = "put card(3) into hand of a\nput card(1) into hand of a\nput card(4) into pile"
    assert zone_values("pieces_in(hand, a)", "pieces_in(hand, b)", "pieces_in(pile)",
                       "pieces_at(@a1)", "card(1).cell", "card(2).cell", before=before) == [
        "[a:Card#3, a:Card#1]", "[]", "[b:Card#1]", "[]", "none", "b1"]


def test_put_from_one_zone_into_another_makes_it_the_newest_there():
    before = ("put card(1) into hand of a\nput card(2) into hand of a\nput card(3) into pile\n"
              "put card(1) into pile\nput card(3) into hand of b\nput card(3) into pile")
    assert zone_values("pieces_in(hand, a)", "pieces_in(hand, b)", "pieces_in(pile)",
                       before=before) == ["[a:Card#2]", "[]", "[a:Card#1, a:Card#3]"]


def test_the_zone_of_a_piece():
    before = "put card(1) into hand of a\nput card(4) into pile"
    assert zone_values("card(1).zone", "card(4).zone", "card(2).zone", "card(1).zone == hand",
                       "card(1).zone == pile", "card(2).zone == none",
                       "[p for p in pieces() where p.zone == hand]", before=before) == [
        "hand", "pile", "none", "true", "false", "true", "[a:Card#1]"]


def test_place_move_and_remove_take_a_piece_out_of_its_zone():
    before = ("put card(1) into hand of a\nput card(2) into hand of a\n"
              "put card(3) into hand of a\nplace card(1) at @c3\nmove card(2) along [@b3]\n"
              "remove card(3)")
    assert zone_values("pieces_in(hand, a)", "card(1).zone", "card(1).cell", "card(2).zone",
                       "card(2).cell", "card(3).zone", "alive(card(3))", before=before) == [
        "[]", "none", "c3", "none", "b3", "none", "false"]


def test_place_at_none_and_give_leave_a_piece_in_its_zone():
    """`place p at none` is not a way out of a zone, and a piece given to another seat stays
    in the zone of the seat it was put in."""
    before = "put card(1) into hand of a\nplace card(1) at none\nput card(2) into hand of a\n" \
             "give card(2) to b"
    assert zone_values("card(1).zone", "pieces_in(hand, a)", "pieces_in(hand, b)",
                       "card(2).owner", before=before) == [
        "hand", "[a:Card#1, a:Card#2]", "[]", "b"]


def test_a_removed_piece_cannot_be_put_into_a_zone():
    assert zone_values("pieces_in(pile)", "card(1).zone",
                       before="remove card(1)\nput card(1) into pile") == ["[]", "none"]


@pytest.mark.parametrize("expr, expected", [
    ("pieces_in(hand)", "run-time error: zone 'hand' is per seat: say whose "
                        "(pieces_in(hand, SEAT))"),
    ("pieces_in(pile, a)", "run-time error: zone 'pile' is shared (no seat)"),
], ids=["per-seat-without-seat", "shared-with-seat"])
def test_pieces_in_with_or_without_a_seat_is_checked_when_it_runs(expr, expected):
    with pytest.raises(GdlRuntimeError) as info:
        zone_values(expr)
    assert str(info.value).splitlines()[0] == f"zones.gdl:18:12: error: {expected}"


def test_put_into_a_zone_of_no_seat_is_a_run_time_error():
    with pytest.raises(GdlRuntimeError):
        zone_values("card(1).zone", before="put card(1) into hand of none")


def test_lanterns_deal_a_hidden_hand():
    game = rule("zones.gdl")
    state = game.new_state(0)
    with_zones = {p["label"]: p.get("zone") for p in game.view(state, None)["pieces"]}
    assert list(with_zones.values()).count("deck of blue") == 4
    assert list(with_zones.values()).count("deck of red") == 5
    [drawn] = [label for label, zone in with_zones.items() if zone == "hand of blue"]
    assert drawn == "blue:Five#5"
    assert texts(game, state)[:2] == ["lay blue:Five#5 a1", "lay blue:Five#5 b1"]
    assert texts(game, state)[-1] == "throw blue:Five#5"


def test_a_hidden_zone_shows_its_count_but_not_its_pieces():
    game = rule("zones.gdl")
    state = game.new_state(0)
    blue = render(game, game.view(state, 0)).splitlines()
    red = render(game, game.view(state, 1)).splitlines()
    assert blue[-3:] == ["  hand of blue: blue:Five#5", "  deck of blue: ?, ?, ?, ?",
                         "  deck of red: ?, ?, ?, ?, ?"]
    assert red[-3:] == ["  deck of blue: ?, ?, ?, ?", "  hand of blue: ?",
                        "  deck of red: ?, ?, ?, ?, ?"]
    hidden = [p for p in game.view(state, 1)["pieces"] if p.get("zone") == "hand of blue"]
    assert hidden == [{"label": "?", "kind": "?", "owner": "blue", "cell": None,
                       "zone": "hand of blue", "vars": {}, "mark": "?"}]
    everything = render(game, game.view(state, None)).splitlines()
    assert "  hand of blue: blue:Five#5" in everything
    assert "  deck of red: red:One#1, red:Two#2, red:Three#3, red:Four#4, red:Five#5" in everything


def test_action_texts_hide_a_piece_in_a_hidden_zone_from_the_viewer():
    game = rule("zones.gdl")
    state = game.new_state(0)
    assert texts(game, state, 0)[:2] == ["lay blue:Five#5 a1", "lay blue:Five#5 b1"]
    assert texts(game, state, 1) == ["lay ? a1", "lay ? b1", "lay ? c1", "lay ? d1",
                                     "lay ? e1", "throw ?"]


def test_a_laid_or_thrown_lantern_is_seen_by_everyone():
    game = rule("zones.gdl")
    state = game.new_state(0)
    act(game, state, "lay blue:Five#5 a1")               # red draws red:Three#3
    act(game, state, "lay red:Three#3 b1")              # blue draws; a1 has no empty neighbour
    [blue_card] = [p for p in game.view(state, 0)["pieces"] if p.get("zone") == "hand of blue"]
    act(game, state, f"throw {blue_card['label']}")
    red = render(game, game.view(state, 1)).splitlines()
    assert f"  discard: {blue_card['label']}" in red
    laid = {p["label"]: p["cell"] for p in game.view(state, 1)["pieces"] if p["cell"]}
    assert laid == {"blue:Five#5": "a1", "red:Three#3": "b1"}


def test_a_state_with_zones_survives_a_json_round_trip():
    game = rule("zones.gdl")
    state = game.new_state(3)
    act(game, state, game.action_text(state, game.legal_actions(state)[-1]))   # a throw
    copy = State.from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    for seat in (None, 0, 1):
        assert game.view(copy, seat) == game.view(state, seat)
    for each in (state, copy):
        act(game, each, texts(game, each)[0])
    assert copy.to_json() == state.to_json()


def test_a_variant_replaces_a_zone_by_name(tmp_path):
    variant = tmp_path / "open_hands.gdl"
    variant.write_text(f'extends "{RULES / "zones.gdl"}"\n'
                       'game "Lanterns (open hands)"\n'
                       "zone hand per seat\n")
    game = load_game(str(variant))
    state = game.new_state(0)
    red = render(game, game.view(state, 1)).splitlines()
    assert "  hand of blue: blue:Five#5" in red
    assert "  deck of red: ?, ?, ?, ?, ?" in red
    assert texts(game, state, 1)[0] == "lay blue:Five#5 a1"


def test_a_transcript_of_a_game_with_a_hidden_zone_has_the_view_of_each_seat():
    game = rule("zones.gdl")
    lines_, _ = play_game(game, game.new_state(0), [RandomAgent(1), RandomAgent(2)],
                          max_turns=2)
    assert any(line.startswith("  view of blue") for line in lines_)


@pytest.mark.parametrize("extra, expected", [
    ("zone hand per seat\ndef f(p) { put p into hand }", [
        "bad.gdl:13:12: error: zone 'hand' is per seat: say whose "
        "('put ... into hand of SEAT')",
        "    def f(p) { put p into hand }",
        "               ^"]),
    ("zone pile\ndef f(p) { put p into pile of a }", [
        "bad.gdl:13:31: error: zone 'pile' is shared: it has no 'of SEAT'",
        "    def f(p) { put p into pile of a }",
        "                                  ^"]),
    ("zone pile\ndef f(p) { put p into pyle }", [
        "bad.gdl:13:23: error: unknown zone 'pyle'",
        "    def f(p) { put p into pyle }",
        "                          ^",
        "did you mean 'pile'?"]),
    ("zone pile\ndef f(p) { put 3 into pile }", [
        "bad.gdl:13:16: error: type mismatch: 'put' needs a piece, but this is a number",
        "    def f(p) { put 3 into pile }",
        "                   ^"]),
    ("zone hand per seat\ndef f(p) { put p into hand of 3 }", [
        "bad.gdl:13:31: error: type mismatch: 'put ... of' needs a seat, but this is a number",
        "    def f(p) { put p into hand of 3 }",
        "                                  ^"]),
    ("zone pile visible to 3", [
        "bad.gdl:12:22: error: type mismatch: a visibility condition needs true/false, but "
        "this is a number",
        "    zone pile visible to 3",
        "                         ^"]),
    ("zone pile visible to it", [
        "bad.gdl:12:22: error: unknown name 'it'",
        "    zone pile visible to it",
        "                         ^"]),
    ("zone pile\nzone pile", [
        "bad.gdl:13:1: error: 'pile' is defined twice; the first definition is at line 12",
        "    zone pile",
        "    ^"]),
    ("kinds (size) { pile = 5 }\nzone pile", [
        "bad.gdl:13:1: error: 'pile' is defined twice; the first definition is at line 12",
        "    zone pile",
        "    ^"]),
    ("zone pile\nfn f() = pieces_in(3)\ndef g() { let n = len(f()) }", [
        "bad.gdl:13:10: error: pieces_in(): argument 1 must be a zone, not a number",
        "    fn f() = pieces_in(3)",
        "             ^"]),
    ("zone pile\nvar z = none\ndef g(p) { z = p.zone  z = 3 }", [
        "bad.gdl:14:28: error: type mismatch: 'z' holds a zone, but this is a number",
        "    def g(p) { z = p.zone  z = 3 }",
        "                               ^"]),
], ids=["per-seat-needs-of", "shared-refuses-of", "unknown-zone", "put-a-number",
        "of-a-number", "visibility-not-bool", "visibility-it", "zone-twice", "zone-and-kind",
        "pieces-in-a-number", "zone-variable"])
def test_check_errors(extra, expected):
    assert rule_error(VALID + extra + "\n") == lines(*expected)


def test_the_new_words_are_still_names():
    source = VALID + "var per = 1\nvar into = 2\nvar put = 3\nvar zone = 4\nvar from = 5\n"
    assert load_source(source, "t.gdl").new_state(0).globals == {
        "per": 1, "into": 2, "put": 3, "zone": 4, "from": 5}


def test_random_games_end_and_round_trip():
    play_to_the_end(rule("zones.gdl"), "zones.gdl", 300, draw=True)


@pytest.mark.parametrize("path", ["games/classic/hearts.gdl", "games/classic/backgammon.gdl",
                                  "games/galaxy_of_d.gdl", "games/classic/leduc_poker.gdl"])
def test_the_zone_index_is_what_the_pieces_say_after_every_decision(path):
    """`pieces_in` reads `State.zoned`, kept by put, place and remove: after every decision
    of random games it equals the index rebuilt from the pieces' records (a saved state
    loaded again), and a clone's is its own."""
    import random
    game = load_game(path)
    for seed in range(3):
        rng, state = random.Random(seed), game.new_state(seed)
        for _ in range(300):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.randrange(len(legal))])
            assert state.zoned == State.from_json(state.to_json()).zoned
        copy = state.clone()
        for pids in copy.zoned.values():
            pids.append(-1)
        assert all(-1 not in pids for pids in state.zoned.values())
