"""Bad configs and specs through the real CLI: one line naming the key, exit 2, nothing written.

Strings, floats and booleans are never coerced into int fields; a range error names the key, the
bound and the value; an unknown name names the file and the key; a negative seed is refused.
"""

from __future__ import annotations

import pytest

from mindgames.config import structure
from mindgames.errors import ConfigError
from mindgames.plugins.searchers.alphabeta import AlphaBeta
from tests.support.cli import one_line_error, run

GAME = "kalah:pits=3,seeds=2"
TRAIN = """\
game = "kalah:pits=3,seeds=2"
eval = {{ model = "linear", encoding = "kalah14" }}
{top}
[learner]
name = "td"
{learner}
"""
TOURNAMENT = """\
game = "kalah:pits=3,seeds=2"
{top}
[agents]
a = "random"
b = "{agent}"
"""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["perft", "kalah:pits=4.5", "--depth", "1"], "pits: expected an integer, got 4.5"),
        (["perft", "kalah:pits=true", "--depth", "1"], "pits: expected an integer, got true"),
        (["perft", 'kalah:pits="4"', "--depth", "1"], "pits: expected an integer, got '4'"),
        (["perft", "kalah:pits=0", "--depth", "1"], "pits must be a positive integer, got 0"),
        (
            ["match", "alphabeta:depth=2.9,eval=material", "random", "--game", GAME],
            "depth: expected an integer, got 2.9",
        ),
        (
            ["match", "alphabeta:depth=0,eval=material", "random", "--game", GAME],
            "'depth' must be >= 1: 0",
        ),
        (["match", "random", "random", "--game", GAME, "--seed", "-1"], "'--seed': -1"),
        (["perft", GAME, "--depth", "0"], "'--depth': 0 is not in the range x>=1"),  # counts 1..N
    ],
)
def test_a_bad_spec_is_one_line_naming_the_key(args, expected, tmp_path):
    one_line_error(run(*args, cwd=tmp_path), expected)
    assert not list(tmp_path.iterdir())


def train_config(top: str, learner: str) -> tuple[str, str]:
    return "train", TRAIN.format(top=top, learner=learner)


def tournament_config(top: str, agent: str) -> tuple[str, str]:
    return "tournament", TOURNAMENT.format(top=top, agent=agent)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            train_config("", 'games = "2000"'),
            "learner 'td': games: expected an integer, got '2000'",
        ),
        (train_config("", "games = -5"), "learner 'td': 'games' must be > 0: -5"),
        (train_config("", "games = 10\nlam = true"), "lam: expected a number, got true"),
        (train_config("seed = -3", "games = 10"), "'seed' must be >= 0: -3"),
        (train_config("seed = 1.5", "games = 10"), "seed: expected an integer, got 1.5"),
        (
            ("train", TRAIN.format(top="", learner="games = 10").replace(" }", ", seed = -1 }")),
            "eval: eval {'model': 'linear', 'encoding': 'kalah14', 'seed': -1}: seed: expected "
            "a non-negative integer, got -1",
        ),
        (
            train_config("", 'games = 10\nlookahead = "alphabta:depth=2"'),
            "unknown searcher 'alphabta'",
        ),
        (
            tournament_config("", "alphabta:depth=2,eval=material"),
            "agents.b: unknown searcher 'alphabta'",
        ),
        (
            tournament_config("", "alphabeta:depth=2,eval=materal"),
            "agents.b: unknown model 'materal'",
        ),
        (tournament_config("seed = 1.5", "random"), "seed: expected an integer, got 1.5"),
        (tournament_config("rounds = 0", "random"), "'rounds' must be >= 1: 0"),
    ],
)
def test_a_bad_config_is_one_line_naming_file_and_key_and_writes_nothing(
    config, expected, tmp_path
):
    command, text = config
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    one_line_error(run(command, path, "--out", tmp_path / "run"), str(path), expected)
    assert not (tmp_path / "run").exists()


def test_a_negative_seed_option_is_refused_before_training(tmp_path):
    config = tmp_path / "ok.toml"
    config.write_text(TRAIN.format(top="", learner="games = 2"), encoding="utf-8")
    one_line_error(run("train", config, "--out", tmp_path / "run", "--seed", "-1"), "-1")
    assert not (tmp_path / "run").exists()


def test_a_float_field_takes_an_int_and_an_int_field_refuses_a_bool():
    assert structure({"time": 1}, AlphaBeta, where="t").time == 1.0
    with pytest.raises(ConfigError, match="^t: depth: expected an integer, got true"):
        structure({"depth": True}, AlphaBeta, where="t")
