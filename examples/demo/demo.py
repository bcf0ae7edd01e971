"""``make demo``: the main job of mindgames on Kalah(6,4), in minutes on a cold cache (README).

Trains two learners (TD(lambda) and coevolution) with two evaluators (linear and MLP) at small
budgets (the two learners side by side, two processes), ranks the four nets with the zoo's Kalah
nets and the fixed baselines in one round robin (examples/demo/tournament.toml), draws it, and
prints the standings, where the report and the plot are, and three commands to try next. Run
from the repository's root::

    python examples/demo/demo.py [BIN]     # BIN: the folder of the mindgames script (.venv/bin)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CONFIG = "examples/demo/tournament.toml"
OUT = Path("runs/demo")
TOURNAMENT = OUT / "tournament"
PLOT = TOURNAMENT / "standings.png"
#: the agents of the tournament that are not trained nets
BASELINES = frozenset({"random", "greedy", "material-ab2", "material-ab4"})

#: the trainings, each the words after ``mindgames``: one list a learner, the two learners' lists
#: run side by side (two processes: on a cold cache each compiles its own kernels, the demo's
#: largest cost, so two cores halve its wall time), each list in order
TRAININGS = [
    [
        [
            "train",
            f"examples/demo/{learner}-{model}.toml",
            "--quiet",
            "--out",
            f"{OUT}/{learner}-{model}",
        ]
        for model in ("linear", "mlp")
    ]
    for learner in ("td", "coevolution")
]
#: then these, one after the other
STEPS = [
    ["tournament", CONFIG, "--out", str(TOURNAMENT), "--seed", "1"],
    ["plot", str(TOURNAMENT), "--out", str(PLOT)],
]


def best_net(report: dict, agents: dict) -> tuple[str, str]:
    """The trained net that ranked highest in the tournament: its name and agent spec."""
    for row in report["standings"]:
        if row["agent"] not in BASELINES:
            return row["agent"], str(agents[row["agent"]])
    raise ValueError("no trained net in the standings")


def next_commands(mindgames: str, spec: str) -> list[str]:
    """Three commands to try after the demo: play the best net, rate it, train longer."""
    deeper = spec.replace("depth=2", "depth=4").replace(",random_ties=true", "")
    return [
        f"{mindgames} serve --agent '{deeper}'    # play it in the browser",
        f"{mindgames} rate '{deeper}' --game kalah    # its Elo on the shipped Kalah ladder",
        f"{mindgames} train examples/training/kalah-td.toml --out runs/kalah-td"
        "    # train longer: 20,000 games, about 5 s of CPU",
    ]


def run_all(mindgames: str, steps: list[list[str]]) -> bool:
    """Run ``steps`` in order, each announced; stop at the first that fails."""
    for words in steps:
        print(f"== mindgames {' '.join(words)}", flush=True)
        if subprocess.run([mindgames, *words]).returncode != 0:
            return False
    return True


def main(argv: list[str]) -> int:
    mindgames = str(Path(argv[1] if len(argv) > 1 else ".venv/bin") / "mindgames")
    shutil.rmtree(OUT, ignore_errors=True)  # the demo's own folder: a second run starts afresh
    with ThreadPoolExecutor(len(TRAININGS)) as pool:
        trained = list(pool.map(lambda steps: run_all(mindgames, steps), TRAININGS))
    if not all(trained) or not run_all(mindgames, STEPS):
        return 1
    report = json.loads((TOURNAMENT / "report.json").read_text(encoding="utf-8"))
    config = tomllib.loads(Path(CONFIG).read_text(encoding="utf-8"))
    name, spec = best_net(report, config["agents"])
    print(f"\nreport: {TOURNAMENT / 'report.md'}   plot: {PLOT}")
    print(f"best trained net: {name} ({spec})\nnext, try:")
    for line in next_commands(mindgames, spec):
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
