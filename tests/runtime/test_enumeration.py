"""The compiled enumeration of legal actions (where-parts split by level, memoised,
domains filtered) must list exactly what a naive enumeration lists: every combination of
the binders' domains whose where-parts all hold, in the same order."""

import glob
import os

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError
from gdl.interpreter.play.agents.agents import RandomAgent

from tests.helpers import ROOT
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))


def compiled_phase(game, state):
    """The current phase as the engine compiled it, and `run(function)`, which runs a
    function on `state` as the engine runs rules. Private engine members, on purpose and only here: this
    test checks the generated listing against the generated domains and where-parts."""
    return game._phase_of(state), lambda function: game._evaluate(state, function)


def naive_legal(game, state):
    """Every combination of the binders' domains (each domain computed with the binders
    before it bound) whose where-parts all hold, tested with nothing skipped or memoised."""
    seat = game.current_player(state)
    phase, run = compiled_phase(game, state)
    frame_args = state.frames[-1]["args"]
    out = []

    def walk(compiled, bound, i):
        if i == len(compiled.binders):
            if all(cond(state, seat, *frame_args, *bound) for _, cond, _ in compiled.parts):
                out.append((compiled.index, tuple(bound)))
            return
        for value in list(compiled.domains[i](state, seat, *frame_args, *bound)):
            walk(compiled, bound[:i] + [value] + bound[i + 1:], i + 1)

    for compiled in phase.actions:
        run(lambda st, c=compiled: walk(c, [None] * len(c.binders), 0))
    return out


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_compiled_enumeration_matches_naive(path):
    game = load_game(path)
    for seed in range(3):
        state = game.new_state(seed)
        agents = [RandomAgent(seed * 7 + s) for s in range(len(game.seats))]
        while not game.is_terminal(state) and state.decisions < 150:
            legal = game.legal_actions(state)
            assert legal == naive_legal(game, state), (seed, state.decisions)
            game.apply(state, agents[game.current_player(state)].choose(game, state, legal))


@pytest.mark.parametrize("where", [
    "exists(y in [z] where y == x)",
    "[y for y in [z] where y == x] != []",
    "count(y in [z, x] where y == x) == 2",
])
def test_quantifier_variables_are_not_memoised(where):
    game = load_source(f"""
seats a, b
board square(3, 2)
setup {{ goto main for a }}
phase main {{
  action pick(x in [1, 2, 3], z in [1, 2, 3]) where {where} {{ goto main for next(me) }}
}}
""", "q.gdl")
    state = game.new_state(0)
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == [
        "pick 1 1", "pick 2 2", "pick 3 3"]


# ----- random where-clauses: the generated listing against the naive enumeration ------------

def _atom(r, depth, names):
    v = r.choice([n for n in names if n != "c"])
    w = r.choice([n for n in names if n != "c"])
    choice = r.randrange(12)
    if choice == 0:
        return f"{v}.hp > {r.randrange(3)}"
    if choice == 1:
        return f"{v}.owner == me"
    if choice == 2 and "c" in names:
        return f"distance({v}.cell, c) <= {r.randrange(3)}"
    if choice == 3 and depth < 2:
        return f"exists(z{depth} in pieces() where z{depth}.hp == {v}.hp and " \
               f"{_atom(r, depth + 1, names + [f'z{depth}'])})"
    if choice == 4 and depth < 2:
        return f"count(z{depth} in pieces() where z{depth}.owner == {v}.owner) > {r.randrange(3)}"
    if choice == 5:
        return f"near({v}, {r.choice(['@a1', '@b2'] + (['c'] if 'c' in names else []))})"
    if choice == 6:
        return f"{v}.kind == Pawn"
    if choice == 7 and depth < 2:
        return f"all(z{depth} in pieces({v}.owner) where z{depth} != {v}: " \
               f"{_atom(r, depth + 1, names + [f'z{depth}'])})"
    if choice == 8:
        return f"{v}.cell in [q2.cell for q2 in pieces() where q2.owner != {w}.owner]"
    if choice == 9:
        return f"sum(z in pieces({w}.owner): z.hp) >= {r.randrange(4)}"
    if choice == 10:
        return f"first(z in pieces() where z.hp > {v}.hp) != none"
    return f"{v}.hp + {w}.hp < {r.randrange(5)}"


def _where(r, depth, names):
    choice = r.randrange(4)
    if depth > 2 or choice == 0:
        return _atom(r, depth, names)
    a, b = _where(r, depth + 1, names), _where(r, depth + 1, names)
    return {1: f"({a} and {b})", 2: f"({a} or {b})", 3: f"not ({a})"}[choice]


def _random_program(seed):
    import random
    r = random.Random(seed)
    actions = []
    for i in range(4):
        parts = " and ".join(_where(r, 0, ["p", "q", "c"]) for _ in range(r.randrange(1, 4)))
        actions.append(f"  action a{i}(p in pieces(me), q in pieces(), c in cells()) "
                       f"where {parts} {{ moved = 1 }}")
        actions.append(f"  action b{i}(p in pieces(), q in pieces()) "
                       f"where {_where(r, 0, ['p', 'q'])} {{ moved = 1 }}")
    pieces = "\n".join(f"  create Pawn for {r.choice('ab')} at @{'abc'[r.randrange(3)]}"
                       f"{r.randrange(1, 4)}" for _ in range(4))
    body = "\n".join(actions)
    return f"""game "t"
seats a, b
board square(3, 3)
var piece.hp = 0
var moved = 0
kinds (speed) {{
  Pawn = 1
  Knight = 2
}}
fn near(p, c) = distance(p.cell, c) < 2
setup {{
{pieces}
  create Knight for b at @c3
  for x in pieces() {{ x.hp = roll(3) - 1 }}
  goto play for a
}}
phase play {{
{body}
}}
"""


@pytest.mark.parametrize("seed", range(40))
def test_random_where_clauses_list_what_a_naive_enumeration_lists(seed):
    """Nested and/or/not, quantifiers over the binders, inlined fns, memoised lists: the
    nested loops with memos and early tests must list exactly the naive combinations."""
    game = load_source(_random_program(seed), f"random{seed}.gdl")
    for dice in range(3):
        state = game.new_state(dice)
        assert game.legal_actions(state) == naive_legal(game, state), _random_program(seed)


# ----- a loop whose first test is membership of a set the outer binders decide ---------------

_MEMBERS = """
seats a, b
board square(4, 1)
var zero = 0
var items = [@a1]
fn targets() = [c for c in [@a1, @c1] where 1 / zero == 1]
setup {{ items = {items}  goto main for a }}
phase main {{
  action pick(c in items) where c in targets() {{ goto main for next(me) }}
  action hop(c in neighbors(@b1)) where c in [@a1, @d1] {{ goto main for next(me) }}
}}
"""


def test_a_domain_sharing_no_member_lists_nothing_and_reads_no_set():
    """`c in S` first: a domain with none of S's members is skipped whole (codegen
    `members_lead`); with no item the set is never computed, so its fault never comes."""
    game = load_source(_MEMBERS.format(items="[]"), "members.gdl")
    state = game.new_state(0)
    assert [game.action_text(state, a) for a in game.legal_actions(state)] == ["hop a1"]


def test_the_members_set_faults_where_the_rule_reads_it():
    game = load_source(_MEMBERS.format(items="[@b1]"), "members.gdl")
    with pytest.raises(GdlRuntimeError) as fault:
        game.legal_actions(game.new_state(0))
    assert "members.gdl:6:" in str(fault.value) and "zero" in str(fault.value)
