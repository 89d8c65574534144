"""Agents: who makes a seat's decisions. `choose(game, state, legal)` gets the state so
an agent can ask for its seat's view (`game.view(state, seat)`); the agents here use only
the legal actions, and an agent that plays fair reads nothing but its view.

- `RandomAgent(seed)`: uniform over the legal actions, from its own SplitMix64 stream, so
  the same seed gives the same choices on every Python version.
- `ScriptedAgent(texts)`: plays listed action texts (or 1-based numbers) in order; a line
  `concede: SEAT` is a seat giving up there (`conceding`), as a transcript records it.
- `greedy` and `mcts` (`search.py`): agents that look ahead, from their seat's view.

`make_agents` builds one agent per seat from a players spec (`human,mcts:iterations=200`).

`resolve_input` turns a typed decision into an action; `matching` finds the actions a few
typed words name (a piece, a cell, an action's name), for a person narrowing a long list.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...language.errors import GdlDataError, IllegalAction, counted, shortened
from ...runtime import introspect
from ..hints import with_hint

if TYPE_CHECKING:
    from ...runtime.engine import Game
    from ...runtime.state import Action, State


_MASK = (1 << 64) - 1


class RandomAgent:
    name = "random"

    def __init__(self, seed):
        self.rng = (seed * 0x2545F4914F6CDD1D + 0x1234567) & ((1 << 64) - 1)

    def choose(self, game, state, legal):
        # splitmix64 written out (state.splitmix64 gives the same numbers): a call less on
        # every decision of a random playout
        self.rng = z = (self.rng + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return legal[((z ^ (z >> 31)) * len(legal)) >> 64]


CONCESSION = "concede: "      # a script's or a transcript's line: 'concede: red'


def conceded_seat(text):
    """The seat's name in a concession line ('concede: red'), else None. An action's name
    never ends with ':', so no action's text reads as one."""
    return text[len(CONCESSION):].strip() if text.startswith(CONCESSION) else None


class ScriptedAgent:
    """Plays decisions from a list of (source line, text); `exhausted` once all are used.
    A concession line is played by `conceding`, which drivers ask before each decision."""

    name = "scripted"

    def __init__(self, lines, source="moves", as_seat=True):
        self.lines = list(lines)
        self.source = source
        self.position = 0
        self.as_seat = as_seat      # false: a transcript's full texts (see parse_action)

    @property
    def exhausted(self):
        return self.position >= len(self.lines)

    def choose(self, game, state, legal):
        number, text = self.lines[self.position]
        self.position += 1
        return resolve_input(game, state, legal, text, f"{self.source}:{number}",
                             as_seat=self.as_seat)

    def conceding(self, game, state):
        """The seat of the concession line that comes next (which is then used), else
        None. A seat that is not one, or is out already, is refused (IllegalAction)."""
        if self.exhausted:
            return None
        number, text = self.lines[self.position]
        name = conceded_seat(text)
        if name is None:
            return None
        self.position += 1
        where = f"{self.source}:{number}: "
        if name not in game.seats:
            raise IllegalAction(f"{where}'{name}' is not a seat; seats: "
                                + ", ".join(game.seats))
        seat = game.seats.index(name)
        if state.out[seat]:
            raise IllegalAction(f"{where}{name} cannot concede: it is out of the game")
        return seat


def resolve_input(game, state, legal, text, where=None, as_seat=True):
    """A typed decision (a 1-based number or an action's text) -> the legal action; the
    text read as the deciding seat reads it, or (`as_seat` false) as the full texts. A
    misspelt word is refused with "did you mean" a name the reader may see."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        number = text.lstrip("0") or "0"
        # A number longer than any list of actions is none of them (and int() refuses
        # numbers of thousands of digits).
        if len(number) <= len(str(len(legal))) and 1 <= int(number) <= len(legal):
            return legal[int(number) - 1]
        shown = number if len(number) <= 20 else f"{number[:20]}... ({len(number)} digits)"
        raise IllegalAction(f"{_at(where)}there is no action number {shown}; choose 1 to "
                            f"{len(legal)}")
    try:
        return game.parse_action(state, text, as_seat)
    except IllegalAction as exc:
        seat = game.current_player(state)
        viewer = seat if as_seat and seat >= 0 else None
        message = with_hint(game, state, exc, viewer).message   # (its quotes are short)
        raise IllegalAction(f"{_at(where)}'{shortened(text)}' is not legal: {message}") \
            from None


def matching(game, state, legal, typed, seat):
    """The indexes of the legal actions that the words of `typed` name, in order: a word
    names an action when it is one of the words of the action's text as `seat` reads it
    (case ignored; a label 'blue:Piece#1' also answers to 'Piece#1'), or a cell where a
    piece stands that the action names (as `seat` sees the pieces there). So 'Piece#1',
    'e9', 'move', 'e9 h6' and 'Piece#1 h6' each pick out actions; what is hidden from the
    seat reads '?' in the texts and the view, so it can never be named."""
    return _matcher(game, state, legal, seat)(typed)


def _matcher(game, state, legal, seat):
    """`matching` for one position: the seat's view and the actions' texts made once, for
    the words of as many texts as are asked about (a typed text may have hundreds)."""
    board_names = set(game.rules.board.names)
    at = {}
    for piece in game.view(state, seat)["pieces"]:
        if piece["cell"] is not None and piece["label"] != "?":
            at.setdefault(piece["cell"].lower(), set()).add(piece["label"].lower())
    texts = [game.action_text(state, action, seat).lower().split() for action in legal]

    def names(word, part):
        return (word == part or part.endswith(":" + word)
                or (word in board_names and part in at.get(word, ())))

    def named(text, words):     # each word by a part of the text after the last one's
        parts = iter(text)
        return all(any(names(word, part) for part in parts) for word in words)

    # one word (`unmatched` asks of each word of a text): the actions each word names, found
    # at once: a word of the text, what follows a ':' in one, a cell where a named piece is
    exact = {}
    for index, text in enumerate(texts):
        for part in text:
            exact.setdefault(part, set()).add(index)
    by_word = {word: set(indexes) for word, indexes in exact.items()}
    for part, indexes in exact.items():
        for place, character in enumerate(part):
            if character == ":":
                by_word.setdefault(part[place + 1:], set()).update(indexes)
    for cell, labels in at.items():
        if cell in board_names:
            for label in labels:
                by_word.setdefault(cell, set()).update(exact.get(label, ()))

    def found(typed):
        words = typed.lower().split()
        if len(words) == 1:
            return sorted(by_word.get(words[0], ()))
        return [index for index, text in enumerate(texts) if words and named(text, words)]
    return found


def unmatched(game: Game, state: State, legal: list[Action], text: str, seat: int) -> str | None:
    """Why words that narrow the list (a piece or a cell first, as in 'e9 h6') name no legal
    action, as `seat` sees the pieces: the first word that names none, else that none names
    them all. None when the first word is no piece or cell: the text is then read as an
    action's, and the engine's refusal says what is wrong with it."""
    words = text.split()
    cells = set(game.rules.board.names)
    labels: list[str] = []
    on: dict[str, list[str]] = {}       # cell -> the labels of the pieces seen there
    for piece in game.view(state, seat)["pieces"]:
        if piece["label"] != "?":
            labels.append(piece["label"])
            if piece["cell"] is not None:
                on.setdefault(piece["cell"].lower(), []).append(piece["label"])

    def is_piece(word: str) -> bool:
        return any(word.lower() in (label.lower(), label.lower().rpartition(":")[2])
                   for label in labels)
    if not words or (words[0].lower() not in cells and not is_piece(words[0])):
        return None
    found = _matcher(game, state, legal, seat)
    for word in words:
        if found(word):
            continue
        if word.lower() in cells:
            pieces = on.get(word.lower(), [])
            return f"no legal action names {word} or " + (
                f"the {'piece' if len(pieces) == 1 else 'pieces'} on it ({', '.join(pieces)})"
                if pieces else "a piece on it")
        if is_piece(word):
            return f"no legal action names {word}"
        return f"'{shortened(word)}' is not a cell, a piece or a word of a legal action"
    pieces = on.get(words[0].lower(), [])
    named = [f"{words[0]} (where {', '.join(pieces)} stand{'s' if len(pieces) == 1 else ''})"
             if pieces else words[0]] + words[1:]
    if len(named) == 2:
        return f"no legal action names both {named[0]} and {named[1]}"
    return f"no legal action names all of {', '.join(named[:-1])} and {named[-1]}"

def _at(where):
    return f"{where}: " if where else ""


def read_moves(text):
    """The decisions of a moves file's text: one per line, '#' comments and blank lines
    ignored."""
    lines = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.split(" #")[0].strip() if not line.lstrip().startswith("#") else ""
        if line:
            lines.append((number, line))
    return lines


# Player types and their parameters: name -> (type, least value); the defaults are the
# agent's own (search.MctsAgent).
PARAMETERS = {
    "human": {},
    "random": {},
    "greedy": {},
    "mcts": {"iterations": (int, 1), "rollout": (int, 0), "c": (float, 0.0)},
}


def parse_player(text):
    """'mcts:iterations=200:c=1.4' -> ('mcts', {'iterations': 200, 'c': 1.4}); a message
    that names the mistake for a player type, parameter or value that is not one."""
    name, *parts = [part.strip() for part in text.split(":")]
    if name not in PARAMETERS:
        raise GdlDataError(f"unknown player type '{shortened(name)}'; expected "
                           f"{_choices(PARAMETERS)} (e.g. mcts:iterations=200)")
    allowed, given = PARAMETERS[name], {}
    for part in parts:
        key, equals, value = (word.strip() for word in part.partition("="))
        if not allowed:
            raise GdlDataError(f"player type '{name}' takes no parameters, not '{shortened(part)}'")
        if key not in allowed:
            raise GdlDataError(f"{name}: unknown parameter '{shortened(key)}'; expected "
                               f"{_choices(allowed)}")
        if not equals:
            raise GdlDataError(f"{name}: expected {key}=VALUE, not '{shortened(part)}'")
        if key in given:
            raise GdlDataError(f"{name}: {key} is given twice")
        given[key] = _number(name, key, value, *allowed[key])
    return name, given


MOST = 10 ** 9      # the largest value any agent parameter takes


def _number(name, key, text, kind, least):
    """The value of parameter `key` of player type `name`: a `kind` from `least` to MOST."""
    words = "a whole number" if kind is int else "a number"
    shown = shortened(text, 20)
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is not None and value == value and value > MOST:
        raise GdlDataError(f"{name}: {key} must be at most {MOST:,}, not '{shown}'")
    if value is None or not math.isfinite(value) or value < least:
        raise GdlDataError(f"{name}: {key} must be {words} of at least {least}, not "
                           f"'{shown}'")
    return value


def _choices(names):
    names = list(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def make_agents(spec, nseats, seed):
    """'human,mcts:iterations=200' -> one entry per seat: an agent or the string 'human'.
    Seats not named are random; a single name stands for every seat, except 'human', which
    is the first seat against random ones."""
    names = [s.strip() for s in spec.split(",")] if spec else []
    if names == ["human"]:
        names = ["human"] + ["random"] * (nseats - 1)     # one person against the agents
    elif len(names) == 1:
        names = names * nseats
    if len(names) < nseats:
        names += ["random"] * (nseats - len(names))
    if len(names) != nseats:
        raise GdlDataError(f"--players names {counted(len(names), 'player')} but the game has "
                           f"{counted(nseats, 'seat')}")
    agents = []
    for seat, text in enumerate(names):
        name, parameters = parse_player(text)
        if name == "random":
            agents.append(RandomAgent(seed * 31 + seat + 1))
        elif name == "human":
            agents.append("human")
        else:
            from .search import GreedyAgent, MctsAgent
            kind = MctsAgent if name == "mcts" else GreedyAgent
            agents.append(kind(seed, seat, **parameters))
            agents[-1].name = ":".join(part.strip() for part in text.split(":"))
    return agents
