"""Executors for pure tasks: in-process, a local process pool, or a Dask distributed cluster.

``open_executor(workers, scheduler)`` is a context manager giving a
``concurrent.futures.Executor``:

* ``workers <= 1`` and no scheduler: ``SerialExecutor``, which runs each task at submit time
  (in this process, so test-only plugins in a given registry work);
* ``workers > 1``: a ``ProcessPoolExecutor`` on the ``spawn`` start method -- workers start
  clean (no forked threads or locks) and load plugins through their entry points;
* ``scheduler="local"``: a Dask ``LocalCluster`` of ``workers`` single-threaded processes;
  ``scheduler="tcp://host:port"``: an existing Dask scheduler. Dask is imported only here. An
  address that refuses the connection is refused at once (Dask would retry it for 10 s).

Pool workers die with their parent: each ignores SIGINT (the parent handles Ctrl-C and stops
them) and watches its parent from a thread, exiting when the parent is gone (even after
``kill -9``), so no orphaned worker keeps running. When the parent stops on an error or a
signal, queued games are cancelled and the workers are terminated instead of awaited.

Worker processes get ``OPENBLAS_NUM_THREADS=OMP_NUM_THREADS=MKL_NUM_THREADS=1`` (set in this
process's environment before they start, which they inherit), so workers do not oversubscribe
the cores with BLAS threads.

``ordered(executor, fn, jobs, window=)`` is the one pump every consumer of pure tasks uses
(tournaments, matches, curves, labelling, solving, quality, the learners' games): it keeps at
most ``window`` tasks in flight, yields their results in the order of ``jobs`` whatever order
they finish in, and cancels what is still in flight when it is closed or interrupted.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any, Generic, TypeVar

import attrs

from mindgames.compiletuning import call_in_one_chunk, tune
from mindgames.errors import MindgamesError
from mindgames.limits import at_most, max_workers

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

R = TypeVar("R")


class SerialExecutor(Executor):
    """Runs each task when it is submitted, in this process; exceptions go into the future."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, like other executors
            future.set_exception(exc)
        return future


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


#: how often a pool worker checks that its parent is still alive (seconds)
PARENT_CHECK = 0.25


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)  # the parent died: nobody will read our results


def _start_worker(parent: int) -> None:
    """Pool initializer: leave Ctrl-C to the parent and die with it; the collector and allocator
    set for compiling as the parent's (mindgames.compiletuning)."""
    tune()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _in_one_chunk(fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` in a worker (a pool's or Dask's), its frames in one frame-stack chunk
    (mindgames.compiletuning): 13 us a task, against a sixth of a cold compile."""
    return call_in_one_chunk(lambda: fn(*args))


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Terminate the workers without waiting for running games; queued ones fail as broken."""
    # the executor keeps its worker processes in a private table; there is no public way
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # ``shutdown`` forgets it
    # Python 3.11's pool fails every pending future as broken once a worker is terminated, and
    # its manager thread dies with InvalidStateError on one the caller had cancelled. Each
    # cancelled item gets a fresh stand-in future instead (removing the item raced with the
    # manager thread's own removal: KeyError); the caller's future stays cancelled
    pool.shutdown(wait=False)
    pending = getattr(pool, "_pending_work_items", None) or {}
    for item in list(pending.values()):
        if item.future.cancelled():
            item.future = Future()
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=2)
    # the manager thread closes its wake-up pipe as it ends; at interpreter exit Python 3.11
    # writes to that pipe without a lock, so a thread still ending then printed "Bad file
    # descriptor" under the one-line error (a flaky CLI test). Let it end first
    if manager is not None:
        manager.join(timeout=5)


def _single_threaded_workers() -> None:
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


@contextlib.contextmanager
def open_executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[Executor]:
    """The executor for ``workers`` and ``scheduler`` (see the module docstring)."""
    n = default_workers() if workers is None else workers
    if n < 1:
        raise MindgamesError(f"workers must be at least 1, got {n}")
    at_most("workers", n, max_workers(), "eight per core of this machine, at least 64")
    if scheduler:
        with _dask_executor(n, scheduler) as executor:
            yield executor
        return
    if n == 1:
        yield SerialExecutor()
        return
    _single_threaded_workers()
    pool = ProcessPoolExecutor(
        max_workers=n,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


def _refuse_refused(scheduler: str) -> None:
    """One clear error at once when a ``tcp://host:port`` scheduler refuses the connection (no
    process listens there); anything else, a timeout or a name that does not resolve, is left
    to Dask's own connect and its timeout."""
    host, sep, port = scheduler.removeprefix("tcp://").rpartition(":")
    if not scheduler.startswith("tcp://") or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=2).close()
    except ConnectionRefusedError as exc:
        raise _cannot_connect(scheduler, exc) from None
    except OSError:
        return


def _cannot_connect(scheduler: str, exc: OSError) -> MindgamesError:
    """The one-line error for a scheduler that could not be reached, whichever check found it."""
    return MindgamesError(f"scheduler {scheduler}: cannot connect: {exc}")


@contextlib.contextmanager
def _dask_executor(workers: int, scheduler: str) -> Iterator[Executor]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise MindgamesError(
            "scheduler: Dask distributed is not installed: pip install 'mindgames[dask]'"
        ) from None
    _single_threaded_workers()
    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        )
        client = Client(cluster)
    else:
        if not scheduler.startswith(("tcp://", "tls://", "ucx://", "inproc://")):
            raise MindgamesError(
                f"scheduler {scheduler!r}: expected 'local' or an address like tcp://host:8786"
            )
        cluster = None
        _refuse_refused(scheduler)
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise _cannot_connect(scheduler, exc) from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@attrs.frozen
class Done(Generic[R]):
    """A job whose result is already known (a resumed run's): ``ordered`` yields it in its place
    without submitting anything."""

    value: R


def ordered(
    executor: Executor,
    fn: Callable[..., R],
    jobs: Iterable[tuple[Any, ...] | Done[R]],
    *,
    window: int | None = None,
    local: tuple[Any, ...] = (),
) -> Generator[R, None, None]:
    """``fn(*job)`` for each job, run on ``executor``, yielded in the order of ``jobs``.

    At most ``window`` tasks are in flight (None: every job at once), and at most ``window``
    more finished ones wait for an earlier one, so ``jobs`` may be endless (a consumer stops by
    closing the iterator). A ``SerialExecutor`` runs one task at a time (each result reaches the
    consumer before the next task starts, so a killed run loses nothing) with ``local`` added
    to each job's arguments (objects of this process, such as a test's registry, that other
    executors cannot ship). Closing the iterator, an error or a signal cancels the tasks still
    in flight; on an error or a signal the owner of the executor also stops its workers
    (``open_executor``)."""
    serial = isinstance(executor, SerialExecutor)
    extra = local if serial else ()
    # a worker's first tasks may compile: their frames in one chunk, as the parent's are
    task = (fn,) if serial else (_in_one_chunk, fn)
    limit = 1 if serial else window
    todo = iter(jobs)
    inflight: dict[Future[R], int] = {}
    ready: dict[int, R] = {}  # finished results not yet yielded, by job number
    pulled = cursor = 0
    more = True
    try:
        while True:
            while more and (
                limit is None or (len(inflight) < limit and len(inflight) + len(ready) < 2 * limit)
            ):
                job = next(todo, None)
                if job is None:
                    more = False
                elif isinstance(job, Done):
                    ready[pulled] = job.value
                    pulled += 1
                else:
                    inflight[executor.submit(*task, *job, *extra)] = pulled
                    pulled += 1
            if cursor not in ready:
                if not inflight:
                    return
                finished, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                for future in finished:
                    ready[inflight.pop(future)] = future.result()
            while cursor in ready:
                yield ready.pop(cursor)
                cursor += 1
    finally:
        for future in inflight:
            future.cancel()
