"""TD's step sizes and initial weights scaled to the encoding's inputs (issue 39): on inputs of
order 100 the pre-activations stay in range where 1/fan-in saturates; the measurement reaches
config.json; saturation shows in the history with one warning; ``train --explain`` names each
setting's source."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from mindgames.agent import build_evaluator
from mindgames.cli.main import cli
from mindgames.plugins.learners.td import scaling
from mindgames.registry import get_registry
from mindgames.training import run

#: Kalah's kalah14 inputs (stones / 48) times 500: inputs of order 100
BIG = {"model": "mlp", "encoding": "kalah14:scale=500", "hidden": [10]}
GAME = "kalah:pits=6,seeds=4"


def _config(tmp_path: Path, learner: str, eval_table: dict | None = None) -> Path:
    table = eval_table or BIG
    items = ", ".join(f"{k} = {json.dumps(v)}" for k, v in table.items())
    path = tmp_path / "c.toml"
    path.write_text(
        f'game = "{GAME}"\nseed = 4\neval = {{ {items} }}\n[learner]\nname = "td"\n{learner}\n',
        encoding="utf-8",
    )
    return path


def _first_layer_pre(evaluator, rows: np.ndarray) -> np.ndarray:
    """The first hidden layer's pre-activations on ``rows`` (the flat layout of mlp.py)."""
    h, n = 10, rows.shape[1]
    p = evaluator.model.get_params()
    w, b = p[: h * n].reshape(h, n), p[h * n : h * n + h]
    return rows @ w.T + b


def test_inputs_of_order_100_keep_the_pre_activations_in_range():
    registry = get_registry()
    game = registry.game(GAME)
    evaluator = build_evaluator(registry, game, BIG, seed=1)
    learner = registry.learner("td", {}, where="test")
    rows = scaling.probe(game, evaluator, 0)
    assert rows.max() > 100  # the toy scale: inputs of order 100
    before = np.sqrt(np.mean(_first_layer_pre(evaluator, rows) ** 2))
    bound, found = learner.measure(game, evaluator, 0)
    scaling.shrink_init(evaluator.model, found["init_scale"])
    after = np.sqrt(np.mean(_first_layer_pre(evaluator, rows) ** 2))
    assert before > 5 * scaling.INIT_SPREAD and after < 1.5 * scaling.INIT_SPREAD, (before, after)
    # one step of TD error 1 along the first layer's gradient of a unit's pre-activation
    # (its input row with the bias) moves it by STEP on average over the probe positions
    first = found["alpha"][0]
    moves = first * (np.sum(rows**2, axis=1) + 1.0)
    assert abs(float(np.mean(moves)) - scaling.STEP) < 0.05 * scaling.STEP
    assert bound.measured == found and found["probe_seed"] == 0


def test_scaled_training_does_not_saturate_where_fan_in_does(tmp_path):
    """200 games of a linear net on inputs of order 100: the scaled default keeps the values
    off +-1; the old default (1/fan-in, given explicitly) saturates them, and the history says
    so."""
    saturated = {}
    linear = {"model": "linear", "encoding": "kalah14:scale=500"}
    for name, alpha in (("scaled", ""), ("fan-in", "alpha = 0.0714")):
        (tmp_path / name).mkdir()
        config = _config(tmp_path / name, f"games = 200\nbatch = 50\n{alpha}", linear)
        done = run(config, out=tmp_path / name / "run")
        saturated[name] = [row["saturated"] for row in done.result.history]
    assert max(saturated["scaled"]) < 0.1 and saturated["fan-in"][-1] > 0.5, saturated


def test_the_measurement_goes_to_config_json(tmp_path):
    config = _config(tmp_path, "games = 4\nbatch = 2")
    run(config, out=tmp_path / "run")
    saved = json.loads((tmp_path / "run" / "config.json").read_text(encoding="utf-8"))
    measured = saved["measured"]
    assert measured["probe_seed"] == 4 and measured["probe_games"] == scaling.PROBE_GAMES
    assert len(measured["alpha"]) == 2 and measured["input_max_abs"] > 100
    assert len(measured["column_mean_square"]) == 14


def test_saturation_shows_in_the_history_with_one_warning(tmp_path, capsys):
    config = _config(tmp_path, "games = 40\nbatch = 10\nalpha = 1.0")
    done = run(config, out=tmp_path / "run")
    rows = done.result.history
    assert all("saturated" in row for row in rows)
    assert rows[-1]["saturated"] > scaling.WARN_SHARE
    err = capsys.readouterr().err
    assert err.count("warning: td:") == 1 and "probe positions" in err


def test_explain_lists_each_settings_source(tmp_path):
    config = _config(tmp_path, "games = 30\nlam = 0.5")
    result = CliRunner().invoke(cli, ["train", "--explain", str(config)])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines()}
    assert lines["learner.games"].endswith("config")
    assert lines["learner.lam"].endswith("config") and "0.5" in lines["learner.lam"]
    assert lines["learner.gamma"].endswith("default")
    assert lines["learner.alpha"].endswith("measured from the encoding")
    assert lines["measured.probe_seed"].split()[1] == "4"
    assert lines["eval.hidden"].endswith("config") and lines["eval.init"].endswith("default")
    assert not (tmp_path / "runs").exists()  # nothing written
    given = _config(tmp_path, "games = 30\nalpha = 0.01")
    result = CliRunner().invoke(cli, ["train", "--explain", str(given)])
    alpha = next(x for x in result.output.splitlines() if x.startswith("learner.alpha"))
    assert alpha.endswith("config") and "0.01" in alpha


MINIMAL = Path(__file__).resolve().parents[2] / "examples" / "training" / "minimal"


def test_the_minimal_configs_are_minimal_and_explained():
    """Issue 39's acceptance configs: game, encoding, model (and its hidden layer), the learner
    and its size (TD: a number of games; supervised: its data), nothing else; ``--explain``
    takes each (supervised's data are not read by it)."""
    import tomllib

    size = {"td": {"games"}, "coevolution": {"generations"}, "supervised": {"data"}}
    paths = sorted(MINIMAL.glob("*.toml"))
    learners = []
    for path in paths:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        assert set(raw) == {"game", "eval", "learner"}, path
        assert set(raw["eval"]) <= {"model", "encoding", "hidden"}, path
        name = raw["learner"]["name"]
        learners.append(name)
        assert set(raw["learner"]) == {"name", *size[name]}, path
        result = CliRunner().invoke(cli, ["train", "--explain", str(path)])
        assert result.exit_code == 0, result.output
        assert "measured from the encoding" in result.output
    assert learners.count("td") == 4
