"""``mindgames serve`` under a hostile load (issue 38): seconds of ``/api/agent`` with
``greedy:eval=material`` while 20 hostile requests run (deep searches, a FIFO named as a model,
huge and deeply nested bodies, clients that hang up), and the server's memory before and at its
peak. The load is bounded in count (``--hostile``) and time (each request ends by the server's
budgets). The figures are printed as JSON and written to benchmarks/results/serve.json.

    .venv/bin/python benchmarks/bench_serve.py [--hostile 20] [--probes 10]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from support.serveload import load_test, models_dir, running


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hostile", type=int, default=20)
    parser.add_argument("--probes", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        models = models_dir(Path(tmp))
        with running("--models", models) as server:
            found = load_test(server, count=args.hostile, probes=args.probes)
    result = {
        "benchmark": "serve under a hostile load",
        "python": platform.python_version(),
        "hostile_requests": args.hostile,
        "greedy_statuses": found["statuses"],
        "greedy_seconds_max": round(max(found["seconds"]), 3),
        "greedy_seconds": [round(s, 3) for s in found["seconds"]],
        "rss_before_mb": round(found["rss_before"] / 2**20, 1),
        "rss_peak_mb": round(found["rss_peak"] / 2**20, 1),
        "requests_still_running": found["alive"],
    }
    text = json.dumps(result, indent=2)
    print(text)
    out = Path(__file__).parent / "results" / "serve.json"
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
