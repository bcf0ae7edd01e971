"""Process settings under which numba's compiler runs cheaper (issue 33: the cold compile).

numba's compiler is Python: a cold compile of every built-in kernel calls millions of Python
functions and makes millions of objects. Three settings of the interpreter, measured on that
compile (benchmarks/README.md, "Issue 33, stop 50"):

* **One frame-stack chunk.** CPython 3.11+ keeps Python frames in chunks of a per-thread stack:
  a call that does not fit in the current chunk maps a new one (16 KB), and the return from the
  call that opened it unmaps it. The compiler's call depth goes up and down across chunk ends
  all the time: 1.2 million page faults and 6 CPU s of the 70. ``call_in_one_chunk(fn)`` calls
  ``fn`` from a frame whose code asks for a large value stack (``co_stacksize``), so the
  interpreter opens one chunk big enough for it and every frame below fits in its unused part.
  The chunk is virtual memory: only the pages the frames touch are faulted in.
* **Fewer collections.** The garbage collector's first generation is collected every 20,000
  allocations instead of 700 (the compiler's objects mostly live to the end of a compile).
* **Freed memory kept.** glibc returns freed memory at the top of the heap and frees large
  blocks to the system at once; LLVM's tables grow and shrink, and each new block is faulted in
  again. ``mallopt`` keeps up to ``KEEP`` bytes before trimming and serves blocks under it from
  the heap (glibc only; elsewhere nothing is changed).

``run_tuned(fn)`` applies all three around ``fn()``: the ``mindgames`` command and the warm-up
run under it; a process-pool worker is tuned when it starts, and a worker (a pool's or Dask's)
runs each task in one chunk (``executors.ordered``: 13 us a task). On another interpreter or
Python 3.10 the chunk is an ordinary call.
"""

from __future__ import annotations

import ctypes
import gc
import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: value-stack slots (8 bytes each) of the opening frame: its chunk is 8 MB (the next power of
#: two of 16 KB above 4 MB), about 4 MB of it left for the frames below (a compile's deepest
#: Python stack uses a few hundred KB)
SLOTS = 1 << 19
#: the collector's thresholds per generation (Python's default: 700, 10, 10)
GC_THRESHOLD = (20_000, 20, 20)
#: bytes of freed memory glibc keeps before trimming, and below which it allocates from the heap
KEEP = 64 << 20
#: glibc's ``mallopt`` parameters
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


def _opening_frame(fn: Callable[[], T]) -> T:
    return fn()


_opening_frame.__code__ = _opening_frame.__code__.replace(co_stacksize=SLOTS)


def call_in_one_chunk(fn: Callable[[], T]) -> T:
    """``fn()`` with its Python frames, and those of all it calls, in one frame-stack chunk."""
    return _opening_frame(fn)


def _keep_freed_memory() -> None:
    """glibc: keep up to ``KEEP`` bytes of freed memory, and serve blocks under it from the heap."""
    try:
        libc_version = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (AttributeError, ValueError, OSError):  # not a POSIX system, or no such name here
        return
    if not libc_version.startswith("glibc"):
        return
    libc = ctypes.CDLL(None)  # the process's own symbols: glibc's among them
    libc.mallopt(M_TRIM_THRESHOLD, KEEP)
    libc.mallopt(M_MMAP_THRESHOLD, KEEP)


def tune() -> None:
    """This process's collector and allocator settings for compiling (module docstring)."""
    gc.set_threshold(*GC_THRESHOLD)
    _keep_freed_memory()


def run_tuned(fn: Callable[[], T]) -> T:
    """``fn()`` in a tuned process, its frames in one chunk (module docstring)."""
    tune()
    return call_in_one_chunk(fn)
