"""How much work one ``serve`` request may cause: the server's budgets, the bounded pool of search
threads, and the guard that stops a search that outruns them or whose client went away.

A request's agent spec is bounded before it is built (``bounded_options``): a ``depth`` above
the server's cap is refused, and a searcher that takes ``nodes`` and ``time`` options gets them
no larger than the server's budgets, so it ends with its best move so far. Whatever the searcher,
it sees the game through ``GuardedGame``, which counts the positions expanded and watches the
clock and a cancel event: past twice the node budget, past the time budget plus a grace, or once
the client has gone, the search is stopped with ``SearchStopped``. Searches run in a pool of
``threads`` threads; a request that finds every thread busy gets 503 at once instead of queueing.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

import attrs

from mindgames.web.errors import RequestError

if TYPE_CHECKING:
    from mindgames.game import Game, State

T = TypeVar("T")

#: seconds past the time budget before a search that ignores its budget is stopped
GRACE = 1.0
#: expansions a search may make in the request's own thread (the root: greedy, random, depth 1)
LIGHT = 1
#: how often (seconds) a waiting request looks at its client and the clock
POLL = 0.05


@attrs.frozen
class Limits:
    """The server's bounds on one request (``serve --max-nodes`` and friends)."""

    nodes: int = 100_000  # expanded positions a search may use (the searcher's ``nodes``)
    seconds: float = 5.0  # seconds a search may use (the searcher's ``time``)
    depth: int = 8  # the deepest ``depth`` a request may ask for
    threads: int = 2  # searches running at once; one more is refused with 503
    build_seconds: float = 10.0  # seconds to build an agent (read its model file)


class SearchStopped(RequestError):
    """A search stopped by the server: over its budget (503) or its client gone."""


class OverBudget(SearchStopped):
    """A search that expanded more positions than its guard allows."""


def bounded_options(searcher: type, options: Mapping[str, Any], limits: Limits) -> dict[str, Any]:
    """A request's searcher options within ``limits``: ``depth`` above the cap is refused; a
    searcher with ``nodes`` and ``time`` options gets them at most the budgets (and, when the
    request gives no depth, the depth cap: it deepens until a budget ends it)."""
    fields = {f.name for f in attrs.fields(searcher)} if attrs.has(searcher) else set()
    out = dict(options)
    depth = out.get("depth")
    if isinstance(depth, int) and not isinstance(depth, bool) and depth > limits.depth:
        raise RequestError(
            f"depth={depth} is deeper than this server allows (at most {limits.depth}; "
            "serve --max-depth)"
        )
    if {"nodes", "time"} <= fields:
        nodes, seconds = out.get("nodes"), out.get("time")
        if "depth" in fields and depth is None:
            out["depth"] = limits.depth
        out["nodes"] = min(nodes, limits.nodes) if _number(nodes) else limits.nodes
        out["time"] = min(seconds, limits.seconds) if _number(seconds) else limits.seconds
    return out


def _number(value: Any) -> TypeGuard[float]:
    """Whether ``value`` is a number a budget option takes (else the searcher refuses it)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


class GuardedGame:
    """``game`` as a searcher sees it in ``serve``: every expansion (``children``,
    ``legal_moves``) is counted, and past ``nodes`` expansions or ``deadline`` (a monotonic
    time), or once ``cancel`` is set, the search is stopped with ``SearchStopped``. Everything
    else is the game's own, but its kernels only when ``compiled``: a compiled search expands
    its tree inside a kernel, unseen by the count, so the request thread's trial (``LIGHT``
    expansions) must search on the Python path to find out whether a search is light."""

    def __init__(
        self,
        game: Game,
        nodes: int,
        deadline: float,
        cancel: threading.Event,
        compiled: bool = True,
    ) -> None:
        self._game = game
        self._nodes = nodes
        self._deadline = deadline
        self._cancel = cancel
        self._count = 0
        self._compiled = compiled

    def __getattr__(self, name: str) -> Any:
        if name == "kernels" and not self._compiled:
            raise AttributeError(name)
        return getattr(self._game, name)

    def _tick(self) -> None:
        self._count += 1
        if (self._count & 31) == 0 or self._count > self._nodes:
            time.sleep(0)  # lets the page's requests in: searches yield the GIL often
            if self._cancel.is_set():
                raise SearchStopped("the search was stopped: its client went away", 503)
            if self._count > self._nodes:
                raise OverBudget(
                    "the search went over this server's node budget; ask for less (a smaller "
                    "depth, or nodes=)",
                    503,
                )
            if time.monotonic() > self._deadline:
                raise SearchStopped(
                    "the search went over this server's time budget; ask for less (a smaller "
                    "depth, or time=)",
                    503,
                )

    def children(self, state: State) -> Any:
        self._tick()
        return self._game.children(state)

    def legal_moves(self, state: State) -> Any:
        self._tick()
        return self._game.legal_moves(state)


class SearchPool:
    """At most ``threads`` jobs (searches, or agents being built) at once, each watched while
    its request waits."""

    def __init__(self, threads: int, kind: str) -> None:
        self.threads = threads
        self.kind = kind
        self._slots = threading.BoundedSemaphore(threads)
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix=f"mindgames-{kind}")

    def run(
        self,
        work: Callable[[threading.Event], T],
        *,
        seconds: float,
        client: socket.socket | None = None,
    ) -> T:
        """``work(cancel)`` in a pool thread, waited for at most ``seconds``: 503 at once when
        every thread is busy, 503 past ``seconds`` (``cancel`` is set, so a guarded search ends),
        and ``cancel`` set as soon as ``client`` hangs up."""
        if not self._slots.acquire(blocking=False):
            raise RequestError(
                f"the server is busy: {self.threads} threads ({self.kind}) are working; try again",
                503,
            )
        cancel = threading.Event()

        def task() -> T:
            try:
                return work(cancel)
            finally:
                self._slots.release()

        try:
            future: Future[T] = self._executor.submit(task)
        except RuntimeError:  # the pool was shut down
            self._slots.release()
            raise RequestError("the server is stopping", 503) from None
        deadline = time.monotonic() + seconds
        while True:
            try:
                return future.result(timeout=POLL)
            except FutureTimeout:
                pass
            if client is not None and hung_up(client):
                cancel.set()
                raise SearchStopped("the client went away", 503)
            if time.monotonic() > deadline:
                cancel.set()
                raise SearchStopped(
                    f"the agent took longer than this server allows ({seconds:g} s)", 503
                )

    def close(self) -> None:
        """Stop taking searches (running ones end by their budgets)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


def hung_up(client: socket.socket) -> bool:
    """Whether the other end of ``client`` has closed (the request body was read whole, so a
    readable socket with nothing to read is a hang-up)."""
    try:
        readable, _, _ = select.select([client], [], [], 0)
        if not readable:
            return False
        return client.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):
        return True
