"""The public face of the engine: the OpenSpiel-shaped methods and four data attributes on
`Game`, nothing else; the engine loads without the parser or checker; the tools reach a
game's private members only through `introspect`; `str(state)` reads as a summary."""

import ast
import subprocess
import sys

from gdl.interpreter import load_source
from gdl.interpreter.runtime.engine import Game
from gdl.interpreter.runtime.state import State

from tests.helpers import ROOT

GAME_METHODS = ["action_text", "apply", "concede", "current_player", "is_terminal",
                "legal_actions", "new_state", "parse_action", "returns", "view"]
GAME_DATA = ["name", "path", "rules", "seats", "source_hash"]

# The tools around the engine: every module outside the engine (`runtime/`) and the language
# stages (`language/`, which never see a `Game`), and the command line. They use the public
# API, `game.rules` and `introspect`, nothing private.
TOOLS = sorted(str(path.relative_to(ROOT)) for path in
               [*ROOT.glob("interpreter/**/*.py"), *ROOT.glob("cli/*.py")]
               if not {"runtime", "language"} & set(path.relative_to(ROOT).parts))


RULES = """
game "Tally"
seats a, b
board square(3, 3)
kinds (size) { Stone = 1 }
var score = 0
var label = "x"
setup {
  create Stone for a at @a1
  create Stone for b at @c3
  goto main for a
}
phase main turn {
  action add(n in [1, 2]) {
    score = score + n
    goto main for next(me)
  }
  action take(p in pieces(me)) {
    remove p
    win me
  }
}
"""


def test_game_has_only_the_openspiel_shaped_methods_in_public():
    assert [n for n in dir(Game) if not n.startswith("_")] == GAME_METHODS


def test_a_loaded_game_has_five_public_data_attributes():
    game = load_source(RULES, "tally.gdl")
    public = sorted(n for n in vars(game) if not n.startswith("_"))
    assert public == GAME_DATA
    assert (game.name, game.seats, game.path) == ("Tally", ["a", "b"], "tally.gdl")
    assert len(game.source_hash) == 64


def test_state_copies_and_saves_itself():
    game = load_source(RULES, "tally.gdl")
    state = game.new_state(3)
    assert state.clone() == state
    assert State.from_json(state.to_json()) == state


def test_the_engine_loads_without_parser_or_checker():
    code = "import sys, gdl.interpreter.runtime.engine; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    modules = set(result.stdout.split())
    assert "gdl.interpreter.runtime.engine" in modules
    assert not {"lark", "gdl.interpreter.language.parser", "gdl.interpreter.language.checker",
                "gdl.interpreter.loader"} & modules


def _own(node):
    """`self`, `cls` or `super()`: the object itself (a subclass calling its base's method)."""
    return (isinstance(node, ast.Name) and node.id in ("self", "cls")) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id == "super" and not node.args)


def _private_reads(path):
    """`x._name` in a file, for any `x` but the object itself (dunders aside)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return [f"{path}:{node.lineno}: .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__") and not _own(node.value)]


def test_tools_read_no_private_member_of_another_object():
    assert len(TOOLS) > 40 and "interpreter/play/debug/explain.py" in TOOLS
    assert [hit for path in TOOLS for hit in _private_reads(path)] == []


def test_str_of_a_state_is_a_readable_summary():
    game = load_source(RULES, "tally.gdl")
    state = game.new_state(0)
    assert str(state) == "\n".join([
        "turn 1 (seat 0), 0 decisions",
        "  phases: main for seat 0",
        "  result: playing",
        "  pieces: 2 living",
        "  globals: score=0, label='x'",
    ])
    game.apply(state, game.parse_action(state, "add 2"))
    assert str(state).split("\n")[0].endswith(", 1 decision")
    game.apply(state, game.parse_action(state, "take Stone#2"))
    assert str(state) == "\n".join([
        "turn 2 (seat 1), 2 decisions",
        "  phases: main for seat 1",
        "  result: seat 1 won",
        "  pieces: 1 living",
        "  globals: score=2, label='x'",
    ])


def test_equal_states_hash_alike_and_a_changed_one_differs():
    from gdl.interpreter import load_game
    game = load_game(str(ROOT / "games" / "space_war.gdl"))
    state = game.new_state(3)
    copy = state.clone()
    assert copy == state and hash(copy) == hash(state) and len({state, copy}) == 1
    game.apply(copy, game.legal_actions(copy)[0])
    assert copy != state and len({state, copy}) == 2


QUOTING = """
game "Quoting"
seats a, b
symbols North, South
board square(3, 3)
kinds (size) { Stone = 1 }
setup {
  create Stone for a at @a1
  goto main for a
}
phase main turn {
  action face(s in [North])
  {
    win me
  }
  action add(n in [1, 2]) {
    win me
  }
  action step(p in pieces(me) by cell, to in cells()) {
    win me
  }
}
"""


def test_parse_action_quotes_a_long_typed_word_briefly():
    """The engine's refusal of a typed text quoted a word of it whole: a caller of the
    Python API (or a bridge, or a page of gdl serve) given a word of 100,000 characters got
    a message of 100,000 characters (the play prompt alone shortened it). Now every word the
    message quotes is its first 40 characters and '...'."""
    from gdl.interpreter.language.errors import IllegalAction
    game = load_source(QUOTING, "quoting.gdl")
    state = game.new_state(0)
    long, short = "x" * 100_000, "x" * 40 + "..."
    refusals = {
        long: f"there is no action '{short}' in phase 'main'; actions here: face, add, step",
        f"face {long}": f"{short} is not a possible 's' now (not in [North])",
        f"add 1{'0' * 99_999}": f"'1{'0' * 39}...' is not a number",
        f"add 1{'0' * 3_999}": f"1{'0' * 39}... is not a possible 'n' now (not in [1, 2])",
        f"step {long} b2": f"'{short}' is not a piece",
        f"step a1 {long}": f"'{short}' is not a cell",
        "step b1 b2": "there is no piece on b1",
    }
    for text, message in refusals.items():
        try:
            game.parse_action(state, text)
        except IllegalAction as exc:
            assert exc.message == message, (text[:50], exc.message[:200])
        else:
            raise AssertionError(f"{text[:50]} was taken")
