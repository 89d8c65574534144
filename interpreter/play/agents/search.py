"""Agents that look ahead: `MctsAgent` (Monte Carlo tree search) and `GreedyAgent` (one ply
on the rule file's score). Both decide from their seat's view only: they search states made
by `determinize.Determinizer`, never the state they were handed, which holds what the seat
may not see (and the dice to come).

`MctsAgent(seed, iterations=100, rollout=10, c=1.0)` is information-set MCTS with a
single observer (Cowling, Powley and Whitehouse 2012). It first plays each legal action once
and judges the position it leads to (`_first_look`); then each iteration draws a fresh
determinization, walks down one tree of action sequences choosing by UCB1 among the
children legal in that determinization (each counts how often it was available, for its
exploration term; equal values are broken at random), adds one node, plays at most
`rollout` random decisions from there and backs up one value per seat: a finished game's
returns (win 1, draw 1/2, loss 0; a `payoff(s)` return r is 1/2 + r / 2m, with m the largest
return the agent has seen, at least 1), or for a rollout cut short, `outcome` below. A node's
statistics are per seat, so a node is judged by the seat that chooses there: 2 to 4 seats,
any turn order, simultaneous phases included (a seat choosing there only sees its own draw
of the others' choices). It plays the action of the root tried most often (ties: the best
mean value, then the first listed: `_rank`), and stops early once no other action could
overtake it in the iterations left.

`GreedyAgent(seed)` plays each legal action on one determinization and keeps the best for
its seat: a won game, else the highest score lead (its score minus the best other seat's),
else ties broken at random. Without a `show score(s)` only an immediate win (or avoiding an
immediate loss) tells actions apart. It is cheap (one state per legal action) and a
baseline that plays toward the score: what a designer needs to see whether a score-chasing
player wins, and a quick opponent for balance runs.
"""

from __future__ import annotations

import contextlib
from math import log, sqrt

from ...language.errors import GdlError
from ...runtime import introspect
from .determinize import Determinizer, Stream, determinize

CUT_SHORT = (0.25, 0.75)    # value range of a rollout cut short, inside loss 0 .. win 1
CHECK_EVERY = 10            # iterations between checks whether the choice is settled
FIRST_LOOKS = 10            # determinizations tried for the first look before giving up


def agent_stream(seed, seat, salt):
    """An agent's own random stream from the game's seed and its seat."""
    return Stream(((seed * 31 + seat + 1) * 0x2545F4914F6CDD1D + salt) & ((1 << 64) - 1))


def outcome(game, state, scale=1.0):
    """Per seat, a value from 0 (lost) to 1 (won). A finished game: its returns r as
    1/2 + r / (2 x scale), `scale` at least the largest return (a draw is 1/2). An unfinished one with a `show score(s)`: 1/4 + 1/2 x the share of the other seats
    still playing that the seat's score is ahead of (`_ahead`); without: 1/2 each."""
    n = len(game.seats)
    if game.is_terminal(state):
        return [0.5 + r / (2 * scale) for r in game.returns(state)]
    scores = introspect.scores(game, state)
    if scores is None:
        return [0.5] * n
    low, high = CUT_SHORT
    out = introspect.seats_out(state)
    live = [s for s in range(n) if not out[s]]
    values = []
    for seat in range(n):
        others = [o for o in live if o != seat]
        if out[seat] or not others:
            values.append(low if out[seat] else high)
            continue
        ahead = sum(_ahead(scores[seat], scores[o]) for o in others)
        values.append(low + (high - low) * ahead / len(others))
    return values


def _ahead(mine, theirs):
    """How far a score is ahead of another, 0 to 1 (1/2 level): half for being ahead at all,
    half for the lead as a share of the larger score, so no scale needs to be known."""
    step = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    lead = max(-1.0, min(1.0, (mine - theirs) / max(abs(mine), abs(theirs), 1)))
    return (step + (1 + lead) / 2) / 2


class _Node:
    __slots__ = ("children", "visits", "available", "totals")

    def __init__(self, nseats):
        self.children = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * nseats


class MctsAgent:
    name = "mcts"

    def __init__(self, seed, seat, iterations=100, rollout=10, c=1.0):
        self.rng = agent_stream(seed, seat, 0x6D637473)
        self.iterations, self.rollout, self.c = iterations, rollout, c
        self.scale = 1.0    # the largest return seen: payoffs beyond 1 are judged by it

    def _outcome(self, game, state):
        if game.is_terminal(state):
            self.scale = max([self.scale] + [abs(r) for r in game.returns(state)])
        return outcome(game, state, self.scale)

    def choose(self, game, state, legal):
        if len(legal) == 1:
            return legal[0]
        game, state = introspect.search_position(game, state)
        me = game.current_player(state)
        worlds = Determinizer(game, state, me)
        allowed = {_key(action) for action in legal}
        root = _Node(len(game.seats))
        for _ in range(FIRST_LOOKS):
            with _unless_impossible():
                root = self._first_look(game, worlds.sample(self.rng), legal)
                break
        for done in range(1, self.iterations + 1):
            with _unless_impossible():
                self._iterate(game, worlds.sample(self.rng), root, allowed)
            if done % CHECK_EVERY == 0 and _settled(root, self.iterations - done):
                break
        return legal[max(range(len(legal)), key=lambda i: _rank(root, legal, i, me))]

    def _first_look(self, game, world, legal):
        """A root whose children are every legal action, each played once on one
        determinization and judged as it stands (no rollout): the search starts from what
        one ply shows (a move that loses at once is never tried again), not from the
        random order in which it would otherwise try them."""
        root = _Node(len(game.seats))
        possible = {_key(action) for action in game.legal_actions(world)}
        for action in legal:
            if _key(action) not in possible:
                continue
            after = world.clone()
            game.apply(after, action, check=False)
            child = root.children[_key(action)] = _Node(len(game.seats))
            child.visits = child.available = 1
            child.totals = self._outcome(game, after)
        return root

    def _iterate(self, game, world, root, allowed):
        node, path, rng, added = root, [root], self.rng, None
        while not game.is_terminal(world):
            legal = game.legal_actions(world)
            if not legal:       # a drawn world the rules leave stuck: dropped (_stuck)
                return
            if node is root:    # the seat's own choices: those it was offered
                try:
                    legal = [action for action in legal if action in allowed]     # `_key`
                except TypeError:   # arguments that are lists
                    legal = [action for action in legal if _key(action) in allowed]
                if not legal:
                    return
            player = game.current_player(world)
            untried, present, children = [], [], node.children
            for action in legal:
                try:
                    child = children.get(action)     # (an action is its own key: `_key`)
                except TypeError:                   # arguments that are lists
                    child = children.get(_key(action))
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
                    present.append((child, action))
            if untried:
                action = untried[rng.below(len(untried))]
                child = _Node(len(game.seats))
                child.available = 1
                game.apply(world, action, check=False)
                node.children[_key(action)] = child
                added = node.children, _key(action)
                path.append(child)
                break
            start = rng.below(len(present))     # equal values: no bias to the list's order
            best, c = None, self.c
            for child, move in present[start:] + present[:start]:     # the first best UCB1
                value = child.totals[player] / child.visits \
                    + c * sqrt(log(child.available) / child.visits)
                if best is None or value > best:
                    best, node, action = value, child, move
            game.apply(world, action, check=False)
            path.append(node)
        try:
            stream = [rng.state]
            played = introspect.random_rollout(game, world, stream, self.rollout)  # typed
            rng.state = stream[0]
            if not played:      # stopped with no legal action
                for _ in range(self.rollout):
                    if game.is_terminal(world):
                        break
                    legal = game.legal_actions(world)
                    if not legal:
                        _stuck(added)
                        return
                    game.apply(world, legal[rng.below(len(legal))], check=False)
            values = self._outcome(game, world)
        except GdlError:
            if added is not None:       # the node just added goes with its world
                del added[0][added[1]]
            raise
        for node in path:
            node.visits += 1
            totals = node.totals
            for seat, value in enumerate(values):
                totals[seat] += value


def _rank(root, legal, i, seat):
    """How a root action ranks: tried most often, then the best mean value for the seat,
    then the rule file's order (the first listed)."""
    child = root.children.get(_key(legal[i]))
    if child is None:
        return -1, 0.0, -i
    return child.visits, child.totals[seat] / child.visits, -i


def _stuck(added):
    """Drop an iteration whose drawn world the rules leave stuck (no legal action, not
    over), as `_unless_impossible` drops one they cannot play: the real position has legal
    actions (the agent was asked), so such a world says nothing of it. The node just added
    goes with it."""
    if added is not None:
        del added[0][added[1]]


@contextlib.contextmanager
def _unless_impossible():
    """Drop a drawn world that the rules cannot play. A determinization gives what the seat
    may not see values it could have, not values the rules guarantee (another seat's hidden
    die is drawn as the seat's own, which may be none where the rules bought one), so the
    rules may fault on it. Such a world says nothing of the real one: the iteration is
    skipped (a fault of the real position is still raised where the game is played)."""
    try:
        yield
    except GdlError:
        pass


def _settled(root, left):
    """Can no other action of the root overtake the most tried one in `left` iterations?"""
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed, seat):
        self.rng = agent_stream(seed, seat, 0x67726479)

    def choose(self, game, state, legal):
        if len(legal) == 1:
            return legal[0]
        game, state = introspect.search_position(game, state)
        seat = game.current_player(state)
        world = determinize(game, state, seat, self.rng)
        possible = {_key(action) for action in game.legal_actions(world)}
        best, best_value = [], None
        for action in legal:
            value = (0, 0)
            if _key(action) in possible:
                after = world.clone()
                with _unless_impossible():
                    game.apply(after, action, check=False)
                    value = _lead(game, after, seat)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self.rng.below(len(best))]


def _lead(game, state, seat):
    """(result, score lead) of `state` for `seat`: result 1 won, -1 lost, 0 otherwise; the
    lead is its score minus the best other seat's (0 without a score)."""
    if game.is_terminal(state):
        return game.returns(state)[seat], 0
    scores = introspect.scores(game, state)
    out = introspect.seats_out(state) if scores is not None else []
    others = [scores[o] for o in range(len(game.seats)) if o != seat and not out[o]] \
        if scores is not None else []
    return 0, (scores[seat] - max(others)) if others else 0


def _key(action):
    """An action as a dictionary key (its arguments may be lists)."""
    try:
        hash(action)
        return action
    except TypeError:
        index, args = action
    return index, tuple(tuple(a) if isinstance(a, list) else a for a in args)
