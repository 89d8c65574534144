"""The parse cache (`interpreter/language/parse_cache.py`): a rule file parsed before is read
back, equal to a fresh parse down to every span, without Lark; whatever goes wrong with the
cache, the text is parsed and the user sees nothing of it."""

import glob
import os
import pickle
import pkgutil

import attrs
import pytest

from gdl.interpreter.language import ast, parse_cache, parser
from gdl.interpreter.language.errors import GdlSyntaxError

from tests.helpers import ROOT
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "**", "*.gdl"), recursive=True))

RULES = "seats a, b\nboard square(2, 2)\nvar n = 0\nsetup { goto p for a }\nphase p { }\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    directory = tmp_path / "cache"
    monkeypatch.setenv("GDL_CACHE_DIR", str(directory))
    monkeypatch.delenv("GDL_NO_CACHE", raising=False)
    return directory


@pytest.fixture
def parses(monkeypatch):
    """The texts parsed, not read from the cache."""
    parsed = []
    parse = parser._parse

    def counted(text, file, start):
        parsed.append(text)
        return parse(text, file, start)

    monkeypatch.setattr(parser, "_parse", counted)
    return parsed


def no_lark(monkeypatch):
    def refuse(start):
        raise AssertionError("Lark was asked to parse")
    monkeypatch.setattr(parser, "_lark", refuse)


def entries(directory):
    if not os.path.isdir(directory):
        return []
    return sorted(path for path in os.listdir(directory) if path.endswith(".pickle"))


def everything(value):
    """A node as nested tuples of all its fields, spans and their lines included (node
    equality leaves the span out), and every leaf with its type (a Lark token is a str)."""
    if attrs.has(type(value)):
        return (type(value).__name__,) + tuple(everything(getattr(value, f.name))
                                               for f in attrs.fields(type(value)))
    if isinstance(value, tuple):
        return tuple(everything(item) for item in value)
    return (type(value).__name__, value)


def test_a_second_parse_reads_the_cache_and_not_lark(cache_dir, monkeypatch):
    first = parser.parse_program(RULES, "t.gdl")
    assert len(entries(cache_dir)) == 1
    no_lark(monkeypatch)
    second = parser.parse_program(RULES, "t.gdl")
    assert second == first and everything(second) == everything(first)
    assert second.items[1].span.source_line == "board square(2, 2)"


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_a_cached_game_is_exactly_a_fresh_parse(path, cache_dir, monkeypatch):
    text = open(path, encoding="utf-8").read()
    parser.parse_program(text, path)
    no_lark(monkeypatch)
    cached = parser.parse_program(text, path)
    monkeypatch.undo()
    monkeypatch.setenv("GDL_NO_CACHE", "1")
    assert everything(cached) == everything(parser.parse_program(text, path))
    # All the spans share one tuple of lines, as a fresh parse's do.
    assert cached.items[-1].span.lines is cached.span.lines


def test_a_changed_text_or_another_name_is_parsed_again(cache_dir, parses):
    parser.parse_program(RULES, "t.gdl")
    changed = parser.parse_program(RULES.replace("n = 0", "n = 1"), "t.gdl")
    assert changed.items[2].expr == ast.Number(1)
    renamed = parser.parse_program(RULES, "u.gdl")
    assert renamed.span.file == "u.gdl"
    assert len(parses) == 3 and len(entries(cache_dir)) == 3


def test_another_version_of_the_parser_misses(cache_dir, parses, monkeypatch):
    parser.parse_program(RULES, "t.gdl")
    monkeypatch.setattr(parse_cache, "_version", lambda: b"another grammar")
    parser.parse_program(RULES, "t.gdl")
    assert len(parses) == 2 and len(entries(cache_dir)) == 2


@pytest.mark.parametrize("package, name", parse_cache._SOURCES)
def test_the_version_changes_with_the_grammar_and_the_ast_code(package, name, monkeypatch):
    read = pkgutil.get_data

    def edited(asked_package, asked_name):
        data = read(asked_package, asked_name)
        return data + b"\n" if (asked_package, asked_name) == (package, name) else data

    before = parse_cache._version()
    monkeypatch.setattr(pkgutil, "get_data", edited)
    parse_cache._version.cache_clear()
    try:
        assert parse_cache._version() != before
    finally:
        parse_cache._version.cache_clear()


@pytest.mark.parametrize("damage", [b"", b"not a pickle", pickle.dumps("a string"),
                                    pickle.dumps(ast.Number(1))])
def test_a_damaged_entry_is_parsed_again_and_replaced(damage, cache_dir, parses):
    first = parser.parse_program(RULES, "t.gdl")
    (entry,) = entries(cache_dir)
    (cache_dir / entry).write_bytes(damage)
    assert parser.parse_program(RULES, "t.gdl") == first
    assert len(parses) == 2
    assert pickle.loads((cache_dir / entry).read_bytes()) == first


def test_a_truncated_entry_is_parsed_again(cache_dir, parses):
    first = parser.parse_program(RULES, "t.gdl")
    (entry,) = entries(cache_dir)
    data = (cache_dir / entry).read_bytes()
    (cache_dir / entry).write_bytes(data[:len(data) // 2])
    assert parser.parse_program(RULES, "t.gdl") == first
    assert len(parses) == 2


def test_a_cache_that_cannot_be_made_is_no_error(tmp_path, monkeypatch, parses):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("GDL_CACHE_DIR", str(tmp_path / "file" / "cache"))
    first = parser.parse_program(RULES, "t.gdl")
    assert parser.parse_program(RULES, "t.gdl") == first
    assert len(parses) == 2


def test_a_failed_write_leaves_nothing_behind(cache_dir, monkeypatch, parses):
    def refuse(source, target):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "replace", refuse)
    first = parser.parse_program(RULES, "t.gdl")
    assert parser.parse_program(RULES, "t.gdl") == first
    assert len(parses) == 2 and os.listdir(cache_dir) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only directory")
def test_a_read_only_cache_is_no_error(cache_dir, parses):
    cache_dir.mkdir(mode=0o500)
    try:
        parser.parse_program(RULES, "t.gdl")
        parser.parse_program(RULES, "t.gdl")
    finally:
        cache_dir.chmod(0o700)
    assert len(parses) == 2 and entries(cache_dir) == []


def test_a_directory_others_may_write_to_is_not_used(cache_dir, parses):
    # Unpickling runs code: an entry another user could have written is never read.
    parser.parse_program(RULES, "t.gdl")
    cache_dir.chmod(0o777)
    parser.parse_program(RULES, "t.gdl")
    parser.parse_program(RULES.replace("n = 0", "n = 1"), "t.gdl")
    assert len(parses) == 3 and len(entries(cache_dir)) == 1


def test_the_cache_directory_is_made_private(cache_dir):
    parser.parse_program(RULES, "t.gdl")
    assert cache_dir.stat().st_mode & 0o777 == 0o700


def test_the_cache_lives_in_the_xdg_cache_or_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("GDL_CACHE_DIR", raising=False)
    monkeypatch.delenv("GDL_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    parser.parse_program(RULES, "t.gdl")
    assert len(entries(tmp_path / "xdg" / "gdl")) == 1
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")    # ignored, as the XDG rules say
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    parser.parse_program(RULES, "t.gdl")
    assert len(entries(tmp_path / "home" / ".cache" / "gdl")) == 1
    assert not os.path.exists("relative")


def test_no_home_directory_means_no_cache(monkeypatch, parses):
    monkeypatch.delenv("GDL_CACHE_DIR", raising=False)
    monkeypatch.delenv("GDL_NO_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # no HOME, no passwd entry
    first = parser.parse_program(RULES, "t.gdl")
    assert parser.parse_program(RULES, "t.gdl") == first
    assert len(parses) == 2 and not os.path.exists("~")


def test_gdl_no_cache_turns_it_off(cache_dir, monkeypatch, parses):
    monkeypatch.setenv("GDL_NO_CACHE", "1")
    parser.parse_program(RULES, "t.gdl")
    parser.parse_program(RULES, "t.gdl")
    assert len(parses) == 2 and not cache_dir.exists()


def test_a_text_not_from_a_file_is_not_cached(cache_dir, parses):
    parser.parse_program(RULES)
    parser.parse_program(RULES, "<string>")
    assert len(parses) == 2 and not cache_dir.exists()


def test_a_syntax_error_is_not_cached(cache_dir, parses):
    for _ in range(2):
        with pytest.raises(GdlSyntaxError, match="unexpected"):
            parser.parse_program("seats a, b\nboard square(\n", "bad.gdl")
    assert len(parses) == 2 and entries(cache_dir) == []


def test_a_program_too_deep_to_pickle_is_parsed_each_time(cache_dir, parses, monkeypatch):
    """Python 3.11 and 3.12 cannot pickle a program 600 deep (3.13 can, and keeps it): such
    a program is parsed each time, never an error."""
    text = "seats a, b\nboard square(1, 1)\nparam q = " + "-" * 600 + "1\n"
    for _ in range(2):
        assert parser.parse_program(text, "deep.gdl").items[2].name == "q"

    def too_deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded while pickling an object")
    monkeypatch.setattr(parse_cache.pickle, "dumps", too_deep)
    parses.clear()
    for _ in range(2):
        assert parser.parse_program(text.replace("q", "r"), "deep2.gdl").items[2].name == "r"
    assert len(parses) == 2 and len(entries(cache_dir)) <= 1     # 3.13: the first one


def test_the_cache_keeps_the_most_recently_used_entries(cache_dir, monkeypatch, parses):
    monkeypatch.setattr(parse_cache, "MAX_ENTRIES", 3)
    cache_dir.mkdir(mode=0o700)
    (cache_dir / "notes.txt").write_text("not an entry: left alone")
    texts = [RULES.replace("n = 0", f"n = {n}") for n in range(5)]
    for number, text in enumerate(texts):
        before = set(entries(cache_dir))
        parser.parse_program(text, "t.gdl")
        (new,) = set(entries(cache_dir)) - before
        if number:      # written in this order, however coarse the file system's clock
            os.utime(cache_dir / new, (number, number))
        parser.parse_program(texts[0], "t.gdl")     # a hit: used now, so pruned last
    assert len(entries(cache_dir)) == 3
    assert (cache_dir / "notes.txt").exists()
    parses.clear()
    for text in (texts[0], texts[3], texts[4]):
        parser.parse_program(text, "t.gdl")
    assert parses == []
