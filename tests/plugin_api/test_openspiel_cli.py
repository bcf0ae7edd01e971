"""The OpenSpiel bridge through the ``mindgames`` commands: check-game on every eligible game,
perft, bad input, and TD training plus a 2-worker tournament from the package's examples."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from mindgames_openspiel.loading import eligible_names

from mindgames.cli.main import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "openspiel-plugin"
#: the games every eligible OpenSpiel game is checked as; a few long ones at a smaller size, so
#: the whole check stays a few seconds (``mindgames check-game`` passes at the defaults too)
SMALLER = {"go": "go(board_size=9)", "chinese_checkers": "chinese_checkers(max_moves=200)"}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_open_spiel_offers_the_31_eligible_games():
    names = eligible_names()
    assert len(names) == 31
    assert {"amazons", "breakthrough", "checkers", "chess", "connect_four", "go", "hex"} <= set(
        names
    )
    assert not {"kuhn_poker", "backgammon", "goofspiel", "2048"} & set(names)


@pytest.mark.slow
@pytest.mark.parametrize("name", eligible_names())
def test_every_eligible_game_passes_check_game(name):
    spec = f'openspiel:game="{SMALLER.get(name, name)}"'
    out = run("check-game", spec, "--playouts", "1")
    assert out.exit_code == 0, out.output
    assert "conforms" in out.stdout and "observation" in out.stdout


def test_check_game_names_the_openspiel_game_it_checked():
    out = run("check-game", "openspiel:game=connect_four", "--playouts", "1")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[-1].startswith("openspiel:game=connect_four: 1 playouts, ")


def readme_blocks(section: str) -> list[str]:
    """The console blocks of one ``## section`` of the package README."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```console\n(.*?)```", body, re.S)


def test_the_readme_commands_run_as_written():
    commands, refusal = readme_blocks("Games")
    for line in commands.splitlines():
        args = shlex.split(line.split("#")[0])
        if args[1] == "play":  # interactive
            continue
        out = run(*args[1:])
        assert out.exit_code == 0, (line, out.output)
        if args[1] == "perft":
            assert out.stdout.split("\n")[8] == "depth 9: 127872"
    command, message = refusal.splitlines()
    out = run(*shlex.split(command.removeprefix("$ "))[1:])
    assert out.exit_code == 2 and out.stderr.splitlines() == [message]


def test_perft_of_connect_four_on_the_command_line():
    out = run("perft", "openspiel:game=connect_four", "--depth", "5", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["counts"] == [7, 49, 343, 2401, 16807]
    moves = run("moves", "openspiel:game=connect_four", "--position", "3 3 3", "--json")
    assert json.loads(moves.stdout) == sorted(f"o{i}" for i in range(7))


@pytest.mark.parametrize(
    "game, message",
    [
        ("nosuchgame", "unknown OpenSpiel game 'nosuchgame'"),
        ("conect_four", "did you mean 'connect_four'?"),
        ("kuhn_poker", "is not deterministic (it has chance events) and not perfect-information"),
        ("backgammon", "'backgammon' is not deterministic (it has chance events); mindgames"),
        ("dark_hex", "'dark_hex' is not perfect-information (it hides information); mindgames"),
        ("goofspiel", "is not sequential (its players move simultaneously)"),
        ("quoridor(players=4)", "is not two-player (it has 4 players)"),
        ("tic_tac_toe(foo=1)", "Unknown parameter 'foo'. (parameters: none)"),
        ("breakthrough(rows=x)", "Wrong type for parameter rows. Expected type: kInt"),
        ("tic_tac_toe(", "Missing closing bracket"),
    ],
)
def test_bad_games_are_one_line_and_exit_2(game, message, capfd):
    result = run("moves", f'openspiel:game="{game}"')
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("mindgames: error: game ") and message in line
    captured = capfd.readouterr()
    assert "OpenSpiel exception" not in captured.err  # OpenSpiel's own printing is silenced


def test_a_refused_game_in_a_real_process_prints_one_line():
    code = "from mindgames.cli.main import main; main()"
    out = subprocess.run(
        [sys.executable, "-c", code, "perft", "openspiel:game=leduc_poker", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, MINDGAMES_STRICT_PLUGINS="1"),
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "mindgames: error: game 'openspiel:game=leduc_poker': OpenSpiel game 'leduc_poker' is "
        "not deterministic (it has chance events) and not perfect-information (it hides "
        "information); mindgames plays two-player, sequential, deterministic, "
        "perfect-information, zero- or constant-sum games"
    ]


def shrunk(name: str, tmp_path: Path, replace: dict[str, str]) -> Path:
    """The example file with some lines replaced, written to ``tmp_path``."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_td_trains_on_connect_four_and_the_net_plays_a_two_worker_tournament(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the tournament names the model as runs/c4-td/model.npz
    config = shrunk(
        "connect-four-td.toml",
        tmp_path,
        {"games = 2000": "games = 40", "batch = 500": "batch = 20", "every = 1000": "every = 20"},
    )
    trained = run("train", str(config), "--out", "runs/c4-td", "--quiet")
    assert trained.exit_code == 0, trained.output
    model = tmp_path / "runs" / "c4-td" / "model.npz"
    described = run("describe-model", str(model), "--json")
    assert json.loads(described.stdout)["game"]["params"] == {"game": "connect_four"}

    match = run(
        "match", f"alphabeta:depth=2,eval=@{model}", "random", "--game",
        "openspiel:game=connect_four", "--games", "10", "--workers", "2", "--json",
    )  # fmt: skip
    assert match.exit_code == 0, match.output
    first, _ = json.loads(match.stdout)["standings"]
    assert first["agent"].startswith("alphabeta") and first["wins"] >= 8  # it beats random

    tournament = shrunk("connect-four-tournament.toml", tmp_path, {"count=10": "count=1"})
    out = run("tournament", str(tournament), "--out", "runs/t", "--workers", "2")
    assert out.exit_code == 0, out.output
    rows = [json.loads(x) for x in (tmp_path / "runs" / "t" / "results.jsonl").open()]
    assert len(rows) == 12 and {r["first"] for r in rows} | {r["second"] for r in rows} == {
        "random",
        "null2",
        "null4",
        "td2",
    }
    assert all(r["termination"] == "rules" for r in rows)
