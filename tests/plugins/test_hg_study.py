"""examples/training/giveaway-hg-study.sh at its smoke-test scale (TINY=1, one preset): it trains
TD, HG and SHG, plays the matches, writes the table and the CPU times, and a second run finds
everything done."""

from __future__ import annotations

import importlib.util
import json
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


def _decide():
    spec = importlib.util.spec_from_file_location("decide", EXAMPLES / "giveaway-hg-decide.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_t_quantile_matches_the_tables():
    decide = _decide()
    for dof, quantile in ((10, 2.2281), (49, 2.0096), (155, 1.9754)):
        assert abs(decide.t975(dof) - quantile) < 2e-4


def _match(out: Path, name: str, scores: list[float]) -> None:
    """A match of the heuristic ``name`` against TD: one pair per score (its score moving first,
    then the same moving second)."""
    records, wins, draws, losses = [], 0, 0, 0
    for k, score in enumerate(scores):
        for first, own in ((name, score), ("td", score)):
            records.append({"opening": f"ballot {k}", "round": 0, "first": first,
                            "score": own if first == name else 1.0 - own})  # fmt: skip
            wins, draws, losses = wins + (own == 1), draws + (own == 0.5), losses + (own == 0)
    (out / f"match-{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    pairing = {"wins": wins, "draws": draws, "losses": losses}
    (out / f"match-{name}.json").write_text(json.dumps({"pairings": [pairing]}))


def test_the_decision_pairs_openings_and_says_which_ordering_holds(tmp_path):
    decide = _decide()
    hg, shg_linear, shg_phased = [1.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.0, 0.5], [0.5, 0.0, 0.0, 0.5]
    for preset in ("8F", "10F", "3Ph", "5Ph"):
        _match(tmp_path, f"hg-{preset}", hg * 3)  # 12 openings
        _match(tmp_path, f"shg-{preset}", (shg_phased if "Ph" in preset else shg_linear) * 3)
    decide.main(["decide", str(tmp_path), "hg", "shg", "--", "8F", "10F", "3Ph", "5Ph"])
    lines = (tmp_path / "table.md").read_text().splitlines()
    assert lines[2].startswith("| 8F | HG | 12-12-0 | 0.750 | [")
    generators = next(line for line in lines if line.startswith("| HG > SHG"))
    phases = next(line for line in lines if line.startswith("| phased"))
    # HG - SHG per opening 0.75, 0.25, 0.5, 0.5 (x3): mean 0.5, t interval [0.383, 0.617]
    assert generators.endswith("| +0.500 [+0.383, +0.617] | holds |")
    # phased - linear: SHG's phased gain 0.5, -0.5, 0, 0 halved over two generators
    assert phases.endswith("| +0.000 [-0.117, +0.117] | undecided |")
    assert decide.verdict(-0.2, -0.1) == "reversed"


def test_an_unknown_scale_or_seed_is_refused_in_one_line_before_any_file(tmp_path):
    for key, value in (("SCALE", "huge"), ("SEED", "one")):
        out = tmp_path / key
        env = {**os.environ, key: value}
        done = subprocess.run(["bash", str(SCRIPT), str(out)], capture_output=True, text=True,
                              env=env, timeout=60)  # fmt: skip
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and key in done.stderr
        assert not out.exists()
