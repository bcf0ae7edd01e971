"""Stage schedules by plies played, shared by the learners that train end-game first (Layered
Learning, the heuristic generators HG/SHG).

A stage is a window of plies [lo, hi] (both inclusive). A schedule lists the stages in the order
they are trained: the one nearest the end of the game first, each next one ``step`` plies nearer
the root, cut at ply 0. Layered Learning's k disjoint stages of ``width`` plies are
``windows((k - 1) * width, k * width - 1, width, k)``; HG's overlapping phases at 81-87 plies,
6 plies nearer each time, are ``windows(81, 87, 6, n)``.

The depth that reaches the stage trained before from a position at ply ``p`` of stage ``s`` is
``s.hi + 1 - p``: every leaf of such a search lies past ``s``, where the previous stage's
evaluator was trained.
"""

from __future__ import annotations

import attrs

from mindgames.errors import ConfigError


@attrs.frozen
class Stage:
    """One stage: its place in the training order (1 = trained first) and its plies [lo, hi]."""

    order: int
    lo: int
    hi: int

    def reach(self, ply: int) -> int:
        """The search depth from ``ply`` whose leaves all lie past this stage (at least 1)."""
        return max(1, self.hi + 1 - ply)

    def as_dict(self) -> dict[str, int]:
        return {"order": self.order, "lo": self.lo, "hi": self.hi}


def windows(lo: int, hi: int, step: int, count: int) -> tuple[Stage, ...]:
    """``count`` stages, the first [lo, hi], each next one ``step`` plies nearer the root.

    A window that would start before ply 0 starts at 0; one that would end before ply 0 is an
    error (the schedule asks for more stages than the plies allow).
    """
    if not 0 <= lo <= hi:
        raise ConfigError(f"stage plies {lo}-{hi}: expected 0 <= lo <= hi")
    if step < 1 or count < 1:
        raise ConfigError(f"stage schedule: step and count must be at least 1 ({step}, {count})")
    out = []
    for k in range(count):
        a, b = lo - k * step, hi - k * step
        if b < 0:
            raise ConfigError(
                f"stage schedule: {count} stages {step} plies apart from {lo}-{hi} pass ply 0"
            )
        out.append(Stage(k + 1, max(0, a), b))
    return tuple(out)


def disjoint(count: int, width: int) -> tuple[Stage, ...]:
    """``count`` disjoint stages of ``width`` plies covering [0, count * width), last first."""
    if count < 1 or width < 1:
        raise ConfigError(f"stages and width must be at least 1, got {count} and {width}")
    return windows((count - 1) * width, count * width - 1, width, count)


def bounds(schedule: tuple[Stage, ...]) -> list[int]:
    """The first ply of every stage but the one nearest the root, ascending: the ``bounds`` of a
    ``staged`` evaluator on the ``plies`` column with one member per stage."""
    return sorted(s.lo for s in schedule)[1:]
