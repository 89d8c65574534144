"""Did you mean: the name closest to a word that names nothing, among those a seat may see.

    close_name(word, names)                  -> "; did you mean 'NAME'?", or ""
    names_of(game, state, what, viewer)      -> the names a word of an action's text may be
                                                when it means `what` ("action", or the type
                                                of an argument), as seat `viewer` sees them
    with_hint(game, state, exc, viewer)      -> the IllegalAction `exc` with "did you mean"
                                                added for its unknown word, when one is close

Every tool that reads a typed action (explain, scripted moves, a prompt, scenario files)
suggests through `with_hint`, so a suggestion never names what the asking seat may not see:
a piece hidden from it reads '?' in its view and is never a name here. How close a name is,
and how the hint reads, is `errors.did_you_mean`, as for every other message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..language.errors import IllegalAction, did_you_mean
from ..language.types import CELL, DIR, KIND, PIECE, SEAT, SYMBOL, Type
from ..runtime.view import HIDDEN

if TYPE_CHECKING:
    from ..runtime.engine import Game
    from ..runtime.state import State


def close_name(word: str, names: Iterable[str]) -> str:
    """'; did you mean NAME?' for the name most like `word` in any case, when one is close."""
    return "".join("; " + hint for hint in did_you_mean(word, names, fold_case=True))


def names_of(game: Game, state: State, what: Type | None,
             viewer: int | None = None) -> list[str]:
    """The names a word of an action's text may take when it means `what`: "action" (an
    action's name) or an argument's type. Pieces are the labels `viewer` sees (None: every
    seat's view); the rest is the rules' (the board, the kinds, the symbols, the seats)."""
    rules = game.rules
    if what == "action":
        return rules.action_names
    if what == PIECE:
        return [piece["label"] for piece in game.view(state, viewer)["pieces"]
                if piece["label"] != HIDDEN]
    named: dict[Type | None, Iterable[str]] = {
        CELL: rules.board.by_name, SEAT: game.seats, KIND: rules.kinds,
        DIR: rules.board.direction_names, SYMBOL: rules.symbols}
    return list(named.get(what, ()))


def with_hint(game: Game, state: State, exc: IllegalAction,
              viewer: int | None = None) -> IllegalAction:
    """`exc` with "did you mean" added when its unknown word is close to a name `viewer`
    may see of what the word should have named (`names_of`); else `exc` itself."""
    word, what = exc.unknown or ("", None)
    hint = close_name(word, names_of(game, state, what, viewer)) if word else ""
    if not hint:
        return exc
    return IllegalAction(exc.message + hint, malformed=True, unknown=exc.unknown)
