"""games/classic/hearts.gdl against OpenSpiel's hearts (its defaults: pass_cards,
no_pts_on_first_trick, must_break_hearts, qs_breaks_hearts true; can_lead_any_club,
jd_bonus, avoid_all_tricks_bonus, can_lead_hearts_instead_of_qs false).

Cards: gdl's kind `SQ` (suit, then rank; a card is the only piece of its kind, so its label
is `SQ#1`) is OpenSpiel's `QS`. Both write the decisions as a card (`pass SQ#1`, `play
SQ#1`; OpenSpiel `QS`). Chance: gdl rolls the passing direction with a die (public, as
OpenSpiel's first chance node, 0 no passing, 1 left, 2 across, 3 right) and deals by
shuffling; OpenSpiel's deal (card k to player k % 4) follows the shuffled deck, whose
card k gdl puts in the hand of seat k % 4. The returns are 26 less the points (gdl's
`payoff`).

Each seat's view, with the action texts it read, is compared with OpenSpiel's information
state of that player (`Pass Direction`, `Hand`, its own `Passed Cards` and, once all have
passed, `Received Cards`, both in card order, every trick with its leader, and the points)
in one common form: the passing direction, the seat's hand, the cards it passed (from its
own `pass` texts; the cards in its `passing` zone must be those), the cards passed to it
(`received`), the tricks (`played`, cut in fours, with `leaders`) and each seat's points.
Whatever else the seat can read is added to the form, so that OpenSpiel's side (which has
none of it) differs: a card it can identify anywhere but its hand, its passing zone and the
tricks played; a card in an action text it read that is not its own pass or a card played;
the deck, or another seat's `received`, not reading `?`. Another seat's decisions read
`pass ?` and `play ?` (the card is in that seat's hand when it is chosen), and how many
cards each hand holds shows, which the turn order and the tricks tell in both.
"""

from __future__ import annotations

import re
from typing import Any

from gdl.interpreter.runtime.view import View

from .differential import Pairing, check, games_in_suite

PASS_DIRECTIONS = ["No Pass", "Left", "Across", "Right"]
SEAT_LETTERS = "NESW"


def card_order(name: str) -> int:
    """OpenSpiel's number of a card: rank by rank, clubs, diamonds, hearts, spades."""
    return "23456789TJQKA".index(name[0]) * 4 + "CDHS".index(name[1])


def card(label: str) -> str:
    """gdl's `SQ#1` (or the kind `SQ`) as OpenSpiel writes the card: `QS`."""
    kind = label.split("#")[0]
    return kind[1] + kind[0]


def gdl_meaning(text: str) -> str:
    """`pass SQ#1` and `play SQ#1` are the card `QS`; `pass ?` (as another seat reads it)
    is `?`."""
    label = text.split()[1]
    return "?" if label == "?" else card(label)


def _labels(listed: str) -> list[str]:
    return [w for w in listed.strip("[]").split(", ") if w]


def dealt(everyone: View, spiel_state: Any) -> int:
    dealt_so_far = len(spiel_state.history())
    if dealt_so_far == 0:
        return int(everyone["globals"]["pass_by"])
    name = card(_labels(everyone["globals"]["deck"])[dealt_so_far - 1])
    return next(c for c in range(52) if spiel_state.action_to_string(-1, c) == name)


def _form(direction: str, hand: list[str], passed: list[str], received: list[str] | None,
          tricks: list[tuple[int, list[str]]], points: list[int] | None,
          extra: list[str]) -> str:
    def cards(xs: list[str]) -> str:
        return " ".join(sorted(xs))
    parts = [f"pass {direction}", f"hand {cards(hand)}", f"passed {cards(passed)}"]
    if received is not None:
        # in the order given: the view's order in gdl, card order in OpenSpiel (an order
        # of the passer's choosing would tell the receiver more)
        parts.append(f"received {' '.join(received)}")
        parts.append(f"received in hand {' '.join(c for c in hand if c in received)}")
    parts.append("tricks " + " | ".join(f"{SEAT_LETTERS[leader]}: {' '.join(played)}"
                                        for leader, played in tricks))
    if points is not None:
        parts.append("points " + " ".join(str(p) for p in points))
    return "; ".join(parts + extra)


def gdl_information(view: View, read: list[str]) -> str:
    me = view["seat"]
    names = [s["name"] for s in view["seats"]]
    extra = []
    played = [card(x) for x in _labels(view["globals"]["played"])]
    leaders = _labels(view["globals"]["leaders"])
    tricks = [(names.index(leader), played[4 * i:4 * i + 4])
              for i, leader in enumerate(leaders)]
    # the first decisions pass; another seat's pass, a secret choice, is not read at all
    passes = 0 if view["globals"]["pass_by"] == "0" else 3
    passed = [c for c in read[:passes] if c != "?"]
    for c in read[passes:]:
        if c != "?" and c not in played:
            extra.append(f"read {c}")
    hand = []
    for piece in view["pieces"]:
        zone = piece["zone"]
        if piece["label"] == "?":
            continue
        if zone == f"hand of {me}":
            hand.append(card(piece["label"]))
        elif zone == f"passing of {me}":
            if card(piece["label"]) not in passed:
                extra.append(f"sees {piece['label']} in {zone}")
        elif card(piece["label"]) not in played:
            extra.append(f"sees {piece['label']} in {zone}")
    if view["globals"]["deck"] != "?":
        extra.append(f"deck {view['globals']['deck']}")
    received = None
    for s in view["seats"]:
        if s["name"] == me:
            if len(_labels(s["vars"]["received"])) > 0:
                received = [card(x) for x in _labels(s["vars"]["received"])]
        elif s["vars"]["received"] != "?":
            extra.append(f"{s['name']} received {s['vars']['received']}")
    points = [int(s["vars"]["points"]) for s in view["seats"]] if played else None
    return _form(PASS_DIRECTIONS[int(view["globals"]["pass_by"])], hand, passed, received,
                 tricks, points, extra)


def spiel_information(text: str) -> str:
    direction = re.search(r"Pass Direction: (.*)", text)
    assert direction is not None
    hand = []
    for suit in "SHDC":
        ranks = re.search(rf"^{suit} (\S+)$", text, re.MULTILINE)
        assert ranks is not None
        hand += [] if ranks[1] == "none" else [rank + suit for rank in ranks[1]]
    passed = re.search(r"Passed Cards: (.*)", text)
    received = re.search(r"Received Cards: (.*)", text)
    tricks = []
    if "Tricks:" in text:
        lines = text.split("N  E  S  W  N  E  S\n")[1].split("\n\nPoints:")[0].split("\n")
        tricks = [((len(line) - len(line.lstrip(" "))) // 3, line.split()) for line in lines]
    points = [int(p) for p in re.findall(r"^[NESW]: (-?\d+)$", text, re.MULTILINE)]
    hand.sort(key=card_order)
    return _form(direction[1], hand, passed[1].split() if passed else [],
                 sorted(received[1].split(), key=card_order) if received else None, tricks,
                 points if "Points:" in text else None, [])


HEARTS = Pairing("hearts.gdl", "hearts", {}, gdl_meaning=gdl_meaning, spiel_meaning=str,
                 dealt=dealt, gdl_information=gdl_information,
                 spiel_information=spiel_information)


def test_hearts_agrees_with_openspiel() -> None:
    assert check(HEARTS, games_in_suite(HEARTS)) > 0
