"""Every built-in learner trains on a game no built-in code knows: OpenSpiel's tic-tac-toe through
the bridge's entry point, with the encoding the bridge offers. The core needs no change for a new
game, and any learner mixes with any parametric model; here each trains a little, and its model
file is loaded back on that game and plays."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.agent import build_agent
from mindgames.cli.main import cli
from mindgames.registry import get_registry
from mindgames.training import read_history, run

GAME = "openspiel:game=tic_tac_toe"
LEARNERS = {
    "td": ("mlp", '{ name = "td", games = 20, batch = 10 }', ("games", 20)),
    "coevolution": (
        "mlp",
        '{ name = "coevolution", generations = 2, parents = 3, games = 2, '
        'search = "alphabeta:depth=2" }',
        ("generation", 2),
    ),
    "layered": (
        "linear",
        '{ name = "layered", stages = 2, width = 3, positions = 20, test_positions = 10, '
        "generations = 2 }",
        ("generation", 4),
    ),
    "hg": (
        "linear",
        '{ name = "hg", generations = 2, population = 10, phases = 2, plies = [6, 7], '
        "step_plies = 2, boards = 20 }",
        ("generation", 4),
    ),
    "supervised": ("mlp", '{ name = "supervised", data = ["DATA"] }', None),
    "shg": (
        "linear",
        '{ name = "shg", generations = 2, population = 6, search = "alphabeta:depth=1" }',
        ("generation", 2),
    ),
}


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Positions of random tic-tac-toe playouts, labelled by an exhaustive search."""
    base = tmp_path_factory.mktemp("openspiel-data")
    for args in (
        ["data", "generate", GAME, "--plies", "3-6", "--count", "60", "-o", base / "d.npz"],
        [
            "data",
            "label",
            base / "d.npz",
            "--agent",
            "endgame:depth=9",
            "-o",
            base / "labelled.npz",
        ],
    ):
        done = CliRunner().invoke(cli, [str(a) for a in args])
        assert done.exit_code == 0, done.output
    return base


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_each_learner_trains_on_an_openspiel_game_and_its_model_plays(learner, labelled):
    model, options, planned = LEARNERS[learner]
    hidden = ", hidden = [4]" if model == "mlp" else ""
    data = labelled / "labelled.npz"
    config = labelled / f"{learner}.toml"
    config.write_text(
        f'game = "{GAME}"\nseed = 1\n'
        f'eval = {{ model = "{model}", encoding = "observation"{hidden} }}\n'
        f"learner = {options.replace('DATA', str(data))}\n",
        encoding="utf-8",
    )
    trained = run(config, out=labelled / f"run-{learner}")
    rows = read_history(trained.directory)
    assert rows, "no history"
    if planned is not None:
        key, count = planned
        assert rows[-1][key] == count
    registry = get_registry()
    game = registry.game(GAME)
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{trained.model_path}")
    state = game.initial_state()
    found = agent.choose(game, state, np.random.default_rng(0))
    assert found.move in game.legal_moves(state)
    assert -1.0 <= agent.evaluator.evaluate(state) <= 1.0
