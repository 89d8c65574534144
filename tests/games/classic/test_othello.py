"""games/classic/othello.gdl against OpenSpiel's othello (no parameters).

Both write a placement as its cell (`d3`). OpenSpiel's `pass`, the only legal action of a
seat that cannot place a disc, is no decision in gdl: the seat passes by itself
(`on no action`), so it is played on OpenSpiel's side only. OpenSpiel counts rows from
the top, gdl from the bottom, and both start with white on d4 and e5: the same names on a
board turned upside down, which changes no line, so a cell's name is its meaning.
"""

from __future__ import annotations

from .differential import Pairing, check, games_in_suite

OTHELLO = Pairing("othello.gdl", "othello",
                  gdl_meaning=lambda text: text.removeprefix("place "),
                  automatic=frozenset({"pass"}))


def test_othello_agrees_with_openspiel() -> None:
    assert check(OTHELLO, games_in_suite(OTHELLO)) > 0
