"""The compiled alpha-beta equals the Python one: the same move, value, principal variation,
node and leaf counts and depth, over random positions and option sets (the Python path is the
oracle, forced with MINDGAMES_PYTHON_PATH)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.agent import build_agent
from mindgames.registry import registry_with
from mindgames.spec import parse_spec

from support.tictactoe_kernels import KernelTicTacToePlugin

SMALL_MLP = {"model": "mlp", "encoding": "cells", "hidden": [4]}
OPTION_SETS = [
    "depth=9,eval=material",
    "depth=3,eval=material",
    "depth=4,eval=material,pvs=false",
    "depth=4,eval=material,ordering=false",
    "depth=4,eval=material,tt=false",
    "depth=5,eval=material,quick_wins=false",
    "depth=2,eval=material,extend_forced=true",
    ("depth=3,extend_forced=true,extension=1", {"model": "linear", "encoding": "cells", "seed": 1}),
    "depth=4,eval=material,random_ties=true",
    "depth=4,null=true,eval=material",
    "nodes=40,eval=material",
    "depth=6,eval=material,extend_forced=true,max_extension=1",
    "nodes=3,eval=material",
    "depth=5,eval=material,batch=true",
    "depth=4,eval=material,batch=true,extend_forced=true,extension=1",
    "depth=4,eval=material,eval_cache=true",
    "depth=5,eval=material,random_order=true",
    "depth=4,eval=material,random_order=true,random_ties=true,ordering=false",
    ("depth=3", {"model": "mlp", "encoding": "cells", "hidden": [4], "seed": 3}),
    # leaf values remembered (``eval_cache``: by default only for a larger MLP), with the
    # re-searches and extensions that evaluate a leaf twice
    ("depth=4,extend_forced=true,extension=1,eval_cache=true", {**SMALL_MLP, "seed": 3}),
    ("depth=4,extend_forced=true,extension=1", {**SMALL_MLP, "seed": 3}),
    ("depth=4,eval_cache=false", {**SMALL_MLP, "seed": 3}),
    (
        "depth=3",
        {
            "model": "mlp",
            "encoding": "cells+material",
            "hidden": [3, 2],
            "activation": "sigmoid",
            "direct": True,
            "seed": 2,
        },
    ),
    ("depth=3", {"model": "linear", "encoding": "cells", "output": "soft", "seed": 4}),
    ("depth=3", {"model": "linear", "encoding": "material+progress", "seed": 5}),
]


@pytest.fixture(scope="module")
def registry():
    return registry_with(("tictactoe", KernelTicTacToePlugin()))


def positions(game, seed: int, count: int):
    """Positions of seeded random games (never a finished one)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            out.append(state)
            moves = game.legal_moves(state)
            state = game.play(state, moves[int(rng.integers(len(moves)))])
    return out[:count]


def both_paths(registry, spec, state, seed: int, monkeypatch):
    """The Python path's result and the compiled path's, for an agent spec (or a pair of the
    searcher's options and an evaluator table)."""
    game = registry.game("tictactoe")
    if isinstance(spec, tuple):
        options, table = spec
        spec = {"searcher": "alphabeta", **parse_spec(f"x:{options}")[1], "eval": table}
    else:
        spec = f"alphabeta:{spec}"
    agent = build_agent(registry, game, spec)
    results = []
    for force in ("1", "0"):
        monkeypatch.setenv("MINDGAMES_PYTHON_PATH", force)
        rng = np.random.default_rng(seed)
        results.append(agent.searcher.search(game, state, agent.evaluator, rng))
    return results


def same(python, compiled) -> None:
    assert compiled.move == python.move
    assert compiled.value == pytest.approx(python.value, abs=1e-12)
    assert compiled.pv == python.pv
    assert (compiled.stats.nodes, compiled.stats.leaves, compiled.stats.depth) == (
        python.stats.nodes,
        python.stats.leaves,
        python.stats.depth,
    )
    assert compiled.stats.branching == python.stats.branching
    assert (python.stats.path, compiled.stats.path) == ("python", "compiled")


@pytest.mark.parametrize("spec", OPTION_SETS)
def test_compiled_search_equals_python_search_on_random_positions(registry, spec, monkeypatch):
    game = registry.game("tictactoe")
    for i, state in enumerate(positions(game, 7, 12)):
        python, compiled = both_paths(registry, spec, state, i, monkeypatch)
        same(python, compiled)


@pytest.mark.parametrize("extend", [False, True])
def test_remembered_leaf_values_change_no_compiled_search(registry, extend, monkeypatch):
    """``eval_cache`` on the compiled path: the same search, value bit for bit, as without it."""
    game = registry.game("tictactoe")
    table = {"model": "mlp", "encoding": "cells", "hidden": [5], "seed": 6}
    extension = ",extend_forced=true,extension=1" if extend else ""
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "0")
    agents = [
        build_agent(registry, game, {"searcher": "alphabeta", "depth": 5, "eval": table,
                                     **parse_spec(f"x:eval_cache={on}{extension}")[1]})
        for on in ("true", "false")
    ]  # fmt: skip
    for i, state in enumerate(positions(game, 5, 12)):
        on, off = (a.searcher.search(game, state, a.evaluator, np.random.default_rng(i))
                   for a in agents)  # fmt: skip
        assert (on.move, on.value, on.pv) == (off.move, off.value, off.pv)
        assert (on.stats.nodes, on.stats.leaves) == (off.stats.nodes, off.stats.leaves)
        assert on.stats.path == off.stats.path == "compiled"


@given(
    seed=st.integers(0, 10_000),
    depth=st.integers(1, 6),
    extend=st.booleans(),
    flags=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_compiled_search_equals_python_for_any_options(registry, seed, depth, extend, flags):
    names = ("tt", "ordering", "pvs", "random_ties", "random_order", "batch")
    pairs = zip(names, flags, strict=True)
    chosen = ",".join(f"{name}={str(flag).lower()}" for name, flag in pairs)
    spec = f"depth={depth},eval=material,extend_forced={str(extend).lower()},{chosen}"
    game = registry.game("tictactoe")
    state = positions(game, seed, 1 + seed % 5)[-1]
    with pytest.MonkeyPatch.context() as monkeypatch:
        python, compiled = both_paths(registry, spec, state, seed, monkeypatch)
    same(python, compiled)


@pytest.mark.parametrize(
    "spec",
    [
        "greedy:eval=material",
        "greedy:eval=material,random_ties=true",
        "greedy:null=true,eval=material",
    ],
)
def test_compiled_greedy_equals_python_greedy(registry, spec, monkeypatch):
    game = registry.game("tictactoe")
    agent = build_agent(registry, game, spec)
    for i, state in enumerate(positions(game, 3, 20)):
        results = []
        for force in ("1", "0"):
            monkeypatch.setenv("MINDGAMES_PYTHON_PATH", force)
            rng = np.random.default_rng(i)
            results.append(agent.searcher.search(game, state, agent.evaluator, rng))
        python, compiled = results
        assert (compiled.move, compiled.pv, compiled.stats.nodes, compiled.stats.leaves) == (
            python.move,
            python.pv,
            python.stats.nodes,
            python.stats.leaves,
        )
        assert compiled.value == pytest.approx(python.value, abs=1e-12)
        assert (python.stats.path, compiled.stats.path) == ("python", "compiled")


def test_remembered_leaves_spread_over_the_table():
    """Leaves of one ply whose encodings take the usual values (0, 1, -1, a king's 1.5) land in
    many slots of the remembered-leaf table, not one chain: the key's low bits see only the
    inputs' low mantissa bits, all zero here (a slot from them made the MLP's depth-8 search
    three times slower with ``eval_cache`` than without)."""
    from mindgames.plugins.searchers import alphabeta_kernel as k
    from mindgames.plugins.searchers.alphabeta_compiled import LEAF_SLOTS

    rng = np.random.default_rng(1)
    vectors = rng.choice([0.0, 1.0, -1.0, 1.5, -1.5], size=(2_000, 32))
    keys = {k.leaf_key(x, 30) for x in vectors}
    slots = {k.leaf_slot(key, LEAF_SLOTS - 1) for key in keys}
    assert len(keys) == 2_000
    assert len(slots) > 1_200  # about 1,580 for a uniform hash; the low bits alone give 1


@pytest.mark.parametrize(
    ("hidden", "option", "remembered"),
    [([4], "", False), ([300], "", True), ([4], ",eval_cache=true", True),
     ([300], ",eval_cache=false", False)],
)  # fmt: skip
def test_a_compiled_search_remembers_leaves_by_default_only_for_a_large_model(
    registry, hidden, option, remembered, monkeypatch
):
    """Unset, ``eval_cache`` is on for models of ``REMEMBER_FROM`` parameters or more: a small
    MLP's compiled value costs less than its remembering."""
    from mindgames.plugins.searchers import alphabeta_compiled

    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "0")
    game = registry.game("tictactoe")
    table = {"model": "mlp", "encoding": "cells", "hidden": hidden, "seed": 1}
    agent = build_agent(registry, game, {"searcher": "alphabeta", "eval": table,
                                         **parse_spec(f"x:depth=2{option}")[1]})  # fmt: skip
    size = agent.evaluator.model.get_params().size
    assert (size >= alphabeta_compiled.REMEMBER_FROM) == (hidden == [300])
    plan = alphabeta_compiled.plan(agent.searcher, game, agent.evaluator)
    assert plan is not None and plan.remember is remembered
