"""Issue 38 on PDN: variations nested thousands deep, the standard's GameType written and read,
and ``pdn extract`` saying why every game was left out."""

from __future__ import annotations

import pytest

from mindgames.errors import GameRecordError
from mindgames.games.draughts.pdn import read_pdn, replay, write_pdn
from mindgames.games.draughts.pdn_replay import rules_for
from mindgames.games.draughts.rules import Checkers, Giveaway
from mindgames.registry import get_registry

from support.cli import one_line_error, run


def nested(depth: int) -> str:
    """One game whose first move has a variation nested ``depth`` deep."""
    return '[Event "deep"]\n\n1. 11-15 ' + "(11-16 " * depth + ")" * depth + " 23-19 *\n"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_pdn_convert_of_deeply_nested_variations_writes_them_back(tmp_path, depth):
    """Defect 4: ``pdn convert`` of 1,000 nested variations was a RecursionError."""
    source = tmp_path / "deep.pdn"
    source.write_text(nested(depth))
    out = tmp_path / "out.pdn"
    done = run("pdn", "convert", source, "-o", out)
    assert done.returncode == 0, done.stderr[-500:]
    text = out.read_text()
    assert text.count("(1. 11-16") == depth and text.count(")") == depth
    again = tmp_path / "again.pdn"
    assert run("pdn", "convert", out, "-o", again).returncode == 0
    assert again.read_text() == text


def test_the_writer_keeps_empty_and_sibling_variations_and_comments():
    text = '[Event "v"]\n\n1. 11-15 () (9-13 {a ( b} (10-14) ) 2. 23-19 {c} *\n'
    [game] = read_pdn(text)
    written = write_pdn([game])
    assert "11-15 () (1. 9-13 {a ( b} (1. 10-14)) 1... 23-19 {c} *" in written.replace("\n", " ")
    assert read_pdn(written)[0] == game


def test_every_game_we_write_says_gametype_21_as_the_standard_asks(tmp_path):
    """Defect 8: a tournament's checkers PDN had no GameType, which the standard reads as 10x10
    international draughts."""
    reg = get_registry()
    for spec, variant in (("checkers", None), ("giveaway", "giveaway")):
        game = reg.game(spec)
        exported = game.export_games([{"moves": ["11-15"], "result": "*", "position": None}])
        assert exported is not None
        [read] = read_pdn(exported[1])
        assert read.tags["GameType"] == "21" and read.tags.get("Variant") == variant
        assert type(rules_for(read)) is type(game)
    source = tmp_path / "plain.pdn"
    source.write_text('[Event "x"]\n\n1. 11-15 *\n')
    for rules, tags in (("checkers", {}), ("giveaway", {"Variant": "giveaway"})):
        done = run("pdn", "convert", source, "--game", rules)
        assert done.returncode == 0, done.stderr
        [converted] = read_pdn(done.stdout)
        assert converted.tags == {"Event": "x", "Result": "*", "GameType": "21", **tags}


def test_a_gametype_of_another_draughts_game_is_refused_by_its_name():
    [game] = read_pdn('[GameType "20"]\n\n1. 32-28 *\n')
    with pytest.raises(GameRecordError, match=r"'20' \(10x10 international draughts\)"):
        rules_for(game)
    assert replay(game, Checkers()).error is not None
    [full] = read_pdn('[GameType "21,B,8,8,N1,0"]\n[Variant "giveaway"]\n\n1. 11-15 *\n')
    assert type(rules_for(full)) is Giveaway


def test_pdn_extract_of_unfinished_games_says_they_have_no_result(tmp_path):
    """Defect 7: 20,000 unfinished games were "0 did not replay or were left out"."""
    source = tmp_path / "open.pdn"
    source.write_text("\n".join(f'[Event "{i}"]\n\n1. 11-15 *\n' for i in range(300)))
    done = run("pdn", "extract", source, "-o", tmp_path / "d.npz")
    one_line_error(done, "no game to extract (of 300 games, 300 have no result (*))")
