"""Held-out MSE of Layered Learning runs on one another's test sets (a common yardstick).

A layered run's own test MSE is not comparable between runs: every stage but the deepest is
labelled by the run's own net, so a flat net that labels everything near 0 fits its own labels
well. This script judges the net of each run (after its first stage, its middle stage and the
last) on the test rows of every run's stages: the deepest stage (labelled alike in runs of one
seed and labeller), and all stages together, labelled by each run's nets. Prints JSON lines.

    python benchmarks/ll_cross_mse.py evo=runs/checkers-ll-evo rprop=runs/checkers-ll-evo-rprop
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from mindgames.data.sets import read_dataset
from mindgames.modelfile import load_evaluator
from mindgames.plugins.learners.layered.data import Labelled, split
from mindgames.registry import get_registry
from mindgames.training import snapshots


def test_sets(run: Path, game: Any, spec: str, options: dict[str, Any]) -> list[tuple[list, Any]]:
    """(states, labels) of the test rows of each stage of ``run``, deepest stage first."""
    out = []
    for folder in sorted((run / "stages").iterdir()):
        data = read_dataset(folder / "positions.npz", game=spec)
        where = {text: i for i, text in enumerate(data.positions)}
        labels = np.empty(len(data))
        for path in folder.glob("labels*.npz"):
            part = read_dataset(path, game=spec, need=("label",))
            for text, label in zip(part.positions, part.labels, strict=True):
                labels[where[text]] = label
        labelled = Labelled(data, labels, 0)
        _, rows = split(labelled, options.get("positions", 500), options.get("test_positions", 100))
        out.append(([game.parse_position(str(t)) for t in data.positions[rows]], labels[rows]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="NAME=RUN_DIR")
    args = parser.parse_args()
    runs = {name: Path(path) for name, path in (a.split("=", 1) for a in args.runs)}
    registry = get_registry()
    config = json.loads((next(iter(runs.values())) / "config.json").read_text())["config"]
    game = registry.game(config["game"])
    sets = {n: test_sets(r, game, config["game"], config["learner"]) for n, r in runs.items()}
    for name, run in runs.items():
        kept = [path for _, path in snapshots(run)]
        for k in sorted({0, (len(kept) - 1) // 2, len(kept) - 1}):
            evaluator = load_evaluator(kept[k], registry, game)[1]
            row: dict[str, Any] = {"net": name, "after_stage": k + 1}
            for other, stages in sets.items():
                errors = [np.mean((np.asarray(evaluator.evaluate_batch(s)) - y) ** 2)
                          for s, y in stages]  # fmt: skip
                row[f"{other}_deepest"] = round(float(errors[0]), 4)
                row[f"{other}_all"] = round(float(np.mean(errors)), 4)
            print(json.dumps(row))


if __name__ == "__main__":
    main()
