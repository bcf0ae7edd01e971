"""TD(lambda) self-play speed on Kalah(6,4) with a 14-30-1 MLP and 1-ply move choice.

Baseline: one game at a time (``lockstep = 1``). Compared: many games in lockstep, their
positions valued and differentiated in one matrix product per ply. Prints and writes
benchmarks/results/td.json with the median games/s of several repeats and the ratios.

    .venv/bin/python benchmarks/bench_td.py [--games 1000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core

import numpy as np

from mindgames.agent import build_evaluator
from mindgames.registry import get_registry

EVAL = {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"}


def games_per_second(games: int, lockstep: int, seed: int) -> tuple[float, float]:
    """Train ``games`` games from a fresh net; games/s and mean plies.

    Game lengths differ with ``lockstep`` (the weights change once per ply for all the games
    in flight, so the nets play differently), hence plies/s is reported beside games/s.
    """
    registry = get_registry()
    game = registry.game("kalah:pits=6,seeds=4")
    evaluator = build_evaluator(registry, game, EVAL, seed=seed)
    # alpha * lockstep is kept <= 0.4 so that the summed updates do not saturate the net
    # (docs/learners.md), which would change the games and so the figures
    alpha = min(0.1, 0.4 / lockstep)
    options = {"games": games, "batch": games, "checkpoint_every": 0, "lam": 0.8, "alpha": alpha}
    learner = registry.learner("td", {**options, "lockstep": lockstep}, where="bench")
    with tempfile.TemporaryDirectory() as workdir:
        begin = time.perf_counter()
        result = learner.train(game, evaluator, np.random.default_rng(seed), workdir=Path(workdir))
        seconds = time.perf_counter() - begin
    return games / seconds, result.history[-1]["mean_plies"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lockstep", type=int, nargs="*", default=[1, 16, 64, 256])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "td.json"))
    args = parser.parse_args()
    rows = []
    for lockstep in args.lockstep:
        runs = [games_per_second(args.games, lockstep, seed) for seed in range(args.repeats)]
        rate = statistics.median(r[0] for r in runs)
        plies = statistics.median(r[1] for r in runs)
        positions = statistics.median(r[0] * r[1] for r in runs)
        rows.append(
            {
                "lockstep": lockstep,
                "games_per_second": round(rate, 1),
                "plies_per_second": round(positions),
                "plies": plies,
            }
        )
        print(
            f"lockstep {lockstep:>4}: {rate:8.1f} games/s  {positions:9.0f} plies/s  "
            f"(mean plies {plies:.1f})"
        )
    base = rows[0]
    for row in rows:
        row["ratio"] = round(row["games_per_second"] / base["games_per_second"], 2)
        row["plies_ratio"] = round(row["plies_per_second"] / base["plies_per_second"], 2)
    report = {
        "benchmark": "td self-play, kalah(6,4), kalah14, mlp 14-30-1 sigmoid, 1-ply",
        "alpha": "min(0.1, 0.4 / lockstep)",
        "games": args.games,
        "repeats": args.repeats,
        "baseline": "lockstep 1 (one game at a time)",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rows": rows,
        "target_games_per_second": 1000,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
