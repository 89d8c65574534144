"""Compiler: a `Checked` program -> Python closures the engine runs.

Every expression becomes `f(env) -> value` and every statement `f(env) -> None`, built
once; `env` is a list of local slots (slot 0 is `me`) whose indices the checker chose. The
closures reach the running state through the engine's `Runtime` (`rt.state`), so nothing
walks the AST while a game is played.
"""

from __future__ import annotations

from . import ast
from .builtins import BUILTINS
from .types import STR, format_value


class StopMove(Exception):
    """Raised by `stop` inside an `on enter` trigger: the moving piece stops here."""


class CompiledAction:
    """One action schema of a phase: its binders, where-conditions by level, and body."""

    def __init__(self, index, decl, arg_types, enumerate_fn, domains, where_parts, body, slots):
        self.index = index
        self.name = decl.name
        self.arg_types = arg_types
        self.enumerate = enumerate_fn   # (env, out) -> appends (index, args)
        self.binders = [(b.name, b.domain.span.text if b.domain.span else "?", domain)
                        for b, domain in zip(decl.binders, domains)]
        self.where_parts = where_parts  # [(source text, closure, level)] in source order
        self.body = body
        self.slots = slots
        self.span = decl.span


class CompiledPhase:
    def __init__(self, name, mode, nparams, enter, reveal, actions, slots, resume):
        self.resume = resume
        self.name = name
        self.mode = mode
        self.nparams = nparams
        self.enter = enter
        self.reveal = reveal
        self.actions = actions
        self.slots = slots


class Compiler:
    def __init__(self, checked, rt):
        self.c = checked
        self.rt = rt
        self.fn_cache = {}
        self._hoist = None
        self._impure_fns = None

    # ----- program ----------------------------------------------------------------------
    def compile_program(self):
        c = self.c
        phases = {name: self.phase(decl) for name, decl in c.phases.items()}
        setup = (self.block(c.setup), c.slots[id(c.setup_node)])
        triggers = [(self.expr(t.where) if t.where is not None else None, self.block(t.body),
                     c.slots[id(t)]) for t in c.triggers]
        end_rules = [(r.kind, self.expr(r.expr), c.slots[id(r)]) for r in c.end_rules]
        self.rt.out_hooks = [(self.block(h.body), c.slots[id(h)]) for h in c.outs]
        visibility = {}
        for scope, table in c.vars.items():
            for name, (_, _, decl) in table.items():
                if decl.visible is not None:
                    visibility[(scope, name)] = (self.expr(decl.visible), c.slots[id(decl)])
        shows = {what: (self.expr(d.expr), c.slots[id(d)]) for what, d in c.shows.items()}
        shows.update({"hide " + what: (self.expr(d.expr), c.slots[id(d)])
                      for what, d in c.hides.items()})
        return phases, setup, triggers, end_rules, visibility, shows

    def phase(self, decl):
        slots = self.c.slots[id(decl)]
        actions = [self.action(i, a, len(decl.params)) for i, a in enumerate(decl.actions)]
        return CompiledPhase(decl.name, decl.mode, len(decl.params), self.block(decl.on_enter),
                             self.block(decl.on_reveal), actions, slots,
                             self.block(decl.on_resume))

    def action(self, index, decl, nparams):
        binder_slots = list(range(1 + nparams, 1 + nparams + len(decl.binders)))
        domains = [self.expr(b.domain) for b in decl.binders]
        plain_domains = list(domains)      # unfiltered, to explain an illegal action
        arg_types = [_element(self.c.types[id(b.domain)]) for b in decl.binders]
        conjuncts = _conjuncts(decl.where)
        levels = [[] for _ in range(len(decl.binders) + 1)]
        where_parts = []
        slots = self.c.slots[id(decl)]

        def level_of(node):
            used = self._locals(node)
            return max([binder_slots.index(s) + 1 for s in used if s in binder_slots],
                       default=0)
        for conj in conjuncts:
            level = level_of(conj)
            where_parts.append((conj.span.text if conj.span else "?", self.expr(conj), level))
            # The enumerating copy memoises sub-expressions that depend only on outer
            # binders: computed once per outer binding, on first use (see `_memo`).
            self._hoist = hoist = _Hoist(level_of, level, slots, self._bound_inside(conj))
            try:
                if not self._domain_filter(conj, level, binder_slots, domains, hoist):
                    levels[level].append(self.expr(conj))
            finally:
                self._hoist = None
            slots = hoist.slots
            for reset_level, reset in hoist.resets:
                levels[reset_level].insert(0, reset)
        tests = [_all_of(fs) for fs in levels]
        enumerate_fn = _enumerator(index, domains, binder_slots, tests)
        return CompiledAction(index, decl, arg_types, enumerate_fn, plain_domains, where_parts,
                              self.block(decl.body), slots)

    def _domain_filter(self, conj, level, binder_slots, domains, hoist):
        """`x in S` (or `not in`) on the binder bound at this level, with S fixed for the
        outer binders: filter the binder's domain by S, computed once per outer binding."""
        if not isinstance(conj, ast.In) or not isinstance(conj.item, ast.Name) or level == 0:
            return False
        resolved = self.c.names.get(id(conj.item))
        if resolved != ("local", binder_slots[level - 1]):
            return False
        collection_level = hoist.level_of(conj.collection)
        if collection_level >= level or not self._hoistable(conj.collection, hoist):
            return False
        members = self._memo(conj.collection, collection_level, hoist, convert=_as_set)
        domain = domains[level - 1]
        if conj.negated:
            def filtered(env):
                excluded = members(env)
                return [v for v in domain(env) if v not in excluded]
        else:
            def filtered(env):
                allowed = members(env)
                return [v for v in domain(env) if v in allowed]
        domains[level - 1] = filtered
        return True

    def _locals(self, expr):
        """Local slots an expression reads (to test a where-part as early as possible)."""
        found = set()
        stack = [expr]
        while stack:
            node = stack.pop()
            resolved = self.c.names.get(id(node))
            if isinstance(node, ast.Name) and resolved and resolved[0] == "local":
                found.add(resolved[1])
            if isinstance(node, ast.Call) and resolved and resolved[0] == "fn":
                found.add(0)
            for value in _children(node):
                stack.append(value)
        return found

    # ----- statements -------------------------------------------------------------------
    def block(self, statements):
        fs = tuple(self.stmt(s) for s in statements)
        if not fs:
            return lambda env: None
        if len(fs) == 1:
            return fs[0]
        if len(fs) == 2:
            f1, f2 = fs

            def run2(env):
                f1(env)
                f2(env)
            return run2

        def run(env):
            for f in fs:
                f(env)
        return run

    def stmt(self, node):
        return getattr(self, "stmt_" + type(node).__name__)(node)

    def stmt_Assign(self, node):
        rt = self.rt
        value = self.expr(node.expr)
        get_container, key = self._place(node.target)
        op = node.op
        until = self.expr(node.until) if node.until is not None else None
        place_of = self._timer_place(node.target)

        def assign(env):
            container = get_container(env)
            new = value(env)
            if until is not None:
                rt.add_timer(until(env), place_of(env), container[key])
            if op == "=":
                container[key] = new
            elif op == "+=":
                container[key] += new
            else:
                container[key] -= new
        return assign

    def _place(self, target):
        """(env -> dict or list holding the value, key) for an assignment target."""
        resolved = self.c.names[id(target)]
        rt = self.rt
        if resolved[0] == "local":
            return (lambda env: env), resolved[1]
        if resolved[0] == "global":
            return (lambda env: rt.state.globals), resolved[1]
        _, obj_node, field = resolved
        obj = self.expr(obj_node)
        if resolved[0] == "piece":
            return (lambda env: rt.state.pieces[obj(env)]), field
        return (lambda env: rt.state.seat_vars[obj(env)]), field

    def _timer_place(self, target):
        resolved = self.c.names[id(target)]
        if resolved[0] == "global":
            return lambda env: ["g", resolved[1]]
        if resolved[0] in ("piece", "seat"):
            obj = self.expr(resolved[1])
            tag = resolved[0][0]
            return lambda env: [tag, obj(env), resolved[2]]
        return lambda env: None

    def stmt_CallStmt(self, node):
        decl = self.c.defs[node.name]
        args = [self.expr(a) for a in node.args]
        slots = self.c.slots[id(decl)]
        body = self._def_body(decl)

        def call(env):
            inner = [env[0]] + [a(env) for a in args] + [None] * (slots - 1 - len(args))
            body[0](inner)
        return call

    def _def_body(self, decl):
        """Bodies are compiled once and shared; a holder allows recursive procedures."""
        key = ("def", decl.name)
        if key not in self.fn_cache:
            holder = [None]
            self.fn_cache[key] = holder
            holder[0] = self.block(decl.body)
        return self.fn_cache[key]

    def stmt_If(self, node):
        cond, then, otherwise = self.expr(node.cond), self.block(node.then), \
            self.block(node.otherwise)

        def run_if(env):
            if cond(env):
                then(env)
            else:
                otherwise(env)
        return run_if

    def stmt_For(self, node):
        domain = self.expr(node.domain)
        slot = self.c.names[id(node)][1]
        where = self.expr(node.where) if node.where is not None else None
        body = self.block(node.body)

        def run_for(env):
            for value in list(domain(env)):
                env[slot] = value
                if where is None or where(env):
                    body(env)
        return run_for

    def stmt_Let(self, node):
        value = self.expr(node.expr)
        slot = self.c.names[id(node)][1]

        def let(env):
            env[slot] = value(env)
        return let

    def stmt_Move(self, node):
        piece, path, rt = self.expr(node.piece), self.expr(node.path), self.rt
        return lambda env: rt.move_along(env[0], piece(env), path(env))

    def stmt_Place(self, node):
        piece, cell, rt = self.expr(node.piece), self.expr(node.cell), self.rt
        return lambda env: rt.place(piece(env), cell(env))

    def stmt_Give(self, node):
        piece, seat, rt = self.expr(node.piece), self.expr(node.seat), self.rt

        def give(env):
            rt.state.pieces[piece(env)]["owner"] = seat(env)
        return give

    def stmt_Remove(self, node):
        piece, rt = self.expr(node.piece), self.rt
        return lambda env: rt.remove(piece(env))

    def stmt_Create(self, node):
        owner, cell, rt, kind = self.expr(node.owner), self.expr(node.cell), self.rt, \
            self.expr(node.kind)
        return lambda env: rt.create(kind(env), owner(env), cell(env))

    def stmt_Goto(self, node):
        args = [self.expr(a) for a in node.args]
        seat, rt, name, push = self.expr(node.seat), self.rt, node.phase, node.push
        return lambda env: rt.enter_phase(name, [a(env) for a in args], seat(env), push)

    def stmt_Return(self, node):
        rt = self.rt
        return lambda env: rt.pop_phase()

    def stmt_Stop(self, node):
        def stop(env):
            raise StopMove()
        return stop

    def stmt_Win(self, node):
        seat, rt = self.expr(node.seat), self.rt
        return lambda env: rt.declare_winners([seat(env)])

    def stmt_Lose(self, node):
        seat, rt = self.expr(node.seat), self.rt
        return lambda env: rt.eliminate(seat(env))

    def stmt_Draw(self, node):
        rt = self.rt
        return lambda env: rt.declare_winners([])

    def stmt_Log(self, node):
        text, rt = self._text_of(node.expr), self.rt
        return lambda env: rt.state.events.append(["log", text(env)])

    def stmt_Shuffle(self, node):
        get_container, key = self._place(node.target)
        rt = self.rt

        def shuffle(env):
            container = get_container(env)
            container[key] = rt.shuffled(container[key])
        return shuffle

    # ----- expressions ------------------------------------------------------------------
    def expr(self, node):
        known, value = self.constant(node)
        if known:
            return lambda env: value
        hoist = self._hoist
        if hoist is not None and not _cheap(node) and self._hoistable(node, hoist):
            level = hoist.level_of(node)
            if level < hoist.level:
                return self._memo(node, level, hoist)
        return getattr(self, "expr_" + type(node).__name__)(node)

    def _hoistable(self, node, hoist):
        """Pure, and reading no variable that an enclosing quantifier or comprehension of
        the same where-part binds (that value changes inside the where-part)."""
        if not self._pure(node):
            return False
        outside = self._locals(node) - self._bound_inside(node)
        return not (outside & hoist.bound)

    def _bound_inside(self, node):
        return {self.c.names[id(n)][1] for n in _walk_expr(node)
                if isinstance(n, (ast.Quant, ast.Comprehension))}

    def _memo(self, node, level, hoist, convert=None):
        """Compile `node` to be computed at most once per binding of the binders it uses
        (lazily, so it runs only where the unhoisted code would have run)."""
        slot = hoist.slots
        hoist.slots += 1
        outer, hoist.level = hoist.level, level
        try:
            inner = getattr(self, "expr_" + type(node).__name__)(node)
        finally:
            hoist.level = outer
        hoist.resets.append((level, _resetter(slot)))
        return _memoised(inner, slot, convert)

    def _pure(self, node):
        """No dice, shuffles or random picks inside (directly or through a fn)."""
        if self._impure_fns is None:
            self._impure_fns = _impure_functions(self.c.fns)
        for child in _walk_expr(node):
            if isinstance(child, ast.Call) and (child.name in _RANDOM
                                                or child.name in self._impure_fns):
                return False
        return True

    def constant(self, node):
        """(True, value) when `node` has the same value in every game (folded once)."""
        if isinstance(node, (ast.Number, ast.String, ast.Bool)):
            return True, node.value
        if isinstance(node, ast.NoneLit):
            return True, None
        if isinstance(node, (ast.CellLit, ast.Name)):
            resolved = self.c.names.get(id(node))
            if resolved and resolved[0] == "const":
                value = resolved[1]
                return True, tuple(value) if isinstance(value, list) else value
            return False, None
        if isinstance(node, ast.ListExpr):
            parts = [self.constant(i) for i in node.items]
            if all(known for known, _ in parts):
                return True, tuple(v for _, v in parts)
        if isinstance(node, ast.Binary) and node.op in "+-*":
            (ka, a), (kb, b) = self.constant(node.left), self.constant(node.right)
            if ka and kb:
                if isinstance(a, tuple):
                    return True, a + tuple(b)
                return True, {"+": a + b,
                              "-": a - b if isinstance(a, int) else None,
                              "*": a * b if isinstance(a, int) else None}[node.op]
        return False, None

    def _text_of(self, node):
        value, t, rt = self.expr(node), self.c.types[id(node)], self.rt
        if t == STR:
            return value
        return lambda env: format_value(value(env), t, rt)

    def expr_Number(self, node):
        v = node.value
        return lambda env: v

    expr_String = expr_Bool = expr_Number

    def expr_NoneLit(self, node):
        return lambda env: None

    def expr_CellLit(self, node):
        v = self.c.names[id(node)][1]
        return lambda env: v

    def expr_Name(self, node):
        resolved = self.c.names[id(node)]
        kind, rt = resolved[0], self.rt
        if kind == "local":
            slot = resolved[1]
            return lambda env: env[slot]
        if kind == "const":
            v = resolved[1]
            if isinstance(v, list):
                v = tuple(v)
            return lambda env: v
        if kind == "global":
            name = resolved[1]
            return lambda env: rt.state.globals[name]
        if kind == "current":
            return lambda env: rt.state.current
        if kind == "deciding":
            return lambda env: rt.state.frames[-1][1] if rt.state.frames else None
        if kind == "current_phase":
            return lambda env: rt.state.frames[-1][0] if rt.state.frames else ""
        if kind == "turn_number":
            return lambda env: rt.state.turn
        return lambda env: rt.live_seats()

    def expr_ListExpr(self, node):
        items = [self.expr(i) for i in node.items]
        return lambda env: [f(env) for f in items]

    def expr_Comprehension(self, node):
        domain, value = self.expr(node.domain), self.expr(node.expr)
        where = self.expr(node.where) if node.where is not None else _true
        return _values(domain, where, value, self.c.names[id(node)][1])

    def expr_Quant(self, node):
        domain = self.expr(node.domain)
        where = self.expr(node.where) if node.where is not None else _true
        value = self.expr(node.value) if node.value is not None else None
        slot = self.c.names[id(node)][1]
        return _QUANTS[node.op](domain, where, value, slot)

    def expr_Field(self, node):
        obj, rt = self.expr(node.obj), self.rt
        kind, name = self.c.names[id(node)][0], node.name
        if kind in ("piece_prop", "piece_var"):
            return lambda env: rt.state.pieces[obj(env)][name]
        if kind == "piece_stat":
            kinds = rt.kinds
            return lambda env: kinds[rt.state.pieces[obj(env)]["kind"]][name]
        if kind == "seat_var":
            return lambda env: rt.state.seat_vars[obj(env)][name]
        kinds = rt.kinds
        return lambda env: kinds[obj(env)][name]

    def expr_Call(self, node):
        resolved = self.c.names[id(node)]
        args = [self.expr(a) for a in node.args]
        rt = self.rt
        if resolved[0] == "fn":
            decl = self.c.fns[node.name]
            slots = self.c.slots[id(decl)]
            key = ("fn", node.name)
            if key not in self.fn_cache:
                holder = [None]
                self.fn_cache[key] = holder
                outer, self._hoist = self._hoist, None    # a fn body has its own slots
                try:
                    holder[0] = self.expr(decl.expr)
                finally:
                    self._hoist = outer
            body = self.fn_cache[key]
            pad = [None] * (slots - 1 - len(args))
            if len(args) == 1:
                a0 = args[0]
                return lambda env: body[0]([env[0], a0(env)] + pad)
            return lambda env: body[0]([env[0]] + [a(env) for a in args] + pad)
        if node.name == "text":
            return self._text_of(node.args[0])
        if node.name == "roll":
            sides = args[0]
            count = args[1] if len(args) > 1 else (lambda env: 1)

            def roll(env):
                n, k = sides(env), count(env)
                if n < 1 or k < 0:
                    raise _located(f"cannot roll {k} dice of {n} sides", node)
                return sum(rt.roll(n) for _ in range(k))
            return roll
        impl = BUILTINS[node.name].impl
        if len(args) == 0:
            return lambda env: impl(rt)
        if len(args) == 1:
            a0 = args[0]
            return lambda env: impl(rt, a0(env))
        if len(args) == 2:
            a0, a1 = args
            return lambda env: impl(rt, a0(env), a1(env))
        if len(args) == 3:
            a0, a1, a2 = args
            return lambda env: impl(rt, a0(env), a1(env), a2(env))
        return lambda env: impl(rt, *[a(env) for a in args])

    def expr_Binary(self, node):
        a, b, op = self.expr(node.left), self.expr(node.right), node.op
        ta = self.c.types[id(node.left)]
        if op == "+":
            if isinstance(ta, tuple):
                return lambda env: list(a(env)) + list(b(env))
            return lambda env: a(env) + b(env)
        if op == "-":
            return lambda env: a(env) - b(env)
        if op == "*":
            return lambda env: a(env) * b(env)
        rt = self.rt
        if op == "/":
            return lambda env: rt.divide(a(env), b(env), node)
        return lambda env: rt.modulo(a(env), b(env), node)

    def expr_Neg(self, node):
        a = self.expr(node.operand)
        return lambda env: -a(env)

    def expr_Compare(self, node):
        a, b = self.expr(node.left), self.expr(node.right)
        if isinstance(self.c.types[id(node.left)], tuple) or \
                isinstance(self.c.types[id(node.right)], tuple):
            same = lambda env: _plain(a(env)) == _plain(b(env))   # tuples and lists alike
            if node.op == "==":
                return same
            return lambda env: not same(env)
        return {
            "==": lambda env: a(env) == b(env),
            "!=": lambda env: a(env) != b(env),
            "<": lambda env: a(env) < b(env),
            "<=": lambda env: a(env) <= b(env),
            ">": lambda env: a(env) > b(env),
            ">=": lambda env: a(env) >= b(env),
        }[node.op]

    def expr_In(self, node):
        hoist = self._hoist
        if hoist is not None and not _cheap(node.collection) \
                and self._hoistable(node.collection, hoist) \
                and hoist.level_of(node.collection) < hoist.level:
            item = self.expr(node.item)
            members = self._memo(node.collection, hoist.level_of(node.collection), hoist,
                                 convert=_as_set)
            if node.negated:
                return lambda env: item(env) not in members(env)
            return lambda env: item(env) in members(env)
        item, collection = self.expr(node.item), self.expr(node.collection)
        if isinstance(self.c.types[id(node.item)], tuple):           # a list in a list
            negated = node.negated
            return lambda env: (_plain(item(env)) in _plain(collection(env))) != negated
        known, values = self.constant(node.collection)
        if known and all(isinstance(v, (int, str, bool, type(None))) for v in values):
            members = frozenset(values)
            if node.negated:
                return lambda env: item(env) not in members
            return lambda env: item(env) in members
        if node.negated:
            return lambda env: item(env) not in collection(env)
        return lambda env: item(env) in collection(env)

    def expr_And(self, node):
        a, b = self.expr(node.left), self.expr(node.right)
        return lambda env: a(env) and b(env)

    def expr_Or(self, node):
        a, b = self.expr(node.left), self.expr(node.right)
        return lambda env: a(env) or b(env)

    def expr_Not(self, node):
        a = self.expr(node.operand)
        return lambda env: not a(env)

    def expr_CondExpr(self, node):
        cond, a, b = self.expr(node.cond), self.expr(node.then), self.expr(node.otherwise)
        return lambda env: a(env) if cond(env) else b(env)


def _plain(value):
    """Tuples (constants) and lists (built during play) as one comparable form."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _located(message, node):
    from .errors import GdlError
    span = node.span
    return GdlError(f"run-time error: {message}", file=span.file, line=span.line,
                    column=span.column, source_line=span.source_line)


def _true(env):
    return True


def _count(domain, where, value, slot):
    def count(env):
        n = 0
        for item in domain(env):
            env[slot] = item
            if where(env):
                n += 1
        return n
    return count


def _exists(domain, where, value, slot):
    def exists(env):
        for item in domain(env):
            env[slot] = item
            if where(env):
                return True
        return False
    return exists


def _all(domain, where, value, slot):
    def every(env):
        for item in domain(env):
            env[slot] = item
            if where(env) and not value(env):
                return False
        return True
    return every


def _values(domain, where, value, slot):
    def values(env):
        out = []
        for item in domain(env):
            env[slot] = item
            if where(env):
                out.append(value(env))
        return out
    return values


def _sum(domain, where, value, slot):
    values = _values(domain, where, value, slot)
    return lambda env: sum(values(env))


def _min_of(domain, where, value, slot):
    values = _values(domain, where, value, slot)
    return lambda env: min(values(env), default=0)


def _max_of(domain, where, value, slot):
    values = _values(domain, where, value, slot)
    return lambda env: max(values(env), default=0)


def _sorted(domain, where, value, slot):
    def ordered(env):
        keyed = []
        for item in domain(env):
            env[slot] = item
            if where(env):
                keyed.append((value(env), len(keyed), item))
        keyed.sort(key=lambda entry: entry[:2])
        return [item for _, _, item in keyed]
    return ordered


def _first(domain, where, value, slot):
    def first(env):
        for item in domain(env):
            env[slot] = item
            if where(env):
                return value(env) if value is not None else item
        return None
    return first


_QUANTS = {"count": _count, "exists": _exists, "all": _all, "sum": _sum, "min_of": _min_of,
           "max_of": _max_of, "first": _first, "sorted": _sorted}


def _element(t):
    return t[1] if isinstance(t, tuple) else t


def _conjuncts(expr):
    if expr is None:
        return []
    if isinstance(expr, ast.And):
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _all_of(fs):
    if not fs:
        return None
    if len(fs) == 1:
        return fs[0]
    fs = tuple(fs)
    return lambda env: all(f(env) for f in fs)


class _Hoist:
    """Book-keeping while compiling one where-part for enumeration: the level (number of
    binders bound) it runs at, spare slots for memoised values, and their resets."""

    def __init__(self, level_of, level, slots, bound):
        self.level_of = level_of
        self.level = level
        self.slots = slots
        self.resets = []
        self.bound = bound      # slots the where-part binds itself (quantifiers, lists)


_UNSET = object()
_RANDOM = {"roll", "pick", "shuffled"}


def _resetter(slot):
    def reset(env):
        env[slot] = _UNSET
        return True
    return reset


def _memoised(inner, slot, convert):
    if convert is None:
        def memo(env):
            value = env[slot]
            if value is _UNSET:
                value = env[slot] = inner(env)
            return value
    else:
        def memo(env):
            value = env[slot]
            if value is _UNSET:
                value = env[slot] = convert(inner(env))
            return value
    return memo


def _as_set(values):
    try:
        return frozenset(values)
    except TypeError:
        return list(values)


def _cheap(node):
    if isinstance(node, (ast.Name, ast.Number, ast.String, ast.Bool, ast.NoneLit,
                         ast.CellLit)):
        return True
    return isinstance(node, ast.Field) and isinstance(node.obj, ast.Name)


def _walk_expr(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(_children(current))


def _impure_functions(fns):
    """Names of user fns that roll dice or shuffle, directly or through other fns."""
    impure = set()
    changed = True
    while changed:
        changed = False
        for name, decl in fns.items():
            if name in impure:
                continue
            if any(isinstance(n, ast.Call) and (n.name in _RANDOM or n.name in impure)
                   for n in _walk_expr(decl.expr)):
                impure.add(name)
                changed = True
    return impure


def _enumerator(index, domains, slots, tests):
    """Build (env, out) -> None that appends every legal (index, args) of one action."""
    pre = tests[0]
    arg_slots = tuple(slots)

    if len(arg_slots) == 0:
        def emit(env, out):
            out.append((index, ()))
    elif len(arg_slots) == 1:
        (a,) = arg_slots

        def emit(env, out):
            out.append((index, (env[a],)))
    elif len(arg_slots) == 2:
        a, b = arg_slots

        def emit(env, out):
            out.append((index, (env[a], env[b])))
    else:
        def emit(env, out):
            out.append((index, tuple(env[s] for s in arg_slots)))

    step = emit
    for level in range(len(domains) - 1, -1, -1):
        step = _level(domains[level], slots[level], tests[level + 1], step)

    def enumerate_fn(env, out):
        if pre is None or pre(env):
            step(env, out)
    return enumerate_fn


def _level(domain, slot, test, inner):
    if test is None:
        def level(env, out):
            for value in domain(env):
                env[slot] = value
                inner(env, out)
    else:
        def level(env, out):
            for value in domain(env):
                env[slot] = value
                if test(env):
                    inner(env, out)
    return level


def _children(node):
    for name in getattr(type(node), "__attrs_attrs__", ()):
        if name.name == "span":
            continue
        value = getattr(node, name.name)
        if isinstance(value, tuple):
            for item in value:
                if hasattr(type(item), "__attrs_attrs__"):
                    yield item
        elif hasattr(type(value), "__attrs_attrs__"):
            yield value

