"""Stage schedules by plies (Layered Learning, HG): windows, disjoint stages, reach, bounds."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.errors import ConfigError
from mindgames.plugins.learners import stages


def test_disjoint_stages_start_at_the_end_and_cover_every_ply_once():
    schedule = stages.disjoint(4, 10)
    assert [(s.order, s.lo, s.hi) for s in schedule] == [
        (1, 30, 39), (2, 20, 29), (3, 10, 19), (4, 0, 9)
    ]  # fmt: skip
    covered = sorted(p for s in schedule for p in range(s.lo, s.hi + 1))
    assert covered == list(range(40))


def test_hg_windows_move_six_plies_nearer_the_root_and_stop_at_ply_zero():
    schedule = stages.windows(81, 87, 6, 15)
    assert (schedule[0].lo, schedule[0].hi) == (81, 87)
    assert (schedule[1].lo, schedule[1].hi) == (75, 81)
    assert (schedule[-1].lo, schedule[-1].hi) == (0, 3)
    with pytest.raises(ConfigError, match="pass ply 0"):
        stages.windows(81, 87, 6, 16)


def test_reach_is_the_depth_whose_leaves_lie_past_the_stage():
    stage = stages.disjoint(3, 6)[1]  # plies 6-11
    assert [stage.reach(p) for p in range(6, 12)] == [6, 5, 4, 3, 2, 1]
    assert stage.reach(20) == 1


def test_bounds_are_the_staged_evaluators_member_boundaries():
    assert stages.bounds(stages.disjoint(4, 10)) == [10, 20, 30]
    assert stages.bounds(stages.disjoint(1, 10)) == []


@given(st.integers(1, 20), st.integers(1, 12))
def test_disjoint_stages_are_ascending_windows_of_width_plies(count, width):
    schedule = stages.disjoint(count, width)
    assert len(schedule) == count
    assert all(s.hi - s.lo + 1 == width for s in schedule)
    assert all(a.lo == b.hi + 1 for a, b in pairwise(schedule))


def test_a_bad_schedule_is_one_config_error():
    with pytest.raises(ConfigError):
        stages.disjoint(0, 10)
    with pytest.raises(ConfigError):
        stages.windows(5, 3, 1, 1)
