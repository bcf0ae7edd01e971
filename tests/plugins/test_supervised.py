"""The ``supervised`` learner: labels and the expert trainer (TD along recorded games),
checkpoints and exact resume, refusals; ``pdn extract`` feeding it."""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.data.sets import DataSet, read_dataset, write_dataset
from mindgames.errors import CapabilityError, DataSetError, MindgamesError
from mindgames.modelfile import read_model_file
from mindgames.plugins.learners.supervised import SupervisedLearner
from mindgames.registry import get_registry
from mindgames.training import TRAINED_FOR, read_history, run
from tests.support.history import untimed
from tests.support.positions import solved_positions

GAMES = Path(__file__).parent.parent / "games" / "data" / "engine_games.pdn"
KALAH = "kalah:pits=3,seeds=3"


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    """120 exactly labelled Kalah(3,3) positions."""
    return solved_positions(tmp_path_factory.mktemp("data"), KALAH, (4, 14), 120, 18.0)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pdn") / "games.npz"
    result = CliRunner().invoke(cli, ["pdn", "extract", str(GAMES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def config(tmp_path: Path, data: Path, game: str = KALAH, model: str = "mlp", **learner) -> Path:
    lines = [f'game = "{game}"', "seed = 2", "[eval]", f'model = "{model}"']
    lines += ['encoding = "kalah14"', "hidden = [6]"] if game.startswith("kalah") else []
    lines += ['encoding = "raw32"', "hidden = [4]"] if game == "checkers" else []
    lines += ["[learner]", 'name = "supervised"', f'data = ["{data}"]']
    fit = learner.pop("fit", {})
    lines += [f"{k} = {v}" for k, v in learner.items()]
    lines += ["[learner.fit]", *(f"{k} = {v}" for k, v in fit.items())]
    path = tmp_path / "c.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_labels_are_fitted_with_train_and_validation_error_per_epoch(tmp_path, solved):
    path = config(tmp_path, solved, fit={"epochs": 30, "step": 0.05})
    done = run(path, out=tmp_path / "run")
    rows = read_history(tmp_path / "run")
    assert [r["epoch"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[-1]["train_mse"] < rows[0]["train_mse"]
    assert min(r["valid_mse"] for r in rows) < rows[0]["valid_mse"]
    assert (tmp_path / "run" / "checkpoint.npz").exists() and done.model_path.exists()


class Killed(Exception):
    pass


def cut(path: Path, out: Path, rows: int) -> None:
    """Train ``path`` into ``out`` and kill the run at its ``rows``-th history row."""
    seen = []

    def killer(row):
        seen.append(row)
        if len(seen) == rows:
            raise Killed

    with pytest.raises(Killed):
        run(path, out=out, progress=killer)


@pytest.mark.parametrize(("fitter", "average_from"), [("rprop", 0), ("adam", 0), ("rprop", 6)])
def test_a_stopped_run_resumes_to_the_same_weights(tmp_path, solved, fitter, average_from):
    # averaging from epoch 6: the cut at 9 resumes from the checkpoint of epoch 8, mid-average
    fit = {"epochs": 14, "fitter": f'"{fitter}"', "average_from": average_from}
    options = {"checkpoint_every": 4, "fit": fit}
    path = config(tmp_path, solved, **options)
    whole = run(path, out=tmp_path / "whole")
    cut(path, tmp_path / "cut", 9)
    resumed = run(path, out=tmp_path / "cut", resume=True)
    np.testing.assert_array_equal(
        resumed.result.evaluator.model.get_params(), whole.result.evaluator.model.get_params()
    )
    assert untimed(resumed.result.history) == untimed(whole.result.history)
    assert TRAINED_FOR in whole.result.history[-1]  # curves of several learners read it


def test_a_run_whose_data_changed_since_its_checkpoint_is_not_resumed(tmp_path, solved):
    data = tmp_path / "data.npz"
    data.write_bytes(solved.read_bytes())
    path = config(tmp_path, data, checkpoint_every=2, fit={"epochs": 10})
    cut(path, tmp_path / "cut", 4)
    original = read_dataset(data)
    write_dataset(data, original.with_labels(-original.labels, {"agent": "negated"}))
    with pytest.raises(MindgamesError, match=r"data.npz: changed since the run's checkpoint"):
        run(path, out=tmp_path / "cut", resume=True)
    write_dataset(data, original)  # the same content again: the digest matches, it resumes
    assert len(run(path, out=tmp_path / "cut", resume=True).result.history) == 10


def test_pdn_extract_labels_every_position_by_the_result_for_the_side_to_move(extracted):
    data = read_dataset(extracted, game="checkers", need=("label",))
    game = get_registry().game("checkers")
    assert set(np.abs(data.labels)) <= {0.0, 1.0}
    for group in np.unique(data.groups)[:4]:
        rows = np.flatnonzero(data.groups == group)
        assert data.plies[rows].tolist() == list(range(len(rows)))
        movers = [game.to_move(game.parse_position(p)) for p in data.positions[rows]]
        first = data.labels[rows[0]] * (1 if movers[0] == 0 else -1)
        for row, mover in zip(rows, movers, strict=True):
            assert data.labels[row] == first * (1 if mover == 0 else -1)


def test_pdn_extract_discount_and_filters(tmp_path, extracted):
    out = tmp_path / "d.npz"
    args = ["pdn", "extract", str(GAMES), "-o", str(out), "--discount", "0.5", "--drop-draws",
            "--min-plies", "60"]  # fmt: skip
    assert CliRunner().invoke(cli, args).exit_code == 0
    data = read_dataset(out)
    assert 0 < len(data) < len(read_dataset(extracted))
    last = [np.flatnonzero(data.groups == g)[-1] for g in np.unique(data.groups)]
    assert set(np.abs(data.labels[last])) == {1.0}
    assert np.abs(data.labels).min() < 1e-6  # early positions are discounted towards 0


def test_expert_trainer_replays_recorded_games_with_td(tmp_path, extracted):
    path = config(tmp_path, extracted, game="checkers", target='"td"', alpha=0.01,
                  fit={"epochs": 3})  # fmt: skip
    done = run(path, out=tmp_path / "td")
    assert len(done.result.history) == 3
    assert all(np.isfinite(r["valid_mse"]) for r in done.result.history)


def test_td_target_refuses_data_that_are_not_whole_games(tmp_path, extracted):
    gappy = tmp_path / "gappy.npz"
    write_dataset(gappy, read_dataset(extracted).select(np.arange(0, 400, 2)))
    path = config(tmp_path, gappy, game="checkers", target='"td"', fit={"epochs": 2})
    with pytest.raises(MindgamesError, match="not a whole recorded game"):
        run(path, out=tmp_path / "bad")


def test_data_of_another_game_or_without_labels_is_refused(tmp_path, solved):
    with pytest.raises(DataSetError, match="kalah:pits=3,seeds=3.*'kalah'"):
        run(config(tmp_path, solved, game="kalah"), out=tmp_path / "a")
    unlabelled = tmp_path / "u.npz"
    data = read_dataset(solved)
    write_dataset(unlabelled, DataSet(data.game, data.positions, data.groups, data.plies))
    with pytest.raises(DataSetError, match="no label column, which learner 'supervised'"):
        run(config(tmp_path, unlabelled), out=tmp_path / "b")


def test_closed_form_needs_a_fittable_model(tmp_path, solved):
    path = config(tmp_path, solved, fit={"fitter": '"fit"'})
    with pytest.raises(CapabilityError, match="fittable.*'mlp'"):
        run(path, out=tmp_path / "c")


def test_the_kalah_example_trains_on_its_documented_data(tmp_path, monkeypatch):
    """The commands of examples/training/kalah-supervised.toml, shrunk: generate, solve, train."""
    example = Path(__file__).resolve().parents[2] / "examples" / "training"
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for args in (
        ["data", "generate", "kalah", "--plies", "0-200", "--max-pieces", "12", "--successors",
         "--count", "10", "--seed", "1", "-o", "runs/kalah-late.npz"],
        ["data", "solve", "runs/kalah-late.npz", "--squash", "linear", "--scale", "48",
         "--workers", "1", "-o", "runs/kalah-late-solved.npz"],
    ):  # fmt: skip
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
    text = (example / "kalah-supervised.toml").read_text(encoding="utf-8")
    assert "\nepochs = 300\n" in text
    (tmp_path / "k.toml").write_text(text.replace("\nepochs = 300\n", "\nepochs = 5\n"))
    done = run(tmp_path / "k.toml", out=tmp_path / "runs" / "k")
    assert len(done.result.history) == 5


def test_the_whole_game_kalah_example_trains_on_its_documented_data(tmp_path, monkeypatch):
    """The commands of examples/training/kalah-supervised-whole.toml, shrunk: two data sets
    spread over a band of seeds in the pits, solved with a carried table, then trained."""
    example = Path(__file__).resolve().parents[2] / "examples" / "training"
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for seed in (41, 42):
        for args in (
            ["data", "generate", "kalah", "--plies", "0-200", "--spread", "3-14", "--successors",
             "--count", "12", "--seed", str(seed), "-o", f"runs/kalah-spread{seed}.npz"],
            ["data", "solve", f"runs/kalah-spread{seed}.npz", "--squash", "linear", "--scale",
             "48", "--workers", "1", "-o", f"runs/kalah-spread{seed}-solved.npz"],
        ):  # fmt: skip
            result = runner.invoke(cli, args)
            assert result.exit_code == 0, result.output
    solved = read_dataset("runs/kalah-spread41-solved.npz")
    assert solved.labels is not None and len(np.unique(solved.groups)) == 12
    assert np.allclose(solved.labels * 48, np.rint(solved.labels * 48))  # exact margins / 48
    text = (example / "kalah-supervised-whole.toml").read_text(encoding="utf-8")
    assert "\nepochs = 300\n" in text
    (tmp_path / "k.toml").write_text(text.replace("\nepochs = 300\n", "\nepochs = 5\n"))
    done = run(tmp_path / "k.toml", out=tmp_path / "runs" / "k")
    assert len(done.result.history) == 5
    assert (tmp_path / "runs" / "k" / "model.npz").exists()


def test_pdn_files_are_read_directly_and_match_pdn_extract(tmp_path, extracted):
    learner = SupervisedLearner(data=[str(GAMES)])
    direct = learner.load(get_registry().game("checkers"))
    via = read_dataset(extracted)
    assert direct.positions.tolist() == via.positions.tolist()
    assert direct.labels.tolist() == via.labels.tolist()
    with pytest.raises(CapabilityError, match="cannot read game records"):
        SupervisedLearner(data=[str(GAMES)]).load(get_registry().game("kalah"))


def test_pdn_extract_of_no_usable_game_is_one_line_and_writes_nothing(tmp_path):
    pdn = tmp_path / "none.pdn"
    pdn.write_text('[Event "x"]\n[Result "*"]\n11-15 *\n', encoding="utf-8")
    out = tmp_path / "none.npz"
    result = CliRunner().invoke(cli, ["pdn", "extract", str(pdn), "-o", str(out)])
    assert result.exit_code == 2 and "no game to extract" in result.output
    assert not out.exists()


def header_commands(path: Path) -> list[list[str]]:
    """The ``mindgames`` commands in a config's header comments (continued lines joined)."""
    commands: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.lstrip("#").strip()
        if commands and commands[-1].endswith("\\"):
            commands[-1] = commands[-1][:-1] + " " + text
        elif text.startswith("mindgames "):
            commands.append(text)
    return [shlex.split(command)[1:] for command in commands]  # as console_commands splits


def test_the_distilled_checkers_examples_train_on_their_documented_data(tmp_path, monkeypatch):
    """The three commands of examples/tournaments/checkers-distill-positions.toml, shrunk (one
    opening, 30-ply games, labels by a 2-ply search), then both training configs on their
    output: the search-taught net on the labels, the expert trainer along the games."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    tournament = examples / "tournaments" / "checkers-distill-positions.toml"
    text = tournament.read_text(encoding="utf-8")
    assert "\ncount = 120\n" in text and "\nmax_plies = 200\n" in text
    small = text.replace("\ncount = 120\n", "\ncount = 1\n").replace(
        "max_plies = 200", "max_plies = 30"
    )
    (tmp_path / "positions.toml").write_text(small, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commands = header_commands(tournament)
    documented = str(tournament.relative_to(examples.parent))
    assert [c[:2] for c in commands] == [
        ["tournament", documented], ["pdn", "extract"], ["data", "label"]
    ]  # fmt: skip
    commands[0][1] = "positions.toml"
    commands[2] = [a.replace("depth=8", "depth=2") for a in commands[2]]
    for args in commands:
        result = CliRunner().invoke(cli, [*args, *(["--workers", "1"] if args[0] != "pdn" else [])])
        assert result.exit_code == 0, (args, result.output)
    labelled = read_dataset("runs/distill-d8.npz")
    assert len(labelled) > 100 and labelled.labels is not None
    inner = (np.abs(labelled.labels) > 0) & (np.abs(labelled.labels) < 1)
    assert np.any(inner)  # search values in pieces, not the games' results
    assert labelled.provenance["labeller"]["agent"].startswith("alphabeta:depth=2,eval=material")
    assert len(np.unique(labelled.groups)) == 12  # 4 agents, round robin, colours swapped
    training = (examples / "training" / "checkers-distilled.toml").read_text(encoding="utf-8")
    assert 'data = ["runs/distill-d8.npz"]' in training and "\nepochs = 500\n" in training
    (tmp_path / "d.toml").write_text(training.replace("\nepochs = 500\n", "\nepochs = 3\n"))
    done = run(tmp_path / "d.toml", out=tmp_path / "runs" / "d")
    assert len(done.result.history) == 3
    assert done.result.evaluator.encoding.width == 165
    (source,) = read_model_file(done.model_path)[0]["provenance"]["inputs"]["data"]
    digest = hashlib.sha256(Path("runs/distill-d8.npz").read_bytes()).hexdigest()
    assert source["file"] == "runs/distill-d8.npz" and source["sha256"] == digest
    assert source["rows"] == len(labelled) and source["record"] == labelled.provenance
    expert = (examples / "training" / "checkers-neurodraughts-expert.toml").read_text("utf-8")
    assert 'data = ["runs/distill-games/games.pdn"]' in expert and "\nepochs = 40\n" in expert
    assert "\naverage_from = 25 " in expert
    shrunk = expert.replace("\nepochs = 40\n", "\nepochs = 3\n")
    (tmp_path / "e.toml").write_text(shrunk.replace("\naverage_from = 25 ", "\naverage_from = 2 "))
    done = run(tmp_path / "e.toml", out=tmp_path / "runs" / "e")
    # every epoch runs; the net is the mean of the weights after epochs 2 and 3
    rows = done.result.history
    assert [(row["epoch"], row["averaged"]) for row in rows] == [(1, 0), (2, 1), (3, 2)]
    (source,) = read_model_file(done.model_path)[0]["provenance"]["inputs"]["data"]
    assert source["file"] == "runs/distill-games/games.pdn" and source["rows"] == len(labelled)
