"""``mindgames plot`` on tiny real runs: a TD run (with its curve), a tournament, a curve file."""

from __future__ import annotations

import os
import struct
import subprocess
import xml.etree.ElementTree as ET

import matplotlib  # noqa: F401  (the dev extra installs it: a missing plot extra fails, never skips)
import pytest
from click.testing import CliRunner

from mindgames.cli.main import cli
from mindgames.measure.curve import CurveSettings, measure
from mindgames.measure.plotdata import history_panels
from mindgames.play.tournament import load_config, plan, run_tournament
from mindgames.registry import get_registry
from mindgames.training import read_history, run

from support.cli import command, environment, one_line_error

# TD in the cloning regime; with clone_points = 0 the clone copies the learner after every batch
TD = """\
game = "kalah:pits=3,seeds=3"
seed = 1
eval = { model = "mlp", encoding = "kalah14", hidden = [5] }
learner = { name = "td", games = 60, batch = 20, checkpoint_every = 30, regime = "clone", \
clone_points = 0 }
"""
TOURNAMENT = """\
game = "kalah:pits=3,seeds=3"
seed = 1
openings = "random:plies=1,count=2"

[agents]
random = "random"
greedy = "greedy:eval=material"
ab2 = "alphabeta:depth=2,eval=material"
"""


@pytest.fixture(scope="module")
def td_run(tmp_path_factory):
    """A tiny TD run in the cloning regime whose clone copies the learner every batch."""
    base = tmp_path_factory.mktemp("plot-td")
    (base / "td.toml").write_text(TD, encoding="utf-8")
    return run(base / "td.toml", out=base / "run").directory


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    base = tmp_path_factory.mktemp("plot-tournament")
    (base / "t.toml").write_text(TOURNAMENT, encoding="utf-8")
    checked = plan(load_config(base / "t.toml"), get_registry())
    return run_tournament(checked, base / "t", workers=1).directory


def mindgames(*args, cwd=None):
    """``mindgames ARGS`` in this process (the command's own code, exit code and one-line
    errors); the console script in a subprocess is run by the first and last tests."""
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        result = CliRunner().invoke(cli, [str(a) for a in args])
    finally:
        os.chdir(old)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def console(*args, **env):
    """``mindgames ARGS`` as the console script, in a subprocess."""
    return subprocess.run(
        command(*map(str, args)),
        capture_output=True,
        text=True,
        env=environment(**env),
        timeout=120,
    )


def png_size(path):
    """Width and height of a PNG, after checking its signature and header chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert data.rstrip(b"\x00")[-8:-4] == b"IEND"
    return width, height


def svg_axes(path):
    """The axes groups matplotlib wrote into an SVG (which must parse as XML)."""
    svg = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    assert root.tag == f"{svg}svg"
    return [g for g in root.iter(f"{svg}g") if g.get("id", "").startswith("axes_")]


def plot(source, out):
    done = mindgames("plot", source, "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.exists()
    return done.stdout


def test_a_td_run_is_drawn_as_png_and_svg_with_one_axes_per_group_of_columns(td_run, tmp_path):
    done = console("plot", td_run, "-o", tmp_path / "td.png")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "training run, 4 axes (scores; game length; schedule; saturation)" in out
    width, height = png_size(tmp_path / "td.png")
    assert width > 300 and height > 300
    plot(td_run, tmp_path / "td.svg")
    assert len(svg_axes(tmp_path / "td.svg")) == 4


def test_clone_events_of_the_history_are_markers_on_every_panel(td_run):
    rows = read_history(td_run)
    panels = history_panels(rows)
    cloned = [float(r["games"]) for r in rows if r["cloned"]]
    assert cloned  # clone_points = 0: the clone copies the learner after every batch
    for panel in panels:
        assert [x for x, what in panel.events if what == "clone"] == cloned


LAYERED = """\
game = "kalah:pits=4,seeds=3"
seed = 2
eval = { model = "mlp", encoding = "kalah14", hidden = [4] }
learner = { name = "layered", stages = 2, width = 6, positions = 20, test_positions = 8, \
deepest = "solve", generations = 2, population = 4, fit = { epochs = 10, min_epochs = 5 } }
"""


def test_a_layered_run_shows_its_errors_and_data_with_its_stages_as_events(tmp_path):
    (tmp_path / "ll.toml").write_text(LAYERED, encoding="utf-8")
    rows = read_history(run(tmp_path / "ll.toml", out=tmp_path / "run").directory)
    panels = {p.title: p for p in history_panels(rows)}
    assert list(panels) == ["error", "data"]  # stage counters and times are not series
    assert {s.label for s in panels["data"].series} == {"train", "test"}  # set sizes, not scores
    assert all(s.label.endswith("_mse") for s in panels["error"].series)
    second = next(r["generation"] for r in rows if r["stage"] == 2)
    assert panels["error"].events == ((float(second), "new stage"),)
    assert panels["error"].xlabel == "generation"


def test_a_td_gate_is_a_score_and_a_new_best_net_an_event():
    rows = [
        {"games": 100, "gate": 0.4, "kept": False, "mean_plies": 30.0},
        {"games": 200, "gate": 0.6, "kept": True, "mean_plies": 31.0},
    ]
    panels = {p.title: p for p in history_panels(rows)}
    assert [s.label for s in panels["scores"].series] == ["gate"]
    assert panels["scores"].events == ((200.0, "gate: new best net"),)


def test_coevolution_results_are_not_errors():
    row = {"generation": 1, "games": 10, "best": 3.0, "mean": -1.0, "first_wins": 5, "draws": 1,
           "first_losses": 4, "mean_plies": 30.0, "offspring_kept": 2, "sigma_mean": 0.05,
           "seconds": 1.0, "elapsed": 1.0}  # fmt: skip
    panels = {p.title: [s.label for s in p.series] for p in history_panels([row, row])}
    assert panels == {
        "scores": ["best", "mean"],
        "game length": ["mean_plies"],
        "results": ["draws", "first_losses", "first_wins"],
        "schedule": ["sigma_mean"],
        "other": ["offspring_kept"],
    }


def test_a_run_with_its_learning_curve_adds_the_elo_panels(td_run, tmp_path):
    measure(td_run, CurveSettings(vs="greedy:eval=material", match_games=4), workers=1)
    out = plot(td_run, tmp_path / "run.svg")
    assert "6 axes" in out and "Elo over training" in out
    assert len(svg_axes(tmp_path / "run.svg")) == 6
    out = plot(td_run / "curve.jsonl", tmp_path / "curve.png")
    assert "curve, 2 axes" in out
    png_size(tmp_path / "curve.png")
    plot(td_run / "curve.jsonl", tmp_path / "curve.svg")
    assert len(svg_axes(tmp_path / "curve.svg")) == 2


def test_a_tournament_is_a_heat_map_and_standings_with_intervals(tournament, tmp_path):
    out = plot(tournament, tmp_path / "t.png")
    assert "tournament, 2 axes (crosstable" in out
    png_size(tmp_path / "t.png")
    plot(tournament / "report.json", tmp_path / "t.svg")
    svg = (tmp_path / "t.svg").read_text(encoding="utf-8")
    assert len(svg_axes(tmp_path / "t.svg")) == 2
    for agent in ("random", "greedy", "ab2"):
        assert agent in svg  # tick labels of both panels


def test_without_an_output_the_picture_goes_into_the_run_directory(tournament):
    plot_file = tournament / "plot.png"
    done = mindgames("plot", tournament)
    assert done.returncode == 0, done.stderr
    png_size(plot_file)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-dir"], "no such file or directory"),
        (["."], "nothing to plot"),
        (["@TD", "-o", "x.pdf"], "must end in .png or .svg"),
        (["@TD", "-o", "no/such/dir/x.png"], "no such directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(td_run, tmp_path, args, message):
    args = [str(td_run) if a == "@TD" else a for a in args]
    done = mindgames("plot", *args, cwd=tmp_path)
    one_line_error(done, message)
    assert not list(tmp_path.iterdir())


def test_a_broken_history_is_one_line(tmp_path):
    (tmp_path / "history.jsonl").write_text('{"loss": 1}\n{"loss": 2}\n', encoding="utf-8")
    one_line_error(mindgames("plot", tmp_path, "-o", tmp_path / "x.png"), "no work count")
    (tmp_path / "history.jsonl").write_text("{oops\n{}\n", encoding="utf-8")
    one_line_error(mindgames("plot", tmp_path, "-o", tmp_path / "x.png"), "not a JSON record")
    assert not (tmp_path / "x.png").exists()


def test_without_matplotlib_plot_names_the_extra_to_install(td_run, tmp_path):
    """A package named matplotlib that fails to import stands for a missing one."""
    blocker = tmp_path / "blocker" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('blocked for the test')\n")
    done = console("plot", td_run, "-o", tmp_path / "x.png", PYTHONPATH=str(blocker.parent))
    one_line_error(done, "install the plot extra", "mindgames[plot]")
    assert not (tmp_path / "x.png").exists()
