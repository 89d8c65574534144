"""Differential play of a classic gdl game against OpenSpiel's implementation of it.

A `Pairing` names a rule file in games/classic/, the pyspiel game (with the parameters
used) and two small maps that write an action of either side as a common meaning (a cell in
gdl's notation, "pass", ...). `play(pairing, seed)` plays one random game on both at once:
at every decision it compares the player to move, the legal actions as sets of meanings and
the terminal status, then plays a move drawn uniformly (from a generator seeded with
`seed`) from the meanings both offer; at the end it compares the returns.

Chance: OpenSpiel's chance nodes are sampled with its outcome probabilities, each outcome
turned into the gdl die that must show it (`Pairing.chance_die`), which is forced into the
gdl state before the decision that rolls it is applied there (the dice of the setup into
`new_state`); a forced die gdl does not roll is a disagreement. An OpenSpiel decision with
one legal action that gdl plays by itself (`Pairing.automatic`: Othello's pass, an
`on no action` block in gdl) is played on OpenSpiel's side only, and not compared; it is
played as soon as the decision before it is, so that the dice rolled after it are forced
into gdl in time. A chance node that rolls several dice gives a list of them. A chance node
that orders things (EinStein's cubes set out at random) may give a fixed shuffle instead,
`("shuffle", order)` as `new_state`'s `forced` takes it.

Turns: where OpenSpiel combines what gdl decides one by one (Backgammon's two checker moves
in one action), `Pairing.gdl_turn_meaning` writes a sequence of gdl action texts as one
meaning; each OpenSpiel decision is then compared with every sequence of gdl decisions that
makes up one gdl turn (enumerated on copies of the state, a sequence ending where gdl's
turn number changes or the game ends), and the chosen sequence is played on gdl.

Hidden cards: a die that deals a card would show its value to every seat (dice are public
events), so card games deal by shuffling, and OpenSpiel follows: after each gdl decision
(and the setup) its chance nodes are given what gdl dealt (`Pairing.dealt`, read from
everyone's view); a deal OpenSpiel cannot make is a disagreement. At every decision each
seat's view of gdl, with the action texts that seat read (`action_text(state, action,
viewer)`), is compared with OpenSpiel's information state string of that player, each
written in a common form (`Pairing.gdl_information`, `Pairing.spiel_information`): the
seat's own card and the public actions, never the other's card. A seat reads no text of
another seat's choice in a `secret` phase (as `gdl play` and `gdl serve` tell it: not even
how many there were). Simultaneous nodes: gdl asks
the seats one by one in seat order, OpenSpiel takes the joint action; each seat's choice is
compared as a decision of its own.

`GDL_CLASSIC_SCALE` (an environment variable, default 1) multiplies the number of games
the suite plays (`games_in_suite`; each game's own number is in `SUITE_GAMES`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from gdl.interpreter import load_game
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.engine import TERMINAL
from gdl.interpreter.runtime.view import View

CLASSIC = Path(__file__).resolve().parents[3] / "games" / "classic"


def identity(text: str) -> str:
    return text


@dataclass(frozen=True)
class Pairing:
    """One classic game on both engines. gdl seat i is OpenSpiel player i."""

    rules: str                                   # file name in games/classic/
    spiel_game: str
    spiel_params: dict[str, Any] = field(default_factory=dict)
    gdl_meaning: Callable[[str], str] = identity      # gdl action text -> meaning
    spiel_meaning: Callable[[str], str] = identity    # OpenSpiel action string -> meaning
    # where OpenSpiel's action string needs the position to be read (chess writes SAN):
    # (state, player, action) -> meaning, used instead of spiel_meaning
    spiel_action_meaning: Callable[[Any, int, int], str] | None = None
    # OpenSpiel's chance outcome -> the gdl die (sides, value) that must show it, or the
    # list of dice, in the order gdl rolls them; or a shuffle ("shuffle", order)
    chance_die: Callable[[Any, int], tuple[Any, ...] | list[tuple[Any, ...]]] | None = None
    # meanings of an OpenSpiel decision gdl does not ask for: when one of these is the only
    # legal action OpenSpiel gives, it is played there, and gdl plays it by itself (an
    # `on no action` block: Othello's pass)
    automatic: frozenset[str] = frozenset()
    # a game that deals hidden cards by shuffling (a die's value would show every seat the
    # card): OpenSpiel's chance outcome that deals what gdl dealt, read from everyone's view
    dealt: Callable[[View, Any], int] | None = None
    # hidden information: a seat's view of gdl and the action texts it read so far, and
    # OpenSpiel's information state string of that player, each as a common form
    gdl_information: Callable[[View, list[str]], str] | None = None
    spiel_information: Callable[[str], str] | None = None
    # a gdl turn (several decisions of one seat) as one OpenSpiel decision: the texts of the
    # turn's actions -> meaning
    gdl_turn_meaning: Callable[[list[str]], str] | None = None

    def load(self) -> tuple[Any, Any]:
        return (load_game(str(CLASSIC / self.rules)),
                pyspiel.load_game(self.spiel_game, self.spiel_params))


@dataclass
class Outcome:
    """What one differential game found: decisions compared and the first disagreement."""

    decisions: int = 0
    disagreement: str | None = None


def _spiel_meanings(spiel_state: Any, player: int, pairing: Pairing) -> dict[str, int]:
    if pairing.spiel_action_meaning is not None:
        read = pairing.spiel_action_meaning
        return {read(spiel_state, player, a): a for a in spiel_state.legal_actions(player)}
    return {pairing.spiel_meaning(spiel_state.action_to_string(player, a)): a
            for a in spiel_state.legal_actions(player)}


def _gdl_meanings(game: Any, state: Any, meaning: Callable[[str], str]) -> dict[str, Any]:
    return {meaning(game.action_text(state, a)): a for a in game.legal_actions(state)}


def _resolve_chance(pairing: Pairing, spiel_state: Any, rng: random.Random) -> list[list[int]]:
    """Sample OpenSpiel's chance nodes from here on; the dice gdl must roll for them."""
    dice = []
    while spiel_state.is_chance_node():
        outcomes, probabilities = zip(*spiel_state.chance_outcomes())
        chosen = rng.choices(outcomes, probabilities)[0]
        assert pairing.chance_die is not None, "a chance node in a game without dice"
        rolled = pairing.chance_die(spiel_state, chosen)
        dice.extend([list(d) for d in rolled] if isinstance(rolled, list) else [list(rolled)])
        spiel_state.apply_action(chosen)
    return dice


def _advance(pairing: Pairing, spiel_state: Any, rng: random.Random) -> list[list[int]]:
    """Resolve OpenSpiel's chance nodes and play its automatic decisions (gdl's `on no
    action` blocks, run right after the decision before) from here on; the dice gdl must
    roll for them."""
    dice = _resolve_chance(pairing, spiel_state, rng)
    while pairing.automatic and not spiel_state.is_terminal():
        player = spiel_state.current_player()
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            break
        only = _spiel_meanings(spiel_state, player, pairing)
        if len(only) != 1 or not only.keys() <= pairing.automatic:
            break
        spiel_state.apply_action(*only.values())
        dice.extend(_resolve_chance(pairing, spiel_state, rng))
    return dice


def _gdl_turns(pairing: Pairing, game: Any, state: Any) -> dict[str, list[Any]]:
    """Every sequence of gdl decisions that makes up the turn starting at `state` (ending
    where the turn number changes or the game ends), by meaning."""
    assert pairing.gdl_turn_meaning is not None
    found: dict[str, list[Any]] = {}

    def walk(here: Any, texts: list[str], actions: list[Any]) -> None:
        for action in game.legal_actions(here):
            after = here.clone()
            text = game.action_text(here, action)
            game.apply(after, action, check=False)
            if after.turn != state.turn or game.is_terminal(after):
                found[pairing.gdl_turn_meaning(texts + [text])] = actions + [action]
            else:
                walk(after, texts + [text], actions + [action])

    walk(state, [], [])
    return found


def _follow_deal(pairing: Pairing, game: Any, state: Any, spiel_state: Any) -> str | None:
    """Deal on OpenSpiel's side what gdl dealt (`Pairing.dealt`); what went wrong, if
    anything."""
    assert pairing.dealt is not None
    while spiel_state.is_chance_node():
        outcome = pairing.dealt(game.view(state, None), spiel_state)
        if outcome not in [o for o, _ in spiel_state.chance_outcomes()]:
            return (f"gdl dealt what OpenSpiel cannot deal now (chance outcome {outcome}, "
                    f"not in {spiel_state.chance_outcomes()})\n{spiel_state}")
        spiel_state.apply_action(outcome)
    return None


def _information(pairing: Pairing, game: Any, state: Any, spiel_state: Any,
                 seen: list[list[str]]) -> str | None:
    """Where a seat's view differs from OpenSpiel's information state of that player."""
    assert pairing.gdl_information is not None and pairing.spiel_information is not None
    for seat, texts in enumerate(seen):
        ours = pairing.gdl_information(game.view(state, seat), texts)
        theirs = pairing.spiel_information(spiel_state.information_state_string(seat))
        if ours != theirs:
            return (f"seat {seat} sees {ours!r} in gdl, OpenSpiel's information state "
                    f"holds {theirs!r}\n{spiel_state}")
    return None


def play(pairing: Pairing, seed: int, loaded: tuple[Any, Any] | None = None) -> Outcome:
    game, spiel_game = loaded or pairing.load()
    rng = random.Random(seed)
    spiel_state = spiel_game.new_initial_state()
    outcome = Outcome()
    if pairing.dealt is None:
        state = game.new_state(seed, forced=_advance(pairing, spiel_state, rng))
    else:
        state = game.new_state(seed)
        outcome.disagreement = _follow_deal(pairing, game, state, spiel_state)
    seen: list[list[str]] = [[] for _ in range(spiel_game.num_players())]
    joint: list[int] = []       # the actions chosen so far at a simultaneous node
    while outcome.disagreement is None:
        if state.forced:
            outcome.disagreement = (f"decision {outcome.decisions}: gdl did not roll the "
                                    f"dice OpenSpiel's chance nodes gave: {state.forced}")
            return outcome
        terminal = game.is_terminal(state)
        if terminal != spiel_state.is_terminal():
            outcome.disagreement = (f"decision {outcome.decisions}: terminal gdl {terminal}, "
                                    f"OpenSpiel {spiel_state.is_terminal()}\n{spiel_state}")
            return outcome
        if terminal:
            break
        seat, player = game.current_player(state), spiel_state.current_player()
        simultaneous = player == pyspiel.PlayerId.SIMULTANEOUS
        if not simultaneous and pairing.automatic:
            only = _spiel_meanings(spiel_state, player, pairing)
            if len(only) == 1 and only.keys() <= pairing.automatic:
                spiel_state.apply_action(*only.values())
                state.forced.extend(_resolve_chance(pairing, spiel_state, rng))
                continue
        if simultaneous:
            player = len(joint)
        if seat != player:
            outcome.disagreement = (f"decision {outcome.decisions}: to move gdl {seat}, "
                                    f"OpenSpiel {player}\n{spiel_state}")
            return outcome
        if pairing.gdl_information is not None:
            outcome.disagreement = _information(pairing, game, state, spiel_state, seen)
            if outcome.disagreement is not None:
                return outcome
        ours = (_gdl_meanings(game, state, pairing.gdl_meaning)
                if pairing.gdl_turn_meaning is None else _gdl_turns(pairing, game, state))
        theirs = _spiel_meanings(spiel_state, player, pairing)
        outcome.decisions += 1
        if ours.keys() != theirs.keys():
            outcome.disagreement = (
                f"decision {outcome.decisions}: legal actions differ; gdl only "
                f"{sorted(ours.keys() - theirs.keys())}, OpenSpiel only "
                f"{sorted(theirs.keys() - ours.keys())}\n{spiel_state}")
            return outcome
        chosen = rng.choice(sorted(ours))
        if simultaneous:
            joint.append(theirs[chosen])
            if len(joint) < spiel_game.num_players():
                game.apply(state, ours[chosen], check=False)
                continue
            spiel_state.apply_actions(joint)
            joint = []
        else:
            spiel_state.apply_action(theirs[chosen])
        # a choice in a `secret` phase is not told to the other seats (gdl play, serve)
        secret = not simultaneous and introspect.is_private(game, state)
        for viewer, texts in enumerate(seen if pairing.gdl_information is not None else []):
            if not (secret and viewer != seat):
                texts.append(pairing.gdl_meaning(game.action_text(state, ours[chosen], viewer)))
        if pairing.gdl_turn_meaning is not None:
            state.forced.extend(_advance(pairing, spiel_state, rng))
            for action in ours[chosen]:
                game.apply(state, action, check=False)
        elif pairing.dealt is None:
            state.forced.extend(_advance(pairing, spiel_state, rng))
            game.apply(state, ours[chosen], check=False)
        else:
            game.apply(state, ours[chosen], check=False)
            outcome.disagreement = _follow_deal(pairing, game, state, spiel_state)
    if outcome.disagreement is not None:
        return outcome
    ours_returns, theirs_returns = game.returns(state), list(spiel_state.returns())
    if [float(r) for r in ours_returns] != [float(r) for r in theirs_returns]:
        outcome.disagreement = (f"returns gdl {ours_returns}, OpenSpiel {theirs_returns}"
                                f"\n{spiel_state}")
    return outcome


# The random games the suite plays of each classic game (before GDL_CLASSIC_SCALE): as many
# as keep each test to a few seconds; `benchmarks/classic_differential.py --suite` plays them.
SUITE_GAMES: dict[str, int] = {
    "amazons.gdl": 40,
    "backgammon.gdl": 20,
    "battleship.gdl": 20,
    "breakthrough.gdl": 200,
    "checkers.gdl": 200,
    "chess.gdl": 50,
    "clobber.gdl": 200,
    "connect_four.gdl": 300,
    "dots_and_boxes.gdl": 300,
    "einstein.gdl": 300,
    "go.gdl": 60,
    "goofspiel.gdl": 200,
    "hearts.gdl": 50,
    "hex.gdl": 100,
    "kuhn_poker.gdl": 300,
    "leduc_poker.gdl": 300,
    "lines_of_action.gdl": 60,
    "liars_dice.gdl": 300,
    "nine_mens_morris.gdl": 100,
    "othello.gdl": 100,
    "pentago.gdl": 100,
    "oware.gdl": 200,
    "phantom_ttt.gdl": 500,
    "pig.gdl": 300,
    "quoridor.gdl": 30,
    "tic_tac_toe.gdl": 500,
}


def games_in_suite(pairing: Pairing) -> int:
    """The random games the suite plays of `pairing`'s game, times GDL_CLASSIC_SCALE."""
    assert pairing.rules in SUITE_GAMES, (
        f"{pairing.rules} is not in SUITE_GAMES (tests/games/classic/differential.py): add "
        f"'\"{pairing.rules}\": N,' to it, N the random games its differential test plays (as "
        "many as keep the test to a few seconds)")
    return SUITE_GAMES[pairing.rules] * int(os.environ.get("GDL_CLASSIC_SCALE", "1"))


def check(pairing: Pairing, games: int, first_seed: int = 0) -> int:
    """Play `games` differential games; fail on the first disagreement. Returns the number
    of decisions compared."""
    loaded = pairing.load()
    decisions = 0
    for seed in range(first_seed, first_seed + games):
        outcome = play(pairing, seed, loaded)
        assert outcome.disagreement is None, (
            f"{pairing.rules} against OpenSpiel '{pairing.spiel_game}', seed {seed}: "
            f"{outcome.disagreement}")
        decisions += outcome.decisions
    return decisions
