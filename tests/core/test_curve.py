"""``mindgames curve`` on a tiny real Kalah training run: one line per model, resumable."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.agent import build_evaluator
from mindgames.files import read_jsonl
from mindgames.measure.curve import Point, points, spread
from mindgames.registry import get_registry
from mindgames.training import run, save_snapshot

from support.cli import one_line_error
from support.cli import run as mindgames

CONFIG = """\
game = "kalah:pits=3,seeds=3"
seed = 1

[eval]
model = "mlp"
encoding = "kalah14"
hidden = [5]

[learner]
name = "td"
games = 100
batch = 50
checkpoint_every = 50
"""
EVAL = {"model": "mlp", "encoding": "kalah14", "hidden": [5]}
VS = "greedy:eval=material"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A trained run, plus a snapshot of the untrained net at 0 games."""
    base = tmp_path_factory.mktemp("curve")
    (base / "tiny.toml").write_text(CONFIG, encoding="utf-8")
    done = run(base / "tiny.toml", out=base / "run")
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=3")
    save_snapshot(done.directory, game, build_evaluator(registry, game, EVAL, seed=1), 0)
    return done.directory


def curve(run_dir, *extra):
    return mindgames("curve", str(run_dir), "--vs", VS, "--games", "10", "--json", *extra)


@pytest.fixture(scope="module")
def measured(run_dir):
    """The curve of the run, measured once on a real process pool."""
    return curve(run_dir, "--workers", "2")


def test_every_model_of_the_run_gets_one_line_with_its_result(run_dir, measured):
    models = points(run_dir)
    assert models[0].games == 0 and models[-1].games == 100
    assert [p.final for p in models] == [False] * (len(models) - 1) + [models[-1].final]
    result = measured
    assert result.returncode == 0, result.stderr
    lines = [json.loads(text) for text in result.stdout.splitlines()]
    assert lines == read_jsonl(run_dir / "curve.jsonl")
    assert [line["games"] for line in lines] == [p.games for p in models]
    for line in lines:
        assert line["wins"] + line["draws"] + line["losses"] == line["played"] == 10
        assert line["elo_low"] <= line["elo"] <= line["elo_high"]
        assert line["vs"] == VS and line["depth"] == 2 and line["match_games"] == 10
    # each point carries the training time that history.jsonl recorded at its games count
    # (0 at 0 games, the initial model, which has no history row): a copied record, nothing
    # timed here
    recorded = {row["games"]: row["elapsed"] for row in read_jsonl(run_dir / "history.jsonl")}
    copied = [line["seconds"] for line in lines]
    assert copied == [
        recorded.get(line["games"], 0.0 if line["games"] == 0 else None) for line in lines
    ]
    assert copied[0] == 0.0 and 0 not in recorded and copied[-1] is not None


def test_a_killed_curve_resumes_without_replaying_finished_points(run_dir, measured, tmp_path):
    out = tmp_path / "curve.jsonl"
    out.write_text((run_dir / "curve.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    whole = read_jsonl(out)
    text = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text(text[0] + text[1][: len(text[1]) // 2], encoding="utf-8")  # killed mid-line
    again = curve(run_dir, "--workers", "1", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert read_jsonl(out) == whole  # the same games (serial now), replayed for the lost points
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(whole)
    done = mindgames("curve", str(run_dir), "--vs", VS, "--games", "10", "--out", str(out))
    assert f"resuming: {len(whole)} points done, 0 games to play" in done.stderr
    assert done.stdout.splitlines()[1].split()[0] == "games"
    assert "*" not in done.stdout  # the last snapshot is the final model: no line to mark


def test_other_settings_or_a_directory_without_models_are_one_line_errors(run_dir, measured):
    out = run_dir / "curve.jsonl"
    other = mindgames("curve", str(run_dir), "--vs", VS, "--games", "12", "--out", str(out))
    one_line_error(
        other,
        f"{out}:1: measured with other settings (vs={VS!r}, depth=2, search=None, "
        "match_games=10, seed=0, max_plies=400); give the same ones to resume, or another --out",
    )
    empty = mindgames("curve", str(run_dir / "snapshots"), "--vs", VS)
    one_line_error(empty, "snapshots: no snapshots and no model.npz: not a training run")
    unknown = mindgames("curve", str(run_dir), "--vs", "nosuch", "--out", str(out))
    one_line_error(unknown, "nosuch")  # the bad agent is named, not the settings of the file
    assert "other settings" not in unknown.stderr


def test_a_final_model_past_the_last_snapshot_is_its_own_starred_line(run_dir, tmp_path):
    """A run stopped between snapshots: its model.npz is a point of its own, marked final."""
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    last = max((copy / "snapshots").glob("*.npz"))
    last.unlink()  # the snapshot the final model was; model.npz stays, at 100 games
    assert [(p.games, p.final) for p in points(copy)][-1] == (100, True)
    fresh = str(tmp_path / "curve.jsonl")  # the copy may hold another test's curve.jsonl
    out = mindgames(
        "curve", str(copy), "--vs", VS, "--games", "4", "--workers", "1", "--out", fresh
    )
    assert out.returncode == 0, out.stderr
    rows = out.stdout.splitlines()
    assert "(* the final model)" in out.stdout
    assert [row.split()[0] for row in rows if row.split()[:1] == ["100*"]] == ["100*"]


@given(st.integers(1, 900), st.integers(2, 60))
def test_spread_keeps_the_first_and_last_models_and_spaces_the_rest_evenly(count, at_most):
    found = [Point(i, Path(f"snapshots/{i:09d}.npz"), False) for i in range(count)]
    kept = spread(found, at_most)
    assert len(kept) == min(count, at_most)
    assert kept[0] is found[0] and kept[-1] is found[-1]
    indices = [found.index(p) for p in kept]
    assert indices == sorted(set(indices))  # in order, none twice
    if count > at_most:  # gaps differ by at most one model
        gaps = [b - a for a, b in pairwise(indices)]
        assert max(gaps) - min(gaps) <= 1


def test_points_and_search_measure_a_few_models_with_the_given_searcher(run_dir, tmp_path):
    """``--points 2`` plays the first and the last model only; ``--search`` is each model's
    searcher with its eval added, recorded in the lines, and a file measured so refuses the
    default searcher (another setting), while both options at once are one line."""
    out = tmp_path / "curve.jsonl"
    search = "alphabeta:depth=1,ordering=false"
    done = curve(run_dir, "--workers", "1", "--points", "2", "--search", search, "--out", out)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(text) for text in done.stdout.splitlines()]
    models = points(run_dir)
    assert [line["model"] for line in lines] == [
        p.path.relative_to(run_dir).as_posix() for p in (models[0], models[-1])
    ]
    assert all(line["search"] == search and line["depth"] is None for line in lines)
    table = mindgames("curve", str(run_dir), "--vs", VS, "--games", "10", "--search", search,
                      "--out", str(out))  # fmt: skip
    assert table.returncode == 0, table.stderr
    assert f"Elo of {search} on each model against {VS}" in table.stdout
    other = curve(run_dir, "--points", "2", "--out", out)
    one_line_error(other, "measured with other settings")
    both = curve(run_dir, "--depth", "1", "--search", search, "--out", tmp_path / "b.jsonl")
    one_line_error(both, "give --depth or --search, not both")
    bad = curve(run_dir, "--search", "alphabeta:depth=1,eval=material", "--out", tmp_path / "c")
    one_line_error(bad, "leave out eval")
    assert not (tmp_path / "b.jsonl").exists() and not (tmp_path / "c").exists()
