"""benchmarks/fuzz_backends.py, the differential fuzzer of the two backends on generated rule
files, end to end on a few fixed programs: each is played from a few seeds under Python and
the typed native engine with test_typed's `_compare`. Its generator must mostly write files
the checker takes and the typed subset holds (a generator that drifts out of the subset
would test nothing). The long run: `python benchmarks/fuzz_backends.py --programs N`."""

import importlib.util
import os
import re

import pytest

from gdl.interpreter import load_source
from gdl.interpreter.language.errors import GdlError
from gdl.interpreter.runtime import typed
from tests.helpers import ROOT
from tests.runtime.test_typed import needs_tools, typed_on  # noqa: F401 (fixture)
from tests.runtime.test_native_backend import shared_cache  # noqa: F401 (fixture)

_spec = importlib.util.spec_from_file_location(
    "fuzz_backends", os.path.join(ROOT, "benchmarks", "fuzz_backends.py"))
assert _spec is not None and _spec.loader is not None
fuzz_backends = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_backends)


def test_the_generator_is_deterministic():
    assert fuzz_backends.generate(7) == fuzz_backends.generate(7)
    assert fuzz_backends.generate(7) != fuzz_backends.generate(8)


def test_generated_files_pass_the_checker_inside_the_typed_subset(tmp_path):
    inside = 0
    for seed in range(40):
        try:
            game = load_source(fuzz_backends.generate(seed), str(tmp_path / f"{seed}.gdl"),
                               "python")
        except GdlError:
            continue
        inside += typed.unsupported(game._program) is None
    assert inside >= 36


def test_few_generated_games_end_early_on_a_fault(tmp_path):
    """The guards keep most games going (before them 73 of 200 programs had a game that
    ended on a fault); a fault is still met now and then, so faults are compared too."""
    said = fuzz_backends.tally_faults(0, 40, 3, str(tmp_path))
    head = said.splitlines()[0]
    assert head.startswith("40 programs from seed 0, 3 games each: "), said
    played = int(head.split("each: ")[1].split(" ")[0])
    faulted = int(head.split("played, ")[1].split(" ")[0])
    assert played >= 36, said
    assert 1 <= faulted <= 10, said


# Programs that hold between them every construct the generator writes besides one turn
# phase: defs, on enter and on resume blocks, dice, texts, called phases (one auto, some for
# each seat of a list), a simultaneous phase, on no action, moves with enter triggers, give,
# zones, variables visible to some seats, hide piece, a kinds table out of sight, a payoff,
# three seats; the extras (unique, sorted, connected, fns giving lists, lets of lists); with
# program 0, the later extras (seat lists, placements, for over pieces_at while they move,
# remove in a trigger, reach/sight with constant stops).
CONSTRUCTS = {"def": r"^def ", "on enter": r"^  on enter", "on resume": r"^  on resume",
              "dice": r"roll\(", "texts": r"plural\(|join\(", "call": r"^    call ",
              "call for each": r"^    call .* for each ", "simultaneous": r"simultaneous",
              "auto": r"turn auto", "no action": r"^  on no action", "move": r"^ *move ",
              "trigger": r"^on enter\(p, c\)", "give": r"^ *give ", "zone": r"^zone",
              "visible to": r"^var .* visible to", "hide piece": r"^hide piece",
              "kinds visible to": r"^kinds .* visible to", "payoff": r"^payoff",
              "three seats": r"^seats a, b, c", "unique": r"unique\(", "sorted": r"sorted\(",
              "connected": r"connected\(", "fn giving a list": r"^fn fl\d+\(",
              "let of a list": r"^    let l\d+ = ", "seat list": r"^var seat\.held = ",
              "placements": r"placements\(", "for pieces_at": r"^ *for x\d+ in pieces_at\(",
              "remove in a trigger": r"^ *remove [pq]$",
              "constant stops": r"(reach|sight)\(.*, \[(@\w+(, )?)*\]\)"}
WIDE = [30, 206]


def test_the_extras_only_add_lines():
    """unique(), sorted(), connected(), fns giving lists and lets of lists (`extras`) are
    drawn from a second random.Random: the lines the first draws are those the generator
    wrote before them, so a seed names the same program, with lines added."""
    for seed in range(20):
        before = fuzz_backends.Generator(seed, extras=False).program().splitlines()
        now = fuzz_backends.generate(seed).splitlines()
        assert len(now) > len(before)
        rest = iter(now)
        assert all(line in rest for line in before), seed      # (a subsequence)


def test_the_wide_programs_hold_every_construct():
    texts = [fuzz_backends.generate(seed) for seed in [0, *WIDE]]
    missing = [name for name, mark in CONSTRUCTS.items()
               if not any(re.search(mark, text, re.M) for text in texts)]
    assert missing == []


@needs_tools
@pytest.mark.parametrize("seed", [0, *WIDE])
def test_generated_programs_play_the_same_on_both_backends(seed, typed_on, tmp_path):
    assert fuzz_backends.run_program(seed, 4, str(tmp_path)) == "same"
