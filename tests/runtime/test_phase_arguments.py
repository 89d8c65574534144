"""A phase's arguments in `gdl play`'s title and `gdl explain`'s header ('phase
moving(Pawn#1, b2)'), written as gdl writes values; a game that keeps anything from a seat
tells a seat (and the public view) the phase's name alone, the full view its arguments."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.play.debug.explain import heading
from gdl.interpreter.runtime.view import make_view, public_view, title

RULES = """\
game "T"
seats a, b
board square(3, 3)
kinds (symbol) {{
  Pawn = "P"
}}
{hidden}
setup {{
  create Pawn for a at @a1
  goto play for a
}}

phase play turn {{
  action pick(p in pieces(me)) {{
    goto moving(p, @b2) for me
  }}
}}

phase moving(p, c) {{
  action go() {{
    place p at c
    win me
  }}
}}
"""

OPEN = load_source(RULES.format(hidden=""), "t.gdl")
HIDDEN = load_source(RULES.format(hidden="var seat.secret = 0 visible to viewer == owner"),
                     "t.gdl")


def moving(game):
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    return state


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_game_that_hides_nothing_tells_every_seat_the_arguments(seat):
    state = moving(OPEN)
    assert title(make_view(OPEN, state, seat)) == (
        "T - turn 1, a to play (phase moving(Pawn#1, b2), a decides)")
    assert title(public_view(OPEN, state)) == (
        "T - turn 1, a to play (phase moving(Pawn#1, b2), a decides)")


def test_a_game_that_hides_something_tells_a_seat_the_name_alone():
    state = moving(HIDDEN)
    assert title(make_view(HIDDEN, state, 0)) == "T - turn 1, a to play (phase moving, a decides)"
    assert title(public_view(HIDDEN, state)) == "T - turn 1, a to play (phase moving, a decides)"
    assert title(make_view(HIDDEN, state, None)) == (
        "T - turn 1, a to play (phase moving(Pawn#1, b2), a decides)")


def test_explain_heads_its_answer_with_the_arguments_as_the_viewer_is_told_them():
    assert heading(OPEN, moving(OPEN), "here", 0) == [
        "a to play in phase 'moving(Pawn#1, b2)', turn 1 (here)"]
    assert heading(HIDDEN, moving(HIDDEN), "here", 0) == [
        "a to play in phase 'moving', turn 1 (here)"]
    assert heading(HIDDEN, moving(HIDDEN), "here") == [
        "a to play in phase 'moving(Pawn#1, b2)', turn 1 (here)"]
    assert heading(OPEN, OPEN.new_state(0), "here") == ["a to play in phase 'play', turn 1 (here)"]
