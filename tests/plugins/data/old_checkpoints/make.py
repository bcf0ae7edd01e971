"""Make the old-checkpoint fixtures: each built-in learner (and the hillclimb example), run on a
tiny config, stopped after its first checkpoint; the run directory is kept as it was then, with
the final weights and history of the same run never stopped (``expected.npz``).

Run once with the code of the commit before the shared checkpoint helper (core/checkpoint.py)
landed, from the repository root: ``python tests/plugins/data/old_checkpoints/make.py``. The
fixtures prove that a checkpoint written by that code still resumes (tests/plugins/
test_old_checkpoints.py). Not part of the test suite; kept for provenance.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT))

from mindgames.agent import build_evaluator  # noqa: E402
from mindgames.data.labelling import Labeller, run_labelling  # noqa: E402
from mindgames.data.playouts import generate  # noqa: E402
from mindgames.data.sets import write_dataset  # noqa: E402
from mindgames.executors import SerialExecutor  # noqa: E402
from mindgames.registry import get_registry  # noqa: E402
from tests.support.history import untimed  # noqa: E402


def hillclimb_module() -> Any:
    path = ROOT / "examples" / "hillclimb-plugin" / "mindgames_hillclimb.py"
    spec = importlib.util.spec_from_file_location("mindgames_hillclimb", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: each fixture: (learner name, its options, game, eval table, seed, rows before the stop)
CASES: dict[str, tuple[str, dict[str, Any], str, dict[str, Any], int, int]] = {
    "td": (
        "td",
        {"games": 6, "batch": 2, "checkpoint_every": 2, "alpha": 0.1, "epsilon": 0.2},
        "kalah:pits=3,seeds=2",
        {"model": "mlp", "encoding": "kalah14", "hidden": [4]},
        1,
        1,
    ),
    "coevolution": (
        "coevolution",
        {"generations": 3, "parents": 3, "games": 2, "search": "alphabeta:depth=2"},
        "kalah:pits=3,seeds=2",
        {"model": "mlp", "encoding": "kalah14"},
        5,
        1,
    ),
    "hg": (
        "hg",
        {
            "population": 6,
            "generations": 2,
            "phases": 2,
            "plies": (12, 16),
            "step_plies": 4,
            "boards": 30,
            "first_label": "endgame:depth=4",
            "label": "alphabeta:depth=2",
        },
        "kalah:pits=4,seeds=3",
        {"model": "linear", "encoding": "kalah14"},
        3,
        1,
    ),
    "layered": (
        "layered",
        {
            "stages": 2,
            "width": 6,
            "positions": 30,
            "test_positions": 10,
            "deepest": "solve",
            "generations": 2,
            "population": 4,
            "fit": {"epochs": 20, "min_epochs": 5, "patience": 5},
        },
        "kalah:pits=4,seeds=3",
        {"model": "mlp", "encoding": "kalah14", "hidden": [4]},
        2,
        1,
    ),
    "supervised": (
        "supervised",
        {"data": ["solved.npz"], "checkpoint_every": 2, "fit": {"epochs": 6}},
        "kalah:pits=3,seeds=3",
        {"model": "mlp", "encoding": "kalah14", "hidden": [6]},
        2,
        2,
    ),
    "hillclimb": (
        "hillclimb",
        {"generations": 4, "pairs": 2, "search": "alphabeta:depth=1"},
        "kalah:pits=4,seeds=3",
        {"model": "mlp", "encoding": "kalah14", "hidden": [4]},
        3,
        2,
    ),
}


def learner_of(name: str, options: dict[str, Any]) -> Any:
    if name == "hillclimb":
        return hillclimb_module().HillClimb(**options)
    return get_registry().learner(name, options, where=f"learner {name!r}")


def supervised_data(folder: Path) -> None:
    """120 exactly labelled Kalah(3,3) positions (test_supervised.py's ``solved``)."""
    game = get_registry().game("kalah:pits=3,seeds=3")
    data = generate(game, 4, 14, 40, np.random.default_rng(3))
    write_dataset(folder / "raw.npz", data)
    labeller = Labeller("solve", game.spec(), squash="linear", scale=18.0)
    run_labelling(data, labeller, folder / "solved.npz", SerialExecutor())
    (folder / "raw.npz").unlink()


def run_case(key: str, scratch: Path) -> None:
    name, options, spec, table, seed, stop_after = CASES[key]
    registry = get_registry()
    game = registry.game(spec)

    def train(workdir: Path, progress: Callable[[dict[str, Any]], None] | None) -> Any:
        evaluator = build_evaluator(registry, game, table, seed=1)
        workdir.mkdir(parents=True, exist_ok=True)
        learner = learner_of(name, options)
        return learner.train(game, evaluator, np.random.default_rng(seed), workdir=workdir,
                             progress=progress)  # fmt: skip

    rows: list[dict[str, Any]] = []

    def stop(row: dict[str, Any]) -> None:
        rows.append(row)
        if len(rows) == stop_after + 1:  # reported before its checkpoint: killed after the last
            raise KeyboardInterrupt

    whole = train(scratch / "whole", None)
    try:
        train(scratch / "cut", stop)
    except KeyboardInterrupt:
        pass
    else:
        raise SystemExit(f"{key}: the run was not stopped")
    out = HERE / key
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(scratch / "cut", out / "run")
    meta = {"learner": name, "options": options, "game": spec, "eval": table, "seed": seed,
            "history": untimed(list(whole.history))}  # fmt: skip
    (out / "case.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    np.save(out / "expected.npy", whole.evaluator.model.get_params(), allow_pickle=False)


def main() -> None:
    os.environ.setdefault("MINDGAMES_STRICT_PLUGINS", "1")
    wanted = sys.argv[1:] or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        for key in wanted:
            scratch = Path(tmp) / key
            scratch.mkdir()
            cwd = Path.cwd()
            os.chdir(scratch)  # supervised names its data file relative to the run's folder
            try:
                if key == "supervised":
                    supervised_data(scratch)
                    for where in ("whole", "cut"):
                        (scratch / where).mkdir()
                run_case(key, scratch)
            finally:
                os.chdir(cwd)
            if key == "supervised":
                shutil.copy(scratch / "solved.npz", HERE / key / "solved.npz")
            print(key, "done")


if __name__ == "__main__":
    main()
