"""Messages for the mistakes a designer new to gdl makes (docs/language.md 2 and 13.2): a
reserved word used as a name says so on a line of its own, "did you mean" never offers the
rejected word, and `let` in a `fn`, a statement as a value, `while`, `x ** 2`, `xs[0]`, `1.25`,
`create KIND at CELL`, `f(x).n = v`, `list == none` and a doc string in an `on` block each say
what to write instead. Pinned whole."""

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError, did_you_mean

HEAD = "seats a, b\nvar xs = [1, 2]\n"
TAIL = "phase p { action x() {} }\n"


@pytest.mark.parametrize("text, message", [
    ("seats first, b\nsetup { goto p for first }\n" + TAIL,
     "<string>:2:26: error: unexpected '}'; expected '('\n"
     "    setup { goto p for first }\n"
     "                             ^\n"
     "'first' is a reserved word (a quantifier: first(x in xs ...)) and cannot be a name: "
     "choose another name"),
    (HEAD + "setup { goto p for a }\nphase p { action x() where count < 3 {} }\n",
     "<string>:4:34: error: unexpected '<'; expected '('\n"
     "    phase p { action x() where count < 3 {} }\n"
     "                                     ^\n"
     "'count' is a reserved word (a quantifier: count(x in xs ...)) and cannot be a name: "
     "choose another name"),
    (HEAD + "setup {\n  let p = create Ship for a at @a1\n  goto p for a\n}\n" + TAIL,
     "<string>:4:23: error: unexpected 'for'; expected '(', '+=', '-=', '.', '='\n"
     "      let p = create Ship for a at @a1\n"
     "                          ^\n"
     "'create' is a statement and gives no value for a 'let': write it on a line of its own, "
     "then find what it made (pieces_at(cell), say)"),
    (HEAD + "fn f(x) = let y = x + 1\nsetup { goto p for a }\n" + TAIL,
     "<string>:3:15: error: unexpected name 'y'; expected 'board', 'def', 'end', 'extends', "
     "'fn', 'game', 'hide', 'invariant', ...\n"
     "    fn f(x) = let y = x + 1\n"
     "                  ^\n"
     "a 'fn NAME(...) = ...' body is one expression, without 'let': write the fn as a block, "
     "'fn NAME(...) { let x = ...  return VALUE }'"),
    (HEAD + "setup {\n  while true { }\n  goto p for a\n}\n" + TAIL,
     "<string>:4:9: error: unexpected 'true'; expected '(', '+=', '-=', '.', '='\n"
     "      while true { }\n"
     "            ^\n"
     "gdl has no 'while': loop over a list with 'for x in xs' ('range(a, b)' counts), or let "
     "a 'fn' call itself"),
    (HEAD + "setup {\n  log text(1 + if true then 1 else 2)\n  goto p for a\n}\n" + TAIL,
     "<string>:4:19: error: unexpected name 'true'; expected ')', ','\n"
     "      log text(1 + if true then 1 else 2)\n"
     "                      ^\n"
     "an 'if ... then ... else ...' value inside a larger expression goes in parentheses: "
     "1 + (if COND then A else B)"),
    (HEAD + "setup {\n  xs = [xs[0]]\n  goto p for a\n}\n" + TAIL,
     "<string>:4:11: error: unexpected '['; expected '!=', '%', '(', '*', '+', ',', '-', '.', "
     "...\n"
     "      xs = [xs[0]]\n"
     "              ^\n"
     "gdl has no indexing 'xs[i]': write nth(xs, i) (counting from 1), last(xs) or "
     "first(x in xs where ...)"),
    (HEAD + "setup {\n  xs = [xs ** 2]\n  goto p for a\n}\n" + TAIL,
     "<string>:4:13: error: unexpected '*'; expected '(', '-', '[', 'false', 'none', 'true', "
     "a cell like @d5, a name, ...\n"
     "      xs = [xs ** 2]\n"
     "                ^\n"
     "gdl has no power operator '**': multiply, 'x * x', or for a power that varies write a "
     "fn that calls itself"),
    (HEAD + "setup {\n  create Arrow at @a1\n  goto p for a\n}\n" + TAIL,
     "<string>:4:16: error: unexpected 'at'; expected 'for'\n"
     "      create Arrow at @a1\n"
     "                   ^\n"
     "'create' names the piece's seat before its cell: a piece of no seat is created "
     "'for none' (create KIND for none at CELL)"),
    ("seats a, b\nvar piece.n = 0\nsetup {\n  last(pieces()).n = 3\n  goto p for a\n}\n"
     + TAIL,
     "<string>:4:17: error: unexpected '.'; expected 'call', 'change', 'create', 'draw', "
     "'for', 'give', 'goto', 'if', ...\n"
     "      last(pieces()).n = 3\n"
     "                    ^\n"
     "a variable is set on a name, not on what a call gives: name it first "
     "('let p = last(pieces())'), then set 'p.NAME = VALUE'"),
    (HEAD + "setup {\n  xs = [1.25]\n  goto p for a\n}\n" + TAIL,
     "<string>:4:11: error: unexpected '25'; expected a name\n"
     "      xs = [1.25]\n"
     "              ^\n"
     "gdl's numbers are whole: it has no fraction such as 1.25; count in smaller units "
     "(tenths, say), or divide with '/', which rounds down"),
    (HEAD + "setup {\n  if xs == none { xs = [] }\n  goto p for a\n}\n" + TAIL,
     "<string>:4:6: error: a list is never none: compare it with the empty list, '== []', or "
     "test 'len(...) == 0'\n"
     "      if xs == none { xs = [] }\n"
     "         ^"),
    (HEAD + "setup {\n  if none != xs { xs = [] }\n  goto p for a\n}\n" + TAIL,
     "<string>:4:6: error: a list is never none: compare it with the empty list, '!= []', or "
     "test 'len(...) > 0'\n"
     "      if none != xs { xs = [] }\n"
     "         ^"),
    # a name that needs '= VALUE': said right after it, not at the next line's first word
    # (it was "unexpected 'setup'; expected '='" on the line below, or "the file ended
    # unexpectedly (an unclosed block?)")
    (HEAD + "var piece.damage\nsetup { goto p for a }\n" + TAIL,
     "<string>:3:17: error: 'damage' needs a value: expected '= VALUE' after it (or 'from "
     "COLUMN', a stat table's column)\n"
     "    var piece.damage\n"
     "                    ^"),
    (HEAD + "setup { goto p for a }\n" + TAIL + "param damage\n",
     "<string>:5:13: error: 'damage' needs a value: expected '= VALUE' after it\n"
     "    param damage\n"
     "                ^"),
    (HEAD + "kinds (cost, speed) {\n  Fighter 3, 4\n}\nsetup { goto p for a }\n" + TAIL,
     "<string>:4:10: error: 'Fighter' needs a value: expected '= VALUE' after it\n"
     "      Fighter 3, 4\n"
     "             ^"),
    (HEAD + "setup {\n  let x\n  goto p for a\n}\n" + TAIL,
     "<string>:4:8: error: 'x' needs a value: expected '= VALUE' after it\n"
     "      let x\n"
     "           ^"),
    (HEAD + "game", "<string>:3:5: error: the file ended unexpectedly; expected a string\n"
     "    game\n"
     "        ^"),
    ("seats a, b\nsetup { goto p for a }\nphase p turn {\n  on no action {\n"
     "    \"Pass.\"\n    goto p for next(me)\n  }\n  action x() {}\n}\n",
     "<string>:5:5: error: unexpected '\"Pass.\"'; expected 'call', 'change', 'create', "
     "'draw', 'for', 'give', 'goto', 'if', ...\n"
     "        \"Pass.\"\n"
     "        ^\n"
     "a text opens a phase or an action only, as the first thing in its block (a doc "
     "string); an 'on' block, a 'def', 'setup' and a statement take none: write a comment "
     "('# ...'), or 'log \"...\"' to tell the players"),
])
def test_a_mistake_says_what_to_write_instead(text, message):
    with pytest.raises(GdlError) as caught:
        load_source(text)
    assert caught.value.render() == message


def test_did_you_mean_never_offers_the_rejected_word():
    with pytest.raises(GdlError) as caught:
        load_source(HEAD + "setup { foo for a }\n" + TAIL)
    assert caught.value.hints == ()
    with pytest.raises(GdlError) as caught:        # a misspelt word is still helped
        load_source(HEAD + "setpu { goto p for a }\n" + TAIL)
    assert caught.value.hints == ("did you mean 'setup'?",)


@pytest.mark.parametrize("word, names, options, hints", [
    ("mvoe", ["move", "place"], {}, ("did you mean 'move'?",)),
    ("zzz", ["move", "place"], {}, ()),                          # nothing close
    ("move", ["move", "place"], {}, ()),                         # never the word itself
    ("seup", ["setup"], {"cutoff": 0.75}, ("did you mean 'setup'?",)),
    ("placid", ["place"], {}, ("did you mean 'place'?",)),
    ("placid", ["place"], {"cutoff": 0.75}, ()),                 # too far at this cutoff
    ("A1", ["a1", "b2"], {}, ()),                                # case counts...
    ("A1", ["a1", "b2"], {"fold_case": True}, ("did you mean 'a1'?",)),  # ...unless folded
    ("mvoe", [], {}, ()),
])
def test_did_you_mean_offers_the_closest_name(word, names, options, hints):
    assert did_you_mean(word, names, **options) == hints


def test_did_you_mean_gives_the_name_as_written():
    assert did_you_mean("PAWN#3", ["Pawn#3", "Rook#1"], fold_case=True) == (
        "did you mean 'Pawn#3'?",)
    assert did_you_mean("rokk", iter(["rook", "book"])) == ("did you mean 'rook'?",)


def test_a_piece_or_seat_may_still_be_compared_with_none():
    load_source(HEAD + "var s = none\nsetup { if s == none { s = a } goto p for a }\n" + TAIL)


@pytest.mark.parametrize("taken, none", [("first(g in gs where 3 in g)", True), ("last(gs)", False),
                                         ("nth(gs, 3)", True), ("pick(gs)", False),
                                         ("one(3)", True), ("one(2)", False), ("held", True)])
def test_a_list_taken_out_of_a_list_of_lists_may_be_compared_with_none(taken, none):
    """`first`, `last`, `nth` and `pick` of a list of lists give none when there is no
    such list, and so may a fn or a local holding one: `== none` is the test for it (it
    was refused as 'a list is never none', and `== []` never holds for none)."""
    game = load_source("seats a, b\nvar gs = [[1], [2]]\nvar found = 0\n"
                       "fn one(k) = first(g in gs where k in g)\n"
                       "setup {\n  let held = nth(gs, 5)\n"
                       f"  if {taken} == none {{ found = 1 }}\n  goto p for a\n}}\n" + TAIL)
    state = game.new_state(0)
    assert game.view(state, None)["globals"]["found"] == ("1" if none else "0")
