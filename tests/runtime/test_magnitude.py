"""The number limits on the Python backend (docs/language.md, "Limits"): a sum, difference
or multiple that could pass limits.MAX_SUM is checked where the rules let it (runtime/
magnitude.py), one that cannot costs nothing more; kept numbers at most MAX_NUMBER. The
same faults on the native backend: tests/runtime/test_typed.py, `FAULT_BODIES`."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language import limits
from gdl.interpreter.language.errors import GdlRuntimeError, GdlSyntaxError
from gdl.interpreter.loader import check_source, generated_python
from gdl.interpreter.runtime.magnitude import MEASURE, WIDE, Magnitudes
from tests.helpers import ROOT

GAME = """game "t"
seats a, b
board square(3, 3)
kinds (power) {{ Mark = 7 }}
var big = 1
var dice = []
var seat.score = 0
setup {{
  dice = [3, 4]
  goto play for a
}}
phase play turn {{
  action go(k in range(1, 6)) {{
    {body}
    goto play for next(me)
  }}
}}
fn plus(n) = n + 1
fn twice(n) = n + n
{extra}
"""


def _game(body, extra=""):
    return load_source(GAME.format(body=body, extra=extra), "t.gdl", "python")


def _fault(body, extra=""):
    game = _game(body, extra)
    with pytest.raises(GdlRuntimeError) as caught:
        game.apply(game.new_state(0), (0, (1,)))
    return str(caught.value).splitlines()[0]


def _sums(body, folder):
    """How many sums of the action `go` with `body` the generated Python checks."""
    path = folder / "t.gdl"
    path.write_text(GAME.format(body=body, extra=""), encoding="utf-8")
    source = generated_python(str(path))
    unit = source[source.index("def act_play_go"):]
    return unit[:unit.index("\ndef ")].count("_wide(")


@pytest.mark.parametrize("body, checked", [
    ("big = big + 1", 0),                   # a kept number plus a constant
    ("big = big + big + big + big", 0),     # 4 x 10^18 < 2^62
    ("big = big + big + big + big + big", 1),   # the fifth can pass 2^62 - 1
    ("big = k * 1000", 0),                  # k is at most 5
    ("big = big * 5", 1),                   # a multiple that can pass
    ("big = plus(k) + twice(k)", 0),        # the fns' parameters by their calls
    ("big = nth(dice, 1) + 7", 0),          # a list variable's numbers by its values
    ("big = len(dice) * 1000", 0),          # a length is at most 2^40
])
def test_a_sum_is_checked_only_where_it_can_pass_the_limit(body, checked, tmp_path):
    assert _sums(body, tmp_path) == checked


def test_a_sum_past_the_limit_faults_at_its_operator():
    message = _fault("big = 900000000000000000\n    big = big + big + big + big + big + big")
    assert message == ("t.gdl:15:11: error: run-time error: a number of about 19 digits: a "
                       "sum, a difference or a multiple a rule computes is at most "
                       f"{limits.MAX_SUM:,} either way (it grows without end?)")


def test_a_partial_sum_past_the_limit_faults_though_the_total_would_not():
    body = ("big = 1000000000000000000\n    let a = big * 4\n"
            "    big = total([a, a, -a, -a]) + sum(i in [1, 2]: 0)")
    assert "a sum, a difference or a multiple" in _fault(body)
    assert _game("big = 1000000000000000000\n    let a = big * 4\n"
                 "    big = total([a, -a, a, -a])") is not None


def test_a_sum_faults_before_a_later_value_is_computed():
    """`sum` adds each value as it comes: the sum passes the limit at the second value,
    before the third divides by zero (so both backends stop at the same fault)."""
    body = ("big = 1000000000000000000\n    let a = big * 4\n"
            "    big = sum(i in [1, 2, 3]: if i < 3 then a else 7 / (k - k))")
    assert "a sum, a difference or a multiple" in _fault(body)


def test_a_number_kept_is_held_whatever_computed_it():
    body = "big = 900000000000000000\n    big = total([big, big])"
    assert _fault(body) == (
        "t.gdl:15:5: error: run-time error: a number of about 19 digits: a number a rule "
        "computes is at most 1,000,000,000,000,000,000 either way (it grows without end?)")


def test_a_constant_past_the_limit_is_refused():
    with pytest.raises(GdlSyntaxError) as caught:
        check_source(GAME.format(body="big = 1000000000000000001", extra=""), "t.gdl")
    assert str(caught.value).splitlines()[0] == (
        "t.gdl:14:11: error: a number of 19 digits: a constant is at most "
        "1,000,000,000,000,000,000 either way")
    check_source(GAME.format(body="big = 1000000000000000000", extra=""), "t.gdl")


def test_bounds_follow_calls_assignments_and_cycles():
    prog = check_source(GAME.format(body="big = grow(k) + twice(2)\n    keep([9])", extra=(
        "fn grow(n) = if n > 100 then n else grow(n + 1)\n"
        "def keep(xs) {\n  dice = xs + dice\n}\n")), "t.gdl")
    table = Magnitudes(prog)._settled()
    assert ("fn", "plus", 1) not in table       # never called: any number (WIDE)
    assert table[("fn", "twice", 1)] == 2
    assert table[("var", "global", "dice")] == 9    # [3, 4] at setup, [9] + dice
    assert table[("fn", "grow", 1)] == WIDE     # rises round after round: widened
    assert MEASURE < limits.MAX_NUMBER


@pytest.mark.parametrize("name", ["space_war", "classic/othello", "classic/connect_four",
                                  "classic/breakthrough", "classic/checkers",
                                  "classic/tic_tac_toe", "classic/backgammon"])
def test_the_games_that_are_benchmarked_check_no_sum(name):
    """Their sums cannot pass the limit: they run as fast as before the limit."""
    path = str(ROOT / "games" / f"{name}.gdl")
    assert "_wide(" not in generated_python(path)


def test_a_loaded_state_holds_no_number_a_rule_could_not_keep():
    """A state from outside (the Python API, a file) keeps to the limits too, so the
    bounds worked out from the rules hold for it as for a played one."""
    import json

    from gdl.interpreter import load_game
    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.runtime.state import State
    data = json.loads(load_game(str(ROOT / "games" / "space_war.gdl")).new_state(1).to_json())
    data["seat_vars"][0]["moved"] = 10 ** 18
    assert State.from_json(json.dumps(data)).seat_vars[0]["moved"] == 10 ** 18
    data["seat_vars"][0]["moved"] = -10 ** 19
    with pytest.raises(GdlDataError) as caught:
        State.from_json(json.dumps(data))
    assert str(caught.value) == ("error: not a saved gdl state: a number of 20 digits, where "
                                 "a variable holds at most 1,000,000,000,000,000,000 either way")


PHASES = """game "t"
seats a, b
board square(3, 3)
var total = 0
var seat.flag = false
setup {
  goto play(1) for a
}
phase play(n) turn {
  action go(k in range(1, 3)) {
    total = n + n + n + n + n
    goto play(k) for next(me)
  }
}
"""


def _edited(data, where, value):
    """The saved state `data` with `value` put at `where` (keys from the top)."""
    import copy
    data = copy.deepcopy(data)
    *path, last = where
    into = data
    for key in path:
        into = into[key]
    into[last] = value
    return data


@pytest.mark.parametrize("where, made, holder", [
    (("frames", 0, "args", 0), lambda n: n, "an argument of phase 'play' is"),
    (("frames", 0, "args", 0), lambda n: [1, [-n]], "an argument of phase 'play' is"),
    (("frames", 0, "pending"), lambda n: [None, [0, [n]]],
     "an argument of an action chosen in phase 'play' is"),
    (("frames", 0, "each"), lambda n: {"phase": "play", "args": [n], "rest": [1],
                                       "rule": None, "me": 0}, "an argument of phase 'play' is"),
    (("timers",), lambda n: [{"seat": 1, "place": ["g", "total"], "old": n}],
     "a variable holds"),
    (("turn",), lambda n: n, "the turn number is"),
    (("decisions",), lambda n: n, "the decision number is"),
    (("numbers", "#"), lambda n: n, "a piece label's number is"),
])
def test_a_loaded_state_brings_no_number_a_rule_could_not_keep(where, made, holder):
    """Every number of a saved state, not only its variables: a phase's arguments, the
    choices pending in a simultaneous phase, a timer's value, the counts (the typed engine
    holds them in C integers)."""
    import json

    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.runtime.state import State
    data = json.loads(load_source(PHASES, "t.gdl", "python").new_state(0).to_json())
    State.from_json(json.dumps(_edited(data, where, made(10 ** 18))))
    with pytest.raises(GdlDataError) as caught:
        State.from_json(json.dumps(_edited(data, where, made(10 ** 19))))
    assert str(caught.value) == (f"error: not a saved gdl state: a number of 20 digits, where "
                                 f"{holder} at most 1,000,000,000,000,000,000 either way")


@pytest.mark.parametrize("rng", [1 << 64, -1, True, 2.0])
def test_a_loaded_state_s_random_generator_holds_64_bits(rng):
    import json

    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.runtime.state import State
    data = json.loads(load_source(PHASES, "t.gdl", "python").new_state(0).to_json())
    assert State.from_json(json.dumps(_edited(data, ("rng",), (1 << 64) - 1))).rng == 2 ** 64 - 1
    with pytest.raises(GdlDataError) as caught:
        State.from_json(json.dumps(_edited(data, ("rng",), rng)))
    assert str(caught.value) == ("error: not a saved gdl state: the random generator's state is "
                                 f"a number from 0 to 18446744073709551615, not {rng!r}")


def test_true_and_false_are_no_numbers_to_the_check():
    """A bool is an int to Python: the check leaves true and false alone, where a variable
    or an argument holds them."""
    import json

    from gdl.interpreter.runtime.state import State
    data = json.loads(load_source(PHASES, "t.gdl", "python").new_state(0).to_json())
    data = _edited(_edited(data, ("frames", 0, "args", 0), True), ("seat_vars", 1, "flag"), True)
    loaded = State.from_json(json.dumps(data))
    assert loaded.frames[0]["args"] == [True] and loaded.seat_vars[1]["flag"] is True


@pytest.mark.parametrize("where, value, message", [
    (("globals", "total"), 2.5, "a decimal number (2.5), where a variable holds a whole number"),
    (("globals", "total"), 2.0, "a decimal number (2.0), where a variable holds a whole number"),
    (("globals", "total"), [1, [0.5]],
     "a decimal number (0.5), where a variable holds a whole number"),
    (("frames", 0, "args", 0), 1.5,
     "a decimal number (1.5), where an argument of phase 'play' is a whole number"),
    (("timers",), [{"seat": 1, "place": ["g", "total"], "old": 1e3}],
     "a decimal number (1000.0), where a variable holds a whole number"),
    (("globals", "total"), float("nan"), "NaN is not a number a state holds (its numbers "
     "are whole)"),
    (("seat_vars", 0, "flag"), float("inf"), "Infinity is not a number a state holds (its "
     "numbers are whole)"),
    (("globals", "total"), -float("inf"), "-Infinity is not a number a state holds (its "
     "numbers are whole)"),
    (("turn",), True, "the turn number is a whole number, not True"),
    (("turn",), 3.0, "the turn number is a whole number, not 3.0"),
    (("decisions",), False, "the decision number is a whole number, not False"),
    (("current",), 0.0, "the seat to play is a whole number, not 0.0"),
    (("numbers", "#"), True, "a piece label's number is a whole number, not True"),
    (("frames", 0, "seat"), 1.0, "the seat of phase 'play' is a whole number, not 1.0"),
])
def test_a_loaded_state_holds_whole_numbers_only(where, value, message):
    """gdl's numbers are whole: a saved state with a decimal number, NaN or Infinity
    anywhere a number is, or true, false or a decimal where the state itself counts (the
    turn, a label's number, a seat), is refused naming the place, never taken for one."""
    import json

    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.runtime.state import State
    data = json.loads(load_source(PHASES, "t.gdl", "python").new_state(0).to_json())
    with pytest.raises(GdlDataError) as caught:
        State.from_json(json.dumps(_edited(data, where, value)))
    assert str(caught.value) == f"error: not a saved gdl state: {message}"


def test_a_loaded_piece_has_a_whole_id_cell_and_owner():
    import json

    from gdl.interpreter import load_game
    from gdl.interpreter.language.errors import GdlDataError
    from gdl.interpreter.runtime.state import State
    data = json.loads(load_game(str(ROOT / "games" / "galaxy_of_d.gdl")).new_state(1).to_json())
    assert data["pieces"][0]["label"] == "Planet#1"
    for field, value, message in (("id", True, "a piece's id is a whole number, not True"),
                                  ("cell", 6.0, "the cell of piece Planet#1 is a whole "
                                   "number, not 6.0"),
                                  ("owner", False, "the owner of piece Planet#1 is a whole "
                                   "number, not False")):
        with pytest.raises(GdlDataError) as caught:
            State.from_json(json.dumps(_edited(data, ("pieces", 0, field), value)))
        assert str(caught.value) == f"error: not a saved gdl state: {message}"


def test_a_scenario_sets_no_number_a_rule_could_not_keep(tmp_path):
    from gdl.interpreter.play.scenarios.runner import run_scenario
    scenario = tmp_path / "big.scenario"
    scenario.write_text(f"rules {ROOT / 'games' / 'space_war.gdl'}\n"
                        "play side south\n"
                        "set blue.moved = 1000000000000000000\n"
                        "set blue.moved = blue.moved * 4\n", encoding="utf-8")
    failures = run_scenario(str(scenario))
    assert [f.splitlines()[0] for f in failures] == [
        f"{scenario}:4:1: error: a number of 19 digits, where a variable holds at most "
        "1,000,000,000,000,000,000 either way"]


def test_a_scenario_sets_no_list_holding_a_number_a_rule_could_not_keep(tmp_path):
    """The numbers in a list too (state.check_held, as for a saved state)."""
    from gdl.interpreter.play.scenarios.runner import run_scenario
    (tmp_path / "t.gdl").write_text(GAME.format(body="big = 1", extra=""), encoding="utf-8")
    scenario = tmp_path / "big.scenario"
    scenario.write_text("rules t.gdl\n"
                        "set big = 1000000000000000000\n"
                        "set dice = [big, -big]\n"
                        "set dice = [1, big + big]\n", encoding="utf-8")
    failures = run_scenario(str(scenario))
    assert [f.splitlines()[0] for f in failures] == [
        f"{scenario}:4:1: error: a number of 19 digits, where a variable holds at most "
        "1,000,000,000,000,000,000 either way"]


TWICE = """game "t"
seats a, b
board square(3, 3)
var total = 1000000000000000000
setup {{
  goto play for a
}}
fn twice(n) = n + n
fn twice_later(n) {{
  let m = n
  return twice(m)
}}
phase play turn {{
  action go(k in range(1, 3)) {{
    total = {value}
    goto play for next(me)
  }}
}}
"""
SUM_FAULT = ("a number of about 19 digits: a sum, a difference or a multiple a rule computes "
             "is at most 4,611,686,018,427,387,903 either way (it grows without end?)")


@pytest.mark.parametrize("expression", ["twice(total * 3) / 6 == total",
                                        "twice_later(total + total + total) > 0",
                                        "[twice(i) for i in [1, total * 3]] == []"])
def test_an_expect_line_holds_the_sum_limit_in_the_fns_it_calls(expression, tmp_path):
    """The rules call `twice` with 1 or 2 only, so its `n + n` is not checked in the game's
    module; an expect line giving it more runs a copy with every sum checked, which faults
    at the `+` as a rule giving it that would (on both backends: a scenario's expression
    runs on Python)."""
    from gdl.interpreter.play.scenarios.runner import run_scenario
    rules = tmp_path / "t.gdl"
    rules.write_text(TWICE.format(value="twice(k) + twice_later(k)"), encoding="utf-8")
    assert "_wide(" not in generated_python(str(rules))
    scenario = tmp_path / "big.scenario"
    scenario.write_text(f"rules t.gdl\nexpect twice(2) == 4\nexpect {expression}\n",
                        encoding="utf-8")
    failures = run_scenario(str(scenario))
    assert [f.splitlines()[0] for f in failures] == [
        f"{scenario}:3:1: error: run-time error: {SUM_FAULT} (at {rules}:8:15)"]
    game = load_source(TWICE.format(value="twice(total * 3) / 6"), str(rules), "python")
    with pytest.raises(GdlRuntimeError) as caught:
        game.apply(game.new_state(0), (0, (1,)))
    assert (caught.value.line, caught.value.column) == (8, 15)
    assert str(caught.value).splitlines()[0].endswith(f"run-time error: {SUM_FAULT}")


def test_an_expression_within_the_rules_bounds_calls_the_game_s_fns(tmp_path):
    """Only an expression calling a fn beyond its rules' bounds gets the checked copies:
    none of the shipped scenarios does."""
    from gdl.interpreter.language.checker import check_expression
    from gdl.interpreter.language.parser import parse_expression
    from gdl.interpreter.runtime.codegen import generate_expression
    program = check_source(TWICE.format(value="twice(k) + twice_later(k)"), "t.gdl")
    for text, copied in (("twice(turn_number % 2) + twice_later(turn_number % 2)", False),
                         ("twice(turn_number % 4)", True), ("twice_later(total)", True)):
        expr = check_expression(program, parse_expression(text, "e"), {})
        source, _ = generate_expression(program, expr, 0, "expression", "t.gdl")
        assert ("def fn_twice(" in source, "_wide(" in source) == (copied, copied), text


@pytest.mark.parametrize("body, checked", [
    ("big = sum(i in range(1, 5): i * 1000)", False),   # 4 x 5000: no partial can pass
    ("big = sum(i in range(1, 5): big)", True),          # kept numbers: a partial can
])
def test_a_sum_of_small_values_is_added_without_checks(body, checked, tmp_path):
    path = tmp_path / "t.gdl"
    path.write_text(GAME.format(body=body, extra=""), encoding="utf-8")
    unit = generated_python(str(path))
    unit = unit[unit.index("def act_play_go"):]
    assert ("_sum(" in unit[:unit.index("\ndef ")]) == checked
