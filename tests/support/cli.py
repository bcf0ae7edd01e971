"""The real ``mindgames`` command in a subprocess, and the one-line error rule as one assertion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MAIN = "from mindgames.cli.main import main; main()"


def command(*args: str) -> list[str]:
    """The command line of ``mindgames ARGS`` (as the console script runs it)."""
    return [sys.executable, "-c", MAIN, *args]


def environment(**extra: str) -> dict[str, str]:
    return {**os.environ, "MINDGAMES_STRICT_PLUGINS": "1", "OPENBLAS_NUM_THREADS": "1", **extra}


def run(
    *args: str | Path, cwd: Path | None = None, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``mindgames ARGS`` to the end and capture its output."""
    return subprocess.run(
        command(*map(str, args)),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(),
        cwd=cwd,
        input=stdin,
    )


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
