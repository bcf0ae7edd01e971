"""``mindgames plot RUN RUN ...``: the learning curves of several real runs on shared axes."""

from __future__ import annotations

import json

import pytest

from mindgames.errors import MindgamesError
from mindgames.files import read_jsonl
from mindgames.measure.curve import CurveSettings, measure
from mindgames.measure.plot import CROWDED, _draw_panel, line_style, require_matplotlib
from mindgames.measure.plotdata import CURVE, TIME_AXIS, Panel, Series, comparison_panels
from mindgames.training import run
from tests.core.test_plot import TD, mindgames, png_size, svg_axes
from tests.plugins.test_hg import HG_CONFIG

VS = "greedy:eval=material"
COEVOLUTION = """\
game = "kalah:pits=3,seeds=3"
eval = { model = "mlp", encoding = "kalah14", hidden = [3] }
learner = { name = "coevolution", generations = 2, parents = 3, games = 2, \
search = "alphabeta:depth=1" }
"""


def _trained(base, name, config, seed, vs=VS):
    (base / f"{name}.toml").write_text(config, encoding="utf-8")
    directory = run(base / f"{name}.toml", out=base / name, seed=seed).directory
    measure(directory, CurveSettings(vs=vs, match_games=4), workers=1)
    return directory


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two seeds of a tiny TD run, an HG run (it counts generations) and a TD run measured
    against another reference, each with its curve."""
    base = tmp_path_factory.mktemp("compare")
    return {
        "td1": _trained(base, "td1", TD, 1),
        "co": _trained(base, "co", COEVOLUTION, 1),
        "td2": _trained(base, "td2", TD, 2),
        "hg": _trained(base, "hg", HG_CONFIG, 1),
        "other": _trained(base, "other", TD, 3, vs="random"),
    }


def test_two_seeds_share_the_elo_axis_a_line_each_against_their_unit(runs):
    elo, score = comparison_panels([runs["td1"], runs["td2"]])
    assert [s.label for s in elo.series] == [str(runs["td1"]), str(runs["td2"])]
    assert elo.xlabel == score.xlabel == "games" and VS in elo.title
    for name, series in zip(("td1", "td2"), elo.series, strict=True):
        assert series.low is not None and series.high is not None
        bands = zip(series.low, series.y, series.high, strict=True)
        assert all(lo <= y <= hi for lo, y, hi in bands)
        curve = read_jsonl(runs[name] / CURVE)
        assert series.x == tuple(float(line["games"]) for line in curve)  # its snapshots
        assert series.y == tuple(line["elo"] for line in curve) and series.x[-1] == 60.0
    assert elo.series[0].y != elo.series[1].y or score.series[0].y != score.series[1].y


def test_runs_counting_different_work_are_drawn_against_training_seconds(runs):
    elo, _ = comparison_panels([runs["td1"], runs["hg"]])
    assert elo.xlabel == TIME_AXIS
    # each point's x is the training time its curve line copied from the history: a copy of a
    # record, nothing is timed here
    for name, series in zip(("td1", "hg"), elo.series, strict=True):
        copied = tuple(float(line["seconds"]) for line in read_jsonl(runs[name] / CURVE))
        assert series.x == copied


def test_learners_counting_the_same_unit_still_compare_on_training_seconds(runs):
    # TD's games are its self-play games; co-evolution's are every game of its population
    elo, _ = comparison_panels([runs["td1"], runs["co"]])
    assert elo.xlabel == TIME_AXIS


def test_a_curve_away_from_its_run_is_of_an_unknown_learner_so_drawn_against_seconds(
    runs, tmp_path
):
    (tmp_path / "away.jsonl").write_bytes((runs["td2"] / CURVE).read_bytes())
    elo, _ = comparison_panels([runs["td1"], tmp_path / "away.jsonl"])
    assert elo.xlabel == TIME_AXIS
    lines = read_jsonl(runs["td2"] / CURVE)
    lines[-1]["seconds"] = None  # a learner that records no elapsed
    (tmp_path / "untimed.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(MindgamesError, match="untimed.jsonl: a curve point has no training time"):
        comparison_panels([runs["td1"], tmp_path / "untimed.jsonl"])


def test_curves_against_other_references_or_runs_without_a_curve_are_refused(runs, tmp_path):
    with pytest.raises(MindgamesError, match="different references .*measure them against one"):
        comparison_panels([runs["td1"], runs["other"]])
    (tmp_path / "bare").mkdir()
    with pytest.raises(MindgamesError, match="bare: no curve.jsonl"):
        comparison_panels([runs["td1"], tmp_path / "bare"])
    (tmp_path / "tournament").mkdir()
    (tmp_path / "tournament" / "report.json").write_text("{}", encoding="utf-8")
    with pytest.raises(MindgamesError, match="a tournament: several sources are drawn only as"):
        comparison_panels([runs["td1"], tmp_path / "tournament"])
    history = runs["td1"] / "history.jsonl"
    with pytest.raises(MindgamesError, match="not a learning curve"):
        comparison_panels([runs["td1"], history])


def test_the_command_draws_several_runs_into_one_picture(runs, tmp_path):
    done = mindgames("plot", runs["td1"], runs["td2"], runs["hg"], "-o", tmp_path / "c.svg")
    assert done.returncode == 0, done.stderr
    assert "3 learning curves, 2 axes" in done.stdout
    assert len(svg_axes(tmp_path / "c.svg")) == 2
    png = mindgames("plot", runs["td1"], runs["td2"], "-o", tmp_path / "c.png")
    assert png.returncode == 0 and min(png_size(tmp_path / "c.png")) > 300
    unnamed = mindgames("plot", runs["td1"], runs["td2"])
    assert unnamed.returncode == 2 and "-o FILE.png" in unnamed.stderr
    assert not (runs["td1"] / "plot.png").exists()


def test_twenty_one_lines_each_have_their_own_colour_and_style():
    """Seven colours, then the same colours dashed, then dotted: twelve seeds stay told apart."""
    styles = [line_style(i) for i in range(21)]
    assert len(set(styles)) == 21
    assert styles[0][0] == styles[7][0] and styles[0][1] != styles[7][1]


@pytest.mark.parametrize("lines", [CROWDED, CROWDED + 1])
def test_a_crowded_panel_puts_its_legend_beside_the_axes(lines):
    """Up to CROWDED lines the legend sits inside the axes; past it, beside them, off the data."""
    plt = require_matplotlib()
    series = tuple(Series(f"run {i}", (0.0, 1.0), (float(i), i + 1.0)) for i in range(lines))
    fig, ax = plt.subplots()
    try:
        _draw_panel(ax, Panel("Elo", "games", "Elo", series))
        fig.canvas.draw()
        beside = bool(ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1)
    finally:
        plt.close(fig)
    assert beside is (lines > CROWDED)
