"""games/classic/battleship.gdl against OpenSpiel's battleship (its defaults: 10x10 grids,
ships [2;3;3;4;5] each worth 1, 50 shots a seat, repeated shots allowed, loss multiplier 1).

OpenSpiel writes `Pl0: place ship horizontally with top-left corner in (3, 7)` and
`Pl0: shoot at (2, 6)`, a cell as (row from the top, column), both from 0; gdl writes
`place Destroyer across h7` and `shoot r8`, the two grids side by side on one board (one's
on columns a-j, two's on l-u). Meaning: `h 3 7`, `v 3 7`, `shot 2 6` (OpenSpiel's row r is
gdl's row 10 - r, its column c gdl's column c + 1, + 11 on two's grid).

Each seat's view is compared with OpenSpiel's information state of that player
(`T=12 /h_3_7/v_6_8/shot_2_6:W/oppshot_1_2`: the moves so far, its own ship placements,
each of its shots with what it was called, W water, H hit, S sunk, and the other's shots).
From gdl that string is written again: the placements are the texts of placements the
seat read (in a `secret` phase, only its own), the shots the seats' public `shots` and
`calls`, and the moves the other made while placing follow from the seat deciding. To it
both forms add every piece the seat sees, by owner (`me`/`other`), kind and OpenSpiel cell:
from OpenSpiel's string that is its own ships, a miss marker where its shot found water, a
hit marker where it hit, and a miss marker of the other's where the other's shot found
water on its grid; so a seat that sees one cell of the other's fleet, or is not shown a
hit, disagrees.
"""

from __future__ import annotations

import random
import re

import pyspiel
import pytest

from gdl.interpreter import load_source
from gdl.interpreter.runtime.view import View

from .differential import CLASSIC, Pairing, check, games_in_suite, play

SIZE = 10
FLEET = ["Destroyer", "Cruiser", "Submarine", "Battleship", "Carrier"]
LENGTHS = [2, 3, 3, 4, 5]
CALLS = {"miss": "W", "hit": "H", "sunk": "S"}


def spiel_cell(cell: str) -> tuple[int, int]:
    """gdl's `r8` -> OpenSpiel's (row, column) on the grid it lies on."""
    found = re.fullmatch(r"([a-u])(\d+)", cell)
    assert found is not None, cell
    column = ord(found.group(1)) - ord("a")
    return SIZE - int(found.group(2)), column - 11 if column > 10 else column


def gdl_meaning(text: str) -> str:
    """`place Destroyer across h7` -> `h 3 7`; `shoot r8` -> `shot 2 6`."""
    words = text.split()
    row, column = spiel_cell(words[-1])
    if words[0] == "place":
        return f"{'h' if words[2] == 'across' else 'v'} {row} {column}"
    return f"shot {row} {column}"


def spiel_meaning(text: str) -> str:
    found = re.fullmatch(r"Pl[01]: (?:place ship (horizontally|vertically) with top-left "
                         r"corner in|shoot at) \((\d+), (\d+)\)", text)
    assert found is not None, text
    way, row, column = found.groups()
    return f"{way[0] if way else 'shot'} {row} {column}"


def _cells(listed: str) -> list[str]:
    return [c for c in listed.strip("[]").split(", ") if c]


def gdl_information(view: View, read: list[str]) -> str:
    me = str(view["seat"])
    seat = ["one", "two"].index(me)
    by_name = {s["name"]: s["vars"] for s in view["seats"]}
    shots = [_cells(by_name[name]["shots"]) for name in ("one", "two")]
    calls = [_cells(by_name[name]["calls"]) for name in ("one", "two")]
    placed = [f"/{way}_{row}_{column}" for way, row, column in
              (m.split() for m in read if m[0] in "hv")]   # the placements the seat read
    if view["phase"] == "deploy":    # the other placed as many, or one more or less
        other = len(placed) + (view["deciding"] == "two") * (1 if seat == 1 else -1)
    else:
        other = len(placed)
    moves = len(placed) + other + len(shots[0]) + len(shots[1])
    sequence = ""
    for n in range(len(shots[0])):       # one fires first, then they take turns
        for shooter in (0, 1)[:1 + (n < len(shots[1]))]:
            row, column = spiel_cell(shots[shooter][n])
            sequence += (f"/shot_{row}_{column}:{CALLS[calls[seat][n]]}" if shooter == seat
                         else f"/oppshot_{row}_{column}")
    seen = sorted(("me" if p["owner"] == me else "other", p["kind"], *spiel_cell(str(p["cell"])))
                  for p in view["pieces"])
    return f"T={moves} {''.join(placed)}{sequence} | {seen}"


def spiel_information(text: str) -> str:
    head, _, rest = text.partition(" ")
    own: dict[tuple[int, int], str] = {}
    markers: set[tuple[str, str, int, int]] = set()
    opponent_shots = []
    ships = 0
    for move in rest.split("/")[1:]:
        if move.startswith(("h_", "v_")):
            way, row, column = move[0], *map(int, move[2:].split("_"))
            for i in range(LENGTHS[ships]):
                own[(row + i * (way == "v"), column + i * (way == "h"))] = FLEET[ships]
            ships += 1
        elif move.startswith("oppshot_"):
            opponent_shots.append(tuple(map(int, move[8:].split("_"))))
        else:
            cell, call = move[5:].split(":")
            row, column = map(int, cell.split("_"))
            markers.add(("me", "Miss" if call == "W" else "Hit", row, column))
    for row, column in opponent_shots:
        if (row, column) not in own:
            markers.add(("other", "Miss", row, column))
    seen = sorted([("me", kind, *cell) for cell, kind in own.items()] + list(markers))
    return f"{head} {rest} | {seen}"


BATTLESHIP = Pairing("battleship.gdl", "battleship", {},
                     gdl_meaning=gdl_meaning, spiel_meaning=spiel_meaning,
                     gdl_information=gdl_information, spiel_information=spiel_information)


def test_the_meanings_read_both_sides_alike() -> None:
    assert gdl_meaning("place Destroyer across h7") == "h 3 7"
    assert gdl_meaning("place Carrier down s10") == "v 0 7"
    assert gdl_meaning("shoot u1") == "shot 9 9"
    assert spiel_meaning("Pl0: place ship horizontally with top-left corner in (3, 7)") == "h 3 7"
    assert spiel_meaning("Pl1: shoot at (9, 9)") == "shot 9 9"


def test_battleship_agrees_with_openspiel() -> None:
    assert check(BATTLESHIP, games_in_suite(BATTLESHIP)) > 0


@pytest.mark.parametrize("old, new", [
    ("kinds (symbol, length) visible to viewer == owner {", "kinds (symbol, length) {"),
    ("phase deploy secret", "phase deploy"),
    ("      if len(pieces_at(target)) == 1 {\n        create Hit", "      if false {\n"
     "        create Hit"),
], ids=["fleet in sight", "placements read", "hit not shown"])
def test_a_seat_that_sees_more_or_less_than_openspiel_says_is_caught(old: str, new: str) -> None:
    text = (CLASSIC / "battleship.gdl").read_text()
    assert old in text
    wrong = (load_source(text.replace(old, new), "battleship.gdl"),
             pyspiel.load_game("battleship"))
    found = [play(BATTLESHIP, seed, wrong).disagreement for seed in range(3)]
    assert all(f is not None and "OpenSpiel's information state holds" in f for f in found)


def aimed(seed: int, loaded: tuple[object, object]) -> tuple[int, str | None, list[float]]:
    """A game in which each shot, four times in five, goes to a cell of the other's fleet
    not yet fired at (random play rarely sinks a ship, never a fleet): every decision
    compared as `play` compares them. The decisions, the first disagreement, the returns."""
    from .differential import _gdl_meanings, _information, _spiel_meanings

    game, spiel_game = loaded
    rng = random.Random(seed)
    state, spiel_state = game.new_state(seed), spiel_game.new_initial_state()  # type: ignore
    seen: list[list[str]] = [[], []]
    decisions = 0
    while not spiel_state.is_terminal():
        if game.is_terminal(state):                         # type: ignore
            return decisions, "gdl ended first", []
        seat = game.current_player(state)                   # type: ignore
        problem = _information(BATTLESHIP, game, state, spiel_state, seen)
        if problem is not None or seat != spiel_state.current_player():
            return decisions, problem or "seat to move differs", []
        ours = _gdl_meanings(game, state, gdl_meaning)
        theirs = _spiel_meanings(spiel_state, seat, BATTLESHIP)
        decisions += 1
        if ours.keys() != theirs.keys():
            return decisions, "legal actions differ", []
        full = game.view(state, None)                       # type: ignore
        targets = sorted({gdl_meaning("shoot " + p["cell"]) for p in full["pieces"]
                          if p["owner"] != full["deciding"] and p["kind"] in FLEET}
                         & ours.keys() - set(seen[seat]))
        chosen = (rng.choice(targets) if targets and rng.random() < 0.8
                  else rng.choice(sorted(ours)))
        for viewer, texts in enumerate(seen):
            if viewer == seat or chosen.startswith("shot"):
                texts.append(chosen)
        game.apply(state, ours[chosen], check=False)        # type: ignore
        spiel_state.apply_action(theirs[chosen])
    if not game.is_terminal(state):                         # type: ignore
        return decisions, "OpenSpiel ended first", []
    returns = [float(r) for r in game.returns(state)]       # type: ignore
    if returns != list(spiel_state.returns()):
        return decisions, f"returns gdl {returns}, OpenSpiel {spiel_state.returns()}", []
    return decisions, None, returns


def test_aimed_games_sink_fleets_and_agree_with_openspiel() -> None:
    loaded = BATTLESHIP.load()
    outcomes = [aimed(seed, loaded) for seed in range(10)]
    assert [problem for _, problem, _ in outcomes] == [None] * 10
    assert any(decisions < 110 for decisions, _, _ in outcomes)   # a fleet sunk: ended early
