"""Data-set files: round trip, refusals naming both sides, truncation, merge and group splits."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.cli.main import cli
from mindgames.data.sets import (
    DataSet,
    describe,
    merge,
    read_dataset,
    split_by_group,
    write_dataset,
)
from mindgames.errors import DataSetError, SpecError
from mindgames.spec import split_specs


def sample(game: str = "kalah", labels: bool = True, n: int = 6) -> DataSet:
    return DataSet(
        game,
        [f"{i},4,4,4,4,4;0;4,4,4,4,4,4;0;S" for i in range(n)],
        [i // 2 for i in range(n)],
        list(range(n)),
        np.linspace(-1, 1, n) if labels else None,
        np.full(n, 0.5) if labels else None,
        {"generator": {"seed": 3}},
    )


def test_a_data_set_round_trips(tmp_path):
    data = sample()
    write_dataset(tmp_path / "d.npz", data)
    back = read_dataset(tmp_path / "d.npz", game="kalah", need=("label",))
    assert back.game == "kalah"
    assert back.positions.tolist() == data.positions.tolist()
    for column in ("groups", "plies", "labels", "weights"):
        np.testing.assert_array_equal(getattr(back, column), getattr(data, column))
    assert back.provenance["generator"] == {"seed": 3}
    assert "mindgames" in back.provenance
    assert back.columns == ("position", "group", "ply", "label", "weight")


def test_no_pickle_in_the_file(tmp_path):
    write_dataset(tmp_path / "d.npz", sample())
    with np.load(tmp_path / "d.npz", allow_pickle=False) as raw:
        assert {a.dtype.kind for a in (raw[k] for k in raw.files)} <= {"U", "i", "f", "u"}


def test_another_game_is_refused_naming_both(tmp_path):
    write_dataset(tmp_path / "d.npz", sample("kalah:pits=4"))
    with pytest.raises(DataSetError) as err:
        read_dataset(tmp_path / "d.npz", game="kalah", who="learner 'supervised'")
    message = str(err.value)
    assert "kalah:pits=4" in message and "'kalah'" in message and "supervised" in message
    assert "\n" not in message


def test_missing_label_column_is_refused_naming_both(tmp_path):
    write_dataset(tmp_path / "d.npz", sample(labels=False))
    with pytest.raises(DataSetError, match=r"d\.npz: the data set has no label column, which "
                       r"learner 'supervised' needs \(it has: position, group, ply\)"):  # fmt: skip
        read_dataset(tmp_path / "d.npz", need=("label",), who="learner 'supervised'")


def test_a_truncated_file_is_an_error(tmp_path):
    write_dataset(tmp_path / "d.npz", sample())
    raw = (tmp_path / "d.npz").read_bytes()
    (tmp_path / "t.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(DataSetError, match=r"t\.npz"):
        read_dataset(tmp_path / "t.npz")
    (tmp_path / "m.npz").write_bytes(b"")
    with pytest.raises(DataSetError):
        read_dataset(tmp_path / "m.npz")
    with pytest.raises(DataSetError, match="no such data set"):
        read_dataset(tmp_path / "absent.npz")


def test_labels_outside_the_unit_interval_are_refused():
    with pytest.raises(DataSetError, match=r"\[-1, 1\]"):
        DataSet("kalah", ["a"], [0], [0], np.array([1.5]))


def test_merge_keeps_groups_apart_and_refuses_another_game():
    a, b = sample(n=4), sample(n=6)
    joined = merge([("a", a), ("b", b)])
    assert len(joined) == 10
    assert set(joined.groups[:4]).isdisjoint(joined.groups[4:])
    with pytest.raises(DataSetError, match="'kalah:pits=3'.*'kalah'"):
        merge([("a", a), ("c", sample("kalah:pits=3"))])
    assert merge([("a", a), ("u", sample(labels=False))]).labels is None


def test_merge_refuses_labels_of_two_meanings():
    """Exact margins over 48 beside search values would train on a mixture of two scales."""
    a = sample(n=4)
    solved = a.with_labels(a.labels, {"kind": "solve", "scale": 48.0, "squash": "linear"})
    searched = a.with_labels(a.labels, {"kind": "search", "scale": 8.0, "squash": "tanh"})
    with pytest.raises(DataSetError, match="b: labels by search, but a's are by solve linear/48.0"):
        merge([("a", solved), ("b", searched)])
    both = merge([("a", solved), ("b", solved)])
    assert len(both.labels) == 8
    with pytest.raises(DataSetError, match="c: labels by search, but ab's are by solve"):
        merge([("ab", both), ("c", searched)])  # a merged set keeps its parts' meaning
    # labels whose provenance does not say what they are (game results) join either kind
    assert len(merge([("a", solved), ("r", sample(n=4))]).labels) == 8
    assert merge([("a", solved), ("b", searched), ("u", sample(labels=False))]).labels is None


def test_the_merge_command_names_the_files_that_cost_the_labels(tmp_path):
    for name, labels in (("a", True), ("b", True), ("u", False)):
        write_dataset(tmp_path / f"{name}.npz", sample(labels=labels))
    runner, out = CliRunner(), str(tmp_path / "m.npz")
    files = [str(tmp_path / f"{name}.npz") for name in "abu"]
    done = runner.invoke(cli, ["data", "merge", *files, "-o", out])
    assert done.exit_code == 0, done.output
    assert done.output.endswith(f"(unlabelled: {files[2]} has none, so no labels are kept)\n")
    assert read_dataset(out).labels is None
    done = runner.invoke(cli, ["data", "merge", *files[:2], "-o", out])
    assert done.output == f"12 positions from 2 files -> {out}\n"
    assert len(read_dataset(out).labels) == 12


@settings(max_examples=60)
@given(
    groups=st.lists(st.integers(0, 12), min_size=1, max_size=80),
    fraction=st.floats(0.0, 0.9),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_split_never_puts_one_game_in_both_parts(groups, fraction, seed):
    g = np.array(groups)
    train, valid = split_by_group(g, fraction, np.random.default_rng(seed))
    assert sorted([*train, *valid]) == list(range(len(g)))
    assert set(g[train]).isdisjoint(g[valid])
    assert len(train) > 0 or len(set(groups)) == 0


def test_describe_counts_and_histogram():
    info = describe(sample())
    assert info["positions"] == 6 and info["groups"] == 3
    assert sum(count for _, _, count in info["labels"]["histogram"]) == 6
    assert info["labels"]["wins"] == 3 and info["labels"]["losses"] == 3


def test_split_specs_splits_agent_lists_at_new_names():
    assert split_specs("alphabeta:depth=2,eval=material,random") == [
        "alphabeta:depth=2,eval=material",
        "random",
    ]
    assert split_specs("random,greedy:eval=material") == ["random", "greedy:eval=material"]
    with pytest.raises(SpecError):
        split_specs("random,,greedy")
