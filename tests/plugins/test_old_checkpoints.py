"""Checkpoints written before the shared checkpoint helper (core/checkpoint.py) still resume:
each built-in learner, stopped after a checkpoint by the code of that time
(tests/plugins/data/old_checkpoints/make.py), resumes to the final weights and history of the
same run never stopped -- bit for bit, as that code computed them, on the CPU that ran it (within
1e-15 on another: numpy's SIMD kernels and BLAS differ by CPU). Their format did not change
(``mindgames-<learner>-checkpoint``, version 1). The hillclimb example's old checkpoints had no
format, version or options: they are refused in one line (start such a run afresh)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.errors import MindgamesError
from mindgames.registry import get_registry
from tests.support.history import untimed

FIXTURES = Path(__file__).parent / "data" / "old_checkpoints"
ROOT = Path(__file__).resolve().parents[2]
CASES = ["td", "coevolution", "hg", "layered", "supervised"]
#: defaults that issue 39 changed (measured since, or decaying): the runs used these
BEFORE_ISSUE_39: dict[str, dict[str, Any]] = {
    "td": {"alpha_end_scale": None},
    "coevolution": {"sigma": 0.05, "init": [-0.2, 0.2]},
    "hg": {"init": [-1.0, 1.0]},
    "layered": {"fit": {"step": 0.01, "lr": 0.001}},
    "supervised": {"fit": {"step": 0.01, "lr": 0.001}},
}


def _hillclimb() -> Any:
    """The example plugin's module, loaded from its file (as its entry point would)."""
    path = ROOT / "examples" / "hillclimb-plugin" / "mindgames_hillclimb.py"
    spec = importlib.util.spec_from_file_location("mindgames_hillclimb", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _resume(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict]:
    """Resume the fixture run ``name`` in a copy; the training result and the case."""
    case = json.loads((FIXTURES / name / "case.json").read_text(encoding="utf-8"))
    workdir = tmp_path / "run"
    shutil.copytree(FIXTURES / name / "run", workdir)
    for extra in (FIXTURES / name).glob("*.npz"):  # data files the options name, relative
        shutil.copy(extra, tmp_path / extra.name)
    monkeypatch.chdir(tmp_path)
    registry = get_registry()
    game = registry.game(case["game"])
    evaluator = build_evaluator(registry, game, case["eval"], seed=1)  # as when it was written
    if name == "hillclimb":
        learner = _hillclimb().HillClimb(**case["options"])
    else:
        options = dict(case["options"])
        for key, value in BEFORE_ISSUE_39.get(name, {}).items():  # the defaults it ran with
            if key == "fit":
                options["fit"] = {**value, **options.get("fit", {})}
            else:
                options.setdefault(key, value)
        learner = registry.learner(case["learner"], options, where="test")
    # the seed of the run, as `train --resume` passes it (supervised splits its data with it)
    result = learner.train(game, evaluator, np.random.default_rng(case["seed"]), workdir=workdir,
                           resume=True)  # fmt: skip
    return result, case


@pytest.mark.parametrize("name", CASES)
def test_a_checkpoint_written_before_the_shared_helper_resumes_to_the_same_run(
    name, tmp_path, monkeypatch
):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")  # the oracle
    result, case = _resume(name, tmp_path, monkeypatch)
    expected = np.load(FIXTURES / name / "expected.npy", allow_pickle=False)
    # bit for bit on the CPU that made the fixtures; another CPU's numpy may take other SIMD
    # kernels and BLAS (AVX-512 exp, tanh and dot round some last bits otherwise: co-evolution)
    np.testing.assert_allclose(result.evaluator.model.get_params(), expected, rtol=0, atol=1e-15)
    assert _unwatched(untimed(list(result.history))) == case["history"]


def test_an_old_td_checkpoint_resumes_on_the_compiled_path_to_the_same_run(tmp_path, monkeypatch):
    """The compiled TD self-play (plugins/learners/td/compiled.py) resumes it to the same games
    and weights, up to the rounding of its sums (left to right, numpy's BLAS blocks them)."""
    from mindgames.plugins.learners.td import compiled as compiled_td

    monkeypatch.delenv("MINDGAMES_PYTHON_PATH", raising=False)
    monkeypatch.setattr(compiled_td, "play_batch", _counted(compiled_td.play_batch))
    result, case = _resume("td", tmp_path, monkeypatch)
    assert _counted.calls > 0  # the compiled path ran
    expected = np.load(FIXTURES / "td" / "expected.npy", allow_pickle=False)
    np.testing.assert_allclose(result.evaluator.model.get_params(), expected, rtol=0, atol=1e-12)
    assert _unwatched(untimed(list(result.history))) == case["history"]


def _unwatched(rows: list[dict]) -> list[dict]:
    """History rows without TD's ``saturated`` (issue 39: newer than the fixtures)."""
    return [{k: v for k, v in row.items() if k != "saturated"} for row in rows]


def _counted(function: Any) -> Any:
    """``function``, counting its calls in ``_counted.calls``."""
    _counted.calls = 0  # type: ignore[attr-defined]

    def counted(*args: Any, **kwargs: Any) -> Any:
        _counted.calls += 1  # type: ignore[attr-defined]
        return function(*args, **kwargs)

    return counted


def test_an_old_hillclimb_checkpoint_without_a_format_is_refused_in_one_line(tmp_path, monkeypatch):
    with pytest.raises(MindgamesError) as refused:
        _resume("hillclimb", tmp_path, monkeypatch)
    message = str(refused.value)
    assert message.endswith("checkpoint.npz: not a hillclimb checkpoint of version 1")
    assert "\n" not in message
