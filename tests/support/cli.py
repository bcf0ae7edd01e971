"""The real ``mindgames`` command in a subprocess, and the one-line error rule as one assertion."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

MAIN = "from mindgames.cli.main import main; main()"


def command(*args: str) -> list[str]:
    """The command line of ``mindgames ARGS`` (as the console script runs it)."""
    return [sys.executable, "-c", MAIN, *args]


def environment(**extra: str) -> dict[str, str]:
    return {**os.environ, "MINDGAMES_STRICT_PLUGINS": "1", "OPENBLAS_NUM_THREADS": "1", **extra}


def run(
    *args: str | Path,
    cwd: Path | None = None,
    stdin: str | None = None,
    timeout: float = 120,
    file_size_limit: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``mindgames ARGS`` to the end and capture its output; ``file_size_limit`` (bytes)
    is ``ulimit -f``: a write past it fails as on a full disk."""

    def limit() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run(
        command(*map(str, args)),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(),
        cwd=cwd,
        input=stdin,
        preexec_fn=limit,
    )


def start(*args: str | Path, cwd: Path | None = None) -> subprocess.Popen[str]:
    """Start ``mindgames ARGS`` in the background (stdout discarded, stderr captured)."""
    return subprocess.Popen(
        command(*map(str, args)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        cwd=cwd,
    )


def wait_for(
    condition: Callable[[], bool], proc: subprocess.Popen[str], seconds: float = 60
) -> None:
    """Poll ``condition`` until it holds; fail if ``proc`` ends first or time runs out."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert proc.poll() is None, (
            f"ended early: {proc.returncode} {proc.stderr.read() if proc.stderr else ''}"
        )
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler installed for ``signum`` (Linux /proc: SigCgt)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signum - 1) & 1)


def lines(path: Path) -> int:
    """Complete lines in a file (0 when it does not exist)."""
    return path.read_bytes().count(b"\n") if path.exists() else 0


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def one_line_error(done: subprocess.CompletedProcess[str], *parts: str, code: int = 2) -> str:
    """Assert the run failed with exit ``code`` and one ``mindgames: error:`` line holding
    ``parts`` (no traceback); return that line."""
    lines = done.stderr.splitlines()
    assert done.returncode == code, (done.returncode, done.stderr)
    assert len(lines) == 1, done.stderr
    line = lines[0]
    assert line.startswith("mindgames: error: "), line
    assert "Traceback" not in done.stderr
    for part in parts:
        assert part in line, (part, line)
    return line
