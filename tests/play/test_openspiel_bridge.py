"""The OpenSpiel bridge (gdl.interpreter.bridges.openspiel): OpenSpiel's own MCTS bot plays
gdl games through it, OpenSpiel's own sanity check (`random_sim_test`) passes, action ids
are stable across clones, and a seat's observation and information state come from its view
only. Skipped, saying why, where OpenSpiel is not installed (`pip install -e '.[openspiel]'`;
CI installs it)."""

import contextlib
import copy
import glob
import io
import os
import pickle
import re

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")
np = pytest.importorskip("numpy")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

from gdl.interpreter import GdlError, load_game  # noqa: E402
from gdl.interpreter.bridges import openspiel  # noqa: E402
from gdl.interpreter.bridges.position import Limits, Position  # noqa: E402

from tests.helpers import ROOT, hiding_games, twins  # noqa: E402

HIDING_GAMES = hiding_games()
NIM = os.path.join(ROOT, "tests", "rules", "nim.gdl")
HANDS = os.path.join(ROOT, "tests", "rules", "hands.gdl")
SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
KUHN = os.path.join(ROOT, "games", "classic", "kuhn_poker.gdl")


def docs():
    with open(os.path.join(ROOT, "docs", "bridges.md"), encoding="utf-8") as handle:
        return handle.read()


def documented_bounds():
    """The table of docs/bridges.md: rule file -> (min_utility, max_utility)."""
    rows = re.findall(r"^\| `(games/[^`]+)` \| (\S+) \| (\S+) \|", docs(), re.M)
    return {path: (float(low), float(high)) for path, low, high in rows}


def mcts_bot(game, simulations, seed):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(game, 2, simulations, evaluator, random_state=np.random.RandomState(seed))


def texts(state):
    player = state.current_player()
    return [state.action_to_string(player, a) for a in state.legal_actions()]


def play(state, texts_to_play):
    for text in texts_to_play:
        state.apply_action(texts(state).index(text))
    return state


def test_load_by_name_with_parameters():
    game = pyspiel.load_game("gdl", {"file": NIM, "rng_seed": 1})
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 1024 and game.max_game_length() == 100_000
    kind = game.get_type()
    assert kind.short_name == "gdl" and kind.long_name == "gdl: Nim"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    assert "pile=12" in state.observation_string(0)     # seed 1 rolls a 4
    assert texts(state) == ["take 1", "take 2", "take 3"]
    assert state.legal_actions() == [0, 1, 2] and state.legal_actions(1) == []


def test_a_game_that_hides_something_is_imperfect_information():
    kind = openspiel.load(HANDS).get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_a_rule_file_is_needed():
    with pytest.raises(GdlError, match="needs the parameter 'file'"):
        pyspiel.load_game("gdl")


@pytest.mark.parametrize("name, max_decisions", [
    ("tests/rules/nim.gdl", 100_000), ("tests/rules/hands.gdl", 100_000),
    ("tests/rules/directions.gdl", 100_000), ("tests/rules/dice.gdl", 60),
    ("games/space_war.gdl", 100_000), ("games/galaxy_grid_3.gdl", 80)])
def test_openspiel_random_simulation_checks(name, max_decisions):
    # OpenSpiel's own checks: legal actions sorted and in range, masks, clones, returns,
    # observation and information-state strings at every state, several games.
    game = openspiel.load(os.path.join(ROOT, name), max_decisions=max_decisions)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("seed, mcts_seat", [(0, 0), (1, 1)])
def test_openspiel_mcts_bot_wins_nim_from_a_winning_position(seed, mcts_seat):
    # A pile of 14 (seed 0) is won by the first seat, 12 (seed 1) by the second: every move
    # of the winner must be the right one, or the random seat can take the last stone.
    game = openspiel.load(NIM, rng_seed=seed)
    bot = mcts_bot(game, 300, seed)
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == mcts_seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns()[mcts_seat] == 1.0


def test_openspiel_mcts_bots_play_a_full_game_the_same_way_twice():
    def game_record():
        game = openspiel.load(NIM, rng_seed=6)
        bots = [mcts_bot(game, 100, seat) for seat in range(2)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        return state.history(), state.returns()

    history, returns = game_record()
    assert (history, returns) == game_record()
    assert returns == [1.0, -1.0]       # 13 stones: the first seat wins with perfect play


def test_openspiel_mcts_bot_plays_space_war_for_some_decisions():
    def opening():
        game = openspiel.load(SPACE_WAR, rng_seed=3)
        bots = [mcts_bot(game, 15, seat) for seat in range(2)]
        state = game.new_initial_state()
        played = []
        for _ in range(8):
            player = state.current_player()
            action = bots[player].step(state)
            assert action in state.legal_actions()
            played.append(state.action_to_string(player, action))
            state.apply_action(action)
        assert not state.is_terminal()
        return played

    played = opening()
    assert played == opening()      # seeded bots, seeded dice: the same game
    assert played[0].startswith("side ") and played[1].startswith("station ")


def test_action_ids_are_the_same_in_a_clone_and_play_the_same():
    game = openspiel.load(SPACE_WAR, rng_seed=5)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(40):
        copy = state.clone()
        assert copy.legal_actions() == state.legal_actions() and texts(copy) == texts(state)
        assert copy.history() == state.history()
        action = int(rng.choice(state.legal_actions()))
        copy.apply_action(action)
        state.apply_action(action)
        assert str(copy) == str(state)      # the same dice too: the seed is in the state


def test_the_decision_cap_ends_a_game_unfinished():
    game = openspiel.load(NIM, max_decisions=3)
    state = play(game.new_initial_state(), ["take 1", "take 1", "take 1"])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []


def test_more_legal_actions_than_the_bound_is_an_error_naming_it():
    state = openspiel.load(NIM, max_actions=2).new_initial_state()
    with pytest.raises(GdlError, match="blue has 3 legal actions at decision 1, more than "
                                       "max_actions=2"):
        state.legal_actions()


def test_an_illegal_id_is_refused():
    state = openspiel.load(NIM).new_initial_state()
    with pytest.raises(GdlError, match="action id 3 is not legal here: the ids are 0 to 2"):
        state.apply_action(3)


def test_the_docs_give_the_bounds_of_every_shipped_game_with_a_payoff():
    shipped = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))
    with_payoff = [os.path.relpath(path, ROOT) for path in shipped if load_game(path).rules.payoff]
    assert sorted(documented_bounds()) == with_payoff


@pytest.mark.parametrize("path", sorted(documented_bounds()))
def test_a_payoff_game_loaded_with_its_documented_bounds_passes_openspiel_checks(path):
    low, high = documented_bounds()[path]
    game = pyspiel.load_game("gdl", {"file": os.path.join(ROOT, path), "rng_seed": 0,
                                     "min_utility": low, "max_utility": high})
    assert (game.min_utility(), game.max_utility()) == (low, high)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_a_payoff_game_needs_its_bounds():
    with pytest.raises(GdlError) as caught:
        pyspiel.load_game("gdl", {"file": KUHN})
    assert str(caught.value) == (
        f"{KUHN}: error: the rule file declares a payoff(s), whose range the bridge cannot "
        "work out: load the game with the parameters min_utility and max_utility, the least "
        "and the greatest return a seat can get (OpenSpiel's GameInfo states them)")
    with pytest.raises(GdlError, match="^error: min_utility and max_utility are given "
                                       "together, not max_utility alone$"):
        openspiel.load(KUHN, max_utility=2)
    with pytest.raises(GdlError, match="^error: min_utility=1 and max_utility=2 leave out 0, "
                                       "every seat's return in a game stopped at "
                                       "max_decisions$"):
        openspiel.load(KUHN, min_utility=1, max_utility=2)


def test_without_a_payoff_the_bounds_are_minus_one_and_one_and_show_in_the_game_string():
    game = pyspiel.load_game("gdl", {"file": NIM})
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert "max_utility=1.0,min_utility=-1.0" in str(game)
    assert pyspiel.load_game(str(game)).min_utility() == -1.0


def test_a_return_outside_the_bounds_given_is_an_error():
    game = openspiel.load(KUHN, min_utility=-1, max_utility=1)
    state = play(game.new_initial_state(), ["bet", "bet"])      # a bet called: 2 chips each
    with pytest.raises(GdlError, match=r"^error: (one|two)'s return -?2 is outside the bounds "
                                       r"the game was loaded with, min_utility=-1 and "
                                       r"max_utility=1: load it with bounds that hold every "
                                       r"return$"):
        state.returns()


STATE_ERROR = ("error: a gdl OpenSpiel state cannot be pickled or serialized (it holds the "
               "compiled rule file): keep the actions played (`state.history()`, to apply to "
               "`game.new_initial_state()`) or save `state.position.state.to_json()` instead")


@pytest.mark.parametrize("serialize", [lambda state: state.serialize(), pickle.dumps],
                         ids=["serialize", "pickle"])
def test_a_state_says_it_cannot_be_serialized(serialize):
    state = openspiel.load(NIM).new_initial_state()
    with pytest.raises(GdlError) as caught:
        serialize(state)
    assert str(caught.value) == STATE_ERROR


def test_a_game_says_it_cannot_be_pickled():
    with pytest.raises(GdlError) as caught:
        pickle.dumps(openspiel.load(NIM))
    assert str(caught.value) == (
        "error: a gdl OpenSpiel game cannot be pickled or serialized (it holds the compiled "
        "rule file): load it again from its parameters (`pyspiel.load_game(str(game))`) "
        "instead")


def test_serializing_game_and_state_fails_inside_openspiel_as_the_docs_say():
    game = openspiel.load(NIM)
    with pytest.raises(pyspiel.SpielError, match="^GetRNGState unimplemented.$"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())
    assert "`SpielError: GetRNGState unimplemented.`" in docs()


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_a_copy_of_a_state_is_a_clone_and_of_a_game_the_game(copier):
    game = openspiel.load(NIM, rng_seed=2)
    state = play(game.new_initial_state(), ["take 1"])
    other = copier(state)
    assert type(other) is openspiel.GdlState and other.history() == state.history()
    play(other, ["take 2"])
    assert state.history() == [0] and other.history() == [0, 1]
    assert str(state) != str(other)
    assert copier(game) is game


def test_the_text_of_an_id_that_is_not_legal_is_refused():
    state = openspiel.load(NIM).new_initial_state()
    for action in (999, 3, -1):
        with pytest.raises(GdlError, match=f"action id {action} is not legal here: the ids "
                                           "are 0 to 2"):
            state.action_to_string(0, action)


def test_a_loaded_game_can_be_given_directly():
    rules = load_game(NIM)
    game = openspiel.load(rules, rng_seed=1)
    assert game.new_initial_state().position.game is rules


def test_information_state_hides_the_other_seats_secret_choice():
    # Rock-paper-scissors, chosen one seat after the other: b cannot tell a's choice, so its
    # observation and whole information state are the same whatever a chose; a's differ.
    game = openspiel.load(HANDS)
    rock, paper = (play(game.new_initial_state(), [f"show {h}"]) for h in ("rock", "paper"))
    assert rock.current_player() == 1
    assert rock.observation_string(1) == paper.observation_string(1)
    assert rock.information_state_string(1) == paper.information_state_string(1)
    assert rock.information_state_string(0) != paper.information_state_string(0)
    assert "played: show rock" in rock.information_state_string(0)
    assert "rock" not in rock.information_state_string(1)
    assert "rock" in str(rock)      # the whole position, for debugging, does show it


def test_information_state_is_the_history_of_observations():
    game = openspiel.load(NIM, rng_seed=2)
    state = game.new_initial_state()
    seen = [state.observation_string(1)]
    for text in ["take 3", "take 1", "take 2"]:
        if state.current_player() == 1:
            seen.append("played: " + text)
        play(state, [text])
        seen.append(state.observation_string(1))
    assert state.information_state_string(1) == "\n\n".join(seen)
    assert game.new_initial_state().information_state_string(1) == seen[0]  # asked again


@pytest.mark.parametrize("path", HIDING_GAMES, ids=os.path.basename)
def test_a_seat_observes_the_same_in_twin_positions(path):
    rules = load_game(path)
    game = openspiel.load(rules)
    for _, state, other, seat in twins(rules, limit=20):
        a, b = (openspiel.GdlState(game, Position(rules, s, Limits())) for s in (state, other))
        assert a.observation_string(seat) == b.observation_string(seat)
        if a.current_player() == seat:
            assert [a.action_to_string(seat, i) for i in a.legal_actions()] == \
                [b.action_to_string(seat, i) for i in b.legal_actions()]


def test_the_snippet_in_the_docs_prints_what_the_docs_say(monkeypatch):
    snippet = re.findall(r"```python\n(.*?)```", docs(), re.S)[0]
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "docs/bridges.md", "exec"), {})
    assert out.getvalue().splitlines() == ["0 take 2", "1 take 2", "0 take 2", "1 take 2", "0 take 2", "1 take 1",
                "0 take 3", "[1.0, -1.0]"]


def test_a_position_works_out_its_deciding_seat_once_per_decision():
    """OpenSpiel asks a Python state for its current player several times a decision (its
    legal_actions, apply_action, is_chance_node, is_terminal all do): the position works it
    out once and again only after an action is applied (an MCTS search asks some 5 times a
    decision). The answers stay right: after each action, the seat that now decides."""
    rules = load_game(NIM)
    asked = []
    plain = rules.current_player

    def counted(state):
        asked.append(state.decisions)
        return plain(state)
    rules.current_player = counted
    state = openspiel.load(rules).new_initial_state()
    for _ in range(3):
        before = len(asked)
        for _ in range(4):
            seat = state.current_player()
            assert not state.is_terminal() and not state.is_chance_node()
            state.legal_actions()
        assert len(asked) - before == 1
        assert seat == plain(state.position.state)
        state.apply_action(state.legal_actions()[0])
