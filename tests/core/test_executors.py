"""Executors: an error inside a process pool stops its workers and comes out unchanged; bad
worker counts and scheduler addresses are one clear error."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from mindgames.errors import MindgamesError
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


def test_a_stopped_pool_has_ended_its_manager_thread_before_the_error_leaves():
    # at exit Python 3.11 wakes every pool's manager thread through a pipe, without a lock; a
    # thread still ending (closing that pipe) then made the exit print "Bad file descriptor"
    for _ in range(5):
        with pytest.raises(KeyError), open_executor(2) as pool:
            pool.submit(os.getpid).result()
            manager = pool._executor_manager_thread
            raise KeyError("stop")
        assert not manager.is_alive()


def test_stopping_a_pool_whose_futures_were_cancelled_prints_nothing(tmp_path):
    script = tmp_path / "stop.py"
    script.write_text(
        "import time\n"
        "from mindgames.executors import open_executor\n"
        "if __name__ == '__main__':\n"
        "    try:\n"
        "        with open_executor(2) as pool:\n"
        "            futures = [pool.submit(time.sleep, 0.3) for _ in range(20)]\n"
        "            futures[0].result()\n"
        "            for future in futures:\n"
        "                future.cancel()\n"
        "            raise KeyError('stop')\n"
        "    except KeyError:\n"
        "        print('stopped')\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.stdout == "stopped\n"
    assert done.stderr == ""  # Python 3.11's manager thread raised InvalidStateError here


def test_no_workers_or_a_scheduler_that_is_no_address_is_one_clear_error():
    with pytest.raises(MindgamesError, match="workers must be at least 1, got 0"), open_executor(0):
        pass
    bad = "scheduler 'cluster:8786': expected 'local' or an"
    with pytest.raises(MindgamesError, match=bad), open_executor(2, "cluster:8786"):
        pass
