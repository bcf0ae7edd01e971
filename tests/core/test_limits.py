"""Issue 38, defects 3, 5 and 8: every count and size a user gives is checked up front in one
line naming the option; opening generation and planning end, and do work in proportion to what
exists, not to what was asked."""

from __future__ import annotations

import signal
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.play.match import match_plan
from mindgames.play.openings import STALE_TRIES, make_openings, parse_openings, random_openings
from mindgames.play.task import game_seed, game_seeds
from mindgames.registry import get_registry

from support.cli import catches, command, environment, one_line_error, run, wait_for

BIG = str(10**21)


@pytest.fixture(scope="module")
def reg():
    return get_registry()


def test_a_match_of_10_21_games_is_refused_at_once_in_one_line():
    done = run("match", "random", "greedy:eval=material", "--game", "kalah", "--games", BIG)
    one_line_error(done, "--games must be at most 1,000,000")


def test_openings_beyond_what_can_be_drawn_are_refused_naming_the_option(tmp_path):
    done = run("match", "random", "random", "--game", "kalah", "--openings",
               f"random:plies=2,count={BIG}")  # fmt: skip
    one_line_error(done, "openings: count must be at most 10,000")


def test_random_openings_for_a_match_end_when_no_new_line_comes(reg):
    """Defect 3: random_openings looped for ever past the 35 two-ply lines of Kalah; a match
    now takes the distinct lines there are (it reuses them as rounds), drawing in proportion
    to what exists, not to what was asked."""
    game = reg.game("kalah")
    plays = []

    class Counting(type(game)):  # the real Kalah, counting the plies drawn
        def children(self, state):
            plays.append(1)
            return super().children(state)

    found = random_openings(Counting(), 2, 10**20, seed=3, fewer=True)
    assert len(found) == 35 and len({o.moves for o in found}) == 35
    assert len(plays) <= 2 * (35 + STALE_TRIES * 36)


def test_a_tournaments_explicit_count_beyond_the_distinct_lines_repeats_them_as_before(reg):
    """A config's ``count`` keeps its meaning (distinct while possible, then repeats: the
    published runs' openings stay the same), bounded by MAX_OPENINGS draws x 100."""
    game = reg.game("kalah")
    openings = make_openings(game, parse_openings("random:plies=2,count=100", where=""), 0)
    assert len(openings) == 100 and len({o.moves for o in openings}) == 35


def test_planning_20000_games_makes_one_pass_over_the_seeds_not_a_seedsequence_each(
    reg, monkeypatch
):
    """Defect 3: planning 20,000 games took 10 s (a SeedSequence per game, 100 tries per
    opening); now the 35 openings are reused as rounds and the seeds made in one numpy pass."""
    made = []
    real = np.random.SeedSequence

    def counting(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(np.random, "SeedSequence", counting)
    plan = match_plan(reg, "kalah", "random", "greedy:eval=material", games=20_000, seed=0)
    assert len(plan.tasks) == 20_000 and len(plan.openings) == 35
    assert len({t.seed for t in plan.tasks}) == 20_000
    assert len(made) < 100


@settings(max_examples=30)
@given(master=st.integers(0, 2**130), start=st.integers(0, 10**6))
def test_seeds_made_together_equal_seeds_made_one_by_one(master, start):
    seeds = game_seeds(master, start + 3)
    assert seeds[start:] == [game_seed(master, i) for i in range(start, start + 3)]
    assert seeds[0] == game_seed(master, 0)


def test_a_tournament_of_too_many_games_is_refused_before_any_task_is_made(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "kalah"\nrounds = 1000000000\nopenings = "start"\n'
        '[agents]\na = "random"\nb = "random"\n'
    )
    done = run("tournament", config, "--out", tmp_path / "out")
    one_line_error(done, "games (rounds × openings × pairings × 2 colours) must be at most")
    assert not (tmp_path / "out").exists()


def test_too_many_workers_are_refused_naming_the_option(tmp_path):
    done = run("match", "random", "random", "--game", "kalah", "--workers", "100000")
    one_line_error(done, "--workers", "100000 is not in the range")


def test_a_data_set_of_10_12_positions_is_refused_up_front(tmp_path):
    done = run("data", "generate", "kalah", "--plies", "2-8", "--count", str(10**12),
               "-o", tmp_path / "d.npz")  # fmt: skip
    one_line_error(done, "--count must be at most 10,000,000")


def test_sigterm_stops_data_generate_in_one_line_writing_nothing(tmp_path):
    """Defect 8: SIGTERM ended ``data generate`` with "Terminated", exit 143."""
    out = tmp_path / "d.npz"
    args = ("data", "generate", "checkers", "--plies", "10-60", "--count", "5000000")
    proc = subprocess.Popen(
        command(*args, "-o", str(out)),
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    # signalled once it handles SIGTERM (a fixed sleep lost the race on a loaded machine)
    wait_for(lambda: catches(proc.pid, signal.SIGTERM), proc, seconds=120)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["mindgames: error: interrupted by SIGTERM"], err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_a_billion_hidden_units_are_one_line_not_a_memory_error(tmp_path):
    """Defect 5: ``hidden = [1000000000]`` in a train config was an _ArrayMemoryError."""
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "checkers"\nseed = 1\n[learner]\nname = "td"\ngames = 2\n'
        '[eval]\nmodel = "mlp"\nencoding = "raw32"\nhidden = [1000000000]\n'
    )
    done = run("train", config, "--out", tmp_path / "run")
    one_line_error(done, "hidden [1000000000]: weights must be at most 50,000,000")
    assert not (tmp_path / "run" / "config.json").exists()


def test_a_model_file_with_an_extra_array_is_refused_before_it_is_read_whole(reg, tmp_path):
    """Defect 8: a model file with an extra 50-million-element array loaded whole, silently."""
    from mindgames.agent import build_evaluator
    from mindgames.errors import ModelFileError
    from mindgames.files import read_npz, write_npz
    from mindgames.modelfile import read_model_file, save_evaluator

    game = reg.game("kalah")
    path = tmp_path / "m.npz"
    linear = build_evaluator(reg, game, {"model": "linear", "encoding": "kalah14"})
    save_evaluator(path, game, linear)
    meta, arrays = read_npz(path, "model file")
    write_npz(tmp_path / "extra.npz", meta, {**arrays, "m/extra": np.zeros(3)}, ModelFileError)
    with pytest.raises(ModelFileError, match="arrays its record does not list"):
        read_model_file(tmp_path / "extra.npz")
    huge = {**arrays, "m/extra": np.zeros(50_000_001, dtype=np.int8)}
    write_npz(tmp_path / "huge.npz", meta, huge, ModelFileError)
    with pytest.raises(ModelFileError, match="more than a model file may"):
        read_model_file(tmp_path / "huge.npz")
