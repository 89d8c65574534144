"""Node classes of the AST and the resolved program (`language/tree.py`, `ast.py`,
`program.py`): attrs frozen classes on the `Node` base, equality without spans, and the one
generic child traversal."""

import copy
import pickle

import attrs
import pytest

from gdl.interpreter.language import ast, tree
from gdl.interpreter.language import program as ir

SPAN = ast.Span("a.gdl", 3, 5, 3, 9, ("", "", "    x + 1"))
OTHER_SPAN = ast.Span("b.gdl", 1, 1)


def node_classes(module):
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, tree.Node)
            and value.__module__ == module.__name__]


def test_equality_and_hash_ignore_the_span():
    here = ast.Binary("+", ast.Name("x", span=SPAN), ast.Number(1), span=SPAN)
    there = ast.Binary("+", ast.Name("x"), ast.Number(1, span=OTHER_SPAN), span=OTHER_SPAN)
    assert here == there and not here != there
    assert hash(here) == hash(there)
    assert len({here, there}) == 1


def test_equality_compares_class_and_fields():
    assert ast.Number(1) != ast.Number(2)
    assert ast.Not(ast.Name("x")) != ast.Neg(ast.Name("x"))    # same fields, other class
    assert ast.Number(1) != 1


def test_a_resolved_expression_compares_its_type_but_not_its_span():
    assert ir.Const(3, type="int", span=SPAN) == ir.Const(3, type="int")
    assert ir.Const(3, type="int") != ir.Const(3, type="seat")


def test_a_frozen_node_cannot_change():
    number = ast.Number(1, span=SPAN)
    for change in (lambda: setattr(number, "value", 2), lambda: setattr(number, "span", None),
                   lambda: delattr(number, "value"), lambda: setattr(number, "extra", 1)):
        with pytest.raises(AttributeError):
            change()
    assert number.value == 1 and number.span is SPAN


def test_arguments_positional_keyword_and_default():
    assert ast.Number(value=4) == ast.Number(4)
    assert ast.Span("f", 1, 2) == ast.Span(file="f", line=1, column=2, end_line=0, end_column=0)
    assert ast.PhaseDecl("p", (), None, (), (), ()).on_resume == ()
    assert ir.Const(value=1, type="int").type == "int"
    assert ast.Number(1).span is None


@pytest.mark.parametrize("make", [
    lambda: ast.Number(),                    # a field missing
    lambda: ast.Number(1, 2),                # one too many
    lambda: ast.Number(1, spam=2),           # no such field
    lambda: ast.Number(1, value=2),          # given twice
    lambda: ir.Const(1),                     # the keyword-only type missing
    lambda: ir.Const(1, "int"),              # ... given positionally
], ids=["missing", "too-many", "unknown", "twice", "keyword-missing", "keyword-positional"])
def test_wrong_arguments_are_a_type_error(make):
    with pytest.raises(TypeError):
        make()


def test_repr_shows_the_fields_but_not_the_span():
    assert repr(ast.Binary("+", ast.Number(1, span=SPAN), ast.Name("x"), span=SPAN)) == \
        "Binary(op='+', left=Number(value=1), right=Name(name='x'))"
    assert repr(ir.Const(3, type="int", span=SPAN)) == "Const(type='int', value=3)"
    assert repr(SPAN) == "Span(file='a.gdl', line=3, column=5, end_line=3, end_column=9)"


def test_pickle_and_copy_keep_every_field():
    node = ast.Binary("+", ast.Number(1, span=SPAN), ast.Name("x"), span=SPAN)
    for clone in (pickle.loads(pickle.dumps(node)), copy.deepcopy(node), copy.copy(node)):
        assert clone == node and clone.span == SPAN and clone.left.span == SPAN
        assert clone.span.lines == SPAN.lines


def test_a_mutable_record_changes_and_is_not_hashable():
    variable = ir.Variable("x", 0, "int", span=SPAN)
    rule = ir.Rule(("viewer",), ir.Const(True, type="bool"))
    variable.visible = rule
    assert variable == ir.Variable("x", 0, "int", rule, SPAN)
    with pytest.raises(TypeError):
        hash(variable)
    first, second = ir.Program(), ir.Program()
    first.seats.append("red")
    assert second.seats == [] and second.vars == {"global": {}, "seat": {}, "piece": {}}


@pytest.mark.parametrize("module", [ast, ir])
def test_every_node_class_is_a_frozen_slotted_node_with_a_keyword_only_span(module):
    classes = node_classes(module)
    assert len(classes) > 40
    for cls in classes:
        span = attrs.fields_dict(cls)["span"]
        assert span.kw_only and not span.eq and not span.repr, cls
        assert "span" not in cls.__match_args__, cls
        assert not hasattr(cls.__new__(cls), "__dict__"), cls     # slots


@pytest.mark.parametrize("module, bases", [
    (ast, (ast.Expr, ast.Stmt, ast.Decl)), (ir, (ir.Expr, ir.Stmt, ir.Place))])
def test_expressions_statements_and_declarations_have_their_base(module, bases):
    for cls in node_classes(module):
        if cls.__name__ in ("Number", "Binary", "Const", "Local", "CallBuiltin"):
            assert issubclass(cls, bases[0]), cls
        if cls.__name__ in ("If", "For", "Assign", "Goto"):
            assert issubclass(cls, bases[1]), cls
    assert issubclass(ast.PhaseDecl, ast.Decl) and issubclass(ir.LocalPlace, ir.Place)
    assert not issubclass(ast.Name, ast.Stmt) and not issubclass(ir.If, ir.Expr)


def test_children_are_the_nodes_below_in_field_order():
    left, right = ir.Const(1, type="int"), ir.Local(0, "me", type="seat")
    items = (ir.Const(2, type="int"), ir.Const(3, type="int"))
    assert list(ir.children(ir.Binary("+", left, right, type="int"))) == [left, right]
    assert list(ir.children(ir.ListOf(items, type=("list", "int")))) == list(items)
    assert list(ir.children(ir.Const((1, 2), type=("list", "int")))) == []
    assert list(ast.children(ast.Binary("+", ast.Number(1, span=SPAN), ast.Name("x")))) == [
        ast.Number(1), ast.Name("x")]


def test_walk_reaches_every_node_once_and_not_spans_or_types():
    inner = ast.Call("f", (ast.Number(1), ast.Name("y")))
    expr = ast.CondExpr(ast.Bool(True), inner, ast.NoneLit(), span=SPAN)
    found = list(ast.walk(expr))
    assert len(found) == 6 and found[0] is expr
    assert all(isinstance(n, tree.Node) for n in found)
    assert ast.Name("y") in found and ast.Number(1) in found
