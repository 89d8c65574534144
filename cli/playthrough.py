"""`gdl play`: a playthrough in the terminal. Draws the deciding seat's view, lists the
numbered legal actions, reads a number or an action's text, and explains a rejection."""

from __future__ import annotations

import secrets
import sys

import click

from gdl.interpreter import load_game
from gdl.interpreter.language.errors import GdlDataError, IllegalAction
from gdl.interpreter.play.agents import ScriptedAgent, make_agents, read_moves, resolve_input
from gdl.interpreter.play.playing import AGAIN, STOP, run_game
from gdl.interpreter.play.transcript import event_text
from gdl.interpreter.runtime.introspect import is_private, is_simultaneous
from gdl.interpreter.runtime.view import render

HELP = """Type the number of an action or its text (e.g. the text shown after the number).
  help     this text
  board    draw the board again
  list W   the legal actions whose text contains the words W (all of them: list)
  concede  give up the game
  quit     leave (Ctrl-D too)"""


def run_play(file, seed, players, moves, max_turns, max_decisions):
    game = load_game(file)
    secret_seed = seed is None and "human" in make_agents(players, len(game.seats), 0)
    if seed is None:
        # With the seed, a player could replay the setup and the random seats' choices and
        # read everything hidden: a human gets a fresh one, told only when the game ends.
        seed = secrets.randbits(63) if secret_seed else 0
    agents = make_agents(players, len(game.seats), seed)
    script = ScriptedAgent(read_moves(moves), moves) if moves else None
    state = game.new_state(seed)
    humans = [seat for seat, agent in enumerate(agents) if agent == "human"]
    watcher = humans[0] if len(humans) == 1 else None     # whose eyes the table shows
    kinds = ", ".join(f"{seat} ({a if a == 'human' else a.name})"
                      for seat, a in zip(game.seats, agents))
    told = "a fresh seed, told at the end" if secret_seed else f"seed {seed}"
    click.echo(f"{game.name}: {told}; {kinds}. Type 'help' at a prompt.")
    for event in state.events:                  # what setup did
        click.echo("  " + event_text(game, event, watcher))
    how = {}            # per decision: " (scripted)", "" or None for a human's own
    secret_run = [None]

    def scripted():
        return script is not None and not script.exhausted

    def turn_start(state):
        seat = game.current_player(state)
        if len(humans) < 2 and (scripted() or agents[seat] != "human"):
            click.echo(render(game, game.view(state, watcher)))

    def choose(seat, legal):
        how["private"] = is_private(game, state) and bool(humans)
        # In a simultaneous phase a choice does nothing until all have chosen; what happens
        # then (the reveal of every choice, and what they cause) is public.
        how["simultaneous"] = is_simultaneous(game, state)
        if scripted():
            how["tag"] = " (scripted)"
            return script.choose(game, state, legal)
        if agents[seat] == "human":
            how["tag"] = None
            action = ask_human(game, state, seat, legal)
            if action is None:
                click.echo("bye")
                return STOP
            return AGAIN if action == "conceded" else action
        how["tag"] = ""
        return agents[seat].choose(game, state, legal)

    def decided(seat, legal, action, said, events):
        if how["private"] and how["tag"] is not None:
            # Not even how many choices: one line for a seat's whole run of secret choices.
            if secret_run[0] != seat:
                click.echo(f"{game.seats[seat]}: chooses in secret")
            secret_run[0] = seat
            if how["simultaneous"]:
                for event in events:
                    click.echo("  " + event_text(game, event, watcher))
            return
        secret_run[0] = None
        click.echo(f"{game.seats[seat]}: {said}{how['tag'] or ''}")
        for event in events:
            click.echo("  " + event_text(game, event, watcher))

    status, sentence = run_game(
        game, state, choose, max_turns=max_turns, max_decisions=max_decisions,
        on_turn=turn_start,
        describe=lambda seat, action: game.action_text(
            state, action, None if seat == watcher else watcher),
        on_decision=decided)
    if status == "capped":
        click.echo(f"stopped: {sentence}")
    elif status == "finished":
        click.echo(render(game, game.view(state, watcher)))
        click.echo(f"game over: {sentence}")
    if secret_seed:
        click.echo(f"the seed was {seed} (replay this game with --seed {seed})")
    return 0


def ask_human(game, state, seat, legal):
    """Prompt until a legal action is given; None on quit or end of input."""
    click.echo(render(game, game.view(state, seat)))
    list_actions(game, state, legal, seat)
    while True:
        click.echo(f"{game.seats[seat]}> ", nl=False)
        line = read_line()
        if not line:
            click.echo()
            return None
        text = line.strip()
        if not text:
            continue
        if text == "quit":
            return None
        if text == "help":
            click.echo(HELP)
            continue
        if text == "board":
            click.echo(render(game, game.view(state, seat)))
            list_actions(game, state, legal, seat)
            continue
        if text == "list" or text.startswith("list "):
            list_actions(game, state, legal, seat, text[4:].strip())
            continue
        if text == "concede":
            game.concede(state, seat)
            click.echo(f"{game.seats[seat]} concedes")
            return "conceded"
        try:
            return resolve_input(game, state, legal, text)
        except IllegalAction as exc:
            click.echo(f"not accepted: {exc.message}")


def read_line():
    """A line of standard input, decoded here so that a byte that is not UTF-8 is an error
    whatever the locale makes of standard input; '' at its end."""
    raw = sys.stdin.buffer.readline()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GdlDataError(f"standard input is not UTF-8 text: byte {raw[exc.start]:#04x} in "
                           f"{raw[:60]!r}") from None


LONG_LIST = 60          # more legal actions than this are summarised, action by action


def list_actions(game, state, legal, seat, narrow=None):
    """The legal actions, numbered; a long list is summarised by action name (`list WORDS`
    shows the actions whose text contains the words)."""
    texts = [game.action_text(state, a, seat) for a in legal]
    numbered = [(i, text) for i, text in enumerate(texts, 1)
                if narrow is None or all(w in text.lower() for w in narrow.lower().split())]
    if narrow is None and len(numbered) > LONG_LIST:
        groups = {}
        for i, text in numbered:
            groups.setdefault(text.split(" ", 1)[0], []).append((i, text))
        for name, members in groups.items():
            first, last = members[0], members[-1]
            click.echo(f"  {name}: {len(members)} choices, {first[0]}. {first[1]} ... "
                       f"{last[0]}. {last[1]}")
        click.echo("  type an action or its number, or 'list WORDS' to see the actions "
                   "whose text contains the words (list move e5)")
        return
    if not numbered:
        click.echo(f"  no legal action contains '{narrow}'")
        return
    entries = [f"{i:>3}. {text}" for i, text in numbered]
    width = max(len(t) for t in entries) + 2
    per_line = max(1, 96 // width)
    for start in range(0, len(entries), per_line):
        click.echo("".join(t.ljust(width) for t in entries[start:start + per_line]).rstrip())
