"""A real ``mindgames serve`` on 127.0.0.1 in a subprocess, requests to it, and the hostile load
of issue 38 (deep searches, blocking model paths, huge and deeply nested bodies, clients that
hang up) — one helper for the tests and ``benchmarks/bench_serve.py``."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from support.cli import command, environment

CHECKERS_DEEP = {"game": "checkers", "moves": [], "agent": "minimax:depth=8,eval=material"}
GREEDY = {"game": "checkers", "moves": [], "agent": "greedy:eval=material"}


class Server:
    """A running ``mindgames serve --port 0 ARGS``: its address, pid and memory."""

    def __init__(self, proc: subprocess.Popen[str], port: int) -> None:
        self.proc = proc
        self.port = port

    def post(
        self, path: str, body: Any = None, *, raw: bytes | None = None, timeout: float = 60
    ) -> tuple[int, dict[str, Any]]:
        """POST JSON (or ``raw`` bytes) to ``path``: (status, the JSON answer)."""
        data = raw if raw is not None else json.dumps(body).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", path, data, {"Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, json.loads(response.read())
        finally:
            conn.close()

    def hang_up(self, body: Any, after: float = 0.2) -> None:
        """Send a request and close the connection ``after`` seconds without reading."""
        data = json.dumps(body).encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            head = (
                f"POST /api/agent HTTP/1.0\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n"
            ).encode()
            sock.sendall(head + data)
            time.sleep(after)

    def rss(self) -> int:
        """The server process's resident memory (bytes)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


@contextmanager
def running(*args: str | Path) -> Iterator[Server]:
    """``mindgames serve --port 0 ARGS`` until the block ends (then stopped and awaited)."""
    proc = subprocess.Popen(
        command("serve", "--port", "0", *map(str, args)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("mindgames serve: http://127.0.0.1:"):
            proc.kill()
            raise AssertionError(f"serve did not start: {line!r} {proc.communicate()[1]!r}")
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        yield Server(proc, port)
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def models_dir(root: Path) -> Path:
    """A ``--models`` directory holding a FIFO named like a model (reading it would block)."""
    directory = root / "models"
    directory.mkdir()
    os.mkfifo(directory / "fifo.npz")
    return directory


def hostile(server: Server, count: int = 20) -> list[threading.Thread]:
    """Start ``count`` hostile requests in threads (each ends by itself: its answer, a refusal
    or a hang-up); the caller joins them."""
    deep_json = b'{"game": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    huge = b'{"game": "' + b"x" * (2 << 20) + b'"}'
    kinds: list[Any] = [
        lambda: server.post("/api/agent", CHECKERS_DEEP),
        lambda: server.post(
            "/api/agent", {**CHECKERS_DEEP, "agent": "alphabeta:depth=8,eval=material"}
        ),
        lambda: server.post("/api/agent", {**CHECKERS_DEEP, "agent": "greedy:eval=@fifo.npz"}),
        lambda: server.post("/api/agent", raw=deep_json),
        lambda: _ignore(lambda: server.post("/api/agent", raw=huge)),
        lambda: server.hang_up(CHECKERS_DEEP),
        lambda: server.post(
            "/api/agent", {**CHECKERS_DEEP, "agent": "alphabeta:depth=64,eval=material"}
        ),
    ]
    threads = [threading.Thread(target=kinds[i % len(kinds)], daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    return threads


def _ignore(call: Any) -> None:
    """``call()``, whose connection the server may close before reading the whole request."""
    try:
        call()
    except (ConnectionError, http.client.HTTPException, OSError):
        pass


def load_test(server: Server, count: int = 20, probes: int = 5) -> dict[str, Any]:
    """Run ``count`` hostile requests and, while they run, ``probes`` greedy replies: their
    statuses and seconds, and the server's largest memory seen (bytes). One greedy reply before
    the load warms the server up (its first reply imports and builds what the page needs)."""
    server.post("/api/agent", GREEDY)
    before = server.rss()
    threads = hostile(server, count)
    statuses, seconds, peak = [], [], before
    for _ in range(probes):
        start = time.perf_counter()
        status, _ = server.post("/api/agent", GREEDY)
        seconds.append(time.perf_counter() - start)
        statuses.append(status)
        peak = max(peak, server.rss())
        time.sleep(0.1)
    for thread in threads:
        thread.join(timeout=120)
        peak = max(peak, server.rss())
    return {
        "statuses": statuses,
        "seconds": seconds,
        "rss_before": before,
        "rss_peak": peak,
        "alive": sum(t.is_alive() for t in threads),
    }
