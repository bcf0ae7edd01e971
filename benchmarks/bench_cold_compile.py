"""The cold compile of every built-in kernel set, once per machine (issue 33: at most 60 CPU s).

A fresh process with empty caches (``NUMBA_CACHE_DIR`` and ``XDG_CACHE_HOME`` in a temporary
directory, so neither numba's cache nor the generated search modules exist) runs
``mindgames.compiled.warmup``: in turn, what the examples run compiled, each step's CPU seconds
reported (the compile is nearly all of it): alpha-beta with ``material`` and with an MLP on
checkers (the draughts kernels bound into the search, the evaluator kernels), give-away (the same
modules: should cost nothing), ``greedy``, perft, TD self-play with a linear model on ``gac11``
(the TD template bound to the draughts kernels); Kalah's alpha-beta, ``endgame``, perft and TD
self-play with an MLP. A second fresh process with the caches now warm repeats the same steps,
for the price of loading them.
Prints JSON and writes benchmarks/results/cold_compile.json.

    .venv/bin/python benchmarks/bench_cold_compile.py
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_steps(env: dict[str, str]) -> dict[str, Any]:
    """The steps in a fresh process: their CPU seconds, and the process's own (import included)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mindgames.compiled.warmup"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench_cold_compile: the steps failed:\n{done.stderr}")
    steps = json.loads(done.stdout.strip().splitlines()[-1])
    return {"steps_cpu_s": steps, "process_wall_s": round(wall, 2)}


def main() -> None:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="mindgames-cold-") as tmp:
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": str(Path(tmp) / "numba"),
            "XDG_CACHE_HOME": str(Path(tmp) / "xdg"),
            "OPENBLAS_NUM_THREADS": "1",
        }
        env.pop("MINDGAMES_PYTHON_PATH", None)
        cold = run_steps(env)
        warm = run_steps(env)
    report = {
        "benchmark": "cold_compile",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load": load_before,
        "load_after": os.getloadavg(),
        "cold": cold,
        "warm": warm,
        "target_cold_cpu_s": 60,
    }
    text = json.dumps(report, indent=2)
    print(text)
    (Path(__file__).with_name("results") / "cold_compile.json").write_text(text + "\n")


if __name__ == "__main__":
    main()
