"""Executors: an error inside a process pool stops its workers and comes out unchanged; bad
worker counts and scheduler addresses are one clear error; the pump (``ordered``) yields in
order, keeps a window, runs serially one task at a time and cancels what waits when closed."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from mindgames.errors import MindgamesError
from mindgames.executors import Done, SerialExecutor, open_executor, ordered


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


def _late(i: int, delay: float) -> int:
    time.sleep(delay)
    return i


def test_the_pump_yields_results_in_the_order_of_the_jobs_whatever_order_they_finish_in():
    jobs = [(i, 0.05 * (5 - i)) for i in range(6)]  # the first job finishes last
    with open_executor(2) as pool:
        assert list(ordered(pool, _late, jobs, window=3)) == list(range(6))


def test_the_serial_pump_runs_one_task_at_a_time_with_its_local_arguments():
    pulled = []

    def jobs():
        for i in range(4):
            pulled.append(i)
            yield (i,)

    def task(i, registry=None):
        return (i, registry)

    seen = []
    for result in ordered(SerialExecutor(), task, jobs(), window=8, local=("here",)):
        seen.append(result)
        assert pulled == list(range(len(seen)))  # the next job waits for this result
    assert seen == [(i, "here") for i in range(4)]


def test_the_pump_keeps_at_most_a_window_in_flight_and_passes_known_results_through():
    pulled = []
    calls = []

    def jobs():
        for i in itertools.count():
            pulled.append(i)
            yield Done(-i) if i % 3 == 0 else (i,)

    def task(i):
        calls.append(i)
        return i

    with ThreadPoolExecutor(2) as pool:
        results = ordered(pool, task, jobs(), window=2)
        taken = [next(results) for _ in range(7)]
        assert len(pulled) <= 7 + 2 * 2  # an endless stream is pulled a window ahead
        results.close()
    assert taken == [0, 1, 2, -3, 4, 5, -6]
    assert 0 not in calls and 3 not in calls  # known results are not submitted


def test_closing_the_pump_cancels_the_tasks_still_waiting():
    started, release = threading.Event(), threading.Event()
    calls = []

    def task(i):
        calls.append(i)
        if i > 0:
            started.set()
            release.wait(10)
        return i

    pool = ThreadPoolExecutor(1)
    results = ordered(pool, task, ((i,) for i in range(10)), window=4)
    assert next(results) == 0
    assert started.wait(10)
    results.close()  # task 1 is running; the others in flight are cancelled
    release.set()
    pool.shutdown(wait=True)
    assert calls == [0, 1]


def _oscillation_faults(rounds: int) -> int:
    """Minor page faults of a call depth going 300 frames up and down ``rounds`` times."""
    import resource

    from tests.core.test_compiletuning import _down

    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(rounds):
        _down(300)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the frame-stack chunks are CPython 3.11's")
def test_a_pool_task_runs_with_its_frames_in_one_chunk():
    """A worker's first games may compile: its tasks run as the parent's command does, without
    a chunk mapped at every crossing of a chunk's end (mindgames.compiletuning); plain, this
    oscillation faults about 24,000 times."""
    with open_executor(2) as pool:
        faults = list(ordered(pool, _oscillation_faults, [(2000,), (2000,)], window=2))
    assert max(faults) < 2000, faults
