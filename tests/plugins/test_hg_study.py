"""examples/training/giveaway-hg-study.sh at its smoke-test scale (TINY=1, one preset): it trains
TD, HG and SHG, plays the matches, writes the table and the CPU times, and a second run finds
everything done."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

EXAMPLES = Path(__file__).parents[2] / "examples" / "training"
SCRIPT = EXAMPLES / "giveaway-hg-study.sh"


def _run(out: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "TINY": "1",
        "PRESETS": "3Ph",
        "WORKERS": "1",
        "GAMES": "2",
        "OPENBLAS_NUM_THREADS": "1",
        "MINDGAMES_STRICT_PLUGINS": "1",
    }
    return subprocess.run(
        ["bash", str(SCRIPT), str(out)], capture_output=True, text=True, env=env, timeout=300
    )


def test_the_study_script_trains_plays_and_tabulates_and_resumes_as_done(tmp_path):
    out = tmp_path / "study"
    done = _run(out)
    assert done.returncode == 0, done.stderr
    table = (out / "table.md").read_text().splitlines()
    assert table[2].startswith("| 3Ph | HG | ") and table[3].startswith("| 3Ph | SHG | ")
    steps = [line.split()[0] for line in (out / "times.txt").read_text().splitlines()]
    assert steps == ["td", "hg-3Ph", "shg-3Ph", "match-hg-3Ph", "match-shg-3Ph"]
    config = tomllib.loads((out / "configs" / "hg-3Ph.toml").read_text())
    assert config["eval"]["preset"] == "3Ph" and config["learner"]["name"] == "hg"
    again = _run(out)
    assert again.returncode == 0, again.stderr
    assert len((out / "times.txt").read_text().splitlines()) == len(steps)  # nothing redone


def test_the_study_configs_set_what_the_script_changes():
    for name in ("hg", "shg"):
        config = tomllib.loads((EXAMPLES / f"giveaway-{name}.toml").read_text())
        assert config["game"] == "giveaway" and config["eval"]["encoding"] == "gac11"
        assert {"preset"} <= set(config["eval"]) and "workers" in config["learner"]
    hg = tomllib.loads((EXAMPLES / "giveaway-hg.toml").read_text())["learner"]
    assert {"reuse", "boards", "first_label", "label"} <= set(hg)
    td = tomllib.loads((EXAMPLES / "giveaway-td.toml").read_text())
    assert td["learner"]["name"] == "td" and td["game"] == "giveaway"
