"""The Layered Learning examples run end to end, shrunk (few positions, stages and generations),
and keep what their comments promise: the study's nets and fitters, the Kalah solver for the
deepest stage, one snapshot per stage that plays through an agent spec."""

from __future__ import annotations

import numpy as np
import pytest

from mindgames.agent import build_agent
from mindgames.data.sets import read_dataset
from mindgames.modelfile import load_evaluator
from mindgames.registry import get_registry
from mindgames.training import read_history, run, snapshots

from support.examples import shrunk

SMALL = {"stages": 2, "positions": 12, "test_positions": 4, "workers": 1}
FIT = {"epochs": 5, "min_epochs": 1, "patience": 2}

EXPECTED = {
    "checkers-ll-plainboard5n.toml": ("raw32", [5], "rprop"),
    "checkers-ll-plainboard5n-30min.toml": ("raw32", [5], "rprop"),
    "checkers-ll-boardsfeatures5n.toml": ("ll-features", [5], "rprop"),
    "checkers-ll-evo10n.toml": ("raw32", [10], "evolution"),
    "checkers-ll-evo10n-rprop.toml": ("raw32", [10], "evolution+rprop"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_checkers_examples_train_a_stage_at_a_time_and_play(name, tmp_path):
    small = {**SMALL, "generations": 2, "fit": FIT, "deepest": "endgame:depth=2"}
    if "evo" in name:
        small.update(population=4, pass_epochs=2)
    config, raw = shrunk(name, tmp_path, **small, width=4)
    encoding, hidden, fitter = EXPECTED[name]
    assert (raw["eval"]["encoding"], raw["eval"]["hidden"]) == (encoding, hidden)
    assert raw["learner"]["fitter"] == fitter
    done = run(config, out=tmp_path / "run")
    rows = read_history(done.directory)
    assert [r["stage"] for r in rows] == [1, 1, 2, 2]
    assert rows[0]["plies"][0] > rows[-1]["plies"][0] == 0
    assert len(snapshots(done.directory)) == 2
    registry = get_registry()
    game, evaluator, meta = load_evaluator(done.model_path, registry)
    assert evaluator.encoding.name == encoding and meta["provenance"]["learner"] == "layered"
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{done.model_path}")
    start = game.initial_state()
    assert agent.choose(game, start, np.random.default_rng(0)).move in game.legal_moves(start)


def test_kalah_example_solves_its_deepest_stage_exactly(tmp_path):
    small = {**SMALL, "stages": 5, "width": 10, "label_depth": 2}  # solved: plies 40-49
    config, raw = shrunk("kalah-ll.toml", tmp_path, **small, generations=1, fit=FIT)
    assert raw["learner"]["deepest"] == "solve" and raw["game"] == "kalah:pits=6,seeds=4"
    done = run(config, out=tmp_path / "run")
    game = get_registry().game(raw["game"])
    deepest = read_dataset(done.directory / "stages/01/labels.npz")
    assert deepest.provenance["labeller"]["kind"] == "solve"
    assert all(40 <= p <= 49 for p in deepest.plies)
    margin = game.solve(game.parse_position(str(deepest.positions[0])))
    assert deepest.labels[0] == pytest.approx(np.tanh(margin / 8.0))
    assert [r["stage"] for r in read_history(done.directory)] == [1, 2, 3, 4, 5]
