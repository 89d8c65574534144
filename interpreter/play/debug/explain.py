"""Explain a position: why an action is legal or not, and what playing it would do.

    position(path, seed, moves_path, step)   -> (game, state, where): a rule file after
                                                scripted moves, or a transcript at a step
    explain(game, state, text, viewer=None)  -> lines: the action's tests one by one (each
                                                binder's domain with its value, each
                                                where-part with its truth, the first that
                                                fails), then, when legal, what playing it on
                                                a copy did
    legal_lines(game, state, viewer=None)    -> lines: the legal actions grouped by action

Everything comes from the engine's own listing and the generated functions of each domain
and where-part (introspect.read_action): the answer is the engine's, never a second
evaluator's. With a `viewer` seat the answer is what that seat may know: texts as it reads
them, no test after the first that fails (the engine tells a seat no more), nothing of
what the dice to come would do, and a trial made from the seat's view alone (`trial`): it
stops at a reveal and is not told when it depends on what the seat may not see. The
decision count of a position counts another seat's secret run as one (`steps_seen`).
"""

from __future__ import annotations

import re

from ...files import STDIO, named
from ...language.errors import GdlDataError, GdlRuntimeError, IllegalAction, counted
from ...runtime import events as ev, introspect
from ...runtime.view import phase_arguments, phase_call, turn_words
from ..agents.determinize import Determinizer, Stream
from ..hints import with_hint
from ..playing import play_moves, steps_seen, viewer_of
from ..render import narrate
from ..transcript import (HEADER, RulesChanged, decision_count, moves_before, open_transcript,
                          read_script, replay)
from .tracing import RuleTrace

MOST = 8            # values of a domain shown before "... N in all"
MOST_LINES = 30     # rule-file lines listed as run by a trial


def is_transcript(path):
    """Does the file start as a transcript does (else it is taken for a rule file)? '-',
    the standard input, is a transcript (a rule file is read by its name)."""
    if path == STDIO:
        return True
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readline(len(HEADER) + 1).rstrip("\n") == HEADER
    except (OSError, UnicodeDecodeError):
        return False


def position(path, seed=None, moves=None, step=None, seat=None, warn=None):
    """(game, state, where): the position of a rule file after `moves` (a moves file, or a
    transcript) from `seed` (None: the transcript's, else 0), or of a transcript before the
    decision of `step`. With a `seat` (a name),
    `where` counts the decisions as that seat was told them: a run of another seat's
    secret decisions is one (`steps_seen`). A transcript that does not replay is refused
    (the Divergence `transcript.replay` raises, naming its line). `warn` is told of a
    transcript of another game given as the moves (`read_script`), and of a transcript whose
    rule file's text alone changed."""
    if not is_transcript(path):
        if step is not None:
            raise GdlDataError(f"{path} is a rule file: --step is for a transcript (give "
                               "--seed and --moves for a rule file)")
        from ...loader import load_game
        game = load_game(path, "python")   # traced: Python has the frames
        script, script_seed = read_script(moves, game, warn) if moves else ([], None)
        seed = seed if seed is not None else script_seed or 0
        state = game.new_state(seed)
        played = play_moves(game, state, script, named(moves or ""),
                            as_seat=script_seed is None)
        told = steps_seen(played, viewer_of(game, seat))
        return game, state, f"seed {seed}, after {counted(told, 'decision')}"
    name = named(path)
    if moves is not None:
        raise GdlDataError(f"{name} is a transcript: its decisions are the moves (give "
                           "--step to choose the position)")
    try:        # a transcript that no longer replays has no positions to explain
        replay(path)
    except RulesChanged as changed:     # only its rule file's text changed: as resume does
        if warn is not None:
            warn(f"{changed.message}: explained in the rule file as it is now")
    transcript, moves, game = open_transcript(path)
    decisions = decision_count(moves)
    if step is None:
        raise GdlDataError(f"{name} is a transcript: give --step K (1 to "
                           f"{decisions + 1}) for the position before decision K")
    if not 1 <= step <= decisions + 1:
        raise GdlDataError(f"{name} has {counted(decisions, 'decision')}: --step is 1 to "
                           f"{decisions + 1} (the position before decision K), not {step}")
    state = game.new_state(transcript.header["seed"])
    play_moves(game, state, moves_before(moves, step), name, as_seat=False)
    return game, state, f"{name}, seed {transcript.header['seed']}, step {step}"


# ----- the position ---------------------------------------------------------------------
def heading(game, state, where, viewer=None):
    """'blue to play in phase 'play', turn 3 (seed 1, after 27 decisions)' (a phase with
    arguments 'moving(Amazon#1)', when `viewer` is told them) and the phase's doc string."""
    if game.is_terminal(state):
        return [f"the game is over: {introspect.result_text(game, state)} ({where})"]
    when = turn_words(game, state.turn)
    return [f"{_phase(game, state, viewer)}{'' if when is None else ', ' + when} ({where})"] \
        + _doc(game, state.frames[-1]["phase"])


def _doc(game, phase, action=None):
    """The doc string of a phase or action as a quoted line, when the rules give one."""
    text = game.rules.doc(phase, action)
    return [f'  "{text}"'] if text else []


def legal_lines(game, state, viewer=None):
    """The legal actions, grouped by action name in the phase's order, with counts."""
    if _not_theirs(game, state, viewer):
        return [_not_theirs(game, state, viewer)]
    legal = game.legal_actions(state)
    groups = {}
    for action in legal:
        text = game.action_text(state, action, viewer)
        groups.setdefault(text.split()[0], []).append(text)
    lines = [counted(len(legal), "legal action")]
    for name, texts in groups.items():
        lines.append(f"  {name} ({len(texts)}):")
        lines += _wrapped(texts)
    return lines


def _wrapped(texts, width=96, indent="    "):
    """Texts joined by ', ' in lines of at most `width` characters, never split."""
    lines, line = [], indent
    for i, text in enumerate(texts):
        item = text + ("," if i < len(texts) - 1 else "")
        if line != indent and len(line) + 1 + len(item) > width:
            lines.append(line)
            line = indent
        line += ("" if line == indent else " ") + item
    return lines + [line]


def _not_theirs(game, state, viewer):
    """A seat may ask only about its own decisions: the sentence when it is not its turn."""
    if viewer is None or game.is_terminal(state):
        return None
    seat = game.current_player(state)
    if seat == viewer:
        return None
    return (f"it is {game.seats[seat]}'s decision now, not {game.seats[viewer]}'s: a seat "
            "is told only about its own decisions")


# ----- one action -----------------------------------------------------------------------
def explain(game, state, text, viewer=None):
    """Lines explaining whether `text` is a legal action at `state`, and why; when legal,
    what playing it would do. A text that is no action of the game raises IllegalAction."""
    text = " ".join(text.split())
    if game.is_terminal(state):
        return [f"{text}: not legal: the game is over ({introspect.result_text(game, state)})"]
    if _not_theirs(game, state, viewer):
        return [f"{text}: not legal: " + _not_theirs(game, state, viewer)]
    legal = game.legal_actions(state)
    action = _find(game, state, legal, text, viewer)
    try:
        typed = introspect.read_action(game, state.clone(), text, viewer)
    except IllegalAction as exc:
        if exc.malformed or exc.unknown:
            raise with_hint(game, state, exc, viewer) from None
        return [f"{text}: not legal: {exc.message}"]
    phase = state.frames[-1]["phase"]
    lines = [text] + _doc(game, phase, typed.name)
    lines += _tests(game, state, typed, viewer)
    if action is None:
        reason = introspect.read_action(game, state.clone(), text, viewer).reason()
        return lines + [f"legal: no: {reason}"]
    lines.append(f"legal: yes, one of {counted(len(legal), 'legal action')}")
    return lines + trial(game, state, action, viewer)


def _find(game, state, legal, text, viewer):
    """The legal action `text` names (as `viewer` reads texts), or None."""
    wanted = text.lower()
    for action in legal:
        if game.action_text(state, action, viewer).lower() == wanted:
            return action
    try:       # the same values written another way (a cell in capitals, say)
        typed = introspect.read_action(game, state.clone(), text, viewer)
    except IllegalAction:
        return None
    return next((a for a in legal if a[0] == typed.index and list(a[1]) == typed.args),
                None)


def _tests(game, state, typed, viewer):
    """A line per test, in the listing's order; the first that fails is marked. The full
    view evaluates every test (a later one with the typed values bound); a seat's stops at
    the first that fails."""
    copy = state.clone()        # a domain or part may roll dice: never on the real state
    lines, failed = [], False
    for kind, index, evaluate in typed.tests:
        if failed and viewer is not None:
            lines.append("  (the tests after it are not told to a seat)")
            break
        try:
            value = evaluate()
        except GdlRuntimeError as exc:
            lines.append(f"  {_test_name(typed, kind, index)}: cannot be computed: "
                         f"{exc.message}")
            failed = True
            continue
        if kind == "domain":
            arg, t = typed.args[index], typed.types[index]
            values = list(value)
            holds = arg in values
            shown = _summary(game, copy, values, t, viewer)
            verdict = (f"{_text(game, copy, arg, t, viewer)} is "
                       f"{'one of them' if holds else 'not one of them'}")
            line = f"  {_test_name(typed, kind, index)} = {shown}: {verdict}"
        else:
            holds = bool(value)
            line = f"  {_test_name(typed, kind, index)}: {'true' if holds else 'false'}"
        if not holds and not failed:
            line += "   <- the first test that fails"
            failed = True
        lines.append(line)
    return lines


def _test_name(typed, kind, index):
    if kind == "domain":
        name, source = typed.binders[index]
        return f"{name} in {source}"
    return f"where {typed.parts[index]}"


def _text(game, state, value, t, viewer):
    with introspect.formatting(game, state, viewer) as text:
        return text(value, t)


def _summary(game, state, values, t, viewer):
    """'[a1, a2, ..., 12 in all]' (at most MOST values named)."""
    if not values:
        return "[] (empty)"
    with introspect.formatting(game, state, viewer) as text:
        named = [text(v, t) for v in values[:MOST]]
    if len(values) > MOST:
        named.append(f"... {len(values)} in all")
    return "[" + ", ".join(named) + "]"


# ----- what playing it would do ---------------------------------------------------------
SEEN_SAMPLES = (1, 2)   # the random streams of the positions a seat's trial is played on


def trial(game, state, action, viewer=None):
    """Play `action` on a copy of `state`, narrated, and say what it did: the events (dice
    included), the phase after it, what changed and the rule-file lines that ran.

    For a seat, the answer is made from what it may see alone: the action is played on
    positions rebuilt from that seat's view (`Determinizer`: what it may not see drawn
    again, the dice reseeded), never on the real one, and told only when they all agree.
    It stops at a reveal (another seat's secret choice is not told, nor what follows); an
    action that draws on chance, or whose outcome depends on what the seat may not see
    (another seat's hidden values, pieces or choices), is not played out, nor any action
    while pieces are out of the seat's sight (a kinds table's `visible to`)."""
    if viewer is None:
        copy = state.clone()
        copy.narrate = True
        lines, trace = _played(game, copy, action, None)
        return lines + _ran(trace)
    determinizer = Determinizer(game, state, viewer)
    if determinizer.unseen:
        # a few positions drawn from the view rarely put a piece out of sight where it is
        # (or everywhere it may be), so their agreeing would tell nothing
        return [f"playing it: what it does may depend on pieces out of "
                f"{game.seats[viewer]}'s sight, so it is not told"]
    told, read = [], False
    for seen in _seen_positions(game, determinizer):
        lines, trace = _played(game, seen, action, viewer)
        told.append(lines)
        read = read or _reads_hidden(trace, determinizer, viewer)
    if read or any(lines != told[0] for lines in told):
        return [f"playing it: what it does depends on what {game.seats[viewer]} may not see "
                "(another seat's hidden values, pieces or choices), so it is not told"]
    return told[0]


def _seen_positions(game, determinizer):
    """Positions made from a seat's view alone (`determinizer`'s), each narrated: what it
    may not see drawn again from fixed streams, and once more with another seat's hidden
    values at their declared start (a value drawn from the seat's own may agree by
    chance)."""
    positions = [determinizer.sample(Stream(seed)) for seed in SEEN_SAMPLES]
    plain = determinizer.sample(Stream(SEEN_SAMPLES[0]))
    for scope, owner, name, _ in determinizer.variables:
        if scope == "seat":
            plain.seat_vars[owner][name] = game.rules.initial_value(scope, name)
    for position in [*positions, plain]:
        position.narrate = True
    return [*positions, plain]


def _reads_hidden(trace, determinizer, viewer):
    """Did a rule-file line that ran name a variable hidden from `viewer` (other than as
    `me.NAME` in its own decision)? The positions agree on such a value by construction
    (it is drawn from what the seat may see), so the lines tell that the real one was read."""
    names = {name for scope, owner, name, _ in determinizer.variables
             if scope != "seat" or owner != viewer}
    if not names:
        return False
    pattern = re.compile(r"(?<!\bme\.)\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
    return any(pattern.search(trace.sources[file][line - 1].split("#")[0])
               for file, line in trace.line_runs())


def _played(game, copy, action, viewer):
    """Play `action` on `copy` (narrated): (what it did as `viewer` reads it, the trace
    of the rules it ran)."""
    before_phase = _phase(game, copy, viewer)
    before = game.view(copy, viewer)
    with RuleTrace() as trace:
        events = game.apply(copy, action, check=False)
    return _told(game, copy, events, viewer, before_phase, before), trace


def _told(game, copy, events, viewer, before_phase, before):
    """The lines of a trial: its events, the phase after it and what changed."""
    revealed = next((i for i, e in enumerate(events) if isinstance(e, ev.Reveal)), None)
    if viewer is not None and revealed is not None:
        events = events[:revealed] + [e for e in events[revealed:]
                                      if isinstance(e, ev.Reveal) and e.seat == viewer]
    chance = [e for e in events if isinstance(e, (ev.Roll, ev.Pick, ev.Shuffle))]
    if viewer is not None and chance:
        return [f"playing it draws on chance ({len(chance)} roll, pick or shuffle): what "
                "it would do depends on dice a seat does not know yet, so it is not told"]
    lines = ["playing it (on a copy of the position):"]
    told = narrate.event_lines(game, events, viewer)
    lines += ["  events:"] + [f"    {line}" for line in told] if told else ["  events: none"]
    if viewer is not None and revealed is not None:
        return lines + ["  then every choice is revealed: the others' are not told to "
                        f"{game.seats[viewer]}, nor what follows"]
    if chance:
        lines.append(f"  chance: {len(chance)} roll, pick or shuffle from this game's seed "
                     "at this position: another seed (or another order of play) gives others")
    after_phase = _phase(game, copy, viewer)
    if after_phase != before_phase:
        lines.append(f"  then: {after_phase} (was {before_phase})")
    changed = narrate.changes(_variables(before), _variables(game.view(copy, viewer)))
    return lines + (["  changes:"] + [f"    {line}" for line in changed] if changed else
                    ["  changes: none"])


def _variables(view):
    """A view without the rule file's status words, so changes name each variable."""
    view = {k: v for k, v in view.items() if k != "status"}
    for part in ("seats", "pieces"):
        view[part] = [{k: v for k, v in item.items() if k != "status"} for item in view[part]]
    return view


def _phase(game, state, viewer=None):
    """'blue to play in phase 'play'', the phase's arguments as `viewer` is told them."""
    if game.is_terminal(state):
        return f"the game is over: {introspect.result_text(game, state)}"
    seat = game.current_player(state)
    called = phase_call(state.frames[-1]["phase"], phase_arguments(game, state, viewer))
    return f"{game.seats[seat]} to play in phase '{called}'"


def _ran(trace):
    """The rule-file lines that ran, in file order, with how often."""
    runs = sorted(trace.line_runs().items())
    if not runs:
        return []
    lines = [f"  rule-file lines that ran ({len(runs)}):"]
    for (file, line), count in runs[:MOST_LINES]:
        text = trace.sources[file][line - 1].strip()
        lines.append(f"    {file}:{line} ({count}x): {text}")
    if len(runs) > MOST_LINES:
        lines.append(f"    ... and {len(runs) - MOST_LINES} more")
    return lines
