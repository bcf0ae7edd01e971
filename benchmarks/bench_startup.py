"""A fresh process's start-up with a warm JIT cache, beside the floors it cannot go under.

Issue 33 asks that ``mindgames analyse checkers --agent alphabeta:depth=6,eval=material`` take at
most 1.5 s of wall time in a fresh process with a warm cache on an idle machine. This measures
that command beside what any such process pays before mindgames does anything, alternating the
commands ``--repeats`` times (medians of wall and CPU seconds, the children's CPU from
``getrusage``):

* ``python``: the interpreter alone (``-c pass``);
* ``numpy``: ``import numpy``;
* ``plugins``: ``mindgames plugins`` (the CLI, the registry, every plugin; no numba);
* ``numba floor``: ``import numba`` the way mindgames does (scipy hidden, see
  ``mindgames.compiled._import_numba``) and one call of a trivial cached ``njit`` function:
  numba's own import and first cache load, which every compiled process pays;
* ``analyse``: the issue's command, compiled;
* ``analyse, Python path``: the same with ``MINDGAMES_PYTHON_PATH=1`` (no numba at all).

``analyse`` minus ``numba floor`` is what mindgames adds to a compiled process; ``analyse`` minus
``analyse, Python path`` is what the compiled path costs a process that loads a warm cache
(issue 33: at most 0.5 s). Prints JSON and writes benchmarks/results/startup.json with the load
average before and after.

    .venv/bin/python benchmarks/bench_startup.py --repeats 9
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ANALYSE = ["analyse", "checkers", "--agent", "alphabeta:depth=6,eval=material"]

TRIVIAL = """\
import sys
from mindgames.compiled import enabled
assert enabled()
from numba import njit

@njit(cache=True)
def one_more(x):
    return x + 1

sys.exit(one_more(1) - 2)
"""


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s) of one run of ``argv``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(argv)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    env.pop("MINDGAMES_PYTHON_PATH", None)
    python_env = {**env, "MINDGAMES_PYTHON_PATH": "1"}
    mindgames = str(BIN / "mindgames")
    with tempfile.TemporaryDirectory(prefix="mindgames-startup-") as tmp:
        trivial = Path(tmp) / "trivial.py"
        trivial.write_text(TRIVIAL)
        cases = {
            "python": ([sys.executable, "-c", "pass"], env),
            "numpy": ([sys.executable, "-c", "import numpy"], env),
            "plugins": ([mindgames, "plugins"], env),
            "numba floor": ([sys.executable, str(trivial)], env),
            "analyse": ([mindgames, *ANALYSE], env),
            "analyse, Python path": ([mindgames, *ANALYSE], python_env),
        }
        for argv, case_env in cases.values():  # caches (bytecode, numba) warm, not timed
            timed(argv, case_env)
        load_before = os.getloadavg()
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(args.repeats):
            for name, (argv, case_env) in cases.items():
                runs[name].append(timed(argv, case_env))
        load_after = os.getloadavg()
    medians = {
        name: {
            "wall_s": round(statistics.median(w for w, _ in rows), 3),
            "cpu_s": round(statistics.median(c for _, c in rows), 3),
            "wall_min_s": round(min(w for w, _ in rows), 3),
        }
        for name, rows in runs.items()
    }
    report = {
        "benchmark": "startup",
        "command": "mindgames " + " ".join(ANALYSE),
        "repeats": args.repeats,
        "medians": medians,
        "analyse_minus_numba_floor_wall_s": round(
            medians["analyse"]["wall_s"] - medians["numba floor"]["wall_s"], 3
        ),
        "analyse_minus_python_path_wall_s": round(
            medians["analyse"]["wall_s"] - medians["analyse, Python path"]["wall_s"], 3
        ),
        "numba_floor_minus_numpy_wall_s": round(
            medians["numba floor"]["wall_s"] - medians["numpy"]["wall_s"], 3
        ),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    text = json.dumps(report, indent=2)
    print(text)
    out = ROOT / "benchmarks" / "results" / "startup.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n")


if __name__ == "__main__":
    main()
