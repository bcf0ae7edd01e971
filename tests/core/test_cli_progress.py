"""Progress of the long commands: a bar with rate and time left on a terminal (a real pseudo-
terminal), nothing of it through pipes; ``train`` prints history rows only with ``--json``."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys

import pytest

from mindgames.cli.progress import HistoryBar

from support.cli import command, environment, run

TD = """\
game = "kalah:pits=3,seeds=2"
[eval]
model = "mlp"
encoding = "kalah14"
hidden = [3]
[learner]
name = "td"
games = 60
batch = 10
checkpoint_every = 30
"""

TOURNAMENT = """\
game = "kalah:pits=3,seeds=2"
format = "round-robin"
openings = "random:plies=1,count=2"
[agents]
random = "random"
greedy = "greedy:eval=material"
"""


def on_a_terminal(*args: object, cwd: object) -> str:
    """Run ``mindgames ARGS`` with stdout and stderr on a pseudo-terminal; what it showed."""
    parent, child = pty.openpty()
    proc = subprocess.Popen(
        command(*map(str, args)),
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
        env=environment(COLUMNS="120"),
        cwd=cwd,
    )
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(parent, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(parent)
    assert proc.wait(timeout=120) == 0, shown.decode()
    return shown.decode()


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    base = tmp_path_factory.mktemp("progress")
    (base / "td.toml").write_text(TD, encoding="utf-8")
    (base / "t.toml").write_text(TOURNAMENT, encoding="utf-8")
    return base


def test_train_on_a_terminal_shows_a_bar_with_the_games_and_their_rate(place):
    shown = on_a_terminal("train", "td.toml", "--out", "bar", cwd=place)
    assert "train  [" in shown and "100%" in shown
    assert "games 60/60, " in shown and "/s" in shown
    assert shown.count("trained in ") == 1 and '"games"' not in shown


def test_train_through_pipes_prints_one_summary_line_and_no_bar(place):
    done = run("train", place / "td.toml", "--out", place / "piped")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("trained in ")
    assert "(games 60, 6 history rows, seed 0)" in lines[0]


def test_train_json_prints_each_history_row_and_the_summary_on_stderr(place):
    done = run("train", place / "td.toml", "--out", place / "json", "--json")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["games"] for row in rows] == [10, 20, 30, 40, 50, 60]
    history = (place / "json" / "history.jsonl").read_text().splitlines()
    assert rows == [json.loads(line) for line in history]
    assert done.stderr.startswith("trained in ") and done.stderr.count("\n") == 1


def test_json_on_a_terminal_draws_no_bar(place):
    shown = on_a_terminal("train", "td.toml", "--out", "json-tty", "--json", cwd=place)
    assert "[#" not in shown and "%" not in shown
    assert shown.count('"games"') == 6


def test_match_tournament_curve_and_labelling_show_bars_on_a_terminal(place):
    match = on_a_terminal("match", "random", "greedy:eval=material", "--game",
                          "kalah:pits=3,seeds=2", "--games", "4", "--workers", "1",
                          cwd=place)  # fmt: skip
    assert "match  [" in match and "games/s" in match and "4/4" in match
    tournament = on_a_terminal("tournament", "t.toml", "--out", "t", "--workers", "1", cwd=place)
    assert "tournament  [" in tournament and "games/s" in tournament
    run("train", place / "td.toml", "--out", place / "curve-run")
    curve = on_a_terminal("curve", "curve-run", "--vs", "random", "--games", "2", "--depth", "1",
                          "--workers", "1", cwd=place)  # fmt: skip
    assert "curve  [" in curve and "games/s" in curve
    run("data", "generate", "kalah:pits=3,seeds=2", "--plies", "2-4", "--count", "6",
        "-o", place / "d.npz")  # fmt: skip
    label = on_a_terminal("data", "label", "d.npz", "--agent", "alphabeta:depth=2,eval=material",
                          "-o", "l.npz", "--workers", "1", cwd=place)  # fmt: skip
    assert "labelling  [" in label and "positions/s" in label


def test_long_commands_through_pipes_draw_nothing_on_stderr(place):
    match = run("match", "random", "greedy:eval=material", "--game", "kalah:pits=3,seeds=2",
                "--games", "4", "--workers", "1")  # fmt: skip
    assert match.returncode == 0 and match.stderr == ""
    tournament = run("tournament", place / "t.toml", "--out", place / "t2", "--workers", "1")
    assert tournament.returncode == 0 and tournament.stderr == ""


def test_supervised_training_shows_its_epochs(place, tmp_path):
    """Supervised training plans its epochs (early stopping may end the bar before 100%)."""
    data = tmp_path / "d.npz"
    run("data", "generate", "kalah:pits=3,seeds=2", "--plies", "2-6", "--count", "30",
        "-o", data)  # fmt: skip
    run("data", "solve", data, "-o", tmp_path / "s.npz", "--workers", "1", "--quiet")
    config = tmp_path / "sup.toml"
    config.write_text(
        'game = "kalah:pits=3,seeds=2"\n[eval]\nmodel = "linear"\nencoding = "kalah14"\n'
        f'[learner]\nname = "supervised"\ndata = ["{tmp_path / "s.npz"}"]\n'
        "fit = { epochs = 5, min_epochs = 5 }\n",
        encoding="utf-8",
    )
    shown = on_a_terminal("train", config, "--out", tmp_path / "run", cwd=tmp_path)
    assert "epoch 5/5, " in shown and "100%" in shown


class Terminal(io.StringIO):
    """Standard error as a terminal would be: it says it is one."""

    def isatty(self) -> bool:
        return True


def test_a_learner_without_a_plan_gets_a_counting_line(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    with HistoryBar("train", quiet=False, resume=False) as bar:
        bar.plan(None)
        for phase in (1, 2, 3):
            bar.row({"phase": phase, "error": 0.5})
    shown = sys.stderr.getvalue()
    assert "\rtrain: phase 3, " in shown and shown.endswith("\n") and "[" not in shown


def test_a_resumed_run_starts_its_bar_at_its_first_row(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    with HistoryBar("train", quiet=False, resume=True) as bar:
        bar.plan(("games", 100))
        assert sys.stderr.getvalue() == ""  # nothing until the resumed run reports
        bar.row({"games": 60})
        bar.row({"games": 80})
        bar.row({"games": 100})
    shown = sys.stderr.getvalue()
    assert "games 60/100" in shown and "games 100/100" in shown
    assert "%" not in shown  # the bar's fill is this run's share of the work, not of the total


def test_quiet_on_a_terminal_draws_no_bar(place):
    shown = on_a_terminal("train", "td.toml", "--out", "quiet", "--quiet", cwd=place)
    assert shown.startswith("trained in ") and shown.count("\n") == 1
