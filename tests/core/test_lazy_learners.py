"""Learners given by ``load`` are imported only when asked for: a command that searches pays for
no learner's modules (nor OpenSpiel's, whose bridge imports pyspiel when a game is loaded)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mindgames import LearnerInfo
from mindgames.errors import PluginError
from mindgames.plugins.learners.td import TDLearner


def test_a_search_command_imports_no_learner_until_one_is_described():
    code = """
import sys
from click.testing import CliRunner
from mindgames.cli.main import cli
def loaded():
    return sorted(m for m in sys.modules if m == "pyspiel" or (
        m.startswith("mindgames.plugins.learners.") and not m.endswith(".plugin")))
result = CliRunner().invoke(cli, ["analyse", "kalah", "--agent", "alphabeta:depth=2,eval=material"])
assert result.exit_code == 0, result.output
print(loaded())
result = CliRunner().invoke(cli, ["describe", "td"])
assert result.exit_code == 0, result.output
print("mindgames.plugins.learners.td" in loaded(), "lam" in result.output)
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        cwd=Path(__file__).parent,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "True True"]


def test_a_loaded_learner_is_its_class_and_is_loaded_once():
    calls = []

    def load():
        calls.append(1)
        return TDLearner

    info = LearnerInfo("td", load=load)
    assert not info.loaded
    assert info.cls is TDLearner and info.cls is TDLearner and info.loaded
    assert info.needs == TDLearner.needs and calls == [1]


def test_a_learner_record_takes_exactly_one_of_cls_and_load():
    with pytest.raises(TypeError, match="exactly one of cls and load"):
        LearnerInfo("td", TDLearner, load=lambda: TDLearner)
    with pytest.raises(TypeError, match="exactly one of cls and load"):
        LearnerInfo("td")


def test_a_loaded_class_of_another_name_is_refused_when_loaded():
    info = LearnerInfo("tdx", load=lambda: TDLearner)
    with pytest.raises(PluginError, match="a record's name must equal its class's name"):
        _ = info.cls
