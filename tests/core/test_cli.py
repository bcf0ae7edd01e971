"""The CLI skeleton through a real subprocess: version, plugins, describe-model, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click

from mindgames import __version__
from mindgames.agent import build_evaluator
from mindgames.cli.main import cli
from mindgames.modelfile import save_evaluator
from tests.support.cli import command, environment


def mindgames(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from mindgames.cli.main import main; main()"
    env = dict(os.environ, MINDGAMES_STRICT_PLUGINS="1")
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=600, env=env
    )


def test_version():
    out = mindgames("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"mindgames, version {__version__}"


def test_plugins_json_lists_builtins_with_their_distribution():
    out = mindgames("plugins", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"components", "failures"} and data["failures"] == []
    # besides mindgames, only the OpenSpiel bridge that `make test` installs
    everything = data["components"]
    assert {r["distribution"] for r in everything} <= {"mindgames", "mindgames-openspiel"}
    rows = [r for r in everything if r["distribution"] == "mindgames"]
    assert rows, "no built-in components registered"
    # every built-in entry point, plus the encodings the core offers every game
    assert {r["plugin"] for r in rows} == {
        "core",
        "draughts",
        "kalah",
        "evaluators",
        "searchers",
        "learners",
    }


def test_describe_model_reads_metadata(registry, tmp_path):
    game = registry.game("tictactoe")
    evaluator = build_evaluator(registry, game, {"model": "tiny", "encoding": "cells"})
    path = tmp_path / "m.npz"
    save_evaluator(path, game, evaluator, {"learner": "none", "seed": 5})
    out = mindgames("describe-model", str(path), "--json")
    assert out.returncode == 0, out.stderr
    meta = json.loads(out.stdout)
    assert meta["game"]["name"] == "tictactoe" and meta["model"]["kind"] == "tiny"
    text = mindgames("describe-model", str(path))
    assert "encoding:   cells (9 columns)" in text.stdout and "parameters: 9" in text.stdout


def test_user_error_is_one_line_exit_2_and_verbose_shows_traceback(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    out = mindgames("describe-model", str(bad))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("mindgames: error: ")
    verbose = mindgames("--verbose", "describe-model", str(bad))
    assert verbose.returncode != 0 and "Traceback" in verbose.stderr


def test_a_model_file_named_with_an_agent_specs_at_sign_gets_the_hint(tmp_path):
    out = mindgames("describe-model", "@zoo:checkers-td")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "name it here without the '@': zoo:checkers-td" in out.stderr
    assert mindgames("describe-model", "zoo:checkers-td").returncode == 0


def test_unknown_game_exit_2():
    out = mindgames("describe", "no-such-game")
    assert out.returncode == 2
    assert "unknown game, searcher, learner or model 'no-such-game'" in out.stderr


def test_describe_model_names_the_game_by_its_spec(tmp_path):
    """Only the parameters that differ from the defaults, written as a spec string."""
    from mindgames.registry import get_registry

    registry = get_registry()
    game = registry.game("kalah:seeds=3")
    path = tmp_path / "k.npz"
    save_evaluator(path, game, build_evaluator(registry, game, "material"))
    out = mindgames("describe-model", str(path))
    assert out.returncode == 0, out.stderr
    assert "game:       kalah:seeds=3\n" in out.stdout


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``mindgames plugins | head -1``: no "Broken pipe" error line, no traceback."""
    proc = subprocess.Popen(
        command("plugins"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment()
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 1
    assert err == b""


def _commands(group: click.Group, ctx: click.Context, path: str = "mindgames"):
    """Every command under ``group``, with its full name, plugin commands included."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        yield f"{path} {name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, click.Context(command, parent=ctx), f"{path} {name}")


def test_game_names_a_game_and_number_picks_one_in_every_command():
    """``--game`` is always a game (a name or spec), never which game of a file (``--number``)."""
    ctx = click.Context(cli)
    by_name: dict[str, list[str]] = {"--game": [], "--number": []}
    for name, found in _commands(cli, ctx):
        for param in found.params:
            for option in set(param.opts) & set(by_name):
                by_name[option].append(name)
                taking = param.type
                if option == "--game":
                    assert isinstance(taking, click.Choice) or taking is click.STRING, name
                else:
                    assert isinstance(taking, click.IntRange) and taking.min == 1, name
    assert {"mindgames match", "mindgames show", "mindgames pdn check"} <= set(by_name["--game"])
    assert set(by_name["--number"]) == {"mindgames play", "mindgames show"}


def test_core_commands_are_listed_by_their_modules_and_imported_when_asked_for():
    import importlib

    from mindgames.cli.main import CORE_COMMANDS

    for module, names in CORE_COMMANDS.items():
        commands = importlib.import_module(f"mindgames.cli.{module}").COMMANDS
        assert tuple(c.name for c in commands) == names, module
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from mindgames.cli.main import cli\n"
        "r = CliRunner().invoke(cli, ['moves', 'kalah'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in sys.modules if m.startswith('mindgames.cli.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = ["mindgames.cli.common", "mindgames.cli.games", "mindgames.cli.main"]
    assert done.stdout.strip() == str(loaded)


def test_blas_runs_on_one_thread_unless_the_environment_says_otherwise():
    """Parallelism is across games and workers: BLAS threads default to one (docs/architecture.md,
    "Threads"), set before numpy loads, and a user's own setting is kept."""
    code = (
        "import mindgames, os\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["1", "1"]
    env["OPENBLAS_NUM_THREADS"] = "2"
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert ran.stdout.split() == ["2", "1"]
