"""Model files: exact round trips, and a clear ModelFileError for every kind of bad file."""

import contextlib
import json
import resource
import zipfile

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.errors import FileError, ModelFileError
from mindgames.modelfile import load_evaluator, read_model_file, save_evaluator


@pytest.fixture
def saved(registry, tmp_path):
    game = registry.game("tictactoe")
    evaluator = build_evaluator(registry, game, {"model": "tiny", "encoding": "cells", "seed": 7})
    path = tmp_path / "m.npz"
    save_evaluator(path, game, evaluator, {"learner": "test", "seed": 7})
    return game, evaluator, path


def test_round_trip_is_exact(registry, saved):
    game, evaluator, path = saved
    game2, loaded, meta = load_evaluator(path, registry)
    assert game2 == game
    assert np.array_equal(loaded.model.get_params(), evaluator.model.get_params())
    assert loaded.encoding.name == "cells"
    assert meta["provenance"]["seed"] == 7 and "mindgames" in meta["provenance"]
    state = game.play(game.initial_state(), 4)
    assert loaded.evaluate(state) == evaluator.evaluate(state)


def test_no_pickle_inside(saved):
    _, _, path = saved
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype != object for name in data.files)


def test_truncated_file(registry, saved):
    _, _, path = saved
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match="m.npz: not a readable model file"):
        load_evaluator(path, registry)


def test_garbage_file(registry, tmp_path):
    path = tmp_path / "g.npz"
    path.write_bytes(b"\x00garbage" * 100)
    with pytest.raises(ModelFileError, match="g.npz"):
        load_evaluator(path, registry)


def test_missing_file(registry, tmp_path):
    with pytest.raises(ModelFileError, match="no such model file"):
        load_evaluator(tmp_path / "none.npz", registry)


def _rewrite_meta(path, change):
    with np.load(path, allow_pickle=False) as data:
        contents = {k: data[k] for k in data.files}
    meta = json.loads(contents["__meta__"].tobytes())
    change(meta)
    contents["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez(path, **contents)


def test_newer_version_is_refused(registry, saved):
    _, _, path = saved
    _rewrite_meta(path, lambda m: m.update(version=99))
    with pytest.raises(ModelFileError, match="version 99 is newer"):
        load_evaluator(path, registry)


def test_other_game_is_refused(registry, saved):
    game, _, path = saved
    _rewrite_meta(path, lambda m: m["game"].update(name="othergame"))
    with pytest.raises(ModelFileError, match="written for game 'othergame'"):
        load_evaluator(path, registry, game)


def test_wrong_shape_is_refused(registry, saved):
    _, _, path = saved
    _rewrite_meta(path, lambda m: m["model"]["shapes"].update(w=[4]))
    with pytest.raises(ModelFileError, match="wrong shape"):
        read_model_file(path)


def test_corrupt_metadata(registry, saved):
    _, _, path = saved
    with np.load(path, allow_pickle=False) as data:
        contents = {k: data[k] for k in data.files}
    contents["__meta__"] = np.frombuffer(b"{not json", dtype=np.uint8)
    np.savez(path, **contents)
    with pytest.raises(ModelFileError, match="corrupt metadata"):
        load_evaluator(path, registry)


@contextlib.contextmanager
def file_size_limit(size: int):
    """``ulimit -f`` in this process: a write past ``size`` bytes fails as on a full disk
    (Python ignores SIGXFSZ, so the write raises ``OSError`` EFBIG)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_failed_write_leaves_old_file(registry, saved):
    game, evaluator, path = saved
    before = path.read_bytes()
    with file_size_limit(len(before) // 2), pytest.raises(FileError) as failed:
        save_evaluator(path, game, evaluator)
    assert str(failed.value) == f"{path}: cannot write: File too large"
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["m.npz"]
    assert zipfile.is_zipfile(path)
