"""The text drawing (docs/language.md 8.4): `show status(p)` and `show seat(s)` lines in the
rule file's words."""

from __future__ import annotations

import textwrap

from gdl.interpreter import load_source
from gdl.interpreter.runtime.view import render


def test_show_status_writes_a_line_per_piece_in_the_rule_files_words():
    source = textwrap.dedent("""\
        seats a, b
        board table(6, 4)
        kinds (size) {
          Squad = 5
        }
        var piece.models from size
        show status(p) = if p.cell == none then "" else text(p.models) + " at " + text(p.cell)
        setup {
          create Squad for a at @b2
          create Squad for b at none
          goto play for a
        }
        phase play turn { action pass() { goto play for next(me) } }
        """)
    game = load_source(source, "status.gdl")
    lines = render(game, game.view(game.new_state(0), 0)).splitlines()
    assert "  Squad#1 (a): 5 at b2" in lines
    assert not any(line.startswith("  Squad#2") for line in lines)   # "": no line
    assert not any("models=" in line for line in lines)            # the status replaces it


def test_show_seat_writes_each_seats_line_in_the_rule_files_words():
    source = textwrap.dedent("""\
        seats a, b
        board square(3, 3)
        var seat.gold = 3
        var seat.secret = 7 visible to viewer == owner
        show seat(s) = text(s.gold) + " gold" + (if s == me then " (you)" else "")
        setup {
          goto play for a
        }
        phase play turn { action pass() { goto play for next(me) } }
        """)
    game = load_source(source, "seatline.gdl")
    lines = render(game, game.view(game.new_state(0), 1)).splitlines()
    assert "  a: 3 gold" in lines and "  b: 3 gold (you)" in lines
    assert not any("secret" in line for line in lines)     # the line replaces the dump
