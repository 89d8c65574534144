"""The Wilson interval of a win share (`gdl simulate` summaries)."""

from __future__ import annotations

from gdl.interpreter.play.balance.simulate import wilson


def test_wilson_interval():
    assert wilson(0, 0) == [0.0, 0.0, 0.0]
    assert wilson(90, 100) == [0.9, 0.826, 0.945]
    share, low, high = wilson(50, 100)
    assert share == 0.5 and low < 0.5 < high and round(low + high, 3) == 1.0
