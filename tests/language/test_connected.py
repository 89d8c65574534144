"""`connected(x in STARTS where TEST: NEXT)`: the values reached from STARTS one NEXT step at
a time (docs/language.md, the quantifiers): its example scenario on both backends, and the
checker's messages for misuse."""

import os

import pytest

from gdl.interpreter.language.errors import GdlRuleError
from gdl.interpreter.loader import load_source
from gdl.interpreter.play.scenarios.runner import run_scenario

from tests.helpers import ROOT

SCENARIO = os.path.join(ROOT, "tests", "rules", "connected.scenario")

BASE = """game "t"
seats a, b
board square(3, 3) directions 4
kinds (symbol) {{ Stone = "o" }}
setup {{ goto play for a }}
fn f(c) = {expr}
phase play turn {{ action pass() {{ goto play for next(me) }} }}
"""


def test_the_example_scenario_passes():
    assert run_scenario(SCENARIO) == []


@pytest.mark.parametrize("expr,message", [
    ("connected(x in [c])", "connected(x in STARTS: NEXT) needs ': NEXT'"),
    ("connected(x in [[c]]: [[x]])", "joins single values"),
    ("connected(x in [1]: true)", "connected's ': NEXT' (values like its starts) needs list "
                                  "of a number, but this is true/false"),
    ("connected(x in 3: [x])", "needs a list"),
    ("connected(x in [1] where 2: [x])", "'where' condition"),
])
def test_misuse_is_a_check_error_at_its_place(expr, message):
    with pytest.raises(GdlRuleError) as info:
        load_source(BASE.format(expr=expr), "t.gdl")
    assert str(info.value).startswith("t.gdl:6:") and message in str(info.value), \
        str(info.value)
