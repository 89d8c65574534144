"""`payoff(s) = expr`: each seat's return when the game ends, in place of 1/-1/0
(docs/language.md, "Payoffs"); what uses the returns (simulate, report, compare, the bridges,
mcts); the checker's errors, pinned."""

import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.play.agents.search import MctsAgent
from gdl.interpreter.play.balance.compare import compare
from gdl.interpreter.play.balance.report import analyse
from gdl.interpreter.play.balance.simulate import simulate

from tests.helpers import ROOT
PAYOFF = os.path.join(ROOT, "tests", "rules", "payoff.gdl")
NIM = os.path.join(ROOT, "tests", "rules", "nim.gdl")

BASE = """seats a, b
board square(1, 1)
var seat.points = 0
setup { goto p for a }
phase p { action x() { me.points += 1 if me.points > 1 { win me } } }
"""


def play_to_the_end(game, seed, choice=0):
    state = game.new_state(seed)
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[choice % len(legal)])
    return state


def test_the_returns_are_the_payoffs_of_the_final_position():
    game = load_game(PAYOFF)
    seen = set()
    for seed in range(60):
        state = play_to_the_end(game, seed, choice=seed)
        returns = game.returns(state)
        assert sum(returns) == 0                    # this game is zero-sum
        winners = state.result["winners"]
        assert (returns[0] > 0) == (winners == [0]) and (returns[1] > 0) == (winners == [1])
        seen.add(tuple(returns))
    assert seen == {(0.0, 0.0), (1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}
    assert game.rules.payoff and not load_game(NIM).rules.payoff


def test_an_unfinished_game_returns_zero_and_payoffs_need_not_sum_to_zero():
    game = load_source(BASE + "payoff(s) = 10 * s.points + 1\n")
    state = game.new_state(0)
    assert game.returns(state) == [0.0, 0.0]
    state = play_to_the_end(game, 0)
    assert game.returns(state) == [21.0, 1.0]     # only a plays


def test_simulate_report_and_compare_give_mean_returns_only_with_a_payoff():
    game = load_game(PAYOFF)
    summary, records = simulate(game, 60, seed=0)
    assert summary.mean_returns == {
        "a": round(sum(r.returns[0] for r in records) / 60, 3),
        "b": round(sum(r.returns[1] for r in records) / 60, 3)}
    assert "mean_returns" in summary.to_json()
    assert set(analyse(records)["returns"]) == {"a", "b"}
    plain, plain_records = simulate(load_game(NIM), 10, seed=0)
    assert plain.mean_returns is None and "mean_returns" not in plain.to_json()
    assert "returns" not in analyse(plain_records)
    result = compare((game, PAYOFF), (game, PAYOFF), 20)
    assert result["mean_returns"]["base"] == result["mean_returns"]["variant"]
    assert "mean_returns" not in compare((load_game(NIM), NIM), (load_game(NIM), NIM), 5)


def test_mcts_judges_a_payoff_by_the_largest_return_it_has_seen():
    game = load_game(PAYOFF)
    agent = MctsAgent(seed=1, seat=0, iterations=50)
    state = game.new_state(2)
    agent.choose(game, state, game.legal_actions(state))
    assert agent.scale == 2.0


def test_the_openspiel_bridge_returns_the_payoffs_within_stated_bounds():
    pytest.importorskip("pyspiel")
    from gdl.interpreter.bridges import openspiel
    game = openspiel.load(PAYOFF, rng_seed=3, min_utility=-2, max_utility=2)
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert state.returns() == [-2.0, 2.0]       # seed 3: a bets, b calls with the higher card


def test_pettingzoo_rewards_are_the_payoffs():
    pytest.importorskip("pettingzoo")
    from gdl.interpreter.bridges.pettingzoo import GdlEnv
    env = GdlEnv(PAYOFF)
    env.reset(seed=3)
    rewards = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(len(env.action_texts(agent)) - 1)
    assert rewards == {"a": -2.0, "b": 2.0}


def test_a_variant_replaces_the_payoff(tmp_path):
    variant = tmp_path / "v.gdl"
    variant.write_text(f'extends "{PAYOFF}"\npayoff(s) = if s in winners then 1 else 0\n')
    game = load_game(str(variant))
    state = play_to_the_end(game, 3, choice=1)
    assert sorted(game.returns(state)) in ([0.0, 0.0], [0.0, 1.0])


@pytest.mark.parametrize("line, message", [
    ("payoff(s) = s", "<string>:6:13: error: type mismatch: a 'payoff' needs a number, but "
     "this is a seat"),
    ("payoff(s) = 1\npayoff(t) = 2",
     "<string>:7:1: error: 'payoff' is declared twice; the first is at line 6"),
    ("payoff(s) = s.nope", "<string>:6:13: error: a seat has no field 'nope'"),
    ("payoff(s) = s.points + x", "<string>:6:24: error: unknown name 'x'"),
])
def test_checker_errors(line, message):
    with pytest.raises(GdlRuleError) as caught:
        load_source(BASE + line + "\n")
    assert caught.value.render().startswith(message)
