"""Issue 38, defects 7 and 8: messages that said something untrue, and loose ends left on disk."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.errors import ModelFileError
from mindgames.files import read_npz, write_npz
from mindgames.modelfile import load_evaluator, save_evaluator
from mindgames.registry import get_registry

from support.cli import one_line_error, run

KALAH = "kalah:pits=3,seeds=2"
TOURNAMENT = f"""\
game = "{KALAH}"
openings = "random:plies=2,count=3"
[agents]
a = "random"
b = "greedy:eval=material"
"""
TRAIN = f"""\
game = "{KALAH}"
eval = {{ model = "linear", encoding = "kalah14" }}
[learner]
name = "td"
games = 20
batch = 10
"""


@pytest.fixture(scope="module")
def reg():
    return get_registry()


def test_a_model_whose_game_parameters_are_left_out_is_the_game_with_its_defaults(reg, tmp_path):
    """Defect 7: such a model was refused as "written for game 'checkers', not 'checkers'"."""
    game = reg.game("checkers")
    path = tmp_path / "m.npz"
    save_evaluator(path, game, build_evaluator(reg, game, {"model": "linear", "encoding": "raw32"}))
    meta, arrays = read_npz(path, "model file")
    meta["game"]["params"] = {}
    write_npz(path, meta, arrays, ModelFileError)
    assert load_evaluator(path, reg, game)[0] == game
    other = reg.game("checkers:no_progress=10")
    with pytest.raises(ModelFileError) as caught:
        load_evaluator(path, reg, other)
    message = str(caught.value)
    assert "written for game 'checkers'" in message and "no_progress=10" in message


def test_a_tournament_pointed_at_a_training_run_says_so(tmp_path):
    """Defect 7: it said "the tournament there was started with another config"."""
    (tmp_path / "t.toml").write_text(TRAIN)
    (tmp_path / "k.toml").write_text(TOURNAMENT)
    out = tmp_path / "run"
    assert run("train", tmp_path / "t.toml", "--out", out, "--quiet").returncode == 0
    done = run("tournament", tmp_path / "k.toml", "--out", out, "--workers", "1")
    one_line_error(done, "holds another kind of run", "a training run?")


def test_plot_calls_a_missing_directory_no_such_file_or_directory(tmp_path):
    """Defect 7: ``plot A B`` called a missing run directory a "file"."""
    done = run("plot", tmp_path / "td-s1", tmp_path / "td-s2", "-o", tmp_path / "x.png")
    one_line_error(done, "td-s1: no such file or directory")


def test_quality_write_leaves_only_the_file_it_was_asked_for(tmp_path):
    """Defect 8: ``quality --write F`` left ``.F.partial.lock`` behind."""
    out = tmp_path / "late.jsonl"
    done = run("quality", KALAH, "--agent", "greedy:eval=material", "--count", "5",
               "--max-pieces", "8", "--write", out, "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late.jsonl"]


@pytest.mark.slow
def test_a_tournament_whose_scheduler_cannot_be_reached_leaves_a_directory_that_takes_it_again(
    tmp_path,
):
    """Defect 8: a failed ``--scheduler`` left a run directory that then demanded --resume."""
    (tmp_path / "k.toml").write_text(TOURNAMENT)
    out = tmp_path / "run"
    done = run("tournament", tmp_path / "k.toml", "--out", out, "--scheduler", "tcp://127.0.0.1:9")
    one_line_error(done, "cannot connect")
    assert not (out / "config.json").exists()
    again = run("tournament", tmp_path / "k.toml", "--out", out, "--workers", "1")
    assert again.returncode == 0, again.stderr


def test_a_model_file_with_too_many_numbers_is_refused_by_its_headers(reg, tmp_path):
    game = reg.game(KALAH)
    path = tmp_path / "m.npz"
    save_evaluator(
        path, game, build_evaluator(reg, game, {"model": "linear", "encoding": "kalah14"})
    )
    meta, _ = read_npz(path, "model file")
    meta["model"]["shapes"]["w"] = [60_000_000]
    write_npz(path, meta, {"m/w": np.zeros(60_000_000, dtype=np.int8)}, ModelFileError)
    done = run("describe-model", path)
    one_line_error(done, "numbers, more than a model file may (50,000,000)")
