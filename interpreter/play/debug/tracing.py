"""Which rules ran: a trace of the generated code, mapped back to rule-file nodes and lines.

`RuleTrace` is a `with` block during which Python's line tracer (`sys.settrace`, on every
Python version) counts how often each line of generated rule code runs, how often each
generated function is called, and how often each end rule held (returned true). Outside
the block nothing is traced, so normal play pays nothing. Load the games in the block: their
code then calls every fn it calls (`codegen.calling_every_fn`), so a fn is counted when it
runs, never for a line that could have called it. Afterwards:

    trace.node_runs()     node key -> runs: a resolved-program node (by its place) ran as
                          often as the most-run generated line holding its code
    trace.unit_calls()    (code file, unit key (introspect.code_units)) -> calls
    trace.end_holds()     (code file, end-rule index) -> times it held
    trace.line_runs()     (rule file, line) -> runs: the most-run node starting there
    trace.sources         rule file -> its lines (after node_runs or line_runs)

A line of generated code runs as a whole: the parts of it that `and`, `or` or `if ... then`
skipped are not told apart (the granularity of a line, as coverage.py's without branches).
"""

from __future__ import annotations

import collections
import os
import sys

from ...runtime import codegen, introspect, native


def node_key(node):
    """A node by its place in the rule files (equal nodes at two places are two nodes)."""
    span = node.span
    return (type(node).__name__, span.file, span.line, span.column, span.end_line,
            span.end_column)


class RuleTrace:
    """Counts what the rules' generated code does while the `with` block runs."""

    def __init__(self):
        self.lines = collections.Counter()      # (code file, line) -> runs
        self.calls = collections.Counter()      # (code file, code object) -> calls
        self.held = collections.Counter()       # the same of an end rule -> times it held
        self.games = {}                         # code file -> a game that runs it
        self.sources = {}                       # rule file -> its lines (node_runs)
        # Keyed by (code file, code object): Python's code objects compare equal without
        # their file, so a variant's function that reads as its base's would be the base's.
        self._units = {}                        # generated code -> unit key
        self._foreign = set()                   # code that is not the rules'
        self._previous = None
        self._backend = None                    # GDL_BACKEND before the block

    def __enter__(self):
        # Compiled rules have no lines to trace: games loaded in the block run on Python,
        # whatever GDL_BACKEND asks (runtime/native.py).
        self._backend = os.environ.get(native.ENVIRONMENT)
        os.environ[native.ENVIRONMENT] = "python"
        # Games loaded in the block call every fn they call, so a fn runs exactly when it
        # is called (codegen.calling_every_fn); games loaded before keep their code.
        self._every_call = codegen.calling_every_fn()
        self._every_call.__enter__()
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._previous)
        self._every_call.__exit__(None, None, None)
        if self._backend is None:
            os.environ.pop(native.ENVIRONMENT, None)
        else:
            os.environ[native.ENVIRONMENT] = self._backend

    def _call(self, frame, event, arg):
        """A call: traced line by line when it runs the rules (not when a generated
        module is first run, defining them)."""
        code = frame.f_code
        key = code.co_filename, code
        if key in self._foreign:
            return None
        if key not in self._units:
            if not introspect.is_generated(code.co_filename) or code.co_name == "<module>":
                self._foreign.add(key)
                return None
            self._learn(introspect.game_of_code(frame), key)
        self.calls[key] += 1
        return self._line

    def _learn(self, game, key):
        units = introspect.code_units(game)
        self._units.update(((c.co_filename, c), unit) for c, unit in units.items())
        self._units.setdefault(key, None)       # an expression of a tool, not a unit
        self.games.setdefault(key[0], game)

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines[frame.f_code.co_filename, frame.f_lineno] += 1
        elif event == "return" and arg is True:
            self.held[frame.f_code.co_filename, frame.f_code] += 1
        return self._line

    # ----- what ran ---------------------------------------------------------------------
    def node_runs(self):
        runs = {}
        for (filename, line), count in self.lines.items():
            game = self.games.get(filename)
            if game is None:
                continue
            for node in introspect.rule_nodes(game, filename, line):
                key = node_key(node)
                self.sources.setdefault(node.span.file, node.span.lines)
                if runs.get(key, 0) < count:
                    runs[key] = count
        return runs

    def unit_calls(self):
        calls = collections.Counter()
        for code, count in self.calls.items():
            key = self._units.get(code)
            if key is not None:
                calls[code[0], key] += count
        return calls

    def end_holds(self):
        holds = collections.Counter()
        for code, count in self.held.items():
            key = self._units.get(code)
            if key is not None and key.kind == "end":
                holds[code[0], key.position] += count
        return holds

    def line_runs(self):
        runs = {}
        for (_, file, line, *_), count in self.node_runs().items():
            if runs.get((file, line), 0) < count:
                runs[file, line] = count
        return runs
