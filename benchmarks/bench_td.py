"""TD(lambda) self-play speed on Kalah(6,4) with a 14-30-1 MLP and 1-ply move choice.

Baseline: one game at a time (``lockstep = 1``). Compared: many games in lockstep, their
positions valued and differentiated in one matrix product per ply. Prints and writes
benchmarks/results/td.json with the median games per CPU second (``time.process_time``: the
machine is shared, and CPU time is what training costs; wall figures beside them) of several
repeats and the ratios.

    .venv/bin/python benchmarks/bench_td.py [--games 1000] [--repeats 3]

With ``--compare-python PY`` the serial case (``lockstep 1``) is also timed in another
checkout's interpreter (this same script run there), alternating the two ``--repeats`` times,
and the ratio of the CPU rates is reported (issue 22: at least 1.5).

    .venv/bin/python benchmarks/bench_td.py --compare-python /work/wt/baseline/.venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core

import numpy as np

from mindgames.agent import build_evaluator
from mindgames.registry import get_registry

EVAL = {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"}


def games_per_second(games: int, lockstep: int, seed: int) -> dict[str, float]:
    """Train ``games`` games from a fresh net: games per CPU and per wall second, mean plies.

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
        begin, cpu = time.perf_counter(), time.process_time()
        result = learner.train(game, evaluator, np.random.default_rng(seed), workdir=Path(workdir))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - begin
    return {"cpu": games / cpu, "wall": games / wall, "plies": result.history[-1]["mean_plies"]}


def row(games: int, lockstep: int, repeats: int) -> dict[str, float]:
    """Medians over ``repeats`` seeds of one lockstep width."""
    runs = [games_per_second(games, lockstep, seed) for seed in range(repeats)]
    cpu = statistics.median(r["cpu"] for r in runs)
    return {
        "lockstep": lockstep,
        "games_per_cpu_second": round(cpu, 1),
        "games_per_wall_second": round(statistics.median(r["wall"] for r in runs), 1),
        "plies_per_cpu_second": round(statistics.median(r["cpu"] * r["plies"] for r in runs)),
        "plies": statistics.median(r["plies"] for r in runs),
    }


def compare(python: str, games: int, repeats: int) -> dict[str, object]:
    """Serial games per CPU second here and in ``python``'s checkout, alternated."""
    ours, theirs = [], []
    for seed in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "td.json"
            command = [python, __file__, "--games", str(games), "--repeats", "1"]
            command += ["--lockstep", "1", "--seed", str(seed), "--out", str(out)]
            subprocess.run(command, capture_output=True, text=True, check=True)
            theirs.append(json.loads(out.read_text())["rows"][0]["games_per_cpu_second"])
        ours.append(games_per_second(games, 1, seed)["cpu"])
    mine, base = statistics.median(ours), statistics.median(theirs)
    return {
        "python": python,
        "games_per_cpu_second": round(mine, 1),
        "baseline_games_per_cpu_second": round(base, 1),
        "speedup": round(mine / base, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--lockstep", type=int, nargs="*", default=[1, 16, 64, 256])
    parser.add_argument("--compare-python", help="interpreter of the code to compare with")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "td.json"))
    args = parser.parse_args()
    if args.seed is not None:  # one seed's serial rate (the other side of --compare-python)
        rows = [{"games_per_cpu_second": games_per_second(args.games, 1, args.seed)["cpu"]}]
    else:
        rows = [row(args.games, lockstep, args.repeats) for lockstep in args.lockstep]
    base = rows[0]
    for r in rows:
        if "lockstep" in r:
            r["ratio"] = round(r["games_per_cpu_second"] / base["games_per_cpu_second"], 2)
            r["plies_ratio"] = round(r["plies_per_cpu_second"] / base["plies_per_cpu_second"], 2)
            print(
                f"lockstep {r['lockstep']:>4}: {r['games_per_cpu_second']:8.1f} games/CPU s  "
                f"{r['plies_per_cpu_second']:9.0f} plies/CPU s  (mean plies {r['plies']:.1f})",
                file=sys.stderr,
            )
    report: dict[str, object] = {
        "benchmark": "td self-play, kalah(6,4), kalah14, mlp 14-30-1 sigmoid, 1-ply",
        "alpha": "min(0.1, 0.4 / lockstep)",
        "games": args.games,
        "repeats": args.repeats,
        "baseline": "lockstep 1 (one game at a time)",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rows": rows,
    }
    if args.compare_python:
        report["compare"] = compare(args.compare_python, args.games, args.repeats)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
