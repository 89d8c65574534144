"""`gdl play`: a playthrough in the terminal. Draws the deciding seat's view, lists the
numbered legal actions, reads a number, an action's text or a few words that narrow the
list, and explains a rejection. At a prompt a person can also undo, save, concede, quit.

Two faces, one game loop: plain lines (piped input or output, `--moves`: what tests and
scripts read) and, on a terminal with a person playing, one screen per decision that fits
100x40: the board with a legend, a line per seat, the last events, the actions, the prompt,
and a message (a refusal, a narrowing) in the lines the board leaves; a longer one (help on
a short terminal) has a page of its own.
Every seat's screen is drawn from its own view and its own log of events, so nothing hidden
from it reaches it; when two people share a terminal and the game hides something, the
screen is cleared and waits for the next one before showing its view.

Undo and save stand on the determinism of the engine: the same seed and the same decisions
give the same game, so undo replays the decisions up to the one taken back, and save writes
the transcript `gdl record` would write for the decisions so far, ending `unfinished:`.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import textwrap
from collections.abc import Container, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypedDict

import click

from gdl.cli.inputs import not_a_transcript, overwritten
from gdl.interpreter import load_game
from gdl.interpreter.files import STDIO, named, write_atomic
from gdl.interpreter.language.errors import (GdlDataError, IllegalAction, counted, shortened,
                                             visible)
from gdl.interpreter.play import transcript as transcripts
from gdl.interpreter.play.agents.agents import (ScriptedAgent, conceded_seat, make_agents,
                                                matching, resolve_input,
                                                unmatched)
from gdl.interpreter.play.playing import AGAIN, STOP, Observer, run_game, unplayed
from gdl.interpreter.play.render.narrate import (changes, event_lines, public_events,
                                                  public_text)
from gdl.interpreter.runtime import introspect
from gdl.interpreter.runtime.introspect import is_private, is_simultaneous
from gdl.interpreter.runtime.view import (WIDTH, board_grid, chosen_line, piece_details,
                                          public_view, render, render_board, seat_line, tells,
                                          title, turn_heading, turn_words, zone_lines)

if TYPE_CHECKING:
    from gdl.interpreter.play.playing import Events
    from gdl.interpreter.runtime.engine import Game
    from gdl.interpreter.runtime.state import Action, State
    from gdl.interpreter.runtime.view import View

Viewer: TypeAlias = "int | None"
"""A seat, or None: whoever may see everything (the watcher of a game without one human)."""
Moves: TypeAlias = "list[tuple[int, str]]"
"""(line number, text) of each decision and concession of a moves file or transcript."""
Played: TypeAlias = "tuple[int, Action | str, str]"
"""(seat, its action or CONCEDE, who chose: human, agent or script)."""


class Agent(Protocol):
    """What a table asks of a seat's agent."""
    name: str

    def choose(self, game: Game, state: State, legal: list[Action]) -> Action: ...


class _How(TypedDict, total=False):
    """How the decision being made is made."""
    who: str                # human, agent or script
    private: bool           # only its seat may know it
    simultaneous: bool      # a choice of a simultaneous phase

HELP = """Type the number of an action or its text, or a few of its words:
  a piece, a cell or an action's name lists the actions that name it (KIND#2, e9, ACTION);
  a piece then a cell plays the action when only one matches (KIND#2 e9, or c3 e9 for the
  piece standing on c3, as you see it).
  list W    the legal actions whose text contains the words W (all of them: list)
  board     the whole drawing: every piece's details, zones
  history   everything that happened so far, as you saw it (history N: the last N lines)
  info KIND a kind's statistics from the rule file's kinds table (info: every kind)
  undo      take back your last decision (and the other seats' replies since)
  save FILE write the game so far as a transcript (gdl play --resume FILE continues it;
            it holds the seed and everything hidden); a file there that is not a
            transcript is kept: save! FILE writes over it
  concede   give up the game
  quit      leave (Ctrl-D, Ctrl-C too)"""

CLEAR = "\x1b[H\x1b[2J\x1b[3J"      # cursor home, clear the screen and its scrollback
HEIGHT = 40
LONG_LIST = 60          # in plain output, more legal actions than this are summarised
CONCEDE = "concede"     # a concession in a table's history, in place of an action
# The prompt's words that take no argument ('concede x' is told so, unless the rules have an
# action of that name legal now: then it is read as the action).
BARE = ("quit", "help", "board", "concede", "undo")


def run_play(file: str | None, seed: int | None, players: str | None, moves: str | None,
             max_turns: int | None, max_decisions: int, resume: str | None = None,
             screen: bool | None = None, keep: str | None = None) -> int:
    """Play a game; `screen` None draws screens when both ends are a terminal; `keep`: a
    transcript of the game so far is written there before each human decision, at the end,
    and on Ctrl-C. Returns the exit status."""
    resumed: Moves = []
    if resume is not None:
        file, seed, players, resumed = _resumed(resume, file, players)
    assert file is not None     # `gdl play` asks for one, or for --resume
    game = load_game(file)
    script_lines = None
    if moves:
        script_lines, moves_seed = transcripts.read_script(
            moves, game, warn=lambda line: click.echo(f"warning: {line}", err=True))
        seed = moves_seed if seed is None else seed
    players = players or "random"
    secret_seed = seed is None and "human" in make_agents(players, len(game.seats), 0)
    if seed is None:
        # With the seed, a player could replay the setup and the random seats' choices and
        # read everything hidden: a human gets a fresh one, told only when the game ends.
        seed = secrets.randbits(63) if secret_seed else 0
    agents = make_agents(players, len(game.seats), seed)
    for path, what in ((moves, "the moves"), (resume, "the saved game")):
        if path == STDIO and "human" in agents:
            raise GdlDataError(f"the standard input ('-') holds {what}, so a human seat "
                               "could not type its decisions there: give the file by its "
                               "name, or agents for every seat (--players)")
    if screen is None:
        screen = (sys.stdin is not None and sys.stdin.isatty()
                  and sys.stdout is not None and sys.stdout.isatty() and not moves
                  and "human" in agents)
    table = Table(game, file, seed, agents, max_turns, screen)
    if keep is not None:
        refused = table.refused(keep)
        if refused is not None:
            # no prompt yet to type save! at: the file is removed by hand, or another named
            refused = refused.replace(f", or type save! {keep} to write over it",
                                      " (or remove it first)")
            raise GdlDataError(f"--save: {refused}")
        table.keep = keep
    if script_lines:
        table.script = ScriptedAgent(script_lines, named(moves or ""))
    kinds = ", ".join(f"{seat} ({a if a == 'human' else a.name})"
                      for seat, a in zip(game.seats, agents))
    told = ("a fresh seed, told at the end" if secret_seed else
            f"resumed from {named(resume)}" if resume else f"seed {seed}")
    table.say(f"{game.name}: {told}; {kinds}. Type 'help' at a prompt.")
    table.tell_setup()                                # what setup did
    if resume is not None and resumed:
        table.replay_moves(resumed, resume)

        table.say(f"resumed after {counted(transcripts.decision_count(resumed), 'decision')}")
    if table.keep is not None:     # a file that cannot be written is told before play
        said = table.save(table.keep)
        if said.startswith("not saved"):
            raise GdlDataError(f"--save: {said.removeprefix('not saved: ')}")
        table.kept_at = len(table.history)
    try:
        status, sentence = run_game(game, table.state, table.choose, max_turns=max_turns,
                                    max_decisions=max_decisions, observer=table)
    except KeyboardInterrupt:
        if table.keep is not None:
            click.echo(f"\n{table.kept()}")
        if secret_seed:         # as on quit: the game can be replayed, now that it is over
            click.echo(f"\nthe seed was {seed} (replay: --seed {seed})")
        raise
    if table.keep is not None:
        said = table.kept()
        if not said.startswith("not saved"):
            click.echo(f"the game is in {table.keep} (gdl replay {table.keep})"
                       if status == "finished" else said)
    if status == "capped":
        table.say(f"stopped: {sentence}")
    elif status == "finished":
        if table.screen:
            click.echo(CLEAR, nl=False)
            for line in table.logs.get(table.watcher, [])[-8:]:
                click.echo(line)
        click.echo(render(game, game.view(table.state, table.watcher)))
        click.echo(f"game over: {sentence}")
    if secret_seed:
        click.echo(f"the seed was {seed} (replay: --seed {seed})")
    # a line the game never reached, refused as `gdl show` and `explain` refuse it
    left = None if table.script is None else unplayed(game, table.state, table.script)
    if left is not None:
        raise left
    return 0


def _resumed(path: str, file: str | None, players: str | None) -> tuple[str, int, str, Moves]:
    """(rule file, seed, players, moves: its decisions and concessions) of a saved
    transcript, after checking that it replays exactly (a transcript that does not is
    refused whole; one whose rule file's text alone changed goes on, with a warning)."""
    try:
        transcripts.replay(path)
    except transcripts.RulesChanged as changed:
        click.echo(f"warning: {changed.message}: the game goes on in the rule file as it is "
                   "now", err=True)
    saved = transcripts.read_transcript(path)
    saved.refuse_finished()
    rules = saved.rules_file()
    if file is not None and os.path.abspath(file) != os.path.abspath(rules):
        raise GdlDataError(f"{saved.name} is a game of {rules}, not of {file}")
    return rules, saved.header["seed"], players or ",".join(saved.players()), \
        transcripts.moves_of(saved)


class Table(Observer):
    """One game at the terminal: the state, who plays each seat, the decisions so far (for
    undo and save), and what each person at the table has been told. It chooses for the
    seats (`choose`) and is told by the game loop what happened (an `Observer`)."""

    def __init__(self, game: Game, file: str, seed: int, agents: list[Agent | Literal["human"]],
                 max_turns: int | None, screen: bool) -> None:
        self.game, self.file, self.seed, self.agents = game, file, seed, agents
        self.max_turns = max_turns
        # narrated: events tell what pieces did, and whose dice
        self.state: State = game.new_state(seed, narrate=True)
        self.humans = [seat for seat, agent in enumerate(agents) if agent == "human"]
        self.watcher = self.humans[0] if len(self.humans) == 1 else None  # whose eyes
        self.screen = screen
        self.colour = screen and colour_terminal()     # owned cells painted (`show cell`)
        self.hot_seat = screen and len(self.humans) > 1 and game.rules.hidden_information
        # several people reading one plain output of a game that hides something: it
        # narrates what every seat may see (the spectator's view), not everything
        self.public = not screen and len(self.humans) > 1 and game.rules.hidden_information
        self.at_screen: int | None = None   # the seat whose view the screen shows (hot seat)
        self.script: ScriptedAgent | None = None
        self.history: list[Played] = []
        self.leaving: int | None = None     # a seat whose person typed 'concede' (run_game asks)
        # each person's lines of events
        self.logs: dict[Viewer, list[str]] = {seat: [] for seat in self.humans}
        # viewer -> the seat whose secret choices it was told
        self.secret_run: dict[Viewer, int | None] = {}
        self.how: _How = {}
        self.before: dict[Viewer, View] = {}    # viewer -> its view before the decision
        # the decision being played: plain, per viewer
        self.said: tuple[str, dict[Viewer, str]] = ("", {})
        # viewer -> how many of its log's lines its last screen had room for, or had shown
        self.seen: dict[Viewer, int] = {}
        self.keep: str | None = None        # --save: the game so far is kept in this file
        self.kept_at = -1                   # how many decisions it held when last written

    # ----- telling -----------------------------------------------------------------------
    def say(self, line: str) -> None:
        """A line for everyone: printed in plain output, added to every log on a screen."""
        if not self.screen:
            self.echo(line)
            return
        for log in self.logs.values():
            log.append(line)

    def echo(self, line: str) -> None:
        """A line of plain output, kept for `history` (plain output shows the watcher's
        narration: the one person's, or everything when no seat's is hidden from another)."""
        click.echo(line)
        if not self.screen:
            self.logs.setdefault(self.watcher, []).append(line)

    def tell_setup(self) -> None:
        """What setup did: plain lines, or for each person as that seat reads it."""
        events = self.state.events
        if not self.screen:
            for line in self.lines(events, self.watcher):
                self.echo("  " + line)
            return
        for viewer, log in self.logs.items():
            log.extend("  " + line for line in event_lines(self.game, events, viewer))

    def turn_started(self, state: State) -> None:
        seat = self.game.current_player(state)
        if self.screen:     # every screen draws the board: a turn is a line of the logs
            heading = turn_heading(self.game, state)
            if heading is not None:     # none in a game without turns
                for log in self.logs.values():
                    log.append(heading)
        elif len(self.humans) < 2 and (self.live_script() is not None
                                       or self.agents[seat] != "human"):
            click.echo(render(self.game, self.game.view(state, self.watcher)))

    def live_script(self) -> ScriptedAgent | None:
        """The moves file's agent while it has decisions left, else None."""
        return self.script if self.script is not None and not self.script.exhausted else None

    def deciding(self, seat: int, action: Action) -> None:
        """The action's text for plain output, and as each person may read it (a seat's
        own action too: a piece hidden from it that it acts on stays "?")."""
        game, state = self.game, self.state
        plain = (public_text([game.action_text(state, action, seat)
                              for seat in range(len(game.seats))])
                 if self.public else game.action_text(state, action, self.watcher))
        self.said = plain, {v: game.action_text(state, action, v) for v in self.humans}

    def viewers(self) -> list[Viewer]:
        return list(self.logs) if self.screen else [self.watcher]

    def told(self, viewer: Viewer, events: Events, text: str) -> list[str]:
        """Lines for `viewer` after a decision: its events (less a move the decision's text
        already says) and what it saw change."""
        lines = ["  " + line for line in self.lines(events, viewer, text)]
        before = self.before.get(viewer)
        if before is not None:
            lines += ["  " + line for line in changes(before, self.view_of(self.state, viewer))]
        return lines

    def lines(self, events: Events, viewer: Viewer, said: str = "") -> list[str]:
        """The events' lines as `viewer` reads them (plain output read by several people:
        as every seat may read them)."""
        if viewer is None and self.public:
            events = public_events(events, len(self.game.seats))
            viewer = 0          # told as to a seat from which every piece hidden is hidden
        lines: list[str] = event_lines(self.game, events, viewer, said)
        return lines

    def view_of(self, state: State, viewer: Viewer) -> View:
        """What `viewer` sees of `state` (plain output read by several people: what every
        seat may see)."""
        if viewer is None and self.public:
            return public_view(self.game, state)
        return self.game.view(state, viewer)

    def decided(self, seat: int, legal: list[Action], action: Action, events: Events) -> None:
        plain, texts = self.said
        self.history.append((seat, action, self.how["who"]))
        tag = " (scripted)" if self.how["who"] == "script" else ""
        secret = self.how["private"] and (self.how["who"] != "human" or self.public)
        if not self.screen:
            self._plain_decision(seat, plain + tag, secret, events)
            return
        for viewer, log in self.logs.items():
            if self.how["private"] and viewer != seat:
                # Not even how many choices: one line for a seat's whole run of secret choices.
                if self.secret_run.get(viewer) != seat:
                    log.append(f"{self.game.seats[seat]}: chooses in secret")
                self.secret_run[viewer] = seat
                if not self.how["simultaneous"]:
                    continue
            else:
                self.secret_run[viewer] = None
                log.append(f"{self.game.seats[seat]}: {texts[viewer]}{tag}")
            log.extend(self.told(viewer, events, texts[viewer]))

    def conceding(self, state: State) -> int | None:
        """The seat that gives up now (run_game asks before each decision): the one whose
        person typed 'concede', or the script's concession line that comes next."""
        if self.leaving is not None:
            leaving, self.leaving = self.leaving, None
            self.how["who"] = "human"
            return leaving

        script = self.live_script()
        seat = script.conceding(self.game, state) if script is not None else None
        if seat is not None:
            self.how["who"] = "script"
            self.before = {viewer: self.view_of(state, viewer) for viewer in self.viewers()}
        return seat

    def conceded(self, seat: int, events: Events) -> None:
        """Tell everyone that `seat` gave up, and what that did as each may read it."""
        self.history.append((seat, CONCEDE, self.how["who"]))
        line = f"{self.game.seats[seat]} concedes" + (
            " (scripted)" if self.how["who"] == "script" else "")
        self.secret_run = {}
        if not self.screen:
            for text in [line] + self.told(self.watcher, events, ""):
                self.echo(text)
            return
        for viewer, log in self.logs.items():
            log.append(line)
            log.extend(self.told(viewer, events, ""))

    def _plain_decision(self, seat: int, said: str, secret: bool, events: Events) -> None:
        if secret:
            if self.secret_run.get(None) != seat:
                self.echo(f"{self.game.seats[seat]}: chooses in secret")
            self.secret_run[None] = seat
            if self.how["simultaneous"]:
                for line in self.told(self.watcher, events, ""):
                    self.echo(line)
            return
        self.secret_run[None] = None
        self.echo(f"{self.game.seats[seat]}: {said}")
        for line in self.told(self.watcher, events, said):
            self.echo(line)

    # ----- choosing ----------------------------------------------------------------------
    def choose(self, seat: int, legal: list[Action]) -> object:
        """A legal action, STOP or AGAIN (see `run_game`)."""
        state = self.state
        self.how["private"] = is_private(self.game, state) and bool(self.humans)
        # In a simultaneous phase a choice does nothing until all have chosen; what happens
        # then (the reveal of every choice, and what they cause) is public.
        self.how["simultaneous"] = is_simultaneous(self.game, state)
        self.before = {viewer: self.view_of(state, viewer) for viewer in self.viewers()}
        script = self.live_script()
        if script is not None:
            self.how["who"] = "script"
            return script.choose(self.game, state, legal)
        agent = self.agents[seat]
        if agent == "human":
            self.how["who"] = "human"
            if self.keep is not None and self.kept_at != len(self.history):
                self.kept()
            answer = Prompt(self, seat, legal).ask()
            if answer is None:
                click.echo("bye")
                return STOP
            return answer
        self.how["who"] = "agent"
        return agent.choose(self.game, state, legal)

    def replay_moves(self, moves: Moves, path: str) -> None:
        """Play a saved transcript's decisions and concessions (already checked to replay
        exactly)."""
        saved = transcripts.read_transcript(path).header["players"].split(", ")

        def who(seat: int) -> str:
            return "human" if seat < len(saved) and saved[seat] == "human" else "agent"
        for number, text in moves:
            name = conceded_seat(text)
            if name is not None:
                seat = self.game.seats.index(name)
                self.game.concede(self.state, seat)
                self.history.append((seat, CONCEDE, who(seat)))
                continue
            seat = self.game.current_player(self.state)
            legal = self.game.legal_actions(self.state)
            action = resolve_input(self.game, self.state, legal, text,
                                   f"{named(path)}:{number}",
                                   as_seat=False)      # a transcript's full texts
            self.game.apply(self.state, action, check=False)
            self.history.append((seat, action, who(seat)))

    def undo(self) -> bool:
        """Back to before the last decision a person made; False when there is none."""
        mine = [i for i, (_, _, who) in enumerate(self.history) if who == "human"]
        if not mine:
            return False
        kept = self.history[:mine[-1]]
        fresh = self.game.new_state(self.seed, narrate=True)
        for seat, action, _ in kept:
            if isinstance(action, str):         # CONCEDE
                self.game.concede(fresh, seat)
            else:
                self.game.apply(fresh, action, check=False)
        for name in type(fresh).__slots__:
            setattr(self.state, name, getattr(fresh, name))
        self.history = kept
        when = turn_words(self.game, self.state.turn)
        self.say(f"(undone: back to {self.game.seats[self.game.current_player(self.state)]}'s"
                 f" decision{'' if when is None else ', ' + when})")
        return True

    def refused(self, path: str, force: bool = False) -> str | None:
        """Why the game cannot be saved to `path`, or None. An existing file that is not a
        transcript (an earlier save) is refused unless `force` (`save! FILE`)."""
        if path == STDIO:
            return ("save writes a file: name one ('-' would be the standard output, where "
                    "the game is played)")
        moves = self.script.source if self.script is not None else None
        kept = overwritten(path, [("rule file", self.file), ("moves file", moves)])
        if kept is not None:
            return f"that would overwrite {kept}: name another file"
        other = None if force else not_a_transcript(path)
        if other is not None:
            return f"{other}: name another file, or type save! {path} to write over it"
        return None

    def kept(self) -> str:
        """Write the game so far to the --save file; the sentence saying so. A failure is
        also told on the standard error at once (the game goes on)."""
        assert self.keep is not None
        said = self.save(self.keep)
        if said.startswith("not saved"):
            click.echo(f"warning: {said}", err=True)
        else:
            self.kept_at = len(self.history)
        return said

    def save(self, path: str, force: bool = False) -> str:
        """Write the game so far, concessions included, as a transcript (atomically); the
        sentence to show. The rule file and the moves file are not written over, nor a file
        that is not a transcript unless `force`."""
        refused = self.refused(path, force)
        if refused is not None:
            return f"not saved: {refused}"
        decisions = sum(1 for _, action, _ in self.history if action != CONCEDE)
        conceded = len(self.history) - decisions
        names = ["human" if a == "human" else a.name for a in self.agents]
        lines = transcripts.saved_lines(
            self.game, self.seed, [(seat, None if isinstance(action, str) else action)
                                   for seat, action, _ in self.history], self.max_turns)
        out_dir = os.path.dirname(os.path.abspath(path))
        try:
            head = transcripts.header_lines(self.game, self.file, out_dir, self.seed, names,
                                            self.max_turns)
            write_atomic(path, "\n".join(head + lines) + "\n")
        except GdlDataError as exc:
            return f"not saved: {exc.message}"
        except OSError as exc:
            return f"not saved: cannot write {path}: {exc.strerror}"
        also = f" and {counted(conceded, 'concession')}" if conceded else ""
        return (f"saved {counted(decisions, 'decision')}{also} to {path} (gdl play --resume {path} "
                "continues the game)")


class Prompt:
    """One person's decision: the prompt, the commands, narrowing, the screen."""

    def __init__(self, table: Table, seat: int, legal: list[Action]) -> None:
        self.table, self.seat, self.legal = table, seat, legal
        self.game, self.state = table.game, table.state
        self.texts: list[str] = [self.game.action_text(self.state, a, seat) for a in legal]
        self.shown: list[int] | None = None     # indexes of the actions a narrowing picked
        self.message: list[str] = []            # lines under the actions on a screen

    def ask(self) -> object:
        """A legal action, AGAIN (the position changed: undo, concede) or None (quit)."""
        table = self.table
        if table.hot_seat and table.at_screen != self.seat:
            click.echo(CLEAR + f"{self.game.seats[self.seat]} to play: press Enter when "
                       f"{self.game.seats[self.seat]} is at the screen (the others look "
                       "away)", nl=False)
            if not read_line():
                click.echo()
                return None
            table.at_screen = self.seat
        if not table.screen:
            click.echo(render(self.game, self.game.view(self.state, self.seat)))
            self.list_plain()
        while True:
            if table.screen:
                self.draw()
            click.echo(f"{self.game.seats[self.seat]}> ", nl=False)
            line = read_line()
            if not line:
                click.echo()
                return None
            self.message = []
            answer = self.answer(line.strip())
            if answer is not None:
                table.seen[self.seat] = len(table.logs.get(self.seat, ()))
                return None if answer is STOP else answer

    def phase_help(self) -> list[str]:
        """The doc strings of the phase and of its actions legal now, where the rule file
        gives them (`phase p { "..." ... }`, `action a() { "..." ... }`)."""
        phase = introspect.current_phase(self.game, self.state)
        lines = []
        described = self.game.rules.doc(phase)
        if described:
            lines.append(f"phase {phase}: {described}")
        for name in dict.fromkeys(text.split(" ", 1)[0] for text in self.texts):
            described = self.game.rules.doc(phase, name)
            if described:
                lines.append(f"  {name}: {described}")
        return lines

    def answer(self, text: str) -> object:
        """What a typed line does: an action, AGAIN, STOP, or None to ask again."""
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if not text:
            return None
        if text == "quit":
            return STOP
        if word in BARE and rest and not any(t.split(" ", 1)[0] == word for t in self.texts):
            self.tell(f"{word} takes no argument: type {word} alone")
            return None
        if text == "help":
            self.tell(*HELP.split("\n"), *self.phase_help())
        elif text == "board":
            self.show_board()
        elif word == "history" and (not rest or rest.isdigit()):
            self.show_history(int(rest) if rest else None)
        elif word == "info" and not any(t.split(" ", 1)[0] == "info" for t in self.texts):
            self.tell(*kind_info(self.game, rest))
        elif word == "list":
            words = rest.lower().split()
            self.narrow([i for i, t in enumerate(self.texts)
                         if all(w in t.lower() for w in words)], rest, everything=not words)
        elif text == "concede":
            self.table.leaving = self.seat      # run_game asks Table.conceding next
            return AGAIN
        elif text == "undo":
            if self.table.undo():
                return AGAIN
            self.tell("nothing to undo: no decision of yours yet")
        elif word in ("save", "save!"):
            self.tell(self.table.save(rest, force=word == "save!") if rest
                      else "save what? type save FILE")
        else:
            return self.decision(text)
        return None

    def decision(self, text: str) -> Action | None:
        try:
            typed: Action = resolve_input(self.game, self.state, self.legal, text)
            return typed
        except IllegalAction as exc:
            found: list[int] = matching(self.game, self.state, self.legal, text, self.seat)
            if len(found) == 1 and len(text.split()) > 1:
                return self.legal[found[0]]
            if found:
                self.narrow(found, text)
            else:
                why = unmatched(self.game, self.state, self.legal, text, self.seat)
                self.tell(f"not accepted: {why or exc.message}")
        return None

    def tell(self, *lines: str) -> None:
        """Lines for the person at the prompt; what they typed, quoted, shown `visible`."""
        if self.table.screen:
            self.message.extend(visible(line) for line in lines)
        else:
            for line in lines:
                click.echo(visible(line))

    def narrow(self, found: list[int], words: str, everything: bool = False) -> None:
        if not found:
            self.tell(f"  no legal action contains '{shortened(words)}'")
            return
        self.shown = None if everything else found
        if not self.table.screen:
            self.list_plain(found if not everything else None, force=bool(words) or everything)
        elif not everything:
            self.tell(f"{len(found)} of {counted(len(self.legal), 'action')} "
                      f"match{'es' if len(found) == 1 else ''} '{words}'")

    def show_board(self) -> None:
        if not self.table.screen:
            click.echo(render(self.game, self.game.view(self.state, self.seat)))
            self.list_plain()
            return
        # as wide as the terminal: a terminal narrower than the drawing would break its lines
        width = shutil.get_terminal_size((WIDTH, HEIGHT)).columns
        page([render(self.game, self.game.view(self.state, self.seat), width,
                     colour=self.table.colour)], "press Enter to go back")

    def show_history(self, last: int | None) -> None:
        """Every line of this seat's log (its `last` lines): what each seat did and what it
        caused, narrated as this seat may know it. On a screen, the terminal's scrollback
        holds it all; Enter goes back."""
        log = self.table.logs.get(self.seat if self.table.screen else self.table.watcher, [])
        shown = log[-last:] if last else log
        if not self.table.screen:
            for line in shown or ["nothing has happened yet"]:
                click.echo(line)
            return
        told = f"the last {len(shown)} of {counted(len(log), 'line')}" if len(shown) < len(log) \
            else f"all {counted(len(log), 'line')}: scroll back for the first"
        page(shown or ["nothing has happened yet"], f"(history: {told}) press Enter to go back")

    # ----- plain output ------------------------------------------------------------------
    def list_plain(self, found: list[int] | None = None, force: bool = False) -> None:
        """The numbered actions (those of `found`); a long list without narrowing is
        summarised by action name."""
        numbered = [(i + 1, self.texts[i]) for i in (found if found is not None
                                                    else range(len(self.texts)))]
        if not force and len(numbered) > LONG_LIST:
            for line in summary_lines(numbered, WIDTH):
                click.echo("  " + line)
            for line in textwrap.wrap(
                    "type an action or its number, a piece, a cell or a word to see the "
                    "actions that name it, or 'list WORDS' to see the actions whose text "
                    "contains the words "
                    f"({example(self.texts, self.game.rules.board.by_name)})", WIDTH - 2,
                    initial_indent="  ", subsequent_indent="  "):
                click.echo(line)
            return
        for line in columns(numbered, WIDTH - 4):
            click.echo(line)

    # ----- the screen --------------------------------------------------------------------
    def draw(self) -> None:
        """One screen: title, board and legend, seats, last events, actions, message."""
        size = shutil.get_terminal_size((WIDTH, HEIGHT))
        width, height = min(size.columns, WIDTH), min(size.lines, HEIGHT)
        view = self.game.view(self.state, self.seat)
        top = [clip(title(view), width)]
        top += render_board(self.game, view, width, max_rows=board_rows(self.game, view, width,
                                                                         height), beside=True,
                            colour=self.table.colour)
        top += [clip("  " + seat_line(s), width) for s in view["seats"] if tells(s)]
        if view.get("status"):          # `show game(s)`
            top.append(clip("  " + view["status"], width))
        if view.get("chosen"):
            top.append(clip("  " + chosen_line(view), width))
        message = [part for line in self.message for part in
                   (textwrap.wrap(line, width, subsequent_indent="    ",
                                  break_on_hyphens=False, drop_whitespace=False) or [""])]
        # The message has the lines the board leaves but the prompt's and one of actions; a
        # longer one (help, a long refusal on a short terminal) has a page of its own first.
        free = height - len(top) - 2
        if len(message) > free:
            page(message, "press Enter to go back")
            self.message, message = [], []
        if not self.message:
            message = self.kind_hint(view)[:max(0, free)]
        extra = [clip("  " + line, width) for line in zone_lines(view)]
        details = piece_notes(view)
        if details:
            extra += textwrap.wrap("pieces: " + details, width, initial_indent="  ",
                                   subsequent_indent="    ", break_on_hyphens=False)[:3]
        # zones and pieces' notes give way to the actions on a short terminal ('board' has them)
        top += extra[:max(0, height - 4 - len(top) - len(message))]
        room = height - len(top) - len(message) - 1
        log = self.table.logs[self.seat]
        # the last events have up to 4 lines, the actions the rest: at least what a summary
        # and its hint take, when the message leaves that much
        actions = self.action_lines(width, max(1, min(3, room), room - min(len(log), 4)))
        events = log[-max(0, room - len(actions)):] if room - len(actions) > 0 else []
        unseen = len(log) - self.table.seen.get(self.seat, 0)   # since this seat's last decision
        if events and unseen > len(events):
            events[0] = f"({unseen - len(events) + 1} earlier lines: 'history' shows them)"
        lines = top + [clip(e, width) for e in events] + actions + message
        click.echo(CLEAR + "\n".join(lines))

    def kind_hint(self, view: View) -> list[str]:
        """Where the actions choose among kinds (a kind's name, or a piece off the board: a
        draft's 'take blue:Piece#8'), a line telling how to see their statistics."""
        kinds = self.game.rules.kinds
        if not any(set(stats) - {"symbol"} for stats in kinds.values()):
            return []
        off_board = {p["label"]: p["kind"] for p in view["pieces"] if p["cell"] is None}
        for text in self.texts:
            for word in text.split()[1:]:
                kind = word if word in kinds else off_board.get(word, "")
                if kind in kinds:
                    return [f"  info KIND shows a kind's statistics (e.g. info {kind})"]
        return []

    def action_lines(self, width: int, limit: int) -> list[str]:
        """The actions in at most `limit` lines: numbered in columns when they fit, else
        one line per action name with the pieces (first words) it applies to."""
        found: Sequence[int] = self.shown if self.shown is not None else range(len(self.texts))
        numbered = [(i + 1, self.texts[i]) for i in found]
        laid = columns(numbered, width)
        if len(laid) <= limit:
            return laid
        hint = textwrap.wrap(
            f"{counted(len(numbered), 'action')}: type a number, or a piece, a cell or a name to "
            f"see its actions; a piece and a cell play "
            f"({example(self.texts, self.game.rules.board.by_name)}); 'help' for more",
            width, initial_indent="  ", subsequent_indent="  ")
        if len(hint) >= limit:      # no room for the hint and a line of the summary
            hint = [clip(f"  {counted(len(numbered), 'action')}: type a number, a piece, a cell "
                         "or a name; "
                         "'help' for more", width)]
        return ["  " + line for line in summary_lines(numbered, width - 2)
                ][:limit - len(hint)] + hint


def colour_terminal() -> bool:
    """Does standard output show colours: a terminal, not 'dumb', and no NO_COLOR set
    (no-color.org)?"""
    return (sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM", "") != "dumb")


def board_rows(game: Game, view: View, width: int, height: int) -> int:
    """How many rows the board may take on a screen of `height` lines: what leaves room for
    the seats, events and actions; or, on a short terminal where that would shrink the board
    to a scale that hides its terrain, what leaves room for the title, key and two lines of
    actions."""
    roomy = max(8, height - 18)
    if board_grid(game, view, width, roomy)[1] == 1:
        return roomy
    tight = max(8, height - 6 - len(view["seats"]))
    return tight if board_grid(game, view, width, tight)[1] == 1 else roomy


def kind_info(game: Game, name: str) -> list[str]:
    """A kind's statistics, as the rule file's `kinds` table gives them: 'Piece: size 1,
    attack 8, ...'; `name` may be a piece's label (blue:Piece#8). Without a name, or
    for one that names no kind, the kinds there are."""
    kinds = game.rules.kinds
    wanted = name.rpartition(":")[2].partition("#")[0].strip()
    match = next((k for k in kinds if k.lower() == wanted.lower()), None)
    if match is None:
        listed = ", ".join(kinds) or "none"
        return ([f"no kind '{name}'"] if name else []) + [f"kinds: {listed} (info KIND shows "
                                                          "one's statistics)"]
    stats = kinds[match]
    return [f"{match}: " + (", ".join(f"{column} {_stat(value)}" for column, value
                                      in stats.items() if value is not None)
                            or "no statistics")]


def _stat(value: object) -> str:
    """A kinds table's value as the rule file writes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def piece_notes(view: View) -> str:
    """'Piece#1 facing=east; Piece#2 9/10 models; ...': the rule file's `show status` of each
    piece that has one, else its variables that are not 0, false or none."""
    notes = []
    for piece in view["pieces"]:
        text = piece["status"] if "status" in piece else piece_details(piece)
        if text:
            notes.append(f"{piece['label']} {text}")
    return "; ".join(notes)


def summary_lines(numbered: Sequence[tuple[int, str]], width: int) -> list[str]:
    """One line per action name: 'order (5, 1-5): Piece#1 advance/hold' (the
    first words after the name with the next words they take) when that fits, else 'move
    (127): Piece#1 x3, Token#2 x8, ...' (the first words with their counts; only the first
    and last when a line is full)."""
    groups: dict[str, list[tuple[int, str, str]]] = {}
    for number, text in numbered:
        name, _, rest = text.partition(" ")
        first, _, more = rest.partition(" ")
        groups.setdefault(name, []).append((number, first, more))
    lines = []
    for name, members in groups.items():
        counts: dict[str, list[str]] = {}
        for _, first, more in members:
            counts.setdefault(first, []).append(more)
        head = f"{name} ({len(members)}, {members[0][0]}-{members[-1][0]})" if len(members) > 1 \
            else f"{members[0][0]}. {name}"
        room = width - len(head) - 2
        takes = {first: "/".join(dict.fromkeys(m or "-" for m in mores)) if any(mores) else ""
                 for first, mores in counts.items() if first}
        if len(takes) > 1 and len(set(takes.values())) == 1 and "" not in takes.values():
            # every piece takes the same words: name them once
            named = ", ".join(takes) + ": " + next(iter(takes.values()))
        else:
            named = ", ".join(f"{first} {more}".rstrip() for first, more in takes.items())
        if named and len(named) <= room and any(len(m) > 1 for m in counts.values()):
            lines.append(f"{head}: {named}")
            continue
        parts = [f"{first} x{len(m)}" if len(m) > 1 else first for first, m in counts.items()
                 if first]
        lines.append(head + (": " + _fitting(parts, room) if parts else ""))
    return lines


def _fitting(parts: list[str], width: int) -> str:
    """'a, b, c' when it fits `width`, else the first parts that do, '...' and the last."""
    whole = ", ".join(parts)
    if len(whole) <= width:
        return whole
    tail = f", ... {parts[-1]}"
    shown: list[str] = []
    for part in parts[:-1]:
        if len(", ".join(shown + [part])) + len(tail) > width:
            break
        shown.append(part)
    return clip(", ".join(shown) + tail, width)


def example(texts: Sequence[str], cells: Container[str] = ()) -> str:
    """Words to narrow by, taken from the actions themselves: a piece (or another word)
    and a cell of `cells` ('e.g. Piece#2 e5', 'e.g. Piece a1' of 'place Piece across
    a1'), else the first two words after the action's name, else a whole short
    action ('e.g. at a31')."""
    for text in texts:
        words = text.split()[1:]
        cell = next((word for word in words if word in cells), None)
        other = next((word for word in words if word not in cells), None)
        if cell is not None and other is not None:
            return f"e.g. {other} {cell}"
    for text in texts:
        words = text.split()
        if len(words) >= 3:
            return f"e.g. {words[1]} {words[2]}"
    return f"e.g. {' '.join(texts[0].split()[:2])}" if texts else ""


def columns(numbered: Sequence[tuple[int, str]], width: int) -> list[str]:
    """Numbered entries laid out in columns across `width`."""
    if not numbered:
        return []
    digits = max(3, len(str(numbered[-1][0])))
    entries = [f"{i:>{digits}}. {text}" for i, text in numbered]
    cell = max(len(t) for t in entries) + 2
    per_line = max(1, width // cell)
    return ["".join(t.ljust(cell) for t in entries[start:start + per_line]).rstrip()
            for start in range(0, len(entries), per_line)]


def clip(line: str, width: int) -> str:
    """A line cut at a word boundary to fit `width`, '...' marking the cut."""
    if len(line) <= width:
        return line
    cut = line[:width - 3]
    if " " in cut.strip():
        cut = cut[:cut.rstrip().rfind(" ")]
    return cut.rstrip(" ,;") + "..."


def page(lines: list[str], note: str) -> None:
    """A page of its own in place of the screen (the terminal's scrollback holds what is
    taller), with a last line `note`, until Enter."""
    click.echo(CLEAR + "\n".join(lines))
    click.echo(note, nl=False)
    read_line()


def read_line() -> str:
    """A line of standard input, decoded here so that a byte that is not UTF-8 is an error
    whatever the locale makes of standard input; '' at its end (and when it is closed)."""
    if sys.stdin is None:
        return ""
    raw = sys.stdin.buffer.readline()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GdlDataError(f"standard input is not UTF-8 text: byte {raw[exc.start]:#04x} in "
                           f"{raw[:60]!r}") from None
