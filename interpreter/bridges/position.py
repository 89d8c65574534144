"""A gdl position as both bridges hand it out: integer action ids and a seat's observation.

OpenSpiel and PettingZoo number a decision's actions with integers below a bound fixed when
the game is made (OpenSpiel's `num_distinct_actions`, PettingZoo's `Discrete` space). gdl's
legal actions differ from position to position (`move Piece#2 c4` exists only where that
piece can reach c4), so an action id is the index of the action in the position's legal
list, in the engine's order: the ids of a decision are 0 to n-1 (sorted, as OpenSpiel asks),
and a position and all its clones give the same id to the same action, which is what a
tree search needs (it replays ids on clones of its root). An id means nothing across
positions; its text (`action_text`) says what it does. The bound is `max_actions`; a
position with more legal actions is an error that names it, never a silently cut list.

A seat's observation is the text of its view (`game.view(state, seat)` drawn by
`view.render`): what `gdl play` shows that seat, built by the engine from what the seat may
see. Nothing else of the state reaches it. The number of legal actions and their texts as
the deciding seat reads them (hidden pieces as `?`) are the same in two positions that the
seat cannot tell apart (tests/runtime/test_hidden_information.py), so the ids leak nothing either.

Chance: gdl rolls dice inside `apply`, from the generator that is part of the state. A
clone rolls what the original would roll, so a position is a deterministic function of the
seed and the ids played.
"""

from __future__ import annotations

from ..language.errors import GdlError, IllegalAction
from ..play.playing import stuck
from ..runtime.view import render

DEFAULT_MAX_ACTIONS = 1024          # the shipped games list at most about 750 (on a 48x36 table)
DEFAULT_MAX_DECISIONS = 100_000     # as the command line's cap (`--max-decisions`)
_UNKNOWN = object()                 # a position's deciding seat not yet worked out


def not_picklable(what, instead):
    """The error for pickling or serializing a bridge's object: it holds the compiled rule
    file, which is code; `instead` says what to save."""
    return GdlError(f"a gdl {what} cannot be pickled or serialized (it holds the compiled rule "
                    f"file): {instead} instead")


class Limits:
    """The bounds a bridge fixes when it makes a game: ids below `max_actions`; a game that
    reaches `max_decisions` decisions is over, unfinished (every seat's return is 0)."""

    __slots__ = ("max_actions", "max_decisions")

    def __init__(self, max_actions=DEFAULT_MAX_ACTIONS, max_decisions=DEFAULT_MAX_DECISIONS):
        if max_actions < 1 or max_decisions < 1:
            raise GdlError(f"max_actions and max_decisions are at least 1, not "
                           f"{max_actions} and {max_decisions}")
        self.max_actions = max_actions
        self.max_decisions = max_decisions


class Position:
    """A gdl state with its game and limits, and its legal list and deciding seat once asked
    for (OpenSpiel asks for the current player several times a decision: worked out once).
    Copies (`clone`, and `copy.deepcopy`, which OpenSpiel uses to clone a Python state) copy
    the state only: the game and the limits are shared. The state changes only through
    `apply`, which forgets what was worked out of the position before."""

    __slots__ = ("game", "state", "limits", "_legal", "_seat")

    def __init__(self, game, state, limits, legal=None, seat=_UNKNOWN):
        self.game = game
        self.state = state
        self.limits = limits
        self._legal = legal
        self._seat = seat           # the deciding seat, None when over: `current_seat`

    def clone(self):
        return Position(self.game, self.state.clone(), self.limits, self._legal, self._seat)

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        raise not_picklable("position", "save its state (`position.state.to_json()`) or the "
                            "actions played")

    def is_over(self):
        """Finished, or capped at `max_decisions`."""
        return self.current_seat() is None

    def current_seat(self):
        """The deciding seat, or None when the game is over (finished, or capped at
        `max_decisions`)."""
        seat = self._seat
        if seat is _UNKNOWN:
            over = self.game.is_terminal(self.state) or \
                self.state.decisions >= self.limits.max_decisions
            seat = self._seat = None if over else self.game.current_player(self.state)
        return seat

    def capped(self):
        return not self.game.is_terminal(self.state) and self.is_over()

    def legal(self):
        """The legal actions in the engine's order (the index is the id); [] when over."""
        if self._legal is None:
            if self.is_over():
                return []
            legal = self.game.legal_actions(self.state)
            if not legal:
                raise stuck(self.game, self.state)
            if len(legal) > self.limits.max_actions:
                seat = self.game.seats[self.game.current_player(self.state)]
                raise GdlError(f"{seat} has {len(legal)} legal actions at decision "
                               f"{self.state.decisions + 1}, more than max_actions="
                               f"{self.limits.max_actions}: make the game with a larger "
                               "max_actions")
            self._legal = legal
        return self._legal

    def action(self, action_id):
        """The legal action with this id; an id out of range is an error naming the ids."""
        legal = self.legal()
        if not 0 <= action_id < len(legal):
            raise IllegalAction(f"action id {action_id} is not legal here: the ids are 0 to "
                                f"{len(legal) - 1}" if legal else
                                f"action id {action_id} is not legal: the game is over")
        return legal[action_id]

    def apply(self, action_id):
        """Play the action with this id; returns the engine's events."""
        events = self.game.apply(self.state, self.action(action_id), check=False)
        self._legal = None
        self._seat = _UNKNOWN
        return events

    def action_text(self, action_id, seat):
        """The text of an action as `seat` reads it (a piece hidden from it is `?`)."""
        return self.game.action_text(self.state, self.action(action_id), viewer=seat)

    def observation(self, seat):
        """What `seat` sees: its view, drawn as text."""
        return render(self.game, self.game.view(self.state, seat))

    def everything(self):
        """The whole position drawn as text, hidden parts included: for a person debugging
        or watching, never for a seat."""
        return render(self.game, self.game.view(self.state, None))
