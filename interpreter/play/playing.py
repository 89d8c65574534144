"""The one game loop that every driver uses: simulations, transcripts and `gdl play`.

`run_game` asks a chooser for each decision until the game ends or a cap is reached, and
tells the caller about turn starts and decisions through optional callbacks.
"""

from __future__ import annotations

from ..language.errors import GdlDataError, GdlRuntimeError, error_at
from ..runtime.introspect import broken_invariants, resolved_program, result_text
from .agents.agents import ScriptedAgent

STOP = object()     # a chooser's answer: leave the game now (the player quit)
AGAIN = object()    # a chooser's answer: the position changed (a concession); ask again


def run_game(game, state, choose, *, max_turns=None, max_decisions=None, on_turn=None,
             describe=None, on_decision=None, conceding=None, on_concession=None,
             check=False):
    """Play `state` on. `choose(seat, legal)` returns one of `legal`, STOP or AGAIN.
    `on_turn(state)` runs at each turn start; `describe(seat, action)` before the action
    is applied (its answer is passed on); `on_decision(seat, legal, action, said, events)`
    after it. `conceding(state)` names a seat that gives up now, or None: it is asked
    before each decision, and before the decision cap is tested (a concession is not a
    decision, so one made after the last decision a cap allows is still played);
    `on_concession(seat, events)` follows it. With `check`, the rule file's invariants are
    checked after every decision (the first that does not hold is an error naming the
    decision). Returns ("finished" | "stopped" | "capped", a sentence)."""
    last_turn = None
    while state.result is None:
        if state.turn != last_turn:
            last_turn = state.turn
            if max_turns is not None and state.turn > max_turns:
                return "capped", f"turn {state.turn} passed the cap of {max_turns}"
            if on_turn is not None:
                on_turn(state)
        leaving = conceding(state) if conceding is not None else None
        if leaving is not None:
            events = game.concede(state, leaving)
            if on_concession is not None:
                on_concession(leaving, events)
            continue
        if max_decisions is not None and state.decisions >= max_decisions:
            return "capped", f"decision {state.decisions} reached the cap of {max_decisions}"
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if not legal:
            raise stuck(game, state)
        action = choose(seat, legal)
        if action is STOP:
            return "stopped", "a player left"
        if action is AGAIN:
            continue
        said = describe(seat, action) if describe is not None else None
        text = f"{game.seats[seat]}: {game.action_text(state, action)}, turn {state.turn}" \
            if check else None
        events = game.apply(state, action, check=False)
        if check:
            check_invariants(game, state, text)
        if on_decision is not None:
            on_decision(seat, legal, action, said, events)
    return "finished", result_text(game, state)


def check_invariants(game, state, decision):
    """Raise the error for the first invariant that does not hold after `decision`."""
    broken = broken_invariants(game, state)
    if broken:
        node = next(inv for inv in resolved_program(game).invariants if inv.name == broken[0])
        raise error_at(GdlRuntimeError, f"run-time error: the invariant \"{broken[0]}\" does "
                       f"not hold after decision {state.decisions} ({decision})", node.span)


def stuck(game, state):
    """The error for a decision with no legal action (the game is not over): the rules
    leave the game stuck. Every driver of a game (this loop, the bridges) raises it."""
    seat = game.current_player(state)
    phase = state.frames[-1]["phase"]
    return error_at(GdlRuntimeError, f"run-time error: no legal action for "
                    f"{game.seats[seat]} in phase '{phase}': the rules leave the game stuck",
                    resolved_program(game).phases[phase].span)


def play_moves(game, state, lines, source):
    """Play scripted decisions, (line number, action text or number) each, and concessions
    ('concede: SEAT'), from `state`; a line left when the game is over is refused, naming
    it."""
    agent = ScriptedAgent(lines, source=source)
    while not agent.exhausted:
        if state.result is not None:
            number = agent.lines[agent.position][0]
            raise GdlDataError(f"{source}:{number}: the game is over ({result_text(game, state)})"
                               "; no decision is left to play")
        seat = agent.conceding(game, state)
        if seat is not None:
            game.concede(state, seat)
        else:
            game.apply(state, agent.choose(game, state, game.legal_actions(state)),
                       check=False)


def viewer_of(game, name):
    """A seat's name -> its number; None (the full view, every seat's) for no name."""
    if name is None:
        return None
    if name not in game.seats:
        raise GdlDataError(f"unknown seat '{name}'; the seats of {game.name} are "
                           + ", ".join(game.seats))
    return game.seats.index(name)
