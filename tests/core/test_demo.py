"""``make demo`` (examples/demo/demo.py) runs its pieces end to end on a copy of the examples with
smaller budgets: four trainings, the tournament with the zoo's nets, the plot, the next steps."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import environment

ROOT = Path(__file__).resolve().parents[2]


def shrink(path: Path, **values: int) -> None:
    """Set ``key = value`` lines of a TOML file (a smaller budget)."""
    text = path.read_text(encoding="utf-8")
    for key, value in values.items():
        text, count = re.subn(rf"^{key} = \d+$", f"{key} = {value}", text, flags=re.M)
        assert count == 1, (path, key)
    path.write_text(text, encoding="utf-8")


@pytest.mark.slow
def test_the_demo_trains_ranks_draws_and_says_what_next(tmp_path):
    pytest.importorskip("matplotlib")
    demo = tmp_path / "examples" / "demo"
    shutil.copytree(ROOT / "examples" / "demo", demo)
    for model in ("linear", "mlp"):
        shrink(demo / f"td-{model}.toml", games=200, batch=100)
        shrink(demo / f"coevolution-{model}.toml", generations=2, parents=4, games=2)
    config = demo / "tournament.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("count=4", "count=1"), encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, str(demo / "demo.py"), str(Path(sys.executable).parent)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "runs" / "demo"
    for learner in ("td", "coevolution"):
        for model in ("linear", "mlp"):
            assert (out / f"{learner}-{model}" / "model.npz").is_file()
    report = (out / "tournament" / "report.md").read_text(encoding="utf-8")
    for agent in ("td-mlp", "coevolution-linear", "zoo-kalah-td-strong", "material-ab4"):
        assert agent in report and agent in done.stdout  # the standings
    assert (out / "tournament" / "standings.png").read_bytes()[:4] == b"\x89PNG"
    assert "report: runs/demo/tournament/report.md" in done.stdout
    tail = done.stdout.split("next, try:")[1]
    assert " serve --agent " in tail and " rate " in tail and " train " in tail
