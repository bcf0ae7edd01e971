"""Alpha-beta and minimax give the moves, values, variations and node counts recorded from the
searchers before the speed work (issue 22): the algorithm is unchanged, only its cost.

The fixture ``data/recorded_searches.json`` was written by the code at commit 2c30694 with::

    /work/wt/baseline/.venv/bin/python tests/plugins/test_recorded_searches.py --record

(any checkout's interpreter records its own code's searches; run it again only when a change of
the algorithm is meant to change them, and say so in the commit).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

FIXTURE = Path(__file__).parent / "data" / "recorded_searches.json"
MLP = {"model": "mlp", "encoding": "raw32", "hidden": [10]}
KALAH_MLP = {"model": "mlp", "encoding": "kalah14", "hidden": [6]}

#: (game spec, plies of seeded random moves to the position, [(searcher, options, evaluator)])
#: give-away's searches were recorded when ``material`` counted pieces as checkers does; give-away
#: now declares its own weights (fewer pieces is better), so its cases name the old ones
PIECES_UP = {"model": "material", "weights": {"men_diff": 1.0, "kings_diff": 1.0}}

CASES: list[tuple[str, list[int], list[tuple[str, dict[str, Any], Any]]]] = [
    (
        "checkers",
        [0, 9, 23],
        [
            ("alphabeta", {"depth": 6}, "material"),
            ("alphabeta", {"depth": 5}, MLP),
            ("alphabeta", {"depth": 5, "tt": False}, "material"),
            ("alphabeta", {"depth": 5, "tt": False, "ordering": False}, "material"),
            ("alphabeta", {"depth": 5, "pvs": False}, "material"),
            ("alphabeta", {"depth": 5, "eval_cache": False}, MLP),
            ("alphabeta", {"depth": 5, "batch": True}, "material"),
            ("alphabeta", {"depth": 4, "batch": True, "extend_captures": True}, MLP),
            ("alphabeta", {"depth": 4, "extend_captures": True, "extend_forced": True}, "material"),
            ("alphabeta", {"depth": 5, "random_order": True, "random_ties": True}, "material"),
            ("alphabeta", {"nodes": 400}, "material"),
            ("alphabeta", {"depth": 4, "null": True}, None),
            ("minimax", {"depth": 3}, "material"),
            ("minimax", {"depth": 2, "extend_captures": True, "extend_forced": True}, MLP),
        ],
    ),
    (
        "checkers",
        [0],
        [("alphabeta", {"depth": 8}, "material"), ("alphabeta", {"depth": 8}, MLP)],
    ),
    (
        "giveaway",
        [4, 30],
        [
            ("alphabeta", {"depth": 6}, PIECES_UP),
            ("alphabeta", {"depth": 6, "batch": True, "random_ties": True}, PIECES_UP),
            ("alphabeta", {"depth": 5, "extend_captures": True, "quick_wins": False}, PIECES_UP),
        ],
    ),
    (
        "kalah",
        [0, 7],
        [
            ("alphabeta", {"depth": 7}, "material"),
            ("alphabeta", {"depth": 6, "batch": True}, KALAH_MLP),
            ("alphabeta", {"depth": 6, "tt": False, "random_order": True}, "material"),
            ("alphabeta", {"depth": 6, "extend_forced": True}, "material"),
            ("endgame", {"depth": 9}, None),
            ("minimax", {"depth": 4}, "material"),
        ],
    ),
    (
        "kalah:pits=4,seeds=3",
        [5],
        [("endgame", {"nodes": 3000}, None), ("alphabeta", {"depth": 8, "pvs": False}, "material")],
    ),
]


def positions(game: Any, plies: list[int]) -> list[Any]:
    """Seeded random positions ``plies`` moves from the start (stopping before the end)."""
    out = []
    for n in plies:
        rng = np.random.default_rng(n)
        state = game.initial_state()
        for _ in range(n):
            moves = game.legal_moves(state)
            child = game.play(state, moves[int(rng.integers(len(moves)))])
            if game.is_terminal(child):
                break
            state = child
        out.append(state)
    return out


def run_cases() -> list[dict[str, Any]]:
    """Every case searched by the installed code, as JSON-able records."""
    from mindgames.agent import build_evaluator
    from mindgames.registry import get_registry

    registry = get_registry()
    records = []
    for spec, plies, searches in CASES:
        game = registry.game(spec)
        for state in positions(game, plies):
            for name, options, evaluation in searches:
                searcher = registry.searcher(name, options, where="recorded search")
                ev = (
                    None
                    if evaluation is None
                    else build_evaluator(registry, game, evaluation, seed=1)
                )
                found = searcher.search(game, state, ev, np.random.default_rng(5))
                texts, here = [], state
                for move in found.pv:
                    texts.append(game.move_text(here, move))
                    here = game.play(here, move)
                records.append(
                    {
                        "game": spec,
                        "position": game.position_text(state),
                        "searcher": name,
                        "options": options,
                        "evaluator": evaluation,
                        "move": game.move_text(state, found.move),
                        "value": found.value,
                        "pv": texts,
                        "nodes": found.stats.nodes,
                        "leaves": found.stats.leaves,
                        "depth": found.stats.depth,
                    }
                )
    return records


def test_searches_equal_the_recorded_ones():
    import pytest  # here, so that the recorder runs in an environment without the dev extras

    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    found = run_cases()
    assert len(found) == len(recorded)
    for now, then in zip(found, recorded, strict=True):
        where = (now["game"], now["position"], now["searcher"], now["options"])
        assert now["position"] == then["position"], where
        assert now["value"] == pytest.approx(then["value"], abs=1e-12), where
        for key in ("move", "pv", "nodes", "leaves", "depth"):
            assert now[key] == then[key], (where, key)


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(run_cases(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
