"""The training driver and ``mindgames train``: run directory, resume, refusals."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from mindgames import Model, ModelInfo, hookimpl
from mindgames.errors import CapabilityError, ConfigError, MindgamesError
from mindgames.modelfile import load_evaluator
from mindgames.training import read_history, run
from tests.support.history import untimed

CONFIG = """\
game = "tictactoe"
seed = 3

[eval]
model = "tiny"
encoding = "cells"

[learner]
name = "td"
games = {games}
batch = 10
checkpoint_every = 20
alpha = 0.05
lam = 0.7
epsilon = 0.1
momentum = 0.5
"""


def write_config(tmp_path, games: int = 60, name: str = "ttt.toml", **extra: Any):
    path = tmp_path / name
    text = CONFIG.format(games=games) + "".join(f"{k} = {v}\n" for k, v in extra.items())
    path.write_text(text, encoding="utf-8")
    return path


def test_run_writes_model_history_and_config(registry, tmp_path):
    config = write_config(tmp_path)
    seen = []
    done = run(config, out=tmp_path / "run", registry=registry, progress=seen.append)
    assert done.seed == 3
    assert [r["games"] for r in seen] == [10, 20, 30, 40, 50, 60]
    assert untimed(read_history(done.directory)) == untimed(seen)
    game, evaluator, meta = load_evaluator(done.model_path, registry)
    assert game.name == "tictactoe" and evaluator.encoding.name == "cells"
    np.testing.assert_array_equal(
        evaluator.model.get_params(), done.result.evaluator.model.get_params()
    )
    provenance = meta["provenance"]
    assert provenance["learner"] == "td" and provenance["seed"] == 3
    assert provenance["config"]["learner"]["games"] == 60
    started = json.loads((done.directory / "config.json").read_text())
    assert started["seed"] == 3


def test_seed_option_overrides_and_changes_the_weights(registry, tmp_path):
    config = write_config(tmp_path, games=10)
    a = run(config, out=tmp_path / "a", registry=registry)
    b = run(config, out=tmp_path / "b", registry=registry, seed=4)
    c = run(config, out=tmp_path / "c", registry=registry)
    w = [r.result.evaluator.model.get_params() for r in (a, b, c)]
    assert b.seed == 4
    assert not np.array_equal(w[0], w[1])
    np.testing.assert_array_equal(w[0], w[2])


class Killed(Exception):
    pass


@pytest.mark.parametrize("kill_after_rows", [1, 2, 3, 5])
def test_resuming_a_killed_run_gives_the_same_weights(registry, tmp_path, kill_after_rows):
    """Checkpoints fall at 20 and 40 games; a kill after any row resumes to the same end."""
    config = write_config(tmp_path, games=60)
    whole = run(config, out=tmp_path / "whole", registry=registry)

    rows = []

    def killer(row):
        rows.append(row)
        if len(rows) == kill_after_rows:
            raise Killed

    with pytest.raises(Killed):
        run(config, out=tmp_path / "cut", registry=registry, progress=killer)
    resumed = run(config, out=tmp_path / "cut", registry=registry, resume=True)
    np.testing.assert_array_equal(
        resumed.result.evaluator.model.get_params(), whole.result.evaluator.model.get_params()
    )
    assert untimed(read_history(tmp_path / "cut")) == untimed(read_history(tmp_path / "whole"))
    a = np.load(tmp_path / "cut" / "model.npz")
    b = np.load(tmp_path / "whole" / "model.npz")
    np.testing.assert_array_equal(a["m/w"], b["m/w"])


def test_existing_run_is_not_overwritten_and_resume_checks_the_config(registry, tmp_path):
    config = write_config(tmp_path, games=10)
    run(config, out=tmp_path / "r", registry=registry)
    with pytest.raises(ConfigError, match="already holds a training run"):
        run(config, out=tmp_path / "r", registry=registry)
    with pytest.raises(ConfigError, match="another config or seed"):
        run(config, out=tmp_path / "r", registry=registry, seed=9, resume=True)
    with pytest.raises(ConfigError, match="nothing to resume"):
        run(config, out=tmp_path / "empty", registry=registry, resume=True)
    # resuming a finished run just rewrites its model
    again = run(config, out=tmp_path / "r", registry=registry, resume=True)
    assert [r["games"] for r in again.result.history] == [10]


# --- a model that is not differentiable ----------------------------------------------------


@attrs.frozen
class FixedConfig:
    pass


class Fixed(Model):
    """A non-differentiable model: the sum of the inputs, squashed."""

    name = "fixed"
    capabilities = frozenset()

    def value(self, x: np.ndarray) -> float:
        return float(np.tanh(x.sum()))

    def config(self) -> dict[str, Any]:
        return {}

    def arrays(self) -> dict[str, np.ndarray]:
        return {}

    @classmethod
    def from_saved(
        cls, config: Mapping[str, Any], arrays: Mapping[str, np.ndarray], columns: Sequence[str]
    ) -> Fixed:
        return cls()


class FixedPlugin:
    @hookimpl
    def mindgames_models(self) -> list[ModelInfo]:
        return [ModelInfo("fixed", Fixed, FixedConfig, lambda c, cols, rng: Fixed())]


def test_learner_and_model_mismatch_is_refused_naming_both(tmp_path):
    from mindgames.registry import registry_with

    from support.tictactoe import TicTacToePlugin

    reg = registry_with(("tictactoe", TicTacToePlugin()), ("fixed", FixedPlugin()))
    config = tmp_path / "bad.toml"
    config.write_text(
        'game = "tictactoe"\n[eval]\nmodel = "fixed"\nencoding = "cells"\n[learner]\nname = "td"\n',
        encoding="utf-8",
    )
    with pytest.raises(CapabilityError, match=r"learner 'td'.*model 'fixed'"):
        run(config, out=tmp_path / "bad", registry=reg)
    assert not (tmp_path / "bad").exists()  # refused before any work


def test_material_model_is_refused_when_installed(registry, tmp_path):
    config = tmp_path / "m.toml"
    config.write_text(
        'game = "tictactoe"\neval = "material"\n[learner]\nname = "td"\n', encoding="utf-8"
    )
    with pytest.raises(CapabilityError, match=r"learner 'td'.*'material'"):
        run(config, out=tmp_path / "m", registry=registry)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "tictactoe"\neval = "tiny"\n', "learner"),
        ('game = "tictactoe"\neval = "tiny"\n[learner]\ngames = 3\n', "name"),
        ('game = "tictactoe"\neval = 3\n[learner]\nname = "td"\n', "eval"),
        ('game = "tictactoe"\neval = "tiny"\nextra = 1\n[learner]\nname = "td"\n', "extra"),
        (
            'game = "tictactoe"\n[eval]\nmodel = "tiny"\nencoding = "cells"\n'
            '[learner]\nname = "tdd"\n',
            "did you mean 'td'",
        ),
    ],
)
def test_bad_configs_are_config_errors(registry, tmp_path, text, message):
    config = tmp_path / "c.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(MindgamesError, match=message):
        run(config, out=tmp_path / "c", registry=registry)


def test_cli_train_and_resume(registry, tmp_path, monkeypatch):
    from mindgames import registry as registry_module
    from mindgames.cli.main import cli

    monkeypatch.setattr(registry_module, "_default", registry)
    config = write_config(tmp_path, games=20)
    out = tmp_path / "cli"
    runner = CliRunner()
    result = runner.invoke(cli, ["train", str(config), "--out", str(out), "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    assert (out / "model.npz").exists()
    assert result.output.count('"games"') == 2
    again = runner.invoke(cli, ["train", str(config), "--out", str(out)])
    assert again.exit_code == 2
    assert "already holds a training run" in again.output
    args = ["train", str(config), "--out", str(out), "--seed", "5", "--resume"]
    resumed = runner.invoke(cli, args)
    assert resumed.exit_code == 0, resumed.output


@pytest.mark.parametrize(
    "options",
    [
        {"games": 40, "regime": '"clone"', "clone_points": 2},  # the clone's weights too
        {"games": 60, "lockstep": 4},  # several games in one matrix product
    ],
    ids=["clone-regime", "lockstep"],
)
def test_resume_is_exact(registry, tmp_path, options):
    """Stopped after the third history row and resumed: the same weights and history."""
    config = write_config(tmp_path, **options)
    whole = run(config, out=tmp_path / "whole", registry=registry)
    rows = []

    def killer(row):
        rows.append(row)
        if len(rows) == 3:
            raise Killed

    with pytest.raises(Killed):
        run(config, out=tmp_path / "cut", registry=registry, progress=killer)
    resumed = run(config, out=tmp_path / "cut", registry=registry, resume=True)
    np.testing.assert_array_equal(
        resumed.result.evaluator.model.get_params(), whole.result.evaluator.model.get_params()
    )
    assert untimed(resumed.result.history) == untimed(whole.result.history)


def test_snapshots_are_model_files_listed_by_games(registry, tmp_path):
    from mindgames.agent import build_evaluator
    from mindgames.training import save_snapshot, snapshots

    game = registry.game("tictactoe")
    assert snapshots(tmp_path / "run") == []
    weights = {}
    for games in (1000, 20, 300):
        table = {"model": "tiny", "encoding": "cells"}
        evaluator = build_evaluator(registry, game, table, seed=games)
        weights[games] = evaluator.model.get_params()
        path = save_snapshot(tmp_path / "run", game, evaluator, games, {"learner": "td"})
        assert path.name == f"{games:09d}.npz"
    (tmp_path / "run" / "snapshots" / "notes.txt").write_text("not a snapshot")
    found = snapshots(tmp_path / "run")
    assert [g for g, _ in found] == [20, 300, 1000]
    for games, path in found:
        _, loaded, meta = load_evaluator(path, registry, game)
        np.testing.assert_array_equal(loaded.model.get_params(), weights[games])
        assert meta["provenance"]["games"] == games and meta["provenance"]["learner"] == "td"
    assert not list((tmp_path / "run" / "snapshots").glob(".*.tmp"))
