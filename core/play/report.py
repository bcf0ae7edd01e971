"""The tournament report: standings, crosstable, pairings, as JSON and Markdown.

Built from result records alone (``core/play/task.py``), so a report can be rebuilt from any
results file. Scoring follows the Layered Learning study: games-based (2 points a win, 1 a
draw) and clashes-based (the whole series between two agents is one result, 2/1/0).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from mindgames.play.ratings import fit_elo, los
from mindgames.play.sprt import pentanomial
from mindgames.recordtypes import Pairing, Report, Standing, Tally


def _points(record: Mapping[str, Any], agent: str) -> float:
    """Game points (1, 1/2, 0) of ``agent`` in a record."""
    s = float(record["score"])
    return s if record["first"] == agent else 1.0 - s


def build_report(
    agents: Sequence[str],
    records: Iterable[Mapping[str, Any]],
    *,
    anchor: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Report:
    """The report of a set of games between ``agents`` (see docs/tournaments.md for its shape);
    ``records`` are GameRecords, or any mappings with their index, pair, first, second, score
    and termination (a results file that ``replicates`` read)."""
    games = sorted(records, key=lambda r: r["index"])
    wdl: dict[str, list[int]] = {a: [0, 0, 0] for a in agents}
    head: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0])  # a's w, d, l
    pairs: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    terminations: dict[str, int] = defaultdict(int)
    for r in games:
        a, b = r["first"], r["second"]
        s = float(r["score"])
        k = 0 if s == 1.0 else 1 if s == 0.5 else 2
        wdl[a][k] += 1
        wdl[b][2 - k] += 1
        head[(a, b)][k] += 1
        head[(b, a)][2 - k] += 1
        pairs[int(r["pair"])].append(r)
        terminations[r["termination"]] += 1
    met = sorted({tuple(sorted(key, key=list(agents).index)) for key in head})
    results = {(a, b): (head[(a, b)][0], head[(a, b)][1], head[(a, b)][2]) for a, b in met}
    fit = fit_elo(agents, results, anchor=anchor)
    ratings = fit.as_dict()

    clashes: dict[str, int] = defaultdict(int)
    pairings = []
    for a, b in met:
        w, d, l_ = head[(a, b)]
        if w + d / 2 > l_ + d / 2:
            clashes[a] += 2
        elif w + d / 2 < l_ + d / 2:
            clashes[b] += 2
        else:
            clashes[a] += 1
            clashes[b] += 1
        pair_scores = [
            sum(_points(r, a) for r in rs)
            for rs in pairs.values()
            if len(rs) == 2 and {rs[0]["first"], rs[0]["second"]} == {a, b}
        ]
        n = w + d + l_
        pairings.append(
            Pairing(
                agents=[a, b],
                games=int(n),
                wins=int(w),
                draws=int(d),
                losses=int(l_),
                score=w + d / 2,
                draw_ratio=d / n if n else 0.0,
                los=los(w, l_),
                pentanomial=pentanomial(pair_scores),
            )
        )

    standings: list[Standing] = []
    for a in agents:
        w, d, l_ = wdl[a]
        standings.append(
            Standing(
                agent=a,
                games=w + d + l_,
                wins=w,
                draws=d,
                losses=l_,
                score_games=2 * w + d,
                score_clashes=clashes[a],
                **ratings[a],
            )
        )
    standings.sort(key=lambda s: (-s.score_games, -s.elo, s.agent))
    crosstable = {
        a: {
            b: Tally(*(int(count) for count in head[(a, b)]))
            for b in agents
            if b != a and (a, b) in head
        }
        for a in agents
    }
    return Report(
        games=len(games),
        standings=standings,
        anchor=fit.anchor,
        elo_regularised=fit.regularised,
        crosstable=crosstable,
        pairings=pairings,
        terminations=dict(sorted(terminations.items())),
        extra=dict(extra or {}),
    )


def _fmt_elo(s: Standing) -> str:
    return f"{s.elo:+.0f} [{s.elo_low:+.0f}, {s.elo_high:+.0f}]"


def standings_text(report: Report) -> str:
    """A plain-text standings table for the terminal."""
    rows = report.standings
    width = max([5, *(len(s.agent) for s in rows)])
    lines = [
        f"{'#':>2}  {'agent':<{width}}  {'games':>5}  {'W':>4} {'D':>4} {'L':>4}  "
        f"{'score':>5}  {'clash':>5}  elo [95%]"
    ]
    for rank, s in enumerate(rows, 1):
        lines.append(
            f"{rank:>2}  {s.agent:<{width}}  {s.games:>5}  {s.wins:>4} {s.draws:>4} "
            f"{s.losses:>4}  {s.score_games:>5}  {s.score_clashes:>5g}  {_fmt_elo(s)}"
        )
    return "\n".join(lines)


def markdown(report: Report, title: str = "Tournament") -> str:
    """The report as a Markdown page: standings, crosstable and pairings."""
    anchor = report.anchor or "the mean"
    out = [f"# {title}", ""]
    view = {**report.extra, "games": report.games}
    meta = {k: view[k] for k in ("game", "format", "seed", "games") if k in view}
    out.append(", ".join(f"{k}: {v}" for k, v in meta.items()))
    out += ["", f"## Standings (Elo anchored on {anchor}, 95% interval)", ""]
    out.append("| # | agent | games | W | D | L | score (games) | score (clashes) | Elo |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for rank, s in enumerate(report.standings, 1):
        out.append(
            f"| {rank} | {s.agent} | {s.games} | {s.wins} | {s.draws} | "
            f"{s.losses} | {s.score_games} | {s.score_clashes:g} | {_fmt_elo(s)} |"
        )
    names = [s.agent for s in report.standings]
    out += ["", "## Crosstable (row's wins-draws-losses against column)", ""]
    out.append("| | " + " | ".join(names) + " |")
    out.append("|---" * (len(names) + 1) + "|")
    for a in names:
        cells = []
        for b in names:
            c = report.crosstable.get(a, {}).get(b)
            cells.append("" if c is None else f"{c.wins}-{c.draws}-{c.losses}")
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    out += ["", "## Pairings", ""]
    out.append("| pairing | games | W-D-L | draws | LOS | pentanomial (0, ½, 1, 1½, 2) |")
    out.append("|---|---|---|---|---|---|")
    for p in report.pairings:
        a, b = p.agents
        out.append(
            f"| {a} vs {b} | {p.games} | {p.wins}-{p.draws}-{p.losses} | "
            f"{p.draw_ratio:.0%} | {p.los:.1%} | {p.pentanomial} |"
        )
    if "sprt" in report.extra:
        s = report.extra["sprt"]
        out += [
            "",
            "## SPRT",
            "",
            f"H0: elo = {s['elo0']}, H1: elo = {s['elo1']} (alpha {s['alpha']}, beta {s['beta']}): "
            f"LLR {s['llr']:.2f} in [{s['lower']:.2f}, {s['upper']:.2f}] -> {s['verdict']}",
        ]
    return "\n".join(out) + "\n"
