"""HG and SHG: the operators (crossover, mutation odds, sharing), HG's fitness, SHG's comparison
with the colours swapped, the stage schedule, runs on Kalah and checkers with ``linear``,
checkpoints and resume, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.agent import build_evaluator
from mindgames.executors import SerialExecutor
from mindgames.measure.plotdata import panels_for
from mindgames.plugins.learners.hg import HGLearner, SHGLearner, comparison, fitness, operators
from mindgames.registry import get_registry
from mindgames.training import read_history, run, snapshots
from tests.support.history import untimed

from support import cli

KALAH = "kalah:pits=4,seeds=3"
HG_TINY = {
    "population": 6, "generations": 2, "phases": 2, "plies": (12, 16), "step_plies": 4,
    "boards": 30, "first_label": "endgame:depth=4", "label": "alphabeta:depth=2",
}  # fmt: skip
SHG_TINY = {"population": 5, "generations": 2, "steps": 2, "search": "alphabeta:depth=2,nodes=50"}

genes = st.lists(st.floats(-100, 100), min_size=1, max_size=12)


@given(st.data())
def test_the_gene_at_the_cut_lies_between_the_parents_and_the_rest_comes_from_them(data):
    a = np.array(data.draw(genes))
    b = np.array(data.draw(st.lists(st.floats(-100, 100), min_size=a.size, max_size=a.size)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    child = operators.crossover(a, b, [slice(0, a.size)], rng)
    assert np.all(child >= np.minimum(a, b)) and np.all(child <= np.maximum(a, b))
    # a head from one parent, a tail from the other, the cut gene between
    heads = [k for k in range(a.size + 1) if np.array_equal(child[:k], a[:k])]
    tails = [k for k in range(a.size + 1) if np.array_equal(child[k + 1 :], b[k + 1 :])]
    heads_b = [k for k in range(a.size + 1) if np.array_equal(child[:k], b[:k])]
    tails_a = [k for k in range(a.size + 1) if np.array_equal(child[k + 1 :], a[k + 1 :])]
    assert set(heads) & set(tails) or set(heads_b) & set(tails_a)


def test_the_crossover_cuts_each_linear_combination_on_its_own():
    a, b = np.zeros(8), np.ones(8)
    groups = [slice(0, 4), slice(4, 8)]
    seen_mixed = 0
    for seed in range(200):
        child = operators.crossover(a, b, groups, np.random.default_rng(seed))
        for group in groups:
            part = child[group]
            # within a group: a run of one parent's genes, one gene between, the other's
            inner = part[(part != 0.0) & (part != 1.0)]
            assert len(inner) <= 1
            seen_mixed += int(part[0] != part[-1])
    assert seen_mixed > 100  # heads and tails really come from different parents


def test_the_cut_gene_is_drawn_from_the_whole_interval_between_the_parents():
    a, b = np.array([2.0]), np.array([6.0])
    rng = np.random.default_rng(0)
    values = [operators.crossover(a, b, [slice(0, 1)], rng)[0] for _ in range(2000)]
    assert 2.0 <= min(values) < 2.1 and 5.9 < max(values) <= 6.0
    assert np.mean(values) == pytest.approx(4.0, abs=0.1)


def test_mutation_doubles_halves_and_negates_with_odds_two_to_two_to_one():
    ones = np.ones(50_000)
    mutated, changed = operators.mutate(ones, 1.0, np.random.default_rng(4))
    assert changed == ones.size
    counts = {v: int(np.count_nonzero(mutated == v)) for v in (2.0, 0.5, -1.0)}
    assert sum(counts.values()) == ones.size
    assert counts[2.0] / ones.size == pytest.approx(0.4, abs=0.01)
    assert counts[0.5] / ones.size == pytest.approx(0.4, abs=0.01)
    assert counts[-1.0] / ones.size == pytest.approx(0.2, abs=0.01)


def test_mutation_touches_each_gene_with_its_rate():
    ones = np.ones(50_000)
    mutated, changed = operators.mutate(ones, 0.1, np.random.default_rng(5))
    assert changed == int(np.count_nonzero(mutated != 1.0))
    assert changed / ones.size == pytest.approx(0.1, abs=0.01)
    assert np.array_equal(operators.mutate(ones, 0.0, np.random.default_rng(5))[0], ones)


def test_sharing_divides_by_the_sum_of_exp_minus_squared_distances():
    population = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    d2 = np.array([[0, 1, 4], [1, 0, 5], [4, 5, 0]], dtype=float)
    expected = np.exp(-d2).sum(axis=1)
    np.testing.assert_allclose(operators.niche_counts(population), expected)
    fit = np.array([3.0, 2.0, 1.0])
    np.testing.assert_allclose(operators.shared(fit, population), fit / expected)
    # identical specimens share their niche; a lone one keeps its fitness
    np.testing.assert_allclose(operators.niche_counts(np.zeros((4, 3))), [4.0] * 4)
    assert operators.niche_count(np.array([0.0, 0.0]), population[1:]) == pytest.approx(expected[0])


def test_the_fitness_is_n_over_the_sum_of_squared_errors():
    h, a = np.array([0.5, -0.5, 0.0, 1.0]), np.array([0.0, 0.0, 0.5, 1.0])
    assert fitness.fitness(h, a) == pytest.approx(4 / (0.25 + 0.25 + 0.25))
    assert fitness.fitness(a, a) == fitness.PERFECT
    with pytest.raises(ValueError):
        fitness.fitness(h, a[:2])


def test_the_worst_share_is_regenerated_and_normalised_genes_have_unit_length():
    assert sorted(operators.worst(np.array([5.0, 1.0, 4.0, 0.0, 3.0]), 0.8)) == [1, 2, 3, 4]
    assert np.linalg.norm(operators.normalise(np.array([3.0, 4.0]))) == pytest.approx(1.0)


def test_the_gene_groups_are_the_phases_of_a_phased_model():
    registry = get_registry()
    game = registry.game("giveaway")
    evaluator = build_evaluator(
        registry, game, {"model": "phased", "encoding": "gac11", "preset": "3Ph"}
    )
    size = evaluator.model.get_params().size
    assert operators.gene_groups(evaluator.model, size) == [
        slice(0, 8), slice(8, 16), slice(16, 24)
    ]  # fmt: skip


def test_a_stage_schedule_that_passes_ply_zero_is_refused_before_any_work(tmp_path):
    from mindgames import ConfigError

    game, evaluator = _kalah()
    learner = HGLearner(**{**HG_TINY, "phases": 6})  # 12-16, 8-12, 4-8, 0-4, 0-0, then past 0
    with pytest.raises(ConfigError, match="pass ply 0"):
        learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path)
    assert not (tmp_path / "stages").exists()


def test_a_ply_window_the_games_never_reach_names_the_learners_options(tmp_path):
    from mindgames import MindgamesError

    game, evaluator = _kalah()
    learner = HGLearner(**{**HG_TINY, "plies": (200, 204)})  # Kalah(4,3) ends long before
    with pytest.raises(MindgamesError, match="lower 'boards' or set 'plies' where") as caught:
        learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path)
    assert "--plies" not in str(caught.value)


def test_a_comparison_plays_two_games_with_the_colours_swapped():
    a, b = {"name": "a"}, {"name": "b"}
    first, second = comparison.comparison_tasks("kalah", a, b, 7, 0, 100)
    assert (first.first_spec, first.second_spec) == (a, b)
    assert (second.first_spec, second.second_spec) == (b, a)
    assert first.seed != second.seed
    assert comparison.points(1.0, 0.0) == 2.0  # a won both games
    assert comparison.points(1.0, 1.0) == 1.0  # each won moving first: a tie
    assert comparison.points(0.5, 0.5) == 1.0


def test_two_equal_specimens_tie_in_a_real_comparison_and_a_stronger_one_wins():
    registry = get_registry()
    game = registry.game(KALAH)
    evaluator = build_evaluator(registry, game, {"model": "linear", "encoding": "kalah14"})
    size = evaluator.model.get_params().size
    rng = np.random.default_rng(0)
    search = "alphabeta:depth=2"
    sides = [comparison.side(evaluator, rng.uniform(-1, 1, size), search) for _ in range(2)]
    out = comparison.compare(SerialExecutor(), KALAH, sides, [(0, 0)], 1, 200)
    assert out[0]["points"] == 1.0  # whoever wins each game, the swap makes it even
    assert out[0]["plies"] > 0
    assert comparison.rank([3, 5, 9], {5: 2, 9: 2}) == (5, 3)


def _kalah(model="linear"):
    registry = get_registry()
    game = registry.game(KALAH)
    return game, build_evaluator(registry, game, {"model": model, "encoding": "kalah14"}, seed=1)


def test_hg_runs_its_phases_on_kalah_and_keeps_the_labelled_stages(tmp_path):
    game, evaluator = _kalah()
    result = HGLearner(**HG_TINY).train(game, evaluator, np.random.default_rng(3), workdir=tmp_path)
    rows = result.history
    assert [r["generation"] for r in rows] == [1, 2, 3, 4]
    assert HGLearner(**HG_TINY).planned() == ("generation", 4)
    assert [r["phase"] for r in rows] == [1, 1, 2, 2]
    assert [r["plies"] for r in rows] == [[12, 16], [12, 16], [8, 12], [8, 12]]
    assert all(r["boards"] == 30 and r["crossovers"] == 6 for r in rows)
    assert rows[1]["best"] >= rows[0]["best"]  # the fittest survives within a phase
    size = evaluator.model.get_params().size
    assert all(0.0 <= r["effective"] <= 1.0 and len(r["gene_var"]) == size for r in rows)
    assert (tmp_path / "stages" / "phase-2-stage-1.npz").exists()  # stage 1 again for phase 2
    assert (tmp_path / "stages" / "labeller-2.npz").exists()
    assert [count for count, _ in snapshots(tmp_path)] == [1, 2, 3, 4]
    tests = fitness.TestSet.of(game, evaluator, _read(tmp_path / "stages" / "phase-2.npz"))
    params = result.evaluator.model.get_params()
    assert fitness.score(evaluator, params, tests) == pytest.approx(rows[-1]["best"], rel=1e-5)


def _read(path):
    from mindgames.data.sets import read_dataset

    return read_dataset(path)


@pytest.mark.parametrize("kill_after", [1, 2])  # inside a phase; just before a phase change
def test_hg_stopped_after_a_checkpoint_resumes_to_the_same_population(tmp_path, kill_after):
    game, evaluator = _kalah()
    whole = HGLearner(**HG_TINY).train(game, evaluator, np.random.default_rng(3),
                                       workdir=tmp_path / "whole")  # fmt: skip

    def stop(row):
        if row["generation"] == kill_after + 1:  # a row is reported before its checkpoint
            raise KeyboardInterrupt  # as a kill after generation kill_after's checkpoint

    (tmp_path / "killed").mkdir()
    game, evaluator = _kalah()
    with pytest.raises(KeyboardInterrupt):
        HGLearner(**HG_TINY).train(game, evaluator, np.random.default_rng(3),
                                   workdir=tmp_path / "killed", progress=stop)  # fmt: skip
    game, evaluator = _kalah()
    resumed = HGLearner(**HG_TINY).train(game, evaluator, np.random.default_rng(99),
                                         workdir=tmp_path / "killed", resume=True)  # fmt: skip
    np.testing.assert_array_equal(
        whole.evaluator.model.get_params(), resumed.evaluator.model.get_params()
    )
    assert untimed(whole.history) == untimed(resumed.history)


def test_hg_with_sharing_and_reuse_runs(tmp_path):
    game, evaluator = _kalah()
    learner = HGLearner(**{**HG_TINY, "sharing": True, "reuse": True, "current_share": 0.5})
    rows = learner.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path).history
    assert rows[-1]["boards"] == 30 and rows[-1]["phase"] == 2


def test_shg_runs_on_kalah_the_same_serial_or_in_a_process_pool(tmp_path):
    game, evaluator = _kalah()
    serial = SHGLearner(**SHG_TINY).train(game, evaluator, np.random.default_rng(2),
                                          workdir=tmp_path / "serial")  # fmt: skip
    game, evaluator = _kalah()
    pooled = SHGLearner(**SHG_TINY, workers=2).train(game, evaluator, np.random.default_rng(2),
                                                     workdir=tmp_path / "pooled")  # fmt: skip
    np.testing.assert_array_equal(
        serial.evaluator.model.get_params(), pooled.evaluator.model.get_params()
    )
    assert untimed(serial.history) == untimed(pooled.history)
    rows = serial.history
    # tournaments of two: three comparisons of two games per step
    assert [r["games"] for r in rows] == [12, 24]
    assert all(r["effective"] == 1.0 for r in rows)
    assert np.linalg.norm(serial.evaluator.model.get_params()) == pytest.approx(1.0)


def test_both_generators_accept_checkers_with_a_linear_evaluator(tmp_path):
    registry = get_registry()
    game = registry.game("checkers")
    table = {"model": "linear", "encoding": "raw32"}
    evaluator = build_evaluator(registry, game, table, seed=1)
    shg = SHGLearner(population=3, generations=1, steps=1, search="alphabeta:depth=1",
                     max_plies=20)  # fmt: skip
    rows = shg.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path).history
    assert rows[0]["games"] == 6
    hg = HGLearner(population=3, generations=1, phases=1, plies=(10, 14), boards=8,
                   first_label="endgame:depth=2")  # fmt: skip
    rows = hg.train(game, evaluator, np.random.default_rng(1), workdir=tmp_path / "hg").history
    assert rows[0]["boards"] == 8


DOCS = Path(__file__).parents[2] / "docs" / "learners.md"


def _docs_config() -> str:
    """The TOML example of docs/learners.md's HG section (the doc stays true: it is run)."""
    section = DOCS.read_text(encoding="utf-8").split("## `hg` and `shg`")[1]
    return section.split("```toml\n")[1].split("```")[0]


HG_CONFIG = _docs_config()


def test_train_hg_from_the_command_line_writes_a_model_that_plays(tmp_path):
    config = tmp_path / "hg.toml"
    config.write_text(HG_CONFIG, encoding="utf-8")
    out = cli.run("train", config, "--out", tmp_path / "run", "--quiet")
    assert out.returncode == 0, out.stderr
    assert [row["phase"] for row in read_history(tmp_path / "run")] == [1, 2]
    agent = f"alphabeta:depth=2,eval=@{tmp_path / 'run' / 'model.npz'}"
    played = cli.run("analyse", KALAH, "--agent", agent, "--json")
    assert played.returncode == 0, played.stderr
    assert "move" in json.loads(played.stdout)


def test_the_curve_of_an_hg_run_counts_generations_not_games(tmp_path):
    config, out = tmp_path / "hg.toml", tmp_path / "run"
    config.write_text(HG_CONFIG, encoding="utf-8")
    assert cli.run("train", config, "--out", out, "--quiet").returncode == 0
    shown = cli.run("curve", out, "--vs", "random", "--games", "2")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1].split()[0] == "generation"  # the unit heads the table
    lines = [json.loads(x) for x in cli.run("curve", out, "--vs", "random", "--games", "2",
                                             "--json").stdout.splitlines()]  # fmt: skip
    # one point per generation, the final model being the last one's snapshot, timed by its row
    assert [(line["games"], line["unit"]) for line in lines] == [
        (1, "generation"),
        (2, "generation"),
    ]
    # each point carries the training time its history row recorded: a copy, nothing timed here
    recorded = [row["elapsed"] for row in read_history(out)]
    copied = [line["seconds"] for line in lines]
    assert copied == recorded
    _, panels = panels_for(out / "curve.jsonl")
    assert {panel.xlabel for panel in panels} == {"generation"}


def test_a_labeller_with_its_own_evaluator_is_refused_before_any_work(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text(
        HG_CONFIG.replace('"alphabeta:depth=2"', '"alphabeta:depth=2,eval=material"'),
        encoding="utf-8",
    )
    out = cli.run("train", config, "--out", tmp_path / "run")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "previous best" in out.stderr
    assert not (tmp_path / "run" / "stages").exists()


def test_describe_lists_the_options_of_both(tmp_path):
    for name, option in (("hg", "boards"), ("shg", "search")):
        out = cli.run("describe", name)
        assert out.returncode == 0, out.stderr
        assert option in out.stdout


def test_training_in_process_through_run(tmp_path):
    config = tmp_path / "shg.toml"
    text = HG_CONFIG.replace('name = "hg"', 'name = "shg"').split("population")[0]
    config.write_text(text + "population = 4\ngenerations = 1\nsteps = 1\n"
                      'search = "alphabeta:depth=1"\n', encoding="utf-8")  # fmt: skip
    done = run(config, out=tmp_path / "run")
    assert [row["games"] for row in read_history(done.directory)] == [6]
