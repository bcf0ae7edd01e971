"""The learners that play or label on executors give on a real Dask cluster what they give in one
process: the same history and the same model, bit for bit. One LocalCluster (two worker
processes) serves every test through its tcp:// address, the way a user's cluster is reached."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.modelfile import read_model_file
from mindgames.training import read_history, run
from tests.support.history import untimed

GAME = "kalah:pits=3,seeds=3"
#: the learners with ``workers`` and ``scheduler`` options, at a tiny scale
LEARNERS = {
    "coevolution": (
        '{ model = "mlp", encoding = "kalah14", hidden = [3] }',
        '{ name = "coevolution", generations = 2, parents = 3, games = 2, paired = true, '
        'openings = "random:plies=2,count=10", search = "alphabeta:depth=2" }',
    ),
    "hg": (
        '{ model = "linear", encoding = "kalah14" }',
        '{ name = "hg", generations = 2, population = 10, phases = 2, plies = [6, 7], '
        "step_plies = 2, boards = 20 }",
    ),
    "shg": (
        '{ model = "linear", encoding = "kalah14" }',
        '{ name = "shg", generations = 2, population = 6, search = "alphabeta:depth=1" }',
    ),
    "layered": (
        '{ model = "linear", encoding = "kalah14" }',
        '{ name = "layered", stages = 2, width = 3, positions = 20, test_positions = 10, '
        "generations = 2 }",
    ),
}


def _train(folder, learner, executor):
    model, options = LEARNERS[learner]
    options = options.replace(" }", f", {executor} }}")
    config = folder / f"{learner}.toml"
    config.write_text(
        f'game = "{GAME}"\nseed = 3\neval = {model}\nlearner = {options}\n', encoding="utf-8"
    )
    trained = run(config, out=folder / "run")
    return untimed(read_history(trained.directory)), read_model_file(trained.model_path)[1]


@pytest.mark.slow
@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_a_learner_gives_the_same_run_on_a_dask_cluster(learner, dask_cluster, tmp_path):
    (tmp_path / "serial").mkdir()
    (tmp_path / "dask").mkdir()
    serial_rows, serial_model = _train(tmp_path / "serial", learner, "workers = 1")
    dask_rows, dask_model = _train(
        tmp_path / "dask", learner, f'workers = 2, scheduler = "{dask_cluster}"'
    )
    assert serial_rows and dask_rows == serial_rows
    assert sorted(dask_model) == sorted(serial_model)
    for name, array in serial_model.items():
        assert np.array_equal(dask_model[name], array), name
