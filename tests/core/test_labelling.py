"""Labelling data sets: search values and exact solutions as labels, executors, resume."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.data.labelling import Labeller, journal_path, run_labelling, search_label
from mindgames.data.playouts import generate
from mindgames.data.sets import DataSet, read_dataset, write_dataset
from mindgames.errors import CapabilityError, ConfigError, MindgamesError
from mindgames.executors import SerialExecutor, open_executor
from mindgames.registry import get_registry

from support.processes import sigkill_when

MAIN = "from mindgames.cli.main import main; main()"
#: X to move can win at once (cells 1-2 are X); the empty board is unresolved at depth 1
WIN_NOW = "XX.OO.... x"
EMPTY = "......... x"
#: O to move, X threatens two lines: O loses in two plies whatever it does
LOST = "XX.XOO... o"


def tictactoe(positions: list[str]) -> DataSet:
    return DataSet("tictactoe", positions, range(len(positions)), [4] * len(positions))


def test_a_forced_win_inside_the_horizon_is_a_win_and_unresolved_is_zero(registry, tmp_path):
    data = tictactoe([WIN_NOW, EMPTY, LOST, "XXXOO.... o"])
    labeller = Labeller("search", "tictactoe", agent="endgame:depth=3")
    done = run_labelling(data, labeller, tmp_path / "l.npz", SerialExecutor(), registry=registry)
    assert done.labels is not None
    win, unresolved, lost, over = done.labels.tolist()
    assert 0.99 < win <= 1.0
    assert unresolved == 0.0
    assert -1.0 <= lost < -0.99 and lost > -win  # a later loss is less extreme than a quick win
    assert over == -1.0  # finished: O to move has lost
    assert read_dataset(tmp_path / "l.npz").labels.tolist() == done.labels.tolist()
    assert not journal_path(tmp_path / "l.npz").exists()


def test_search_labels_keep_heuristic_values_and_map_proven_ones():
    assert search_label(0.25) == 0.25
    assert search_label(2.0 - 3 / 4096) == pytest.approx(1.0 - 3 / 4096)
    assert search_label(-2.0 + 5 / 4096) == pytest.approx(-1.0 + 5 / 4096)
    assert search_label(search_label(1.2)) == 1.0


def test_solve_labels_are_the_mapped_exact_margin(tmp_path):
    from mindgames.registry import get_registry

    game = get_registry().game("kalah:pits=3,seeds=2")
    position = "0,1,2;3;1,0,1;4;S"
    data = DataSet(game.spec(), [position], [0], [9])
    margin = game.solve(game.parse_position(position))
    for squash, expected in (("tanh", math.tanh(margin / 4)), ("linear", margin / 4)):
        labeller = Labeller("solve", game.spec(), scale=4.0, squash=squash)
        out = tmp_path / f"{squash}.npz"
        done = run_labelling(data, labeller, out, SerialExecutor())
        assert done.labels.tolist() == [pytest.approx(expected)]


def test_a_game_that_cannot_solve_is_refused(registry, tmp_path):
    data = tictactoe([EMPTY])
    labeller = Labeller("solve", "tictactoe")
    with pytest.raises(CapabilityError, match="cannot solve"):
        run_labelling(data, labeller, tmp_path / "x.npz", SerialExecutor(), registry=registry)
    assert not (tmp_path / "x.npz").exists()


def test_labels_do_not_depend_on_the_workers(tmp_path):
    runner = CliRunner()
    source = tmp_path / "k.npz"
    made = runner.invoke(cli, ["data", "generate", "kalah:pits=4,seeds=3", "--plies", "6-12",
                               "--count", "24", "--seed", "2", "-o", str(source)])  # fmt: skip
    assert made.exit_code == 0, made.output
    labels = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}.npz"
        args = ["data", "label", str(source), "--agent", "alphabeta:depth=3,eval=material",
                "--workers", str(workers), "-o", str(out), "--quiet"]  # fmt: skip
        done = runner.invoke(cli, args)
        assert done.exit_code == 0, done.output
        labels.append(read_dataset(out).labels.tolist())
    assert labels[0] == labels[1]


def test_label_and_solve_make_the_output_directory_as_generate_does_once_the_input_is_good(
    tmp_path,
):
    runner = CliRunner()
    source = tmp_path / "a" / "k.npz"
    made = runner.invoke(cli, ["data", "generate", "kalah:pits=3,seeds=2", "--plies", "2-6",
                               "--count", "4", "-o", str(source)])  # fmt: skip
    assert made.exit_code == 0, made.output
    for command, extra in (("label", ["--agent", "random"]), ("solve", [])):
        out = tmp_path / command / "l.npz"
        args = ["data", command, str(source), *extra, "--workers", "1", "-o", str(out), "--quiet"]
        done = runner.invoke(cli, args)
        assert done.exit_code == 0, done.output
        assert len(read_dataset(out)) == 4 and not journal_path(out).exists()
    bad = runner.invoke(cli, ["data", "label", str(source), "--agent", "nosuch", "-o",
                              str(tmp_path / "never" / "l.npz")])  # fmt: skip
    assert bad.exit_code == 2 and not (tmp_path / "never").exists()


def test_generate_gives_distinct_positions_in_the_ply_range_and_is_seeded(tmp_path):
    runner = CliRunner()
    files = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.npz"
        args = ["data", "generate", "kalah", "--plies", "10-20", "--count", "50", "--seed", "4",
                "--agents", "random,greedy:eval=material", "-o", str(out)]  # fmt: skip
        done = runner.invoke(cli, args)
        assert done.exit_code == 0, done.output
        files.append(read_dataset(out))
    a, b = files
    assert len(set(a.positions.tolist())) == 50
    assert a.plies.min() >= 10 and a.plies.max() <= 20
    assert a.positions.tolist() == b.positions.tolist()
    assert a.provenance["generator"]["agents"] == ["random", "greedy:eval=material"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["generate", "kalah", "--plies", "x", "--count", "3", "-o", "{out}"], "--plies 'x'"),
        (
            ["generate", "kalah", "--plies", "200-300", "--count", "3", "-o", "{out}"],
            "found only 0",
        ),
        (["solve", "{missing}", "-o", "{out}"], "no such data set"),
        (["label", "{truncated}", "--agent", "random", "-o", "{out}"], "not a readable data set"),
        (["describe", "{truncated}"], "not a readable data set"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "truncated.npz").write_bytes(b"PK\x03\x04 cut")
    names = {"missing": tmp_path / "none.npz", "truncated": tmp_path / "truncated.npz",
             "out": tmp_path / "out.npz"}  # fmt: skip
    result = CliRunner().invoke(cli, ["data", *(a.format(**names) for a in args)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert not (tmp_path / "out.npz").exists()


def test_an_interrupted_journal_needs_resume(tmp_path):
    data = DataSet("kalah:pits=3,seeds=2", ["0,1,2;3;1,0,1;4;S"], [0], [9])
    out = tmp_path / "o.npz"
    journal_path(out).write_text('{"header": {}}\n', encoding="utf-8")
    labeller = Labeller("solve", data.game)
    with pytest.raises(ConfigError, match="--resume"):
        run_labelling(data, labeller, out, SerialExecutor())
    with pytest.raises(ConfigError, match="another input or labeller"):
        run_labelling(data, labeller, out, SerialExecutor(), resume=True)


def test_labelling_runs_on_a_process_pool(tmp_path):
    data = DataSet("kalah:pits=3,seeds=2", ["0,1,2;3;1,0,1;4;S", "1,1,1;3;1,0,1;3;N"], [0, 1],
                   [9, 9])  # fmt: skip
    labeller = Labeller("solve", data.game, squash="linear", scale=12.0)
    with open_executor(2) as pool:
        done = run_labelling(data, labeller, tmp_path / "p.npz", pool, workers=2, chunk=1)
    with_serial = run_labelling(data, labeller, tmp_path / "s.npz", SerialExecutor())
    assert done.labels.tolist() == with_serial.labels.tolist()


def journal_lines(path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def test_sigkilled_labelling_resumes_labelling_every_position_exactly_once(tmp_path):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "MINDGAMES_STRICT_PLUGINS": "1"}
    source, whole, cut = tmp_path / "src.npz", tmp_path / "whole.npz", tmp_path / "cut.npz"
    base = [sys.executable, "-c", MAIN, "data"]
    subprocess.run([*base, "generate", "kalah", "--plies", "4-30", "--count", "600", "--seed",
                    "1", "-o", str(source)], env=env, check=True, capture_output=True)  # fmt: skip
    label = [*base, "label", str(source), "--agent", "alphabeta:depth=4,eval=material",
             "--workers", "1", "--quiet"]  # fmt: skip
    subprocess.run([*label, "-o", str(whole)], env=env, check=True, capture_output=True,
                   timeout=300)  # fmt: skip
    journal = journal_path(cut)
    proc = sigkill_when([*label, "-o", str(cut)], lambda: journal_lines(journal) >= 40, env)
    assert proc.returncode == -signal.SIGKILL
    assert not cut.exists()
    lines = [line for line in journal.read_text(encoding="utf-8").split("\n")[1:] if line]
    kept = []
    for line in lines:
        try:
            kept.append(json.loads(line)["index"])
        except json.JSONDecodeError:
            pass  # the torn last line of the kill
    assert 30 <= len(kept) < 600 and len(set(kept)) == len(kept)
    resumed = subprocess.run([*label, "-o", str(cut), "--resume"], env=env, capture_output=True,
                             text=True, timeout=300)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert f"{600 - len(kept)} labelled now, {len(kept)} from the journal" in resumed.stdout
    assert read_dataset(cut).labels.tolist() == read_dataset(whole).labels.tolist()
    assert not journal.exists()


def test_written_labels_go_through_write_dataset(tmp_path):
    write_dataset(tmp_path / "u.npz", tictactoe([EMPTY]))
    assert read_dataset(tmp_path / "u.npz").labels is None
    assert np.isfinite(read_dataset(tmp_path / "u.npz").plies).all()


def test_generate_with_successors_puts_each_positions_children_in_its_group(tmp_path):
    out, plain = tmp_path / "kids.npz", tmp_path / "plain.npz"
    args = ["data", "generate", "kalah", "--plies", "0-200", "--max-pieces", "12", "--count",
            "30", "--seed", "3"]  # fmt: skip
    for path, extra in ((out, ["--successors"]), (plain, [])):
        done = CliRunner().invoke(cli, [*args, *extra, "-o", str(path)])
        assert done.exit_code == 0, done.output
    game = get_registry().game("kalah")
    data, parents = read_dataset(out), read_dataset(plain)
    assert len(set(data.positions.tolist())) == len(data) > len(parents) == 30
    assert data.provenance["generator"]["successors"] is True
    for group in range(30):
        rows = np.flatnonzero(data.groups == group)
        first = rows[0]
        assert data.positions[first] == parents.positions[group]  # the same sample, first
        state = game.parse_position(data.positions[first])
        children = {
            game.position_text(c) for _, c in game.children(state) if not game.is_terminal(c)
        }
        assert set(data.positions[rows[1:]].tolist()) <= children
        assert all(data.plies[rows[1:]] == data.plies[first] + 1)
    assert len(data) - 30 >= 0.9 * sum(  # only successors met before are left out
        sum(not game.is_terminal(c) for _, c in game.children(game.parse_position(p)))
        for p in parents.positions
    )


def test_generate_keeps_only_positions_with_few_pieces(registry, tmp_path):
    out = tmp_path / "few.npz"
    args = ["data", "generate", "kalah", "--plies", "0-200", "--max-pieces", "12", "--count",
            "40", "--seed", "3", "-o", str(out)]  # fmt: skip
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    game = get_registry().game("kalah")
    data = read_dataset(out)
    assert all(game.pieces(game.parse_position(p)) <= 12 for p in data.positions)
    assert data.provenance["generator"]["max_pieces"] == 12
    with pytest.raises(CapabilityError, match="'tictactoe' does not count pieces"):
        generate(registry.game("tictactoe"), 0, 9, 3, np.random.default_rng(0), max_pieces=2)


def test_generate_spreads_positions_evenly_over_a_band_of_pieces(registry, tmp_path):
    out = tmp_path / "spread.npz"
    args = ["data", "generate", "kalah", "--plies", "0-200", "--spread", "3-36", "--count",
            "68", "--successors", "--seed", "3", "-o", str(out)]  # fmt: skip
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    game = get_registry().game("kalah")
    data = read_dataset(out)
    firsts = [int(np.flatnonzero(data.groups == g)[0]) for g in range(68)]
    pieces = [game.pieces(game.parse_position(data.positions[i])) for i in firsts]
    assert pieces == [3 + k % 34 for k in range(68)]  # every count of the band, twice, in turn
    assert data.provenance["generator"]["spread"] == [3, 36]
    both = [*args[:-2], "--max-pieces", "20", "-o", str(tmp_path / "x.npz")]
    refused = CliRunner().invoke(cli, both)
    assert refused.exit_code != 0 and "give --max-pieces or --spread, not both" in refused.output
    with pytest.raises(CapabilityError, match="'tictactoe' does not count pieces .--spread"):
        generate(registry.game("tictactoe"), 0, 9, 3, np.random.default_rng(0), spread=(1, 2))
    with pytest.raises(MindgamesError, match="at plies 0-0 with exactly 47 pieces"):
        generate(game, 0, 0, 2, np.random.default_rng(0), spread=(47, 47))


def test_generate_with_fewer_keeps_what_the_first_plies_offer_instead_of_refusing():
    game = get_registry().game("kalah:pits=3,seeds=2")
    few = generate(game, 0, 1, 50, np.random.default_rng(0), fewer=True)
    assert 1 < len(few) == len(set(few.positions)) <= 4  # the start and its three successors
    with pytest.raises(MindgamesError, match="found only"):
        generate(game, 0, 1, 50, np.random.default_rng(0))
