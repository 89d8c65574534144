"""The limits on the work a rule file may ask for: named here, documented in
docs/language.md ("Limits"), and far above what the shipped games use (measured there).

A rule file can describe work without end (`range(1, 10**30)`, a setup that creates pieces
in a loop over a huge list, phases that enter one another and never reach a decision). The
runtime stops such work with a run-time error at the rule that asked for it, instead of
running out of memory or time; where the arguments are constants, the checker refuses the
rule file before play. Drivers (simulate, record, play, bench) also cap the decisions of a
game (`DEFAULT_MAX_DECISIONS`), so a game whose turn counter never advances still stops.
"""

from __future__ import annotations

MAX_SOURCE = 1_000_000          # bytes of one rule file (the largest shipped one is 30 KB)
MAX_TOKENS = 100_000            # words, numbers, texts and signs of one rule file (the largest
                                # shipped one has 4,619; Lark parses ~30,000 a second)
MAX_NAME = 100                  # characters of a name (the longest shipped one has 28): a
                                # message quotes a name whole
MAX_TITLE = 200                 # characters of the game's title (`game "..."`; the longest
                                # shipped one has 45): every tool prints it whole
MAX_BASES = 50                  # base files of one variant, each extending the next
                                # (shipped: 1)
MAX_NESTING = 200               # parentheses, brackets and braces open at once (shipped: 7)
MAX_LOOPS = 16                  # `for` loops inside one another (Python compiles 20)
MAX_EXPRESSION = 150            # operations inside one another in one expression (Python
                                # compiles 200 parentheses open at once; shipped: 16)
MAX_BLOCKS = 90                 # blocks inside one another (Python indents 100 levels)
MAX_BINDERS = 16                # parameters of one action (each a loop of its listing)
MAX_LIST = 1_000_000            # elements of a list made by range() or by joining lists (+)
MAX_NUMBER = 10 ** 18           # magnitude of a number a rule keeps in a variable, writes as
                                # a constant or computes by `*` of two computed numbers
MAX_SUM = (1 << 62) - 1         # magnitude of any other number a rule computes: a sum, a
                                # difference, a multiple of a constant, each partial sum of
                                # sum() and total() (2^62: the native backend's C integers)
MAX_TEXT = 100_000              # characters of a text a rule joins with `+`
MAX_FOLDED = 20_000_000         # list elements and text characters of the constants the
                                # checker joins with `+` while it checks one rule file, in
                                # all (each a new list or text: 160 MB at most; shipped: 160)
MAX_USED = 4_000_000            # list elements of the constants the rules use and of the
                                # kinds tables' values, each use counted (the code generator
                                # writes each out: some 2 s at most; shipped: 148)
MAX_DICE = 10_000               # dice of one roll: roll(sides, n), rolls, successes
MAX_PIECES = 10_000             # pieces created in one game (removed ones included)
MAX_ENTRIES = 200               # phases entered since the last decision (goto, call, return)
MAX_AUTO = 10_000               # actions an `auto` phase plays on its own after one decision
MAX_ACTIONS = 1_000_000         # legal actions one listing holds (every action of the phase
                                # at the decision): as many as a list (MAX_LIST). Go 19x19
                                # lists 362, Amazons (queen, square, arrow) 2,176, Connect6's
                                # two stones as two cells() parameters 129,960, the shipped
                                # games 795 at most; a million take about 0.5 s and 130-175 MB
                                # (nine million took 17.5 s and 1.27 GB for one decision)
MAX_WORK = 10_000_000           # steps between two decisions (`auto` actions included):
                                # items looped over, elements of a list made by range() or
                                # joined (+), lists scanned by `in`, read or copied whole by
                                # a built-in or compared (FREE_SCAN), characters of
                                # texts (TEXT_STEP), ways placements() tries, calls of a
                                # fn or def that calls itself, trigger runs, events (EVENT_WORK)
FREE_SCAN = 16                  # elements of a list an `in` test scans, a built-in reads or
                                # two lists compared hold without counting them as work (a
                                # longer list counts its length)
TEXT_STEP = 100                 # characters of a text made, written or compared whole (`+`,
                                # `==`, `in`, text(), join(), plural()) that count one step
                                # of work, rounded down: a shorter text counts nothing, one
                                # of 100,000 characters (MAX_TEXT) a thousand steps
EVENT_WORK = 10                 # a die rolled, a pick, a shuffle, a log: each leaves an
                                # event (memory), so it counts ten steps
MAX_DEPTH = 200                 # calls of fns and defs that call themselves, one inside the
                                # next: gdl's own count, the same on every Python version
MAX_PLACEMENTS = 100_000        # ways to place dice that placements() may try: at most
                                # ten times as many steps (builtins.placement_steps: ways
                                # times dice and slots), which each call counts as work
PLACEMENT_WORK = 4              # work a step of trying placements counts: one costs about
                                # four times an ordinary step (a loop's item), measured
DEFAULT_MAX_DECISIONS = 100_000     # decisions of one game before a driver stops it (capped)
