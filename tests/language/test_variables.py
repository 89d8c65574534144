"""`var`: variables (docs/language.md 3.8): a piece variable that starts from its kind's
column (`var piece.models from size`), and the checker's messages about it."""

from __future__ import annotations

import pytest

from gdl.interpreter import load_game, load_source

from tests.helpers import RULES, VALID, act, lines, logs, rule_error


def test_a_piece_variable_starts_from_its_kinds_column():
    extra = ("kinds (size, name) {\n  Squad = 5, \"s\"\n  Team = 3, \"t\"\n  Rock = none, \"r\"\n}\n"
             "var piece.models from size\nvar piece.called from name\n")
    exprs = ["[p.models for p in pieces()]", "[p.called for p in pieces()]"]
    before = "create Squad for a at @a1\n  create Team for a at @a1\n  create Rock for none at @a1\n"
    source = (f"seats a, b\nboard square(3, 3)\n{extra}setup {{\n  {before}"
              + "".join(f"  log text({e})\n" for e in exprs)
              + "  let p = first(q in pieces())\n  p.models -= 2\n  log text(p.models)"
              + " + \" \" + text(p.size)\n  goto play for a\n}\n"
              "phase play turn { action pass() { goto play for next(me) } }\n")
    assert logs(load_source(source, "t.gdl").new_state(0).events) == [
        "[5, 3, none]", "[s, t, r]", "3 5"]


def test_a_variant_changes_the_column_a_variable_starts_from(tmp_path):
    variant = tmp_path / "big.gdl"
    variant.write_text(f'extends "{RULES / "pools.gdl"}"\nkinds (size) {{\n  Squad = 10\n}}\n')
    game = load_game(str(variant))
    models = {p["label"]: p["vars"]["models"] for p in game.view(game.new_state(0), None)["pieces"]}
    assert models == {"Squad#1": "10", "Team#1": "3", "Squad#2": "10", "Team#2": "3"}


@pytest.mark.parametrize("extra, expected", [
    ("kinds (size) { Squad = 5 }\nvar models from size", [
        "bad.gdl:13:5: error: only a piece variable can start from its kind's table "
        "('var piece.models from size')",
        "    var models from size",
        "        ^"]),
    ("kinds (size) { Squad = 5 }\nvar seat.models from size", [
        "bad.gdl:13:10: error: only a piece variable can start from its kind's table "
        "('var piece.models from size')",
        "    var seat.models from size",
        "             ^"]),
    ("kinds (size) { Squad = 5 }\nvar piece.models from sise", [
        "bad.gdl:13:23: error: the kinds have no column 'sise'",
        "    var piece.models from sise",
        "                          ^",
        "did you mean 'size'?"]),
    ("kinds (size) { Squad = 5 }\nvar piece.models from owner", [
        "bad.gdl:13:23: error: the kinds have no column 'owner'",
        "    var piece.models from owner",
        "                          ^"]),
    ("kinds (size) { Squad = 5 }\nvar piece.size from size", [
        "bad.gdl:13:11: error: 'piece.size' clashes with a piece property or table column of "
        "the same name",
        "    var piece.size from size",
        "              ^"]),
], ids=["from-global", "from-seat", "unknown-column", "from-property", "from-clash"])
def test_check_errors(extra, expected):
    assert rule_error(VALID + extra + "\n") == lines(*expected)


def test_a_none_variable_is_typed_where_it_is_read_before_its_first_assignment():
    """The checker meets `text(me.spot)` before `me.spot = c` makes spot a cell variable; the
    text is still the cell's name (the file is checked again with the types learnt)."""
    source = lines(
        "seats a, b", "board square(3, 3)", "var seat.spot = none",
        "setup {", "  goto play for a", "}",
        "phase play turn {",
        "  action put(c in cells()) {",
        "    log text(me) + \" was at \" + text(me.spot) + \" \" + text([me.spot])",
        "    me.spot = c",
        "    goto play for next(me)",
        "  }",
        "}", "")
    game = load_source(source, "t.gdl")
    state = game.new_state(0)
    act(game, state, "put b2")
    act(game, state, "put a1")
    assert logs(act(game, state, "put c3")) == ["a was at b2 [b2]"]


def test_a_variable_of_lists_of_anything_takes_the_type_of_its_first_assignment():
    """`var groups = [[none]]` is a list of lists of anything until `groups = groups +
    [[c]]` makes it a list of lists of cells: the cells print by name (they printed as
    numbers, `[[none], [0]]`)."""
    source = lines(
        "seats a, b", "board square(3, 3)", "var groups = [[none]]",
        "setup {", "  goto play for a", "}",
        "phase play turn {",
        "  action add(c in cells()) {",
        "    groups = groups + [[c]]",
        "    log text(groups)",
        "    goto play for next(me)",
        "  }",
        "}", "")
    game = load_source(source, "t.gdl")
    state = game.new_state(0)
    assert logs(act(game, state, "add b2")) == ["[[none], [b2]]"]


SHUFFLED_FIRST = lines(
    "seats a, b", "var deck = none",
    "setup {", "  goto play for a", "}",
    "phase play turn {",
    "  action mix() {", "    shuffle deck", "    goto play for next(me)", "  }",
    "  action fill() {", "    deck = VALUE", "    goto play for next(me)", "  }",
    "}", "")


def test_a_none_variable_shuffled_before_its_first_assignment_is_a_list():
    """`shuffle deck` is met before `deck = [...]` types deck: the second pass checks it."""
    game = load_source(SHUFFLED_FIRST.replace("VALUE", "[1, 2, 3]"), "t.gdl")
    state = game.new_state(0)
    act(game, state, "fill")
    act(game, state, "mix")
    assert sorted(state.globals["deck"]) == [1, 2, 3]


@pytest.mark.parametrize("value, got", [("3", "a number"), ("none", "anything")])
def test_a_none_variable_shuffled_and_never_a_list_is_refused(value, got):
    assert rule_error(SHUFFLED_FIRST.replace("VALUE", value)) == lines(
        f"bad.gdl:8:13: error: type mismatch: 'shuffle' needs a list variable, but this is "
        f"{got}",
        "        shuffle deck",
        "                ^")


def test_a_parameter_may_join_texts():
    game = load_source(lines(
        "seats a, b", 'param greeting = "hello, " + "world"',
        "setup {", "  goto play for a", "}",
        "phase play turn {", "  action say() {", "    log greeting", "    goto play for next(me)",
        "  }", "}", ""), "t.gdl")
    assert logs(act(game, game.new_state(0), "say")) == ["hello, world"]
