"""Helpers the perft benchmarks share: a checked median rate, and perft through the Game API."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mindgames.game import Game

#: OpenSpiel perft, run as a script in another Python (OpenSpiel is an optional ``bench`` extra):
#: ``counted`` counts the last ply's moves, ``made`` plays every leaf (OpenSpiel's ``child``)
OPENSPIEL_PERFT = r"""
def counted(s, d):
    if d == 1:
        return len(s.legal_actions())
    return sum(counted(s.child(a), d - 1) for a in s.legal_actions())
def made(s, d):
    if d == 1:
        n = 0
        for a in s.legal_actions():
            s.child(a)
            n += 1
        return n
    return sum(made(s.child(a), d - 1) for a in s.legal_actions())
"""


def rate(
    count: Callable[[], int],
    repeats: int,
    expected: int | None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict:
    """Median leaves/s of ``repeats`` runs of ``count``; checks the count.

    ``clock=time.process_time`` counts this process's CPU seconds: steadier on a busy machine.
    """
    rates, leaves = [], 0
    for _ in range(repeats):
        begin = clock()
        leaves = count()
        rates.append(leaves / (clock() - begin))
        if expected is not None and leaves != expected:
            raise SystemExit(f"wrong perft count {leaves}, expected {expected}")
    return {"leaves": leaves, "leaves_per_second": round(statistics.median(rates))}


def api_perft(game: Game, state: object, depth: int) -> int:
    """Perft through the Game interface only: ``children``, every leaf made."""
    children = game.children

    def walk(state: object, depth: int) -> int:
        if depth == 1:
            return len(children(state))
        total = 0
        for _, child in children(state):
            total += walk(child, depth - 1)
        return total

    return walk(state, depth) if depth > 0 else 1


def perft_row(
    count_at: Callable[[int], int], depth: int, repeats: int, expected: list[int]
) -> dict:
    """One result row: ``depth`` and the median rate of ``count_at(depth)``, checked against
    the published count ``expected[depth - 1]``."""
    return {"depth": depth, **rate(lambda: count_at(depth), repeats, expected[depth - 1])}


def play_perft(game: Game, state: object, depth: int) -> int:
    """Perft through ``legal_moves`` and ``play`` (the interface before ``Game.children``)."""
    total = 0
    for move in game.legal_moves(state):
        child = game.play(state, move)
        if depth == 1:
            total += 1
        elif not game.is_terminal(child):
            total += play_perft(game, child, depth - 1)
    return total


def api_against_made(
    counts: dict[str, Callable[[], int]], repeats: int, expected: int
) -> dict[str, object]:
    """Leaves per CPU second of each perft in ``counts`` (``children``, ``made`` and ``play``),
    timed in turn ``repeats`` times (so the shared machine's load falls on all alike), medians,
    and the ratios of the Game-API perft (``children``) to the engine's made-leaf perft and to
    the ``legal_moves`` + ``play`` walk. Every count is checked against ``expected``."""
    seconds: dict[str, list[float]] = {name: [] for name in counts}
    for _ in range(repeats):
        for name, count in counts.items():
            begin = time.process_time()
            leaves = count()
            seconds[name].append(time.process_time() - begin)
            if leaves != expected:
                raise SystemExit(f"{name}: wrong perft count {leaves}, expected {expected}")
    rate = {name: round(expected / statistics.median(s)) for name, s in seconds.items()}
    return {
        "leaves": expected,
        "cpu_leaves_per_second": rate,
        "children_to_made": round(rate["children"] / rate["made"], 3),
        "children_to_play": round(rate["children"] / rate["play"], 3),
    }


def write_report(path: str, report: dict[str, Any]) -> None:
    """Write a benchmark's JSON report to ``path`` (its folder made if missing) and say where."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")


def write_result(path: str, benchmark: str, result: dict[str, Any], load_before: Any) -> None:
    """Print ``result`` with the load averages before and now, and write it as ``benchmark``'s
    report (with the Python version and machine) to ``path``."""
    result = {
        **result,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    print(result)
    report = {
        "benchmark": benchmark,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "results": result,
    }
    write_report(path, report)
