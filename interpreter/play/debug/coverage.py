"""Coverage: which rules a run of games, or a set of scenario files, exercised.

    games_coverage(path, games, seed, players, max_turns)   -> Coverage of N agent games
    scenario_coverage(paths, run)         -> (Coverage, run(path) for each file: its
                                             scenarios' runner.Outcomes)
    coverage.summary()                    -> lines: what never happened, rule by rule
    coverage.annotated()                  -> lines: every rule file, each line with how
                                             often it ran ('!': never; blank: no code)

What is counted comes from a `tracing.RuleTrace` of the generated code while the games or
scenarios run; nothing is traced otherwise, so normal play is as fast as ever. The items:

- an action is *legal* as often as listings found a legal binding of it, *chosen* as often
  as its body ran;
- a trigger (`on enter`) *fired* when its body ran (not merely when its condition was
  tested); a phase's `on enter`, `on reveal`, `on resume`, an `on out` or `on concede`
  hook, a `def` or a `fn` *ran* when called (games are loaded inside the trace, so the
  code calls every fn: none is written in place, `codegen.calling_every_fn`);
- an `if` has two branches: its `then` ran when its first statement did, its `else` (when
  written) likewise;
- an end rule *decided* when it held (a `lose when` that holds puts a seat out).
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING

from ...language import program as ir
from ...language.errors import GdlDataError, GdlError, counted
from ...language.limits import DEFAULT_MAX_DECISIONS
from ...runtime import introspect
from ..agents.agents import make_agents
from ..playing import Observer, run_game

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.state import State
from .tracing import RuleTrace, node_key

SECTIONS = (("never legal", "actions never legal"),
            ("never chosen", "actions never chosen"),
            ("never ran", "triggers, hooks, defs and fns that never ran"),
            ("never taken", "branches never taken"),
            ("never decided", "end rules that never decided a game"))


class Coverage:
    """What a trace saw of the rule files of one or more games: `what` says what ran
    (e.g. '20 games from seed 0'); `missing` [(section, file, line, text)], `lines`
    {(file, line): runs or 0 for a line of code that never ran}, `sources` {file: lines};
    `unloaded` {rule file: the scenario files naming it} for rule files that did not load,
    so nothing of them is counted."""

    def __init__(self, what, games, trace, unloaded=None):
        self.what = what
        self.unloaded = unloaded or {}
        self.lines = {}
        self.sources = {}
        self.files = []
        items = {}      # (section, node key) -> [section, file, line, text, count]
        runs = trace.node_runs()
        calls, holds = trace.unit_calls(), trace.end_holds()
        for game in games:
            program = introspect.resolved_program(game)
            for node in introspect.placed_nodes(game):
                self._line(node.span, runs.get(node_key(node), 0))
            for span in _named_places(program):     # a file of no code (a variant's)
                self.sources.setdefault(span.file, span.lines)
            counts = _Counts(introspect.main_code_file(game), runs, calls, holds)
            for section, node, text, count in _items(program, counts):
                if node.span is None:
                    continue
                if section == "never ran":      # a def or fn line: how often it was called
                    self._line(node.span, count)
                entry = items.setdefault((section, node_key(node)), [
                    section, node.span.file, node.span.line, text, 0])
                entry[4] += count
            if game.path not in self.files:
                self.files.append(game.path)
        self.files += sorted(set(self.sources) - set(self.files))
        self.missing = [entry[:4] for entry in items.values() if entry[4] == 0]

    def _line(self, span, count):
        if span.file not in self.sources:
            self.sources[span.file] = span.lines
        key = (span.file, span.line)
        self.lines[key] = max(self.lines.get(key, 0), count)

    def summary(self):
        ran = sum(1 for count in self.lines.values() if count)
        lines = [f"coverage of {self.what}",
                 f"  rule files: {', '.join(self.files) or 'none'}"]
        if self.unloaded:
            lines.append("  rule files that did not load (not counted): " + "; ".join(
                f"{file} ({', '.join(named_by)})" for file, named_by in self.unloaded.items()))
        lines.append("  rule-file lines with code that ran: " + (
            f"{ran} of {len(self.lines)} ({100 * ran / len(self.lines):.1f}%)" if self.lines
            else "none (no rule file loaded)"))
        order = {file: i for i, file in enumerate(self.files)}
        for section, title in SECTIONS:
            found = sorted((m for m in self.missing if m[0] == section),
                           key=lambda m: (order.get(m[1], len(order)), m[2], m[3]))
            lines.append(f"  {title}: {len(found) or 'none'}")
            lines += [f"    {file}:{line}: {text}" for _, file, line, text in found]
        return lines

    def annotated(self):
        """Every rule file, line by line: how often its code ran, '!' for never, blank for a
        line without code; the items never covered are named after their line."""
        out = []
        notes = collections.defaultdict(list)
        for section, file, line, text in self.missing:
            notes[file, line].append(f"{section}: {text}")
        for file in self.files:
            out.append(f"# {file}")
            for number, text in enumerate(self.sources.get(file, ()), 1):
                count = self.lines.get((file, number))
                mark = "" if count is None else ("!" if count == 0 else str(count))
                out.append(f"{mark:>8} | {text}".rstrip())
                out += [f"{'':>8} | {'':>{_indent(text)}}^ {note}"
                        for note in notes.get((file, number), ())]
        return out


def _named_places(program):
    """The place of every name a program's files declare or use: one at least in each of
    its rule files, even one without a line of code (a variant of params and kinds)."""
    references = program.references
    return ([declaration.span for declaration in references.declarations]
            + [use.span for use in references.uses])


def _indent(text):
    return len(text) - len(text.lstrip())


class _Counts:
    """The counts of one game's generated module."""

    def __init__(self, code, runs, calls, holds):
        self.code, self.runs, self.calls, self.holds = code, runs, calls, holds

    def ran(self, node):
        return self.runs.get(node_key(node), 0) if node.span is not None else 0

    def called(self, key):
        return self.calls.get((self.code, key), 0)

    def held(self, index):
        return self.holds.get((self.code, index), 0)


def _items(program, counts):
    """(section, node, text, count) of every rule that can go uncovered; a count of 0 is
    a miss."""
    for phase in program.phases.values():
        for action in phase.actions:
            what = f"action {action.name} (phase {phase.name})"
            yield "never legal", action, what, counts.ran(action)
            yield "never chosen", action, what, counts.called(
                introspect.UnitKey("act", phase.name, action.index))
        for hook in ("on_enter", "on_reveal", "on_resume", "on_no_action"):
            body = getattr(phase, hook)
            if body:
                yield ("never ran", body[0], f"phase {phase.name}: {hook.replace('_', ' ')}",
                       counts.called(introspect.UnitKey(hook, phase.name)))
    for i, trigger in enumerate(program.triggers):
        if trigger.body:
            yield ("never ran", trigger, "on enter (its body)",
                   counts.ran(_anchor(trigger.body[0])))
    for kind, hooks in (("out", program.outs), ("concede", program.concedes)):
        for i, hook in enumerate(hooks):
            yield "never ran", hook, f"on {kind}", counts.called(
                introspect.UnitKey(kind, position=i))
    for name, unit in program.defs.items():
        yield "never ran", unit, f"def {name}", counts.called(introspect.UnitKey("def", name))
    for name, unit in program.fns.items():
        yield "never ran", unit, f"fn {name}", max(
            counts.called(introspect.UnitKey("fn", name)), counts.ran(unit.body))
    for statement in _statements(program):
        if isinstance(statement, ir.If):
            line = statement.cond.span.line if statement.cond.span else "?"
            if statement.then:
                yield ("never taken", _anchor(statement.then[0]),
                       f"the 'then' of the 'if' at line {line}",
                       counts.ran(_anchor(statement.then[0])))
            if statement.otherwise:
                yield ("never taken", _anchor(statement.otherwise[0]),
                       f"the 'else' of the 'if' at line {line}",
                       counts.ran(_anchor(statement.otherwise[0])))
    for i, rule in enumerate(program.end_rules):
        condition = rule.expr.span.text if rule.expr.span is not None else "..."
        yield "never decided", rule, f"{rule.kind} when {condition}", counts.held(i)


def _anchor(statement):
    """The node whose code starts a statement: an `if` starts with its condition, a `for`
    with its domain; other statements are placed whole."""
    if isinstance(statement, ir.If):
        return statement.cond
    if isinstance(statement, ir.For):
        return statement.domain
    return statement


def _statements(program):
    """Every statement of every block of the rules, nested ones included."""
    blocks = [program.setup]
    blocks += [d.body for d in program.defs.values()]
    blocks += [f.body.body for f in program.fns.values() if isinstance(f.body, ir.FnBlock)]
    for phase in program.phases.values():
        blocks += [phase.on_enter, phase.on_reveal, phase.on_resume, phase.on_no_action or ()]
        blocks += [a.body for a in phase.actions]
    blocks += [t.body for t in program.triggers]
    blocks += [h.body for h in (*program.outs, *program.concedes)]
    for block in blocks:
        for statement in block:
            for node in ir.walk(statement):
                if isinstance(node, (ir.If, ir.For)):
                    yield node


# ----- running what is covered ---------------------------------------------------------------
def games_coverage(path, games, seed=0, players="random", max_turns=None,
                   max_decisions=DEFAULT_MAX_DECISIONS):
    """The coverage of `games` agent games of the rule file at `path`, game i from seed
    `seed + i`; every seat's view is made at each turn start, so the rules that draw
    (`show`, `visible to`) run as they do in play."""
    from ...loader import load_game
    finished = 0
    with RuleTrace() as trace:
        game = load_game(path, "python")    # in the trace: its code calls every fn
        for i in range(games):
            state = game.new_state(seed + i)
            agents = make_agents(players, len(game.seats), seed + i)
            if "human" in agents:
                raise GdlDataError("coverage plays agents only; use 'gdl play' for humans")
            try:
                status, _ = run_game(
                    game, state, lambda seat, legal: agents[seat].choose(game, state, legal),
                    max_turns=max_turns, max_decisions=max_decisions,
                    observer=_EveryView(game))
            except GdlError as exc:
                exc.hints += (f"in game {i + 1} of the coverage run, seed {seed + i} (gdl "
                              f"record with --seed {seed + i} plays it again)",)
                raise
            finished += status == "finished"
    names = ", ".join(agent.name for agent in agents)
    what = (f"{path}: {counted(games, 'game')} from seed {seed} ({names}): "
            f"{finished} finished, {games - finished} capped")
    return Coverage(what, _games_of(trace, game), trace)


class _EveryView(Observer):
    """Makes every seat's view at each turn start, as a game played by people would."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def turn_started(self, state: State) -> None:
        for seat in range(len(self.game.seats)):
            self.game.view(state, seat)


def scenario_coverage(paths, run):
    """(Coverage, results): `run(path)` for each scenario file (its scenarios'
    `runner.Outcome`s, in order), and what those runs exercised of the rule files the
    scenarios name; a rule file that did not load is named as such."""
    with RuleTrace() as trace:
        results = [run(path) for path in paths]
    unloaded = {}
    for outcome in (outcome for outcomes in results for outcome in outcomes):
        if outcome.unloaded and outcome.path not in unloaded.get(outcome.unloaded, ()):
            unloaded.setdefault(outcome.unloaded, []).append(outcome.path)
    what = f"{len(paths)} scenario file{'s' * (len(paths) != 1)}"
    return Coverage(what, _games_of(trace), trace, unloaded), results


def _games_of(trace, first=None):
    """One game per rule program the trace saw (the first of each rule file), `first`
    first."""
    found = {} if first is None else {first.path: first}
    for game in trace.games.values():
        found.setdefault(game.path, game)
    return [found[p] for p in ([first.path] if first else []) +
            sorted(p for p in found if first is None or p != first.path)]
