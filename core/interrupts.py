"""SIGINT and SIGTERM turned into a clean stop: long runs save what they have and say how to
resume, instead of dying with "Aborted!" or a traceback. ``time_limit`` bounds a long
computation (``solve --time``) the same way.

``stop_on_signals(graceful=...)`` installs the handlers while a run is going:

* ``graceful=False`` (tournaments, matches: every finished game is already on disk): the first
  signal raises ``Interrupted`` at once in the main thread;
* ``graceful=True`` (training): the first signal only sets a flag. The learner reads it with
  ``stop_requested()`` when it decides whether to checkpoint, then reports its row, checkpoints
  and stops with ``Interrupted`` (``training.reporting`` does the three in that order; a
  learner that never asks is stopped one row later, from its last regular checkpoint). A
  second signal raises at once.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from mindgames.errors import Interrupted, TimeLimitError

SIGNALS = (signal.SIGINT, signal.SIGTERM)

_received: list[str] = []
_seen: list[bool] = []


def stop_requested() -> bool:
    """Whether SIGINT or SIGTERM arrived since the current run started.

    A learner asks this before deciding to checkpoint; a True answer is remembered
    (``acknowledged``), so the run stops right after that checkpoint (``training.reporting``).
    Ask it first (``stop_requested() or due``): behind a checkpoint that is due anyway it would
    not be asked, and the run would go on one more row and stop before that row's checkpoint.
    """
    if _received:
        _seen[:] = [True]
    return bool(_received)


def pending() -> bool:
    """Whether a signal arrived (without acknowledging it, unlike ``stop_requested``)."""
    return bool(_received)


def acknowledged() -> bool:
    """Whether the run has seen the pending signal through ``stop_requested``."""
    return bool(_seen)


def signal_name() -> str:
    """The name of the first signal received (``SIGINT``), or ``"a signal"``."""
    return _received[0] if _received else "a signal"


@contextlib.contextmanager
def stop_on_signals(*, graceful: bool) -> Iterator[None]:
    """Handle SIGINT and SIGTERM as the module docstring says, restoring the old handlers after."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return

    def handle(number: int, _: FrameType | None) -> None:
        first = not _received
        _received.append(signal.Signals(number).name)
        if not graceful or not first:
            raise Interrupted(f"interrupted by {signal_name()}")

    _received.clear()
    _seen.clear()
    before = {number: signal.signal(number, handle) for number in SIGNALS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        _received.clear()
        _seen.clear()


@contextlib.contextmanager
def time_limit(seconds: float | None, what: str) -> Iterator[None]:
    """Raise ``TimeLimitError`` in the body after ``seconds`` of wall time (None or 0: no limit).

    A timer signal (SIGALRM), so the body (an exact solver, a search) pays nothing per node.
    """
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(number: int, _: FrameType | None) -> None:
        raise TimeLimitError(f"{what}: no answer within {seconds:g} s; give --time to allow more")

    before = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
