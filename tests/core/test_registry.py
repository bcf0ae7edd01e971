"""The registry: lookups, close matches, duplicates, capabilities, and broken plugins."""

import attrs
import numpy as np
import pytest

from mindgames import CapabilityError, GameInfo, UnknownNameError, hookimpl
from mindgames.agent import build_agent, build_evaluator
from mindgames.errors import ConfigError, DuplicateNameError
from mindgames.model import DIFFERENTIABLE, FITTABLE, check_declared, require
from mindgames.pluginhost import PluginHost
from mindgames.registry import Registry

from support.tictactoe import TicTacToe, TicTacToePlugin


def test_builds_game_and_encoding_by_name(registry):
    game = registry.game("tictactoe")
    assert isinstance(game, TicTacToe)
    enc = registry.encoding(game, "cells")
    assert enc.width == 9 and enc.columns[0] == "c1"
    assert enc.encode(game.initial_state()).tolist() == [0.0] * 9


def test_unknown_game_lists_known_and_closest(registry):
    with pytest.raises(UnknownNameError) as info:
        registry.game("tictactoo")
    msg = str(info.value)
    assert "unknown game 'tictactoo'" in msg
    assert "did you mean 'tictactoe'" in msg
    assert "known:" in msg and "tictactoe" in msg


def test_unknown_encoding_names_the_game(registry):
    game = registry.game("tictactoe")
    with pytest.raises(UnknownNameError, match="encoding 'cell' for game 'tictactoe'.*'cells'"):
        registry.encoding(game, "cell")


def test_game_parameters_are_checked(registry):
    with pytest.raises(ConfigError, match="game 'tictactoe:size=4'.*size"):
        registry.game("tictactoe:size=4")


def test_duplicate_names_are_an_error_naming_both_distributions():
    host = PluginHost()
    host.register(TicTacToePlugin(), "one", "dist-one")

    class Again:
        @hookimpl
        def mindgames_games(self):
            return [GameInfo("tictactoe", TicTacToe)]

    host.register(Again(), "two", "dist-two")
    with pytest.raises(DuplicateNameError) as info:
        Registry(host, strict=True)
    assert "dist-one" in str(info.value) and "dist-two" in str(info.value)
    # every command fails until one goes: the message says how to get going again
    assert "uninstall one, or skip one with MINDGAMES_DISABLE_PLUGINS=" in str(info.value)
    assert "=one" in str(info.value) and "=two" in str(info.value)
    builtin = PluginHost()  # a built-in is never the one to skip
    builtin.register(TicTacToePlugin(), "ttt", "mindgames")
    builtin.register(Again(), "two", "dist-two")
    with pytest.raises(DuplicateNameError) as info:
        Registry(builtin, strict=True)
    assert str(info.value).endswith("skip one with MINDGAMES_DISABLE_PLUGINS=two")


def test_a_hook_that_raises_is_reported_and_others_load(capsys):
    host = PluginHost()

    class Broken:
        @hookimpl
        def mindgames_games(self):
            raise RuntimeError("boom")

    host.register(Broken(), "broken", "broken-dist")
    host.register(TicTacToePlugin(), "ttt", "ttt-dist")
    registry = Registry(host, strict=False)
    assert "tictactoe" in registry.games
    assert [f.distribution for f in host.failures] == ["broken-dist"]
    assert "broken-dist" in capsys.readouterr().err
    with pytest.raises(RuntimeError):
        Registry(host, strict=True)


def test_capability_mismatch_names_both_sides(registry):
    game = registry.game("tictactoe")
    evaluator = build_evaluator(registry, game, {"model": "tiny", "encoding": "cells"})
    check_declared(evaluator.model)
    require({DIFFERENTIABLE}, evaluator.model, who="learner 'td'")
    with pytest.raises(CapabilityError, match="learner 'rprop' needs a fittable model.*'tiny'"):
        require({FITTABLE}, evaluator.model, who="learner 'rprop'")


def test_evaluator_from_table_uses_the_seed(registry):
    game = registry.game("tictactoe")
    a = build_evaluator(registry, game, {"model": "tiny", "encoding": "cells", "seed": 3})
    b = build_evaluator(registry, game, {"model": "tiny", "encoding": "cells", "seed": 3})
    assert np.array_equal(a.model.get_params(), b.model.get_params())
    with pytest.raises(ConfigError, match="needs an encoding"):
        build_evaluator(registry, game, "tiny")


def test_agent_spec_errors(registry):
    game = registry.game("tictactoe")
    with pytest.raises(UnknownNameError, match="unknown searcher 'nosuch'"):
        build_agent(registry, game, "nosuch:depth=2")


def test_registry_rows_list_every_component(registry):
    rows = registry.rows()
    kinds = {(r["name"], r["kind"]) for r in rows}
    assert ("tictactoe", "game") in kinds and ("tictactoe/cells", "encoding") in kinds
    assert all(set(r) == {"name", "kind", "plugin", "distribution", "version"} for r in rows)


def test_records_are_frozen():
    info = GameInfo("x", TicTacToe)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        info.name = "y"  # type: ignore[misc]
