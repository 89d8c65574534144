"""Stand-alone expressions against a loaded game (a scenario's `expect` lines): parse, check
against the game's resolved program, generate and compile. This is the one module outside
the loader that uses the parser and checker, so the engine needs neither."""

from __future__ import annotations

from .checker import check_expression
from .parser import parse_expression


def compile_expression(game, text, local_types, want=None, file="<expression>"):
    """(function(state, me, *values in the order of `local_types`) -> value, its type)."""
    expr = check_expression(game.program, parse_expression(text, file), local_types, want)
    function = game.function_of(expr, len(local_types))

    def evaluate(state, me, *values):
        return game.evaluate(state, function, me, *values)
    return evaluate, expr.type
