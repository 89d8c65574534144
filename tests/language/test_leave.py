"""`leave` (docs/language.md 3.10): ends the running def, its caller going on; `return`
in a def keeps its meaning (it leaves the phase). Errors pinned; the layout."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError
from gdl.interpreter.tools.fmt import format_text

GAME = """seats a, b
var trail = []
{decls}
setup {{
  {setup}
  goto p for a
}}
phase p {{ action x() {{}} }}
"""

NOTE = """def note(x) {
  if x > 2 {
    leave
  }
  trail = trail + [x]
  for y in [x, 10 * x] {
    if y > 5 {
      leave
    }
    trail = trail + [y]
  }
  trail = trail + [0]
}
"""


def trail(setup, decls=NOTE):
    return load_source(GAME.format(decls=decls, setup=setup)).new_state(0).globals["trail"]


@pytest.mark.parametrize("setup, expected", [
    ("note(1)", [1, 1]),        # leaves from inside the loop: no 10, no 0
    ("note(3)", []),
    ("note(1)\n  note(5)\n  note(2)", [1, 1, 2, 2]),
])
def test_leave_ends_the_def_and_its_caller_goes_on(setup, expected):
    assert trail(setup) == expected


def test_leave_ends_only_the_innermost_def():
    decls = NOTE + "def outer() {\n  note(1)\n  trail = trail + [99]\n}\n"
    assert trail("outer()", decls) == [1, 1, 99]


@pytest.mark.parametrize("setup, decls, message", [
    ("leave", "",
     "<string>:5:3: error: 'leave' ends a def, and this is not in one\n"
     "      leave\n"
     "      ^\n"
     "hint: 'return' leaves the phase; 'stop' ends the move"),
    ("trail = [f(1)]", "fn f(x) {\n  leave\n  return 1\n}\n",
     "<string>:5:3: error: unexpected 'return'; expected '+=', '-=', '='\n"
     "      return 1\n"
     "      ^\n"
     "a fn's block cannot 'leave': it holds only 'let', assignments to its locals, 'if', "
     "'for' and 'return VALUE'; a 'def' runs statements"),
])
def test_misuse_is_reported(setup, decls, message):
    with pytest.raises(GdlError) as caught:
        trail(setup, decls)
    assert caught.value.render() == message


def test_the_layout_keeps_leave():
    text = GAME.format(decls=NOTE, setup="note(1)")
    assert format_text(format_text(text)) == format_text(text)
    assert "    leave\n" in format_text(text)
