"""Co-evolution's and SHG's games in compiled chunks (core/play/gamebatch.py: a whole game in one
call of alphabeta_kernel.play) against the Python path, their oracle: the shortened examples train
to the same history and the same model file, and the compiled work items give on a process pool and
on a real Dask cluster exactly the outcomes of one process. Labelling by search: a chunk's searches
in one call (alphabeta_kernel.values) give the labels of the searches one by one (the same bits with
material or the null evaluator; within 1e-12 with a net, whose compiled products sum in another
order than numpy's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindgames.agent import build_evaluator
from mindgames.data.labelling import Labeller, label_chunk
from mindgames.data.playouts import generate
from mindgames.executors import open_executor
from mindgames.modelfile import read_model_file
from mindgames.play import gamebatch
from mindgames.play.openings import make_openings, parse_openings
from mindgames.play.task import game_between, game_seed
from mindgames.plugins.learners.hg.comparison import side
from mindgames.plugins.searchers import alphabeta
from mindgames.registry import get_registry
from mindgames.training import run

from support.examples import shrunk
from support.history import untimed

#: examples whose games the compiled path plays, shortened: (config, learner options replaced)
CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "checkers-coevolution.toml",  # games cut at 50 plies: the Python side is the cost
        {"generations": 2, "parents": 3, "games": 2, "max_plies": 50, "workers": 1},
    ),
    (
        "checkers-coevolution-published.toml",  # depth 4: short games keep the Python side quick
        {"generations": 1, "parents": 2, "games": 1, "max_plies": 16, "workers": 1},
    ),
    ("kalah-coevolution.toml", {"generations": 2, "workers": 1}),
    ("giveaway-shg.toml", {"population": 4, "generations": 2, "workers": 1}),
]


def _train(name: str, options: dict[str, Any], out: Path) -> tuple[dict, list[dict]]:
    config, _ = shrunk(name, out.parent, **options)
    done = run(config, out=out)
    return read_model_file(done.model_path)[1], untimed(list(done.result.history))


def _paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the path of every game played through ``gamebatch`` from now on."""
    seen: list[str] = []
    played = gamebatch.play_chunk

    def counted(*args: Any, **kwargs: Any) -> Any:
        out = played(*args, **kwargs)
        seen.extend(o["path"] for o in out)
        return out

    monkeypatch.setattr(gamebatch, "play_chunk", counted)
    return seen


@pytest.mark.parametrize("name, options", CASES, ids=[c[0] for c in CASES])
def test_an_example_evolves_compiled_to_the_python_paths_model(
    name, options, tmp_path, monkeypatch
):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")
    (tmp_path / "python").mkdir()
    oracle, oracle_rows = _train(name, options, tmp_path / "python" / "run")
    monkeypatch.delenv("MINDGAMES_PYTHON_PATH")
    paths = _paths(monkeypatch)
    (tmp_path / "compiled").mkdir()
    model, rows = _train(name, options, tmp_path / "compiled" / "run")
    assert paths and set(paths) == {"compiled"}
    assert rows == oracle_rows and len(rows) == options["generations"]
    assert sorted(model) == sorted(oracle)
    for key, array in oracle.items():
        assert np.array_equal(model[key], array), key


def _checkers_tasks(count: int) -> list:
    """``count`` games of random nets on checkers at depth 2, from random openings."""
    registry = get_registry()
    game = registry.game("checkers")
    starts = make_openings(game, parse_openings("random:plies=4,count=20", where=""), 5)
    rng = np.random.default_rng(5)
    search = "alphabeta:depth=2,extend_forced=true,extend_captures=true,max_extension=2"
    spec = {"model": "mlp", "encoding": "raw32", "hidden": [8]}
    evaluator = build_evaluator(registry, game, spec)
    size = evaluator.model.get_params().size
    sides = [side(evaluator, rng.uniform(-0.2, 0.2, size), search) for _ in range(4)]
    return [
        game_between(n, "checkers", sides[n % 4], sides[(n + 1) % 4], game_seed(9, n), 80,
                     starts[n % len(starts)])
        for n in range(count)
    ]  # fmt: skip


def _outcomes(tasks: list, workers: int, scheduler: str | None = None) -> list[dict]:
    with open_executor(workers, scheduler) as executor:
        return list(gamebatch.play_outcomes(tasks, executor, chunk=3))


@pytest.mark.slow
def test_compiled_chunks_give_one_processs_outcomes_on_a_pool_and_on_dask(dask_cluster):
    tasks = _checkers_tasks(10)
    serial = _outcomes(tasks, 1)
    assert [o["path"] for o in serial] == ["compiled"] * 10
    assert [o["index"] for o in serial] == list(range(10))
    assert _outcomes(tasks, 2) == serial
    assert _outcomes(tasks, 2, dask_cluster) == serial


#: labelling searches of HG and Layered Learning: the null evaluator, a net; a node budget
LABELLERS = [
    "endgame:depth=6",
    'alphabeta:depth=3,eval={model="mlp",encoding="raw32",hidden=[6],seed=2}',
    "alphabeta:nodes=200,eval=material,extend_forced=true,max_extension=2",
]


@pytest.mark.parametrize("agent", LABELLERS)
def test_a_chunk_of_positions_is_labelled_in_one_call_as_search_by_search(agent, monkeypatch):
    registry = get_registry()
    game = registry.game("checkers")
    data = generate(game, 20, 60, 24, np.random.default_rng(3))
    items = [(i, str(text)) for i, text in enumerate(data.positions)]
    items.append((len(items), game.position_text(_finished(game))))
    spec = Labeller("search", "checkers", agent, seed=4).as_dict()
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")
    oracle = label_chunk(spec, items)
    monkeypatch.delenv("MINDGAMES_PYTHON_PATH")
    calls = []
    batch = alphabeta.compiled_values
    monkeypatch.setattr(alphabeta, "compiled_values", lambda *a: calls.append(1) or batch(*a))
    labels = label_chunk(spec, items)
    assert [r["index"] for r in labels] == [r["index"] for r in oracle]
    for mine, theirs in zip(labels, oracle, strict=True):  # the mlp sums in another order
        assert mine["label"] == pytest.approx(theirs["label"], rel=0, abs=1e-12)
        assert mine["value"] == pytest.approx(theirs["value"], rel=0, abs=1e-12)
    assert calls == [1]  # the chunk's searches in one call
    assert len({r["label"] for r in oracle}) > 3 and oracle[-1]["label"] in (-1.0, 1.0)


def _finished(game):
    """A finished game's last position (seeded random moves)."""
    rng = np.random.default_rng(1)
    state = game.initial_state()
    while not game.is_terminal(state):
        moves = game.legal_moves(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    return state
