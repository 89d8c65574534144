"""OpenSpiel bridge: any gdl rule file as a `pyspiel` game, for OpenSpiel's bots and
algorithms.

    import pyspiel
    import gdl.interpreter.bridges.openspiel      # registers the game "gdl"
    game = pyspiel.load_game("gdl", {"file": "games/GAME.gdl", "rng_seed": 3})

or `openspiel.load("games/GAME.gdl", rng_seed=3)`. Parameters: `file` (the rule file),
`rng_seed` (the gdl seed of every initial state), `max_actions` (the bound on action ids,
`num_distinct_actions`) and `max_decisions` (`max_game_length`: a game that reaches it is
over, unfinished, every return 0), `min_utility` and `max_utility` (the least and the
greatest return, which OpenSpiel's `GameInfo` states). Without a `payoff(s)` the bounds are
-1 and 1. A payoff is an expression over the final position, and nothing in the language
bounds it, so a rule file with one needs both parameters (loading it without them is an
error that says so; docs/bridges.md lists the shipped games' bounds), and a return outside
the bounds given is an error when `returns()` meets it, never a value OpenSpiel's
algorithms would scale wrongly.

Players are the seats in order. An action id is the index of the action in the position's
legal list (see `position`); `action_to_string` gives its text. Returns are gdl's: the rule
file's `payoff(s)` at the end, or without one 1 for a win, -1 for a loss, 0 for a draw; 0
for an unfinished game.

Chance: the game is SAMPLED_STOCHASTIC. gdl rolls dice inside `apply`, from the generator
that is part of the state, and the rules decide at run time how many dice to roll and how
(a roll may depend on an earlier one, and `pick` and shuffles draw from lists), so chance
cannot be offered as explicit chance nodes with listed outcomes. OpenSpiel's MCTSBot (and
any search that replays actions on clones of its root) handles this correctly because a
clone rolls what the original rolls: the tree it builds is the game's tree for the dice of
that state's seed. The price is that such a search plans as if it knew the coming dice (it
searches one sample of them); a search that must not know them should give its root a state
made with another `rng_seed` per iteration, or average over several seeds.

Observations: `observation_string(player)` is the text of that seat's view, as `gdl play`
shows it to that seat; `information_state_string(player)` is the seat's whole history of
observations with its own actions between them (perfect recall; another seat's choices in
a `secret` phase that leave the seat's view as it was add nothing, so their number does not
show). Both are built from the
seat's view only, never from the state: what a seat may not see reaches neither.
No tensors are provided. `str(state)` is the whole position, hidden parts included (for
debugging, as OpenSpiel's convention is).

A state or a game holds the compiled rule file: pickling either, or `state.serialize()`, is
an error that says what to keep instead. `copy.copy` and `copy.deepcopy` of a state give a
clone; of a game, the game itself (a game never changes). `pyspiel.serialize_game_and_state`
fails inside OpenSpiel (`GetRNGState unimplemented.`): it asks a sampled-stochastic game for
its random generator's state, which a Python game cannot give.
"""

from __future__ import annotations

import math

import pyspiel

from ..language.errors import GdlError
from ..loader import load_game
from ..runtime import introspect
from ..runtime.engine import TERMINAL
from .position import (DEFAULT_MAX_ACTIONS, DEFAULT_MAX_DECISIONS, Limits, Position,
                       not_picklable)

SHORT_NAME = "gdl"
NOT_GIVEN = math.nan        # a bound's default: -1 or 1 without a payoff, else an error
PARAMETERS = {"file": "", "rng_seed": 0, "max_actions": DEFAULT_MAX_ACTIONS,
              "max_decisions": DEFAULT_MAX_DECISIONS, "min_utility": NOT_GIVEN,
              "max_utility": NOT_GIVEN}


def game_type(information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
              long_name="gdl rule file"):
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,    # several seats may win, or none
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,      # a rule file has 2 to 4 seats
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=PARAMETERS)


class GdlGame(pyspiel.Game):
    """A gdl rule file as an OpenSpiel game. `rules` is the loaded gdl `Game` when it is
    already at hand (made with `load_source`, say); otherwise `params["file"]` is loaded."""

    def __init__(self, params=None, rules=None):
        params = {**PARAMETERS, **(params or {})}
        if rules is None:
            if not params["file"]:
                raise GdlError("the OpenSpiel game 'gdl' needs the parameter 'file': the "
                               "rule file to play")
            rules = load_game(params["file"])
        elif not params["file"]:
            params["file"] = rules.path
        self.rules = rules
        self.limits = Limits(params["max_actions"], params["max_decisions"])
        self.rng_seed = params["rng_seed"]
        params["min_utility"], params["max_utility"] = self.bounds = utility_bounds(
            rules, params["min_utility"], params["max_utility"])
        information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                       if rules.rules.hidden_information
                       else pyspiel.GameType.Information.PERFECT_INFORMATION)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.limits.max_actions,
            max_chance_outcomes=0,
            num_players=len(rules.seats),
            min_utility=self.bounds[0],
            max_utility=self.bounds[1],
            utility_sum=None,
            max_game_length=self.limits.max_decisions)
        super().__init__(game_type(information, f"gdl: {rules.name}"), info, params)
        self._start = rules.new_state(self.rng_seed)

    def new_initial_state(self):
        return GdlState(self, Position(self.rules, self._start.clone(), self.limits))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise GdlError(f"the gdl observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(perfect_recall)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise not_picklable("OpenSpiel game", "load it again from its parameters "
                            "(`pyspiel.load_game(str(game))`)")


def utility_bounds(rules, low, high):
    """The least and the greatest return: the parameters `min_utility` and `max_utility`,
    given together (NaN when not given) and holding 0; -1 and 1 without a payoff."""
    given = [not math.isnan(bound) for bound in (low, high)]
    if not any(given):
        if rules.rules.payoff:
            raise GdlError("the rule file declares a payoff(s), whose range the bridge "
                           "cannot work out: load the game with the parameters min_utility "
                           "and max_utility, the least and the greatest return a seat can "
                           "get (OpenSpiel's GameInfo states them)", file=rules.path)
        return -1.0, 1.0
    if not all(given):
        name = "min_utility" if given[0] else "max_utility"
        raise GdlError(f"min_utility and max_utility are given together, not {name} alone")
    if not low <= 0 <= high:
        raise GdlError(f"min_utility={low:g} and max_utility={high:g} leave out 0, every "
                       "seat's return in a game stopped at max_decisions")
    return float(low), float(high)


class GdlState(pyspiel.State):
    """A position of a gdl game. `position` holds the gdl state (everything, hidden parts
    included: for tools and tests; a bot that must not cheat reads the observations)."""

    def __init__(self, game, position):
        super().__init__(game)
        self.position = position
        self._bounds = game.bounds

    def current_player(self):
        seat = self.position.current_seat()
        return pyspiel.PlayerId.TERMINAL if seat is None or seat == TERMINAL else seat

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        return list(range(len(self.position.legal())))

    def _apply_action(self, action):
        self.position.apply(action)

    def _action_to_string(self, player, action):
        return self.position.action_text(action, player if player >= 0 else None)

    def is_terminal(self):
        return self.position.is_over()

    def returns(self):
        returns = self.position.game.returns(self.position.state)
        low, high = self._bounds
        for seat, value in zip(self.position.game.seats, returns):
            if not low <= value <= high:
                raise GdlError(f"{seat}'s return {value:g} is outside the bounds the game was "
                               f"loaded with, min_utility={low:g} and max_utility={high:g}: "
                               "load it with bounds that hold every return")
        return returns

    def __str__(self):
        return self.position.everything()

    def serialize(self):
        raise self._not_picklable()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        raise self._not_picklable()

    @staticmethod
    def _not_picklable():
        return not_picklable("OpenSpiel state", "keep the actions played (`state.history()`, "
                             "to apply to `game.new_initial_state()`) or save "
                             "`state.position.state.to_json()`")


class ViewObserver:
    """OpenSpiel's observer for a gdl game: strings from a seat's view; no tensor. With
    perfect recall, the string is the seat's history of observations, made by replaying the
    state's history from the initial state; the last replay per seat is kept, so asking
    along one game (as OpenSpiel's tests and most algorithms do) replays each decision once."""

    def __init__(self, perfect_recall):
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict = {}
        self._replayed = {}     # seat -> (history, position after it, what the seat saw)

    def set_from(self, state, player):
        """Nothing to set: the observer provides no tensor."""

    def string_from(self, state, player):
        if not self.perfect_recall:
            return state.position.observation(player)
        return "\n\n".join(self.seen(state, player))

    def seen(self, state, player):
        """What `player` saw at each point of the game, and the text of each action it
        played there."""
        history = tuple(state.history())
        done, position, seen = self._replayed.get(player, ((), None, None))
        if position is None or history[:len(done)] != done:
            done = ()
            position = state.get_game().new_initial_state().position
            seen = [position.observation(player)]
        else:
            position, seen = position.clone(), list(seen)
        for action in history[len(done):]:
            decider = position.current_seat()
            if decider == player:
                seen.append("played: " + position.action_text(action, player))
            # another seat's choice in a secret phase: a new observation only when the
            # seat's view changed, so not even how many such choices there were shows
            secret = decider != player and introspect.is_private(position.game, position.state) \
                and not introspect.is_simultaneous(position.game, position.state)
            position.apply(action)
            observed = position.observation(player)
            if not (secret and observed == seen[-1]):
                seen.append(observed)
        self._replayed[player] = (history, position, seen)
        return seen


def load(rules, rng_seed=0, max_actions=DEFAULT_MAX_ACTIONS,
         max_decisions=DEFAULT_MAX_DECISIONS, min_utility=None, max_utility=None):
    """An OpenSpiel game for a rule file's path, or for a gdl `Game` already loaded. The
    bounds of a return are needed with a `payoff(s)` only (see the module's docstring)."""
    params = {"rng_seed": rng_seed, "max_actions": max_actions,
              "max_decisions": max_decisions,
              **{name: float(bound) for name, bound in
                 (("min_utility", min_utility), ("max_utility", max_utility))
                 if bound is not None}}
    if isinstance(rules, str):
        return pyspiel.load_game(SHORT_NAME, {"file": rules, **params})
    return GdlGame(params, rules)


pyspiel.register_game(game_type(), GdlGame)
