"""The other learners' defaults that learn (issue 39): supervised's fitter steps, co-evolution's
initial ranges and mutation scale, HG/SHG's gene ranges scale with the encoding's inputs (an
encoding ten times larger gives ten times smaller ones); Layered Learning's stages follow the
game's length; ``train --explain`` names each setting's source; a minimal config of each trains.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.agent import build_evaluator
from mindgames.cli.main import cli
from mindgames.plugins.learners.coevolution.learner import SIGMA_SHARE
from mindgames.plugins.learners.fitters import RPROP_MOVE
from mindgames.plugins.learners.td import scaling
from mindgames.registry import get_registry
from mindgames.training import read_history, run
from tests.support.positions import solved_positions

GAME = "kalah:pits=6,seeds=4"
SMALL = "kalah:pits=3,seeds=2"
MEASURED = "measured from the encoding"


def _measure(name: str, options: dict, scale: int, model: dict | None = None) -> dict:
    """What learner ``name`` measures on Kalah(6,4) with kalah14 inputs times ``scale``."""
    registry = get_registry()
    game = registry.game(GAME)
    table = model or {"model": "mlp", "hidden": [10]}
    evaluator = build_evaluator(registry, game, {**table, "encoding": f"kalah14:scale={scale}"},
                                seed=1)  # fmt: skip
    learner = registry.learner(name, options, where="test")
    return learner.measure(game, evaluator, 3)[1]


@pytest.mark.parametrize(
    ("name", "options", "key"),
    [
        ("supervised", {"data": ["x.npz"]}, "fit.step"),
        ("supervised", {"data": ["x.npz"], "fit": {"fitter": "adam"}}, "fit.lr"),
        ("coevolution", {}, "init"),
        ("coevolution", {}, "sigma"),
    ],
)
def test_inputs_ten_times_larger_give_ten_times_smaller_steps_and_ranges(name, options, key):
    """The first layer's value falls in proportion to the inputs' scale (of order 10 and 100
    here); the hidden layer's, fed by tanh units, does not move."""
    small, large = _measure(name, options, 100, None)[key], _measure(name, options, 1000)[key]
    if key == "init":  # one [lo, hi] a group
        assert all(lo == -hi for lo, hi in small + large)
        small, large = [hi for _, hi in small], [hi for _, hi in large]
    assert large[0] == pytest.approx(small[0] / 10, rel=0.02)
    assert large[1] == small[1]


def test_supervised_first_steps_move_a_pre_activation_by_the_documented_amount():
    found = _measure("supervised", {"data": ["x.npz"]}, 500)
    registry = get_registry()
    game = registry.game(GAME)
    table = {"model": "mlp", "hidden": [10], "encoding": "kalah14:scale=500"}
    evaluator = build_evaluator(registry, game, table, seed=1)
    rows = scaling.probe(game, evaluator, 3)
    # a step of the first layer's size on each weight, signs at random: the pre-activation's
    # root mean square move over the probe positions is RPROP_MOVE
    move = found["fit.step"][0] * np.sqrt(np.mean(np.sum(rows**2, axis=1) + 1.0))
    assert move == pytest.approx(RPROP_MOVE, rel=0.05)


def test_sigma_is_a_share_of_the_initial_range_and_explicit_values_override():
    found = _measure("coevolution", {}, 500)
    assert found["sigma"] == pytest.approx([SIGMA_SHARE * hi for _, hi in found["init"]], rel=1e-5)
    given = _measure("coevolution", {"init": [-0.4, 0.4]}, 500)
    assert "init" not in given and given["sigma"] == pytest.approx([0.1, 0.1])
    assert _measure("coevolution", {"init": [-0.2, 0.2], "sigma": 0.05}, 500) == {}


@pytest.mark.parametrize("name", ["hg", "shg"])
def test_gene_ranges_follow_the_features_magnitudes(name):
    linear = {"model": "linear"}
    small, large = (_measure(name, {}, s, linear)["init"][0][1] for s in (100, 1000))
    assert large == pytest.approx(small / 10, rel=0.02)
    lo, unit = _measure(name, {}, 1, linear)["init"][0]  # inputs of order 0.1: nearly +-1
    assert lo == -unit
    assert 0.5 < unit <= 1.0 and large < unit / 100
    assert _measure(name, {"init": [-1.0, 1.0]}, 1000, linear) == {}


def test_the_layered_schedule_follows_the_games_length():
    registry = get_registry()
    lengths = {}
    for spec in (SMALL, GAME):
        game = registry.game(spec)
        evaluator = build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14",
                                                     "hidden": [4]}, seed=1)  # fmt: skip
        games = scaling.random_games(game, 3)
        found = registry.learner("layered", {}, where="t").measure(game, evaluator, 3)[1]
        assert found["typical_length"] == int(np.median([len(g) for g in games]))
        assert found["stages"] == found["typical_length"] // 5 + 1  # the deepest holds it
        lengths[spec] = found["typical_length"]
        given = registry.learner("layered", {"stages": 2}, where="t")
        assert given.measure(game, evaluator, 3)[1] == {}
    assert lengths[GAME] > 2 * lengths[SMALL]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    """80 exactly labelled Kalah(3,2) positions."""
    return solved_positions(tmp_path_factory.mktemp("data"), SMALL, (2, 8), 80, 12.0)


#: a minimal config of each learner on Kalah(3,2): the game, the model, the learner and a size
MINIMAL = {
    "supervised": "data = ['{data}']\n[learner.fit]\nepochs = 8",
    "coevolution": "generations = 2\nparents = 3\ngames = 2\nsearch = 'alphabeta:depth=1'",
    "layered": "positions = 20\ntest_positions = 8\ngenerations = 1\npopulation = 2\n"
    "deepest = 'solve'\n[learner.fit]\nepochs = 3\nmin_epochs = 0",
    "hg": "population = 4\ngenerations = 1\nphases = 1\nplies = [4, 6]\nboards = 12\n"
    "first_label = 'endgame:depth=2'",
    "shg": "population = 4\ngenerations = 1\nsteps = 2\nsearch = 'alphabeta:depth=1'",
}


def _config(tmp_path: Path, name: str, solved: Path, model: str = "mlp") -> Path:
    hidden = "hidden = [4]\n" if model == "mlp" else ""
    learner = MINIMAL[name].format(data=solved)
    text = (f'game = "{SMALL}"\nseed = 2\n[eval]\nmodel = "{model}"\nencoding = "kalah14"\n'
            f'{hidden}[learner]\nname = "{name}"\n{learner}\n')  # fmt: skip
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


#: the settings each learner measures when the config leaves them unset
SOURCES = {
    "supervised": ["learner.fit.step"],
    "coevolution": ["learner.init", "learner.sigma"],
    "layered": ["learner.stages"],
    "hg": ["learner.init"],
    "shg": ["learner.init"],
}


@pytest.mark.parametrize("name", sorted(MINIMAL))
def test_a_minimal_config_trains_and_explain_names_the_measured_settings(name, tmp_path, solved):
    model = "linear" if name in ("hg", "shg") else "mlp"
    config = _config(tmp_path, name, solved, model)
    result = CliRunner().invoke(cli, ["train", "--explain", str(config)])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines()}
    for key in SOURCES[name]:
        assert lines[key].endswith(MEASURED), lines[key]
    assert lines["learner.name"].endswith("config") and lines["seed"].endswith("config")
    out = tmp_path / "run"
    run(config, out=out)
    started = json.loads((out / "config.json").read_text(encoding="utf-8"))
    measured = started["measured"]
    for key in SOURCES[name]:
        assert key.removeprefix("learner.") in measured
    assert read_history(out) and (out / "model.npz").exists()
    if name == "layered":  # one history row per stage's generation
        assert len(read_history(out)) == measured["stages"]


def test_a_setting_the_config_gives_is_shown_as_the_configs(tmp_path, solved):
    config = _config(tmp_path, "supervised", solved)
    text = config.read_text(encoding="utf-8") + "step = 0.02\n"
    config.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["train", "--explain", str(config)])
    lines = {line.split()[0]: line for line in result.output.splitlines()}
    assert lines["learner.fit.step"].endswith("config") and "0.02" in lines["learner.fit.step"]
    assert lines["learner.fit.epochs"].endswith("config")
    assert lines["learner.fit.patience"].endswith("default")
    assert "measured.fit.step" not in lines
