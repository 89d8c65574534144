"""The one atomic file writer (`interpreter/files.py`): a new file gets an ordinary file's
permissions, a rewritten one keeps its own, and a failed write leaves the old file and
no temporary file behind."""

import os
import signal
import subprocess
import sys

import pytest

from gdl.interpreter.files import kept_mode, remove_stale, save, write_atomic
from gdl.interpreter.language.errors import GdlDataError

from tests.helpers import RULES, invoke


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


def test_a_rewritten_file_keeps_its_permissions_when_none_are_given(tmp_path):
    """A transcript holds the seed and everything hidden: one its owner made private stays
    private when a command writes it again (`gdl serve --save` rewrote it after every
    decision, readable by everyone: 0o600 became 0o644)."""
    path = tmp_path / "game.txt"
    path.write_text("# gdl transcript\nold")
    path.chmod(0o600)
    save(str(path), "# gdl transcript\nnew")     # (record -o writes over a transcript only)
    assert path.read_text() == "# gdl transcript\nnew"
    assert path.stat().st_mode & 0o777 == 0o600
    result = invoke("record", str(RULES / "nim.gdl"), "-o", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith("# gdl transcript")
    assert path.stat().st_mode & 0o777 == 0o600


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


KILLED_WRITER = """
import os, signal, sys
from gdl.interpreter import files
os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)    # killed before the rename
files.write_atomic(sys.argv[1], "half")
"""


def test_the_next_write_removes_what_a_killed_writer_left(tmp_path):
    """SIGKILL cannot be caught: the writer's temporary file stays until the next write in
    that folder, which removes it (its process is gone); a live writer's is kept."""
    target = tmp_path / "record.txt"
    target.write_text("old")
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target)])
    assert killed.returncode == -signal.SIGKILL
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".gdl-")]
    assert len(left) == 1 and target.read_text() == "old"
    live = tmp_path / f".gdl-{os.getppid()}-inprogress"      # a writer that is still running
    live.write_text("")
    save(str(tmp_path / "other.txt"), "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name, "other.txt", "record.txt"]


def test_a_killed_builds_folder_and_cache_entry_are_removed(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True)
    dead = int(gone.stdout)
    (tmp_path / f".build-{dead}-x1").mkdir()
    (tmp_path / f".build-{dead}-x1" / "rules.c").write_text("")
    (tmp_path / f".gdl-{dead}-entry.pickle").write_text("")
    (tmp_path / ".gdl-notapid-x").write_text("")            # not ours: left alone
    remove_stale(str(tmp_path), ".build-")
    remove_stale(str(tmp_path), ".gdl-")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".gdl-notapid-x"]


def test_a_named_pipe_is_written_into_not_replaced(tmp_path):
    """`-o /dev/stdout` or a FIFO: renaming over it would leave an ordinary file in its place
    (as root, over /dev/null itself) and the reader nothing."""
    import stat
    import threading
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()), daemon=True)
    reader.start()
    save(str(pipe), "record é\n")
    reader.join(timeout=10)
    assert received == ["record é\n".encode("utf-8")]
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
