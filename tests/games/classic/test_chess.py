"""games/classic/chess.gdl against OpenSpiel's chess (its defaults: chess960 false).

gdl seats black, white are OpenSpiel's players 0 and 1 (white moves first on both). Both
name cells alike (a1 at white's left corner). The common meaning of an action is UCI-like
long algebraic notation: `e2e4`, a promotion `e7e8q`, castling the king's move `e1g1`.
gdl writes `move e2 e4`, `promote e7 e8 Queen`, `en_passant e5 d6` and `castle e1 g1`:
its cells joined, and the new kind's letter. OpenSpiel writes SAN (`e4`, `exd6`, `O-O`,
`e8=Q+`), which needs the position to be read, so its action is turned into a move on its
board (`pyspiel.chess.action_to_move`) and written by `Move.to_lan()`.

Everything OpenSpiel's chess has is compared: castling, en passant, the four promotions,
check, checkmate and stalemate, the fifty-move draw, threefold repetition and too little
material (random games end by each; the en passant captures and castlings they play are
few, so tests/scenarios/classic/chess.scenario pins those rules). A random game is about
330 decisions: 50 games here (each about a tenth of a second of gdl).
"""

from __future__ import annotations

from typing import Any

from pyspiel import chess

from .differential import Pairing, check, games_in_suite

LETTER = {"Queen": "q", "Rook": "r", "Bishop": "b", "Knight": "n"}


def gdl_meaning(text: str) -> str:
    words = text.split()[1:]
    return "".join(LETTER.get(word, word) for word in words)


def spiel_meaning(state: Any, player: int, action: int) -> str:
    return str(chess.action_to_move(action, state.board()).to_lan())


CHESS = Pairing("chess.gdl", "chess", {"chess960": False},
                gdl_meaning=gdl_meaning, spiel_action_meaning=spiel_meaning)


def test_chess_agrees_with_openspiel() -> None:
    assert check(CHESS, games_in_suite(CHESS)) > 0
