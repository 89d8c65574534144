"""The `expect` lines of scenario files: what must hold in a scenario's position.

`Expectations` is the half of `runner.ScenarioRun` that reads an `expect` line and records
a failure (`FILE:LINE: expected ..., got ...`) when it does not hold; the run supplies the
position and the names (pieces, cells, seats). The forms, documented with an example each
in section 15 of docs/language.md:

    expect Piece#1 at d8 | expect Piece#1 removed [at d8]
    expect legal ACTION | expect illegal ACTION [because "TEXT"]
    expect legal count N [NAME] [for LABEL|CELL]
    expect legal actions [NAME] [for LABEL|CELL]: ACTION, ACTION, ...
    expect no legal NAME [for LABEL|CELL]    (NAME `action`: any action)
    expect view of SEAT shows TARGET [== VALUE] | expect view of SEAT hides TARGET
    expect view of SEAT shows count WHAT [of SEAT] == N
    expect view of SEAT shows status of LABEL | seat text of SEAT | game text
        == "TEXT" | contains "TEXT"          (the texts of `show status`, `seat`, `game`)
    expect score of SEAT == N                (`show score`; or !=, <, <=, >, >=)
    expect return of SEAT == N               (at the end: `payoff(s)`, else 1/-1/0; or !=, ...)
    expect rolled N dS[, N dS ...] | expect rolled no dice
    expect winner SEAT | expect draw | expect playing
    expect phase NAME [for SEAT]
    expect CONDITION
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, Any

import attrs

from ...language import ast
from ...language.errors import QUOTED_LINE, GdlError, IllegalAction, shortened
from ...language.parser import parse_expression
from ...language.types import BOOL, CELL, PIECE, Type, describe
from ...runtime import introspect
from ...runtime.view import HIDDEN

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.events import Roll
    from ...runtime.rules import ActionInfo, Param
    from ...runtime.state import Action, State

# A piece label: Kind#n, or seat:Kind#n in a game that numbers each seat's pieces apart.
LABEL = re.compile(r"\b(?:([A-Za-z_]\w*):)?([A-Za-z_]\w*)#(\d+)\b")
NUMBER = re.compile(r"[0-9]{1,18}")
_LISTED = 10        # legal actions named in a failure, at most
_PIECE_FIELDS = ("kind", "cell", "owner")
# A view target that is a rule file's text, not a variable (a name never holds a space).
_TEXT_TARGET = re.compile(r"(status\s+of|seat\s+text|game\s+text)(\s|$)")
# The `show` rule of each such text: its parameter, and what it gives.
_SHOWN_TEXTS = {"status": ("p", "no piece has a status"), "seat": ("s", "no seat has a text"),
                "game": ("s", "the game has no text")}
_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge,
                "<": operator.lt, ">": operator.gt}


class Expectations:
    """`do_expect` and what it needs of a scenario run (see runner.ScenarioRun)."""

    # What the run provides (runner.ScenarioRun sets and defines these).
    game: Game
    state: State
    expectations: int
    rolled: list[Roll]
    turnless: tuple[int, str] | None

    if TYPE_CHECKING:
        def need_state(self) -> State: ...

        def error(self, message: str) -> GdlError: ...

        def fail(self, expected: str, got: str, line: int | None = None) -> None: ...

        def seat(self, name: str) -> int: ...

        def action(self, text: str) -> Action | IllegalAction: ...

    def do_expect(self, rest: str) -> None:
        """Check an `expect` line (`rest`: the text after `expect`): the first of `FORMS`
        whose pattern matches all of it picks the check, given the pattern's groups."""
        self.expectations += 1
        self.need_state()
        if not rest:
            raise self.error("'expect' needs something to expect")
        for pattern, check in FORMS:
            match = pattern.fullmatch(rest)
            if match:
                check(self, *match.groups())
                return

    # ----- pieces -----------------------------------------------------------------------
    def expect_at(self, label, cell_name):
        piece = self.state.pieces[self.piece(label)]
        if not piece["alive"] or piece["cell"] != self.cell(cell_name):
            self.fail(f"{label} at {cell_name}", self.where(piece))

    def expect_removed(self, label, cell_name):
        piece = self.state.pieces[self.piece(label)]
        cell = None if cell_name is None else self.cell(cell_name)
        expected = f"{label} removed" + (f" at {cell_name}" if cell_name else "")
        if piece["alive"]:
            self.fail(expected, "it is " + self.where(piece))
        elif cell_name is not None and piece.get("last_cell") != cell:
            self.fail(expected, self.where(piece))

    def where(self, piece):
        """'at c4', 'off the board', 'removed at c4' (its last cell) or 'removed'."""
        if not piece["alive"]:
            last = piece.get("last_cell")
            return "removed" + ("" if last is None else f" at {self.cell_name(last)}")
        return "off the board" if piece["cell"] is None else f"at {self.cell_name(piece['cell'])}"

    # ----- legal actions ----------------------------------------------------------------
    def expect_legal(self, text: str | None) -> None:
        self.expect_legality(True, text or "")

    def expect_illegal(self, text: str | None) -> None:
        self.expect_legality(False, text or "")

    def expect_legality(self, legal: bool, text: str) -> None:
        text, because = self.because(text)
        if because is not None and legal:
            raise self.error("'because \"TEXT\"' goes with 'expect illegal'")
        action = self.action(text)
        if not isinstance(action, IllegalAction):
            if not legal:
                self.fail(f"'{shortened(text, QUOTED_LINE)}' to be illegal", "legal")
        elif legal:
            self.fail(f"'{shortened(text, QUOTED_LINE)}' to be legal",
                      f"illegal: {action.message}")
        elif because is not None and because not in action.message:
            self.fail(f"'{shortened(text, QUOTED_LINE)}' illegal because \"{because}\"",
                      f"\"{action.message}\"")

    def because(self, text):
        """(action text, reason or None) of 'ACTION [because "TEXT"]'."""
        match = re.fullmatch(r"(.*?)\s+because\s+(.*)", text)
        if not match:
            return text, None
        if not re.fullmatch(r'"[^"]*"', match.group(2)):
            raise self.error('expected \'because "TEXT"\': the reason in double quotes, '
                             "closed on the same line")
        return match.group(1), match.group(2)[1:-1]

    def expect_count(self, text: str | None) -> None:
        words = text.split() if text else []
        if not words or not NUMBER.fullmatch(words[0]):
            raise self.error("expected 'expect legal count N [ACTION] [for LABEL]'")
        name, label = self.selection(words[1:])
        texts = self.legal_texts(name, label)
        if len(texts) != int(words[0]):
            self.fail(f"legal count {words[0]}{_selected(name, label)}",
                      f"{len(texts)}{_listing(texts)}")

    def expect_actions(self, text):
        # the first ':' that ends a word (a label seat:Kind#n holds one inside a word)
        split = re.search(r":(\s|$)", text)
        head, colon, listed = ((text[:split.start()], ":", text[split.end():]) if split
                               else (text, "", ""))
        wanted = [t.strip() for t in listed.split(",")]
        if not colon or not all(wanted):
            raise self.error("expected 'expect legal actions [ACTION] [for LABEL]: ACTION, "
                             "ACTION, ...' (and 'expect no legal ...' for none)")
        name, label = self.selection(head.split())
        actual = self.legal_texts(name, label)
        expected, missing = [], []
        for typed in wanted:
            action = self.action(typed)
            if isinstance(action, IllegalAction):
                missing.append(f"{typed} (illegal: {action.message})")
            else:
                expected.append(self.game.action_text(self.state, action))
        missing += [t for t in expected if t not in actual]
        extra = [t for t in actual if t not in expected]
        if missing or extra:
            notes = (["missing " + ", ".join(missing)] if missing else []) + (
                ["not expected " + ", ".join(extra)] if extra else [])
            self.fail(f"legal actions{_selected(name, label)}: {', '.join(wanted)}",
                      f"{', '.join(actual) or 'none'} ({'; '.join(notes)})")

    def expect_none(self, text: str | None) -> None:
        words = text.split() if text else []
        if not words:
            raise self.error("expected 'expect no legal ACTION [for LABEL]' ('action' for "
                             "any action)")
        name, label = self.selection(words)
        texts = self.legal_texts(name, label)
        if texts:
            self.fail(f"no legal{_selected(name, label)}", f"{len(texts)}{_listing(texts)}")

    def selection(self, words):
        """(action name or None, Selected or None) of '[NAME] [for LABEL|CELL]'; the name
        `action` or `actions` stands for any action."""
        words = list(words)
        name = None
        if words and words[0] != "for":
            name = words.pop(0)
            names = self.game.rules.action_names
            if name in ("action", "actions"):
                name = None
            elif name not in names:
                raise self.unknown("action", name, names)
        if words[:1] == ["for"] and len(words) == 2:
            return name, self.selected(name, words[1])
        if words:
            raise self.error(f"expected '[ACTION] [for LABEL]', not '{shortened(' '.join(words))}'")
        return name, None

    def selected(self, name, word):
        """What 'for WORD' selects, a piece (by its label) or a cell: an error when no
        action `name` (None: no action) of the game takes one among its arguments, so
        that the selection could never match and a check on it would pass untested."""
        if "#" in word:
            pid = self.piece(word)
            what, value, text = PIECE, pid, self.state.pieces[pid]["label"]
        else:
            what, value, text = CELL, self.cell(word), word
        actions = [a for phase in self.game.rules.phases.values() for a in phase.actions
                   if name is None or a.name == name]
        if not any(_takes(param, what) for a in actions for param in a.params):
            named = f"'{name}'" if name else "action of the game"
            taken = "; ".join(f"'{a.name}' takes " + (", ".join(
                f"{p.name}: {describe(p.type)}" + (" by its cell" if p.by_cell else "")
                for p in a.params) or "no argument") for a in _unique_by_name(actions))
            raise self.error(
                f"'for {word}' selects the actions with {describe(what)} among their "
                f"arguments, but no {named} takes one ({taken}), so it would match none")
        return Selected(what, value, text)

    def legal_texts(self, name, selected):
        """The texts of the deciding seat's legal actions named `name` (None: any) whose
        arguments hold the selected piece or cell (None: any); a piece `by cell` holds its
        cell."""
        state = self.state
        legal = self.game.legal_actions(state)
        if selected is not None and legal:
            infos = self.game.rules.phases[state.frames[-1]["phase"]].actions
            legal = [a for a in legal if any(
                _holds(state, param, value, selected)
                for param, value in zip(infos[a[0]].params, a[1]))]
        texts = [self.game.action_text(state, a) for a in legal]
        return [t for t in texts if name is None or t.split()[0] == name]

    # ----- results, phases, dice ----------------------------------------------------------
    def expect_result(self, word: str, text: str | None) -> None:
        state = self.state
        if self.turnless is not None and state.turn == 0 and state.result is None:
            line, phase = self.turnless
            raise self.error(
                f"the end rules have not run: no turn has started (turn_number is 0), as "
                f"line {line} entered '{phase}', which is not a turn phase; write 'turn 1' "
                "(or enter a turn phase) before that line")
        result = state.result
        got = "still playing" if result is None else introspect.result_text(self.game, state)
        if word == "playing":
            if result is not None:
                self.fail("the game still playing", got)
        elif word == "draw":
            if result is None or not result["draw"]:
                self.fail("a draw", got)
        else:
            words = text.split() if text else []
            if len(words) != 1:
                raise self.error("expected 'expect winner SEAT'")
            seat = self.seat(words[0])
            if result is None or result["winners"] != [seat]:
                self.fail(f"winner {words[0]}", got)

    def expect_phase(self, rest):
        match = re.fullmatch(r"phase\s+(\w+)(?:\s+for\s+(\w+))?", rest)
        if not match:
            raise self.error("expected 'expect phase NAME [for SEAT]'")
        phases = {n: len(p.params) for n, p in self.game.rules.phases.items()}
        if match.group(1) not in phases:
            raise self.unknown("phase", match.group(1), phases)
        seat = None if match.group(2) is None else self.seat(match.group(2))
        state = self.state
        name = state.frames[-1]["phase"] if state.frames else "none"
        decider = self.game.current_player(state)
        got = f"phase {name}" + (f" for {self.game.seats[decider]}" if decider >= 0 else "")
        if name != match.group(1) or (seat is not None and seat != decider):
            self.fail(rest, got)

    def expect_rolled(self, text: str | None) -> None:
        text = text or ""
        expected: dict[int, int] = {}
        if text != "no dice":
            for part in text.split(","):
                match = re.fullmatch(r"\s*([0-9]{1,9})\s*d([0-9]{1,9})\s*", part)
                if not match:
                    raise self.error("expected 'expect rolled N dSIDES[, N dSIDES ...]' "
                                     "(like 'expect rolled 2 d6, 1 d4') or 'expect rolled "
                                     "no dice'")
                sides = int(match.group(2))
                expected[sides] = expected.get(sides, 0) + int(match.group(1))
        expected = {sides: n for sides, n in expected.items() if n}
        values: dict[int, list[str]] = {}
        for event in self.rolled:
            values.setdefault(event.sides, []).append(str(event.value))
        if {sides: len(v) for sides, v in values.items()} != expected:
            got = ", ".join(f"{len(v)} d{sides} ({', '.join(v)})"
                            for sides, v in values.items())
            self.fail(f"rolled {text}", got or "no dice")

    # ----- views --------------------------------------------------------------------------
    def expect_view(self, rest):
        match = re.fullmatch(r"view\s+of\s+(\S+)\s+(shows|hides)\s+(.+?)(?:\s*==\s*(.+))?",
                             rest)
        if not match:
            raise self.error("expected 'expect view of SEAT shows TARGET [== VALUE]' or "
                             "'expect view of SEAT hides TARGET'")
        seat, verb, target, value = match.groups()
        if _TEXT_TARGET.match(target):
            self.expect_shown_text(rest)
            return
        view = self.game.view(self.state, self.seat(seat))
        if target.startswith("count "):
            if verb == "hides" or value is None or not NUMBER.fullmatch(value.strip()):
                raise self.error("a count is always shown: expected 'expect view of SEAT "
                                 "shows count WHAT [of SEAT] == N'")
            count = self.view_count(view, target[len("count "):].strip())
            if count != int(value):
                self.fail(rest, f"{target} = {count}")
            return
        if verb == "hides" and value is not None:
            raise self.error("expected 'expect view of SEAT hides TARGET' (without a value)")
        shown = self.view_value(view, target)
        if shown is None:
            self.fail(rest, f"{target.split('.')[0]} removed (in no view)")
        elif verb == "hides":
            if shown != HIDDEN:
                self.fail(rest, f"{target} shown" if "." not in target and "#" in target
                          else f"{target} = {shown}")
        elif shown == HIDDEN:
            self.fail(rest, f"{target} hidden")
        elif value is not None and _squeezed(shown) != _squeezed(value):
            self.fail(rest, f"{target} = {shown}")

    def expect_shown_text(self, rest):
        """'view of SEAT shows status of LABEL | seat text of SEAT | game text == "TEXT"'
        (or 'contains "TEXT"'): the text a `show` rule gives the seat viewing, as its view
        holds it (a piece hidden from the seat has none)."""
        match = re.fullmatch(r'view\s+of\s+(\S+)\s+shows\s+(status\s+of\s+([^\s=]+)|'
                             r'seat\s+text\s+of\s+([^\s=]+)|game\s+text)\s*(==|contains)\s*'
                             r'"([^"]*)"', rest)
        if not match:
            raise self.error("expected 'expect view of SEAT shows WHAT == \"TEXT\"' (or "
                             "'contains \"TEXT\"'), WHAT being status of LABEL, seat text of "
                             "SEAT or game text, the text in double quotes")
        seat, target, label, owner, verb, wanted = match.groups()
        viewer = self.seat(seat)
        name = target.split()[0]
        self.declared(name, *_SHOWN_TEXTS[name])
        view = self.game.view(self.state, viewer)
        if label is not None:
            piece = self.state.pieces[self.piece(label)]
            entry = next((e for e in view["pieces"] if e["label"] == piece["label"]), None)
            if entry is None:
                why = "hidden" if piece["alive"] else "removed (in no view)"
                self.fail(rest, f"{piece['label']} {why}")
                return
            shown = entry["status"]
        elif owner is not None:
            shown = view["seats"][self.seat(owner)]["status"]
        else:
            shown = view["status"]
        if (shown != wanted) if verb == "==" else (wanted not in shown):
            self.fail(rest, f'"{shown}"')

    def declared(self, name, parameter, what):
        """An error of the line unless the rule file declares `show NAME(PARAMETER)`; `what`
        says what is missing then ('no piece has a status')."""
        if introspect.show_rule(self.game, name) is None:
            raise self.error(f"the rule file has no 'show {name}({parameter}) = ...', so "
                             f"{what} to expect")

    def view_value(self, view, target):
        """The text a view shows for TARGET (a global, SEAT.var, LABEL, LABEL.var or
        LABEL.kind/cell/owner): HIDDEN when hidden, None when the piece is removed."""
        owner, _, field = target.partition(".")
        if "#" in owner:
            return self.view_of_piece(view, owner, field or None)
        if not field:
            if owner not in view["globals"]:
                raise self.unknown("global variable", owner, view["globals"])
            return view["globals"][owner]
        variables = view["seats"][self.seat(owner)]["vars"]
        if field not in variables:
            raise self.unknown("seat variable", field, variables)
        return variables[field]

    def view_of_piece(self, view, label, field):
        piece = self.state.pieces[self.piece(label)]
        if field is not None and field not in _PIECE_FIELDS:
            self.piece_variable(field)
        if not piece["alive"]:
            return None
        entry = next((e for e in view["pieces"] if e["label"] == piece["label"]), None)
        if entry is None:
            # A hidden piece: the view still shows an unnamed piece of its owner on its cell.
            owner = "none" if piece["owner"] is None else self.game.seats[piece["owner"]]
            cell = None if piece["cell"] is None else self.cell_name(piece["cell"])
            seen = {"owner": owner, "cell": cell or "none"}
            if field in seen and any(e["label"] == HIDDEN and e["owner"] == owner
                                     and e["cell"] == cell for e in view["pieces"]):
                return seen[field]
            return HIDDEN
        if field is None:
            return entry["label"]
        if field in _PIECE_FIELDS:
            return entry[field] or "none"
        return entry["vars"][field]

    def view_count(self, view, what):
        match = re.fullmatch(r"(\w+)(?:\s+of\s+(\w+))?", what)
        if not match:
            raise self.error("expected 'count WHAT [of SEAT]', WHAT a piece kind, 'pieces' "
                             "or 'hidden'")
        what, owner = match.groups()
        entries = view["pieces"]
        if owner is not None:
            owner = owner if owner == "none" else self.game.seats[self.seat(owner)]
            entries = [e for e in entries if e["owner"] == owner]
        kinds = self.game.rules.kinds
        if what == "hidden":
            entries = [e for e in entries if e["label"] == HIDDEN]
        elif what in kinds:
            entries = [e for e in entries if e["kind"] == what]
        elif what != "pieces":
            raise self.unknown("piece kind", what, list(kinds) + ["pieces", "hidden"])
        return len(entries)

    # ----- scores -------------------------------------------------------------------------
    def expect_score(self, rest):
        """'score of SEAT OP N': the seat's `show score(s)` in the position (no view holds
        it: it is what agents judge a position by)."""
        match = re.fullmatch(r"score\s+of\s+(\w+)\s*(==|!=|<=|>=|<|>)\s*(-?[0-9]{1,18})",
                             rest)
        if not match:
            raise self.error("expected 'expect score of SEAT == N' (or !=, <, <=, >, >= N)")
        seat = self.seat(match.group(1))
        self.declared("score", "s", "no seat has a score")
        score = introspect.scores(self.game, self.state)[seat]
        if not _COMPARISONS[match.group(2)](score, int(match.group(3))):
            self.fail(rest, str(score))

    # ----- returns ------------------------------------------------------------------------
    def expect_return(self, rest):
        """'return of SEAT OP N': the seat's return (`payoff(s)`, else 1 for a win, -1 for a
        loss, 0 for a draw) once the game has ended; a game still playing fails."""
        match = re.fullmatch(r"return\s+of\s+(\w+)\s*(==|!=|<=|>=|<|>)\s*(-?[0-9]{1,18})",
                             rest)
        if not match:
            raise self.error("expected 'expect return of SEAT == N' (or !=, <, <=, >, >= N)")
        seat = self.seat(match.group(1))
        if self.state.result is None:
            self.fail(rest, "the game still playing (a return is known at the end)")
            return
        value = self.game.returns(self.state)[seat]
        if not _COMPARISONS[match.group(2)](value, int(match.group(3))):
            self.fail(rest, _number_text(value))

    # ----- conditions ---------------------------------------------------------------------
    def expect_condition(self, text):
        try:
            expr = parse_expression(LABEL.sub("x", text))
        except GdlError as exc:
            quoted = shortened(text, QUOTED_LINE)
            raise self.error(f"bad expression '{quoted}': {exc.message}") from None
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


# The forms of an `expect` line, tried in order: a pattern the whole text after `expect` must
# match, and the check it picks, given the pattern's groups. A form whose first words match
# but whose rest is wrong is picked all the same, and its check says what it expected.
FORMS = tuple((re.compile(pattern), check) for pattern, check in (
    (r"(\S*#\S*)\s+at\s+(\S+)", Expectations.expect_at),
    (r"(\S*#\S*)\s+removed(?:\s+at\s+(\S+))?", Expectations.expect_removed),
    (r"legal\s+count(?:\s+(.*))?", Expectations.expect_count),
    (r"legal\s+actions(?![^\s:])\s*(.*)", Expectations.expect_actions),
    (r"no\s+legal(?:\s+(.*))?", Expectations.expect_none),
    (r"legal(?:\s+(.*))?", Expectations.expect_legal),
    (r"illegal(?:\s+(.*))?", Expectations.expect_illegal),
    (r"(winner|draw|playing)(?:\s+(.*))?", Expectations.expect_result),
    (r"(phase(?:\s.*)?)", Expectations.expect_phase),
    (r"(view(?:\s.*)?)", Expectations.expect_view),
    (r"rolled(?:\s+(.*))?", Expectations.expect_rolled),
    (r"(score\s+of(?:\s.*)?)", Expectations.expect_score),
    (r"(return\s+of(?:\s.*)?)", Expectations.expect_return),
    (r"(.*)", Expectations.expect_condition),
))


@attrs.frozen
class Selected:
    """What `for WORD` of a legal-action check selects: a piece (`what` PIECE, `value` its
    id) or a cell (CELL, the cell); `text` as a failure writes it (the label, the cell)."""
    what: Type
    value: int
    text: str


def _takes(param: Param, what: Type) -> bool:
    """Can an action's parameter hold a `what` (a piece; a cell, or a piece by its cell)?"""
    return param.type == what or (what == CELL and param.type == PIECE and param.by_cell)


def _holds(state: State, param: Param, value: Any, selected: Selected) -> bool:
    """Does an argument `value` of parameter `param` hold the selected piece or cell?"""
    if param.type == selected.what:
        return bool(value == selected.value)
    return bool(selected.what == CELL and param.type == PIECE and param.by_cell
                and state.pieces[value]["cell"] == selected.value)


def _unique_by_name(actions: list[ActionInfo]) -> list[ActionInfo]:
    """The first action of each name (phases may share one)."""
    seen: dict[str, ActionInfo] = {}
    for action in actions:
        seen.setdefault(action.name, action)
    return list(seen.values())


def _selected(name, selected):
    """' move for Piece#2', ' move', ' for a3' or ''."""
    return (f" {name}" if name else "") + (f" for {selected.text}" if selected else "")


def _listing(texts):
    """': a, b, c' (at most _LISTED of them), or '' for none."""
    if not texts:
        return ""
    more = len(texts) - _LISTED
    return ": " + ", ".join(texts[:_LISTED]) + (f", ... ({more} more)" if more > 0 else "")


def _number_text(value: float) -> str:
    """A return as a rule file writes it: '2', '-1', '0.5'."""
    return str(int(value)) if value == int(value) else str(value)


def _squeezed(text):
    return "".join(text.split()).lower()


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
