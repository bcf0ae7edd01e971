"""Every command with ``--scheduler`` gives on a real Dask cluster what it gives in one process:
``match``, ``curve``, ``quality``, ``data label`` and ``data solve``. One LocalCluster (two
worker processes, ``dask_cluster`` in conftest.py) serves them all through its tcp:// address,
the way a user's cluster is reached."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.data.sets import read_dataset
from mindgames.errors import MindgamesError
from mindgames.training import run

GAME = "kalah:pits=3,seeds=3"
TD = """\
game = "kalah:pits=3,seeds=3"
seed = 1
eval = { model = "mlp", encoding = "kalah14", hidden = [3] }
learner = { name = "td", games = 20, batch = 10, checkpoint_every = 10 }
"""


def mindgames(*args) -> str:
    done = CliRunner().invoke(cli, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    return done.stdout


def both(cluster: str, *args) -> tuple[str, str]:
    """The command's output in this process and on the cluster."""
    return mindgames(*args, "--workers", "1"), mindgames(*args, "--scheduler", cluster)


@pytest.mark.slow
def test_a_match_on_a_dask_cluster_is_the_match_in_one_process(dask_cluster):
    serial, dask = both(
        dask_cluster, "match", "alphabeta:depth=2,eval=material", "random", "--game", GAME,
        "--games", "8", "--seed", "4", "--json",
    )  # fmt: skip
    assert json.loads(dask) == json.loads(serial)
    assert json.loads(serial)["games"] == 8


@pytest.mark.slow
def test_a_curve_and_quality_on_a_dask_cluster_are_the_same(dask_cluster, tmp_path):
    (tmp_path / "td.toml").write_text(TD, encoding="utf-8")
    directory = run(tmp_path / "td.toml", out=tmp_path / "run").directory
    curve = ("curve", directory, "--vs", "random", "--games", "4", "--json")
    serial = mindgames(*curve, "--workers", "1", "--out", tmp_path / "serial.jsonl")
    dask = mindgames(*curve, "--scheduler", dask_cluster, "--out", tmp_path / "dask.jsonl")
    assert dask == serial and len(serial.splitlines()) >= 2
    quality = ("quality", GAME, "--agent", "alphabeta:depth=1,eval=material", "--count", "15",
               "--max-pieces", "none", "--min-plies", "4", "--json")  # fmt: skip
    serial, dask = both(dask_cluster, *quality)
    assert dask == serial and json.loads(serial.splitlines()[0])["positions"] == 15


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["label", "solve"])
def test_data_labelled_on_a_dask_cluster_is_the_same(dask_cluster, tmp_path, kind):
    mindgames("data", "generate", GAME, "--plies", "2-8", "--count", "30", "-o", tmp_path / "d.npz")
    extra = ("--agent", "alphabeta:depth=3,eval=material") if kind == "label" else ()
    executors = {"serial": ("--workers", "1"), "dask": ("--scheduler", dask_cluster)}
    for where, executor in executors.items():
        mindgames("data", kind, tmp_path / "d.npz", *extra, *executor, "--quiet",
                  "-o", tmp_path / f"{where}.npz")  # fmt: skip
    serial, dask = read_dataset(tmp_path / "serial.npz"), read_dataset(tmp_path / "dask.npz")
    assert serial.labels is not None and np.array_equal(dask.labels, serial.labels)
    assert np.array_equal(dask.positions, serial.positions)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_naming_it(tmp_path):
    done = CliRunner().invoke(
        cli, ["match", "random", "random", "--game", GAME, "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert done.exit_code == 2
    assert done.output.count("\n") == 1
    assert "scheduler tcp://127.0.0.1:9: cannot connect" in done.output
    assert "refused" in done.output  # said at once, not after Dask's 10 s of retries


def test_only_a_refused_tcp_connection_is_refused_before_dask_connects(dask_cluster):
    """A scheduler that listens, or an address that is not tcp://host:port, goes on to Dask's
    own connect (and its timeout)."""
    from mindgames.executors import _refuse_refused

    _refuse_refused(dask_cluster)  # listening: no error
    _refuse_refused("inproc://abc")
    with pytest.raises(MindgamesError, match="cannot connect: .*refused"):
        _refuse_refused("tcp://127.0.0.1:9")
