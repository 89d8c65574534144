"""Transcripts: a game written as text a person can read and a diff can show.

    # gdl transcript
    game: Duel
    rules: ../games/GAME.gdl               (relative to the transcript's folder)
    rules-sha256: 3f1a...
    seed: 5
    players: random, random
    ---
    @ turn 1 blue | blue: moved=0 | ... | Piece#1 blue d2 ...
    1 red (2) move Piece#2 c4
      roll d6 = 4
    ...
    concede: blue
      out: blue
    result: red won

Each decision line holds the step, the seat, the number of legal actions and the action's
text; chance and log events follow it indented; a compact state line starts every turn. A
seat that gives up (`gdl play`'s `concede`) is a line `concede: SEAT`, where it gave up,
with the events it caused below it: not a decision, it has no step.
The last line says how the game ended (`Transcript.ending`): `result: ...` a finished game,
`capped: ...` one stopped by `max-turns` or `max-decisions`, `unfinished: saved after N
decisions` one saved while it was played (`gdl play`'s `save`, `gdl serve --save`, `gdl
record` stopped by Ctrl-C), which can go on. Saves written before `unfinished:` end
`capped: decision N reached the cap of N`, with `max-decisions: N` in the header: they
replay and resume as they always did.
`replay` plays the recorded decisions and concessions again and reports the first line that
differs. A header line of another name (`HEADER_KEYS`: a misspelt `max-turn:` would leave the
cap unread) or one given twice is refused at its line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..files import STDIO, TRANSCRIPT_HEADER, is_text, named, read_data, save
from ..language.errors import (GdlDataError, GdlError, IllegalAction, counted,
                               QUOTED_PATH, did_you_mean, shortened)
from ..language.limits import DEFAULT_MAX_DECISIONS
from ..loader import load_game
from ..runtime import events, introspect
from ..runtime.view import HIDDEN
from .agents.agents import (CONCESSION, ScriptedAgent, conceded_seat, parse_player,
                           read_moves)
from .playing import Observer, run_game, unplayed

if TYPE_CHECKING:
    from ..runtime.engine import Game
    from ..runtime.state import Action, State

HEADER = TRANSCRIPT_HEADER
ENDINGS = ("result", "capped", "unfinished")     # the words a transcript's last line starts with


def play_game(game: Game, state: State, agents: list, max_turns: int | None = None,
              on_line: Callable[[str], None] | None = None, max_decisions: int | None = None,
              conceding: Callable[[State], int | None] | None = None,
              until: int | None = None) -> tuple[list[str], str]:
    """Play until the end (or the caps); return the transcript lines and the outcome
    ("finished", "capped" or "unfinished"). `conceding(state)`: a seat that gives up before
    the next decision, or None (run_game). `until`: the decisions a game saved while it was
    played has had; it stops after them, unfinished, in place of `max_decisions`."""
    writer = _Writer(game, state, on_line, conceding)
    for event in state.events:          # what setup did (rolls, forced actions)
        writer.emit("  " + event_text(game, event))
    try:
        status, sentence = run_game(
            game, state, lambda seat, legal: agents[seat].choose(game, state, legal),
            max_turns=max_turns, max_decisions=max_decisions if until is None else until,
            observer=writer)
    except KeyboardInterrupt:
        raise Interrupted(writer.played) from None
    if status == "capped" and until is not None and state.decisions == until and \
            not (max_turns is not None and state.turn > max_turns):
        status, sentence = "unfinished", f"saved after {counted(until, 'decision')}"
    writer.emit(f"{'result' if status == 'finished' else status}: {sentence}")
    return writer.lines, status


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while `play_game` played. `moves`: what was played before it, (seat, action)
    in order, a seat's concession as (seat, None), which `saved_lines` writes again; `text`:
    the transcript of them, once one was written (`record`)."""

    def __init__(self, moves: list[tuple[int, Action | None]], text: str = "") -> None:
        super().__init__()
        self.moves, self.text = moves, text

    @property
    def decisions(self) -> int:
        return sum(1 for _, action in self.moves if action is not None)


def saved_lines(game: Game, seed: int, moves: Sequence[tuple[int, Action | None]],
                max_turns: int | None = None) -> list[str]:
    """The lines after the header of the transcript of the game `seed` starts, played by
    `moves` ((seat, action) in order, a seat's concession as (seat, None)): they end
    `unfinished: saved after N decisions` (`result:` when the moves ended the game). What a
    save writes: `gdl play`'s save, `gdl serve --save`, `gdl record` interrupted."""
    replaying = _Replaying(moves)
    decisions = sum(1 for _, action in moves if action is not None)
    lines, _ = play_game(game, game.new_state(seed), [replaying] * len(game.seats),
                         max_turns=max_turns, until=decisions, conceding=replaying.conceding)
    return lines


class _Replaying:
    """Plays `moves` (see `saved_lines`) again: the actions in order (`choose`), and the
    concessions where they were made (`conceding`)."""

    def __init__(self, moves: Sequence[tuple[int, Action | None]]) -> None:
        self.moves = moves
        self.position = 0

    def conceding(self, state: State) -> int | None:
        if self.position < len(self.moves) and self.moves[self.position][1] is None:
            self.position += 1
            return self.moves[self.position - 1][0]
        return None

    def choose(self, game: Game, state: State, legal: list[Action]) -> Action | None:
        self.position += 1
        return self.moves[self.position - 1][1]


class _Writer(Observer):
    """A transcript's lines, written as the game loop plays: a compact state line (and each
    seat's view, when the game hides something) at every turn start, then each decision and
    concession with its events."""

    def __init__(self, game: Game, state: State, on_line: Callable[[str], None] | None,
                 conceding: Callable[[State], int | None] | None) -> None:
        self.game, self.state, self.on_line = game, state, on_line
        self.asked = conceding
        self.lines: list[str] = []
        self.said = ""                  # the decision being played, as text
        self.played: list[tuple[int, Action | None]] = []   # see Interrupted

    def emit(self, line: str) -> None:
        self.lines.append(line)
        if self.on_line:
            self.on_line(line)

    def turn_started(self, state: State) -> None:
        if state.turn > 0:
            self.emit(compact_state(self.game, state))
            if self.game.rules.hidden_information:
                for seat in range(len(self.game.seats)):
                    self.emit(seat_view_line(self.game, state, seat))

    def conceding(self, state: State) -> int | None:
        return self.asked(state) if self.asked is not None else None

    def conceded(self, seat: int, events: list) -> None:
        self.played.append((seat, None))
        self.emit(CONCESSION + self.game.seats[seat])
        self._events(events)

    def deciding(self, seat: int, action: Action) -> None:
        self.said = self.game.action_text(self.state, action)

    def decided(self, seat: int, legal: list, action: Action, events: list) -> None:
        self.played.append((seat, action))
        self.emit(f"{self.state.decisions} {self.game.seats[seat]} ({len(legal)}) {self.said}")
        self._events(events)

    def _events(self, events: list) -> None:
        for event in events:
            self.emit("  " + event_text(self.game, event))


def event_text(game, event, viewer=None):
    """An event as text; `viewer` (a seat) reads a played action, and a piece, as that seat
    may see it."""
    if isinstance(event, events.PieceEvent):
        return _piece_text(game, event, viewer)
    if isinstance(event, events.Played):
        return f"{event.kind}: {game.seats[event.seat]} {event.read_by(viewer)}"
    if isinstance(event, events.Roll):
        fixed = " (fixed)" if event.fixed else ""
        by = "" if event.by is None else _by(game, event.by)
        return f"roll d{event.sides} = {event.value}{fixed}{by}"
    if isinstance(event, events.Shuffle):
        return f"shuffle {counted(event.count, 'item')}" + (" (fixed)" if event.fixed else "")
    if isinstance(event, events.Pick):
        return f"pick {event.chosen} of {event.count}" + (" (fixed)" if event.fixed else "")
    if isinstance(event, events.Out):
        return f"out: {game.seats[event.seat]}"
    return f"log: {event.text}"


def _piece_text(game, event, viewer):
    if viewer is not None and viewer in event.hidden:
        who = f"a hidden piece of {event.owner}" if event.owner else "a hidden piece"
    elif event.owner is None or event.label.startswith(event.owner + ":"):
        who = event.label
    else:
        who = f"{event.label} ({event.owner})"
    if isinstance(event, events.Created):
        text = f"{who} created" + (f" at {event.cell}" if event.cell else "")
    elif isinstance(event, events.Moved):
        text = f"{who} moved from {event.source or 'off the board'} to {event.target}"
    elif isinstance(event, events.Removed):
        text = f"{who} removed" + (f" at {event.cell}" if event.cell else "")
    elif isinstance(event, events.Put):
        text = f"{who} put into {event.zone}"
    elif isinstance(event, events.Changed):
        text = "a hidden piece changed" if viewer is not None and viewer in event.hidden \
            else f"{event.was} became {who}"
    else:
        text = f"{who} given to {event.seat or 'no seat'}"
    return text + _by(game, event.by)


def _by(game, by):
    """' (by RULE of SEAT)': which rule did it, for whom."""
    if by.rule is None:
        return ""
    return f" (by {by.rule}" + (f", {game.seats[by.seat]}" if by.seat is not None else "") + ")"


def seat_view_line(game, state, seat):
    """What `seat` may not see of the state line above it: hidden variables, hidden
    pieces (by owner and cell), how many pieces are out of its sight (by owner) and secret
    choices not yet revealed."""
    view = game.view(state, seat)
    hidden = [f"{s['name']}.{k}" for s in view["seats"] for k, v in s["vars"].items()
              if v == HIDDEN]
    hidden += [k for k, v in view["globals"].items() if v == HIDDEN]
    unknown = {}
    for piece in view["pieces"]:
        if piece["label"] == HIDDEN:
            where = f"at {piece['cell']}" if piece["cell"] else "off the board"
            key = (piece["owner"], where)
            unknown[key] = unknown.get(key, 0) + 1
        else:
            hidden += [f"{piece['label']}.{k}" for k, v in piece["vars"].items() if v == HIDDEN]
    hidden += [f"{count} {'pieces' if count > 1 else 'piece'} of {owner} {where}"
               for (owner, where), count in unknown.items()]
    in_sight = [piece["owner"] for piece in view["pieces"]]
    every = [piece["owner"] for piece in game.view(state, None)["pieces"]]
    for owner in dict.fromkeys(every):      # pieces out of its sight (no entry in its view)
        count = every.count(owner) - in_sight.count(owner)
        if count:
            hidden.append(f"{count} {'pieces' if count > 1 else 'piece'} of {owner} "
                          "out of sight")
    if view.get("chosen"):
        hidden += [f"{name}'s choice" for name, c in view["chosen"].items() if c == "yes"]
    return f"  view of {view['seat']}: " + ("hides " + ", ".join(hidden) if hidden
                                            else "sees everything")


def compact_state(game, state):
    """One line: turn, seat variables, then every piece with its non-default variables."""
    view = game.view(state, None)
    parts = [f"@ turn {view['turn']} {view['current']}"]
    for seat in view["seats"]:
        values = " ".join(f"{k}={v}" for k, v in seat["vars"].items())
        parts.append(f"{seat['name']}{' (out)' if seat['out'] else ''}: {values}".strip())
    if view["globals"]:
        parts.append(" ".join(f"{k}={v}" for k, v in view["globals"].items()))
    types = game.rules.variable_types["piece"]
    with introspect.formatting(game, state) as text:
        defaults = {n: text(v.initial, types[n])
                    for n, v in game.rules.variables["piece"].items()}
    pieces = []
    for piece in view["pieces"]:
        extra = "".join(f" {k}={v}" for k, v in piece["vars"].items() if v != defaults[k])
        pieces.append(f"{piece['label']} {piece['owner']} {piece['cell'] or 'off'}{extra}")
    parts.append(", ".join(pieces))
    return " | ".join(parts)


def header_lines(game, rules_path, out_dir, seed, players, max_turns=None,
                 max_decisions=DEFAULT_MAX_DECISIONS):
    rel = os.path.relpath(os.path.abspath(rules_path), os.path.abspath(out_dir or "."))
    rules = rel.replace(os.sep, "/")
    if not is_text(rules):      # a transcript is UTF-8 text: its reader would refuse it
        shown = rules if is_text(rules_path) else rules_path    # as given, when it is that
        raise GdlDataError(f"cannot name the rule file {shown} in a transcript: its name "
                           "is not UTF-8 text (rename the file)")
    lines = [HEADER, f"game: {game.name}", f"rules: {rules}",
             f"rules-sha256: {game.source_hash}", f"seed: {seed}",
             f"players: {', '.join(players)}"]
    if max_turns is not None:
        lines.append(f"max-turns: {max_turns}")
    if max_decisions != DEFAULT_MAX_DECISIONS:
        lines.append(f"max-decisions: {max_decisions}")
    return lines + ["---"]


def record(game, rules_path, seed, agents, player_names, out_path, max_turns=None,
           max_decisions=DEFAULT_MAX_DECISIONS):
    """Play one game of `game` (loaded from `rules_path`) and write its transcript
    atomically; returns the text. Ctrl-C writes the game so far (ending `unfinished:`, a
    save that `gdl play --resume` continues), then raises `Interrupted` with its text."""
    state = game.new_state(seed)
    out_dir = os.path.dirname(os.path.abspath(out_path)) if out_path else os.getcwd()
    head = header_lines(game, rules_path, out_dir, seed, player_names, max_turns,
                        max_decisions)
    try:
        lines, _ = play_game(game, state, agents, max_turns=max_turns,
                             max_decisions=max_decisions)
    except Interrupted as stop:
        text = "\n".join(head + saved_lines(game, seed, stop.moves, max_turns)) + "\n"
        if out_path:
            save(out_path, text)
        raise Interrupted(stop.moves, text) from None
    text = "\n".join(head + lines) + "\n"
    if out_path:
        save(out_path, text)
    return text


class Transcript:
    def __init__(self, path, header, body, numbers=None):
        self.path = path
        self.name = named(path)     # as a message names it ('-': <stdin>)
        self.header = header
        self.body = body            # [(line number, text)]
        self.numbers = numbers or {}    # header key -> its line number

    @property
    def ending(self):
        """How the game ended, the word its last line starts with (one of ENDINGS), or None
        when that line is none of them (a transcript cut short)."""
        word = self.body[-1][1].partition(":")[0] if self.body else None
        return word if word in ENDINGS else None

    def refuse_finished(self):
        """Raise a GdlDataError when the game is over: it cannot be resumed."""
        if self.ending == "result":
            raise GdlDataError(f"{self.name}: the game is over ({self.body[-1][1]}); nothing "
                               "to resume")

    def players(self):
        """The header's players, one a seat as `--players` names them ('human',
        'mcts:iterations=200'); one that no command can play is an error at the 'players:'
        line (the number of them is the replay's to check)."""
        players = [player.strip() for player in self.header["players"].split(",")]
        for player in players:
            try:
                parse_player(player)
            except GdlDataError as exc:
                line = f"players: {self.header['players']}"
                raise GdlDataError(f"the saved game's players: {exc.message}", file=self.name,
                                   line=self.numbers.get("players"),
                                   column=len("players: ") + 1,
                                   source_line=line if "players" in self.numbers else None
                                   ) from None
        return players

    def rules_file(self):
        """The rule file the header's `rules:` line names: a path from the transcript's
        folder (from the current folder for a transcript read from the standard input). A
        line that names no file is an error at that line."""
        rules = self.header["rules"]
        if not rules.strip():
            raise self._at_rules("the 'rules:' line names no rule file: expected 'rules: "
                                 "FILE', the rule file the game was played in, relative to "
                                 "the transcript's folder")
        folder = "" if self.path == STDIO else os.path.dirname(self.path)
        return os.path.normpath(os.path.join(folder, rules))

    def load_rules(self):
        """The game of the rule file the `rules:` line names; a file that cannot be read is
        an error at that line (an error inside the rule file keeps its own place)."""
        path = self.rules_file()
        try:
            return load_game(path)
        except GdlError as exc:
            if exc.file is not None:
                raise
            raise self._at_rules(exc.message) from None

    def _at_rules(self, message):
        line = f"rules: {self.header['rules']}"
        return GdlDataError(message, file=self.name, line=self.numbers.get("rules"),
                            column=len("rules: ") + 1, source_line=line
                            if "rules" in self.numbers else None)


def read_transcript(path, text=None):
    """The transcript at `path`; `text`: its text, read already (a pipe reads once)."""
    if text is None:
        text = read_data(path, "transcript")
    name = named(path)
    lines = text.split("\n")
    if not lines or lines[0] != HEADER or "---" not in lines:
        raise GdlDataError(f"{name} is not a gdl transcript (it must start with "
                           f"'{HEADER}' and have a '---' line)")
    end = lines.index("---")
    header = {}
    numbers = {}
    for number, line in enumerate(lines[1:end], 2):
        key, sep, value = line.partition(": ")
        if not sep:
            raise GdlDataError(f"{name}:{number}: malformed header line '{line}'")
        if key not in HEADER_KEYS:
            hint = "".join(f" ({said})" for said in did_you_mean(key, HEADER_KEYS))
            raise GdlDataError(f"{name}:{number}: unknown header line '{line[:60]}'{hint}; a "
                               "transcript's header holds " + ", ".join(HEADER_KEYS[:-1])
                               + f" and {HEADER_KEYS[-1]}")
        if key in numbers:
            raise GdlDataError(f"{name}:{number}: '{key}:' is given twice in the header, at "
                               f"lines {numbers[key]} and {number}: keep one")
        if key in _LEAST and not (value.isascii() and value.isdigit() and len(value) <= 20
                                  and _LEAST[key] <= int(value)):
            raise GdlDataError(f"{name}:{number}: {key} must be a whole number of at least "
                               f"{_LEAST[key]} (at most 20 digits), not '{value[:40]}'")
        header[key] = int(value) if key in _LEAST else value
        numbers[key] = number
    for key in ("rules", "rules-sha256", "seed", "players"):
        if key not in header:
            raise GdlDataError(f"{name}: the header has no '{key}:' line")
    body = [(n, line) for n, line in enumerate(lines[end + 1:], end + 2) if line]
    return Transcript(path, header, body, numbers)


# The lines a header can hold (`header_lines` writes them), in their order.
HEADER_KEYS = ("game", "rules", "rules-sha256", "seed", "players", "max-turns",
               "max-decisions")
# The header's numbers, each the least it can be (a seed's largest: inputs.check_transcript_seed).
_LEAST = {"seed": 0, "max-turns": 1, "max-decisions": 1}


def moves_of(transcript):
    """(line number, text) of every decision line (its action's text) and concession line
    ('concede: SEAT'), in order: what a replay plays."""
    out = []
    for number, line in transcript.body:
        if line[:1].isdigit():
            words = line.split(" ", 3)
            if len(words) < 4 or not words[2].startswith("(") or not words[0].isdigit():
                raise GdlDataError(f"{transcript.name}:{number}: malformed decision line "
                                   "(expected: STEP SEAT (COUNT) ACTION)")
            out.append((number, words[3]))
        elif conceded_seat(line) is not None:
            out.append((number, line))
    return out


def read_script(path, game=None, warn=None):
    """(the decisions and concessions of a moves file or of a transcript, as `moves_of`
    gives them; the transcript's seed, else None): what `--moves` reads, in `gdl play`,
    `gdl show` and `gdl explain`. A transcript of `game` recorded with the same rule file
    must replay in it (`replayed`: one that does not was changed, and is refused at the line
    that no longer applies or differs; it may be cut short: its first decisions); recorded
    with another version of the rule file (edited since), one that no longer replays is told
    to `warn` and its decisions are played as they are (the first that is not legal is
    refused at its line), as one whose rule file's text alone differs is. A transcript of
    another game (its `game:` line names another) is told to `warn`: its decisions are
    still played, so a variant can play its base's transcript, and the first that does not
    fit is refused at its line."""
    text = read_data(path, "moves file")     # read once: the file may be a pipe
    if text.split("\n", 1)[0] == HEADER:
        saved = read_transcript(path, text)
        moves = moves_of(saved)
        told = saved.header.get("game")
        if game is not None and told is not None and told != game.name:
            if warn is not None:
                rules = shortened(saved.header['rules'], QUOTED_PATH)
                warn(f"{saved.name} is a transcript of the game '{shortened(told)}' (rules: "
                     f"{rules}), not of '{game.name}': its decisions are played as they are")
        elif game is not None:
            try:
                replayed(saved, moves, game, whole=False)
            except RulesChanged:    # every line replays: the decisions lead where they did
                pass
            except Divergence as exc:
                if game.source_hash == saved.header["rules-sha256"]:
                    raise       # the same rules: the transcript itself was changed
                if warn is not None:    # rules edited since: its decisions, as they are
                    warn(f"{saved.name} no longer replays as recorded in the rule file as it "
                         f"is now ({exc}); its decisions are played as they are")
        return moves, saved.header["seed"]
    return read_moves(text), None


def decision_count(moves):
    """How many of `moves` (moves_of) are decisions."""
    return sum(1 for _, text in moves if conceded_seat(text) is None)


def moves_before(moves, step):
    """The moves played before decision `step` (1-based) was asked: the decisions before
    it, and every concession made before it."""
    out, decisions = [], 0
    for number, text in moves:
        if conceded_seat(text) is None:
            if decisions == step - 1:
                break
            decisions += 1
        out.append((number, text))
    return out


class Divergence(GdlError):
    pass


class RulesChanged(Divergence):
    """Every line replays identically, but the rule file's text is not the one recorded (a
    comment added, `gdl fmt` run): a replay fails, a resume may go on."""


def open_transcript(path):
    """A transcript, its moves (moves_of: (line number, text) of its decisions and
    concessions; a corrupt transcript is refused whole) and the game loaded from the rule
    file its header names."""
    transcript = read_transcript(path)
    moves = moves_of(transcript)
    return transcript, moves, transcript.load_rules()


def replay(path):
    """Replay a transcript; raise Divergence naming the first line that differs, or, when
    a decision or concession line no longer applies (a line before it removed or changed),
    that line and why, as `--moves` says it (`play_moves`), then where the replay first
    differed. Returns the number of decisions."""
    return replayed(*open_transcript(path))


def replayed(transcript, moves, game, whole=True):
    """`replay` of a transcript read already (`moves`: moves_of it) in `game`: the rule file
    its header names, or one a command was given. `whole` false: one cut short (without
    its last line) is taken, its lines so far replaying (as --moves, the game's first
    decisions)."""
    name = transcript.name
    _check_header(transcript, game)
    decisions = decision_count(moves)
    agent = ScriptedAgent(moves, source=name, as_seat=False)
    state = game.new_state(transcript.header["seed"])
    agents = [agent] * len(game.seats)
    produced = []
    ended = transcript.ending in ("result", "capped")
    failure = None      # (line number, why) of the line that no longer applies
    try:
        play_game(game, state, agents, on_line=produced.append,
                  max_turns=transcript.header.get("max-turns"),
                  max_decisions=transcript.header.get("max-decisions", DEFAULT_MAX_DECISIONS),
                  until=None if ended else decisions,
                  conceding=lambda now: agent.conceding(game, now))
    except IllegalAction as exc:
        produced.append(f"illegal: {exc.message}")
        failure = agent.lines[agent.position - 1][0], exc.message
    except IndexError:
        produced.append("(the transcript ended before the game did)")
    else:
        left = unplayed(game, state, agent)
        if left is not None:
            failure = agent.lines[agent.position][0], left.message
    expected = [line for _, line in transcript.body]
    numbers = [n for n, _ in transcript.body]
    for i, (want, got) in enumerate(zip(expected, produced)):
        if want != got:
            step = _step_of(expected, i)
            if failure is None:
                raise Divergence(_difference(name, numbers[i], want, got, step))
            number, why = failure
            raise Divergence(why if numbers[i] == number else
                             f"{why}\n  the replay first differs at line {numbers[i]} (step "
                             f"{step}):\n{_recorded(want, got)}")
    if failure is not None:     # a line after the game's end
        raise Divergence(failure[1])
    if len(expected) < len(produced) and transcript.ending is None:
        if not whole:
            return decisions
        where = f"after line {numbers[-1]}" if numbers else "after its header"
        raise Divergence(f"{name}: the transcript was cut short: it ends {where} "
                         f"({counted(decisions, 'decision')}) without the line that says how "
                         "the game ended (result:, capped: or unfinished:)")
    if len(expected) != len(produced):
        i = min(len(expected), len(produced))
        want = expected[i] if i < len(expected) else "(end of transcript)"
        got = produced[i] if i < len(produced) else "(the game ended)"
        raise Divergence(_difference(name, numbers[i] if i < len(numbers) else "end", want,
                                     got, _step_of(expected, i)))
    if game.source_hash != transcript.header["rules-sha256"]:
        raise RulesChanged(f"{name}: the rule file changed since recording (sha256 "
                         f"{game.source_hash[:12]} != {transcript.header['rules-sha256'][:12]})"
                         f", although {'all ' * (decisions > 1)}"
                         f"{counted(decisions, 'decision')} "
                         f"{'replays' if decisions == 1 else 'replay'} identically")
    return decisions


def _check_header(transcript, game):
    """The header's `game:` and `players:` lines say the game its rule file is: a
    transcript of another game, or of another number of seats, is no replay of this one."""
    path, header = transcript.name, transcript.header
    if "game" in header and header["game"] != game.name:
        raise Divergence(f"{path}: the transcript is of the game '{shortened(header['game'])}', "
                         f"its rule file's is '{game.name}'")
    players = [name.strip() for name in header["players"].split(",")]
    if len(players) != len(game.seats):
        raise Divergence(f"{path}: the transcript names {counted(len(players), 'player')} "
                         f"for the {counted(len(game.seats), 'seat')} of '{game.name}'")


def _step_of(expected, index):
    """The step (its text) of the last decision line up to `index`."""
    for line in reversed(expected[:index + 1]):
        if line[:1].isdigit():
            return line.split(" ", 1)[0]
    return "0"


def _difference(path, number, want, got, step):
    return f"{path}:{number}: replay differs at step {step}\n{_recorded(want, got)}"


def _recorded(want, got):
    return f"  recorded: {want}\n  replayed: {got}"
