"""The shared checkpoint helper: what a checkpoint holds, how it resumes, what it refuses (each
in one line naming the file), and the one rule for options added after a file was written."""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np
import pytest

from mindgames import checkpoint
from mindgames.errors import ConfigError, MindgamesError
from mindgames.files import read_npz, write_npz
from mindgames.learner import Learner


@attrs.frozen
class Inner:
    steps: int = 3


@attrs.frozen
class Toy(Learner):
    """A learner with options (it never trains: only its checkpoints matter here)."""

    name: ClassVar[str] = "toy"
    rate: float = 0.5
    sizes: list[int] = attrs.Factory(lambda: [2, 3])
    inner: Inner = attrs.Factory(Inner)

    def train(self, game, evaluator, rng, *, workdir, resume=False, progress=None):
        raise NotImplementedError


def _save(path, learner=None, rng=None, **counters):
    checkpoint.save(path, learner or Toy(), counters=counters or {"games": 4},
                    history=[{"games": 4, "loss": 0.25}], arrays={"w": np.arange(3.0)},
                    rng=rng)  # fmt: skip


def test_a_checkpoint_gives_back_counters_history_arrays_and_the_random_state(tmp_path):
    path = tmp_path / checkpoint.CHECKPOINT
    rng = np.random.default_rng(5)
    rng.random(3)
    _save(path, rng=rng, games=4, elapsed=1.5)
    expected = rng.random(4)
    other = np.random.default_rng(99)
    saved = checkpoint.load(path, Toy(), rng=other)
    assert saved.counters == {"games": 4, "elapsed": 1.5}
    assert saved.history == [{"games": 4, "loss": 0.25}]
    np.testing.assert_array_equal(saved.arrays["w"], np.arange(3.0))
    np.testing.assert_array_equal(other.random(4), expected)
    assert [p.name for p in tmp_path.iterdir()] == [checkpoint.CHECKPOINT]  # no temporary left


def test_the_record_keeps_the_layout_every_learner_wrote_before(tmp_path):
    path = tmp_path / "c.npz"
    _save(path, rng=np.random.default_rng(1), games=4)
    meta, arrays = read_npz(path, "checkpoint")
    assert list(meta) == ["format", "version", "options", "rng", "history", "games"]
    assert meta["format"] == "mindgames-toy-checkpoint" and meta["version"] == 1
    assert meta["options"] == {"rate": 0.5, "sizes": [2, 3], "inner": {"steps": 3}}
    assert list(arrays) == ["w"]


def test_only_a_resume_with_a_checkpoint_resumes(tmp_path):
    assert checkpoint.resumable(tmp_path, resume=True) is None
    _save(checkpoint.path_in(tmp_path))
    assert checkpoint.resumable(tmp_path, resume=False) is None
    assert checkpoint.resumable(tmp_path, resume=True) == tmp_path / "checkpoint.npz"


def test_other_options_are_refused_in_one_line(tmp_path):
    path = tmp_path / "c.npz"
    _save(path)
    for other in (Toy(rate=0.25), Toy(sizes=[2]), Toy(inner=Inner(4))):
        with pytest.raises(ConfigError) as refused:
            checkpoint.load(path, other)
        assert str(refused.value) == f"{path}: written with other toy options; cannot resume"


def test_an_option_added_after_the_file_was_written_counts_as_its_default(tmp_path):
    path = tmp_path / "c.npz"
    _save(path)
    meta, arrays = read_npz(path, "checkpoint")
    del meta["options"]["sizes"], meta["options"]["inner"]["steps"]  # as if added since
    write_npz(path, meta, arrays)
    assert checkpoint.load(path, Toy()).counters == {"games": 4}
    for not_default in (Toy(sizes=[1]), Toy(inner=Inner(5))):
        with pytest.raises(ConfigError, match="other toy options"):
            checkpoint.load(path, not_default)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "mindgames-td-checkpoint"}, "not a toy checkpoint of version 1"),
        ({"version": "1"}, "not a toy checkpoint of version 1"),
        ({"version": 2}, "a toy checkpoint of version 2, newer than this mindgames reads"),
    ],
)
def test_another_learners_file_or_a_newer_version_is_refused(tmp_path, change, message):
    path = tmp_path / "c.npz"
    _save(path)
    meta, arrays = read_npz(path, "checkpoint")
    write_npz(path, meta | change, arrays)
    with pytest.raises(MindgamesError, match=message):
        checkpoint.load(path, Toy())


def test_a_file_that_is_no_checkpoint_is_one_line(tmp_path):
    path = tmp_path / "c.npz"
    path.write_text("not a zip", encoding="utf-8")
    with pytest.raises(MindgamesError, match=r"c.npz: not a readable toy checkpoint"):
        checkpoint.load(path, Toy())


def test_counters_may_not_take_the_helpers_names(tmp_path):
    with pytest.raises(ValueError, match="may not be named history"):
        _save(tmp_path / "c.npz", history=[])
