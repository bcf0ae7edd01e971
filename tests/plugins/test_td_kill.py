"""A real ``mindgames train`` process, killed with SIGKILL mid-run and resumed with ``--resume``,
ends with the same weights, bit for bit, as a run that was never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np

from support.processes import sigkill_when

CONFIG = """\
game = "kalah:pits=4,seeds=3"
seed = 7

[eval]
model = "mlp"
encoding = "kalah14"
hidden = [8]
activation = "sigmoid"

[learner]
name = "td"
games = {games}
batch = 25
checkpoint_every = 50
lam = 0.8
alpha = 0.05
epsilon = 0.2
epsilon_end = 0.05
momentum = 0.5
"""

GAMES = 2000
ROWS = GAMES // 25
MAIN = "from mindgames.cli.main import main; main()"


def train(config: Path, out: Path, *extra: str) -> list[str]:
    """The command line of ``mindgames train`` (as the console script runs it)."""
    return [sys.executable, "-c", MAIN, "train", str(config), "--out", str(out), "--quiet", *extra]


def rows(out: Path) -> int:
    path = out / "history.jsonl"
    if not path.exists():
        return 0
    return path.read_text(encoding="utf-8").count("\n")


def params(model: Path) -> dict[str, np.ndarray]:
    with np.load(model, allow_pickle=False) as data:
        return {name: data[name] for name in data.files if name.startswith("m/")}


def test_sigkilled_training_resumes_to_the_same_weights(tmp_path):
    config = tmp_path / "kill.toml"
    config.write_text(CONFIG.format(games=GAMES), encoding="utf-8")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "MINDGAMES_STRICT_PLUGINS": "1"}

    whole = tmp_path / "whole"
    subprocess.run(train(config, whole), env=env, check=True, capture_output=True, timeout=600)

    cut = tmp_path / "cut"
    # row 2 (50 games) is reported before its checkpoint; row 3 comes after it
    proc = sigkill_when(train(config, cut), lambda: rows(cut) >= 3, env)
    assert proc.returncode == -signal.SIGKILL
    done = rows(cut)
    assert 3 <= done < ROWS, f"killed after {done} of {ROWS} batches"
    assert (cut / "checkpoint.npz").exists()
    assert not (cut / "model.npz").exists()

    resumed = subprocess.run(
        train(config, cut, "--resume"), env=env, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    a, b = params(cut / "model.npz"), params(whole / "model.npz")
    assert a.keys() == b.keys() and a
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])
    history = [json.loads(line) for line in (cut / "history.jsonl").read_text().splitlines()]
    assert [r["games"] for r in history] == [25 * (i + 1) for i in range(ROWS)]
