"""The built-in games' kernels behind one module (games/kernel_families.py, their
``GameKernels.shared``): checkers, give-away and Kalah share one compiled search, each call
passed on to its game by the family number at the end of the params (``kernels.binding``), and
the bound module's digest covers every family's sources. (That the shared search and self-play
equal the Python path is what the compiled-path tests of each game show.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mindgames.agent import build_agent
from mindgames.kernels import binding, kernels_of
from mindgames.registry import get_registry


@pytest.fixture
def compiled(monkeypatch):
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "0")


def test_the_built_in_games_share_one_compiled_search(compiled):
    from mindgames.plugins.searchers import alphabeta_compiled

    registry = get_registry()
    modules = set()
    for name in ("checkers", "giveaway", "kalah"):
        game = registry.game(name)
        agent = build_agent(registry, game, "alphabeta:depth=3,eval=material")
        result = agent.searcher.search(
            game, game.initial_state(), agent.evaluator, np.random.default_rng(1)
        )
        assert result.stats.path == "compiled"
        plan = alphabeta_compiled.plan(agent.searcher, game, agent.evaluator)
        assert plan is not None
        modules.add(alphabeta_compiled._kernel_module(plan).__name__)
    assert len(modules) == 1 and modules.pop().startswith("mindgames_alphabeta_kernel_")


@pytest.mark.parametrize(("name", "family"), [("checkers", 0), ("giveaway", 0), ("kalah", 1)])
def test_a_built_in_game_binds_the_shared_module_with_its_family_last(name, family):
    from mindgames.games import kernel_families

    gk = kernels_of(get_registry().game(name))
    assert gk is not None and gk.shared == kernel_families.__name__
    assert kernel_families.FAMILIES[gk.family] == gk.module and gk.family == family
    module, params = binding(gk)
    assert module == gk.shared
    assert params.dtype == np.int64 and params[-1] == family
    assert np.array_equal(params[:-1], gk.params)
    assert binding(gk)[1] is params  # made once per kernels object


def test_the_shared_module_s_digest_covers_every_family_s_sources():
    """A changed draughts or Kalah kernel names a new bound module (no stale compiled copy)."""
    import importlib

    from mindgames.compiled.specialise import _sources
    from mindgames.games import kernel_families

    digested = _sources(kernel_families.__name__)
    for name in kernel_families.FAMILIES:
        package = Path(importlib.import_module(name).__file__).parent
        for source in package.glob("*.py"):  # e.g. draughts' kernels_rules.py
            assert source.read_bytes() in digested
