"""The process settings for numba's compiler (mindgames.compiletuning)."""

from __future__ import annotations

import gc
import platform
import resource
import sys
from collections.abc import Iterator

import pytest

from mindgames.compiletuning import GC_THRESHOLD, call_in_one_chunk, run_tuned


@pytest.fixture
def thresholds() -> Iterator[None]:
    """The collector's thresholds restored after the test."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_run_tuned_returns_the_value_and_sets_the_collector(thresholds: None) -> None:
    assert run_tuned(lambda: "done") == "done"
    assert gc.get_threshold() == GC_THRESHOLD


def test_an_exception_goes_through() -> None:
    def fail() -> None:
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"):
        call_in_one_chunk(fail)


def _down(depth: int) -> int:
    """A call chain ``depth`` frames deep (each frame some locals, as a compiler's are)."""
    a, b, c, d, e, f, g, h = range(8)
    return 0 if depth == 0 else 1 + _down(depth - 1) + (a + b + c + d + e + f + g + h) * 0


def _faults_of_oscillation() -> int:
    """Minor page faults of a call depth going 300 frames up and down 2,000 times."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(2000):
        assert _down(300) == 300
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(
    platform.python_implementation() != "CPython" or sys.version_info < (3, 11),
    reason="the frame-stack chunks are CPython 3.11's",
)
def test_frames_in_one_chunk_stop_mapping_a_chunk_at_every_crossing() -> None:
    """300 frames outgrow a 16 KB chunk: plain, every descent maps a chunk and faults its pages
    in (and the return unmaps it); in one chunk they fit, and the pages stay."""
    _faults_of_oscillation()  # the test's own first-time costs
    plain = _faults_of_oscillation()
    inside = call_in_one_chunk(_faults_of_oscillation)
    assert inside <= max(50, plain // 4), (plain, inside)
