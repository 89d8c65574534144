"""The PettingZoo bridge (gdl.interpreter.bridges.pettingzoo): the AEC environment passes
PettingZoo's own API test on shipped games and test rule files, plays the game gdl plays for
a seed, ends with gdl's returns, and an agent's observation comes from its seat's view only.
Skipped, saying why, where PettingZoo is not installed (`pip install -e '.[pettingzoo]'`; CI
installs it)."""

import contextlib
import io
import os
import re
import warnings

import pytest

pettingzoo = pytest.importorskip(
    "pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from gdl.interpreter import GdlError, load_game  # noqa: E402
from gdl.interpreter.bridges.pettingzoo import GdlEnv, observation_text  # noqa: E402
from gdl.interpreter.bridges.position import Position  # noqa: E402
from gdl.interpreter.runtime.view import render  # noqa: E402

from tests.helpers import ROOT, hiding_games, twins  # noqa: E402

HIDING_GAMES = hiding_games()
NIM = os.path.join(ROOT, "tests", "rules", "nim.gdl")
HANDS = os.path.join(ROOT, "tests", "rules", "hands.gdl")


@pytest.mark.parametrize("name, max_decisions", [
    ("tests/rules/nim.gdl", 100_000), ("tests/rules/hands.gdl", 100_000),
    ("tests/rules/dice.gdl", 60), ("games/space_war.gdl", 100_000),
    ("games/galaxy_of_d_quick.gdl", 150), ("games/galaxy_grid.gdl", 150)])
def test_pettingzoo_api_test_passes(name, max_decisions, capsys):
    env = GdlEnv(os.path.join(ROOT, name), max_decisions=max_decisions)
    with warnings.catch_warnings():
        # Advice for environments with numeric observations and agents named player_0; ours
        # are a view's text and seat names.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=200)
    assert "Passed API test" in capsys.readouterr().out


def play_randomly(env, seed):
    """Every agent samples a legal action; returns (agent, action) pairs and the rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    played, rewards = [], {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        played.append((agent, env.action_texts(agent)[action]))
        env.step(action)
    return played, rewards


def test_a_game_ends_with_gdls_returns_for_every_agent():
    env = GdlEnv(NIM)
    played, rewards = play_randomly(env, 4)
    taken = sum(int(text.split()[1]) for _, text in played)
    assert taken == 11          # seed 4 rolls a pile of 11, and every stone was taken
    winner = played[-1][0]      # who took the last stone
    assert rewards == {a: 1.0 if a == winner else -1.0 for a in ("blue", "red")}
    assert env.agents == []


def test_the_same_seed_plays_the_same_game():
    env = GdlEnv(os.path.join(ROOT, "games", "space_war.gdl"))
    assert play_randomly(env, 2) == play_randomly(env, 2)
    assert play_randomly(env, 2) != play_randomly(env, 3)


def test_reset_plays_gdls_game_of_that_seed_and_then_the_next():
    rules = load_game(os.path.join(ROOT, "games", "space_war.gdl"))
    env = GdlEnv(rules)
    env.reset(seed=7)
    state = rules.new_state(7)
    seat = rules.current_player(state)
    assert env.possible_agents == ["blue", "red"] and env.agent_selection == rules.seats[seat]
    observation, *_ = env.last()
    assert observation_text(observation) == render(rules, rules.view(state, seat))
    legal = rules.legal_actions(state)
    assert env.action_texts(rules.seats[seat]) == [rules.action_text(state, a, seat)
                                                   for a in legal]
    assert list(observation["action_mask"][:len(legal) + 1]) == [1] * len(legal) + [0]
    env.reset()
    assert env.seed == 8


def test_only_the_deciding_agent_has_legal_actions():
    env = GdlEnv(NIM)
    env.reset(seed=0)
    assert env.observe("red")["action_mask"].sum() == 0 and env.action_texts("red") == []
    assert env.observe("blue")["action_mask"].sum() == 3


def test_the_decision_cap_truncates_every_agent_with_no_reward():
    env = GdlEnv(NIM, max_decisions=2)
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    assert env.truncations == {"blue": True, "red": True}
    assert env.terminations == {"blue": False, "red": False}
    assert env.rewards == {"blue": 0.0, "red": 0.0}


def test_an_illegal_action_is_refused():
    env = GdlEnv(NIM)
    env.reset(seed=0)
    with pytest.raises(GdlError, match="action id 5 is not legal here: the ids are 0 to 2"):
        env.step(5)
    with pytest.raises(GdlError, match="blue is deciding: an action id is needed, not None"):
        env.step(None)


@pytest.mark.parametrize("ask", [GdlEnv.observe, GdlEnv.action_texts],
                         ids=["observe", "action_texts"])
def test_an_agent_that_is_not_a_seat_is_an_error_naming_the_agents(ask):
    env = GdlEnv(NIM)
    env.reset(seed=0)
    with pytest.raises(GdlError) as caught:
        ask(env, "nobody")
    assert str(caught.value) == "error: there is no agent 'nobody': the agents are blue, red"


def test_a_view_longer_than_the_observation_is_an_error_naming_the_bound():
    env = GdlEnv(NIM, max_observation_bytes=40)
    env.reset(seed=0)
    with pytest.raises(GdlError, match="more than max_observation_bytes=40"):
        env.last()


def test_render_shows_everything_and_only_when_asked():
    env = GdlEnv(HANDS, render_mode="ansi")
    env.reset(seed=0)
    env.step(env.action_texts("a").index("show rock"))
    assert "rock" in env.render()
    assert "rock" not in observation_text(env.observe("b"))
    assert "rock" in observation_text(env.observe("a"))
    silent = GdlEnv(HANDS)
    silent.reset(seed=0)
    assert silent.render() is None


@pytest.mark.parametrize("path", HIDING_GAMES, ids=os.path.basename)
def test_an_agent_observes_the_same_in_twin_positions(path):
    rules = load_game(path)
    env = GdlEnv(rules)
    env.reset(seed=0)
    for _, state, other, seat in twins(rules, limit=20):
        agent = rules.seats[seat]
        seen = []
        for position in (state, other):
            env.position = Position(rules, position, env.limits)
            observation = env.observe(agent)
            seen.append((observation["observation"].tobytes(),
                         observation["action_mask"].tobytes(), env.action_texts(agent)))
        assert seen[0] == seen[1]


def test_the_snippet_in_the_docs_prints_what_the_docs_say(monkeypatch):
    with open(os.path.join(ROOT, "docs", "bridges.md"), encoding="utf-8") as handle:
        snippet = re.findall(r"```python\n(.*?)```", handle.read(), re.S)[1]
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "docs/bridges.md", "exec"), {})
    assert out.getvalue().splitlines() == ["blue 1.0", "red -1.0", "Space War - turn 5, game over: blue won"]
