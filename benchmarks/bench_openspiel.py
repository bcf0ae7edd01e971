"""The OpenSpiel bridge's cost: perft through ``openspiel:game=...`` against bare ``pyspiel``.

For each game, in the same process and run (median of ``--repeats``):

* ``openspiel_made`` -- bare OpenSpiel, every leaf made with ``child``;
* ``bridge_children`` -- the bridge through ``Game.children`` (every leaf made: what search does);
* ``openspiel_counted`` -- bare OpenSpiel, the last ply counted with ``len(legal_actions())``;
* ``bridge_perft`` -- the bridge's ``Game.perft`` (``mindgames perft``: the last ply counted).

Rates are leaves per CPU second of this process (``time.process_time``), which the other jobs
on a shared machine disturb less than wall time.

The issue's target: the bridge at most 2x slower than bare OpenSpiel (``slowdown`` <= 2). Needs
the ``mindgames-openspiel`` distribution (``make test`` installs it). Writes
benchmarks/results/openspiel.json.

    .venv/bin/python benchmarks/bench_openspiel.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pyspiel
from perft_common import OPENSPIEL_PERFT, api_perft, rate, write_report

from mindgames.registry import get_registry

#: (OpenSpiel game string, perft depth)
GAMES = (("tic_tac_toe", 7), ("connect_four", 7), ("breakthrough(rows=6,columns=6)", 5))


def bare_perft() -> dict[str, Any]:
    """``made`` and ``counted`` of the shared OpenSpiel perft script, run in this process."""
    space: dict[str, Any] = {}
    exec(OPENSPIEL_PERFT, space)
    return space


def measure(text: str, depth: int, repeats: int) -> dict[str, dict]:
    bare = bare_perft()
    spiel = pyspiel.load_game(text)
    game = get_registry().game("openspiel", game=text)
    start = game.initial_state()

    def cpu_rate(count: Callable[[], int]) -> dict:
        return rate(count, repeats, None, time.process_time)

    rows = {
        "openspiel_made": cpu_rate(lambda: bare["made"](spiel.new_initial_state(), depth)),
        "bridge_children": cpu_rate(lambda: api_perft(game, start, depth)),
        "openspiel_counted": cpu_rate(lambda: bare["counted"](spiel.new_initial_state(), depth)),
        "bridge_perft": cpu_rate(lambda: game.perft(start, depth)),
    }
    if len({row["leaves"] for row in rows.values()}) != 1:
        raise SystemExit(f"{text}: perft counts differ: {rows}")
    pairs = (("bridge_children", "openspiel_made"), ("bridge_perft", "openspiel_counted"))
    for bridge, bare_name in pairs:
        rows[bridge]["slowdown"] = round(
            rows[bare_name]["leaves_per_second"] / rows[bridge]["leaves_per_second"], 2
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "openspiel.json"))
    args = parser.parse_args()
    results = {}
    for text, depth in GAMES:
        rows = measure(text, depth, args.repeats)
        results[text] = {"depth": depth, **rows}
        for name, row in rows.items():
            extra = f"  x{row['slowdown']} slower" if "slowdown" in row else ""
            print(
                f"{text:>32} d{depth} {name:>18}: {row['leaves_per_second']:>10,} leaves/s{extra}"
            )
    result = {
        "benchmark": "perft through the OpenSpiel bridge against bare pyspiel, same process",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "open_spiel": version("open_spiel"),
        "repeats": args.repeats,
        "results": results,
        "targets": {"slowdown": 2.0},
    }
    write_report(args.out, result)


if __name__ == "__main__":
    main()
