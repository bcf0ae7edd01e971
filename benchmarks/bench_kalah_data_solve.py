"""`data solve` of late Kalah(6,4) positions: the compiled solver against the Python one.

Issue 34's case: ``--positions`` (default 1,000) positions drawn as ``mindgames data generate kalah
--plies 0-200 --max-pieces 18 --count N --seed 1`` draws them (core/data/playouts.py), labelled as
``data solve`` labels them (``labelling.label_chunk`` with the ``solve`` labeller, one chunk), once
on the compiled path and once with ``MINDGAMES_PYTHON_PATH=1`` (the Python solver), in the same
process; the labels are checked equal. CPU seconds (``time.process_time``: the compiled solver runs
in a thread of its own, which the process's CPU time counts), the solver's compile (or cache load)
paid before timing by labelling the first 20 positions once. The figures mean most on an idle
machine; the load is recorded beside them.

.venv/bin/python benchmarks/bench_kalah_data_solve.py [--positions 1000] [--max-seeds 18]

Writes benchmarks/results/kalah_data_solve.json.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from perft_common import write_result

from mindgames.data.labelling import Labeller, label_chunk
from mindgames.data.playouts import generate
from mindgames.games.kalah.rules import Kalah


def label_all(labeller: dict[str, Any], items: list[tuple[int, str]], python: bool) -> tuple:
    """CPU seconds and labels of one ``label_chunk`` over ``items``, on the path asked for."""
    old = os.environ.get("MINDGAMES_PYTHON_PATH")
    os.environ["MINDGAMES_PYTHON_PATH"] = "1" if python else "0"
    try:
        start = time.process_time()
        records = label_chunk(labeller, items)
        return time.process_time() - start, [r["value"] for r in records]
    finally:
        if old is None:
            del os.environ["MINDGAMES_PYTHON_PATH"]
        else:
            os.environ["MINDGAMES_PYTHON_PATH"] = old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--max-seeds", type=int, default=18)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "kalah_data_solve.json")
    )
    args = parser.parse_args()
    game = Kalah()
    data = generate(
        game, 0, 200, args.positions, np.random.default_rng(args.seed), max_pieces=args.max_seeds
    )
    items = list(enumerate(data.positions.tolist()))
    labeller = Labeller("solve", game.spec(), squash="linear", scale=48.0).as_dict()
    label_all(labeller, items[:20], python=False)  # compiled (or loaded) before timing
    load_before = os.getloadavg()
    c_time, c_values = label_all(labeller, items, python=False)
    p_time, p_values = label_all(labeller, items, python=True)
    if c_values != p_values:
        raise SystemExit("the compiled and Python solvers' values differ")
    result = {
        "game": game.spec(),
        "positions": len(items),
        "max_seeds": args.max_seeds,
        "compiled_cpu_seconds": round(c_time, 3),
        "python_cpu_seconds": round(p_time, 3),
        "ratio_to_python": round(p_time / c_time, 1),
    }
    benchmark = "data solve of late Kalah(6,4) positions: compiled against Python solver"
    write_result(args.out, benchmark, result, load_before)


if __name__ == "__main__":
    main()
