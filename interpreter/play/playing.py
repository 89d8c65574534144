"""The one game loop that every driver uses: simulations, transcripts and `gdl play`.

`run_game` asks a chooser for each decision until the game ends or a cap is reached, and
tells an `Observer` about each event of the loop: a turn starts, a seat concedes, a decision
is about to be played, a decision was played. A driver subclasses `Observer` and overrides
the events it needs; the others do nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..language.errors import GdlDataError, GdlRuntimeError, error_at, shortened
from ..runtime.introspect import (broken_invariants, is_private, resolved_program,
                                  result_text)
from ..runtime.view import turn_words
from .agents.agents import ScriptedAgent

if TYPE_CHECKING:
    from ..runtime.engine import Game
    from ..runtime.events import Event
    from ..runtime.state import Action, State

STOP = object()     # a chooser's answer: leave the game now (the player quit)
AGAIN = object()    # a chooser's answer: the position changed (a concession); ask again

Events = list["Event"]              # what `Game.apply` or `Game.concede` returns
Chooser = Callable[[int, list["Action"]], object]   # (seat, legal) -> an action, STOP or AGAIN


class Observer:
    """What `run_game` tells its driver, one method per event of the loop, in this order
    around each decision: `turn_started` (when the turn number changed), `conceding` (a
    question: does a seat give up now?) and `conceded`, then `deciding` (the chosen action,
    not yet played) and `decided` (played, with the events it caused). Each does nothing
    here."""

    def turn_started(self, state: State) -> None:
        """A turn starts (the setup's turn 0 included): called once per turn number."""

    def conceding(self, state: State) -> int | None:
        """The seat that gives up now, or None. Asked before each decision, and before the
        decision cap is tested: a concession is not a decision, so one made after the last
        decision a cap allows is still played."""
        return None

    def conceded(self, seat: int, events: Events) -> None:
        """`seat` gave up; `events`: what that did."""

    def deciding(self, seat: int, action: Action) -> None:
        """`seat` chose `action`, which is not played yet (the state is still the one it was
        chosen in, so its text can be read)."""

    def decided(self, seat: int, legal: list, action: Action, events: Events) -> None:
        """`action`, chosen by `seat` among `legal`, was played; `events`: what it did."""


QUIET = Observer()      # told of everything, does nothing


def run_game(game: Game, state: State, choose: Chooser, *, max_turns: int | None = None,
             max_decisions: int | None = None, observer: Observer = QUIET,
             check: bool = False) -> tuple[str, str]:
    """Play `state` on. `choose(seat, legal)` returns one of `legal`, STOP or AGAIN;
    `observer` is told of each event (see `Observer`). With `check`, the rule file's
    invariants are checked after every decision (the first that does not hold is an error
    naming the decision). Returns ("finished" | "stopped" | "capped", a sentence)."""
    last_turn = None
    # An observer's methods that do nothing are not called (a random playout's loop is hot).
    conceding, deciding, decided = (getattr(observer, name) if _overrides(observer, name)
                                    else None for name in ("conceding", "deciding", "decided"))
    current_player, legal_actions, apply = game.current_player, game.legal_actions, game.apply
    while state.result is None:
        if state.turn != last_turn:
            last_turn = state.turn
            if max_turns is not None and state.turn > max_turns:
                return "capped", f"turn {state.turn} passed the cap of {max_turns}"
            observer.turn_started(state)
        leaving = conceding(state) if conceding is not None else None
        if leaving is not None:
            observer.conceded(leaving, game.concede(state, leaving))
            continue
        if max_decisions is not None and state.decisions >= max_decisions:
            return "capped", f"decision {state.decisions} reached the cap of {max_decisions}"
        seat = current_player(state)
        legal = legal_actions(state)
        if not legal:
            raise stuck(game, state)
        action = choose(seat, legal)
        if action is STOP:
            return "stopped", "a player left"
        if action is AGAIN:
            continue
        assert isinstance(action, tuple)    # a chooser answers an action, STOP or AGAIN
        if deciding is not None:
            deciding(seat, action)
        text = _decision_text(game, state, seat, action) if check else None
        events = apply(state, action, check=False)
        if check:
            check_invariants(game, state, text)
        if decided is not None:
            decided(seat, legal, action, events)
    return "finished", result_text(game, state)


def _overrides(observer: Observer, name: str) -> bool:
    """Does `observer` do something on the event `name` (not Observer's nothing)?"""
    method = getattr(observer, name)
    return getattr(method, "__func__", None) is not getattr(Observer, name)


def _decision_text(game, state, seat, action):
    """'SEAT: ACTION, turn 3' (', before the first turn'; no turn in a game without turn
    phases), as an invariant's error names the decision after which it broke."""
    when = turn_words(game, state.turn)
    return f"{game.seats[seat]}: {game.action_text(state, action)}" + (
        "" if when is None else f", {when}")


def check_invariants(game, state, decision):
    """Raise the error for the first invariant that does not hold after `decision`."""
    broken = broken_invariants(game, state)
    if broken:
        node = next(inv for inv in resolved_program(game).invariants if inv.name == broken[0])
        raise error_at(GdlRuntimeError, f"run-time error: the invariant \"{broken[0]}\" does "
                       f"not hold after decision {state.decisions} ({decision})", node.span)


def stuck(game, state):
    """The error for a decision with no legal action (the game is not over): the rules
    leave the game stuck, with a hint at `on no action` where the phase may have one. Every
    driver of a game (this loop, the bridges) raises it."""
    seat = game.current_player(state)
    phase = state.frames[-1]["phase"]
    node = resolved_program(game).phases[phase]
    hints = () if node.mode == "simultaneous" else (
        f"hint: if the rules let this happen, say what happens then with an 'on no action "
        f"{{ ... }}' block in phase '{phase}' (docs/language.md, 4.12)",)
    return error_at(GdlRuntimeError, f"run-time error: no legal action for "
                    f"{game.seats[seat]} in phase '{phase}': the rules leave the game stuck",
                    node.span, hints=hints)


def play_moves(game, state, lines, source, as_seat=True):
    """Play scripted decisions, (line number, action text or number) each, and concessions
    ('concede: SEAT'), from `state`; a line left when the game is over is refused, naming
    it. Returns who played each, in order: (seat, was the decision private), a concession as
    (seat, False), for `steps_seen`. `as_seat` false: the lines are a transcript's full
    texts (`Game.parse_action`)."""
    agent = ScriptedAgent(lines, source=source, as_seat=as_seat)
    played = []
    while not agent.exhausted:
        left = unplayed(game, state, agent)
        if left is not None:
            raise left
        seat = agent.conceding(game, state)
        if seat is not None:
            game.concede(state, seat)
            played.append((seat, False))
        else:
            played.append((game.current_player(state), is_private(game, state)))
            game.apply(state, agent.choose(game, state, game.legal_actions(state)),
                       check=False)
    return played


def unplayed(game, state, agent):
    """The error for the line of the scripted `agent` that comes next when the game is
    over (no decision is left to play it), else None: what `--moves` and a replay say."""
    if state.result is None or agent.exhausted:
        return None
    number = agent.lines[agent.position][0]
    return GdlDataError(f"{agent.source}:{number}: the game is over ({result_text(game, state)})"
                        "; no decision is left to play")


def steps_seen(played, viewer):
    """How many steps `viewer` was shown of `played` ((seat, private) per decision, as
    `play_moves` returns): a run of private decisions of one other seat is one step, as
    the hot-seat screen tells it ('one: chooses in secret'), so the count never depends on
    how many choices another seat made in secret. For the full view (None), every
    decision."""
    steps, run = 0, None
    for seat, private in played:
        hidden = viewer is not None and private and seat != viewer
        if not (hidden and run == seat):
            steps += 1
        run = seat if hidden else None
    return steps


def viewer_of(game, name):
    """A seat's name -> its number; None (the full view, every seat's) for no name."""
    if name is None:
        return None
    if name not in game.seats:
        raise GdlDataError(f"unknown seat '{shortened(name)}'; the seats of {game.name} are "
                           + ", ".join(game.seats))
    return game.seats.index(name)
