"""The table and the pre-registered decision of examples/training/giveaway-hg-study.sh (the rule:
docs/notes/hg-shg-giveaway.md, "The study's sizes: the pre-registered test").

    python3 giveaway-hg-decide.py OUT LEARNER... -- PRESET...   -> OUT/table.md

Each match OUT/match-LEARNER-PRESET.jsonl plays every opening twice, the colours swapped; the
unit is the opening: a heuristic's score on it is the mean of its two games. The generators'
difference (HG - SHG) on an opening is the mean over the four presets of HG's score minus SHG's;
phased - linear is the mean over both generators of (3Ph + 5Ph)/2 - (8F + 10F)/2. Each is
reported as its mean over the openings with the 95% Student t interval; the ordering holds when
the interval lies above zero, is reversed when it lies below, undecided otherwise.
Standard library only (the script may run with any python3).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

LINEAR, PHASED = ("8F", "10F"), ("3Ph", "5Ph")


def t975(dof: int) -> float:
    """The 0.975 quantile of Student's t with ``dof`` degrees of freedom (Cornish-Fisher from
    the normal quantile: within 1e-3 for dof >= 10)."""
    z = statistics.NormalDist().inv_cdf(0.975)
    return (z + (z**3 + z) / (4 * dof) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * dof**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * dof**3))  # fmt: skip


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% t interval of ``values`` (openings as independent units)."""
    n = len(values)
    mean = statistics.fmean(values)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def per_opening(path: Path) -> dict[str, float]:
    """The heuristic's (the match's first agent's) mean score on each opening (and round, when
    a match plays more games than twice the openings)."""
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    heuristic = records[0]["first"]
    scores: dict[str, list[float]] = {}
    for r in records:
        own = r["score"] if r["first"] == heuristic else 1.0 - r["score"]
        scores.setdefault(f"{r['opening']} round {r['round']}", []).append(own)
    twice = {o: s for o, s in scores.items() if len(s) == 2}
    if len(twice) != len(scores):
        raise SystemExit(f"{path}: some openings were not played exactly twice")
    return {o: statistics.fmean(s) for o, s in twice.items()}


def verdict(low: float, high: float) -> str:
    return "holds" if low > 0 else "reversed" if high < 0 else "undecided"


def fmt(mean: float, low: float, high: float) -> str:
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


def main(argv: list[str]) -> None:
    out = Path(argv[1])
    cut = argv.index("--")
    learners, presets = argv[2:cut], argv[cut + 1 :]
    lines = [
        "| heuristic | learner | W-D-L vs TD | score | 95% interval |",
        "|---|---|---|---|---|",
    ]
    scores: dict[tuple[str, str], dict[str, float]] = {}
    for preset in presets:
        for learner in learners:
            name = f"{learner}-{preset}"
            pairing = json.loads((out / f"match-{name}.json").read_text())["pairings"][0]
            won, drawn, lost = pairing["wins"], pairing["draws"], pairing["losses"]
            score = (won + drawn / 2) / (won + drawn + lost)
            s = scores[learner, preset] = per_opening(out / f"match-{name}.jsonl")
            span = ""
            if len(s) > 1:
                _, low, high = interval(list(s.values()))
                span = f"[{low:.3f}, {high:.3f}]"
            lines.append(
                f"| {preset} | {learner.upper()} | {won}-{drawn}-{lost} | {score:.3f} | {span} |"
            )
    if set(learners) == {"hg", "shg"} and set(presets) == set(LINEAR + PHASED):
        openings = sorted(set.intersection(*(set(s) for s in scores.values())))
        if any(len(s) != len(openings) for s in scores.values()):
            raise SystemExit(f"{out}: the matches did not play the same openings")

        def mean_of(learner: str, group: tuple[str, ...], o: str) -> float:
            return statistics.fmean(scores[learner, p][o] for p in group)

        every = LINEAR + PHASED
        generators = [mean_of("hg", every, o) - mean_of("shg", every, o) for o in openings]
        phases = [statistics.fmean(mean_of(g, PHASED, o) - mean_of(g, LINEAR, o)
                                   for g in ("hg", "shg")) for o in openings]  # fmt: skip
        head = f"| ordering (pre-registered; {len(openings)} openings, 2 games each) "
        lines += ["", head + "| difference in score [95% t interval] | verdict |", "|---|---|---|"]
        phased_linear = "phased (3Ph, 5Ph) > linear (8F, 10F)"
        for label, values in (("HG > SHG", generators), (phased_linear, phases)):
            mean, low, high = interval(values)
            lines.append(f"| {label} | {fmt(mean, low, high)} | {verdict(low, high)} |")
    text = "\n".join(lines) + "\n"
    tmp = out / "table.md.tmp"
    tmp.write_text(text)
    tmp.replace(out / "table.md")
    print(text, end="")


if __name__ == "__main__":
    main(sys.argv)
