"""Killing a real process at a chosen moment, for resume-after-SIGKILL tests."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any


def sigkill_when(
    command: Sequence[str], ready: Callable[[], bool], env: dict[str, Any], timeout: float = 900
) -> subprocess.Popen:
    """Start ``command``, wait until ``ready()`` (or it exits, or ``timeout``: long, for a cold
    compile on a busy machine; the wait normally ends at ``ready``), SIGKILL it."""
    proc = subprocess.Popen(list(command), env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout
        while not ready() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    return proc
