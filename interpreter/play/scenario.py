"""Scenario files: rule tests a designer writes without Python.

A scenario names a rule file, reaches a position, fixes dice, plays actions and states
what must then hold. One instruction per line; `#` starts a comment.

    rules ../../../games/space_war.gdl     the rule file (relative to this file)
    seed 7                                 the seed (default 0)
    play side south                        play a legal action by its text
    roll 6 4                               the next d6 rolled shows 4 ("roll any 4": any die)
    clear                                  remove every piece (numbering restarts)
    piece Pawn blue d4 damage=1            create a piece, optionally setting variables
    piece Rock none c3                     a piece that belongs to no seat
    set blue.moved = 1                     set a variable (global, SEAT.var or LABEL.var)
    phase play for blue                    make PHASE the current phase of SEAT (entering it)
    concede red                            a seat gives up
    expect Pawn#1 at d8                    a piece is on a cell
    expect Pawn#1 removed                  a piece is gone
    expect legal move Pawn#1 d8            an action is legal now
    expect illegal end because "moved > 0" an action is illegal (reason contains the text)
    expect winner red | expect draw | expect playing
    expect phase pick for blue             the current phase (and who decides)
    expect Pawn#2.damage == 1              any gdl condition; pieces by label

`run_scenario(path)` returns the failed expectations as `FILE:LINE: expected ..., got ...`.
A malformed line raises GdlDataError naming its file and line.
"""

from __future__ import annotations

import os
import re
import shlex

from ..language import ast
from ..language.errors import GdlDataError, GdlError, IllegalAction
from ..language.parser import parse_expression
from ..language.types import BOOL, PIECE
from ..loader import load_game
from ..runtime import introspect
from .expressions import compile_expression

_LABEL = re.compile(r"\b([A-Za-z_]\w*)#(\d+)\b")


class ScenarioRun:
    def __init__(self, path):
        self.path = path
        self.game = None
        self.state = None
        self.seed = 0
        self.forced = []
        self.failures = []
        self.line = 0

    # ----- helpers ------------------------------------------------------------------------
    def error(self, message):
        return GdlDataError(message, file=self.path, line=self.line, column=1,
                            source_line=self.source)

    def fail(self, expected, got):
        self.failures.append(f"{self.path}:{self.line}: expected {expected}, got {got}")

    def need_state(self):
        if self.game is None:
            raise self.error("no 'rules FILE' line before this one")
        if self.state is None:
            self.state = self.game.new_state(self.seed, forced=self.forced)
            self.forced = self.state.forced
        return self.state

    def seat(self, name):
        lowered = [s.lower() for s in self.game.seats]
        if name.lower() not in lowered:
            raise self.error(f"unknown seat '{name}'; seats: {', '.join(self.game.seats)}")
        return lowered.index(name.lower())

    def piece(self, label):
        for pid, piece in self.state.pieces.items():
            if piece["label"].lower() == label.lower():
                return pid
        raise self.error(f"no piece labelled {label}")

    def cell(self, name):
        cell = introspect.board(self.game).parse(name)
        if cell is None:
            raise self.error(f"'{name}' is not a cell of the board")
        return cell

    def expression(self, text, want=None):
        """Compile a gdl expression where labels like Pawn#2 stand for pieces."""
        state = self.need_state()
        values = {}

        def local(match):
            name = f"piece_{match.group(1)}_{match.group(2)}"
            values[name] = self.piece(match.group(0))
            return name
        rewritten = _LABEL.sub(local, text)
        try:
            fn, t = compile_expression(self.game, rewritten, {n: PIECE for n in values}, want,
                                       file=self.path)
        except GdlError as exc:
            raise self.error(f"bad expression '{text}': {exc.message}") from None
        return (lambda: fn(state, state.current, *values.values())), t

    # ----- instructions ---------------------------------------------------------------------
    def run(self):
        try:
            lines = open(self.path, encoding="utf-8").read().split("\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise GdlDataError(f"cannot read scenario {self.path}: {exc}") from None
        for number, raw in enumerate(lines, 1):
            self.line, self.source = number, raw
            text = _strip_comment(raw).strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            handler = getattr(self, "do_" + word, None)
            if handler is None:
                raise self.error(f"unknown instruction '{word}'; expected rules, seed, play, "
                                 "roll, clear, piece, set, phase, concede or expect")
            try:
                handler(rest.strip())
            except GdlDataError:
                raise
            except GdlError as exc:
                raise self.error(exc.message) from None
        return self.failures

    def do_rules(self, rest):
        path = os.path.join(os.path.dirname(self.path), rest)
        self.game = load_game(os.path.normpath(path))

    def do_seed(self, rest):
        if self.state is not None:
            raise self.error("'seed' must come before the first move")
        try:
            self.seed = int(rest)
        except ValueError:
            raise self.error(f"seed must be a number, not '{rest}'") from None

    def do_roll(self, rest):
        parts = rest.split()
        if len(parts) != 2 or not parts[1].isdigit() or not (parts[0] == "any"
                                                             or parts[0].isdigit()):
            raise self.error("expected 'roll SIDES VALUE' or 'roll any VALUE'")
        sides = None if parts[0] == "any" else int(parts[0])
        entry = [sides, int(parts[1])]
        if self.state is None:
            self.forced.append(entry)
        else:
            self.state.forced.append(entry)

    def do_play(self, rest):
        state = self.need_state()
        try:
            action = self.game.parse_action(state, rest)
        except IllegalAction as exc:
            self.fail(f"'{rest}' to be legal", f"illegal: {exc.message}")
            return
        self.game.apply(state, action, check=False)

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
        kind, cell = parts[0], self.cell(parts[2])
        seat = None if parts[1] == "none" else self.seat(parts[1])
        if kind not in introspect.kinds(self.game):
            raise self.error(f"unknown piece kind '{kind}'")
        pid = introspect.create_piece(self.game, state, kind, seat, cell)
        for assignment in parts[3:]:
            name, _, value = assignment.partition("=")
            if name not in introspect.variable_types(self.game, "piece"):
                raise self.error(f"pieces have no variable '{name}'")
            fn, _ = self.expression(value)
            state.pieces[pid][name] = fn()
        state.end_checked = False       # an edit: every end rule runs after the next play

    def do_set(self, rest):
        state = self.need_state()
        target, _, value = rest.partition("=")
        target, value = target.strip(), value.strip()
        if not value:
            raise self.error("expected 'set TARGET = VALUE'")
        fn, _ = self.expression(value)
        container, key = self.place(target)
        container[key] = fn()
        state.end_checked = False

    def place(self, target):
        state = self.state
        if "." not in target:
            if target not in state.globals:
                raise self.error(f"no global variable '{target}'")
            return state.globals, target
        owner, field = target.rsplit(".", 1)
        if "#" in owner:
            piece = state.pieces[self.piece(owner)]
            if field not in introspect.variable_types(self.game, "piece"):
                raise self.error(f"pieces have no variable '{field}'")
            return piece, field
        variables = state.seat_vars[self.seat(owner)]
        if field not in variables:
            raise self.error(f"seats have no variable '{field}'")
        return variables, field

    def do_phase(self, rest):
        state = self.need_state()
        match = re.fullmatch(r"(\w+)\s+for\s+(\w+)", rest)
        phases = introspect.phase_parameters(self.game)
        if not match or match.group(1) not in phases:
            raise self.error("expected 'phase NAME for SEAT' with a phase of the rule file")
        if phases[match.group(1)]:
            raise self.error(f"phase '{match.group(1)}' takes arguments; a scenario can only "
                             "start a phase without them")
        state.frames = []
        introspect.enter_phase(self.game, state, match.group(1), self.seat(match.group(2)))
        state.end_checked = False

    def do_concede(self, rest):
        self.game.concede(self.need_state(), self.seat(rest))

    def do_expect(self, rest):
        state = self.need_state()
        words = rest.split()
        if not words:
            raise self.error("'expect' needs something to expect")
        if len(words) == 3 and words[1] == "at" and "#" in words[0]:
            pid, cell = self.piece(words[0]), self.cell(words[2])
            piece = state.pieces[pid]
            where = "removed" if not piece["alive"] else (
                "off the board" if piece["cell"] is None else
                f"at {introspect.board(self.game).names[piece['cell']]}")
            if not piece["alive"] or piece["cell"] != cell:
                self.fail(f"{words[0]} at {words[2]}", where)
            return
        if len(words) == 2 and words[1] == "removed" and "#" in words[0]:
            piece = state.pieces[self.piece(words[0])]
            if piece["alive"]:
                where = ("it is alive" if piece["cell"] is None else
                         f"it is at {introspect.board(self.game).names[piece['cell']]}")
                self.fail(f"{words[0]} removed", where)
            return
        if words[0] in ("legal", "illegal"):
            self.expect_legality(words[0] == "legal", rest[len(words[0]):].strip())
            return
        if words[0] in ("winner", "draw", "playing"):
            self.expect_result(words)
            return
        if words[0] == "phase":
            self.expect_phase(rest)
            return
        self.expect_condition(rest)

    def expect_legality(self, legal, text):
        because = None
        match = re.fullmatch(r'(.*?)\s+because\s+(".*")', text)
        if match:
            try:
                text, because = match.group(1), shlex.split(match.group(2))[0]
            except ValueError:
                raise self.error('expected \'because "TEXT"\' with one quoted text') from None
        try:
            self.game.parse_action(self.state, text)
            if not legal:
                self.fail(f"'{text}' to be illegal", "legal")
        except IllegalAction as exc:
            if legal:
                self.fail(f"'{text}' to be legal", f"illegal: {exc.message}")
            elif because is not None and because not in exc.message:
                self.fail(f"'{text}' illegal because \"{because}\"", f"\"{exc.message}\"")

    def expect_result(self, words):
        result = self.state.result
        got = "still playing" if result is None else introspect.result_text(self.game, self.state)
        if words[0] == "playing":
            if result is not None:
                self.fail("the game still playing", got)
        elif words[0] == "draw":
            if result is None or not result["draw"]:
                self.fail("a draw", got)
        else:
            if len(words) != 2:
                raise self.error("expected 'expect winner SEAT'")
            seat = self.seat(words[1])
            if result is None or result["winners"] != [seat]:
                self.fail(f"winner {words[1]}", got)

    def expect_phase(self, rest):
        match = re.fullmatch(r"phase\s+(\w+)(?:\s+for\s+(\w+))?", rest)
        if not match:
            raise self.error("expected 'expect phase NAME [for SEAT]'")
        state = self.state
        name = state.frames[-1]["phase"] if state.frames else "none"
        decider = self.game.current_player(state)
        got = f"phase {name}" + (f" for {self.game.seats[decider]}" if decider >= 0 else "")
        if name != match.group(1) or (match.group(2) and (
                decider < 0 or self.seat(match.group(2)) != decider)):
            self.fail(rest, got)

    def expect_condition(self, text):
        try:
            expr = parse_expression(_LABEL.sub("x", text))
        except GdlError as exc:
            raise self.error(f"bad expression '{text}': {exc.message}") from None
        if isinstance(expr, ast.Compare):
            left_text, _ = _split_compare(text, expr.op)
            left, lt = self.expression(left_text)
            check, _ = self.expression(text, BOOL)
            if not check():
                value = left()
                with introspect.formatting(self.game, self.state) as value_text:
                    self.fail(text, f"{left_text} = {value_text(value, lt)}")
            return
        check, _ = self.expression(text, BOOL)
        if not check():
            self.fail(text, "false")


def _split_compare(text, op):
    """Split 'a == b' at its top-level comparison operator (outside brackets)."""
    depth = 0
    for i, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0 and text.startswith(op, i):
            if op in ("<", ">") and text[i + 1:i + 2] == "=":
                continue
            return text[:i].strip(), text[i + len(op):].strip()
    return text, "true"


def _strip_comment(line):
    """Drop a # comment, keeping # inside piece labels (Pawn#2) and quoted text."""
    out, quoted = [], False
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        if char == "#" and not quoted and (i == 0 or not line[i - 1].isalnum()):
            break
        out.append(char)
    return "".join(out)


def run_scenario(path):
    return ScenarioRun(path).run()
