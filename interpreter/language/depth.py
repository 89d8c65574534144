"""How deeply a rule file's blocks, loops and expressions nest, held within what its
generated Python can run: `check_depth(program)` takes a parsed `ast.Program` and raises a
`GdlRuleError` at the first `for`, block, action or expression that goes past a limit
(`limits.MAX_LOOPS`, `MAX_BLOCKS`, `MAX_BINDERS`, `MAX_EXPRESSION`), or returns the program
unchanged.

Each `for` of a rule becomes a Python `for`, each block an indented one, and an action's
binders nested loops in its listing; Python compiles at most 20 loops inside one another and
100 levels of indentation, so a deeper rule file would pass the checker and then fail to
load. Each operation of an expression becomes a call or a parenthesis of its Python (`x + x
+ ... + x` nests one `+` inside the next), and Python reads at most 200 open at once: 199
`+` in a row, which no parenthesis of the rule file counts, passed the checker and then
failed to load with a SyntaxError. The limits leave room for what the code generator adds
around a rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import ast
from .errors import GdlRuleError, error_at
from .limits import MAX_BINDERS, MAX_BLOCKS, MAX_EXPRESSION, MAX_LOOPS
from .tree import Node, children


def check_depth(program: ast.Program) -> ast.Program:
    """`program`, once no block, loop, action or expression of it nests past the limits."""
    _expressions(program)
    for decl in program.items:
        if isinstance(decl, ast.PhaseDecl):
            for action in decl.actions:
                if len(action.binders) > MAX_BINDERS:
                    raise error_at(GdlRuleError, f"action '{action.name}' takes "
                                   f"{len(action.binders)} parameters: at most {MAX_BINDERS}",
                                   action.binders[MAX_BINDERS].span)
                _block(action.body, 1, 0)
            for hook in (decl.on_enter, decl.on_reveal, decl.on_resume, *decl.on_no_action):
                _block(hook, 1, 0)
        elif isinstance(decl, (ast.DefDecl, ast.SetupDecl, ast.TriggerDecl, ast.OutDecl,
                               ast.ConcedeDecl)):
            _block(decl.body, 1, 0)
    return program


def _expressions(program: ast.Program) -> None:
    """Raise at the first expression (in file order) holding more than MAX_EXPRESSION
    operations inside one another: the outermost of them, where it starts. Not in the
    declarations the checker works out before play (a param, a kinds table, terrain): they
    become values, no code. Without recursion: a chain of operators nests as deep as it is
    long."""
    height: dict[int, int] = {}         # id of a node -> expressions inside one another in it
    stack: list[tuple[Node, bool]] = [
        (decl, False) for decl in reversed(program.items)
        if not isinstance(decl, (ast.ParamDecl, ast.KindsDecl, ast.TerrainDecl))]
    while stack:
        node, done = stack.pop()
        below = list(children(node))
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(below))
            continue
        inner = max((height.pop(id(child)) for child in below), default=0)
        height[id(node)] = inner + isinstance(node, ast.Expr)
        if height[id(node)] > MAX_EXPRESSION:
            raise error_at(GdlRuleError, "expression nested too deeply: more than "
                           f"{MAX_EXPRESSION} operations inside one another (give parts "
                           "of it names: a let, a fn)", node.span)


def _block(statements: Iterable[ast.Stmt], blocks: int, loops: int) -> None:
    """Check a block `blocks` deep inside `loops` loops."""
    for statement in statements:
        if isinstance(statement, ast.If):
            _deeper(statement, blocks, loops)
            _block(statement.then, blocks + 1, loops)
            _block(statement.otherwise, blocks + 1, loops)
        elif isinstance(statement, ast.For):
            _deeper(statement, blocks, loops + 1)
            _block(statement.body, blocks + 1, loops + 1)


def _deeper(statement: ast.Stmt, blocks: int, loops: int) -> None:
    if loops > MAX_LOOPS:
        raise error_at(GdlRuleError, f"loops nested too deeply: more than {MAX_LOOPS} 'for' "
                       "loops inside one another", statement.span)
    if blocks >= MAX_BLOCKS:
        raise error_at(GdlRuleError, f"blocks nested too deeply: more than {MAX_BLOCKS} "
                       "blocks inside one another", statement.span)
