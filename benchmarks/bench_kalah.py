"""Kalah speed: ply perft of Kalah(6, 4) from the start, and the exact solver's nodes/s.

Measures (median of ``--repeats`` runs):

* ``game_api`` -- the baseline: perft through ``Game.children``, every leaf made;
* ``api_against_made`` -- at ``--api-depth``, timed in turn in CPU seconds: the perft through
  ``Game.children`` against ``made`` (the issue-22 target: at least 0.8 of it) and against the
  walk through ``legal_moves`` and ``play`` (the interface before ``children``);
* ``made`` -- ``engine.perft_made``: every leaf position made (the issue's target: 2 M leaves/s);
* ``counted`` -- ``engine.perft`` (what ``Game.perft`` uses): the last ply counted, not made;
* ``solver`` -- ``solver.solve_python`` (the pure-Python solver) from the start of
  ``--solve-size``: nodes/s;
* OpenSpiel's ``mancala`` (same default rules) through Python, when ``--compare-python`` (or
  this interpreter) can import ``pyspiel``: its leaves/s with every leaf made (``child``) and with
  the last ply counted (``len(legal_actions())``), and its perft counts, checked against ours.

Prints and writes benchmarks/results/kalah.json with ratios to the baseline measured in the
same run. OpenSpiel is kept out of the project's environment: put it in a separate one, e.g.
``python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install open_spiel``.

    .venv/bin/python benchmarks/bench_kalah.py [--depth 9] \\
        [--compare-python /tmp/benchvenv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from perft_common import (
    OPENSPIEL_PERFT,
    api_against_made,
    api_perft,
    perft_row,
    play_perft,
    write_report,
)

from mindgames.games.kalah.engine import perft, perft_made
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import solve_python as solve

#: OpenSpiel's mancala perft from the start, depths 1-10 (its rules are our defaults)
EXPECTED = [6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519607]

OPENSPIEL = (
    OPENSPIEL_PERFT
    + r"""
import json, statistics, sys, time
import pyspiel
depth, repeats = int(sys.argv[1]), int(sys.argv[2])
game = pyspiel.load_game("mancala")
out = {}
for name, fn in (("made", made), ("counted", counted)):
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        leaves = fn(game.new_initial_state(), depth)
        rates.append(leaves / (time.perf_counter() - t))
    out[name] = {"depth": depth, "leaves": leaves,
                 "leaves_per_second": round(statistics.median(rates))}
out["counts"] = [made(game.new_initial_state(), d) for d in range(1, min(depth, 8) + 1)]
print(json.dumps(out))
"""
)


def openspiel(python: str, depth: int, repeats: int) -> dict | None:
    """OpenSpiel's mancala timed in ``python`` (a separate environment); None if unavailable."""
    try:
        out = subprocess.run(
            [python, "-c", OPENSPIEL, str(depth), str(repeats)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--api-depth", type=int, default=7)
    parser.add_argument("--openspiel-depth", type=int, default=8)
    parser.add_argument("--solve-size", default="4,3", help="PITS,SEEDS solved from the start")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compare-python", default=sys.executable)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "kalah.json"))
    args = parser.parse_args()
    game = Kalah()
    t = game.t
    start = game.initial_state()
    pos, side = start[0], start[1]

    def row(count_at: Callable[[int], int], depth: int) -> dict:
        return perft_row(count_at, depth, args.repeats, EXPECTED)

    rows: dict[str, dict] = {
        "game_api": row(lambda d: api_perft(game, start, d), args.api_depth),
        "made": row(lambda d: perft_made(t, pos, side, d, False), args.depth),
        "counted": row(lambda d: perft(t, pos, side, d, False), args.depth),
    }
    depth = args.api_depth
    versus = api_against_made(
        {
            "children": lambda: api_perft(game, start, depth),
            "made": lambda: perft_made(t, pos, side, depth, False),
            "play": lambda: play_perft(game, start, depth),
        },
        args.repeats,
        EXPECTED[depth - 1],
    )
    print(f"depth {depth}, leaves per CPU second: {versus}")
    pits, seeds = (int(x) for x in args.solve_size.split(","))
    small = Kalah(pits=pits, seeds=seeds)
    node_rates, solution = [], None
    for _ in range(args.repeats):
        solution = solve(small, small.initial_state())
        node_rates.append(solution.nodes / solution.seconds)
    assert solution is not None
    solver_row = {
        "game": small.spec(),
        "value": solution.south_margin,
        "nodes": solution.nodes,
        "nodes_per_second": round(statistics.median(node_rates)),
    }
    other = openspiel(args.compare_python, args.openspiel_depth, args.repeats)
    if other is not None:
        counts = other.pop("counts")
        if counts != EXPECTED[: len(counts)]:
            raise SystemExit(f"OpenSpiel's mancala perft {counts} differs from {EXPECTED}")
        for name, row in other.items():
            rows[f"openspiel_{name}"] = row
    base = rows["game_api"]["leaves_per_second"]
    for name, row in rows.items():
        row["ratio_to_game_api"] = round(row["leaves_per_second"] / base, 2)
        print(
            f"{name:>18}: depth {row['depth']:2d}  {row['leaves_per_second']:>10,} leaves/s  "
            f"x{row['ratio_to_game_api']}"
        )
    if other is not None:
        for name in ("made", "counted"):
            rows[name]["ratio_to_openspiel"] = round(
                rows[name]["leaves_per_second"] / rows[f"openspiel_{name}"]["leaves_per_second"], 2
            )
            print(f"{name} / openspiel_{name}: x{rows[name]['ratio_to_openspiel']}")
    print(
        f"solver {solver_row['game']}: value {solver_row['value']:+d}, {solver_row['nodes']:,} "
        f"nodes, {solver_row['nodes_per_second']:,} nodes/s"
    )
    result = {
        "benchmark": "Kalah(6,4) ply perft from the start; exact solver nodes/s",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeats": args.repeats,
        "results": rows,
        "api_against_made": {"depth": depth, **versus},
        "solver": solver_row,
        "targets": {"made": 2_000_000},
    }
    write_report(args.out, result)


if __name__ == "__main__":
    main()
