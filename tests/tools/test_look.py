"""The look a rule file declares (docs/language.md 11.6): `show colour(s)`, `show badge(p)`,
`show cell(c)`, `show shape(p)` (tests/rules/shapes.gdl) and the `plural` built-in, on
tests/rules/look.gdl: the checker's errors, what the views carry, how the pictures, the
terminal's colours and the text drawing show it, the key's words for marks and badges, the
title of a game without turns, a piece drawn by its seat's letter alone."""

from __future__ import annotations

import pytest

from gdl.interpreter.language.builtins import plural
from gdl.interpreter.language.errors import GdlError
from gdl.interpreter.language.look import colour_of
from gdl.interpreter.loader import load_game, load_source
from gdl.interpreter.play.render.pictures import picture
from gdl.interpreter.runtime.view import render, title, turn_heading

from tests.helpers import GAMES, ROOT, RULES, VALID, act, gdl, rule, rule_error, value


def _claimed():
    game = rule("look.gdl")
    state = game.new_state(0)
    act(game, state, "claim Flag#1")
    return game, state


# ----- the checker ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ('show colour(s) = "redd"',
     "bad.gdl:12:18: error: 'show colour' needs a colour: \"redd\" is none of red, blue, "
     "green, yellow, orange, purple, black, white, pink, brown, cyan, grey, teal, violet, "
     "gold, silver, crimson, navy or olive, '#rgb' or '#rrggbb'"),
    ('show colour(s) = if s == a then "red" else "#12345"',
     "bad.gdl:12:44: error: 'show colour' needs a colour: \"#12345\" is none of red, blue, "
     "green, yellow, orange, purple, black, white, pink, brown, cyan, grey, teal, violet, "
     "gold, silver, crimson, navy or olive, '#rgb' or '#rrggbb'"),
    ("show colour(s) = 3",
     "bad.gdl:12:18: error: type mismatch: 'show colour' needs text, but this is a number"),
    ("show cell(c) = \"red\"",
     "bad.gdl:12:16: error: type mismatch: 'show cell' needs a seat, but this is text"),
    ("show badge(p) = p.owner",
     "bad.gdl:12:17: error: type mismatch: 'show badge' needs text, but this is a seat"),
    ("show color(s) = \"red\"",
     "bad.gdl:12:6: error: 'show color' is unknown (write 'colour'); expected 'show piece(p) "
     "= ...', 'show status(p) = ...', 'show seat(s) = ...', 'show game(s) = ...', 'show "
     "row(r) = ...', 'show score(s) = ...', 'show colour(s) = ...', 'show badge(p) = ...', "
     "'show cell(c) = ...', 'show shape(p) = ...' or 'show side(c, d) = ...'"),
])
def test_a_look_that_is_wrong_is_a_message(line, expected):
    assert rule_error(VALID + line + "\n").splitlines()[0] == expected


def test_colours_are_words_or_hex():
    assert colour_of("Red") == "#d1372f"
    assert colour_of("#abc") == "#aabbcc"
    assert colour_of("#3A4F9C") == "#3a4f9c"
    assert colour_of("redd") is None and colour_of("#12345") is None


# ----- plurals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n, word, words, expected", [
    (1, "fighter", None, "1 fighter"), (2, "fighter", None, "2 fighters"),
    (0, "territory", None, "0 territories"), (1, "territory", None, "1 territory"),
    (3, "day", None, "3 days"), (2, "success", None, "2 successes"), (4, "box", None, "4 boxes"),
    (2, "match", None, "2 matches"), (3, "die", "dice", "3 dice"), (1, "die", "dice", "1 die"),
])
def test_plural_writes_the_word_for_that_many(n, word, words, expected):
    assert plural(n, word, words) == expected


def test_plural_in_a_rule_file():
    board = "board square(3, 3)"
    assert value(board, 'plural(1, "unit")') == "1 unit"
    assert value(board, 'plural(2, "unit")') == "2 units"
    assert value(board, 'plural(2, "die", "dice")') == "2 dice"


@pytest.mark.parametrize("call", ['plural(nth([2], 3), "unit")', 'plural(2, nth(["die"], 3))',
                                  'plural(2, "die", nth(["dice"], 3))'])
def test_plural_of_none_is_a_run_time_error(call):
    """A count, a word or a plural given as none faults at the call (a plural left out
    is the English one)."""
    with pytest.raises(GdlError, match="plural\\(\\) cannot work with a value that is none"):
        value("board square(3, 3)", call)


# ----- views, pictures, text --------------------------------------------------------------------

def test_the_view_carries_the_look():
    game, state = _claimed()
    view = game.view(state, 1)
    assert [s["colour"] for s in view["seats"]] == ["orange", "#3a4f9c"]
    assert [(p["label"], p.get("badge")) for p in view["pieces"]] == [
        ("Knight#1", "2"), ("Flag#1", ""), ("Knight#2", "3"), ("Knight#3", "3")]
    assert view["cells"] == {"b2": "north"}
    assert [s["status"] for s in view["seats"]] == ["1 knight, 1 territory",
                                                    "2 knights, 0 territories"]


def test_the_picture_paints_the_seats_colours_badges_and_owned_cells():
    game, state = _claimed()
    svg = picture(game, game.view(state, None))
    assert svg.count('fill="#ee7b1a"') == 3         # north's knight, swatch and cell b2
    assert svg.count('fill="#3a4f9c"') == 3         # south's two knights and the swatch
    assert '<rect class="own" x="-24" y="-24" width="48" height="48" fill="#ee7b1a" ' \
           'fill-opacity=".6"/>' in svg             # b2, north's
    assert '<g class="bd" ' in svg and '>2</text></g>' in svg    # Knight#1's badge
    assert 'font-weight="bold">♞</text>' in svg    # the key: the marks the board shows


def test_the_text_drawing_writes_badges_in_the_legend():
    game, state = _claimed()
    text = render(game, game.view(state, None))
    assert "  north: Knight#1 a1 [2]" in text
    assert "  south: Knight#2 d3 [3], #3 d3 [3]" in text
    assert "north: 1 knight, 1 territory" in text


# ----- the title --------------------------------------------------------------------------------

def test_a_game_without_turns_counts_its_moves_in_the_title():
    game = load_game(str(GAMES / "classic" / "goofspiel.gdl"))
    state = game.new_state(0)
    assert title(game.view(state, 0)).startswith("Goofspiel - move 1, one to play")
    act(game, state, "bid 3")
    assert title(game.view(state, 1)).startswith("Goofspiel - move 2, two to play")
    look = rule("look.gdl")         # a game with a turn phase still counts turns
    assert title(look.view(look.new_state(0), None)).startswith("Look - turn 1, north")


def test_decisions_before_the_first_turn_are_named_so_not_turn_0():
    """Turn 0 is the phases before the first `turn` phase: the title and the log's turn line
    say 'before the first turn' and name no seat whose turn it is (they said 'turn 0, a to
    play' and '-- turn 0: a --' while b decided); a game without turns has no turn line."""
    game = load_source('game "T"\nseats a, b\nsetup { goto pick for b }\n'
                       "phase pick { action choose() { goto play for a } }\n"
                       "phase play turn { action go() { } }\n")
    state = game.new_state(0)
    assert title(game.view(state, None)) == "T - before the first turn (phase pick, b decides)"
    assert turn_heading(game, state) == "-- before the first turn --"
    act(game, state, "choose")
    assert title(game.view(state, None)) == "T - turn 1, a to play (phase play, a decides)"
    assert turn_heading(game, state) == "-- turn 1: a --"
    goofspiel = load_game(str(GAMES / "classic" / "goofspiel.gdl"))
    assert turn_heading(goofspiel, goofspiel.new_state(0)) is None


def test_a_secret_phase_keeps_the_count_of_moves_from_the_seats():
    game = load_game(str(GAMES / "classic" / "phantom_ttt.gdl"))
    state = game.new_state(0)
    assert title(game.view(state, 0)) == \
        "Phantom tic-tac-toe - x to play (phase play, x decides)"
    for text in ("mark a1", "mark a1"):     # o runs into x's mark and goes again
        act(game, state, text)
    assert title(game.view(state, 0)) == title(game.view(state, 1)) == \
        "Phantom tic-tac-toe - o to play (phase play, o decides)"
    assert title(game.view(state, None)).startswith("Phantom tic-tac-toe - move 3, o to play")
    for text in ("mark b1", "mark a2", "mark b2", "mark a3"):
        act(game, state, text)
    assert title(game.view(state, None)) == "Phantom tic-tac-toe - move 6, game over: x won"
    assert title(game.view(state, 1)) == "Phantom tic-tac-toe - game over: x won"


def test_an_empty_mark_draws_a_piece_by_its_seat_letter_alone():
    game = load_game(str(GAMES / "classic" / "tic_tac_toe.gdl"))
    state = game.new_state(0)
    for text in ("mark b2", "mark a1", "mark c3"):
        act(game, state, text)
    view = game.view(state, None)
    text = render(game, view)
    assert "  3  .  .  x\n  2  .  x  .\n  1  o  .  ." in text
    assert "key: x x, o o (a piece: its seat's letter, then its mark); o/x Mark" in text
    svg = picture(game, view)
    assert '>x<tspan class="nm" dy=".3em">1</tspan></text>' in svg
    assert '>o<tspan class="nm" dy=".3em">2</tspan></text>' in svg
    assert 'font-weight="bold">o/x</text>' in svg       # the key


# ----- the terminal's colours -------------------------------------------------------------------

def test_a_terminal_with_colours_fills_owned_cells_with_their_seat_colour():
    game, state = _claimed()
    view = game.view(state, None)
    plain = render(game, view)
    painted = render(game, view, colour=True)
    # b2 is north's: orange (#ee7b1a) at .6 over the board's ground, in black ink
    assert "  2   .  \x1b[48;2;241;172;111;38;2;17;17;17m  F  \x1b[0m  .    .\n" in painted
    assert painted.count("\x1b[0m") == 1
    assert "\x1b" not in plain and painted.replace(
        "\x1b[48;2;241;172;111;38;2;17;17;17m", "").replace("\x1b[0m", "") == plain


def test_colours_only_on_a_terminal_without_no_color(monkeypatch):
    from gdl.cli.playthrough import colour_terminal
    from tests.play.test_play_terminal import play_in_terminal
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert colour_terminal()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_terminal()
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert not colour_terminal()
    args = ["play", "games/game.gdl", "--players", "human,random,random,random", "--seed", "1"]
    seen = {colour: play_in_terminal(args, [], colour=colour)[0] for colour in (False, True)}
    assert "\x1b[48;2;" in seen[True] and "\x1b[48;2;" not in seen[False]


# ----- shapes from SVG files --------------------------------------------------------------------

def test_a_shape_keeps_only_what_a_picture_may_draw():
    shapes = rule("shapes.gdl").rules.look.shapes
    assert shapes["shapes/mine.svg"].view_box == "0 0 20 20"
    # no script, style, link, image, foreign object, event handler nor url(...) is left
    assert shapes["shapes/mine.svg"].body == (
        '<circle cx="10" cy="10" r="8" stroke-width="2"/>'
        '<g transform="rotate(45 10 10)"><rect x="6" y="6" width="8" height="8"/></g>')
    assert shapes["shapes/ship.svg"].body.startswith(
        '<path d="M12 2 L20 20 L12 16 L4 20 Z" fill="currentColor"/>')


def test_the_picture_draws_shapes_but_not_of_a_piece_hidden_from_the_seat():
    game = rule("shapes.gdl")
    state = game.new_state(0)
    ship, mine = (game.rules.look.shapes[f"shapes/{name}.svg"].body for name in ("ship", "mine"))
    north = picture(game, game.view(state, 0))
    assert north.count(ship) == 3 and north.count(mine) == 2     # with the key's swatches
    assert '<svg class="sh" x="-12.5" y="-12.5" width="25" height="25" viewBox="0 0 24 24" ' \
           'fill="#fff" color="#fff">' + ship in north
    south_view = game.view(state, 1)
    assert [p.get("shape") for p in south_view["pieces"]] == \
        ["shapes/ship.svg", "shapes/ship.svg", None]
    south = picture(game, south_view)
    assert mine not in south and "shapes/mine.svg" not in south
    assert south.count(ship) == 3


def _shape_error(tmp_path, name, content=None, written=None):
    """The checker's message on a rule file whose `show shape` names `written` (else `name`),
    a file `name` beside it holding `content` (bytes or text; None: no file)."""
    if content is not None:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    rules = tmp_path / "game.gdl"
    rules.write_text(VALID + f'show shape(p) = "{written or name}"\n')
    with pytest.raises(GdlError) as info:
        load_game(str(rules))
    return str(info.value).splitlines()[0].replace(str(tmp_path), "DIR")


@pytest.mark.parametrize("name, content, written, expected", [
    ("gone.svg", None, None, "'show shape' file \"gone.svg\" is not a file beside the rule "
     "file"),
    ("x.svg", "<svg/>", "/etc/x.svg", "'show shape' file \"/etc/x.svg\" must be a path inside "
     "the rule file's folder (no absolute path, no '..')"),
    ("x.svg", "<svg/>", "sub/../../x.svg", "'show shape' file \"sub/../../x.svg\" must be a "
     "path inside the rule file's folder (no absolute path, no '..')"),
    ("x.png", "<svg/>", None, "'show shape' file \"x.png\" must be an SVG file (a name ending "
     "in .svg)"),
    ("big.svg", "<svg>" + " " * 40_000 + "</svg>", None, "'show shape' file \"big.svg\" is "
     "larger than 32,768 bytes: a shape is a small symbol"),
    ("bad.svg", "<svg><path d='M0 0'></svg>", None, "'show shape' file \"bad.svg\" is not "
     "well-formed SVG (mismatched tag: line 1, column 22)"),
    ("html.svg", "<html><path d='M0 0'/></html>", None, "'show shape' file \"html.svg\" is "
     "not an SVG file (its root is not <svg>)"),
    ("lol.svg", '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>', None, "'show shape' "
     "file \"lol.svg\" declares a DOCTYPE or entities, which a shape may not"),
    ("empty.svg", "<svg viewBox='0 0 9 9'><script>alert(1)</script></svg>", None,
     "'show shape' file \"empty.svg\" draws nothing a shape may hold (paths, circles, "
     "ellipses, rects, lines, polylines, polygons and groups)"),
])
def test_a_shape_file_that_is_wrong_is_a_message_at_its_name(tmp_path, name, content,
                                                             written, expected):
    assert _shape_error(tmp_path, name, content, written) == \
        f"DIR/game.gdl:12:17: error: {expected}"


def test_a_shape_file_may_not_lead_out_of_the_folder_through_a_link(tmp_path):
    (tmp_path / "outside.svg").write_text("<svg viewBox='0 0 9 9'><circle r='3'/></svg>")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "link.svg").symlink_to(tmp_path / "outside.svg")
    rules = tmp_path / "game" / "game.gdl"
    rules.write_text(VALID + 'show shape(p) = "link.svg"\n')
    with pytest.raises(GdlError) as info:
        load_game(str(rules))
    assert "'show shape' file \"link.svg\" leads outside the rule file's folder" in \
        str(info.value)


# ----- the key: what marks and badges tell ------------------------------------------------------

@pytest.mark.parametrize("name, marks, badge", [
    ("galaxy_aflame.gdl", {"~": "suppressed", "!": "shaken"}, "models"),
    ("space_war.gdl", {"!": "damage"}, None),
    ("galaxy_of_d.gdl", {"c": "cargo"}, "armor left"),
])
def test_the_marks_a_rule_adds_and_its_badge_are_put_in_words(name, marks, badge):
    look = load_game(str(GAMES / name)).rules.look
    assert (dict(look.marks), look.badge) == (marks, badge)


def test_conditions_in_words():
    from gdl.interpreter.loader import load_source
    text = VALID.replace("seats a, b\n", "seats a, b\nvar piece.hp = 2\nvar piece.ok = true\n"
                         "kinds (symbol) {\n  K = \"K\"\n}\n") + (
        'show piece(p) = p.symbol + (if not p.ok then "x" else "") + (if p.hp < 2 and p.ok\n'
        '    then "y" else "") + (if p.kind == K then "" else "z") + (if p.hp == 1 + 1 then\n'
        '    "w" else "")\n'
        'show badge(p) = if p.ok then text(p.hp) else text(hp_left(p))\n'
        'fn hp_left(p) = p.hp\n')
    look = load_source(text, "words.gdl").rules.look
    assert dict(look.marks) == {"x": "not ok", "y": "hp < 2 and ok", "z": "not kind == K"}
    assert look.badge == "hp or hp left"


def test_the_key_explains_the_marks_and_the_badge_in_the_terminal_and_the_picture():
    game, state = _claimed()
    view = game.view(state, None)
    assert "; [N] after a piece: hp;" in " ".join(
        line.strip() for line in render(game, view).split("\n"))
    svg = picture(game, view)
    assert '<text font-size="11">N</text></g><text class="key" x="12" y="0">hp</text>' in svg
    worn = load_game(str(GAMES / "galaxy_aflame.gdl"))
    assert '<text class="key" x="0.2" y="0" text-anchor="end" font-weight="bold">~</text>' \
           '<text class="key" x="8.2" y="0">suppressed</text>' in picture(
               worn, worn.view(worn.new_state(1), None))


def test_the_example_of_the_language_reference_draws_its_knights_shape(tmp_path):
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    example = text.split("<!-- file: look.gdl -->\n```gdl\n", 1)[1].split("```", 1)[0]
    (tmp_path / "look.gdl").write_text(example, encoding="utf-8")
    (tmp_path / "shapes").mkdir()
    (tmp_path / "shapes" / "knight.svg").write_bytes(
        (RULES / "shapes" / "knight.svg").read_bytes())
    game = load_game(str(tmp_path / "look.gdl"))
    state = game.new_state(0)
    act(game, state, "claim Flag#1")
    view = game.view(state, None)
    assert "♞ Knight, F Flag; [N] after a piece: hp north:" in " ".join(
        line.strip() for line in render(game, view).split("\n"))
    knight = game.rules.look.shapes["shapes/knight.svg"].body
    svg = picture(game, view)
    assert svg.count(knight) == 3       # two knights and the key
    assert 'font-weight="bold">!</text><text class="key" x="8.2" y="0">hp &lt; 2</text>' in svg


def test_a_seat_replay_page_draws_shapes_but_not_of_a_piece_hidden_from_it(tmp_path):
    from gdl.interpreter.play.render.replay_page import make_page
    for path in ("shapes.gdl", "shapes/ship.svg", "shapes/mine.svg"):
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_bytes((RULES / path).read_bytes())
    assert gdl("record", str(tmp_path / "shapes.gdl"), "--max-turns", "3", "-o",
               str(tmp_path / "t.txt")).returncode == 0
    page = make_page(str(tmp_path / "t.txt"), "south")[0]
    assert "M12 2 L20 20" in page                   # the ships
    assert "rotate(45" not in page and "mine.svg" not in page
    assert "rotate(45" in make_page(str(tmp_path / "t.txt"), "north")[0]
