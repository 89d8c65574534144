"""Variants: `extends` (docs/language.md 12). (Variants of each construct are tested with
the construct: zones, variables, ...)"""

from __future__ import annotations

import pytest

from gdl.interpreter import GdlError, load_game

from tests.helpers import SPACE_WAR, VALID


def test_a_variant_column_that_the_base_lacks_is_an_error(tmp_path):
    base = str(SPACE_WAR)
    (tmp_path / "space_war.gdl").write_text(open(base).read())
    (tmp_path / "v.gdl").write_text('extends "space_war.gdl"\nkinds (sped) { Fighter = 5 }\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines() == [
        f"{tmp_path / 'v.gdl'}:2:8: error: the base table of 'Fighter' has no column 'sped'",
        "    kinds (sped) { Fighter = 5 }",
        "           ^",
        "did you mean 'speed'?"]


BASE_WITH_KINDS = VALID + 'param n = 1\nkinds (symbol, speed) {\n  Pawn = "P", 1\n}\n'


def variant_error(tmp_path, text: str) -> list[str]:
    """The lines of the error loading `text` as v.gdl, a variant of VALID with a kinds table
    (base.gdl); the file names in it are shortened to their base names."""
    (tmp_path / "base.gdl").write_text(BASE_WITH_KINDS)
    (tmp_path / "v.gdl").write_text('extends "base.gdl"\n' + text)
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    return str(info.value).replace(f"{tmp_path}/", "").splitlines()


@pytest.mark.parametrize("text, expected", [
    # a name declared twice in the variant is an error, as in one file (not the last kept)
    ("param n = 2\nparam n = 3\n",
     ["v.gdl:3:1: error: 'n' is defined twice; the first definition is at line 2",
      "    param n = 3", "    ^"]),
    ('phase play {\n  action stay() { goto play for a }\n}\n'
     'phase play {\n  action go() { goto play for b }\n}\n',
     ["v.gdl:5:1: error: 'play' is defined twice; the first definition is at line 2",
      "    phase play {", "    ^"]),
    ('setup { goto play for a }\nsetup { goto play for b }\n',
     ["v.gdl:3:1: error: 'setup' is declared twice; the first is at line 2",
      "    setup { goto play for b }", "    ^"]),
    # a kinds table: a row of the wrong length is not cut to the table's columns
    ('kinds (speed) {\n  Pawn = 2, 3\n}\n',
     ["v.gdl:3:3: error: kind 'Pawn' has 2 values but the table has 1 column (speed)",
      "      Pawn = 2, 3", "      ^"]),
    # a kind overridden twice, in one table or two
    ('kinds (speed) {\n  Pawn = 2\n  Pawn = 3\n}\n',
     ["v.gdl:4:3: error: 'Pawn' is defined twice; the first definition is at line 3",
      "      Pawn = 3", "      ^"]),
    ('kinds (speed) {\n  Pawn = 2\n}\nkinds (symbol) {\n  Pawn = "Q"\n}\n',
     ["v.gdl:6:3: error: 'Pawn' is defined twice; the first definition is at line 3",
      '      Pawn = "Q"', "      ^"]),
    # a column named twice
    ('kinds (speed, speed) {\n  Pawn = 2, 3\n}\n',
     ["v.gdl:2:15: error: the column 'speed' is named twice in this table",
      "    kinds (speed, speed) {", "                  ^"]),
    # a column a new kind brought is not a column of the base kind's table
    ('kinds (symbol, cargo) {\n  Ship = "S", 4\n}\nkinds (cargo) {\n  Pawn = 1\n}\n',
     ["v.gdl:5:8: error: the base table of 'Pawn' has no column 'cargo'",
      "    kinds (cargo) {", "           ^"]),
])
def test_a_variant_declares_each_thing_once(tmp_path, text, expected):
    assert variant_error(tmp_path, text) == expected


def test_a_variant_may_put_a_base_kind_out_of_sight(tmp_path):
    """`visible to` on a variant's row of a base kind is the kind's condition now (it was
    dropped: the base's table kept the kind in sight)."""
    (tmp_path / "base.gdl").write_text(BASE_WITH_KINDS)
    (tmp_path / "v.gdl").write_text(
        'extends "base.gdl"\nkinds (speed) visible to viewer == owner {\n  Pawn = 2\n}\n'
        'setup {\n  create Pawn for a at @a1\n  goto play for a\n}\n')
    game = load_game(str(tmp_path / "v.gdl"))
    state = game.new_state(0)
    assert len(game.view(state, 0)["pieces"]) == 1
    assert game.view(state, 1)["pieces"] == []


@pytest.mark.parametrize("base, message", [
    ("folder", "cannot read rule file {tmp}/folder: Is a directory"),
    ("", "'extends' names no base file: give the base's path, relative to this file's folder "
         "(extends \"base.gdl\")"),
])
def test_a_base_that_cannot_be_read_is_an_error_of_the_extends_line(tmp_path, base, message):
    """Not an error of the base's path with no line (`folder: error: cannot read ...`)."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "v.gdl").write_text(f'game "V"\nextends "{base}"\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines() == [
        f"{tmp_path / 'v.gdl'}:2:1: error: " + message.format(tmp=tmp_path),
        f'    extends "{base}"', "    ^"]


def test_a_name_the_base_declares_names_the_base_file_where_it_is(tmp_path):
    (tmp_path / "space_war.gdl").write_text(SPACE_WAR.read_text())
    (tmp_path / "v.gdl").write_text('extends "space_war.gdl"\nvar width = 3\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines()[0] == (
        f"{tmp_path / 'v.gdl'}:2:1: error: 'width' is defined twice; the first definition "
        f"is at {tmp_path / 'space_war.gdl'}:14")


def test_a_chain_of_bases_is_at_most_fifty_long(tmp_path):
    """A variant of a variant ... of a base: 50 bases are read, a 51st is an error of the
    `extends` line that names it (a chain of 1,500 said the file nested too deeply)."""
    (tmp_path / "v0.gdl").write_text(VALID)
    for number in range(1, 52):
        (tmp_path / f"v{number}.gdl").write_text(f'extends "v{number - 1}.gdl"\n')
    assert load_game(str(tmp_path / "v50.gdl")).name == "T"
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v51.gdl"))
    assert info.value.message == ("more than 50 base files, each extending the next: a "
                                  "variant has at most 50")
    assert (info.value.file, info.value.line) == (str(tmp_path / "v1.gdl"), 1)
