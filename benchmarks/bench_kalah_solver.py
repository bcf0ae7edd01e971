"""The exact Kalah solver's cost per band of seeds in the pits: a baseline revision's compiled
kernel against this tree's, on the same middle-game positions in the same process.

The baseline is ``games/kalah/solverkernels.py`` at ``--baseline`` (a git revision), written to
a temporary module and imported beside this tree's (both take the same ``solve_row`` arguments).
Positions: the first ``--count`` candidates of a ``--spread`` stream (``solved.candidates``, as
``quality --spread`` draws them) with ``--seed`` (never 35, the acceptance set's). Each position
is solved by both kernels in turn (baseline first); CPU seconds (``time.process_time``) and
nodes per position and per band, their ratios, and whether value and best-move set agree (they
must). JSON to stdout and ``--out``::

    nice -n 10 .venv/bin/python benchmarks/bench_kalah_solver.py --spread 20-35 --count 32 \
        --seed 7 --out benchmarks/results/kalah_solver.json
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from mindgames.data.solved import Sampling, candidates
from mindgames.games.kalah import solverkernels
from mindgames.games.kalah.rules import Kalah
from mindgames.games.kalah.solver import FIRST_DEPTH, MAX_ROWS

HERE = Path(__file__).resolve().parent


def baseline_module(rev: str, where: Path) -> ModuleType:
    """``solverkernels.py`` at git revision ``rev``, imported from ``where``."""
    text = subprocess.run(
        ["git", "-C", str(HERE.parent), "show", f"{rev}:games/kalah/solverkernels.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = where / "baseline_solverkernels.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_solverkernels", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def solve(kernels: ModuleType, params: np.ndarray, row: np.ndarray) -> dict[str, Any]:
    """One solve by ``kernels.solve_row`` (frames doubled as ``solve_compiled`` does)."""
    depth = FIRST_DEPTH
    control = np.array([0, 0, MAX_ROWS], dtype=np.int64)
    t0 = time.process_time()
    while True:
        outcome, value, nodes, best = kernels.solve_row(params, row, depth, control)
        if outcome != kernels.DEEP:
            break
        depth *= 2
    cpu = time.process_time() - t0
    assert outcome == kernels.DONE
    return {
        "value": int(value),
        "best": sorted(int(b) for b in best),
        "nodes": int(nodes),
        "cpu": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="6,4", help="PITS,SEEDS")
    parser.add_argument("--spread", default="20-35", metavar="LO-HI")
    parser.add_argument("--count", type=int, default=32)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--baseline", default="main", help="git revision of the baseline")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.seed == 35:
        parser.error("--seed 35 draws the acceptance set's positions: take another seed")
    pits, seeds = (int(x) for x in args.game.split(","))
    game = Kalah(pits=pits, seeds=seeds)
    lo, hi = (int(x) for x in args.spread.split("-"))
    sampling = Sampling(args.count, args.seed, None, 0, (lo, hi))
    gk = game.kernels()
    rev = subprocess.run(
        ["git", "-C", str(HERE.parent), "rev-parse", "--short", args.baseline],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_module(args.baseline, Path(tmp))
        small = next(candidates(game, Sampling(1, args.seed, None, 0, (8, 8))))[0]
        for k in (old, solverkernels):  # compiled code loaded, not timed
            solve(k, gk.params, gk.to_row(game.parse_position(small)))
        rows = []
        for text, _ in itertools.islice(candidates(game, sampling), sampling.count):
            state = game.parse_position(text)
            row = gk.to_row(state)
            a = solve(old, gk.params, row)
            b = solve(solverkernels, gk.params, row)
            rows.append(
                {
                    "position": text,
                    "pieces": game.pieces(state),
                    "old_cpu": round(a["cpu"], 4),
                    "new_cpu": round(b["cpu"], 4),
                    "old_nodes": a["nodes"],
                    "new_nodes": b["nodes"],
                    "value": b["value"],
                    "same": (a["value"], a["best"]) == (b["value"], b["best"]),
                }
            )
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    bands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        bands[(r["pieces"] - lo) // args.width * args.width + lo].append(r)
    summary = []
    for b0 in sorted(bands):
        rs = bands[b0]
        out: dict[str, Any] = {"pieces": f"{b0}-{b0 + args.width - 1}", "positions": len(rs)}
        for k in ("old_cpu", "new_cpu", "old_nodes", "new_nodes"):
            out[k] = round(sum(r[k] for r in rs) / len(rs), 4)
        out["cpu_ratio"] = round(out["old_cpu"] / max(out["new_cpu"], 1e-9), 2)
        out["node_ratio"] = round(out["old_nodes"] / max(out["new_nodes"], 1), 2)
        out["same"] = all(r["same"] for r in rs)
        summary.append(out)
    result = {
        "game": game.spec(),
        "baseline": rev,
        "spread": args.spread,
        "count": args.count,
        "seed": args.seed,
        "uptime": os.getloadavg(),
        "old_cpu_total": round(sum(r["old_cpu"] for r in rows), 2),
        "new_cpu_total": round(sum(r["new_cpu"] for r in rows), 2),
        "all_same": all(r["same"] for r in rows),
        "bands": summary,
        "positions": rows,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "positions"}, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
