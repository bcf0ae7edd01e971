"""Fuzzing the parsers of user input (issue 38): spec strings (games, agents, openings), TOML
configs (tournament and training), position texts (checkers and give-away FEN, Kalah) and PDN.
Whatever the text, each either parses or raises a ``MindgamesError`` (the CLI's one line): never
another exception. Bounded examples, so the suite stays quick; a failure prints its input."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mindgames.agent import build_agent
from mindgames.errors import MindgamesError
from mindgames.games.draughts.pdn import read_pdn, replay
from mindgames.games.draughts.rules import Checkers, Giveaway
from mindgames.play.openings import parse_openings
from mindgames.play.tournament import load_config
from mindgames.registry import get_registry
from mindgames.spec import parse_spec
from mindgames.training import build
from mindgames.training import load_config as load_training

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

#: the characters that matter to the grammars, and a few that should not
SPEC_CHARS = string.ascii_lowercase + string.digits + ":=,.-_+@\"[]{} '\\/\x00é"
NAMES = ["kalah", "checkers", "giveaway", "alphabeta", "greedy", "random", "minimax", "random"]
KEYS = ["pits", "seeds", "depth", "eval", "nodes", "time", "plies", "count", "hidden", "model",
        "encoding", "no_progress", "king", "x"]  # fmt: skip
VALUES = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(
        [
            "material",
            "true",
            "nan",
            "inf",
            "1e400",
            '"x"',
            "[1, 2]",
            "@x.npz",
            '{model="mlp",hidden=[10]}',
            "[[[[[[",
            "[" * 3000 + "]" * 3000,
            "]",
            "-0",
            "0x10",
            "1_000",
        ]
    ),
    st.text(SPEC_CHARS, max_size=12),
)
SPECS = st.one_of(
    st.text(SPEC_CHARS, max_size=40),
    st.builds(
        lambda name, options: (
            name + (":" + ",".join(f"{k}={v}" for k, v in options) if options else "")
        ),
        st.sampled_from(NAMES),
        st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=4),
    ),
)


@pytest.fixture(scope="module")
def reg():
    return get_registry()


def only_our_errors(call, *args):
    """``call(*args)``; a MindgamesError is an answer, anything else fails the test."""
    try:
        return call(*args)
    except MindgamesError as exc:
        assert "\n" not in str(exc).strip() or "Traceback" not in str(exc)
        return None


@FUZZ
@given(spec=SPECS)
@example(spec="alphabeta:eval=0")  # found by this test: an eval that is neither text nor table
def test_spec_strings_of_games_agents_and_openings(reg, spec):
    only_our_errors(parse_spec, spec)
    game = only_our_errors(reg.game, spec)
    if game is not None:
        only_our_errors(game.initial_state)
    kalah = reg.game("kalah:pits=3,seeds=2")
    only_our_errors(build_agent, reg, kalah, spec)
    only_our_errors(lambda: parse_openings(spec, where="fuzz"))


TOML_LINES = st.sampled_from([
    'game = "kalah"', 'game = "kalah:pits=3"', "game = 3", "[agents]", 'a = "random"',
    'b = "greedy:eval=material"', 'rounds = 1000000000000', "rounds = -1", 'format = "x"',
    'openings = "random:plies=2,count=99999999999"', "openings = 4", "[learner]", 'name = "td"',
    "games = 2", "[eval]", 'model = "mlp"', 'encoding = "kalah14"', "hidden = [1000000000]",
    "hidden = [[1]]", "seed = -1", "x = [" * 3, "v = " + "[" * 2000 + "]" * 2000, "a.b.c = 1",
    'champion = "a"', "max_plies = 0", "workers = 100000", "eval = \"@/etc/passwd\"",
])  # fmt: skip


@FUZZ
@given(lines=st.lists(st.one_of(TOML_LINES, st.text(SPEC_CHARS + "\n=#", max_size=30)),
                      max_size=8))  # fmt: skip
def test_toml_configs_of_tournaments_and_training(reg, tmp_path_factory, lines):
    path: Path = tmp_path_factory.mktemp("toml") / "c.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    from mindgames.play.tournament import plan

    config = only_our_errors(load_config, path)
    if config is not None:
        only_our_errors(lambda: plan(config, reg, where=str(path)))
    loaded = only_our_errors(load_training, path)
    if loaded is not None:
        only_our_errors(build, loaded[0], reg, 0)


FEN_CHARS = "BWK:,.0123456789- \tbwk"


@FUZZ
@given(text=st.one_of(st.text(FEN_CHARS, max_size=40), st.text(max_size=20)))
def test_checkers_and_giveaway_positions(reg, text):
    for name in ("checkers", "giveaway"):
        game = reg.game(name)
        state = only_our_errors(game.parse_position, text)
        if state is not None and not game.is_terminal(state):
            game.legal_moves(state)
            assert game.parse_position(game.position_text(state)) is not None


@FUZZ
@given(text=st.one_of(st.text("0123456789,;SN -", max_size=40), st.text(max_size=20)))
def test_kalah_positions(reg, text):
    for spec in ("kalah", "kalah:pits=3,seeds=2"):
        game = reg.game(spec)
        state = only_our_errors(game.parse_position, text)
        if state is not None and not game.is_terminal(state):
            game.legal_moves(state)


PDN_PIECES = st.sampled_from([
    '[Event "e"]\n', '[GameType "20"]\n', '[GameType "21"]\n', '[Variant "giveaway"]\n',
    '[FEN "B:W18,24:B12,16"]\n', '[FEN "x"]\n', '[SetUp "1"]\n', "\n", "1. ", "2... ", "11-15 ",
    "23-19 ", "9x18 ", "8-11 ", "22x15 ", "(", ")", "{a comment} ", "{", "}", "1-0", "0-1",
    "1/2-1/2", "*", "$3 ", "!? ", "; rest of line\n", "%escape\n", '"', "[", "]", "\\",
])  # fmt: skip


@FUZZ
@given(parts=st.lists(st.one_of(PDN_PIECES, st.text(max_size=5)), max_size=30))
def test_pdn_text_read_replayed_and_written(parts):
    from mindgames.games.draughts.pdn import write_pdn
    from mindgames.games.draughts.pdn_replay import clean

    games = only_our_errors(read_pdn, "".join(parts))
    for game in games or []:
        for rules in (Checkers(), Giveaway()):
            played = only_our_errors(replay, game, rules)
            if played is not None:
                only_our_errors(write_pdn, [clean(game, played)])
