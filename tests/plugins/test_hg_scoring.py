"""HG's population scoring compiled (plugins/learners/hg/fitness_kernel.py) against numpy's
``value_batch``, its oracle: each fitness within 1e-12 relative (the sums run in another order),
and the give-away example shortened evolves the same populations to the same model and history
with either scoring (the labels come from the same compiled searches in both runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.data.playouts import generate
from mindgames.modelfile import read_model_file
from mindgames.plugins.learners.hg import fitness
from mindgames.registry import get_registry
from mindgames.training import run

from support.examples import shrunk
from support.history import untimed

#: the give-away example's evaluators (the study's presets) and Kalah's linear one
EVALUATORS = [
    ("giveaway", {"model": "phased", "encoding": "gac11", "preset": "3Ph"}),
    ("giveaway", {"model": "phased", "encoding": "gac11", "preset": "8F"}),
    ("kalah:pits=4,seeds=3", {"model": "linear", "encoding": "kalah-features"}),
]


@pytest.mark.parametrize("game_spec, spec", EVALUATORS, ids=[str(e[1]) for e in EVALUATORS])
def test_a_compiled_fitness_is_numpys_within_1e_12(game_spec, spec, monkeypatch):
    registry = get_registry()
    game = registry.game(game_spec)
    evaluator = build_evaluator(registry, game, spec, seed=2)
    rng = np.random.default_rng(2)
    data = generate(game, 10, 40, 300, rng)
    data = data.with_labels(rng.uniform(-1.0, 1.0, len(data)), {"by": "test"})
    tests = fitness.TestSet.of(game, evaluator, data)
    size = evaluator.model.get_params().size
    for genes in rng.uniform(-1.0, 1.0, (20, size)):
        compiled = fitness.score(evaluator, genes, tests)
        monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")
        assert fitness._compiled_error(evaluator.model, tests) is None  # the oracle, forced
        python = fitness.score(evaluator, genes, tests)
        monkeypatch.delenv("MINDGAMES_PYTHON_PATH")
        assert compiled == pytest.approx(python, rel=1e-12, abs=0)


def _train(out: Path, **options: Any) -> tuple[dict, list[dict]]:
    config, _ = shrunk("giveaway-hg.toml", out.parent, **options)
    done = run(config, out=out)
    return read_model_file(done.model_path)[1], untimed(list(done.result.history))


def test_the_example_evolves_the_same_populations_with_either_scoring(tmp_path, monkeypatch):
    options = {"population": 20, "phases": 2, "generations": 3, "boards": 80, "workers": 1}
    scored: list[int] = []
    compiled = fitness._compiled_error

    def counted(*args: Any) -> Any:
        error = compiled(*args)
        scored.append(error is not None)
        return error

    monkeypatch.setattr(fitness, "_compiled_error", counted)
    (tmp_path / "compiled").mkdir()
    model, rows = _train(tmp_path / "compiled" / "run", **options)
    assert scored and all(scored)
    monkeypatch.setattr(fitness, "_compiled_error", lambda *args: None)  # numpy's scoring
    (tmp_path / "numpy").mkdir()
    oracle, oracle_rows = _train(tmp_path / "numpy" / "run", **options)
    assert rows == oracle_rows and len(rows) == 6
    assert sorted(model) == sorted(oracle)
    for key, array in oracle.items():
        assert np.array_equal(model[key], array), key
