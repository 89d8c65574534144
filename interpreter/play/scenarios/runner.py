"""Scenario files: rule tests a designer writes without Python.

A scenario names a rule file, reaches a position, fixes dice, plays actions and states
what must then hold. One instruction per line; `#` starts a comment. The full reference,
with an example of every instruction, is section 15 of docs/language.md.

    rules ../../../games/GAME.gdl          the rule file (relative to this file)
    seed 7                                 the seed (default 0)
    play move Piece#2 c4                   play a legal action by its text
    roll 6 4                               the next die, a d6, shows 4 ("roll any 4": any die)
    pick 3 2                               the next pick from 3 items takes the 2nd ("pick any 2")
    shuffle 3 1 2                          the next shuffle of 3 items puts the 3rd first, ...
    clear                                  remove every piece (numbering restarts)
    piece Piece blue d4 damage=1           create a piece, optionally setting variables
    set blue.moved = 1                     set a variable (global, SEAT.var or LABEL.var)
    phase play for blue                    make PHASE the current phase of SEAT (entering it)
    turn 3                                 set the turn number (turn_number)
    concede red                            a seat gives up
    reset                                  end this scenario; the next starts a fresh game
    expect ...                             what must hold (see `Expectations`)

`run_scenarios(path)` returns one `Outcome` per scenario of the file (a file holds several
when it has `reset` lines); `run_scenario(path)` returns all their failures, each a text
`FILE:LINE: expected ..., got ...` or a rendered error of a malformed line. A line that is
malformed (an unknown cell, piece, seat, phase or action, among others) ends its scenario
with that error; the failures before it are kept.
"""

from __future__ import annotations

import os
import re

import attrs

from ...language.errors import GdlDataError, GdlError, IllegalAction, counted, shortened
from ...language.types import PIECE
from ...files import STDIO, named, read_data
from ...loader import load_game
from ...runtime import events, introspect
from ...runtime.state import check_held
from ..hints import close_name, with_hint
from .expect import LABEL, NUMBER, Expectations

SEED = re.compile(r"[0-9]{1,20}")
MAX_SEED = 2 ** 64 - 1  # as every command's --seed
from .expressions import compile_expression


@attrs.frozen
class Outcome:
    """One scenario of a file: it starts at `line` of `path` (1, or a `reset` line);
    `failures` are its failed expectations and its error, if any, as texts; `unloaded` is
    the rule file its `rules` line names when that file did not load."""

    path: str
    line: int
    failures: tuple
    unloaded: str | None = None


class ScenarioStop(Exception):
    """A failure after which the scenario cannot go on meaningfully (a die of another size
    met a fixed roll, so every die after it is random)."""


class ScenarioRun(Expectations):
    """Runs the scenarios of one file, one after the other; `outcomes` holds their results,
    and `game` and `state` the last one's game and position."""

    def __init__(self, path):
        self.file = path            # what is read ('-': the standard input)
        self.path = named(path)     # what messages name
        self.game = None
        self.rules_line = None  # the line of a `rules` line whose file did not load
        self.rules_file = None  # the rule file of the last `rules` line
        self.first_rules = None     # the line of the file's first `rules` line
        self.rules_from = None      # (line, file as written) of the rules in play
        self.outcomes = []
        self.line, self.source = 1, ""
        self._fresh()

    def _fresh(self):
        """Forget the position: the next scenario starts a new game (of the same rules)."""
        self.state = None
        self.rules_at = None    # the line of this scenario's `rules` line
        self.seed = 0
        self.queued = []        # fixed dice not rolled yet: (line, sides or None, value)
        self.rolled = []        # roll events since the last play, phase or concede line
        # fixed picks and shuffles not made yet: (line, items or None, index or order)
        self.dealt = {"pick": [], "shuffle": []}
        self.failures = []
        self.expectations = 0
        self.turnless = None    # (line, phase) of a `phase` line that started no turn

    # ----- helpers ------------------------------------------------------------------------
    def error(self, message, column=1):
        return GdlDataError(message, file=self.path, line=self.line, column=column,
                            source_line=self.source)

    def fail(self, expected, got, line=None):
        line = self.line if line is None else line
        self.failures.append(f"{self.path}:{line}: expected {expected}, got {got}")

    def unknown(self, what, word, names, column=1):
        """The error for `word`, which names no `what` among `names`."""
        return self.error(f"unknown {what} '{shortened(word)}'" + close_name(word, names), column)

    def need_game(self, missing="no 'rules FILE' line before this one"):
        """Stop unless the rules are loaded: they did not load (this scenario's `rules`
        line, or the last one before it), or `missing`: no `rules` line came yet."""
        if self.game is None:
            if self.rules_line is not None:
                raise self.error(f"the rules of line {self.rules_line} did not load")
            raise self.error(missing)

    def need_state(self):
        self.need_game()
        if self.state is None:
            self.state = self.game.new_state(
                self.seed, forced=[[sides, value] for _, sides, value in self.queued]
                + [["pick", items, index] for _, items, index in self.dealt["pick"]]
                + [["shuffle", order] for _, _, order in self.dealt["shuffle"]])
            self.settle_rolls(len(self.queued))
            self.settle_deals({kind: len(queue) for kind, queue in self.dealt.items()})
        return self.state

    def seat(self, name):
        self.need_game()
        lowered = [s.lower() for s in self.game.seats]
        if name.lower() not in lowered:
            raise self.error(f"unknown seat '{shortened(name)}'; seats: "
                             f"{', '.join(self.game.seats)}" + close_name(name, self.game.seats))
        return lowered.index(name.lower())

    def piece(self, label):
        for pid, piece in self.need_state().pieces.items():
            if piece["label"].lower() == label.lower():
                return pid
        raise self.error(f"no piece labelled {label}" + close_name(label, self.labels()))

    def labels(self):
        return [piece["label"] for piece in self.state.pieces.values()]

    def cell(self, name):
        self.need_game()
        cell = self.game.rules.board.parse(name)
        if cell is None:
            raise self.error(f"'{shortened(name)}' is not a cell of the board"
                             + close_name(name, self.game.rules.board.by_name))
        return cell

    def cell_name(self, cell):
        return self.game.rules.board.names[cell]

    def action(self, text):
        """The legal action of `text`, or the IllegalAction saying why the rules refuse it;
        a text that is no action of the game at all is an error of the line."""
        try:
            state = self.need_state()       # first: with no rules, no game to ask
            return self.game.parse_action(state, text)
        except IllegalAction as exc:
            if exc.malformed:
                exc = with_hint(self.game, self.state, exc)
                raise self.error(f"'{shortened(text)}' is not an action of the game: "
                                 f"{exc.message}") from None
            return exc

    def expression(self, text, want=None, column=1):
        """Compile a gdl expression where labels like Piece#2 stand for pieces; an error
        of the line at `column`."""
        state = self.need_state()
        values = {}

        def local(match):
            name = f"piece_{match.group(1) or ''}_{match.group(2)}_{match.group(3)}"
            values[name] = self.piece(match.group(0))
            return name
        rewritten = LABEL.sub(local, text)
        try:
            fn, t = compile_expression(self.game, rewritten, {n: PIECE for n in values}, want,
                                       file=self.path)
        except GdlError as exc:
            raise self.error(f"bad expression '{shortened(text)}': {exc.message}", column) from None
        return (lambda: fn(state, state.current, *values.values())), t

    # ----- dice ---------------------------------------------------------------------------
    def step(self, run):
        """Run a play, phase or concede line's work; the dice it rolled are the ones
        `expect rolled` sees, and must agree with the fixed rolls waiting."""
        state = self.need_state()
        waiting = len(state.forced)
        dealing = {kind: len(queue) for kind, queue in self.dealt.items()}
        state.events = []
        # A position set up by hand may break an invariant already: only one that held
        # before the step and not after is this line's failure.
        held = set(self.game.rules.invariants) - set(
            introspect.broken_invariants(self.game, state))
        run(state)
        self.settle_rolls(waiting)
        self.settle_deals(dealing)
        for name in introspect.broken_invariants(self.game, state):
            if name in held:
                self.fail(f'the invariant "{name}" to hold after this line', "it does not")

    def settle_rolls(self, waiting):
        """Drop the fixed rolls the last step used; a die of another size rolled while one
        waited is a failure of the roll line, and ends the scenario."""
        self.rolled = [event for event in self.state.events if isinstance(event, events.Roll)]
        used = 0
        for event in self.rolled:
            if event.fixed:
                used += 1
            elif used < waiting:
                line, sides, value = self.queued[used]
                self.fail(f"the next die to be a d{sides} (roll {sides} {value})",
                          f"a d{event.sides} rolled first, by line {self.line}", line)
                raise ScenarioStop
        del self.queued[:used]

    def settle_deals(self, waiting):
        """As `settle_rolls`, for the fixed picks and shuffles: drop those used; a pick (a
        shuffle) of another size made while a fixed one waited fails that line and ends the
        scenario."""
        for kind, made in (("pick", events.Pick), ("shuffle", events.Shuffle)):
            queue, used = self.dealt[kind], 0
            for event in self.state.events:
                if not isinstance(event, made):
                    continue
                if event.fixed:
                    used += 1
                elif used < waiting[kind]:
                    line, items, value = queue[used]
                    self.fail(f"the next {kind} to be {_deal(kind, items)} "
                              f"({_deal_line(kind, items, value)})",
                              f"{_deal(kind, event.count)} first, by line {self.line}", line)
                    raise ScenarioStop
            del queue[:used]

    # ----- running ------------------------------------------------------------------------
    def run(self):
        """Run every scenario of the file; all their failures, in order."""
        if self.path.endswith(".gdl") and os.path.exists(self.file):   # (a missing one: below)
            raise GdlDataError(f"{self.path} is a rule file, not a scenario: a scenario "
                               "(*.scenario) names its rule file on a 'rules' line (check a "
                               "rule file with 'gdl check')")
        lines = read_data(self.file, "scenario").split("\n")
        for start, numbered in _scenarios(lines):
            self._fresh()
            self.outcomes.append(self._run_one(start, numbered))
        return [failure for outcome in self.outcomes for failure in outcome.failures]

    def _run_one(self, start, numbered):
        try:
            for self.line, self.source in numbered:
                self._instruction(_strip_comment(self.source).strip())
            self.line, self.source = start, numbered[0][1] if numbered else ""
            self._finish()
        except ScenarioStop:
            pass
        except GdlError as exc:
            self.failures.append(self._located(exc).render())
        if self.failures and self.rules_at is None and self.rules_from is not None and \
                self.rules_from[0] != self.first_rules:
            line, written = self.rules_from     # (a trap: `rules` holds after a reset)
            self.failures.append(
                f"{self.path}:{start}: note: this scenario has no 'rules' line, so it plays "
                f"{written}, of line {line} in an earlier scenario (a 'rules' line holds for "
                "the scenarios after it; docs/language.md 15.5)")
        unloaded = self.rules_file if self.rules_line is not None else None
        return Outcome(self.path, start, tuple(self.failures), unloaded)

    def _instruction(self, text):
        if not text:
            return
        word, _, rest = text.partition(" ")
        handler = getattr(self, "do_" + word, None)
        if handler is None:
            names = [n[3:] for n in dir(self) if n.startswith("do_")]
            raise self.error(f"unknown instruction '{shortened(word)}'; expected {', '.join(names)}"
                             + close_name(word, names))
        handler(rest.strip())

    def _located(self, exc):
        """An error of the current line (one raised elsewhere keeps its place as a hint; one
        of this file's expressions, compiled alone, is of this line whatever its line says)."""
        if isinstance(exc, GdlDataError) and exc.file == self.path:
            return exc
        elsewhere = exc.file and exc.line and exc.file != self.path
        column = f":{exc.column}" if exc.column else ""
        where = f" (at {exc.file}:{exc.line}{column})" if elsewhere else ""
        return self.error(exc.message + where)

    def _finish(self):
        """At the end of a scenario: it must have tested something, and used its dice."""
        self.need_game("this scenario has no 'rules FILE' line")
        if not self.expectations:
            raise self.error("this scenario has no 'expect' line, so it tests nothing")
        for line, sides, value in self.queued:
            die = "die" if sides is None else f"d{sides}"
            self.fail(f"'roll {sides or 'any'} {value}' to be used",
                      f"no {die} rolled after it", line)
        for kind, queue in self.dealt.items():
            for line, items, value in queue:
                self.fail(f"'{_deal_line(kind, items, value)}' to be used",
                          f"no {_deal(kind, items)[2:]} after it", line)

    # ----- instructions ---------------------------------------------------------------------
    def do_reset(self, rest):
        if rest:
            raise self.error("'reset' takes nothing: it starts a new scenario")

    def do_rules(self, rest):
        if self.rules_at is not None:
            raise self.error(f"'rules' is declared twice in this scenario; the first is at "
                             f"line {self.rules_at}")
        self.rules_at = self.line
        if self.first_rules is None:
            self.first_rules = self.line
        if self.state is not None:
            raise self.error("'rules' must come before the game starts")
        if not rest:
            raise self.error("expected 'rules FILE': the rule file, relative to this scenario")
        path = os.path.join("" if self.file == STDIO else os.path.dirname(self.file), rest)
        self.rules_line, self.rules_file = self.line, os.path.normpath(path)
        self.game = None    # until they load: the scenarios after it never run the last ones
        self.game = load_game(self.rules_file)
        self.rules_line = None
        self.rules_from = (self.line, rest)

    def do_seed(self, rest):
        if self.state is not None:
            raise self.error("'seed' must come before the first move")
        if not SEED.fullmatch(rest) or int(rest) > MAX_SEED:
            raise self.error(f"a seed is a number from 0 to {MAX_SEED}, not '{rest[:40]}'")
        self.seed = int(rest)

    def do_roll(self, rest):
        parts = rest.split()
        if len(parts) != 2 or not NUMBER.fullmatch(parts[1]) or not (
                parts[0] == "any" or NUMBER.fullmatch(parts[0])):
            raise self.error("expected 'roll SIDES VALUE' or 'roll any VALUE'")
        sides = None if parts[0] == "any" else int(parts[0])
        value = int(parts[1])
        if sides is not None and sides < 1:
            raise self.error(f"a die has at least 1 side, not {sides}")
        if value < 1 or (sides is not None and value > sides):
            raise self.error(f"a d{sides} shows 1 to {sides}, not {value}" if sides else
                             f"a die shows 1 or more, not {value}")
        self.queued.append((self.line, sides, value))
        if self.state is not None:
            self.state.forced.append([sides, value])

    def do_pick(self, rest):
        parts = rest.split()
        if len(parts) != 2 or not NUMBER.fullmatch(parts[1]) or not (
                parts[0] == "any" or NUMBER.fullmatch(parts[0])):
            raise self.error("expected 'pick ITEMS INDEX' or 'pick any INDEX'")
        items = None if parts[0] == "any" else int(parts[0])
        index = int(parts[1])
        if items is not None and items < 1:
            raise self.error(f"a pick is from 1 item or more, not {items}")
        if index < 1 or (items is not None and index > items):
            raise self.error(f"a pick of {counted(items, 'item')} takes item 1 to {items}, "
                             f"not {index}" if items else
                             f"a pick takes item 1 or more, not {index}")
        self.dealt["pick"].append((self.line, items, index))
        if self.state is not None:
            self.state.forced_picks.append([items, index])

    def do_shuffle(self, rest):
        parts = rest.split()
        if not parts or not all(NUMBER.fullmatch(p) for p in parts):
            raise self.error("expected 'shuffle ORDER': the places of the items, from 1, in "
                             "their shuffled order (like 'shuffle 3 1 2')")
        order = [int(p) for p in parts]
        if sorted(order) != list(range(1, len(order) + 1)):
            raise self.error(f"'shuffle {rest}' is not an order of 1 to {len(order)}: each "
                             "place once")
        self.dealt["shuffle"].append((self.line, len(order), order))
        if self.state is not None:
            self.state.forced_shuffles.append(order)

    def do_play(self, rest):
        action = self.action(rest)
        if isinstance(action, IllegalAction):
            self.fail(f"'{shortened(rest)}' to be legal", f"illegal: {action.message}")
            return
        self.step(lambda state: self.game.apply(state, action, check=False))

    def do_clear(self, rest):
        state = self.need_state()
        state.pieces = {}
        state.numbers = {}
        state.rebuild_index()
        state.end_checked = False

    def do_piece(self, rest):
        state = self.need_state()
        parts = rest.split()
        if len(parts) < 3:
            raise self.error("expected 'piece KIND SEAT CELL [var=value ...]'")
        kinds = self.game.rules.kinds
        if parts[0] not in kinds:
            raise self.unknown("piece kind", parts[0], kinds)
        seat = None if parts[1] == "none" else self.seat(parts[1])
        pid = introspect.create_piece(self.game, state, parts[0], seat, self.cell(parts[2]))
        for name, value, column in self.piece_values():
            fn, _ = self.expression(value, self.game.rules.variable_types["piece"][name],
                                    column)
            state.pieces[pid][name] = self.kept(fn())
        state.end_checked = False       # an edit: every end rule runs after the next play

    def piece_values(self):
        """(name, value, the value's column) of each VARIABLE=VALUE after a `piece` line's
        cell: a value runs to the next VARIABLE= (spaces allowed: `damage=1 + 2`); an error
        of the line, its caret where it is wrong, for a word that is no VARIABLE=, a name
        that is no piece variable or an empty value."""
        names = self.game.rules.variable_types["piece"]
        line = _strip_comment(self.source)
        words = list(re.finditer(r"\S+", line))[4:]     # after 'piece KIND SEAT CELL'
        if not words:
            return []
        quoted = [m.span() for m in re.finditer(r'"[^"]*"?', line)]
        starts = [m for m in _ASSIGNED.finditer(line, words[0].start())
                  if not any(a <= m.start() < b for a, b in quoted)]
        if not starts or starts[0].start() != words[0].start():
            name = words[0].group()
            compared = _COMPARED.match(line, words[0].start())
            if compared and compared.group(1) in names:     # `damage==3`, `damage == 3`
                raise self.error(f"'==' compares; a piece variable is given its value with "
                                 f"one '=': {compared.group(1)}=VALUE", compared.end() - 1)
            if name not in names:
                raise self.error(f"expected VARIABLE=VALUE after the cell, not '{shortened(name)}'"
                                 + close_name(name, names), words[0].start() + 1)
            raise self.error(f"the piece variable '{shortened(name)}' needs a value: write "
                             f"{name}=VALUE", words[0].end() + 1)
        out = []
        for found, after in zip(starts, starts[1:] + [None]):
            name = found.group(1)
            self.piece_variable(name, found.start() + 1)
            value = line[found.end():len(line) if after is None else after.start()]
            if not value.strip():
                raise self.error(f"the piece variable '{shortened(name)}' needs a value: write "
                                 f"{name}=VALUE", found.end() + 1)
            out.append((name, value.strip(), found.end() + len(value) - len(value.lstrip()) + 1))
        return out

    def piece_variable(self, name, column=1):
        names = self.game.rules.variable_types["piece"]
        if name not in names:
            raise self.unknown("piece variable", name, names, column)

    def do_set(self, rest):
        state = self.need_state()
        target, _, value = rest.partition("=")
        target, value = target.strip(), value.strip()
        if not value:
            raise self.error("expected 'set TARGET = VALUE'")
        container, key, scope = self.place(target)
        fn, _ = self.expression(value, self.game.rules.variable_types[scope][key])
        container[key] = self.kept(fn())
        state.end_checked = False

    def kept(self, value):
        """A variable's value, its numbers at most limits.MAX_NUMBER either way as the rules
        keep them (state.check_held; else an error here, not a different limit on each
        backend later)."""
        try:
            check_held([value], "a variable holds")
        except ValueError as exc:
            raise self.error(str(exc)) from None
        return value

    def place(self, target):
        """(the variables holding the target, its name there, its scope) of a `set` line."""
        state = self.state
        if "." not in target:
            if target == "turn_number":
                raise self.error("the turn number is set with 'turn N'")
            if target not in state.globals:
                raise self.unknown("global variable", target, state.globals)
            return state.globals, target, "global"
        owner, field = target.rsplit(".", 1)
        if "#" in owner:
            piece = state.pieces[self.piece(owner)]
            self.piece_variable(field)
            return piece, field, "piece"
        variables = state.seat_vars[self.seat(owner)]
        if field not in variables:
            raise self.unknown("seat variable", field, variables)
        return variables, field, "seat"

    def do_phase(self, rest):
        state = self.need_state()
        match = re.fullmatch(r"(\w+)\s+for\s+(\w+)", rest)
        if not match:
            raise self.error("expected 'phase NAME for SEAT'")
        name, seat = match.group(1), self.seat(match.group(2))
        phases = {n: len(p.params) for n, p in self.game.rules.phases.items()}
        if name not in phases:
            raise self.unknown("phase", name, phases)
        if phases[name]:
            raise self.error(f"phase '{name}' takes arguments; a scenario can only "
                             "start a phase without them")
        state.frames = []
        self.step(lambda state: introspect.enter_phase(self.game, state, name, seat))
        state.end_checked = False
        modes = {n: p.mode for n, p in self.game.rules.phases.items()}
        if state.turn == 0 and modes[name] != "turn" and "turn" in modes.values():
            self.turnless = (self.line, name)

    def do_turn(self, rest):
        state = self.need_state()
        if rest.isascii() and rest.isdigit() and not NUMBER.fullmatch(rest):
            # a number, of more digits than NUMBER takes: not "not a number"
            raise self.error(f"a turn number is at most {10 ** 18 - 1:,}, not {rest}")
        if not NUMBER.fullmatch(rest):
            raise self.error(f"expected 'turn N' with N a number, not '{shortened(rest)}'")
        state.turn = int(rest)
        state.end_checked = False

    def do_concede(self, rest):
        seat = self.seat(rest)
        self.step(lambda state: self.game.concede(state, seat))


def _scenarios(lines):
    """(first line number, [(line number, text), ...]) of each scenario of a file: a
    `reset` line starts a new one. Lines before the first `reset` that only name the rule
    file are a header, run first by the scenario after them, not a scenario of their own."""
    found = [(1, [])]
    for number, raw in enumerate(lines, 1):
        if _strip_comment(raw).split()[:1] == ["reset"]:
            found.append((number, []))
        found[-1][1].append((number, raw))
    header = found[0][1]
    if len(found) > 1 and all(_strip_comment(raw).split()[:1] in ([], ["rules"])
                              for _, raw in header):
        found[1] = (found[1][0], header + found[1][1])
        del found[0]
    return found


# A piece variable given a value on a `piece` line: NAME=VALUE, or NAME = VALUE (never the
# `==` of a comparison, nor a number before '=', as in `damage=3=4`: no name); the value runs
# to the next one.
_ASSIGNED = re.compile(r"(?<![\w#:.])([A-Za-z_]\w*)\s*=(?!=)")
_COMPARED = re.compile(r"([A-Za-z_]\w*)\s*==")     # a value given with '==' by mistake


def _strip_comment(line):
    """Drop a # comment, keeping # inside piece labels (Piece#2) and quoted text."""
    out, quoted = [], False
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        if char == "#" and not quoted and (i == 0 or not line[i - 1].isalnum()):
            break
        out.append(char)
    return "".join(out)


def run_scenarios(path):
    """One `Outcome` per scenario of the file at `path`."""
    run = ScenarioRun(path)
    run.run()
    return run.outcomes


def run_scenario(path):
    """Every failure of every scenario of the file at `path` ([] when all pass)."""
    return ScenarioRun(path).run()


def _deal(kind, items):
    """'a pick of 3 items', 'a pick', 'a shuffle of 3 items'."""
    return f"a {kind}" + ("" if items is None else f" of {counted(items, 'item')}")


def _deal_line(kind, items, value):
    """The scenario line that fixed a pick or a shuffle."""
    if kind == "pick":
        return f"pick {items or 'any'} {value}"
    return "shuffle " + " ".join(map(str, value))
