"""Atomic writes give a new file the mode ``open`` would, and keep a replaced file's mode."""

from __future__ import annotations

import os
import stat

import pytest

from mindgames.files import atomic_write


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_gets_the_mode_open_would_give(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "new.txt", "w") as fh:
            fh.write("x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.txt") == 0o644


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "kept.txt"
    target.write_text("old")
    target.chmod(0o640)
    with atomic_write(target, "w") as fh:
        fh.write("new")
    assert target.read_text() == "new"
    assert _mode(target) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "kept.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(target, "w") as fh:
        fh.write("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]
