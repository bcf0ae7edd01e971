"""The same tournament on every executor, and a real SIGKILL followed by --resume.

These use the built-in components, since worker processes load plugins from entry points.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mindgames.files import read_jsonl
from mindgames.play.task import comparable
from mindgames.play.tournament import RESULTS_FILE, TournamentConfig, plan, run_tournament
from mindgames.registry import get_registry

AGENTS = {
    "random": "random",
    "greedy": "greedy:eval=material,random_ties=true",
    "ab2": {"searcher": "alphabeta", "depth": 2, "eval": "material", "random_order": True},
}


def small_plan():
    config = TournamentConfig(
        game="kalah:pits=4,seeds=3",
        agents=AGENTS,
        openings="random:plies=2,count=2",
        seed=11,
    )
    return plan(config, get_registry())


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = run_tournament(small_plan(), tmp_path_factory.mktemp("serial"), workers=1)
    return [comparable(r) for r in out.records]


def test_two_local_workers_give_identical_results(serial, tmp_path):
    out = run_tournament(small_plan(), tmp_path, workers=2)
    assert out.played == len(serial) == 12
    assert [comparable(r) for r in out.records] == serial
    on_disk = sorted(read_jsonl(tmp_path / RESULTS_FILE), key=lambda r: r["index"])
    assert [comparable(r) for r in on_disk] == serial


@pytest.mark.slow
def test_a_dask_local_cluster_gives_identical_results(serial, tmp_path):
    # dask[distributed] is in the dev extras that `make test` installs: no skip
    out = run_tournament(small_plan(), tmp_path, workers=2, scheduler="local")
    assert [comparable(r) for r in out.records] == serial


CONFIG = """
game = "checkers"
seed = 5
max_plies = 200
openings = "book:name=acf-3move,count=8"

[agents]
ab2 = "alphabeta:depth=2,eval=material"
greedy = "greedy:eval=material,random_ties=true"
random = "random"
"""


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "from mindgames.cli.main import main; main()", *args]


@pytest.mark.slow
def test_sigkill_then_resume_gives_the_uninterrupted_results(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(CONFIG)
    killed = tmp_path / "killed"
    env = {**os.environ, "MINDGAMES_STRICT_PLUGINS": "1"}
    proc = subprocess.Popen(
        _cli("tournament", str(config), "--out", str(killed), "--workers", "1"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    results = killed / RESULTS_FILE
    # the wait ends at the fifth game; the long deadline covers a cold compile on a busy machine
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_bytes().count(b"\n") >= 5:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    before = read_jsonl(results)
    assert 5 <= len(before) < 48, "the kill should land mid-way"

    resumed = subprocess.run(
        _cli(
            "tournament", str(config), "--out", str(killed), "--workers", "1", "--resume", "--json"
        ),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(resumed.stdout)
    assert report["games"] == 48
    after = read_jsonl(results)
    indices = [r["index"] for r in after]
    assert sorted(indices) == list(range(48))  # none lost, none repeated
    assert [comparable(r) for r in after[: len(before)]] == [comparable(r) for r in before]

    # the same tournament without a kill, in this process
    from mindgames.play.tournament import load_config

    whole = run_tournament(plan(load_config(config), get_registry()), tmp_path / "whole", workers=1)
    assert [comparable(r) for r in sorted(after, key=lambda r: r["index"])] == [
        comparable(r) for r in whole.records
    ]
    assert report["standings"] == whole.report["standings"]
