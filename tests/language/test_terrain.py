"""`terrain` (docs/language.md 3.6): terrain given by a condition over the cells."""

from __future__ import annotations

import pytest

from gdl.interpreter.language.errors import GdlRuleError

from tests.helpers import values


def test_terrain_from_a_condition_over_the_cells():
    extra = ('terrain corner = [c for c in cells() where column(c) <= 2 and row(c) <= 2] "#"\n'
             'terrain rim = [c for c in cells() where c in [@a1, @c3] or row(c) == -1] "+"')
    assert values("board square(3, 3)", "corner", "rim", extra=extra) == [
        "[a1, b1, a2, b2]", "[a1, c3]"]


def test_terrain_from_a_condition_that_is_not_constant_is_refused():
    with pytest.raises(GdlRuleError) as info:
        values("board square(3, 3)", "bad",
               extra='terrain bad = [c for c in cells() where pieces_at(c) == []] "#"')
    assert "this must be a constant" in str(info.value)
