"""benchmarks/fuzz_backends.py, the differential fuzzer of the two backends on generated rule
files, end to end on a few fixed programs: each is played from a few seeds under Python and
the typed native engine with test_typed's `_compare`. Its generator must mostly write files
the checker takes and the typed subset holds (a generator that drifts out of the subset
would test nothing). The long run: `python benchmarks/fuzz_backends.py --programs N`."""

import importlib.util
import os

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


@needs_tools
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_programs_play_the_same_on_both_backends(seed, typed_on, tmp_path):
    assert fuzz_backends.run_program(seed, 6, str(tmp_path)) == "same"
