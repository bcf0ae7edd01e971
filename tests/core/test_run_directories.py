"""Files and run directories through the real CLI: a bad --out, a full disk, a locked run, a
refused or resumed match file, a broken model -- each one line, exit 2, nothing lost."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.files import lock_file, lock_run, read_jsonl
from mindgames.modelfile import save_evaluator
from mindgames.registry import get_registry
from tests.support.cli import one_line_error, run

GAME = "kalah:pits=3,seeds=2"
TOURNAMENT = """\
game = "kalah:pits=3,seeds=2"
openings = "random:plies=2,count=5"
[agents]
a = "random"
b = "greedy:eval=material"
"""
TRAIN = """\
game = "kalah:pits=3,seeds=2"
eval = { model = "linear", encoding = "kalah14" }
[learner]
name = "td"
games = 20
batch = 10
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def command(kind, tmp_path, out):
    """The command line that writes ``out`` for each kind of run."""
    if kind == "train":
        return ["train", write(tmp_path, "t.toml", TRAIN), "--out", out, "--quiet"]
    if kind == "tournament":
        return ["tournament", write(tmp_path, "k.toml", TOURNAMENT), "--out", out, "--workers", "1"]
    return ["match", "random", "random", "--game", GAME, "--games", "10", "--out", out]


def indices(path):
    return [record["index"] for record in read_jsonl(path)]


@pytest.mark.parametrize("kind", ["train", "tournament", "match"])
def test_an_out_under_a_regular_file_is_one_line(kind, tmp_path):
    (tmp_path / "file").write_text("x")
    line = one_line_error(run(*command(kind, tmp_path, tmp_path / "file" / "x")))
    assert "cannot create the directory" in line
    assert (tmp_path / "file").read_text() == "x"


@pytest.mark.parametrize("kind", ["train", "tournament", "match"])
def test_a_locked_run_is_refused_naming_the_process(kind, tmp_path):
    out = tmp_path / ("m.jsonl" if kind == "match" else "run")
    match = kind == "match"
    with lock_file(tmp_path / ".m.jsonl.lock", str(out)) if match else lock_run(out):
        line = one_line_error(run(*command(kind, tmp_path, out)), "in use by another mindgames")
    assert "pid" in line
    assert not (out / "config.json").exists() and not out.is_file()


@pytest.mark.parametrize("kind", ["tournament", "match"])
def test_a_failing_write_is_one_line_and_the_run_resumes_whole(kind, tmp_path):
    out = tmp_path / ("m.jsonl" if kind == "match" else "run")
    args = command(kind, tmp_path, out)
    one_line_error(run(*args, file_size_limit=1500), "cannot write: File too large")
    results = out if kind == "match" else out / "results.jsonl"
    assert len(indices(results)) < 10
    done = run(*args, "--resume")
    assert done.returncode == 0, done.stderr
    got = indices(results)
    assert sorted(got) == list(range(len(got))) and len(got) >= 10


def test_a_match_file_is_refused_or_resumed_like_a_tournament(tmp_path):
    out = tmp_path / "m.jsonl"
    args = ["match", "random", "random", "--game", GAME, "--games", "6", "--out", out]
    assert run(*args).returncode == 0
    before = out.read_text()
    one_line_error(run(*args), "already holds 6 match games; use --resume")
    one_line_error(run(*args, "--resume", "--seed", "3"), "holds games of another match")
    one_line_error(run(*args[:-1], tmp_path / "none.jsonl", "--resume"), "nothing to resume")
    again = run(*args, "--resume")
    assert again.returncode == 0, again.stderr
    assert out.read_text() == before
    assert not (tmp_path / "none.jsonl").exists()


def test_a_config_that_fails_in_training_leaves_a_directory_that_takes_the_fixed_one(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    bad = write(tmp_path, "t.toml", TRAIN + 'lookahead = "alphabta:depth=1"\n')
    one_line_error(run("train", bad, "--out", out, "--quiet"), "unknown searcher 'alphabta'")
    assert not (out / "config.json").exists()
    write(tmp_path, "t.toml", TRAIN + 'lookahead = "alphabeta:depth=1"\n')
    done = run("train", bad, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_model_with_a_non_finite_weight_is_refused_at_load(bad, tmp_path):
    registry = get_registry()
    game = registry.game(GAME)
    evaluator = build_evaluator(registry, game, {"model": "linear", "encoding": "kalah14"})
    params = evaluator.model.get_params()
    params[0] = bad
    evaluator.model.set_params(params)
    path = tmp_path / "m.npz"
    save_evaluator(path, game, evaluator, {})
    done = run("match", f"alphabeta:depth=2,eval=@{path}", "random", "--game", GAME)
    one_line_error(done, str(path), "non-finite value(s)")
