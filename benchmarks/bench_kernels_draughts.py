"""Compiled draughts kernels against the pure-Python engine: perft from the start, same run.

Measures, in CPU seconds (``time.process_time``, medians of ``--repeats``), leaves per second:

* ``compiled_made`` / ``compiled_counted`` -- ``kernels.perft`` (every leaf made) and
  ``kernels.perft_counted`` (last ply counted) at ``--depth``, checkers and give-away;
* ``python_made`` / ``python_counted`` -- ``engine.perft_made`` and ``engine.perft`` (the best
  pure-Python perft: set-wise, last ply by popcount) and ``python_children`` -- the perft
  through ``Game.children`` (what a Python searcher sees), at ``--python-depth``;
* the ratios compiled / Python, made to made and counted to counted (leaves per second, so
  the two depths may differ);
* ``start_up`` -- in a fresh process: importing the kernel module and the first perft 1 call
  (the cache loaded, or the compile when it is cold: ``cold`` says which was asked for by
  ``--cold``, which points numba's cache at an empty directory).

Do not read figures taken on a loaded machine as the project's: the lead runs it idle.

    .venv/bin/python benchmarks/bench_kernels_draughts.py [--depth 9] [--python-depth 7] \\
        [--repeats 3] [--cold]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

from perft_common import api_perft, rate, write_report

from mindgames.games.draughts import engine
from mindgames.games.draughts.rules import Checkers, Draughts, Giveaway

EXPECTED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]

START_UP = r"""
import time
t0 = time.perf_counter(); c0 = time.process_time()
import importlib
from mindgames.games.draughts.rules import Checkers
k = Checkers().kernels()
m = importlib.import_module(k.module)
t1 = time.perf_counter(); c1 = time.process_time()
assert m.perft(k.params, k.to_row(Checkers().initial_state()), 1) == 7
assert m.perft_counted(k.params, k.to_row(Checkers().initial_state()), 1) == 7
t2 = time.perf_counter(); c2 = time.process_time()
print(t1 - t0, c1 - c0, t2 - t1, c2 - c1)
"""


def start_up(cold: bool) -> dict[str, object]:
    """Import and first-call times of the kernels in a fresh process (wall and CPU seconds)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run(
            [sys.executable, "-c", START_UP], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
    wall_import, cpu_import, wall_first, cpu_first = (round(float(x), 3) for x in out)
    return {
        "cold": cold,
        "import_wall_s": wall_import,
        "import_cpu_s": cpu_import,
        "first_perft_wall_s": wall_first,
        "first_perft_cpu_s": cpu_first,
    }


def one_game(game: Draughts, depth: int, python_depth: int, repeats: int) -> dict[str, object]:
    """Every perft of one game, compiled and Python, and their ratios."""
    kernels = game.kernels()
    assert kernels is not None
    m = importlib.import_module(kernels.module)
    state = game.initial_state()
    row = kernels.to_row(state)
    m.perft(kernels.params, row, 2)  # compiled (or loaded) before timing
    m.perft_counted(kernels.params, row, 2)
    cpu = time.process_time
    want, want_py = EXPECTED[depth - 1], EXPECTED[python_depth - 1]
    b, w, k, side = state[:4]
    rows = {
        "compiled_made": rate(lambda: m.perft(kernels.params, row, depth), repeats, want, cpu),
        "compiled_counted": rate(
            lambda: m.perft_counted(kernels.params, row, depth), repeats, want, cpu
        ),
        "python_made": rate(
            lambda: engine.perft_made(b, w, k, side, python_depth), repeats, want_py, cpu
        ),
        "python_counted": rate(
            lambda: engine.perft(b, w, k, side, python_depth), repeats, want_py, cpu
        ),
        "python_children": rate(
            lambda: api_perft(game, state, python_depth), repeats, want_py, cpu
        ),
    }

    def per_second(name: str) -> int:
        return int(rows[name]["leaves_per_second"])

    return {
        "depth": depth,
        "python_depth": python_depth,
        **rows,
        "made_ratio": round(per_second("compiled_made") / per_second("python_made"), 2),
        "counted_ratio": round(per_second("compiled_counted") / per_second("python_counted"), 2),
        "made_to_children_ratio": round(
            per_second("compiled_made") / per_second("python_children"), 2
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--python-depth", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="time a cold compile too")
    parser.add_argument("--out", default="benchmarks/results/kernels_draughts.json")
    args = parser.parse_args()
    report: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load": os.getloadavg(),
        "start_up_warm": start_up(False),
    }
    if args.cold:
        report["start_up_cold"] = start_up(True)
    for game in (Checkers(), Giveaway()):
        report[game.name] = one_game(game, args.depth, args.python_depth, args.repeats)
    report["load_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    write_report(args.out, report)


if __name__ == "__main__":
    main()
