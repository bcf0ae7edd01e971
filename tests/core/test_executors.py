"""Executors: an error inside a process pool stops its workers and comes out unchanged."""

from __future__ import annotations

import os
import time

import pytest

from mindgames.executors import open_executor


def test_an_error_inside_a_pool_comes_out_as_itself_and_the_workers_stop():
    with pytest.raises(KeyError, match="inside"), open_executor(2) as pool:
        assert pool.submit(os.getpid).result() != os.getpid()
        workers = list(pool._processes.values())
        raise KeyError("inside")
    deadline = time.monotonic() + 30
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(w.is_alive() for w in workers)
