"""The largest counts and sizes a user may ask for, checked up front with one line naming the
option: a count past them would not finish in a lifetime or not fit in memory, and used to
run silently at full CPU (``--games 10**21``) or fail with a traceback (``hidden = [10**9]``)."""

from __future__ import annotations

import os

from mindgames.errors import ConfigError

#: games one match or tournament plans (each is a task held in memory)
MAX_GAMES = 1_000_000
#: openings one config asks for (random ones take up to 100 draws each while lines repeat)
MAX_OPENINGS = 10_000
#: positions one data set is generated with
MAX_POSITIONS = 10_000_000
#: weights one model is built with (float64: 400 MB)
MAX_PARAMETERS = 50_000_000
#: a model file's arrays, elements in all (a file is refused before it is read whole)
MAX_FILE_ELEMENTS = MAX_PARAMETERS


def max_workers() -> int:
    """Worker processes one machine is asked to start: eight per core, at least 64."""
    return max(64, 8 * (os.cpu_count() or 1))


def at_most(option: str, value: int, most: int, why: str = "") -> int:
    """``value`` when it is at most ``most``; else ``ConfigError`` naming ``option`` (and
    ``why``, what the limit stands for)."""
    if value > most:
        reason = f" ({why})" if why else ""
        raise ConfigError(f"{option} must be at most {most:,}{reason}, got {value:,}")
    return value
