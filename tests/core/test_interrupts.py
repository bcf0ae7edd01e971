"""Interrupted runs through the real CLI: SIGINT/SIGTERM stop with one line saying how to
resume (training checkpoints first), SIGKILL leaves no worker behind, and a killed training
never holds a history row twice."""

from __future__ import annotations

import signal
import time

import pytest

from mindgames.files import read_jsonl, read_npz
from tests.support.cli import alive, descendants, lines, one_line_error, run, start, wait_for

TRAIN = """\
game = "kalah:pits=4,seeds=3"
seed = 3
eval = {{ model = "mlp", encoding = "kalah14", hidden = [8] }}
[learner]
name = "td"
games = {games}
batch = 25
checkpoint_every = {every}
"""
TOURNAMENT = """\
game = "kalah:pits=4,seeds=3"
openings = "random:plies=2,count=40"
[agents]
a = "alphabeta:depth=3,eval=material"
b = "alphabeta:depth=2,eval=material"
"""


def games_column(history):
    return [row["games"] for row in read_jsonl(history)]


@pytest.mark.parametrize(
    "sig, every",
    # every=25: a checkpoint is due at every row anyway, and the signal must still stop the run
    # right after the checkpoint of the row it arrived in (not one row later, before its own)
    [(signal.SIGINT, 1000), (signal.SIGTERM, 1000), (signal.SIGTERM, 25)],
)
def test_a_signal_stops_training_with_a_checkpoint_and_the_resume_command(sig, every, tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(TRAIN.format(games=1000, every=every), encoding="utf-8")
    out = tmp_path / "run"
    proc = start("train", config, "--out", out, "--quiet")
    wait_for(lambda: lines(out / "history.jsonl") >= 2, proc)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    done = type("Done", (), {"returncode": proc.returncode, "stderr": proc.stderr.read()})
    line = one_line_error(done, f"interrupted by {sig.name}", code=130)
    assert line.endswith(f"resume with: mindgames train {config} --out {out} --quiet --resume")
    rows = games_column(out / "history.jsonl")
    meta, _ = read_npz(out / "checkpoint.npz", "checkpoint")
    assert meta["games"] == rows[-1] < 1000  # the checkpoint holds every reported row
    resumed = run("train", config, "--out", out, "--quiet", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert games_column(out / "history.jsonl") == list(range(25, 1001, 25))


def interrupt(proc, enough):
    """SIGINT ``proc`` once ``enough()`` holds; its one error line (exit 130)."""
    wait_for(enough, proc)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    done = type("Done", (), {"returncode": proc.returncode, "stderr": proc.stderr.read()})
    return one_line_error(done, "interrupted by SIGINT after ", code=130)


def test_the_interrupt_line_of_a_resumed_training_counts_every_row_of_its_history(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(TRAIN.format(games=4000, every=4000), encoding="utf-8")
    out, history = tmp_path / "run", tmp_path / "run" / "history.jsonl"
    line = interrupt(start("train", config, "--out", out, "--quiet"), lambda: lines(history) >= 2)
    before = games_column(history)
    assert f"after {len(before)} history rows (games {before[-1]});" in line
    resumed = start("train", config, "--out", out, "--quiet", "--resume")
    line = interrupt(resumed, lambda: lines(history) >= len(before) + 2)
    rows = games_column(history)
    assert len(rows) >= len(before) + 2 and rows == list(range(25, 25 * len(rows) + 1, 25))
    assert f"after {len(rows)} history rows (games {rows[-1]});" in line


def test_a_killed_resumed_training_never_holds_a_history_row_twice(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(TRAIN.format(games=4000, every=100), encoding="utf-8")
    out = tmp_path / "run"
    first = start("train", config, "--out", out, "--quiet")
    wait_for(lambda: lines(out / "history.jsonl") >= 7, first)  # checkpoint at 100, rows to 175
    first.kill()
    first.wait(timeout=30)
    before = lines(out / "history.jsonl")
    second = start("train", config, "--out", out, "--quiet", "--resume")
    wait_for(lambda: max(games_column(out / "history.jsonl")) > 25 * before, second)
    second.kill()
    second.wait(timeout=30)
    rows = games_column(out / "history.jsonl")
    assert rows == list(range(25, 25 * len(rows) + 1, 25))


@pytest.mark.parametrize("kind", ["tournament", "match"])
def test_sigterm_stops_a_pooled_run_in_one_line_and_it_resumes(kind, tmp_path):
    config = tmp_path / "k.toml"
    config.write_text(TOURNAMENT, encoding="utf-8")
    results, args = pooled(kind, tmp_path)
    proc = start(*args)
    wait_for(lambda: lines(results) >= 1, proc)
    workers = descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    done = type("Done", (), {"returncode": proc.returncode, "stderr": proc.stderr.read()})
    one_line_error(done, "interrupted by SIGTERM; resume with: mindgames", "--resume", code=130)
    assert workers
    gone_within(workers, 5)
    resumed = run(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    got = sorted(r["index"] for r in read_jsonl(results))
    assert got == list(range(len(got))) and len(got) >= 10


@pytest.mark.parametrize("kind", ["tournament", "match"])
def test_sigkill_of_a_pooled_run_leaves_no_process_behind(kind, tmp_path):
    results, args = pooled(kind, tmp_path)
    proc = start(*args)
    wait_for(lambda: lines(results) >= 1 and len(descendants(proc.pid)) >= 2, proc)
    workers = descendants(proc.pid)
    proc.kill()
    proc.wait(timeout=30)
    gone_within(workers, 5)


def gone_within(pids, seconds):
    """Assert that every process of ``pids`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while [pid for pid in pids if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if alive(pid)], "processes outlived their parent"


def pooled(kind, tmp_path):
    """The results file and the command line of a small run on two worker processes."""
    if kind == "tournament":
        config = tmp_path / "k.toml"
        config.write_text(TOURNAMENT, encoding="utf-8")
        out = tmp_path / "run"
        return out / "results.jsonl", ["tournament", config, "--out", out, "--workers", "2"]
    out = tmp_path / "m.jsonl"
    a, b = "alphabeta:depth=3,eval=material", "alphabeta:depth=2,eval=material"
    game = "kalah:pits=4,seeds=3"
    return out, ["match", a, b, "--game", game, "--games", "80", "--workers", "2", "--out", out]
