"""Any learner with any model: every built-in learner against every built-in model on Kalah(3,3).

A pairing whose model offers what the learner needs trains (a little) and its model file plays;
any other is refused before any work, in one line naming both, and leaves no run behind: the
learner's declared needs, or the needs of an option it was given (Layered Learning's default
fitter, RPROP, needs gradients). No pairing passes the checks only to fail inside training.
And for every learner the seed decides all it draws: same seed, same run; another seed, another.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.agent import build_agent, build_evaluator
from mindgames.cli.main import cli
from mindgames.errors import CapabilityError
from mindgames.modelfile import read_model_file
from mindgames.registry import get_registry
from mindgames.training import load_config, read_history, run
from tests.support.history import untimed

GAME = "kalah:pits=3,seeds=3"
COLUMNS = '["my_pit1", "my_pit2", "my_pit3", "my_store", "their_pit1", "their_pit2", "their_pit3"]'
MODELS = {
    "material": '{ model = "material" }',
    "linear": '{ model = "linear", encoding = "kalah14" }',
    "mlp": '{ model = "mlp", encoding = "kalah14", hidden = [3] }',
    "phased": (
        '{ model = "phased", encoding = "kalah14", output = "tanh", components = ['
        '{ name = "ahead", when = [{ column = "my_store", lo = 3 }], columns = ' + COLUMNS + " }, "
        '{ name = "rest", columns = ' + COLUMNS + " }] }"
    ),
    "staged": (
        '{ model = "staged", encoding = "kalah14+progress", by = ["plies"], bounds = [6], '
        'member = { model = "linear" } }'
    ),
}
LEARNERS = {
    "td": '{ name = "td", games = 20, batch = 10 }',
    "supervised": '{ name = "supervised", data = ["DATA"] }',
    "layered": (
        '{ name = "layered", stages = 2, width = 3, positions = 20, test_positions = 10, '
        "generations = 2 }"
    ),
    "hg": (
        '{ name = "hg", generations = 2, population = 10, phases = 2, plies = [6, 7], '
        "step_plies = 2, boards = 20 }"
    ),
    "shg": '{ name = "shg", generations = 2, population = 6, search = "alphabeta:depth=1" }',
    "coevolution": (
        '{ name = "coevolution", generations = 2, parents = 3, games = 2, '
        'search = "alphabeta:depth=2" }'
    ),
}


#: what each pairing does: "trains", or the capability named in its refusal (learners.md's table)
EXPECTED = {
    "td": {"linear": "trains", "mlp": "trains", "staged": "trains", "phased": "differentiable"},
    "supervised": {
        "linear": "trains",
        "mlp": "trains",
        "staged": "trains",
        "phased": "differentiable",
    },
    "layered": {
        "linear": "trains",
        "mlp": "trains",
        "staged": "trains",
        "phased": "differentiable",
    },
    "hg": {"linear": "trains", "mlp": "trains", "staged": "trains", "phased": "trains"},
    "shg": {"linear": "trains", "mlp": "trains", "staged": "trains", "phased": "trains"},
    "coevolution": {"linear": "trains", "mlp": "trains", "staged": "trains", "phased": "trains"},
}
for _row in EXPECTED.values():  # material has no parameters: every learner refuses it
    _row["material"] = "parametric"
EXPECTED["td"]["material"] = EXPECTED["supervised"]["material"] = "differentiable"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A folder with a small data set of Kalah(3,3) positions labelled exactly."""
    folder = tmp_path_factory.mktemp("matrix")
    for args in (
        ["data", "generate", GAME, "--plies", "2-8", "--count", "60", "-o", folder / "d.npz"],
        ["data", "solve", folder / "d.npz", "-o", folder / "solved.npz"],
    ):
        done = CliRunner().invoke(cli, [str(a) for a in args])
        assert done.exit_code == 0, done.output
    return folder


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_a_pairing_trains_and_plays_or_is_refused_before_any_work(learner, model, base):
    registry = get_registry()
    options = LEARNERS[learner].replace("DATA", str(base / "solved.npz"))
    config = base / f"{learner}-{model}.toml"
    config.write_text(
        f'game = "{GAME}"\nseed = 1\neval = {MODELS[model]}\nlearner = {options}\n',
        encoding="utf-8",
    )
    out = base / f"run-{learner}-{model}"
    needs = registry.learner_info(learner).needs
    expected = EXPECTED[learner][model]
    try:
        trained = run(config, out=out)
    except CapabilityError as exc:
        message = str(exc)
        assert f"needs a {expected} model" in message
        assert f"learner {learner!r}" in message and f"model {model!r}" in message
        assert "\n" not in message
        assert not (out / "model.npz").exists() and not (out / "history.jsonl").exists()
        evaluator = build_evaluator(registry, registry.game(GAME), load_config(config)[0].eval)
        if needs <= evaluator.model.capabilities:  # declared needs met: an option's own need
            assert "fitter" in message  # (Layered Learning's rprop fitter: differentiable)
        return
    assert expected == "trains", f"{learner} with {model} trained; expected a refusal"
    assert read_history(trained.directory), "no history"
    game = registry.game(GAME)
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{trained.model_path}")
    state = game.initial_state()
    assert agent.choose(game, state, np.random.default_rng(0)).move in game.legal_moves(state)


def test_material_pairs_with_no_learner_and_linear_with_every_one(base):
    """The two ends of the matrix, so that the test above cannot pass by refusing everything."""
    for learner in LEARNERS:
        options = LEARNERS[learner].replace("DATA", str(base / "solved.npz"))
        for model, refused in (("material", True), ("linear", False)):
            config = base / f"ends-{learner}-{model}.toml"
            config.write_text(
                f'game = "{GAME}"\nseed = 1\neval = {MODELS[model]}\nlearner = {options}\n',
                encoding="utf-8",
            )
            if refused:
                with pytest.raises(CapabilityError):
                    run(config, out=base / f"ends-{learner}-{model}")
            else:
                assert run(config, out=base / f"ends-{learner}-{model}").model_path.exists()


#: the mlp with its initial weights drawn from a seed of its own, so that only the learner's
#: generator changes with the run's seed
PINNED = '{ model = "mlp", encoding = "kalah14", hidden = [3], seed = 7 }'


def _trained(base, learner, seed, name):
    options = LEARNERS[learner].replace("DATA", str(base / "solved.npz"))
    config = base / f"{name}.toml"
    config.write_text(
        f'game = "{GAME}"\nseed = {seed}\neval = {PINNED}\nlearner = {options}\n',
        encoding="utf-8",
    )
    trained = run(config, out=base / name)
    return untimed(read_history(trained.directory)), read_model_file(trained.model_path)[1]


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_the_seed_decides_everything_a_learner_draws(learner, base):
    """Same seed, same history and model to the bit; another seed, another model from the same
    initial weights (so the run's seed reaches the learner's own random choices rather than a
    fixed or global stream)."""
    rows, model = _trained(base, learner, 1, f"seed-{learner}-a")
    again_rows, again = _trained(base, learner, 1, f"seed-{learner}-b")
    _, other = _trained(base, learner, 2, f"seed-{learner}-c")
    assert again_rows == rows
    assert all(np.array_equal(again[k], model[k]) for k in model)
    assert any(not np.array_equal(other[k], model[k]) for k in model if k in other)
