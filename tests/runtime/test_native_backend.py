"""The native backend (runtime/native.py) against the Python one: every shipped game played
under both from the same seeds, decision by decision with random choices, gives the same
state JSON, legal-action texts in order and events; faults name the same rule-file line; a
machine without Cython or a C compiler runs on Python and says why on stderr.

Each game is compiled once per run, into a cache folder the xdist workers share (a lock
keeps two workers from building the same game), with -O0: the C compiler's optimisation
does not change what the code does, and -O0 builds 3x quicker."""

import glob
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gdl.interpreter import load_game, load_source
from gdl.interpreter.language.errors import GdlRuntimeError, IllegalAction
from gdl.interpreter.runtime.state import State
from gdl.interpreter.runtime import native, native_cache
from tests.helpers import ROOT

GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))
SEEDS = (1, 2, 3)
MAX_DECISIONS = 300
MISSING = native.missing_tools()
needs_tools = pytest.mark.skipif(MISSING is not None, reason=f"no native backend: {MISSING}")


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    """GDL_CACHE_DIR for this module: one folder for every xdist worker of the run, which
    keeps every module built (the suite builds some 230 different ones: at the user's
    MAX_ENTRIES, those pruned were built again by the next file that played the game)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "native-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDL_CACHE_DIR", str(folder))
        patch.setenv(native_cache.OPTIMISE, "-O0")
        patch.setattr(native_cache, "MAX_ENTRIES", 1000)
        yield folder


def _play(game, seed):
    """Everything a decision shows, decision by decision, choosing at random from `seed`."""
    choose = random.Random(seed)
    state = game.new_state(seed)
    seen = [state.to_json()]
    for _ in range(MAX_DECISIONS):
        if game.is_terminal(state):
            break
        actions = game.legal_actions(state)
        seen.append([game.action_text(state, action) for action in actions])
        events = game.apply(state, actions[choose.randrange(len(actions))])
        seen.append([event.to_json() for event in events])
        seen.append(state.to_json())
    return seen


@needs_tools
@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_both_backends_play_the_same_game(path, shared_cache):
    python, compiled = load_game(path, "python"), load_game(path, "native")
    assert native.backend_of(python) == "python"
    assert native.backend_of(compiled) == "native"
    for seed in SEEDS:
        assert _play(compiled, seed) == _play(python, seed), f"seed {seed}"


@needs_tools
def test_the_calls_a_driver_makes_agree_on_every_state(shared_cache):
    """A native game answers `legal_actions`, `apply(check=False)`, `is_terminal` and
    `current_player` in C for its typed states (engine.py installs them): the same game as
    the Python backend's; a plain State (from its JSON) still plays, through the Python
    methods; `apply` with its check still refuses an illegal action."""
    path = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")
    python, compiled = load_game(path, "python"), load_game(path, "native")
    for seed in SEEDS:
        choose = random.Random(seed)
        states = [python.new_state(seed), compiled.new_state(seed)]
        plain = State.from_json(states[1].to_json())
        assert type(plain) is State
        states.append(plain)
        games = (python, compiled, compiled)
        while not python.is_terminal(states[0]):
            seen = [(game.is_terminal(state), game.current_player(state),
                     game.legal_actions(state)) for game, state in zip(games, states)]
            assert seen[0] == seen[1] == seen[2]
            action = seen[0][2][choose.randrange(len(seen[0][2]))]
            played = [[event.to_json() for event in game.apply(state, action, check=False)]
                      for game, state in zip(games, states)]
            assert played[0] == played[1] == played[2]
            assert [event.to_json() for event in states[1].events] == played[1]
            assert states[0].to_json() == states[1].to_json() == states[2].to_json()
        assert all(game.is_terminal(state) for game, state in zip(games, states))
        assert [game.current_player(state) for game, state in zip(games, states)] == [-1] * 3
    state = compiled.new_state(1)
    taken = compiled.legal_actions(state)[0]
    compiled.apply(state, taken)
    with pytest.raises(IllegalAction):
        compiled.apply(state, taken)


FAULTY = """game "t"
seats a, b
board square(3, 3)
var n = 0
EXTRA
setup {
  goto main for a
}
phase main {
  action go() {
    n = 1 + 10 / n
  }
}
"""


@needs_tools
@pytest.mark.parametrize("body, extra", [("n = 1 + 10 / n", ""), ("n = roll(n)", ""),
                                         ("win first(s in [a]: none)", ""),
                                         ("n = f(1)", "fn f(x) = f(x) + 1")])
def test_a_fault_in_compiled_rules_names_its_line(body, extra, shared_cache):
    """The compiled module's tracebacks carry lines, not columns: the same file, line and
    message as on Python."""
    text = FAULTY.replace("n = 1 + 10 / n", body).replace("EXTRA", extra)
    places = []
    for backend in ("python", "native"):
        game = load_source(text, "t.gdl", backend)
        assert native.backend_of(game) == backend
        state = game.new_state(0)
        with pytest.raises(GdlRuntimeError) as fault:
            game.apply(state, game.legal_actions(state)[0])
        places.append((fault.value.file, fault.value.line, fault.value.message))
    assert places[0] == places[1]
    assert places[0][0] == "t.gdl" and places[0][1] is not None


def test_without_a_compiler_the_rules_run_on_python(tmp_path):
    bin_folder = os.path.dirname(sys.executable)     # python and gdl, no C compiler
    environment = dict(os.environ, PATH=bin_folder, CC="", GDL_CACHE_DIR=str(tmp_path))
    done = subprocess.run([os.path.join(bin_folder, "gdl"), "simulate", GAMES[0], "--games",
                           "2", "--workers", "1", "--backend", "native"],
                          capture_output=True, text=True, env=environment)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    expected = ("gdl: running on the Python backend (native asked): "
                + ("Cython is not installed (pip install -e '.[native]')" if MISSING and
                   "Cython" in MISSING else "no C compiler found (set CC, or install gcc)"))
    assert lines == [expected]


def test_an_unknown_backend_is_refused():
    with pytest.raises(Exception, match="unknown backend 'fast': use one of auto, native, "
                                        "python"):
        load_game(GAMES[0], "fast")


def test_an_unknown_backend_in_the_environment_names_the_variable(monkeypatch):
    """'unknown backend 'bogus'' named no option: the value came from $GDL_BACKEND, set
    in the person's shell, perhaps long ago."""
    monkeypatch.setenv("GDL_BACKEND", "bogus")
    with pytest.raises(Exception) as info:
        load_game(GAMES[0])
    assert str(info.value) == ("error: unknown backend 'bogus' in $GDL_BACKEND: use one of "
                               "auto, native, python (or unset it)")
    done = subprocess.run([sys.executable, "-m", "gdl.cli.main", "simulate", GAMES[0],
                           "--games", "1"], capture_output=True, text=True,
                          env=dict(os.environ, GDL_BACKEND="bogus"))
    assert (done.returncode, done.stderr) == (1, f"error: {info.value.message}\n")


@needs_tools
def test_a_relative_cache_directory_builds_the_native_rules(tmp_path):
    """GDL_CACHE_DIR=cache (a path from the current folder): the compiler, run elsewhere,
    failed ('the C compiler could not build the rules: collect2: error: ld returned 1 exit
    status') and the rules ran on Python."""
    rules = tmp_path / "nim.gdl"
    rules.write_text((Path(ROOT) / "tests" / "rules" / "nim.gdl").read_text())
    done = subprocess.run([sys.executable, "-m", "gdl.cli.main", "simulate", "nim.gdl",
                           "--games", "2", "--workers", "1", "--backend", "native"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, GDL_CACHE_DIR="cache"))
    assert (done.returncode, done.stderr) == (0, "")
    assert glob.glob(str(tmp_path / "cache" / "native" / "*"))


@needs_tools
def test_gdl_compile_prints_what_cython_compiles(shared_cache, monkeypatch):
    given = []
    real = native_cache.module
    monkeypatch.setattr(native_cache, "module", lambda text: given.append(text) or real(text))
    # every shipped and classic game but Galaxy Aflame (a big module) is typed: a small
    # rule file outside the typed subset
    untyped = os.path.join(ROOT, "tests", "rules", "hex_board.gdl")
    load_game(untyped, "native")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "gdl"), "compile",
                           "--backend", "native", untyped], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    header, source = done.stdout.split("\n", 1)
    assert header.startswith(f"# {untyped} runs on the native backend, untyped (")
    assert given == [source]


@needs_tools
def test_gdl_compile_prints_the_typed_engine_of_a_file_inside_its_subset(shared_cache,
                                                                         monkeypatch):
    given = []
    real = native_cache.module
    monkeypatch.setattr(native_cache, "module", lambda text: given.append(text) or real(text))
    monkeypatch.delenv("GDL_TYPED", raising=False)
    path = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")
    load_game(path, "native")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "gdl"), "compile",
                           "--backend", "native", path], capture_output=True, text=True)
    header, source = done.stdout.split("\n", 1)
    assert header == f"# {path} runs on the typed native engine: its Cython source " \
        "(GDL_TYPED=0 prints the untyped one)"
    assert source in given


def test_auto_without_a_compiler_says_why_once(monkeypatch, capsys):
    monkeypatch.setattr(native_cache, "compiler", lambda: None)
    monkeypatch.setattr(native, "_told", set())
    games = [load_game(GAMES[0], "auto") for _ in range(2)]
    assert [native.backend_of(game) for game in games] == ["python", "python"]
    reason = native.missing_tools()     # no compiler (or, before that, no Cython)
    assert capsys.readouterr().err == f"gdl: running on the Python backend (auto asked): {reason}\n"


@needs_tools
def test_narration_moves_a_native_game_to_python(shared_cache, capsys, monkeypatch):
    monkeypatch.setattr(native, "_told", set())     # (told once a process: another test
    game = load_game(GAMES[0], "native")            # of this worker may have been told)
    state = game.new_state(1, narrate=True)
    assert native.backend_of(game) == "python" and state.narrate
    err = capsys.readouterr().err
    assert "narration names rules through Python's frames" in err
    # a file inside the typed subset: its agents still search natively (test_typed_playout)
    assert ("agents still search on the native backend" in err) == game._native_asked


def test_games_loaded_while_tracing_run_on_python(monkeypatch):
    from gdl.interpreter.play.debug.tracing import RuleTrace
    monkeypatch.setenv("GDL_BACKEND", "native")
    with RuleTrace():
        game = load_game(GAMES[0])
    assert native.backend_of(game) == "python"
    assert os.environ["GDL_BACKEND"] == "native"


def test_builds_of_different_modules_do_not_wait_for_each_other(tmp_path):
    """A build holds its own entry's lock (one of LOCKS files), not the folder's: the xdist
    workers of the suite, or `simulate --workers 2` on two files, compile side by side,
    while a second build of the same module waits for the first."""
    import threading

    def stripe(name):
        return int(name[-8:], 16) % native_cache.LOCKS

    first = "gdl_native_" + "0" * 32 + "00000001"
    other = next(f"gdl_native_{'0' * 32}{n:08x}" for n in range(2, 99)
                 if stripe(f"{n:08x}") != stripe(first))
    same = next(f"gdl_native_{'1' * 32}{n:08x}" for n in range(2, 99)
                if stripe(f"{n:08x}") == stripe(first))
    held = {}

    def take(name):
        with native_cache._locked(str(tmp_path), name):
            held[name] = True

    with native_cache._locked(str(tmp_path), first):
        for name in (other, same):
            threading.Thread(target=take, args=(name,), daemon=True).start()
        waited = threading.Event()
        for _ in range(200):                # up to 10 s for the free lock
            if other in held:
                break
            waited.wait(0.05)
        assert other in held and same not in held
    for _ in range(200):
        if same in held:
            break
        waited.wait(0.05)
    assert same in held
    assert len(os.listdir(tmp_path)) == 2


def test_a_prune_passes_over_entries_another_process_removed(tmp_path, monkeypatch):
    """Builds of different modules finish side by side, and so do their prunes: an entry
    gone between the listing and its time is passed over, never a failed build."""
    monkeypatch.setattr(native_cache, "MAX_ENTRIES", 50)
    suffix = native_cache.importlib.machinery.EXTENSION_SUFFIXES[0]
    names = [tmp_path / f"gdl_native_{n:040x}{suffix}" for n in range(native_cache.MAX_ENTRIES
                                                                         + 3)]
    for age, path in enumerate(names):
        path.write_bytes(b"")
        os.utime(path, (1000 + age, 1000 + age))
    real = native_cache._built_at

    def gone_first(item):
        if item.path == str(names[-1]):         # the newest, pruned by another process
            os.remove(item.path)
        return real(item)
    monkeypatch.setattr(native_cache, "_built_at", gone_first)
    native_cache._prune(str(tmp_path))
    assert sorted(tmp_path.iterdir()) == names[2:-1]


@needs_tools
def test_the_kept_cython_process_translates_says_why_not_and_is_replaced(tmp_path,
                                                                        monkeypatch):
    """Builds ask one Cython process kept for them (cython_worker.py): its C, or the error
    that stopped it, named by its line; it is replaced after TRANSLATIONS builds, and when
    it is gone (killed) the build runs Cython as a command of its own; a forked child keeps
    its own."""
    (tmp_path / "good.pyx").write_text("cdef int twice(int x):\n    return 2 * x\n"
                                       "def run():\n    return twice(21)\n")
    (tmp_path / "bad.pyx").write_text("def run():\n    return )\n")
    folder = str(tmp_path)
    monkeypatch.setattr(native_cache, "TRANSLATIONS", 4)
    native_cache._let_go()
    assert native_cache._translate(folder, "good") is None
    assert "twice" in (tmp_path / "good.c").read_text()
    said = native_cache._translate(folder, "bad")
    assert said is not None and said.startswith(f"{tmp_path / 'bad.pyx'}:2:"), said
    first = native_cache._translator[0]
    child = os.fork()
    if child == 0:      # a forked child translates with a Cython process of its own
        mine = native_cache._translate(folder, "good") is None and \
            native_cache._translator[0] is not first
        os._exit(0 if mine else 1)
    assert os.waitpid(child, 0)[1] == 0 and native_cache._translator[0] is first
    for _ in range(native_cache.TRANSLATIONS):
        assert native_cache._translate(folder, "good") is None
    assert first.poll() is not None and native_cache._translator[0] is not first
    native_cache._translator[0].kill()
    native_cache._translator[0].wait()
    (tmp_path / "good.c").unlink()
    assert native_cache._translate(folder, "good") is None      # the command's
    assert "twice" in (tmp_path / "good.c").read_text()
    assert not native_cache._translator


@needs_tools
def test_the_default_build_optimises(tmp_path):
    """A user's build, GDL_NATIVE_CFLAGS unset: the C compiler's -O2 (the suite's other
    builds use -O0, tests/conftest.py), a module that plays Python's game."""
    env = {name: value for name, value in os.environ.items() if name != native_cache.OPTIMISE}
    env["GDL_CACHE_DIR"] = str(tmp_path)
    flags = subprocess.run([sys.executable, "-c", "from gdl.interpreter.runtime import "
                            "native_cache; print(native_cache._optimisation())"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert flags.stdout == "['-O2']\n", flags.stderr
    path = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")
    played = [subprocess.run([sys.executable, "-m", "gdl.cli.main", "play", path, "--backend",
                              backend, "--seed", "5"], capture_output=True, text=True,
                             env=env, timeout=300) for backend in ("native", "python")]
    assert played[0].returncode == 0, played[0].stderr
    assert played[0].stdout == played[1].stdout
    assert list((tmp_path / "native").glob("gdl_native_*"))


@needs_tools
def test_a_damaged_entry_is_built_again_not_loaded(tmp_path):
    """Loading a truncated module would kill the process (a bus error): an entry whose
    digest does not match the one kept when it was built is built again."""
    path = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")
    env = {**os.environ, "GDL_CACHE_DIR": str(tmp_path), native_cache.OPTIMISE: "-O0"}
    play = [sys.executable, "-m", "gdl.cli.main", "play", path, "--backend", "native",
            "--seed", "3"]
    first = subprocess.run(play, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    suffix = native_cache.importlib.machinery.EXTENSION_SUFFIXES[0]
    (entry,) = (tmp_path / "native").glob(f"gdl_native_*{suffix}")
    assert (tmp_path / "native" / (entry.name + native_cache.DIGEST)).exists()
    entry.write_bytes(entry.read_bytes()[:5000])
    again = subprocess.run(play, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert entry.stat().st_size > 5000
