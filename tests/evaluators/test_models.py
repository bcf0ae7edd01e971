"""Every built-in model: declared capabilities, batch = single, range, files, specs, CLI."""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames import ConfigError, ModelFileError, Searcher, SearcherInfo, SearchResult, hookimpl
from mindgames.agent import build_agent, build_evaluator
from mindgames.cli.main import cli
from mindgames.errors import CapabilityError
from mindgames.model import check_declared, require
from mindgames.modelfile import load_evaluator, read_model_file, save_evaluator
from mindgames.registry import get_registry, registry_with

#: (game spec, eval table) for each model kind, on the encodings the issue names
CASES = {
    "material-checkers": ("checkers", "material"),
    "material-kalah": ("kalah", "material"),
    "linear-gac11": ("giveaway", {"model": "linear", "encoding": "gac11", "init": [-0.02, 0.02]}),
    "linear-subset": (
        "kalah",
        {"model": "linear", "encoding": "kalah14", "columns": ["my_store", "their_store"]},
    ),
    "mlp-raw32": ("checkers", {"model": "mlp", "encoding": "raw32", "hidden": [10]}),
    "mlp-kalah14": (
        "kalah",
        {"model": "mlp", "encoding": "kalah14", "hidden": [30], "activation": "sigmoid"},
    ),
    "mlp-direct-2layers": (
        "checkers",
        {"model": "mlp", "encoding": "samuel", "hidden": [8, 4], "direct": True, "init": [-1, 1]},
    ),
    "mlp-subsquares": (
        "checkers",
        {
            "model": "mlp",
            "encoding": "raw32",
            "hidden": [91, 6, 3],
            "groups": "subsquares",
            "input_sum": True,
        },
    ),
    "phased-3Ph": ("giveaway", {"model": "phased", "encoding": "gac11", "preset": "3Ph"}),
    "phased-5Ph": (
        "giveaway",
        {"model": "phased", "encoding": "gac11", "preset": "5ph", "output": "tanh"},
    ),
    "phased-10F": ("giveaway", {"model": "phased", "encoding": "gac11", "preset": "10F"}),
    "staged-raw32": (
        "checkers",
        {
            "model": "staged",
            "encoding": "raw32",
            "bounds": [8, 16],
            "member": {"model": "mlp", "hidden": [4]},
        },
    ),
    "staged-mixed": (
        "kalah",
        {
            "model": "staged",
            "encoding": "kalah14",
            "by": [f"my_pit{i}" for i in range(1, 7)],
            "measure": "sum",
            "bounds": [0.1],
            "members": [{"model": "linear"}, {"model": "mlp", "hidden": [3]}],
        },
    ),
}


def build(case: str, seed: int = 1):
    registry = get_registry()
    game_spec, table = CASES[case]
    game = registry.game(game_spec)
    return game, build_evaluator(registry, game, table, seed=seed)


@pytest.mark.parametrize("case", sorted(CASES))
def test_batch_equals_single_and_values_stay_in_range(case, positions):
    game, evaluator = build(case)
    check_declared(evaluator.model)
    states = positions(game, 40, seed=len(case))
    batch = evaluator.evaluate_batch(states)
    single = np.array([evaluator.evaluate(s) for s in states])
    np.testing.assert_allclose(batch, single, rtol=0, atol=1e-12)
    assert np.all(np.abs(batch) <= 1.0)
    assert len(set(np.round(batch, 9))) > 1  # the values depend on the position


@pytest.mark.parametrize("case", sorted(CASES))
def test_save_and_load_round_trip_exactly(case, tmp_path, positions):
    game, evaluator = build(case, seed=7)
    path = tmp_path / "model.npz"
    save_evaluator(path, game, evaluator, {"learner": "test"})
    loaded_game, loaded, _meta = load_evaluator(path, get_registry())
    assert loaded_game == game
    assert loaded.encoding.name == evaluator.encoding.name
    assert loaded.model.config() == evaluator.model.config()
    before, after = evaluator.model.arrays(), loaded.model.arrays()
    assert before.keys() == after.keys()
    for name in before:
        np.testing.assert_array_equal(before[name], after[name])
    states = positions(game, 10, seed=3)
    np.testing.assert_array_equal(evaluator.evaluate_batch(states), loaded.evaluate_batch(states))
    assert [evaluator.evaluate(s) for s in states] == [loaded.evaluate(s) for s in states]
    assert loaded.model.capabilities == evaluator.model.capabilities
    result = CliRunner().invoke(cli, ["describe-model", str(path)])
    assert result.exit_code == 0, result.output
    assert f"model:      {evaluator.model.name}" in result.output
    if case == "mlp-subsquares":  # a mask's 91 column groups are counted, not listed
        assert '"groups": "<91 items>"' in result.output


def test_loading_for_another_game_is_refused(tmp_path):
    game, evaluator = build("mlp-kalah14")
    path = tmp_path / "kalah.npz"
    save_evaluator(path, game, evaluator)
    other = get_registry().game("kalah:pits=4,seeds=3")
    # spec strings as typed: only the parameters that differ from the defaults, never a None
    with pytest.raises(
        ModelFileError, match=r"kalah\.npz: written for game 'kalah', not 'kalah:pits=4,seeds=3'$"
    ):
        load_evaluator(path, get_registry(), other)
    with pytest.raises(ModelFileError, match="written for game 'kalah', not 'checkers'$"):
        build_evaluator(get_registry(), get_registry().game("checkers"), f"@{path}")


def rewrite_meta(path, out, change) -> None:
    with np.load(path, allow_pickle=False) as data:
        contents = {k: data[k] for k in data.files}
    meta = json.loads(contents["__meta__"].tobytes().decode())
    change(meta)
    contents["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez(out, **contents)


def test_loading_a_file_for_other_columns_or_shapes_is_refused(tmp_path):
    game, evaluator = build("mlp-raw32")
    path = tmp_path / "raw.npz"
    save_evaluator(path, game, evaluator)

    def other_columns(meta):
        meta["columns"] = [*meta["columns"][:-1], "sq99"]

    rewrite_meta(path, tmp_path / "cols.npz", other_columns)
    with pytest.raises(ModelFileError, match=r"cols\.npz: encoding 'raw32' now has other columns"):
        load_evaluator(tmp_path / "cols.npz", get_registry())

    def other_encoding(meta):  # a file of the same width claiming another encoding's name
        meta["encoding"] = "gac11"

    rewrite_meta(path, tmp_path / "enc.npz", other_encoding)
    with pytest.raises(ModelFileError, match="other columns"):
        load_evaluator(tmp_path / "enc.npz", get_registry())

    def other_shape(meta):
        meta["model"]["config"]["hidden"] = [11]

    rewrite_meta(path, tmp_path / "shape.npz", other_shape)
    with pytest.raises(ModelFileError, match=r"shape\.npz: model 'mlp' cannot be rebuilt"):
        load_evaluator(tmp_path / "shape.npz", get_registry())


def test_a_linear_file_naming_missing_columns_is_refused(tmp_path):
    game, evaluator = build("linear-subset")
    path = tmp_path / "lin.npz"
    save_evaluator(path, game, evaluator)

    def rename(meta):
        meta["model"]["config"]["columns"] = ["my_store", "nowhere"]

    rewrite_meta(path, tmp_path / "bad.npz", rename)
    with pytest.raises(ModelFileError, match=r"bad\.npz: model 'linear' cannot.*'nowhere'"):
        load_evaluator(tmp_path / "bad.npz", get_registry())


# --- material --------------------------------------------------------------------------------
@settings(max_examples=60)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=2))
def test_material_is_monotone_and_strictly_inside(pair):
    _, evaluator = build("material-checkers")
    model = evaluator.model
    lo, hi = sorted(pair)
    v_lo, v_hi = model.value(np.array([lo, 0.0])), model.value(np.array([hi, 0.0]))
    assert -1.0 < v_lo <= v_hi < 1.0
    if hi - lo > 1e-9 * max(1.0, abs(hi), abs(lo)):  # leads one float apart (0 and 5e-324,
        assert v_lo < v_hi  # or near 1e6) can round to one value; real leads never do
    assert model.value(np.array([lo, 0.0])) == pytest.approx(-model.value(np.array([-lo, 0.0])))


def test_material_scale_and_column_weights():
    registry = get_registry()
    game = registry.game("checkers")
    plain = build_evaluator(registry, game, "material").model
    assert plain.value(np.array([4.0, 0.0])) == pytest.approx(0.5)
    weighted = build_evaluator(
        registry, game, {"model": "material", "weights": {"kings_diff": 1.5}, "scale": 1.0}
    ).model
    assert weighted.value(np.array([0.0, 2.0])) == pytest.approx(3.0 / 4.0)
    with pytest.raises(ConfigError, match="no column 'queens'"):
        build_evaluator(registry, game, {"model": "material", "weights": {"queens": 9}})


def test_giveaway_material_counts_pieces_against_their_owner():
    """Give-away declares its material weights (-1): plain ``material`` there prefers fewer
    pieces, means what the ladder's hand-written weights mean, and config weights still win;
    the compiled kernel's weights are the same numbers."""
    registry = get_registry()
    game = registry.game("giveaway")
    plain = build_evaluator(registry, game, "material")
    ladder = build_evaluator(
        registry, game, {"model": "material", "weights": {"men_diff": -1, "kings_diff": -1}}
    )
    ahead = np.array([2.0, 1.0])  # the side to move has more pieces: bad in give-away
    assert plain.model.value(ahead) < 0
    assert plain.model.value(ahead) == ladder.model.value(ahead)
    assert np.array_equal(plain.model.kernels().params, ladder.model.kernels().params)
    chosen = build_evaluator(registry, game, {"model": "material", "weights": {"men_diff": 1}})
    assert chosen.model.value(np.array([2.0, 0.0])) > 0
    assert build_evaluator(registry, registry.game("checkers"), "material").model.value(ahead) > 0


def test_material_is_not_trainable_by_td():
    _, evaluator = build("material-kalah")
    with pytest.raises(CapabilityError, match=r"'td' needs a differentiable model.*'material'"):
        require({"differentiable"}, evaluator.model, who="learner 'td'")


# --- configs ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"model": "mlp", "encoding": "raw32", "hidden": []}, "hidden must list"),
        ({"model": "mlp", "encoding": "raw32", "activation": "relu"}, "tanh or sigmoid"),
        ({"model": "mlp", "encoding": "raw32", "init": [1, -1]}, "init must be"),
        ({"model": "mlp", "encoding": "raw32", "hiden": [3]}, "hiden"),
        ({"model": "linear", "encoding": "raw32", "output": "relu"}, "output must be"),
        ({"model": "linear", "encoding": "raw32", "columns": ["sq1", "sqX"]}, "no column 'sqX'"),
        ({"model": "mlp"}, "needs an encoding"),
    ],
)
def test_bad_model_configs_are_one_line_config_errors(table, message):
    registry = get_registry()
    with pytest.raises(ConfigError, match=message) as info:
        build_evaluator(registry, registry.game("checkers"), table)
    assert "\n" not in str(info.value)


def test_same_seed_same_weights_other_seed_other_weights():
    a = build("mlp-raw32", seed=1)[1].model.get_params()
    b = build("mlp-raw32", seed=1)[1].model.get_params()
    c = build("mlp-raw32", seed=2)[1].model.get_params()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert np.all(np.abs(a) <= 0.1)


def test_set_params_of_wrong_size_is_refused():
    _, evaluator = build("mlp-raw32")
    with pytest.raises(ConfigError, match="has 341 parameters, got 3"):
        evaluator.model.set_params(np.zeros(3))


def test_linear_fit_recovers_weights():
    registry = get_registry()
    game = registry.game("kalah")
    for output in ("none", "tanh", "soft"):
        model = build_evaluator(
            registry, game, {"model": "linear", "encoding": "kalah14", "output": output}
        ).model
        rng = np.random.default_rng(0)
        xs = rng.uniform(-1, 1, size=(200, 14))
        truth = rng.uniform(-0.05, 0.05, size=15)
        model.set_params(truth)
        ys = model.value_batch(xs)
        model.set_params(np.zeros(15))
        model.fit(xs, ys)
        np.testing.assert_allclose(model.get_params(), truth, atol=1e-6)


# --- agents from spec strings ----------------------------------------------------------------
@attrs.frozen
class OneStep(Searcher):
    """Test searcher: the move whose successor the evaluator likes least for the opponent."""

    name = "onestep"

    def search(self, game, state, evaluator, rng):
        moves = game.legal_moves(state)
        kids = [game.play(state, m) for m in moves]
        values = -evaluator.evaluate_batch(kids)
        i = int(np.argmax(values))
        return SearchResult(moves[i], float(values[i]))


class OneStepPlugin:
    @hookimpl
    def mindgames_searchers(self):
        return [SearcherInfo("onestep", OneStep)]


def test_agent_specs_with_material_and_a_model_file(tmp_path):
    registry = registry_with(("onestep", OneStepPlugin()))
    game = registry.game("kalah")
    agent = build_agent(registry, game, "onestep:eval=material")
    assert agent.evaluator.model.name == "material"
    assert agent.evaluator.encoding.name == "material"
    state = game.initial_state()
    assert agent.choose(game, state, np.random.default_rng(0)).move in game.legal_moves(state)
    _, evaluator = build("mlp-kalah14")
    save_evaluator(tmp_path / "m.npz", game, evaluator)
    agent = build_agent(registry, game, f"onestep:eval=@{tmp_path / 'm.npz'}")
    assert agent.evaluator.model.name == "mlp"
    assert agent.evaluator.evaluate(state) == evaluator.evaluate(state)
    agent = build_agent(registry, game, 'onestep:eval={model="mlp",encoding="kalah14",hidden=[4]}')
    assert agent.evaluator.model.hidden == [4]


def test_describe_model_json_lists_the_model(tmp_path):
    game, evaluator = build("phased-3Ph")
    save_evaluator(tmp_path / "p.npz", game, evaluator)
    result = CliRunner().invoke(cli, ["describe-model", str(tmp_path / "p.npz"), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads(result.output)
    assert meta["model"]["kind"] == "phased"
    assert [c["name"] for c in meta["model"]["config"]["components"]] == [
        "ending",
        "beginning",
        "kings",
    ]
    assert read_model_file(tmp_path / "p.npz")[1]["weights"].shape == (24,)


def test_the_issue_spec_builds_an_alphabeta_agent_that_plays(tmp_path):
    registry = get_registry()
    game = registry.game("checkers")
    agent = build_agent(registry, game, "alphabeta:depth=2,eval=material")
    state = game.initial_state()
    assert agent.choose(game, state, np.random.default_rng(0)).move in game.legal_moves(state)
    _, evaluator = build("mlp-raw32")
    save_evaluator(tmp_path / "raw.npz", game, evaluator)
    agent = build_agent(registry, game, f"alphabeta:depth=2,eval=@{tmp_path / 'raw.npz'}")
    result = agent.choose(game, state, np.random.default_rng(0))
    assert result.move in game.legal_moves(state) and -1.0 <= result.value <= 1.0
