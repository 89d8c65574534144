"""The limits on the work of one decision (`language/limits.py`, docs/language.md
"Limits"): a rule file that asks for work without end gets an error at the rule that asked,
from the checker when its arguments are constants, else while the game runs; and the
shipped games stay far below every limit."""

import glob
import json

import re

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language import limits
from gdl.interpreter.language.errors import GdlError, GdlRuleError, GdlRuntimeError
from gdl.interpreter.play.agents.agents import RandomAgent
from gdl.interpreter.runtime.events import as_json
from tests.helpers import gdl
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)

BASE = """game "t"
seats a, b
board square(3, 3)
kinds (speed) {{ Pawn = 1 }}
var n = {n}
var l = [1]
{extra}
setup {{
  {setup}
  goto main for a
}}
phase main {{
  action go({binders}){where} {{
    {body}
  }}
}}
"""


def source(body="n = 1", setup="n = n", binders="", extra="", n=0, where=""):
    return BASE.format(body=body, setup=setup, binders=binders, extra=extra, n=n,
                       where=where and f" where {where}")


def check_error(text):
    with pytest.raises(GdlRuleError) as info:
        load_source(text, "t.gdl")
    return str(info.value)


def run_error(text, decisions=1):
    game = load_source(text, "t.gdl")
    with pytest.raises(GdlRuntimeError) as info:
        state = game.new_state(0)
        for _ in range(decisions):
            game.apply(state, game.legal_actions(state)[0])
    return str(info.value)


def test_a_constant_range_too_long_is_a_check_error():
    assert check_error(source(binders="k in range(1, 1000000000000000000)")) == (
        "t.gdl:13:18: error: range(): 1000000000000000000 numbers from 1 to "
        "1000000000000000000; a list holds at most 1,000,000\n"
        "      action go(k in range(1, 1000000000000000000)) {\n"
        "                     ^")


@pytest.mark.parametrize("joined, column, sizes", [
    ("range(1, 1000000) + range(1, 1000000)", 9, "1000000 and 1000000"),
    ("[1, 2] + range(2, 1000000)", 9, "2 and 999999"),
    ("range(1, 600000) + ([1] + range(1, 400000))", 9, "600000 and 400001"),
    ("[n] + range(1, 600000) + range(1, 400000)", 9, "600001 and 400000")])
def test_a_constant_list_joined_too_long_is_a_check_error(joined, column, sizes):
    """Lists whose lengths the rule file fixes (written out, constant, a range of constants)
    joined past the limit: the checker says so where play would (it said so in play only)."""
    message = check_error(source(body=f"l = {joined}"))
    assert message == (f"t.gdl:14:{column}: error: joining lists of {sizes} elements: a list "
                       f"holds at most 1,000,000\n        l = {joined}\n"
                       + " " * (column + 3) + "^")


def test_a_constant_list_joined_up_to_the_limit_is_allowed():
    """A list of a length play decides (`l`) is left to play, which holds it to the limit."""
    game = load_source(source(body="n = len(range(1, 999998) + [n] + l)"), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == limits.MAX_LIST


# a param of 524,288 elements: [1] doubled 19 times
DOUBLED = "param p0 = [1]\n" + "".join(f"param p{i} = p{i - 1} + p{i - 1}\n" for i in range(1, 20))


def test_constants_joined_again_and_again_stop_at_the_folding_limit():
    """Each constant joined with `+` is a new list the checker holds: a file of a few kB
    joining a list of 524,288 elements 3,000 times held 12 GB before it was checked. The
    lists and texts the checker joins hold at most MAX_FOLDED elements and characters."""
    joins = "".join(f"param q{i} = p19 + [{i}]\n" for i in range(40))
    message = check_error(source(extra=DOUBLED + joins))
    assert message.startswith("t.gdl:63:13:")    # the 37th join: q36
    assert "error: the constants this rule file joins hold more than 20,000,000 list " \
        "elements and text characters in all (each list or text joined with '+' counts " \
        "whole)\n    param q36 = p19 + [36]\n" in message
    texts = 'param t0 = "' + "a" * 1000 + '"\n' + "".join(
        f"param t{i} = t{i - 1} + t{i - 1}\n" for i in range(1, 7))      # 64,000 characters
    joins = "".join(f'param u{i} = t6 + "{i}"\n' for i in range(400))
    assert "error: the constants this rule file joins hold more than 20,000,000" in \
        check_error(source(extra=texts + joins))
    # the same joins, fewer of them, are checked
    load_source(source(extra=DOUBLED + "param q = p19 + [1]\n"), "t.gdl")


def test_a_long_constant_is_not_copied_at_each_use():
    """Rules naming a param of 524,288 elements hold it once, not a copy for each use (300
    uses took 1.3 GB and 24 s to check)."""
    from gdl.interpreter.language.program import Const
    from gdl.interpreter.language.tree import walk
    from gdl.interpreter.loader import check_source
    uses = " + ".join(["nth(p19, n)"] * 7)
    resolved = check_source(source(extra=DOUBLED, body=f"n = {uses}"), "t.gdl")
    found = [node.value for phase in resolved.phases.values() for node in walk(phase)
             if isinstance(node, Const) and isinstance(node.value, tuple)
             and len(node.value) == 2 ** 19]
    assert len(found) == 7 and len({id(value) for value in found}) == 1


def test_constants_the_rules_use_are_bounded_each_use_counted():
    """The code generator writes out each constant a rule uses: a list of 524,288 elements
    named in 300 rules took 73 s to load, `[p19, p19, ...]` named once 7 s and 500 MB. They
    hold at most MAX_USED (4,000,000) elements in all, each use counted; a long text, written
    at once, counts nothing."""
    used = "the constants the rules use hold more than 4,000,000 list elements in all, each " \
        "use counted (a long list named in many places, or a list that names another many " \
        "times)"
    seven = "\n    ".join(["n = nth(p19, n)"] * 7)
    game = load_source(source(extra=DOUBLED, body=seven, n=1), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == 1
    message = check_error(source(extra=DOUBLED, body=seven + "\n    n = nth(p19, n)"))
    assert message.startswith("t.gdl:34:13: error: " + used)    # the last counted
    named = "param q = [" + ", ".join(["p19"] * 300) + "]\n"
    message = check_error(source(extra=DOUBLED + named, body="n = len(nth(q, 1))"))
    assert message.startswith("t.gdl:35:17: error: " + used)
    table = "kinds (l) {\n" + "".join(f"  K{i} = p19\n" for i in range(1, 9)) + "}\n"
    message = check_error(source(extra=DOUBLED + table))
    assert message.startswith("t.gdl:35:3: error: the kinds tables' values and the constants "
                              "the rules use hold more than 4,000,000")     # K8
    text = 'param t = "' + "a" * 50000 + '"\n'
    load_source(source(extra=text, body="\n    ".join(["log t"] * 100)), "t.gdl")


@pytest.mark.parametrize("where", ["[k for k in range(1, n)]", "count(k in range(1, n))",
                                   "sum(k in range(1, n): k)"])
def test_a_range_too_long_at_run_time_names_it(where):
    message = run_error(source(body=f"n = len({where})" if where.startswith("[")
                               else f"n = {where}", n=10 ** 18))
    assert message.startswith("t.gdl:14:") and (
        "run-time error: range(): 1000000000000000000 numbers from 1 to "
        "1000000000000000000; a list holds at most 1,000,000") in message


def test_a_binder_domain_too_long_at_run_time_names_it():
    game = load_source(source(binders="k in range(1, n)", n=limits.MAX_LIST + 1), "t.gdl")
    with pytest.raises(GdlRuntimeError) as info:
        game.legal_actions(game.new_state(0))
    assert str(info.value).splitlines()[0] == (
        "t.gdl:13:18: error: run-time error: range(): 1000001 numbers from 1 to 1000001; a "
        "list holds at most 1,000,000")


def test_a_range_at_the_limit_is_allowed():
    game = load_source(source(body="n = len(range(1, n))", n=limits.MAX_LIST), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == limits.MAX_LIST


def test_a_list_that_doubles_stops_at_the_limit():
    message = run_error(source(body="l = l + l"), decisions=30)
    assert message == ("t.gdl:14:9: error: run-time error: joining lists of 524288 and 524288 "
                       "elements: a list holds at most 1,000,000\n"
                       "        l = l + l\n"
                       "            ^")


@pytest.mark.parametrize("binders,body,where", [
    ("x in range(1, n), y in range(1, n)", "n = 1", "y == 0"),          # a listing
    ("", "for x in range(1, n) {\n      l = [count(y in range(1, n) where y == x)]\n    }", ""),
    ("x in range(1, n)", "n = 1", ""),
])
def test_loops_inside_loops_stop_at_the_work_limit(binders, body, where):
    """Each domain is under MAX_LIST, but their product is not: the loops stop at MAX_WORK
    items with an error at the loop's domain, instead of running for hours."""
    text = source(binders=binders, body=body, n=100_000, where=where)
    if binders == "x in range(1, n)":       # one loop of 100,000 is far below the limit
        game = load_source(text, "t.gdl")
        assert len(game.legal_actions(game.new_state(0))) == 100_000
        return
    message = run_error(text)
    first = message.splitlines()[0]
    assert first.startswith("t.gdl:1") and first.endswith(
        "run-time error: the rules took more than 10,000,000 steps since the last decision "
        "(loops inside loops over long lists, a fn that calls itself many times, or many "
        "dice)"), message


OVERWORKED = ("run-time error: the rules took more than 10,000,000 steps since the last "
              "decision (loops inside loops over long lists, a fn that calls itself many "
              "times, or many dice)")


@pytest.mark.parametrize("body,place", [
    # a long list scanned by `in` counts its length at the test
    ("l = [len(r) for i in range(1, 5000) where i in r]", "t.gdl:15:47"),
    # lists of 100,000 made in a loop: about 100 of them, not 10**10 numbers in memory
    ("n = len([range(1, 100000) for i in range(1, 100000)])", "t.gdl:15:14"),
    ("for k in range(1, 100) {\n      l = r + r\n    }", "t.gdl:16:11"),
])
def test_lists_made_or_scanned_count_as_work(body, place):
    """range() and `+` count the length of the list they make, and `in` the length of a
    long list it scans: each list is bounded, and now so is what a loop makes or scans of
    them (it ran for minutes, or took the machine's memory)."""
    message = run_error(source(body="let r = range(1, 500000)\n    " + body))
    assert message.splitlines()[0] == f"{place}: error: {OVERWORKED}"


LONG = 'let w = "x"\n    for i in range(1, 16) {\n      w = w + w\n    }\n    '    # 65,536


@pytest.mark.parametrize("body,place", [
    ('for i in range(1, 20000) {\n      t = "y" + w\n    }', "t.gdl:19:11"),
    ('n = count(i in range(1, 20000) where w + "" == "y" + w)', "t.gdl:18:42"),
    ('n = count(i in range(1, 20000) where w in ["a", w])', "t.gdl:18:42"),
    ("n = count(i in range(1, 20000) where len(text([w])) > 0)", "t.gdl:18:46"),
    ('n = count(i in range(1, 20000) where len(join([w, "b"], "")) > 0)', "t.gdl:18:46"),
    ("n = count(i in range(1, 20000) where len(plural(2, w)) > 0)", "t.gdl:18:46"),
    ("n = count(i in range(1, 20000) where [w] == [w])", "t.gdl:18:42"),
    ("n = count(i in range(1, 20000) where len(unique([w, w])) > 0)", "t.gdl:18:46"),
])
def test_long_texts_count_their_characters_as_work(body, place):
    """A text made, written or compared whole counts one step for every limits.TEXT_STEP
    characters: 20,000 of them of 65,536 characters stop at the operation (a loop of such
    texts ran for minutes)."""
    message = run_error(source(body=LONG + body, extra='var t = ""'))
    assert message.splitlines()[0] == f"{place}: error: {OVERWORKED}"


def test_short_texts_count_nothing():
    """Texts of fewer than limits.TEXT_STEP characters cost no work: the loop counts its
    domain alone; and one longer counts what it is long."""
    for body, work in [('n = count(i in range(1, 1000) where text(i) + "x" != join([text(i), '
                        '"y"], "") and text(i) in ["1", text(n)] and [plural(i, "die")] != '
                        '["2 dice"])', 1000),
                       ('let w = "' + "x" * 250 + '"\n    n = len(w + w)', 5)]:
        game = load_source(source(body=body), "t.gdl")
        state = game.new_state(0)
        game.apply(state, game.legal_actions(state)[0])
        assert game._rt.work == work, body


def test_placements_count_the_ways_they_try():
    """`placements(dice, slots)` counts the steps of its limit, slots ** dice * (slots +
    dice), PLACEMENT_WORK times (a step of it costs about four ordinary ones), each call,
    remembered or not: ten dice on three slots, 3,070,548 steps, stop in the fourth call (a
    loop of different rolls ran for a minute; counting each step once, 2.5 s)."""
    game = load_source(source(body="n = len(placements([1, 2, 3, 4], [Up, Down]))",
                              extra="symbols Up, Down"), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert game._rt.work == 2 ** 4 * (2 + 4) * limits.PLACEMENT_WORK == 384
    message = run_error(source(body="for i in range(1, 20) {\n      n = len(placements(range(i, "
                                    "i + 9), [Up, Down, Left]))\n    }",
                               extra="symbols Up, Down, Left"))
    assert message.splitlines()[0] == f"t.gdl:15:15: error: {OVERWORKED}"
    three = load_source(source(body="for i in range(1, 3) {\n      n = len(placements(range("
                                    "i, i + 9), [Up, Down, Left]))\n    }",
                               extra="symbols Up, Down, Left"), "t.gdl")
    state = three.new_state(0)
    three.apply(state, three.legal_actions(state)[0])         # three calls: under the limit
    assert three._rt.work == 3 + 3 * (10 + 3 ** 10 * 13 * limits.PLACEMENT_WORK)  # + ranges
    four = source(body="for i in range(1, 4) {\n      n = len(placements(range(i, i + 9), "
                       "[Up, Down, Left]))\n    }", extra="symbols Up, Down, Left")
    assert run_error(four).splitlines()[0] == f"t.gdl:15:15: error: {OVERWORKED}"


def test_a_test_of_a_range_makes_no_list(monkeypatch):
    """`x in range(a, b)` compares: no list is made (it made one for each test), so the
    test costs nothing; a range too long is still an error."""
    from gdl.interpreter.language import builtins
    made = []
    numbers = builtins.numbers
    monkeypatch.setitem(builtins.BUILTINS, "range", builtins.BUILTINS["range"]._replace(
        impl=lambda ctx, a, b: made.append(b - a + 1) or numbers(a, b)))
    game = load_source(source(body="n = count(i in range(-5, 50) where i in range(1, n) and "
                                   "i not in range(n - 3, n))", n=999999), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == 50 and made == [56]
    assert run_error(source(body="n = count(i in range(1, 9) where i in range(1, n))",
                            n=10 ** 7)).splitlines()[0] == (
        "t.gdl:14:43: error: run-time error: range(): 10000000 numbers from 1 to 10000000; a "
        "list holds at most 1,000,000")


def test_a_fn_that_calls_itself_twice_stops_at_the_work_limit():
    """fib(60) makes about 10**12 calls, each far below the recursion limit."""
    message = run_error(source(body="n = fib(60)",
                               extra="fn fib(k) = if k < 2 then k else fib(k - 1) + fib(k - 2)"))
    assert message.splitlines()[:2] == [
        "t.gdl:7:1: error: run-time error: the rules took more than 10,000,000 steps since "
        "the last decision (loops inside loops over long lists, a fn that calls itself many "
        "times, or many dice)", "    fn fib(k) = if k < 2 then k else fib(k - 1) + fib(k - 2)"]


def test_pieces_created_without_end_stop_at_the_limit():
    message = run_error(source(setup="for i in range(1, n) {\n    create Pawn for a at none\n  }",
                               n=limits.MAX_PIECES + 1))
    assert message == ("t.gdl:10:5: error: run-time error: more than 10,000 pieces created "
                       "in one game\n"
                       "        create Pawn for a at none\n"
                       "        ^")


def test_too_many_dice_at_once():
    assert check_error(source(body="n = roll(6, 10001)")).splitlines()[0] == (
        "t.gdl:14:9: error: roll(): a roll throws 0 to 10,000 dice, not 10001")
    assert run_error(source(body="n = roll(6, n)", n=10 ** 9)).splitlines()[0] == (
        "t.gdl:14:9: error: run-time error: cannot roll 1000000000 dice at once: at most "
        "10,000")


@pytest.mark.parametrize("call", ["roll(0)", "roll(-3)", "roll(6, -1)", "roll(0, 2)",
                                  "successes(2, -0, 4)", "successes(-1, 6, 4)",
                                  "len(rolls(10001, 6))", "len(rolls(3, 0))"])
def test_a_constant_die_of_no_sides_is_a_check_error(call):
    message = check_error(source(body=f"n = {call}"))
    name = call.removeprefix("len(").split("(")[0]
    assert re.match(fr"t\.gdl:14:\d+: error: {name}\(\): (a die has|a roll throws)", message)


def test_phases_that_enter_one_another_without_end():
    text = source().replace("phase main {", "phase main {\n  on enter {\n    goto main for "
                                            "next(me)\n  }")
    assert run_error(text) == (
        "t.gdl:14:5: error: run-time error: phases were entered more than 200 times without "
        "reaching a decision: their goto, call and return go round without end\n"
        "        goto main for next(me)\n"
        "        ^")


def test_a_call_and_return_cycle_without_a_decision():
    text = source(extra="phase side {\n  on enter {\n    return\n  }\n  action go() { }\n}") \
        .replace("phase main {", "phase main {\n  on enter {\n    call side for me\n  }\n"
                                 "  on resume {\n    call side for me\n  }")
    message = run_error(text)
    assert message.splitlines()[0] == (
        "t.gdl:9:5: error: run-time error: phases were entered more than 200 times without "
        "reaching a decision: their goto, call and return go round without end")


def test_a_number_squared_at_every_decision_stops_at_the_limit():
    message = run_error(source(body="n = n * n", n=2), decisions=10)
    assert message == ("t.gdl:14:9: error: run-time error: a number of about 20 digits: a "
                       "number a rule computes is at most 1,000,000,000,000,000,000 either "
                       "way (it grows without end?)\n"
                       "        n = n * n\n"
                       "            ^")


def test_a_number_doubled_in_a_loop_stops_at_the_assignment():
    message = run_error(source(body="for k in range(1, 100) {\n      n += n\n    }", n=1))
    assert message.splitlines()[0] == (
        "t.gdl:15:7: error: run-time error: a number of about 19 digits: a number a rule "
        "computes is at most 1,000,000,000,000,000,000 either way (it grows without end?)")


def test_a_fn_that_squares_as_it_calls_itself_stops():
    extra = "fn grow(k, x) = if k == 0 then x else grow(k - 1, x * x)"
    message = run_error(source(body="n = grow(40, n)", extra=extra, n=2))
    assert message.startswith("t.gdl:7:51:") and "a number of about 20 digits" in message


def test_a_number_at_the_limit_is_allowed_and_one_past_it_is_not():
    game = load_source(source(body="n = n + 0", n=limits.MAX_NUMBER), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert state.globals["n"] == limits.MAX_NUMBER
    assert "a number of about 19 digits" in run_error(source(body="n = n + 1",
                                                             n=limits.MAX_NUMBER))


def test_a_text_that_doubles_stops_at_the_limit():
    message = run_error(source(body='t = t + t', extra='var t = "ab"'), decisions=20)
    assert message.splitlines()[0] == (
        "t.gdl:14:9: error: run-time error: a text of 131,072 characters: a text a rule joins "
        "is at most 100,000 long (it grows without end?)")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_plural_past_the_text_limit_is_refused(backend, request):
    """`plural` of a word at the limit is a few characters longer: refused there, as `+`
    refuses one, on both backends (it was kept, 100,004 characters long)."""
    if backend == "native":
        from tests.runtime.test_native_backend import MISSING
        if MISSING is not None:
            pytest.skip(f"no native backend: {MISSING}")
        request.getfixturevalue("shared_cache")
    body = ('let v = ""\n    for i in range(1, 10000) {\n      v = v + "xxxxxxxxxx"\n    }\n'
            '    t = plural(2, v)')
    game = load_source(source(body=body, extra='var t = ""'), "t.gdl", backend=backend)
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:
        game.apply(state, game.legal_actions(state)[0])
    assert str(info.value).splitlines()[0] == (
        "t.gdl:18:9: error: run-time error: a text of 100,004 characters: a text a rule "
        "joins is at most 100,000 long (it grows without end?)")


@pytest.mark.parametrize("narrate", [False, True])
@pytest.mark.parametrize("body,place", [
    ('log "x"', "t.gdl:18:9"),
    ("n = len(shuffled([1, 2]))", "t.gdl:18:17"),
    ("place q at @b2", "t.gdl:18:9"),
])
def test_statements_that_leave_events_count_as_work(narrate, body, place):
    """A log, a shuffle or a piece's move leaves an event (a narrated game's moves), so
    each counts limits.EVENT_WORK steps, narrated or not: 3,000,000 of them stopped at
    the work limit, not a gigabyte of events (a narrated loop of moves took 1 GB in 19 s)."""
    text = source(body="let q = first(p in pieces())\n    for i in range(1, 3000) {\n"
                       "      for j in range(1, 1000) {\n        " + body + "\n      }\n    }",
                  setup="create Pawn for a at @a1\n  n = n")
    game = load_source(text, "t.gdl")
    state = game.new_state(0, narrate=narrate)
    with pytest.raises(GdlRuntimeError) as info:
        game.apply(state, game.legal_actions(state)[0])
    assert str(info.value).splitlines()[0] == f"{place}: error: {OVERWORKED}"
    assert len(state.events) <= limits.MAX_WORK // limits.EVENT_WORK


def test_many_dice_after_one_decision_stop_at_the_work_limit():
    """Dice count against the work of a decision (each leaves an event): 10,000 dice a
    roll in a loop stop after 1,000,000 dice, not after minutes and gigabytes."""
    message = run_error(source(body="for k in range(1, 100000) {\n      n = roll(6, 10000)\n"
                                    "    }"))
    assert message.splitlines()[0].startswith("t.gdl:15:11: error: run-time error: the rules "
                                              "took more than 10,000,000 steps")


def _peaks(path, games):
    """The most each game came to each limit, over `games` random games."""
    from gdl.interpreter.language import builtins
    from gdl.interpreter.runtime import engine
    peak = dict.fromkeys(["list", "dice", "pieces", "entries", "auto", "decisions", "work",
                          "actions"], 0)

    def note(key, value):
        peak[key] = max(peak[key], value)
    numbers, roll_dice, entered = builtins.numbers, engine.Runtime.roll_dice, \
        engine.Runtime.entered
    patches = pytest.MonkeyPatch()
    patches.setitem(builtins.BUILTINS, "range", builtins.BUILTINS["range"]._replace(
        impl=lambda ctx, a, b: note("list", b - a + 1) or numbers(a, b)))
    patches.setattr(engine.Runtime, "roll_dice",
                    lambda rt, sides, count: note("dice", count) or roll_dice(rt, sides, count))
    patches.setattr(engine.Runtime, "entered",
                    lambda rt: note("entries", rt.entries + 1) or entered(rt))
    try:
        game = load_game(path)
        join = game._module["_join"]
        game._module["_join"] = lambda rt, a, b: note("list", len(a) + len(b)) or join(rt, a, b)
        for seed in range(games):
            state = game.new_state(seed)
            agents = [RandomAgent(seed * 7 + s) for s in range(len(game.seats))]
            while state.result is None and state.turn <= 1000:
                legal = game.legal_actions(state)
                note("work", game._rt.work)
                note("actions", len(legal))
                events = game.apply(state, agents[game.current_player(state)].choose(
                    game, state, legal), check=False)
                note("work", game._rt.work)
                note("auto", sum(1 for e in as_json(events) if e[0] == "auto"))
            note("pieces", state.numbers.get("#", 0))
            note("decisions", state.decisions)
    finally:
        patches.undo()
    return peak


# Quoridor lists every wall that would close a ring of walls only after a search of the board
# for each (a pawn must keep a way to its goal row): about 22,000 steps at the most crowded
# decision of the random games below, a 450th of the work limit, not a 1000th.
WORK_MARGIN = {"games/classic/quoridor.gdl": 300}


@pytest.mark.parametrize("path", sorted(glob.glob("games/**/*.gdl", recursive=True)))
def test_the_shipped_games_stay_far_below_the_limits(path):
    peak = _peaks(path, 10)
    assert peak["list"] * 1000 < limits.MAX_LIST
    assert peak["dice"] * 1000 < limits.MAX_DICE
    assert peak["pieces"] * 50 < limits.MAX_PIECES
    assert peak["entries"] * 20 < limits.MAX_ENTRIES
    assert peak["auto"] * 500 < limits.MAX_AUTO
    assert peak["decisions"] * 50 < limits.DEFAULT_MAX_DECISIONS
    assert peak["work"] * WORK_MARGIN.get(path, 1000) < limits.MAX_WORK
    assert peak["actions"] * 100 < limits.MAX_ACTIONS


def test_the_peaks_see_the_work_of_a_decision():
    # (Not every game does work: the poker games' rules have no loop or comprehension.)
    assert _peaks("games/classic/tic_tac_toe.gdl", 2)["work"] > 0


def test_a_rule_file_larger_than_the_limit_is_refused_at_once(tmp_path):
    """A 6.7 MB rule file took minutes and gigabytes to check: over MAX_SOURCE bytes it is
    refused before it is parsed."""
    import subprocess
    import sys
    from gdl.interpreter.language.limits import MAX_SOURCE
    big = tmp_path / "big.gdl"
    line = "fn f(x) = x + 1\n"
    big.write_text('seats a, b\nboard square(3, 3)\n' + line * (MAX_SOURCE // len(line) + 1))
    result = subprocess.run([sys.executable, "-m", "gdl.cli.main", "check", str(big)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert f"is larger than {MAX_SOURCE:,} bytes" in result.stderr
    assert "Traceback" not in result.stderr
    with pytest.raises(GdlError):
        load_source(big.read_text(), str(big))


STUCK = """game "t"
seats a, b
board square(1, 1)
var n = 0
setup {
  goto play for a
}
phase play {
  action wait() { }
  action go() where n == 0 {
    n = 1
  }
}
"""


def test_a_seat_left_only_actions_that_change_nothing_is_told_at_the_phase():
    """An action with an empty body leaves the position as it was: when it is all a seat
    may do, the game would ask it for ever (it ran to the 100,000-decision cap); the
    listing says so at the phase instead."""
    game = load_source(STUCK, "t.gdl")
    state = game.new_state(0)
    assert len(game.legal_actions(state)) == 2      # `go` still changes something
    game.apply(state, (1, ()))
    with pytest.raises(GdlRuntimeError) as info:
        game.legal_actions(state)
    assert str(info.value).splitlines()[0] == (
        "t.gdl:8:1: error: run-time error: a can only play 'wait' in phase 'play', and its "
        "body is empty: every choice leaves the position as it was, so the game can never go "
        "on (give the action something to do, e.g. 'goto PHASE for next(me)')")


def test_empty_actions_in_a_simultaneous_phase_are_choices():
    game = load_source(STUCK.replace("phase play {", "phase play simultaneous {"), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert game.legal_actions(state)


def test_connected_without_end_stops_at_the_work_limit():
    """`connected` over values that never repeat: every value a step gives counts, so the
    search stops at MAX_WORK with an error at the expression."""
    message = run_error(source(body="l = connected(k in [1]: [k + j for j in range(1, 1000)])"))
    first = message.splitlines()[0]
    assert first.startswith("t.gdl:14:") and "took more than 10,000,000 steps" in first, message


@pytest.mark.parametrize("backend", ["python", "native"])
def test_loops_over_constant_lists_nested_stop_at_the_work_limit(backend, request):
    """A loop over a constant list (or a list written out) counts its length: each has
    the rule file's size, but they nest (three over 400 numbers ran 27 s a decision on
    Python, uncounted, and 1,000 numbers would run for hours)."""
    if backend == "native":
        from tests.runtime.test_native_backend import MISSING
        if MISSING is not None:
            pytest.skip(f"no native backend: {MISSING}")
        request.getfixturevalue("shared_cache")
    numbers = ", ".join(str(i) for i in range(400))
    extra = (f"param xs = [{numbers}]\nfn deep(c) = exists(i in xs where exists(j in xs "
             "where exists(k in xs where i + j + k + row(c) < 0)))")
    text = source(binders="c in cells()", body="n = if deep(c) then 1 else 2", extra=extra)
    game = load_source(text, "t.gdl", backend=backend)
    state = game.new_state(0)
    with pytest.raises(GdlRuntimeError) as info:      # (the action's body calls deep)
        game.apply(state, game.legal_actions(state)[0])
    assert str(info.value).splitlines()[0] == f"t.gdl:8:68: error: {OVERWORKED}"   # xs


ACTIONS_LIMIT = "tests/rules/actions_limit.gdl"
TOO_MANY_ACTIONS = ("error: run-time error: more than 1,000,000 legal actions listed for one "
                    "decision (an action whose parameters range over long lists, one inside "
                    "another: narrow them with 'where' tests, or choose one parameter a "
                    "decision)")


def _limit_game(backend, request):
    """tests/rules/actions_limit.gdl on `backend`: python, typed (the native backend's
    typed engine) or untyped (the native backend's compiled Python, GDL_TYPED=0)."""
    if backend == "python":
        return load_game(ACTIONS_LIMIT, "python")
    from gdl.interpreter.runtime import native, typed
    from tests.runtime.test_native_backend import MISSING
    if MISSING is not None:
        pytest.skip(f"no native backend: {MISSING}")
    request.getfixturevalue("shared_cache")
    monkeypatch = request.getfixturevalue("monkeypatch")
    if backend == "untyped":
        monkeypatch.setenv(typed.ENVIRONMENT, "0")
    else:
        monkeypatch.delenv(typed.ENVIRONMENT, raising=False)
    game = load_game(ACTIONS_LIMIT, "native")
    assert native.backend_of(game) == "native"
    assert (game._typed is not None) == (backend == "typed")
    return game


def _work(game, state):
    """The work the last listing counted (limits.MAX_WORK), on either engine."""
    from gdl.interpreter.runtime import typed
    core = getattr(state, "_core", None) or (
        typed.core_of(state) if isinstance(state, typed.TypedState) else None)
    return core.work if core is not None else game._rt.work


@pytest.mark.parametrize("backend", ["python", "typed", "untyped"])
def test_a_listing_holds_at_most_the_action_limit(backend, request):
    """An action of two cells() parameters on a board of 3,000 cells listed 9,000,000
    actions, within the work limit (17.5 s and 1.27 GB for one decision): a listing holds
    at most MAX_ACTIONS. Exactly that many are listed; one more is an error at the action
    listed then, the same on every backend; and a listing far past it stops part way, once
    it holds more ahead of its innermost loop, not at its end (its work says where)."""
    game = _limit_game(backend, request)
    state = game.new_state(0)
    legal = game.legal_actions(state)
    assert len(legal) == limits.MAX_ACTIONS
    for same, place, work in ((False, "29:3", 1_001_000), (True, "38:3", 1_502_000)):
        state = game.new_state(0)
        game.apply(state, next(a for a in legal if (a[1][0] == a[1][1]) == same), check=False)
        with pytest.raises(GdlRuntimeError) as info:
            game.legal_actions(state)
        assert str(info.value).splitlines()[0] == f"{ACTIONS_LIMIT}:{place}: {TOO_MANY_ACTIONS}"
        # `deep` stops ahead of its 500,001st pair of cells, in the 501st value of its
        # first parameter: 1,000 steps for `cells()`, 1,000 for each value's loop over the
        # second and 2 for each pair's loop over `[1, 2]`; listed to the end it would count
        # 3,001,000 (`edge` counts 1,001,000)
        assert _work(game, state) == work


@pytest.mark.parametrize("backend", ["python", "typed", "untyped"])
def test_a_playout_past_the_action_limit_stops_at_the_action(backend, request):
    """random_playout and random_rollout (the typed engine counts the actions in a pass of
    its own, without listing them) fault where a listing does."""
    from gdl.interpreter.runtime import introspect
    game = _limit_game(backend, request)
    deep = next(a for a in game.legal_actions(game.new_state(0)) if a[1][0] == a[1][1])
    for first, play, place in (
            (None, lambda s: introspect.random_playout(game, s, [1, 2], None, 10), "29:3"),
            (None, lambda s: introspect.random_rollout(game, s, [1], 10), "29:3"),
            (deep, lambda s: introspect.random_playout(game, s, [1, 2], None, 10), "38:3"),
            (deep, lambda s: introspect.random_rollout(game, s, [1], 10), "38:3")):
        state = game.new_state(0)
        if first is not None:
            game.apply(state, first, check=False)
        with pytest.raises(GdlRuntimeError) as info:
            play(state)
        assert str(info.value).splitlines()[0] == f"{ACTIONS_LIMIT}:{place}: {TOO_MANY_ACTIONS}"


@pytest.mark.parametrize("command", [["simulate", "--games", "1"],
                                     ["play", "--players", "random,random"]])
def test_the_command_line_tells_a_listing_past_the_limit(command):
    result = gdl(command[0], ACTIONS_LIMIT, *command[1:])
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert f"{ACTIONS_LIMIT}:29:3: {TOO_MANY_ACTIONS}" in result.stdout + result.stderr


CONVEYOR = """game "t"
seats a, b
board square(3, 3)
kinds (symbol) {{ Stone = "o" }}
var total = 0
setup {{
  create Stone for a at @a1
  goto main for a
}}
on enter(p, c) {{
  total += 1
  if total < {last} {{
    move p along [c]
  }}
}}
phase main {{
  action go() {{
    move first(p in pieces()) along [@b1]
  }}
}}
"""


def test_an_on_enter_rule_moving_its_piece_without_end_stops_at_200_runs():
    """Python's own recursion limit stopped it before, at a place that differs between
    Python versions (and the typed engine's C stack overflowed: tests/runtime/
    test_typed_recurse.py compares both)."""
    game = load_source(CONVEYOR.format(last=200), "t.gdl")
    state = game.new_state(0)
    game.apply(state, game.legal_actions(state)[0])
    assert json.loads(state.to_json())["globals"]["total"] == 200
    assert run_error(CONVEYOR.format(last=201)).splitlines() == [
        "t.gdl:10:1: error: run-time error: a move inside an 'on enter' rule runs 'on enter' "
        "rules without end (200 deep)", "    on enter(p, c) {", "    ^"]
