"""The co-evolution learner: its operators (self-adaptive mutation, king steps, scoring,
survivors, opponents), its games as pure tasks, checkpoints and resume, and the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.agent import build_evaluator
from mindgames.errors import ConfigError
from mindgames.files import read_npz
from mindgames.play.openings import Opening
from mindgames.play.task import START, Player, game_between, play_task
from mindgames.plugins.learners.coevolution import CoevolutionLearner, evolve
from mindgames.registry import get_registry
from mindgames.training import read_history, run, snapshots
from tests.support.history import untimed

from support import cli

TINY = """
game = "kalah:pits=3,seeds=2"
seed = 3

[eval]
model = "mlp"
encoding = "kalah14"
hidden = [4]

[learner]
name = "coevolution"
generations = 2
parents = 3
games = 2
search = "alphabeta:depth=2"
"""


def test_tau_is_one_over_the_root_of_two_root_n():
    assert evolve.tau(5046) == pytest.approx(1 / math.sqrt(2 * math.sqrt(5046)))
    assert evolve.tau(1) == pytest.approx(1 / math.sqrt(2))


def test_mutation_draws_the_step_sizes_first_then_moves_the_weights_with_the_new_ones():
    weights, sigmas = np.arange(6.0), np.full(6, 0.05)
    new_w, new_s = evolve.mutate(weights, sigmas, np.random.default_rng(7))
    draws = np.random.default_rng(7)
    first, second = draws.standard_normal(6), draws.standard_normal(6)
    expected_s = sigmas * np.exp(evolve.tau(6) * first)
    np.testing.assert_allclose(new_s, expected_s)
    np.testing.assert_allclose(new_w, weights + expected_s * second)
    assert not np.allclose(new_s, sigmas)


@given(st.floats(1.0, 3.0), st.integers(0, 2**32 - 1))
def test_the_king_value_steps_at_most_a_tenth_and_stays_in_its_bounds(king, seed):
    new = evolve.mutate_king(king, 0.1, (1.0, 3.0), np.random.default_rng(seed))
    assert 1.0 <= new <= 3.0
    assert abs(new - king) <= 0.1 + 1e-12


def test_the_king_value_is_clipped_at_the_bounds():
    rng = np.random.default_rng(0)
    values = [evolve.mutate_king(1.0, 0.1, (1.0, 3.0), rng) for _ in range(200)]
    assert min(values) == 1.0 and max(values) > 1.0
    values = [evolve.mutate_king(3.0, 0.1, (1.0, 3.0), rng) for _ in range(200)]
    assert max(values) == 3.0 and min(values) < 3.0


def test_a_win_scores_one_a_draw_nothing_and_a_loss_minus_two_for_both_players():
    points = evolve.Points()
    assert (points.of(1.0), points.of(0.5), points.of(0.0)) == (1.0, 0.0, -2.0)
    games = [evolve.Pairing(0, 1), evolve.Pairing(1, 2), evolve.Pairing(2, 0)]
    scores = evolve.tally(3, games, [1.0, 0.5, 0.0], points)
    # game 1: 0 beats 1; game 2: 1 and 2 draw; game 3: 2 loses to 0
    np.testing.assert_array_equal(scores, [2.0, -2.0, -2.0])


def test_the_best_survive_and_ties_go_to_the_parent():
    scores = np.array([1.0, 5.0, -2.0, 5.0, 3.0, 1.0])
    assert list(evolve.survivors(scores, 3)) == [1, 3, 4]
    assert list(evolve.survivors(scores, 4)) == [1, 3, 4, 0]


def test_the_best_parent_is_the_best_of_the_first_rows_with_ties_to_the_lower_index():
    scores = np.array([1.0, 3.0, 3.0, 9.0, 9.0])  # rows 3 and 4 are offspring
    assert evolve.best_parent(scores, 3) == 1
    assert evolve.best_parent(scores, 5) == 3


def test_opponents_are_drawn_from_the_others_only():
    opponents = evolve.draw_opponents(4, 50, np.random.default_rng(1))
    assert opponents.shape == (4, 50)
    for i in range(4):
        assert i not in opponents[i]
        assert set(opponents[i]) == set(range(4)) - {i}


def test_the_published_schedule_draws_only_the_opponents():
    drawn, scheduled = np.random.default_rng(4), np.random.default_rng(4)
    opponents = evolve.draw_opponents(6, 5, drawn)
    pairings = evolve.schedule(6, 5, 1, False, scheduled)
    expected = [(i, int(j)) for i in range(6) for j in opponents[i]]
    assert [(p.first, p.second) for p in pairings] == expected
    assert {p.opening for p in pairings} == {0}
    assert drawn.bit_generator.state == scheduled.bit_generator.state  # the stream goes on alike


@given(st.integers(2, 8), st.integers(1, 6), st.integers(1, 200), st.integers(0, 2**32))
def test_paired_meetings_swap_the_colours_from_one_opening(size, games, openings, seed):
    pairings = evolve.schedule(size, games, openings, True, np.random.default_rng(seed))
    assert len(pairings) == 2 * size * games
    for there, back in zip(pairings[::2], pairings[1::2], strict=True):
        assert (back.first, back.second) == (there.second, there.first)
        assert back.opening == there.opening and 0 <= there.opening < openings
        assert there.first != there.second
    assert [p.first for p in pairings[::2]] == [i for i in range(size) for _ in range(games)]


def test_openings_are_drawn_uniformly_for_each_meeting():
    pairings = evolve.schedule(10, 20, 4, False, np.random.default_rng(2))
    counts = np.bincount([p.opening for p in pairings], minlength=4)
    assert counts.sum() == 200 and counts.min() > 30  # 50 expected each


def test_a_game_starts_from_its_opening():
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=2")
    evaluator = build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14"}, seed=1)
    model = evaluator.model
    side = Player("alphabeta:depth=2", model.name, model.config(), "kalah14", model.arrays())

    def play(opening):
        record = play_task(game_between(0, game.spec(), side, side, 1, 50, opening).as_dict())
        return {"score": record["score"], "plies": record["plies"]}

    # South sows its last seed into its store; its row is empty, so the game ends: North
    # sweeps 2 seeds (South wins 8-4) or 6 (North wins 8-4)
    assert play(Opening("won", "0,0,1;7;1,0,0;2;S")) == {"score": 1.0, "plies": 1}
    assert play(Opening("lost", "0,0,1;3;2,2,2;2;S")) == {"score": 0.0, "plies": 1}
    assert play(START)["plies"] > 1


def _learner(**options):
    base = {"generations": 2, "parents": 3, "games": 2, "search": "alphabeta:depth=2"}
    return CoevolutionLearner(**{**base, **options})


def _train(tmp_path, name, learner, seed=5, resume=False, progress=None):
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=2")
    evaluator = build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14"}, seed=1)
    workdir = tmp_path / name
    workdir.mkdir(exist_ok=True)
    result = learner.train(
        game, evaluator, np.random.default_rng(seed), workdir=workdir, resume=resume,
        progress=progress,
    )  # fmt: skip
    return result


def test_same_seed_same_result_serial_or_in_a_process_pool(tmp_path):
    serial = _train(tmp_path, "serial", _learner())
    pooled = _train(tmp_path, "pooled", _learner(workers=2))
    np.testing.assert_array_equal(
        serial.evaluator.model.get_params(), pooled.evaluator.model.get_params()
    )
    assert untimed(serial.history) == untimed(pooled.history)
    assert [row["generation"] for row in serial.history] == [1, 2]
    assert [row["games"] for row in serial.history] == [12, 24]
    assert all(row["sigma_min"] > 0 for row in serial.history)


def test_paired_games_from_random_openings_count_twice_and_reproduce(tmp_path):
    options = {"paired": True, "openings": "random:plies=2,count=4"}
    serial = _train(tmp_path, "serial", _learner(**options))
    pooled = _train(tmp_path, "pooled", _learner(workers=2, **options))
    assert untimed(serial.history) == untimed(pooled.history)
    assert [row["games"] for row in serial.history] == [24, 48]  # 6 players x 2 meetings x 2
    firsts = [row["first_wins"] + row["draws"] + row["first_losses"] for row in serial.history]
    assert firsts == [24, 24]
    published = _train(tmp_path, "published", _learner())
    assert untimed(published.history) != untimed(serial.history)


@pytest.mark.parametrize(
    ("openings", "message"),
    [
        ("book:name=acf-3move", "'coevolution': openings: game 'kalah' has no book 'acf-3move'"),
        ("ballots", "'coevolution': openings: unknown kind 'ballots'"),
    ],
)
def test_bad_openings_are_refused_before_any_game(tmp_path, openings, message):
    config = tmp_path / "bad.toml"
    config.write_text(TINY + f"openings = {openings!r}\n", encoding="utf-8")
    out = cli.run("train", config, "--out", tmp_path / "run")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert message in out.stderr
    assert not (tmp_path / "run" / "history.jsonl").exists()


@pytest.mark.parametrize(
    "options", [{}, {"paired": True, "openings": "random:plies=2,count=4"}], ids=["start", "random"]
)
def test_a_run_stopped_after_a_checkpoint_resumes_to_the_same_weights(tmp_path, options):
    whole = _train(tmp_path, "whole", _learner(generations=3, **options))

    def stop(row):  # a row is reported before its checkpoint
        if row["generation"] == 2:
            raise KeyboardInterrupt  # as a kill after the first generation's checkpoint

    with pytest.raises(KeyboardInterrupt):
        _train(tmp_path, "killed", _learner(generations=3, **options), progress=stop)
    # another generator: the checkpoint holds the random state and the openings' seed
    resumed = _train(tmp_path, "killed", _learner(generations=3, **options), seed=999, resume=True)
    np.testing.assert_array_equal(
        whole.evaluator.model.get_params(), resumed.evaluator.model.get_params()
    )
    assert untimed(whole.history) == untimed(resumed.history)


def test_a_checkpoint_written_before_an_option_existed_resumes_with_its_default(tmp_path):
    from mindgames.files import read_npz, write_npz

    whole = _train(tmp_path, "whole", _learner(generations=3))

    def stop(row):  # a row is reported before its checkpoint
        if row["generation"] == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _train(tmp_path, "old", _learner(generations=3), progress=stop)
    path = tmp_path / "old" / "checkpoint.npz"
    meta, arrays = read_npz(path, "checkpoint")
    for added in ("openings", "paired"):  # options added after version 1 was first written
        del meta["options"][added]
    write_npz(path, meta, arrays)
    resumed = _train(tmp_path, "old", _learner(generations=3), resume=True)
    assert untimed(resumed.history) == untimed(whole.history)
    meta["options"]["games"] = 3  # an option that differs is still refused
    write_npz(path, meta, arrays)
    with pytest.raises(ConfigError, match="other coevolution options"):
        _train(tmp_path, "old", _learner(generations=3), resume=True)


def test_the_king_value_evolves_into_the_encoding_of_the_best(tmp_path):
    registry = get_registry()
    game = registry.game("checkers")
    table = {"model": "mlp", "encoding": "raw32", "hidden": [2]}
    evaluator = build_evaluator(registry, game, table, seed=1)
    learner = CoevolutionLearner(
        generations=1, parents=2, games=1, search="alphabeta:depth=1", max_plies=20,
        king_option="king", king_step=0.5,
    )  # fmt: skip
    result = learner.train(game, evaluator, np.random.default_rng(2), workdir=tmp_path)
    king = result.history[-1]["king"]
    assert 1.0 <= king <= 3.0
    assert result.evaluator.encoding.name == f"raw32:king={king!r}" or king == 2.0


def test_an_encoding_without_the_evolving_option_is_refused_before_any_game(tmp_path):
    with pytest.raises(ConfigError, match="king"):
        _train(tmp_path, "bad", _learner(king_option="king"))
    assert not (tmp_path / "bad" / "checkpoint.npz").exists()


def test_train_writes_history_snapshots_and_a_model_that_plays(tmp_path):
    config = tmp_path / "tiny.toml"
    config.write_text(TINY, encoding="utf-8")
    done = run(config, out=tmp_path / "run")
    assert [row["generation"] for row in read_history(done.directory)] == [1, 2]
    assert [games for games, _ in snapshots(done.directory)] == [0, 12, 24]
    agent = f"alphabeta:depth=2,eval=@{done.model_path}"
    out = cli.run("analyse", "kalah:pits=3,seeds=2", "--agent", agent, "--json")
    assert out.returncode == 0, out.stderr
    assert "move" in json.loads(out.stdout)


def test_a_non_parametric_evaluator_is_refused_before_any_game_naming_both(tmp_path):
    config = tmp_path / "bad.toml"
    bad = TINY.replace('model = "mlp"\nencoding = "kalah14"\nhidden = [4]', 'model = "material"')
    assert bad != TINY
    config.write_text(bad, encoding="utf-8")
    out = cli.run("train", config, "--out", tmp_path / "run")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "learner 'coevolution' needs a parametric model" in out.stderr
    assert "model 'material'" in out.stderr
    assert not (tmp_path / "run" / "history.jsonl").exists()


def test_snapshot_zero_is_a_parent_of_generation_zero(tmp_path):
    from mindgames.modelfile import load_evaluator

    learner = _learner(generations=1)
    result = _train(tmp_path, "gen0", learner, seed=7)
    assert result.evaluator is not None
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=2")
    # parent 0 starts as the evaluator's weights; parents 1.. as the run's generator drew them
    evaluator = build_evaluator(registry, game, {"model": "mlp", "encoding": "kalah14"}, seed=1)
    initial = learner._initial(evaluator, game, np.random.default_rng(7))
    _, zero, _ = load_evaluator(tmp_path / "gen0" / "snapshots" / "000000000.npz", registry)
    saved = zero.model.get_params()
    rows = [evaluator.model.get_params(), *initial.weights[1:]]
    assert any(np.array_equal(saved, row) for row in rows)


def test_a_shorter_run_ends_with_the_snapshot_a_longer_one_took_at_that_generation(tmp_path):
    from mindgames.modelfile import load_evaluator

    short = _train(tmp_path, "short", _learner(generations=2))
    _train(tmp_path, "long", _learner(generations=3, checkpoint_every=1))
    kept = dict(snapshots(tmp_path / "long"))[24]  # 2 generations x 6 players x 2 games
    _, evaluator, _ = load_evaluator(kept, get_registry())
    np.testing.assert_array_equal(evaluator.model.get_params(), short.evaluator.model.get_params())


def test_the_checkers_example_runs_shrunk_with_the_published_net(tmp_path):
    from support.examples import shrunk

    config, raw = shrunk(
        "checkers-coevolution.toml", tmp_path, generations=1, parents=2, games=1, max_plies=4,
        workers=1,
    )  # fmt: skip
    assert raw["eval"]["hidden"] == [91, 40, 10] and raw["eval"]["input_sum"] is True
    assert raw["learner"]["king_option"] == "king"
    assert raw["learner"]["paired"] is True and raw["learner"]["openings"].startswith("random:")
    done = run(config, out=tmp_path / "cc")
    assert [games for games, _ in snapshots(done.directory)] == [0, 8]  # 4 players x 1 x 2
    (row,) = read_history(done.directory)
    assert row["mean_plies"] == 4 and 1.0 <= row["king"] <= 3.0


class _Stop(Exception):
    pass


def test_a_run_resumes_with_other_workers_to_the_same_population(tmp_path):
    """Where the games run is no part of the result: a run stopped on a pool of 2 processes
    (``train --workers 2``) resumes in this process and ends where the serial run ends; any
    other change of the config is still refused, and a learner that has no workers says so."""
    config = tmp_path / "tiny.toml"
    config.write_text(TINY.replace("generations = 2", "generations = 3"), encoding="utf-8")
    whole = run(config, out=tmp_path / "whole")

    def stop_at_two(row):  # the first generation's checkpoint is written, not the second's
        if row["generation"] == 2:
            raise _Stop

    with pytest.raises(_Stop):
        run(config, out=tmp_path / "cut", placement={"workers": 2}, progress=stop_at_two)
    saved, _ = read_npz(tmp_path / "cut" / "checkpoint.npz", "checkpoint")
    assert saved["generation"] == 1 and saved["options"]["workers"] == 2
    started = json.loads((tmp_path / "cut" / "config.json").read_text(encoding="utf-8"))
    assert started["config"]["learner"]["workers"] == 2
    resumed = run(config, out=tmp_path / "cut", resume=True)
    np.testing.assert_array_equal(
        resumed.result.evaluator.model.get_params(), whole.result.evaluator.model.get_params()
    )
    assert untimed(read_history(tmp_path / "cut")) == untimed(read_history(tmp_path / "whole"))
    with pytest.raises(ConfigError, match="another config or seed"):
        run(config, out=tmp_path / "cut", resume=True, seed=4, placement={"workers": 2})
    td = tmp_path / "td.toml"
    td.write_text(TINY.split("[learner]")[0] + '[learner]\nname = "td"\ngames = 2\n')
    assert cli.run("train", td, "--out", tmp_path / "td-1").returncode == 0
    refused = cli.run("train", td, "--out", tmp_path / "td", "--workers", "2")
    cli.one_line_error(refused, "learner 'td' has no 'workers' option: it runs in one process")
    assert not (tmp_path / "td" / "config.json").exists()
