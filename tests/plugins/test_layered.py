"""The layered learner: its mutation operators and their odds, the population fitters' breeding,
labels of each stage from the stage trained before, refusals, and resume after SIGKILL."""

from __future__ import annotations

import json
import math
import signal

import attrs
import numpy as np
import pytest

from mindgames.agent import build_agent
from mindgames.data.labelling import margin_label, search_label
from mindgames.data.sets import read_dataset
from mindgames.measure.curve import points
from mindgames.modelfile import load_evaluator
from mindgames.plugins.learners.layered import LayeredLearner
from mindgames.plugins.learners.layered import population as pop
from mindgames.plugins.learners.layered.mutation import OPERATORS, mutate
from mindgames.registry import get_registry
from mindgames.training import read_history, run, snapshots
from tests.support.history import untimed

from support import cli
from support.processes import sigkill_when

INIT = (-0.1, 0.1)

TINY = """
game = "kalah:pits=4,seeds=3"
seed = 2

[eval]
model = "mlp"
encoding = "kalah14"
hidden = [4]

[learner]
name = "layered"
stages = {stages}
width = 6
positions = {positions}
test_positions = 10
deepest = "solve"
generations = {generations}
population = 4
{extra}
fit = {{ epochs = {epochs}, min_epochs = 5, patience = 5 }}
"""


def tiny(tmp_path, stages=2, positions=30, generations=2, epochs=20, extra=""):
    config = tmp_path / "ll.toml"
    text = TINY.format(stages=stages, positions=positions, generations=generations,
                       epochs=epochs, extra=extra)  # fmt: skip
    config.write_text(text, encoding="utf-8")
    return config


# --- mutation -------------------------------------------------------------------------------
def test_each_operator_does_what_its_name_says_to_the_weights_it_hits():
    params = np.random.default_rng(0).uniform(-3, 3, 4000)
    out = mutate(params, 0.5, INIT, np.random.default_rng(5))
    draws = np.random.default_rng(5)  # the same draws, in mutate's order
    hit = draws.random(params.size) < 0.5
    which = draws.integers(4, size=params.size)
    fresh = draws.uniform(*INIT, params.size)
    expected = {"double": params * 2, "halve": params / 2, "negate": -params, "replace": fresh}
    for k, name in enumerate(OPERATORS):
        rows = hit & (which == k)
        assert rows.sum() > 300
        np.testing.assert_array_equal(out[rows], expected[name][rows], err_msg=name)
    np.testing.assert_array_equal(out[~hit], params[~hit])
    assert np.all((out[hit & (which == 3)] >= -0.1) & (out[hit & (which == 3)] <= 0.1))


def test_a_weight_is_hit_with_the_rate_and_the_four_operators_are_equally_likely():
    params = np.full(200_000, 3.0)
    out = mutate(params, 0.1, (-0.5, 0.5), np.random.default_rng(11))
    changed = out != params
    assert abs(changed.mean() - 0.1) < 0.004
    shares = [
        np.mean(out[changed] == 6.0),
        np.mean(out[changed] == 1.5),
        np.mean(out[changed] == -3.0),
        np.mean(np.abs(out[changed]) <= 0.5),
    ]
    assert all(abs(s - 0.25) < 0.01 for s in shares), shares
    assert sum(shares) == pytest.approx(1.0)


def test_rate_zero_changes_nothing_and_the_input_is_left_alone():
    params = np.arange(10.0)
    out = mutate(params, 0.0, INIT, np.random.default_rng(1))
    np.testing.assert_array_equal(out, params)
    mutate(params, 1.0, INIT, np.random.default_rng(1))
    np.testing.assert_array_equal(params, np.arange(10.0))


# --- breeding -------------------------------------------------------------------------------
def parents(n, size=500):
    """Ranked networks whose every weight is 10 + rank (a mutant keeps most of its parent's)."""
    return np.vstack([np.full(size, 10.0 + i) for i in range(n)])


def origin(row):
    """The parent rank a row mostly copies, or None for a random network (all in INIT)."""
    if np.all(np.abs(row) <= 0.1):
        return None
    values, counts = np.unique(row, return_counts=True)
    return int(values[np.argmax(counts)] - 10)


def mutated_share(row):
    return float(np.mean(row != np.round(np.median(row))))


def test_rprop_phase_change_keeps_two_best_mutates_each_twice_and_adds_two_random():
    o = pop.PopulationOptions("rprop", 8)
    out = pop.phase_change(parents(8), o, np.random.default_rng(3))
    assert [origin(r) for r in out] == [0, 1, 0, 0, 1, 1, None, None]
    np.testing.assert_array_equal(out[:2], parents(8)[:2])
    low, high = mutated_share(out[2]), mutated_share(out[3])
    assert 0.0 < low <= 0.05 and 0.06 < high < 0.15


def test_rprop_generation_replaces_the_worse_half_by_mutated_copies_of_the_better():
    o = pop.PopulationOptions("rprop", 8)
    out = pop.breed(parents(8), None, None, o, np.random.default_rng(3))
    assert [origin(r) for r in out] == [0, 1, 2, 3, 0, 1, 2, 3]
    np.testing.assert_array_equal(out[:4], parents(8)[:4])
    assert all(0.0 < mutated_share(r) <= 0.05 for r in out[4:])


def test_evolution_keeps_45_percent_copies_them_twice_the_top_5_percent_and_fills_randomly():
    o = pop.PopulationOptions("evolution", 40)
    out = pop.breed(parents(40), None, None, o, np.random.default_rng(4))
    kinds = [origin(r) for r in out]
    assert kinds[:18] == list(range(18)) and kinds[18:36] == list(range(18))
    assert kinds[36:38] == [0, 1] and kinds[38:] == [None, None]
    assert all(mutated_share(r) <= 0.05 for r in out[18:36])
    assert all(0.06 < mutated_share(r) < 0.15 for r in out[36:38])


def test_evolution_phase_change_keeps_30_percent_and_renews_the_rest():
    o = pop.PopulationOptions("evolution", 40)
    out = pop.phase_change(parents(40), o, np.random.default_rng(4))
    assert [origin(r) for r in out] == list(range(12)) + [None] * 28


def test_a_generation_ranks_rprop_by_test_error_and_evolution_by_training_error():
    from mindgames.evaluators.linear import Linear
    from mindgames.plugins.learners.fitters import Patterns

    model = Linear(np.zeros(2), output="none", bias=True, names=None, index=None)
    xs = np.array([[1.0], [2.0]])
    # network a fits the training set, network b the test set
    sets = pop.Sets(Patterns.of(xs, [0.1, 0.2]), Patterns.of(xs, [-0.1, -0.2]))
    a, b = np.array([0.1, 0.0]), np.array([-0.1, 0.0])
    population = np.vstack([a, b])
    evolution = pop.PopulationOptions("evolution", 2)
    ranked, train, test = pop.generation(population, model, sets, evolution, True, None)
    np.testing.assert_array_equal(ranked[0], a)
    assert train[0] < train[1]
    rprop = pop.PopulationOptions("rprop", 2, fit=pop.FitOptions(epochs=1, min_epochs=0))
    ranked, train, test = pop.generation(
        population, model, sets, rprop, True, np.random.default_rng(0)
    )
    assert test[0] <= test[1] and ranked[0][0] < 0


def hybrid_setting(size=8):
    """A small MLP, a phase's sets it can learn (y = tanh of a linear function), a population."""
    from mindgames.evaluators.mlp import MLP
    from mindgames.plugins.learners.fitters import Patterns

    rng = np.random.default_rng(9)
    xs = rng.uniform(-1, 1, (60, 3))
    ys = np.tanh(xs @ np.array([1.5, -1.0, 0.5]))
    model = MLP(np.zeros(3 * 3 + 3 + 4), 3, [3], "tanh", False)
    sets = pop.Sets(Patterns.of(xs[:40], ys[:40]), Patterns.of(xs[40:], ys[40:]))
    population = rng.uniform(-0.1, 0.1, (size, len(model.get_params())))
    return model, sets, population


def test_the_hybrid_retrains_every_network_by_rprop_when_the_training_set_changes():
    model, sets, population = hybrid_setting()
    fit = pop.FitOptions(epochs=30, min_epochs=5, patience=5)
    hybrid = pop.PopulationOptions("evolution+rprop", 8, fit=fit)
    out = pop.begin(population, model, sets, hybrid, np.random.default_rng(0))
    before = pop.errors(model, population, sets.train)
    after = pop.errors(model, out, sets.train)
    assert np.all(after < before)  # every network, not only the new ones
    for row, start in zip(out, population, strict=True):
        expected = pop.rprop_fit(model, start, sets, fit, np.random.default_rng(0))
        np.testing.assert_array_equal(row, expected)
    alone = pop.PopulationOptions("evolution", 8, fit=fit)
    assert pop.begin(population, model, sets, alone, None) is population


def test_the_hybrid_gives_each_new_network_an_rprop_pass_and_leaves_the_survivors_alone():
    model, sets, population = hybrid_setting(size=20)
    fit = pop.FitOptions(epochs=50, min_epochs=20, patience=20)
    hybrid = pop.PopulationOptions("evolution+rprop", 20, pass_epochs=3, fit=fit)
    alone = attrs.evolve(hybrid, fitter="evolution")
    ranked = population[np.argsort(pop.errors(model, population, sets.train))]
    out = pop.breed(ranked, model, sets, hybrid, np.random.default_rng(4))
    bred = pop.breed(ranked, model, sets, alone, np.random.default_rng(4))  # the same mutants
    survivors = 20 - round(0.55 * 20)
    np.testing.assert_array_equal(out[:survivors], ranked[:survivors])
    np.testing.assert_array_equal(bred[:survivors], ranked[:survivors])
    three = pop.FitOptions(epochs=3, min_epochs=3, patience=20)  # the pass: pass_epochs epochs
    for young, mutant in zip(out[survivors:], bred[survivors:], strict=True):
        assert not np.array_equal(young, mutant)
        expected = pop.rprop_fit(model, mutant, sets, three, None)
        np.testing.assert_array_equal(young, expected)


# --- runs -----------------------------------------------------------------------------------
def test_each_stage_is_labelled_by_the_evaluator_trained_on_the_stage_before(tmp_path):
    done = run(tiny(tmp_path), out=tmp_path / "run")
    game = get_registry().game("kalah:pits=4,seeds=3")
    kept = snapshots(done.directory)
    assert len(kept) == 2  # one evaluator after each stage
    deepest = read_dataset(done.directory / "stages/01/labels.npz")
    for text, label in zip(deepest.positions[:10], deepest.labels[:10], strict=True):
        assert label == pytest.approx(margin_label(game.solve(game.parse_position(text)), 8.0))
    first_model = kept[0][1]
    labelled = sorted((done.directory / "stages/02").glob("labels-d*.npz"))
    assert labelled
    for path in labelled:
        part = read_dataset(path)
        agent_spec = part.provenance["labeller"]["agent"]
        assert agent_spec.endswith(f"eval=@{first_model.resolve()}")
        agent = build_agent(get_registry(), game, agent_spec)
        _, saved, _ = load_evaluator(first_model, get_registry(), game)
        state = game.parse_position(str(part.positions[0]))
        depth = int(path.stem.removeprefix("labels-d"))
        assert depth == 6 - int(part.plies[0])  # deep enough to reach plies 6-11
        seed = part.provenance["labeller"]["seed"]
        index = 0  # the first position of the file's own numbering
        value = agent.choose(game, state, np.random.default_rng([seed, index])).value
        assert part.labels[0] == pytest.approx(search_label(value))
        assert agent.evaluator.model.get_params() == pytest.approx(saved.model.get_params())


def test_history_rows_per_generation_and_snapshots_per_stage(tmp_path):
    done = run(tiny(tmp_path, stages=3, generations=3), out=tmp_path / "run")
    rows = read_history(done.directory)
    assert [r["generation"] for r in rows] == list(range(1, 10))
    assert [r["stage"] for r in rows] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [r["plies"] for r in rows[::3]] == [[12, 17], [6, 11], [0, 5]]
    assert [r["test"] for r in rows[::3]] == [10, 20, 30]  # a test set from every stage so far
    assert [r["train"] for r in rows[::3]] == [30, 60, 90]
    assert all(r["best_test_mse"] <= r["median_test_mse"] for r in rows)
    assert [g for g, _ in snapshots(done.directory)] == [r["games"] for r in rows[2::3]]
    # the curve counts the playouts behind each stage, the final model being the last snapshot
    curve = points(done.directory)
    assert [(p.games, p.unit, p.final) for p in curve] == [
        (r["games"], "playouts", False) for r in rows[2::3]
    ]
    final = np.load(done.model_path, allow_pickle=False)
    last = np.load(snapshots(done.directory)[-1][1], allow_pickle=False)
    for name in final.files:
        if name.startswith("m/"):
            np.testing.assert_array_equal(final[name], last[name])


def test_per_stage_evaluators_train_one_member_each_and_copy_it_forward(tmp_path):
    config = tmp_path / "staged.toml"
    extra = 'evaluators = "per-stage"\nfitter = "evolution+rprop"\npass_epochs = 2'
    text = TINY.format(stages=2, positions=20, generations=2, epochs=10, extra=extra)
    staged = (
        'model = "staged"\nencoding = "kalah14+progress"\nby = ["plies"]\nmeasure = "sum"\n'
        'bounds = [6]\nmember = {model = "mlp", hidden = [3]}'
    )
    config.write_text(text.replace('model = "mlp"\nencoding = "kalah14"\nhidden = [4]', staged))
    done = run(config, out=tmp_path / "run")
    game = get_registry().game("kalah:pits=4,seeds=3")
    (_, after_first), (_, after_second) = snapshots(done.directory)
    first = load_evaluator(after_first, get_registry(), game)[1].model
    second = load_evaluator(after_second, get_registry(), game)[1].model
    # after the deepest stage, its member (plies >= 6) was copied into the root's member
    np.testing.assert_array_equal(first.members[0].get_params(), first.members[1].get_params())
    # the second stage trained the root's member only
    np.testing.assert_array_equal(second.members[1].get_params(), first.members[1].get_params())
    assert not np.array_equal(second.members[0].get_params(), first.members[0].get_params())


def test_a_per_stage_run_refuses_an_evaluator_not_staged_on_the_stage_plies(tmp_path):
    config = tiny(tmp_path, extra='evaluators = "per-stage"')
    out = cli.run("train", config, "--out", tmp_path / "run")
    assert out.returncode == 2
    assert 'by = ["plies"], measure = "sum", bounds = [6]' in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_solving_the_deepest_stage_needs_a_game_that_can_solve(tmp_path):
    config = tmp_path / "ck.toml"
    config.write_text(
        'game = "checkers"\n[eval]\nmodel = "mlp"\nencoding = "raw32"\n'
        '[learner]\nname = "layered"\ndeepest = "solve"\n',
        encoding="utf-8",
    )
    out = cli.run("train", config, "--out", tmp_path / "run")
    assert out.returncode == 2 and "cannot solve positions" in out.stderr
    assert not (tmp_path / "run" / "config.json").exists()


def test_evolution_alone_needs_only_a_parametric_model_and_rprop_a_differentiable_one():
    assert LayeredLearner(fitter="evolution").breeding().uses_rprop is False
    assert LayeredLearner(fitter="evolution").breeding().size == 40
    assert LayeredLearner().breeding().generations == 4
    assert LayeredLearner(stages=3, generations=5).planned() == ("generation", 15)
    with pytest.raises(ValueError):
        LayeredLearner(stages=0)


def params(model):
    with np.load(model, allow_pickle=False) as data:
        return {name: data[name] for name in data.files if name.startswith("m/")}


def test_a_sigkilled_run_resumes_to_the_same_evaluator_and_history(tmp_path):
    config = tiny(tmp_path, stages=3, positions=60, generations=3, epochs=60)
    env = cli.environment()
    whole = tmp_path / "whole"
    assert cli.run("train", config, "--out", whole, "--quiet").returncode == 0

    cut = tmp_path / "cut"
    history = cut / "history.jsonl"

    def rows():
        return history.read_text().count("\n") if history.exists() else 0

    command = cli.command("train", str(config), "--out", str(cut), "--quiet")
    proc = sigkill_when(command, lambda: rows() >= 2, env)
    assert proc.returncode == -signal.SIGKILL
    assert 2 <= rows() < 9 and not (cut / "model.npz").exists()
    resumed = cli.run("train", config, "--out", cut, "--quiet", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    a, b = params(cut / "model.npz"), params(whole / "model.npz")
    assert a.keys() == b.keys() and a
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])
    lines = [json.loads(line) for line in history.read_text().splitlines()]
    assert [r["generation"] for r in lines] == list(range(1, 10))
    whole_lines = [json.loads(x) for x in (whole / "history.jsonl").read_text().splitlines()]
    assert untimed(lines) == untimed(whole_lines)
    assert math.isfinite(lines[-1]["best_test_mse"])


def test_the_planned_work_is_the_last_history_rows_generation():
    # three stages of three generations end at generation 9 (the rows of the test above)
    assert LayeredLearner(stages=3, generations=3).planned() == ("generation", 9)


def test_a_stage_with_fewer_positions_keeps_the_test_share():
    from mindgames.plugins.learners.layered.data import Labelled, split

    def rows(n):
        return Labelled(None, np.zeros(n), n)

    train, test = split(rows(500), 400, 100)
    assert (len(train), len(test)) == (400, 100)
    train, test = split(rows(273), 400, 100)
    assert (len(train), len(test)) == (218, 55) and test[0] == 218
    assert [len(part) for part in split(rows(2), 400, 100)] == [1, 1]


def test_stages_the_games_never_reach_name_the_learners_options(tmp_path):
    """12 stages of 6 plies reach ply 66, which Kalah(4,3) never does: the refusal names
    layered's own options, not data generate's --plies."""
    out = cli.run("train", tiny(tmp_path, stages=12), "--out", tmp_path / "run")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "found only 0 distinct positions at plies 66-71" in out.stderr
    assert "lower 'stages' or 'width'" in out.stderr and "--plies" not in out.stderr
