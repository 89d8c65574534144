"""A batch of simulated games: one game's record, and consecutive games played in one place.

`play_one(game, seed, spec, max_turns, ...)` plays one game and returns its record (a dict
with the fields of `RECORD_FIELDS`); `play_games` plays game i with seed `seed + i` for each
index it is given; `chunks_of(games, workers)` cuts games 0..games-1 into ranges to hand
out. What `simulate` runs in its own process and in worker processes, and `cluster` in Ray
tasks: both import it, and neither imports the other back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.errors import GdlError
from ...language.limits import DEFAULT_MAX_DECISIONS
from ...runtime import introspect
from ..agents.agents import make_agents
from ..playing import Observer, run_game

if TYPE_CHECKING:
    from ...runtime.state import State

CHUNKS_PER_WORKER = 8   # at least this many chunks a worker, so the load evens out
MAX_CHUNK = 32          # and at most this many games a chunk, so Ctrl-C and progress are prompt

# What a record (one game) holds: its seed; the game's name, its seats and the player of
# each (the agent's name); the seat that played first (turn 1's, or in a game without turns
# the first to decide); the winners (none when drawn or capped), draw, the returns per seat
# (1 win, -1 loss, 0 draw or capped); turns and decisions played; capped; the scores per
# seat (None when the rule file declares none); the rule file's `stat` values at the end.
RECORD_FIELDS = ("seed", "game", "seats", "players", "first", "winners", "draw", "returns",
                 "turns", "decisions", "capped", "scores", "stats")


def play_one(game, seed, spec, max_turns, max_decisions=DEFAULT_MAX_DECISIONS, check=False):
    """One game with agents built from `spec`; returns its record (see `RECORD_FIELDS`).
    With `check`, the rule file's invariants are checked after every decision."""
    state = game.new_state(seed)
    agents = make_agents(spec, len(game.seats), seed)
    opening = _Opening()
    status, _ = run_game(game, state, lambda seat, legal: agents[seat].choose(game, state, legal),
                         max_turns=max_turns, max_decisions=max_decisions, observer=opening,
                         check=check)
    finished = status == "finished"
    first = opening.first()
    return {"seed": seed, "game": game.name, "seats": list(game.seats),
            "players": [agent.name for agent in agents],
            "first": None if first is None else game.seats[first],
            "winners": [game.seats[s] for s in state.result["winners"]] if finished else [],
            "draw": finished and state.result["draw"],
            "returns": game.returns(state),
            "turns": state.turn, "decisions": state.decisions, "capped": not finished,
            "scores": final_scores(game, state),
            "stats": introspect.statistics(game, state)}


class _Opening(Observer):
    """Who played first: the seat whose turn is turn 1, or in a game without turns the first
    to decide."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}      # 'turn': turn 1's seat; 'decision': the first

    def turn_started(self, state: State) -> None:
        if state.turn >= 1:
            self.seen.setdefault("turn", state.current)

    def deciding(self, seat: int, action: object) -> None:
        self.seen.setdefault("decision", seat)

    def first(self) -> int | None:
        return self.seen.get("turn", self.seen.get("decision"))


def final_scores(game, state):
    """Each seat's final score ({seat: number}) when the rule file declares one with
    `show score(s)` (the agents' heuristic, docs/agents.md), else None."""
    scores = introspect.scores(game, state)
    return None if scores is None else dict(zip(game.seats, scores))


def play_games(game, indices, seed, spec, max_turns, records, after_game=None, stopped=None,
               max_decisions=DEFAULT_MAX_DECISIONS, check=False):
    """Play game i (seed `seed + i`) for each i in `indices`, appending each record to
    `records` as it finishes (so an interruption keeps them); `after_game()` runs after each
    game, and `stopped()` is asked before each one."""
    for i in indices:
        if stopped is not None and stopped():
            return
        try:
            records.append(play_one(game, seed + i, spec, max_turns,
                                    max_decisions=max_decisions, check=check))
        except GdlError as exc:
            exc.hints += (f"in simulated game {i + 1}, seed {seed + i} (gdl record with "
                          f"--seed {seed + i} plays it again)",)
            raise
        if after_game is not None:
            after_game()


def chunks_of(games, workers):
    """Games 0..games-1 as (first, last) ranges of consecutive indices, to hand out."""
    chunk = chunk_size(games, workers)
    return [(first, min(first + chunk, games)) for first in range(0, games, chunk)]


def chunk_size(games, workers):
    """Games a worker plays per task: small enough to share the work out evenly, large
    enough that handing out tasks costs little next to playing them."""
    return max(1, min(MAX_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER))))
