"""Engine: runs a compiled game. The OpenSpiel-shaped API every agent, test and the CLI use.

    game.new_state(seed)            -> State after setup
    game.current_player(state)      -> seat index, or TERMINAL
    game.legal_actions(state)       -> sorted, deterministic list of actions
    game.action_text(state, a)      -> the stable text a person types ("move Pawn#2 c4")
    game.parse_action(state, text)  -> the legal action with that text, or IllegalAction (why)
    game.apply(state, action)       -> mutates state; returns the chance/log events it caused
                                       (refuses an action that is not legal)
    game.is_terminal / returns / view / concede

An action is a tuple (action index within the current phase, argument values). All
decisions are made one at a time; in a simultaneous phase each seat's choice is stored
hidden until every seat has chosen, then all are revealed together.
"""

from __future__ import annotations

import contextlib

from .compiler import Compiler, StopMove
from .errors import GdlError, IllegalAction
from .state import State, splitmix64
from .types import CELL, INT, PIECE, SEAT, format_value

TERMINAL = -1


class Runtime:
    """What compiled closures reach at run time: the current state and game tables."""

    @contextlib.contextmanager
    def bound(self, state):
        """Run the enclosed code with `state` as the state the rules see."""
        previous, self.state = self.state, state
        try:
            yield self
        finally:
            self.state = previous

    def __init__(self, game):
        self.game = game
        self.board = game.board
        self.kinds = game.kinds
        self.state = None
        self.out_hooks = []
        self.running = None     # the action whose effects are running (for error places)

    # randomness -------------------------------------------------------------------------
    def next64(self):
        self.state.rng, out = splitmix64(self.state.rng)
        return out

    def below(self, n):
        return (self.next64() * n) >> 64

    def roll(self, sides):
        state = self.state
        if sides < 1:
            raise GdlError(f"cannot roll a die with {sides} sides")
        if state.forced:
            forced_sides, value = state.forced[0]
            if forced_sides in (None, sides):
                state.forced.pop(0)
                state.events.append(["roll", sides, value, "fixed"])
                return value
        value = 1 + self.below(sides)
        state.events.append(["roll", sides, value])
        return value

    def pick(self, items):
        if not items:
            return None
        index = self.below(len(items))
        self.state.events.append(["pick", len(items), index + 1])
        return items[index]

    def shuffled(self, items):
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        self.state.events.append(["shuffle", len(items)])
        return items

    # seats -------------------------------------------------------------------------------
    def live_seats(self):
        return [s for s, out in enumerate(self.state.out) if not out]

    def next_seat(self, seat, step):
        n = len(self.state.out)
        for k in range(1, n + 1):
            other = (seat + step * k) % n
            if not self.state.out[other]:
                return other
        return seat

    # pieces ------------------------------------------------------------------------------
    def create(self, kind, owner, cell):
        state = self.state
        if kind not in self.kinds:
            raise GdlError(f"run-time error: 'create' was given no piece kind ({kind!r})")
        number = state.numbers.get(kind, 0) + 1
        state.numbers[kind] = number
        pid = state.numbers.get("#", 0) + 1
        state.numbers["#"] = pid
        piece = {"id": pid, "kind": kind, "owner": owner, "cell": None, "alive": True,
                 "label": f"{kind}#{number}"}
        for name, value in self.game.piece_defaults:
            piece[name] = list(value) if isinstance(value, list) else value
        state.pieces[pid] = piece
        if cell is not None:
            self.place(pid, cell)
        return pid

    def place(self, pid, cell):
        state = self.state
        piece = state.pieces[pid]
        if not piece["alive"]:
            return
        old = piece["cell"]
        if old is not None:
            state.at[old].remove(pid)
            if not state.at[old]:
                del state.at[old]
        piece["cell"] = cell
        if cell is not None:
            state.at.setdefault(cell, []).append(pid)

    def remove(self, pid):
        piece = self.state.pieces[pid]
        if piece["alive"]:
            self.place(pid, None)
            piece["alive"] = False

    def move_along(self, me, pid, path):
        pieces = self.state.pieces
        triggers = self.game.triggers
        for cell in list(path):
            if not pieces[pid]["alive"]:
                return
            self.place(pid, cell)
            for where, body, slots in triggers:
                env = [me, pid, cell] + [None] * (slots - 3)
                if where is None or where(env):
                    try:
                        body(env)
                    except StopMove:
                        return
                if not pieces[pid]["alive"]:
                    return

    # flow --------------------------------------------------------------------------------
    def enter_phase(self, name, args, seat, push):
        state = self.state
        phase = self.game.phases[name]
        if not isinstance(seat, int) or not 0 <= seat < len(state.out):
            raise GdlError(f"phase '{name}' was entered for no seat (the seat expression "
                           f"gave {seat!r})")
        pending = [None] * len(state.out) if phase.mode == "simultaneous" else None
        frame = [name, seat, list(args), pending]
        if push or not state.frames:
            state.frames.append(frame)
        else:
            state.frames[-1] = frame
        if phase.mode == "turn":
            self.start_turn(seat)
        phase.enter(frame_env(seat, frame[2], phase.slots))

    def pop_phase(self):
        state = self.state
        if len(state.frames) <= 1:
            raise GdlError("'return' from the only phase left: 'return' ends a phase entered "
                           "with 'call'; use 'goto' to move on")
        state.frames.pop()
        frame = state.frames[-1]
        phase = self.game.phases[frame[0]]
        phase.resume(frame_env(frame[1], frame[2], phase.slots))

    def start_turn(self, seat):
        state = self.state
        state.turn += 1
        state.current = seat
        keep = []
        for timer in reversed(state.timers):     # newest first: the oldest value wins
            if timer[0] == seat:
                self.restore(timer[1], timer[2])
            else:
                keep.append(timer)
        state.timers = keep[::-1]

    def add_timer(self, seat, place, old):
        if place is not None:
            self.state.timers.append([seat, place, old])

    def restore(self, place, old):
        state = self.state
        if place[0] == "g":
            state.globals[place[1]] = old
        elif place[0] == "s":
            state.seat_vars[place[1]][place[2]] = old
        elif place[1] in state.pieces:
            state.pieces[place[1]][place[2]] = old

    # results -----------------------------------------------------------------------------
    def declare_winners(self, seats):
        if self.state.result is None:
            self.state.result = {"winners": sorted(seats), "draw": not seats}

    def eliminate(self, seat):
        state = self.state
        if state.result is not None or state.out[seat]:
            return
        state.out[seat] = True
        state.events.append(["out", seat])
        live = self.live_seats()
        if len(live) <= 1:
            self.declare_winners(live)
            return
        for body, slots in self.out_hooks:
            body([seat, seat] + [None] * (slots - 2))

    # arithmetic that must not raise a Python error -----------------------------------------
    def divide(self, a, b, node):
        if b == 0:
            raise _runtime_error("division by zero", node)
        return a // b

    def modulo(self, a, b, node):
        if b == 0:
            raise _runtime_error("modulo by zero", node)
        return a % b

    # names for text ------------------------------------------------------------------------
    def cell_name(self, cell):
        return self.board.names[cell]

    def piece_name(self, pid):
        return self.state.pieces[pid]["label"]

    def seat_name(self, seat):
        return self.game.seats[seat]


def frame_env(seat, values, slots):
    """Local slots of code running in a phase frame: `me`, then the phase's arguments (and
    an action's), then room for the rest."""
    return [seat] + list(values) + [None] * (slots - 1 - len(values))


def _runtime_error(message, node):
    span = node.span
    return GdlError(f"run-time error: {message}", file=span.file, line=span.line,
                    column=span.column, source_line=span.source_line)


class Game:
    """A compiled, runnable game."""

    def __init__(self, checked, path, source_hash):
        self.name = checked.game_name
        self.path = path
        self.source_hash = source_hash
        self.seats = list(checked.seats)
        self.board = checked.board
        self.terrain = dict(checked.terrain)
        self.kinds = checked.kinds
        self.symbols = checked.symbols
        self.global_defaults = [(n, v) for n, (v, _, _) in checked.vars["global"].items()]
        self.seat_defaults = [(n, v) for n, (v, _, _) in checked.vars["seat"].items()]
        self.piece_defaults = [(n, v) for n, (v, _, _) in checked.vars["piece"].items()]
        self.var_types = {scope: {n: t for n, (_, t, _) in table.items()}
                          for scope, table in checked.vars.items()}
        self.rt = Runtime(self)
        self.checked = checked
        compiled = Compiler(checked, self.rt).compile_program()
        (self.phases, self.setup, self.triggers, self.end_rules, self.visibility,
         self.shows) = compiled
        self.has_turns = any(p.mode == "turn" for p in self.phases.values())

    # ----- life cycle ---------------------------------------------------------------------
    def new_state(self, seed=0, forced=()):
        state = State()
        state.rng = seed & ((1 << 64) - 1)
        state.globals = {n: _copy(v) for n, v in self.global_defaults}
        state.seat_vars = [{n: _copy(v) for n, v in self.seat_defaults} for _ in self.seats]
        state.out = [False] * len(self.seats)
        state.forced = [list(f) for f in forced]
        self._run(state, self._setup_run)
        return state

    def _setup_run(self, state):
        body, slots = self.setup
        body([0] + [None] * (slots - 1))
        if not state.frames and state.result is None:
            raise GdlError("setup did not enter any phase: end it with 'goto PHASE for SEAT'")

    def _run(self, state, fn, *args, check_end=True):
        """Run engine work on `state` with the run-time bound, then check the end rules.
        Python errors raised by a rule become GdlError."""
        rt = self.rt
        previous, rt.state = rt.state, state
        rt.running = None
        try:
            result = fn(state, *args)
            if check_end and state.result is None and (state.turn > 0 or not self.has_turns):
                self._check_end(state)
            return result
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            span = rt.running.span if rt.running is not None else None
            where = {"file": span.file, "line": span.line, "column": span.column,
                     "source_line": span.source_line} if span is not None else {}
            raise GdlError(f"run-time error in the rules ({type(exc).__name__}: {exc}); "
                           "a rule used a removed piece, a missing value or a bad index"
                           + (f" (in action '{rt.running.name}')" if span else ""),
                           **where) from exc
        except RecursionError:
            raise GdlError("run-time error in the rules: a fn or def calls itself without "
                           "end") from None
        except StopMove:
            raise GdlError("run-time error in the rules: 'stop' ran outside an 'on enter' "
                           "trigger of a move") from None
        finally:
            rt.state = previous

    def _check_end(self, state):
        rt = self.rt
        for kind, cond, slots in self.end_rules:
            if state.result is not None:
                return
            pad = [None] * (slots - 2)
            if kind == "draw":
                if cond([0, None] + pad):
                    rt.declare_winners([])
                continue
            live = rt.live_seats()
            holding = [s for s in live if cond([s, s] + pad)]
            if kind == "lose":
                if holding and holding == live:
                    rt.declare_winners([])      # everyone still playing loses at once
                for seat in holding:
                    rt.eliminate(seat)
            elif holding:
                rt.declare_winners(holding)

    # ----- queries --------------------------------------------------------------------------
    def is_terminal(self, state):
        return state.result is not None

    def returns(self, state):
        """Per seat: 1 for a win, -1 for a loss, 0 for a draw or an unfinished game."""
        if state.result is None or state.result["draw"]:
            return [0.0] * len(self.seats)
        winners = state.result["winners"]
        return [1.0 if s in winners else -1.0 for s in range(len(self.seats))]

    def result_text(self, state):
        """'blue won', 'a and b won', 'draw' or 'unfinished'."""
        if state.result is None:
            return "unfinished"
        if state.result["draw"]:
            return "draw"
        return " and ".join(self.seats[s] for s in state.result["winners"]) + " won"

    def current_player(self, state):
        if state.result is not None or not state.frames:
            return TERMINAL
        frame = state.frames[-1]
        if frame[3] is not None:
            for seat, choice in enumerate(frame[3]):
                if choice is None and not state.out[seat]:
                    return seat
        return frame[1]

    def phase_of(self, state):
        return self.phases[state.frames[-1][0]]

    def is_private(self, state):
        """Is the next decision one the other seats may not see (a simultaneous or a
        secret phase)?"""
        return bool(state.frames) and self.phase_of(state).mode in ("simultaneous", "secret")

    def has_hidden_information(self):
        return bool(self.visibility) or "hide piece" in self.shows or any(
            p.mode in ("simultaneous", "secret") for p in self.phases.values())

    def _env(self, state, phase, seat, slots):
        frame = state.frames[-1]
        return frame_env(seat, frame[2], slots)

    def legal_actions(self, state):
        seat = self.current_player(state)
        if seat == TERMINAL:
            return []
        phase = self.phase_of(state)
        out = []

        def enumerate_all(state):
            for action in phase.actions:
                action.enumerate(self._env(state, phase, seat, action.slots), out)
        self._run(state, enumerate_all, check_end=False)
        return out

    def action_text(self, state, action, viewer=None):
        """The action's text; for a `viewer` seat, pieces hidden from it read "?"."""
        index, args = action
        compiled = self.phase_of(state).actions[index]
        with self.rt.bound(state) as rt:
            return " ".join([compiled.name] + [
                "?" if t == PIECE and viewer is not None and self.hidden_from(state, v, viewer)
                else format_value(v, t, rt) for v, t in zip(args, compiled.arg_types)])

    def hidden_from(self, state, pid, viewer):
        """Does the `hide piece` rule keep piece `pid` from seat `viewer`?"""
        rule = self.shows.get("hide piece")
        if rule is None or not state.pieces[pid]["alive"]:
            return False
        cond, slots = rule
        return self._run(state, lambda st: bool(cond([viewer, pid, viewer] +
                                                     [None] * (slots - 3))), check_end=False)

    def parse_action(self, state, text):
        """The legal action whose text is `text` (case and spacing ignored), else an
        IllegalAction that says why."""
        typed = " ".join(text.split())
        wanted = typed.lower()
        legal = self.legal_actions(state)
        texts = [self.action_text(state, action) for action in legal]
        for text_of, action in zip(texts, legal):       # exact spelling first
            if text_of == typed:
                return action
        for text_of, action in zip(texts, legal):
            if text_of.lower() == wanted:
                return action
        raise IllegalAction(self.explain_illegal(state, wanted, legal))

    def explain_illegal(self, state, wanted, legal):
        if self.current_player(state) == TERMINAL:
            return "the game is over"
        phase = self.phase_of(state)
        words = wanted.split()
        names = [a.name for a in phase.actions]
        if not words:
            return "empty input"
        by_name = {a.name: a for a in phase.actions}
        compiled = by_name.get(words[0])
        if compiled is None:
            return (f"there is no action '{words[0]}' in phase '{phase.name}'; "
                    f"actions here: {', '.join(names)}")
        if len(words) - 1 != len(compiled.arg_types):
            return (f"'{compiled.name}' takes {len(compiled.arg_types)} argument(s), "
                    f"not {len(words) - 1}")
        args = self._parse_args(state, compiled, words[1:])
        if isinstance(args, str):
            return args
        return self._run(state, lambda st: self._failed_condition(st, compiled, args),
                         check_end=False)

    def _parse_args(self, state, compiled, words):
        values = []
        for word, t in zip(words, compiled.arg_types):
            value = self._parse_value(state, word, t)
            if value is _NOTHING:
                return f"'{word}' is not {_article(t)}"
            values.append(value)
        return values

    def _parse_value(self, state, word, t):
        if t == CELL:
            cell = self.board.parse(word)
            return _NOTHING if cell is None else cell
        if t == PIECE:
            for pid, piece in state.pieces.items():
                if piece["label"].lower() == word:
                    return pid
            return _NOTHING
        if t == SEAT:
            lowered = [s.lower() for s in self.seats]
            return lowered.index(word) if word in lowered else _NOTHING
        if t == INT:
            try:
                return int(word)
            except ValueError:
                return _NOTHING
        for name in list(self.symbols) + list(self.kinds):
            if name.lower() == word:
                return name
        return word

    def _failed_condition(self, state, compiled, args):
        """Name the first rule that forbids an action whose arguments were well formed."""
        seat = self.current_player(state)
        phase = self.phase_of(state)
        env = self._env(state, phase, seat, compiled.slots)
        base = 1 + phase.nparams
        # Binder by binder, as listing does: a where-part is tested as soon as the binders
        # it reads are bound, so it can guard the domains after it.
        for level in range(len(compiled.binders) + 1):
            if level > 0:
                name, source, domain = compiled.binders[level - 1]
                if args[level - 1] not in list(domain(env)):
                    text = format_value(args[level - 1], compiled.arg_types[level - 1], self.rt)
                    return f"{text} is not a possible '{name}' now (not in {source})"
                env[base + level - 1] = args[level - 1]
            for source, cond, part_level in compiled.where_parts:
                if part_level == level and not cond(env):
                    return f"the rule '{source}' does not hold"
        return "not a legal action now"

    # ----- acting ---------------------------------------------------------------------------
    def apply(self, state, action, check=True):
        """Play one decision and return its events. With `check`, an action that is not
        among the legal actions is refused (IllegalAction); drivers that took the action
        from `legal_actions` themselves pass check=False and skip listing them again."""
        if check and tuple(action) not in self.legal_actions(state):
            raise IllegalAction(f"{action!r} is not a legal action now")
        state.events = []
        self._run(state, self._apply_run, action)
        state.decisions += 1
        return state.events

    def _apply_run(self, state, action):
        seat = self.current_player(state)
        if seat == TERMINAL:
            raise IllegalAction("the game is over")
        frame = state.frames[-1]
        phase = self.phases[frame[0]]
        if frame[3] is None:
            self._run_action(phase, frame, seat, action)
            return
        frame[3][seat] = [action[0], list(action[1])]
        self._reveal_if_complete(state)

    def _reveal_if_complete(self, state):
        """Once every live seat of a simultaneous phase has chosen: apply the choices in
        seat order, then the phase's `on reveal`. A choice that leaves the phase (or ends
        the game) ends the reveal there."""
        frame = state.frames[-1] if state.frames else None
        if frame is None or frame[3] is None or any(
                choice is None and not state.out[s] for s, choice in enumerate(frame[3])):
            return
        phase = self.phases[frame[0]]
        choices, frame[3] = frame[3], [None] * len(state.out)
        for chooser, choice in enumerate(choices):
            if choice is not None and not state.out[chooser]:
                self._run_action(phase, frame, chooser, (choice[0], tuple(choice[1])))
                if state.result is not None or not state.frames or state.frames[-1] is not frame:
                    return
        phase.reveal(frame_env(frame[1], frame[2], phase.slots))

    def _run_action(self, phase, frame, seat, action):
        index, args = action
        compiled = phase.actions[index]
        env = frame_env(seat, frame[2] + list(args), compiled.slots)
        self.rt.running = compiled
        compiled.body(env)
        self.rt.running = None

    def concede(self, state, seat):
        """A seat gives up at any time: it is out of the game."""
        state.events = []

        def leave(state):
            self.rt.eliminate(seat)
            self._reveal_if_complete(state)     # it may have been the last to choose
        self._run(state, leave)

    def compile_expression(self, text, local_types, want=None, file="<expression>"):
        """Parse, check and compile one expression with extra typed locals. Returns
        (function(state, me, locals dict) -> value, its type)."""
        from .parser import parse_expression
        expr = parse_expression(text, file)
        t, nslots, slots = self.checked.expression_checker(expr, local_types, want)
        compiled = Compiler(self.checked, self.rt).expr(expr)
        rt = self.rt

        def evaluate(state, me, values):
            env = [me] + [None] * (nslots - 1)
            for name, slot in slots.items():
                env[slot] = values[name]
            return self._run(state, lambda st: compiled(env), check_end=False)
        return evaluate, t

    def format(self, state, value, t):
        with self.rt.bound(state) as rt:
            return format_value(value, t, rt)

    # ----- views ----------------------------------------------------------------------------
    def view(self, state, seat):
        """What `seat` may see of `state`, as plain data (None = every seat's view)."""
        from .view import make_view
        return self._run(state, lambda st: make_view(self, st, seat), check_end=False)


class _Nothing:
    pass


_NOTHING = _Nothing()


def _article(t):
    from .types import describe
    return describe(t)


def _copy(value):
    return list(value) if isinstance(value, list) else value
