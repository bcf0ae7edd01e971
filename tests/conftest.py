"""Shared fixtures. Plugins load strictly in tests: a broken built-in fails loudly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: no test asserts wall time, and Hypothesis's per-example deadline and "too slow" check are
#: such asserts: on a loaded machine (CI beside a training run) a 1 ms example took 865 ms once
#: and failed as "flaky"
settings.register_profile("mindgames", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mindgames")

os.environ.setdefault("MINDGAMES_STRICT_PLUGINS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))  # so tests can import `support`


def pytest_sessionstart(session: pytest.Session) -> None:
    """With xdist workers on the whole suite (``make test`` runs ``-n 2``), compile the built-in
    kernels before the workers start, one family per process (``mindgames.compiled.warmup``):
    on a cold cache the workers would otherwise each compile the same kernels at once, in
    whichever test first searches. With a warm cache this costs the two processes' start (a
    few seconds). A failure here is left to the tests that use those kernels to report."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return  # chosen tests compile only what they use
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mindgames.compiled.warmup", family],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for family in ("draughts", "kalah")
    ]
    for proc in procs:
        proc.wait()


@pytest.fixture
def registry():
    """The installed plugins plus the tic-tac-toe test game and a tiny test model."""
    from mindgames.registry import registry_with

    from support.tictactoe import TicTacToePlugin
    from support.tinymodel import TinyModelPlugin

    return registry_with(("tictactoe", TicTacToePlugin()), ("tinymodel", TinyModelPlugin()))


@pytest.fixture(scope="session")
def dask_cluster():
    """The tcp:// address of a real Dask LocalCluster of two worker processes, shared by the
    tests that run work on Dask the way a user's cluster is reached. Its HTTP server takes a free
    port, leaving 8787 to the LocalCluster that ``--scheduler local`` starts in other tests."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
    ) as local:
        yield local.scheduler_address
