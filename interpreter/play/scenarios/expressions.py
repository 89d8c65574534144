"""Stand-alone expressions against a loaded game (a scenario's `expect` lines): parse, check
against the game's resolved program, generate and compile. This is the one module outside
the loader that uses the parser and checker, so the engine needs neither."""

from __future__ import annotations

from ...language.checker import check_expression
from ...language.parser import parse_expression
from ...runtime.introspect import expression_function, resolved_program


def compile_expression(game, text, local_types, want=None, file="<expression>"):
    """(function(state, me, *values in the order of `local_types`) -> value, its type)."""
    expr = check_expression(resolved_program(game), parse_expression(text, file), local_types,
                            want)
    return expression_function(game, expr, len(local_types)), expr.type
