"""Solve Kalah(m, n) from the start for every size in a range: the table in docs/kalah.md.

Each size is solved by ``mindgames solve kalah:pits=M,seeds=N[,empty_capture=true] --json`` in
its own process with a time limit and an address-space limit, so one hard size cannot take the
machine down. A size is skipped (``-``) when the same number of pits with fewer seeds already
ran out of time. Writes benchmarks/results/kalah_solved.json and prints the markdown tables.

    .venv/bin/python benchmarks/solve_table.py [--pits 1-6] [--seeds 1-6] [--timeout 240]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path


def span(text: str) -> range:
    """``1-6`` -> range(1, 7); ``4`` -> range(4, 5)."""
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def solve_one(pits: int, seeds: int, empty_capture: bool, timeout: float, memory: int) -> dict:
    """Run the solve command for one size; the row records the value or why there is none."""
    spec = f"kalah:pits={pits},seeds={seeds}" + (",empty_capture=true" if empty_capture else "")
    exe = shutil.which("mindgames", path=str(Path(sys.executable).parent)) or "mindgames"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    row: dict = {"pits": pits, "seeds": seeds, "empty_capture": empty_capture}
    try:
        out = subprocess.run(
            [exe, "solve", spec, "--json"],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=limit,
        )
    except subprocess.TimeoutExpired:
        return {**row, "status": f"timeout {timeout:g} s"}
    if out.returncode != 0:
        return {**row, "status": "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1]}
    data = json.loads(out.stdout)
    return {
        **row,
        "status": "solved",
        "value": data["value"],
        "best_moves": data["best_moves"],
        "nodes": data["nodes"],
        "seconds": data["seconds"],
    }


def markdown(rows: list[dict], empty_capture: bool, pits: range, seeds: range) -> str:
    """One table: rows are pits, columns seeds; cells are South's margin (or '-')."""
    cell = {(r["pits"], r["seeds"]): r for r in rows if r["empty_capture"] == empty_capture}
    lines = [
        "| m \\ n | " + " | ".join(str(n) for n in seeds) + " |",
        "|---" * (len(seeds) + 1) + "|",
    ]
    for m in pits:
        values = []
        for n in seeds:
            r = cell.get((m, n))
            values.append(f"{r['value']:+d}" if r and r["status"] == "solved" else "-")
        lines.append(f"| {m} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=span, default=span("1-6"))
    parser.add_argument("--seeds", type=span, default=span("1-6"))
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per size")
    parser.add_argument("--memory-gb", type=float, default=6.0, help="address space per size")
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "kalah_solved.json")
    )
    args = parser.parse_args()
    rows = []
    for empty_capture in (False, True):
        for m in args.pits:
            gave_up = False
            for n in args.seeds:
                if gave_up:
                    row = {"pits": m, "seeds": n, "empty_capture": empty_capture}
                    rows.append({**row, "status": "skipped"})
                    continue
                row = solve_one(m, n, empty_capture, args.timeout, int(args.memory_gb * 2**30))
                rows.append(row)
                gave_up = row["status"] != "solved"
                print(json.dumps(row), flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"timeout_seconds": args.timeout, "rows": rows}, indent=1) + "\n")
    for empty_capture in (False, True):
        print(f"\nempty_capture = {str(empty_capture).lower()}\n")
        print(markdown(rows, empty_capture, args.pits, args.seeds))
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
