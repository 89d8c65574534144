"""games/classic/backgammon.gdl against OpenSpiel's backgammon (its defaults: scoring_type
winloss_scoring, hyper_backgammon false, max_player_turns 500: after 500 turns the game
ends with returns 0, as a draw).

Granularity: OpenSpiel's action is two checker moves (one die each: `24/22 13/12`, one
checker twice `24/22/21`, the same move twice `13/10(2)`, one move and a pass
`Bar/22* Pass` when only one die can be played); a double is two such actions by the same
player. gdl plays one checker move a decision, `move FROM DIE` (points counted from the
mover's side, 25 the bar), and a pair of dice as one turn (the second pair of a double is a
turn of its own). So the harness compares every OpenSpiel decision with the gdl turns that
could be played there (`Pairing.gdl_turn_meaning`): each side's moves written as the
multiset of `from/to` steps (`0` for off, hits left out: they follow from the position),
which is exactly what decides the resulting position. OpenSpiel's `Pass` (no move at all)
is gdl's `on no action` block, played by itself. Dice: OpenSpiel's first chance outcome
(`x starts` when even) is forced into gdl's opening roll as x's die then o's, the higher
starting; each later outcome into the turn's two d6.
"""

from __future__ import annotations

from typing import Any

from .differential import Pairing, check, games_in_suite

# OpenSpiel's dice of chance outcome k (its table: the 30 ordered non-doubles, then doubles).
NON_DOUBLES = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
OUTCOMES = [pair for a, b in NON_DOUBLES for pair in ((a, b), (b, a))] + \
    [(d, d) for d in range(1, 7)]


def dice(spiel_state: Any, outcome: int) -> list[tuple[int, int]]:
    low, high = OUTCOMES[outcome]
    if spiel_state.move_number() == 0:       # the opening roll: x's die, then o's
        return [(6, high), (6, low)]
    return [(6, low), (6, high)]


def steps(path: str) -> list[str]:
    """`24/22/21` -> `24/22`, `22/21`; `13/10(2)` twice; hits and `Bar` as 25, `Off` 0."""
    times = 2 if path.endswith("(2)") else 1
    points = path.removesuffix("(2)").replace("*", "").replace("Bar", "25") \
        .replace("Off", "0").split("/")
    return [f"{a}/{b}" for a, b in zip(points, points[1:])] * times


def spiel_meaning(text: str) -> str:
    moves = text.split(" - ", 1)[-1]
    if moves == "Pass":
        return "pass"
    return " ".join(sorted(s for path in moves.split() if path != "Pass" for s in steps(path)))


def gdl_turn_meaning(texts: list[str]) -> str:
    moved = []
    for text in texts:
        _, start, die = text.split()
        moved.append(f"{start}/{max(int(start) - int(die), 0)}")
    return " ".join(sorted(moved))


BACKGAMMON = Pairing("backgammon.gdl", "backgammon",
                     {"scoring_type": "winloss_scoring", "hyper_backgammon": False,
                      "max_player_turns": 500},
                     spiel_meaning=spiel_meaning, chance_die=dice,
                     automatic=frozenset({"pass"}), gdl_turn_meaning=gdl_turn_meaning)


def test_backgammon_agrees_with_openspiel() -> None:
    assert check(BACKGAMMON, games_in_suite(BACKGAMMON)) > 0
