"""PettingZoo bridge: a gdl game as an AEC environment whose agents are the seats.

    from gdl.interpreter.bridges.pettingzoo import GdlEnv, observation_text
    env = GdlEnv("games/GAME.gdl")
    env.reset(seed=3)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are the seat names (`env.possible_agents == game.seats`); the agent to act is the
seat that decides, one decision at a time (a simultaneous phase is asked seat by seat, each
choice hidden from the others until the reveal, as gdl plays it).

Actions: `Discrete(max_actions)`; an action is the index of a legal action in the
position's legal list (see `position`), and `observation["action_mask"]` marks the legal
ones (1 for ids 0 to n-1 of the deciding seat, all 0 for the others).
`env.action_texts(agent)` gives their texts as that seat reads them.

Observations: `{"observation": the text of the agent's view as UTF-8 bytes, 0-padded to
max_observation_bytes (a uint8 Box), "action_mask": ...}`; `observation_text(obs)` decodes
it. The view is what `gdl play` shows that seat, made from what the seat may see only.
PettingZoo's API test needs numeric arrays, so the text travels as bytes; a view longer than
max_observation_bytes is an error that names the parameter.

Rewards come at the end: gdl's returns (the rule file's `payoff(s)`, else 1 win, -1 loss, 0
draw). A seat that is out
before the end is not asked to act but stays an agent until the end, since gdl decides
every seat's result when the game ends. A game that reaches max_decisions is truncated for
every agent, with reward 0. Chance is inside a step, from the seed given to `reset` (gdl's
seed: `reset(seed=3)` is the game of `gdl play --seed 3`; `reset()` without a seed plays the
next seed after the last one). `render()` (render_mode "ansi") returns the whole position,
hidden parts included: it is for a person watching, not an observation.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..language.errors import GdlError, IllegalAction
from ..loader import load_game
from .position import DEFAULT_MAX_ACTIONS, DEFAULT_MAX_DECISIONS, Limits, Position

DEFAULT_MAX_OBSERVATION_BYTES = 16384     # the shipped games' views take at most about 5200


def observation_text(observation):
    """The text of an observation's view (the bytes up to the padding, decoded)."""
    data = observation["observation"] if isinstance(observation, dict) else observation
    return bytes(data).rstrip(b"\0").decode("utf-8")


class GdlEnv(AECEnv):
    """A gdl rule file (a path, or a gdl `Game` already loaded) as a PettingZoo AEC
    environment. `position` is the gdl position being played: everything, hidden parts
    included, for tools and tests; an agent reads `observe`."""

    metadata = {"name": "gdl_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules, *, max_actions=DEFAULT_MAX_ACTIONS,
                 max_decisions=DEFAULT_MAX_DECISIONS,
                 max_observation_bytes=DEFAULT_MAX_OBSERVATION_BYTES, render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise GdlError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.rules = load_game(rules) if isinstance(rules, str) else rules
        self.limits = Limits(max_actions, max_decisions)
        self.max_observation_bytes = max_observation_bytes
        self.render_mode = render_mode
        self.possible_agents = list(self.rules.seats)
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 255, (max_observation_bytes,), np.uint8),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
        }) for a in self.possible_agents}
        self.seed = None
        self.position = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = 0 if self.seed is None else (self.seed + 1) % (1 << 64)
        self.seed = seed
        self.position = Position(self.rules, self.rules.new_state(seed), self.limits)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self):
        """The agent to act: the deciding seat, or once the game is over, the first agent
        that must still take its final step."""
        if self.position.is_over():
            self.agent_selection = self.agents[0]
            self._deads_step_first()
        else:
            self.agent_selection = self.rules.seats[self.position.current_seat()]
            self.position.legal()       # a stuck game or too many actions: say so now

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is deciding: an action id is needed, not None (the "
                                "action of an agent that is done)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.position.apply(int(action))
        if self.position.is_over():
            ended = self.truncations if self.position.capped() else self.terminations
            for agent, value in zip(self.rules.seats, self.rules.returns(self.position.state)):
                self.rewards[agent] = value
                ended[agent] = True
        self._accumulate_rewards()
        self._select()

    def observe(self, agent):
        seat = self._seat(agent)
        data = self.position.observation(seat).encode("utf-8")
        if len(data) > self.max_observation_bytes:
            raise GdlError(f"{agent}'s view takes {len(data)} bytes, more than "
                           f"max_observation_bytes={self.max_observation_bytes}: make the "
                           "environment with a larger max_observation_bytes")
        observation = np.zeros(self.max_observation_bytes, np.uint8)
        observation[:len(data)] = np.frombuffer(data, np.uint8)
        mask = np.zeros(self.limits.max_actions, np.int8)
        if self.position.current_seat() == seat:
            mask[:len(self.position.legal())] = 1
        return {"observation": observation, "action_mask": mask}

    def action_texts(self, agent):
        """The texts of the agent's legal actions, by id, as it reads them ([] when it is
        not deciding)."""
        seat = self._seat(agent)
        if self.position.current_seat() != seat:
            return []
        return [self.position.action_text(i, seat) for i in range(len(self.position.legal()))]

    def _seat(self, agent):
        """The seat number of an agent; an unknown agent is an error naming the agents."""
        if agent not in self.possible_agents:
            raise GdlError(f"there is no agent {agent!r}: the agents are "
                           f"{', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def render(self):
        if self.render_mode is None:
            return None
        return self.position.everything()

    def close(self):
        """Nothing to release."""
