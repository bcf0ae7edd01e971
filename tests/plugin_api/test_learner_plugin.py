"""A learner from a separate distribution: examples/hillclimb-plugin, installed through its real
``mindgames`` entry point, is listed, described, trains from a config with any parametric model,
is measured by ``curve``, and resumes a stopped run to the weights of one never stopped."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.registry import get_registry
from tests.support.history import untimed

from support.dists import make_dist, run_cli

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "hillclimb-plugin"
SOURCE = (PLUGIN / "mindgames_hillclimb.py").read_text(encoding="utf-8")
CONFIG = """\
game = "kalah:pits=4,seeds=3"
seed = 1
eval = { model = "mlp", encoding = "kalah14", hidden = [4] }
learner = { name = "hillclimb", generations = 4, pairs = 2, search = "alphabeta:depth=1" }
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("hillclimb-site")
    make_dist(root, "mindgames-hillclimb", "mindgames_hillclimb", SOURCE, "hillclimb")
    return root


def test_the_installed_learner_is_listed_described_trained_and_measured(site, tmp_path):
    listed = run_cli(site, "plugins", "--json", strict=True)
    assert listed.returncode == 0, listed.stderr
    rows = {r["name"]: r for r in json.loads(listed.stdout)["components"]}
    assert rows["hillclimb"]["distribution"] == "mindgames-hillclimb"
    assert rows["hillclimb"]["kind"] == "learner"
    described = run_cli(site, "describe", "hillclimb", strict=True)
    assert "needs a model that is: parametric" in described.stdout
    assert "sigma (float, default 0.1)" in described.stdout
    (tmp_path / "hc.toml").write_text(CONFIG, encoding="utf-8")
    trained = run_cli(
        site, "train", "hc.toml", "--out", "run", "--quiet", strict=True, cwd=tmp_path
    )
    assert trained.returncode == 0, trained.stderr
    history = [json.loads(line) for line in (tmp_path / "run" / "history.jsonl").open()]
    assert [row["generation"] for row in history] == [1, 2, 3, 4]
    assert all(row["kept"] == (row["score"] >= 2) for row in history)
    curve = run_cli(site, "curve", "run", "--vs", "random", "--games", "2", "--json", cwd=tmp_path)
    assert curve.returncode == 0, curve.stderr
    points = [json.loads(line) for line in curve.stdout.splitlines()]
    assert [(p["games"], p["unit"]) for p in points] == [(g, "generation") for g in range(5)]
    # each point copies the training time its history row recorded (nothing is timed here)
    recorded = [0.0] + [row["elapsed"] for row in history]
    copied = [p["seconds"] for p in points]
    assert copied == recorded
    refused = tmp_path / "bad.toml"
    refused.write_text(CONFIG.replace('model = "mlp"', 'model = "material"').replace(
        ', encoding = "kalah14", hidden = [4]', ""), encoding="utf-8")  # fmt: skip
    bad = run_cli(site, "train", "bad.toml", "--out", "bad", strict=True, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "learner 'hillclimb' needs a parametric model, but model 'material'" in bad.stderr


def _learner_module():
    """The plugin's module, loaded from the example's file (as the entry point would)."""
    spec = importlib.util.spec_from_file_location(
        "mindgames_hillclimb", PLUGIN / "mindgames_hillclimb.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_stopped_run_resumes_to_the_weights_of_one_never_stopped(tmp_path):
    hill = _learner_module()
    registry = get_registry()
    game = registry.game("kalah:pits=4,seeds=3")

    def fresh():
        return build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14"}, seed=1)

    learner = hill.HillClimb(generations=5, pairs=2, search="alphabeta:depth=1")
    (tmp_path / "whole").mkdir()
    whole = learner.train(game, fresh(), np.random.default_rng(3), workdir=tmp_path / "whole")

    def stop(row):
        if row["generation"] == 3:  # reported before its checkpoint: a kill after generation 2
            raise KeyboardInterrupt

    (tmp_path / "stopped").mkdir()
    with pytest.raises(KeyboardInterrupt):
        learner.train(game, fresh(), np.random.default_rng(3), workdir=tmp_path / "stopped",
                      progress=stop)  # fmt: skip
    resumed = learner.train(game, fresh(), np.random.default_rng(99),
                            workdir=tmp_path / "stopped", resume=True)  # fmt: skip
    assert np.array_equal(resumed.evaluator.model.get_params(), whole.evaluator.model.get_params())
    assert untimed(resumed.history) == untimed(whole.history)
    # and the mutants were really played: some were kept and some were not
    assert {row["kept"] for row in whole.history} == {True, False}
