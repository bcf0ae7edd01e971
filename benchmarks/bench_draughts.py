"""Draughts move-generation speed: perft from the start position of American checkers.

Measures (median of ``--repeats`` runs, leaves per second):

* ``popcount`` -- ``engine.perft``: every position but the last ply made, last ply counted;
* ``made`` -- ``engine.perft_made``: every leaf position made;
* ``api_against_made`` -- at ``--made-depth``, timed in turn in CPU seconds: the perft through
  ``Game.children`` against ``made`` (the issue-22 target: at least 0.8 of it) and against the
  walk through ``legal_moves`` and ``play`` (the interface before ``children``);
* ``game_api`` -- the baseline: a perft through ``Game.children``
  (what a searcher sees, every leaf played), at a smaller depth;
* OpenSpiel's ``checkers`` (every leaf made with ``child``, and the last ply counted with
  ``len(legal_actions())``) and pydraughts (``american``, push/pop) through Python, when
  ``--compare-python`` (default: this interpreter) can import them. Keep them out of the
  project's venv: ``python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install open_spiel
  pydraughts``. OpenSpiel splits a multi-jump into one action per jump, so its leaf counts
  from depth 7 on differ from the published perft (179255 against 179740 at depth 7).

Prints and writes benchmarks/results/draughts.json with the ratios to the baseline.

    .venv/bin/python benchmarks/bench_draughts.py [--depth 9] [--repeats 3] \\
        [--compare-python /tmp/benchvenv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import platform
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

from mindgames.games.draughts import engine
from mindgames.games.draughts.rules import Checkers

EXPECTED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


OTHERS = (
    OPENSPIEL_PERFT
    + r"""
import json, statistics, sys, time
depth, repeats = int(sys.argv[1]), int(sys.argv[2])
out = {}
def timed(name, fn, d):
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        leaves = fn(d)
        rates.append(leaves / (time.perf_counter() - t))
    out[name] = {"depth": d, "leaves": leaves, "leaves_per_second": round(statistics.median(rates))}
try:
    import pyspiel
except ImportError:
    pyspiel = None
if pyspiel is not None:
    game = pyspiel.load_game("checkers")
    timed("openspiel_made", lambda d: made(game.new_initial_state(), d), depth)
    timed("openspiel_counted", lambda d: counted(game.new_initial_state(), d), depth)
try:
    from draughts import Board
except ImportError:
    Board = None
if Board is not None:
    def walk(board, d):
        moves = board.legal_moves()
        if d == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += walk(board, d - 1)
            board.pop()
        return total
    timed("pydraughts", lambda d: walk(Board(variant="american"), d), min(depth, 4))
print(json.dumps(out))
"""
)


def others(python: str, depth: int, repeats: int) -> dict:
    """OpenSpiel's checkers and pydraughts timed in ``python`` (a separate environment)."""
    try:
        out = subprocess.run(
            [python, "-c", OTHERS, str(depth), str(repeats)],
            capture_output=True,
            text=True,
            timeout=3600,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    return json.loads(out.stdout) if out.returncode == 0 else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--made-depth", type=int, default=8)
    parser.add_argument("--api-depth", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--compare-python",
        default=sys.executable,
        help="interpreter that has open_spiel / pydraughts (kept out of the project's venv)",
    )
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "draughts.json"))
    args = parser.parse_args()
    b, w, k, side = engine.START
    game = Checkers(repetition=False, no_progress=0)
    start = game.initial_state()

    def row(count_at: Callable[[int], int], depth: int) -> dict:
        return perft_row(count_at, depth, args.repeats, EXPECTED)

    rows = {
        "game_api": row(lambda d: api_perft(game, start, d), args.api_depth),
        "made": row(lambda d: engine.perft_made(b, w, k, side, d), args.made_depth),
        "popcount": row(lambda d: engine.perft(b, w, k, side, d), args.depth),
    }
    depth = args.made_depth
    versus = api_against_made(
        {
            "children": lambda: api_perft(game, start, depth),
            "made": lambda: engine.perft_made(b, w, k, side, depth),
            "play": lambda: play_perft(game, start, depth),
        },
        args.repeats,
        EXPECTED[depth - 1],
    )
    print(f"depth {depth}, leaves per CPU second: {versus}")
    rows.update(others(args.compare_python, args.api_depth, args.repeats))
    base = rows["game_api"]["leaves_per_second"]
    for name, row in rows.items():
        row["ratio_to_game_api"] = round(row["leaves_per_second"] / base, 2)
        print(
            f"{name:>10}: depth {row['depth']}  {row['leaves_per_second']:>10,} leaves/s  "
            f"x{row['ratio_to_game_api']}"
        )
    pairs = (
        ("made", "openspiel_made"),
        ("popcount", "openspiel_counted"),
        ("made", "pydraughts"),
        ("popcount", "pydraughts"),
    )
    for ours, other in pairs:
        if other in rows:
            ratio = round(rows[ours]["leaves_per_second"] / rows[other]["leaves_per_second"], 2)
            rows[ours][f"ratio_to_{other}"] = ratio
            print(f"{ours} / {other}: x{ratio}")
    result = {
        "benchmark": "draughts perft from the American checkers start position",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeats": args.repeats,
        "results": rows,
        "api_against_made": {"depth": depth, **versus},
        "targets": {"made": 1_500_000, "popcount": 3_000_000},
    }
    write_report(args.out, result)


if __name__ == "__main__":
    main()
