"""Kalah's compiled path against its Python path, measured in the same run (CPU seconds, the
median of ``--repeats``; ratios = Python CPU / compiled CPU):

* ``perft`` -- Kalah(6,4) from the start to ``--depth`` plies, every leaf made: the kernels'
  ``perft`` against the Python engine's ``perft_made`` (and ``Game.perft``, which counts the
  last ply without making it); both rules, the counts checked equal;
* ``solver`` -- the exact solver from the start of ``--solve-size``: ``solve_compiled`` against
  ``solve_python`` (same value, best moves and nodes, checked);
* ``data_solve`` -- what ``data solve`` does to ``--positions`` late Kalah(6,4) positions
  (at most ``--max-seeds`` seeds in the pits, ``core/data/solved.py``'s default 18): every legal
  move's successor solved, both solvers (values checked equal);
* ``start`` -- a fresh process importing the kernels and running a perft of depth 1: with the
  JIT cache warm, and (unless ``--no-cold``) with an empty cache (the cold compile of every
  kernel these calls need, solver included).

The figures mean something only on an idle machine. Writes benchmarks/results/kernels_kalah.json:

    .venv/bin/python benchmarks/bench_kernels_kalah.py [--depth 9] [--positions 100]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from perft_common import write_report

from mindgames.games.kalah import kernels
from mindgames.games.kalah.engine import perft_made
from mindgames.games.kalah.rules import Kalah, KalahState
from mindgames.games.kalah.solver import solve_compiled, solve_python

START = """
import time
t, c = time.perf_counter(), time.process_time()
import numpy as np
from mindgames.games.kalah import kernels, solverkernels
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import solve_compiled
game = Kalah(pits=3, seeds=2)
gk = game.kernels()
kernels.perft(gk.params, gk.to_row(game.initial_state()), 1)
solve_compiled(game, game.initial_state())
row = np.zeros(4 * game.pits + 4)
state = gk.to_row(game.initial_state())
kernels.encode(gk.params, gk.encodings["kalah-features"], np.zeros(0), state, row)
print(time.perf_counter() - t, time.process_time() - c)
"""


def cpu(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """The median CPU seconds of ``fn`` over ``repeats`` runs, and its last result."""
    times, out = [], None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), out


def start_up(cache: str | None) -> dict[str, float]:
    """A fresh process's wall and CPU seconds to import and first call (module ``START``)."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    done = subprocess.run(
        [sys.executable, "-c", START], env=env, capture_output=True, text=True, check=True
    )
    wall, cpu_s = (float(x) for x in done.stdout.split())
    return {"wall_seconds": round(wall, 3), "cpu_seconds": round(cpu_s, 3)}


def late_positions(game: Kalah, count: int, max_seeds: int, seed: int) -> list[KalahState]:
    """Seeded random games' first positions with at most ``max_seeds`` seeds in the pits."""
    rng = np.random.default_rng(seed)
    out: list[KalahState] = []
    while len(out) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and game.pieces(state) > max_seeds:
            kids = game.children(state)
            state = kids[int(rng.integers(len(kids)))][1]
        if not game.is_terminal(state) and len(game.legal_moves(state)) > 1:
            out.append(state)
    return out


def perft_row(game: Kalah, depth: int, repeats: int) -> dict[str, Any]:
    """Kernels' perft against the Python engine's, from the start of ``game`` (module doc)."""
    t, gk = game.t, game.kernels()
    state = game.initial_state()
    row = gk.to_row(state)
    kernels.perft(gk.params, row, 2)  # compiled (or loaded) before timing
    compiled, leaves = cpu(lambda: kernels.perft(gk.params, row, depth), repeats)
    made, py_leaves = cpu(
        lambda: perft_made(t, state[0], state[1], depth, game.empty_capture), repeats
    )
    counted, counted_leaves = cpu(lambda: game.perft(state, depth), repeats)
    if not int(leaves) == py_leaves == counted_leaves:
        raise SystemExit(f"perft differs: {leaves} {py_leaves} {counted_leaves}")
    return {
        "depth": depth,
        "leaves": int(leaves),
        "compiled_cpu_seconds": round(compiled, 4),
        "python_made_cpu_seconds": round(made, 4),
        "python_counted_cpu_seconds": round(counted, 4),
        "compiled_leaves_per_second": round(int(leaves) / compiled),
        "ratio_to_python_made": round(made / compiled, 1),
        "ratio_to_python_counted": round(counted / compiled, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--solve-size", default="4,4", help="PITS,SEEDS solved from the start")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--max-seeds", type=int, default=18)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-cache start")
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "kernels_kalah.json")
    )
    args = parser.parse_args()
    results: dict[str, Any] = {}

    start: dict[str, Any] = {"warm": start_up(None)}
    if not args.no_cold:
        with tempfile.TemporaryDirectory() as cache:
            start["cold"] = start_up(cache)
    results["start"] = start
    print(f"start: {start}")

    perft_rows = {}
    for rule in (False, True):
        game = Kalah(empty_capture=rule)
        perft_rows[game.spec()] = perft_row(game, args.depth, args.repeats)
        print(f"perft {game.spec()}: {perft_rows[game.spec()]}")
    results["perft"] = perft_rows

    pits, seeds = (int(x) for x in args.solve_size.split(","))
    small = Kalah(pits=pits, seeds=seeds)
    root = small.initial_state()
    solve_compiled(small, root)
    c_time, c_sol = cpu(lambda: solve_compiled(small, root), args.repeats)
    p_time, p_sol = cpu(lambda: solve_python(small, root), args.repeats)
    if (c_sol.value, c_sol.best_moves, c_sol.nodes) != (p_sol.value, p_sol.best_moves, p_sol.nodes):
        raise SystemExit(f"the solvers differ: {c_sol} {p_sol}")
    results["solver"] = {
        "game": small.spec(),
        "value": p_sol.south_margin,
        "nodes": p_sol.nodes,
        "compiled_cpu_seconds": round(c_time, 4),
        "python_cpu_seconds": round(p_time, 4),
        "compiled_nodes_per_second": round(p_sol.nodes / c_time),
        "ratio_to_python": round(p_time / c_time, 1),
    }
    print(f"solver: {results['solver']}")

    game = Kalah()
    positions = late_positions(game, args.positions, args.max_seeds, seed=0)
    successors = [child for state in positions for _, child in game.children(state)]

    def solve_all(solve: Callable[[Kalah, KalahState], Any]) -> list[int]:
        return [solve(game, child).value for child in successors]

    c_time, c_values = cpu(lambda: solve_all(solve_compiled), args.repeats)
    p_time, p_values = cpu(lambda: solve_all(solve_python), args.repeats)
    if c_values != p_values:
        raise SystemExit("the solvers' values differ on the late positions")
    results["data_solve"] = {
        "game": game.spec(),
        "positions": len(positions),
        "successors_solved": len(successors),
        "max_seeds": args.max_seeds,
        "compiled_cpu_seconds": round(c_time, 4),
        "python_cpu_seconds": round(p_time, 4),
        "ratio_to_python": round(p_time / c_time, 1),
    }
    print(f"data_solve: {results['data_solve']}")

    report = {
        "benchmark": "Kalah kernels against the Python path: perft, solver, data solve, start-up",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeats": args.repeats,
        "results": results,
    }
    write_report(args.out, report)


if __name__ == "__main__":
    main()
