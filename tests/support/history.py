"""History rows without the columns that time the run, which differ between any two runs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mindgames.training import TIMING_COLUMNS


def untimed(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows with their timing columns dropped: what two runs of one seed must share."""
    return [{k: v for k, v in row.items() if k not in TIMING_COLUMNS} for row in rows]
