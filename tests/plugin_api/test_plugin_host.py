"""The plugin host is strict and honest: misspelt hooks, bad records, switched-off plugins.

The subprocess tests go through real entry points (distributions on ``PYTHONPATH``); the
in-process ones build a host from plugin objects.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mindgames import GameInfo, hookimpl
from mindgames.errors import CapabilityError, PluginError
from mindgames.model import DIFFERENTIABLE, PARAMETRIC, require
from mindgames.pluginhost import PluginHost
from mindgames.registry import Registry, registry_with

from support.dists import make_dist, run_cli
from support.tictactoe import TicTacToe, TicTacToePlugin
from support.tinymodel import TinyLinear

MISSPELT = textwrap.dedent(
    """
    from mindgames import hookimpl

    @hookimpl
    def mindgames_game():
        return []
    """
)

BAD_RECORD = textwrap.dedent(
    """
    from mindgames import hookimpl

    @hookimpl
    def mindgames_games():
        return ["not a GameInfo"]
    """
)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    make_dist(tmp_path, "misspelt", "misspelt_plugin", MISSPELT, "misspelt")
    make_dist(tmp_path, "badrecord", "badrecord_plugin", BAD_RECORD, "badrecord")
    return tmp_path


def test_misspelt_hook_warns_and_strict_mode_refuses_it(site):
    out = run_cli(site, "plugins", "--json", MINDGAMES_DISABLE_PLUGINS="badrecord")
    assert out.returncode == 0, out.stderr
    failures = json.loads(out.stdout)["failures"]
    assert [f["distribution"] for f in failures] == ["misspelt"]
    assert "did you mean 'mindgames_games'" in failures[0]["error"]
    strict = run_cli(site, "plugins", strict=True, MINDGAMES_DISABLE_PLUGINS="badrecord")
    assert strict.returncode != 0
    assert "'mindgames_game' is not a mindgames hook" in strict.stderr


def test_bad_record_is_that_plugins_failure_and_plugins_still_lists(site):
    out = run_cli(site, "plugins", "--json", MINDGAMES_DISABLE_PLUGINS="misspelt")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"components", "failures"}
    assert [f["distribution"] for f in data["failures"]] == ["badrecord"]
    assert "returned str from mindgames_games, expected GameInfo" in data["failures"][0]["error"]
    assert ("checkers", "game") in {(r["name"], r["kind"]) for r in data["components"]}
    table = run_cli(site, "plugins", MINDGAMES_DISABLE_PLUGINS="misspelt")
    assert table.returncode == 0 and "FAILED  badrecord (badrecord)" in table.stdout
    moves = run_cli(site, "moves", "kalah:pits=2,seeds=1", MINDGAMES_DISABLE_PLUGINS="misspelt")
    assert moves.returncode == 0, moves.stderr


def test_disable_variable_takes_entry_point_or_distribution_names(site):
    out = run_cli(site, "plugins", "--json", MINDGAMES_DISABLE_PLUGINS="misspelt, badrecord,kalah")
    data = json.loads(out.stdout)
    assert data["failures"] == []
    assert "kalah" not in {r["plugin"] for r in data["components"]}
    assert "checkers" in {r["name"] for r in data["components"]}


def test_record_name_must_equal_the_class_name():
    class Renamed:
        @hookimpl
        def mindgames_games(self):
            return [GameInfo("ttt2", TicTacToe)]

    def host() -> PluginHost:
        made = PluginHost()
        made.register(Renamed(), "renamed", "renamed-dist")
        return made

    lenient = host()
    registry = Registry(lenient, strict=False)
    assert "ttt2" not in registry.games
    assert "the class's name is 'tictactoe'" in lenient.failures[0].error
    with pytest.raises(PluginError, match="renamed-dist.*must equal its class's name"):
        Registry(host(), strict=True)


def test_a_hook_without_hookimpl_is_reported():
    class Unmarked:
        def mindgames_games(self):
            return [GameInfo("tictactoe", TicTacToe)]

    host = PluginHost()
    host.register(Unmarked(), "unmarked", "unmarked-dist")
    registry = Registry(host, strict=False)
    assert "tictactoe" not in registry.games
    assert host.failures[0].error.startswith("mindgames_games is not marked with @hookimpl")
    with pytest.raises(PluginError, match="'unmarked': mindgames_games is not marked"):
        Registry(host, strict=True)


def test_registry_with_replaces_an_installed_plugin_of_that_name():
    registry = registry_with(("kalah", TicTacToePlugin()))
    assert "kalah" not in registry.games and "tictactoe" in registry.games
    assert registry.games["tictactoe"].source.distribution == "test"


def test_require_proves_the_declared_capabilities():
    class Claims(TinyLinear):
        """Declares differentiable but has lost its gradient."""

        kind = "claims"
        value_and_grad = None  # type: ignore[assignment]

    model = Claims([0.0])
    with pytest.raises(CapabilityError, match="declares 'differentiable' but lacks its methods"):
        require({PARAMETRIC}, model, who="learner 'x'")
    require({DIFFERENTIABLE}, TinyLinear([0.0]), who="learner 'td'")


def test_a_model_written_with_the_old_kind_spelling_is_named_by_it():
    class Old(TinyLinear):
        kind = "old"

    assert Old.name == "old" and TinyLinear.name == "tiny"
