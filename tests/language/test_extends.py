"""Variants: `extends` (docs/language.md 12). (Variants of each construct are tested with
the construct: zones, variables, ...)"""

from __future__ import annotations

import pytest

from gdl.interpreter import GdlError, load_game

from tests.helpers import SPACE_WAR


def test_a_variant_column_that_the_base_lacks_is_an_error(tmp_path):
    base = str(SPACE_WAR)
    (tmp_path / "space_war.gdl").write_text(open(base).read())
    (tmp_path / "v.gdl").write_text('extends "space_war.gdl"\nkinds (sped) { Fighter = 5 }\n')
    with pytest.raises(GdlError) as info:
        load_game(str(tmp_path / "v.gdl"))
    assert str(info.value).splitlines() == [
        f"{tmp_path / 'v.gdl'}:2:8: error: the base table has no column 'sped'",
        "    kinds (sped) { Fighter = 5 }",
        "           ^",
        "did you mean 'speed'?"]
