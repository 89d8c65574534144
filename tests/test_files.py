"""The one atomic file writer (`interpreter/files.py`): a new file gets an ordinary file's
permissions, a rewritten one may keep its own, and a failed write leaves the old file and
no temporary file behind."""

import os

import pytest

from gdl.interpreter.files import kept_mode, save, write_atomic
from gdl.interpreter.language.errors import GdlDataError


def test_a_new_file_has_an_ordinary_files_permissions(tmp_path):
    mask = os.umask(0o022)
    try:
        write_atomic(str(tmp_path / "new.txt"), "a\nb\n")
    finally:
        os.umask(mask)
    path = tmp_path / "new.txt"
    assert path.read_bytes() == b"a\nb\n"
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_rewritten_file_can_keep_its_permissions(tmp_path):
    path = tmp_path / "rules.gdl"
    path.write_text("old")
    path.chmod(0o640)
    write_atomic(str(path), "new é", kept_mode(str(path)))
    assert path.read_text(encoding="utf-8") == "new é"
    assert path.stat().st_mode & 0o777 == 0o640


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "kept.txt"
    path.write_text("old")

    def refuse(source, target):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(GdlDataError, match="cannot write .*kept.txt: No space left on device"):
        save(str(path), "new")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]
