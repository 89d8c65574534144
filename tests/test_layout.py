"""The interpreter's folders are its stages, and imports run one way: `language/` (text ->
checked program) imports nothing of `runtime/`, `play/`, `tools/`, `bridges/` or the loader;
`runtime/` (checked program -> running game) nothing of `play/`, `tools/`, `bridges/` or the
loader; `play/` nothing of `tools/` (the designer's tools: formatter, highlighters, language
server) or `bridges/` (to OpenSpiel and PettingZoo, whose libraries are optional); `tools/`
and `bridges/` nothing of each other. And no module of the interpreter imports itself back
through others: the imports between them form no circle. Read from the source with `ast`,
so an import inside a function counts as much as one at the top."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).parent.parent
PACKAGE = "gdl.interpreter"
INTERPRETER = ROOT / "interpreter"

# stage -> the modules and packages it must never import
FORBIDDEN = {
    "language": (f"{PACKAGE}.runtime", f"{PACKAGE}.play", f"{PACKAGE}.loader",
                 f"{PACKAGE}.tools", f"{PACKAGE}.bridges"),
    "runtime": (f"{PACKAGE}.play", f"{PACKAGE}.loader", f"{PACKAGE}.tools",
                f"{PACKAGE}.bridges"),
    "play": (f"{PACKAGE}.tools", f"{PACKAGE}.bridges"),
    "tools": (f"{PACKAGE}.bridges",),
    "bridges": (f"{PACKAGE}.tools",),
}


def module_name(path):
    """interpreter/runtime/engine.py -> gdl.interpreter.runtime.engine (a package: its own
    name)."""
    parts = path.relative_to(INTERPRETER).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def type_checking_only(tree):
    """The import statements under `if TYPE_CHECKING:`, which only the type checker runs."""
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
            and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            for statement in node.body for inner in ast.walk(statement)}


def imported(path, at_run_time=False):
    """(line, module) for every module an import statement in `path` may load: relative
    imports resolved against the file's package, and for `from X import a` both X and X.a
    (a may be a submodule). `at_run_time`: leave out the imports only a type checker runs."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = type_checking_only(tree) if at_run_time else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def violations(stage):
    out = []
    for path in sorted((INTERPRETER / stage).rglob("*.py")):
        for line, target in imported(path):
            if any(target == bad or target.startswith(bad + ".") for bad in FORBIDDEN[stage]):
                out.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
    return out


@pytest.mark.parametrize("stage", sorted(FORBIDDEN))
def test_imports_run_one_way(stage):
    assert violations(stage) == []


def test_the_import_reader_sees_relative_and_absolute_imports():
    # Not vacuous: the runtime's imports of the language are found, resolved.
    engine = {target for _, target in imported(INTERPRETER / "runtime" / "engine.py")}
    assert {f"{PACKAGE}.language.errors", f"{PACKAGE}.runtime.codegen",
            f"{PACKAGE}.language.builtins"} <= engine
    runner = INTERPRETER / "play" / "scenarios" / "runner.py"
    assert f"{PACKAGE}.loader" in {target for _, target in imported(runner)}


def import_graph():
    """module -> the interpreter's modules its import statements load when it runs (itself
    aside: a package's `from . import x` names the package)."""
    paths = {module_name(path): path for path in sorted(INTERPRETER.rglob("*.py"))}
    return {name: sorted({target for _, target in imported(path, at_run_time=True)
                          if target in paths and target != name})
            for name, path in paths.items()}


def circles(graph):
    """Every import circle of `graph`, each once, as [a, b, ..., a] from its least module
    (a depth-first search from each module, along modules after it only)."""
    found = []

    def walk(start, path):
        for target in graph[path[-1]]:
            if target == start:
                found.append(path + [start])
            elif target > start and target not in path:
                walk(start, path + [target])
    for start in sorted(graph):
        walk(start, [start])
    return found


def test_no_import_circle():
    assert [" -> ".join(circle) for circle in circles(import_graph())] == []


def test_the_circle_finder_finds_circles_through_function_local_imports():
    # Not vacuous: the graph holds the imports made inside functions, and a circle is found.
    graph = import_graph()
    assert f"{PACKAGE}.play.agents.search" in graph[f"{PACKAGE}.play.agents.agents"]
    assert circles({"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": []}) == [["a", "b", "c", "a"]]


def test_every_stage_is_a_package_with_a_docstring():
    for init in sorted(INTERPRETER.rglob("__init__.py")):
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), init


def test_no_game_word_in_the_interpreter_or_the_command_line():
    """The interpreter is generic: no piece kind or game name of the five games (and their
    variants) appears in the source of interpreter/ or cli/, docstrings and comments
    included (DESIGN.md, "Rule files"). The classic games' words (Pawn, Rook) are the
    neutral examples the docstrings use. (cli/playthrough.py named a Galaxy Aflame kind,
    narrate.py a Galaxy of D one.)"""
    import re

    from gdl.interpreter import load_game
    words = set()
    for path in sorted((ROOT / "games").glob("*.gdl")):
        game = load_game(str(path))
        words |= {game.name, *game.rules.kinds}
    word = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(words))) + r")(?!\w)")
    found = []
    for folder in ("interpreter", "cli"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js", ".html", ".css", ".lark", ".in", ".pyx"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                found += [f"{path.relative_to(ROOT)}:{number}: {m.group(1)}"
                          for m in word.finditer(line)]
    assert found == []


def test_an_installed_wheel_holds_every_package_and_data_file():
    # pyproject.toml lists the packages by hand: a new sub-package, or a file the code
    # reads beside its module (the replay page's HTML, CSS and JavaScript), must be listed
    # or a non-editable install lacks it.
    import fnmatch
    import tomllib
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    setup = setup["setuptools"]
    packages = {module_name(init) for init in INTERPRETER.rglob("__init__.py")}
    assert packages <= set(setup["packages"])
    data = [path for path in INTERPRETER.rglob("*") if path.is_file()
            and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts]
    assert data, "the replay page's files"
    for path in data:
        patterns = setup["package-data"].get(module_name(path.parent / "__init__.py"), [])
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path
