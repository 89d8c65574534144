"""A batch of simulated games: the settings of a run, one game's record, and consecutive
games played in one place.

`RunSettings` is how a run plays each game (players, first seed, caps, invariant checks),
one value handed to worker processes and Ray tasks alike; `play_one(game, seed, settings)`
plays one game and returns its `GameRecord`; `play_games` plays game i with seed
`settings.seed + i` for each index it is given; `chunks_of(games, workers)` cuts games
0..games-1 into ranges to hand out. What `simulate` runs in its own process and in worker
processes, and `cluster` in Ray tasks: both import it, and neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs

from ...language.errors import GdlError
from ...language.limits import DEFAULT_MAX_DECISIONS
from ...runtime import introspect
from ..agents.agents import RandomAgent, make_agents
from ..playing import Observer, run_game, stuck

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.state import Action, State

CHUNKS_PER_WORKER = 8   # at least this many chunks a worker, so the load evens out
MAX_CHUNK = 32          # and at most this many games a chunk, so Ctrl-C and progress are prompt


@attrs.frozen
class RunSettings:
    """How a run plays its games: `spec`, the players (`make_agents`: 'random',
    'greedy,mcts:iterations=200', ...); `seed`, game i plays seed `seed + i`; a game still
    running after `max_turns` turns or `max_decisions` decisions is capped; with `check`,
    the rule file's invariants are checked after every decision."""

    spec: str
    seed: int
    max_turns: int
    max_decisions: int = DEFAULT_MAX_DECISIONS
    check: bool = False


@attrs.frozen
class GameRecord:
    """One simulated game: its seed; the game's name, its seats and the player of each (the
    agent's name); the seat that played first (turn 1's, or in a game without turns the
    first to decide); the winners (none when drawn or capped), draw, the returns per seat
    (the rule file's `payoff(s)`, else 1 win, -1 loss, 0 draw; 0 when capped); payoff, does
    the rule file declare a `payoff(s)` (None in a record read from a file written before
    records said so); turns and decisions played; capped; the scores per seat (None when
    the rule file declares none); the rule file's `stat` values at the end (name -> value,
    or name -> {seat: value} for a `stat NAME(s)`)."""

    seed: int
    game: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    first: str | None
    winners: tuple[str, ...]
    draw: bool
    returns: tuple[float, ...]
    payoff: bool | None
    turns: int
    decisions: int
    capped: bool
    scores: dict[str, float] | None
    stats: dict[str, Any]       # rule values: numbers, truth values, text, or per seat

    def to_json(self) -> dict[str, Any]:
        """The plain form, fields in `RECORD_FIELDS` order (a line of a `.jsonl` file);
        without `payoff` when it is None, as in the file the record was read from."""
        plain = {"seed": self.seed, "game": self.game, "seats": list(self.seats),
                 "players": list(self.players), "first": self.first,
                 "winners": list(self.winners), "draw": self.draw,
                 "returns": list(self.returns), "payoff": self.payoff, "turns": self.turns,
                 "decisions": self.decisions, "capped": self.capped,
                 "scores": None if self.scores is None else dict(self.scores),
                 "stats": self.stats}
        if self.payoff is None:
            del plain["payoff"]
        return plain

    @classmethod
    def from_json(cls, plain: dict[str, Any]) -> GameRecord:
        """The record of `to_json`'s form (checked first: `game_records.read_records`);
        `payoff` may be missing (a file written before records had it)."""
        return cls(seed=plain["seed"], game=plain["game"], seats=tuple(plain["seats"]),
                   players=tuple(plain["players"]), first=plain["first"],
                   winners=tuple(plain["winners"]), draw=plain["draw"],
                   returns=tuple(plain["returns"]), payoff=plain.get("payoff"),
                   turns=plain["turns"], decisions=plain["decisions"],
                   capped=plain["capped"], scores=plain["scores"], stats=plain["stats"])


RECORD_FIELDS = tuple(field.name for field in attrs.fields(GameRecord))


def play_one(game: Game, seed: int, settings: RunSettings) -> GameRecord:
    """One game on `seed` with agents built from `settings.spec`, capped and checked as
    `settings` say; returns its record."""
    state = game.new_state(seed)
    agents = make_agents(settings.spec, len(game.seats), seed)
    played = _random_playout(game, state, agents, settings)
    if played is not None:
        status, first = played
    else:
        opening = _Opening()
        status, _ = run_game(game, state,
                             lambda seat, legal: agents[seat].choose(game, state, legal),
                             max_turns=settings.max_turns,
                             max_decisions=settings.max_decisions, observer=opening,
                             check=settings.check)
        first = opening.first()
    finished = status == "finished"
    result = state.result if finished else None
    return GameRecord(
        seed=seed, game=game.name, seats=tuple(game.seats),
        players=tuple(agent.name for agent in agents),
        first=None if first is None else game.seats[first],
        winners=tuple(game.seats[s] for s in result["winners"]) if result is not None else (),
        draw=result is not None and result["draw"], returns=tuple(game.returns(state)),
        payoff=game.rules.payoff, turns=_turns_played(state, settings.max_turns),
        decisions=state.decisions, capped=not finished,
        scores=final_scores(game, state), stats=introspect.statistics(game, state))


def _turns_played(state: State, max_turns: int) -> int:
    """The turns a game played: its turn counter, except in a game the turn cap stopped,
    whose counter has moved on to the turn the cap kept from being played."""
    return min(state.turn, max_turns)


def _random_playout(game: Game, state: State, agents: list[Any],
                    settings: RunSettings) -> tuple[str, int | None] | None:
    """A game of random agents alone, unchecked: played to its end in one call on the
    typed engine, in one loop without the agents' calls on Python (`introspect.random_playout`:
    the same choices, so the same game and record as `run_game`'s). (status, the seat that
    played first), or None: play it in `run_game`."""
    if settings.check or any(agent.__class__ is not RandomAgent for agent in agents):
        return None
    rngs = [agent.rng for agent in agents]
    played = introspect.random_playout(game, state, rngs, settings.max_turns,
                                       settings.max_decisions)
    for agent, rng in zip(agents, rngs):
        agent.rng = rng
    if played[0] == "stuck":
        raise stuck(game, state)
    return played


class _Opening(Observer):
    """Who played first: the seat whose turn is turn 1, or in a game without turns the first
    to decide."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}      # 'turn': turn 1's seat; 'decision': the first

    def turn_started(self, state: State) -> None:
        if state.turn >= 1:
            self.seen.setdefault("turn", state.current)

    def deciding(self, seat: int, action: Action) -> None:
        self.seen.setdefault("decision", seat)

    def first(self) -> int | None:
        return self.seen.get("turn", self.seen.get("decision"))


def final_scores(game: Game, state: State) -> dict[str, float] | None:
    """Each seat's final score ({seat: number}) when the rule file declares one with
    `show score(s)` (the agents' heuristic, docs/agents.md), else None."""
    scores = introspect.scores(game, state)
    return None if scores is None else dict(zip(game.seats, scores))


def play_games(game: Game, indices: Iterable[int], settings: RunSettings,
               records: list[GameRecord], after_game: Callable[[], object] | None = None,
               stopped: Callable[[], bool] | None = None) -> None:
    """Play game i (seed `settings.seed + i`) for each i in `indices`, appending each record
    to `records` as it finishes (so an interruption keeps them); `after_game()` runs after
    each game, and `stopped()` is asked before each one."""
    for i in indices:
        if stopped is not None and stopped():
            return
        seed = settings.seed + i
        try:
            records.append(play_one(game, seed, settings))
        except GdlError as exc:
            exc.hints += (f"in simulated game {i + 1}, seed {seed} (gdl record with "
                          f"--seed {seed} plays it again)",)
            raise
        if after_game is not None:
            after_game()


def chunks_of(games: int, workers: int) -> list[tuple[int, int]]:
    """Games 0..games-1 as (first, last) ranges of consecutive indices, to hand out."""
    chunk = chunk_size(games, workers)
    return [(first, min(first + chunk, games)) for first in range(0, games, chunk)]


def chunk_size(games: int, workers: int) -> int:
    """Games a worker plays per task: small enough to share the work out evenly, large
    enough that handing out tasks costs little next to playing them."""
    return max(1, min(MAX_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER))))
