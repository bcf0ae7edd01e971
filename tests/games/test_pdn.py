"""PDN records: engine games round-trip, every repair and error of a sloppy file, fuzzing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mindgames.data.sets import read_dataset
from mindgames.errors import GameRecordError, MindgamesError
from mindgames.games.draughts.pdn import (
    PdnGame,
    PdnMove,
    check_report,
    clean,
    game_text,
    read_pdn,
    read_pdn_file,
    record,
    replay,
    rules_for,
    write_pdn,
)
from mindgames.games.draughts.rules import Checkers, Giveaway

DATA = Path(__file__).parent / "data"
ENGINE = DATA / "engine_games.pdn"
SLOPPY = DATA / "sloppy.pdn"


def without_escapes(text: str) -> str:
    """The text minus its ``%`` escape lines (the fixture's provenance header)."""
    return "".join(line for line in text.splitlines(True) if not line.startswith("%"))


# --- engine games: read, replay, write back identically ------------------------------------
def test_engine_games_replay_and_write_back_identically() -> None:
    text = ENGINE.read_text()
    games = read_pdn(text)
    assert len(games) == 24
    assert write_pdn(games) == without_escapes(text)
    assert read_pdn(write_pdn(games)) == games
    kinds = set()
    for game in games:
        played = replay(game)
        assert game.warnings == () and game.error is None
        assert played.warnings == () and played.error is None, game.number
        assert played.plies == len(game.moves) > 0
        assert played.texts() == [m.text for m in game.moves]  # canonical already
        assert clean(game, played) == game
        kinds.add(type(played.rules).__name__)
        if game.result != "1/2-1/2" and played.rules.is_terminal(played.final):
            first = played.rules.returns(played.final)[0]
            assert game.result == ("1-0" if first > 0 else "0-1")
    assert kinds == {"Checkers", "Giveaway"}
    assert any("FEN" in g.tags for g in games)
    assert all(len(line) < 80 for line in text.splitlines() if not line.startswith("["))


def test_record_builds_tags_and_result_from_the_rules() -> None:
    rules = Giveaway()
    state = rules.parse_position("B:W14:B10")
    game = record(rules, ["10x17"], tags={"Event": "e"}, start=state)
    assert game.tags == {"GameType": "21", "Variant": "giveaway", "SetUp": "1",
                         "FEN": "B:W14:B10", "Event": "e", "Result": "0-1"}  # fmt: skip
    assert game.result == "0-1"  # White has no piece left: in give-away White wins
    text = game_text(game)
    assert text.splitlines()[:3] == ['[Event "e"]', '[Result "0-1"]', '[GameType "21"]']
    assert read_pdn(text) == [game]
    assert record(Checkers(), [(11, 15)]).result == "*"
    with pytest.raises(GameRecordError, match="result"):
        record(Checkers(), [], result="2-0")


def test_from_moves_and_writer_refusals() -> None:
    game = PdnGame.from_moves(["11-15", "23-19"], "1-0", {"Black": 'A "quoted" \\ name'})
    back = read_pdn(write_pdn([game]))
    assert back == [game] and back[0].tags["Black"] == 'A "quoted" \\ name'
    with pytest.raises(GameRecordError):
        PdnGame.from_moves([], "win")
    with pytest.raises(GameRecordError, match="cannot be written"):
        game_text(PdnGame({"bad name": "x"}))
    with pytest.raises(GameRecordError, match="comment"):
        game_text(PdnGame({}, (PdnMove("11-15", comments=("a } b",)),)))


# --- the sloppy file: every repair and every error, with game and move numbers ---------------
# number -> (warning kinds, error kind or None, move number of the first issue with one)
EXPECTED = {
    1: ((), None),
    2: (("separator", "separator", "separator"), None),
    3: (("short-capture",), None),
    4: (("ambiguous-capture",), None),
    5: (("ambiguous-capture",), None),
    6: (("tag-name", "fen-dot"), None),
    7: (("glued-text", "glued-text", "glued-text"), None),
    8: ((), None),
    9: (("same-line",), None),
    10: ((), "illegal-move"),
    11: ((), "syntax"),
    12: ((), "syntax"),
    13: ((), "syntax"),
    14: (("missing-result",), "syntax"),
    15: ((), None),
    16: ((), "setup"),
    17: (("result",), "setup"),
    18: ((), "setup"),
    19: ((), "illegal-move"),
    20: ((), None),
    21: (("missing-result",), None),
}


def test_sloppy_file_reports_every_repair_and_error() -> None:
    games = read_pdn_file(SLOPPY)
    assert [g.number for g in games] == list(EXPECTED)
    for game in games:
        played = replay(game)
        kinds = tuple(w.kind for w in played.warnings)
        assert kinds == EXPECTED[game.number][0], (game.number, played.warnings)
        error = played.error
        assert (error.kind if error else None) == EXPECTED[game.number][1], game.number
        for issue in (*played.warnings, *([error] if error else [])):
            assert issue.game == game.number and issue.line > 0 and issue.column > 0
            assert str(issue).startswith(f"game {game.number}, line {issue.line}, column")
    by = {g.number: (g, replay(g)) for g in games}
    # repairs name the move number; Black's moves are "N", White's "N..."
    assert [w.move for w in by[2][1].warnings] == ["1", "5...", "6"]
    assert by[3][1].warnings[0].message == "27x9 read as 27x18x9"
    assert by[4][1].texts()[13] == "19x12x3" and by[5][1].texts()[13] == "19x10x3"
    assert by[6][0].tags["SetUp"] == "1" and not by[6][0].tags["FEN"].endswith(".")
    assert by[6][1].plies == 2 and by[6][1].warnings[0].move is None
    assert by[7][1].warnings[2].move == "2..." and by[7][1].plies == 5
    assert by[8][1].plies == 2 and by[9][0].tags["Event"] == "the second"
    # errors keep the moves before them and say where
    err = by[10][1].error
    assert by[10][1].plies == 4 and err is not None and (err.line, err.move) == (54, "3")
    assert "15-19 matches no legal move (legal: 15x22)" in err.message
    assert by[11][1].plies == 3 and "'@@'" in str(by[11][1].error)
    assert by[12][1].plies == 2 and "not closed" in str(by[12][1].error)
    assert by[14][1].plies == 1 and by[15][1].plies == 2  # the game after survives
    assert by[16][1].error is not None and by[16][1].error.line == 82  # the FEN tag's line
    assert by[19][1].plies == 1 and "after the end" in str(by[19][1].error)
    assert by[20][1].rules == Giveaway(repetition=False, no_progress=0)
    assert by[21][0].result == "1-0"  # taken from the Result tag


def test_sloppy_file_converts_to_clean_pdn_that_reads_back() -> None:
    games = read_pdn_file(SLOPPY)
    cleaned = [clean(g, replay(g)) for g in games]
    text = write_pdn(cleaned)
    again = read_pdn(text)
    assert again == cleaned
    assert all(len(line) < 80 for line in text.splitlines() if not line.startswith("["))
    for before, after in zip(games, again, strict=True):
        first, second = replay(before), replay(after)
        assert second.plies == first.plies and second.final == first.final
        if first.error is None:
            assert second.error is None and second.warnings == ()
    assert "19x12x3 8. 11-16" in text and "27x18x9" in text
    assert read_pdn(write_pdn(games)) == games  # as read, repairs and all


def test_check_report_counts() -> None:
    report = check_report(read_pdn_file(SLOPPY))
    assert (report["total"], report["replayed"], report["errors"]) == (21, 12, 9)
    row = report["games"][0]
    assert row["index"] == 0 and row["error"] is None and row["plies"] == 11
    assert row["tags"]["Black"] == "Tinsley"
    assert report["games"][9]["error"].startswith("game 10, line 54, column 33, move 3:")


def test_tags_choose_the_rules() -> None:
    assert rules_for(PdnGame({"GameType": "21,W,8,8,A0,0"})) == Checkers(
        repetition=False, no_progress=0
    )
    assert isinstance(rules_for(PdnGame({}), Giveaway()), Giveaway)
    assert isinstance(rules_for(PdnGame({"Variant": "checkers"}), Giveaway()), Checkers)
    with pytest.raises(GameRecordError, match="Variant"):
        rules_for(PdnGame({"Variant": "russian"}))
    game = read_pdn('[SetUp "0"]\n[FEN "B:W14:B10"]\n1. 11-15 *')[0]
    assert replay(game).plies == 1 and replay(game).warnings[0].kind == "setup"


def test_annotations_variations_and_comments_are_kept() -> None:
    text = "{pre} 1. 11-15 {a} {b} (1. 9-14 (1. 10-14) 22-18) 23-19!? $2 *"
    (game,) = read_pdn(text)
    first = game.moves[0]
    assert first.before == ("pre",) and first.comments == ("a", "b")
    assert [[m.text for m in v] for v in first.variations] == [["9-14", "22-18"]]
    assert first.variations[0][0].variations[0][0].text == "10-14"
    assert game.moves[1].annotation == "!? $2"
    assert read_pdn(game_text(game)) == [game]


# --- fuzzing ---------------------------------------------------------------------------------
PDN_CHARS = st.sampled_from(list('[]{}()"\\;%$!?.*-x/ \n\t0123456789EventRsulW:BK,'))
GOOD = read_pdn(ENGINE.read_text())[:6]


@settings(max_examples=300)
@given(st.text(PDN_CHARS, max_size=120) | st.text(max_size=60))
def test_fuzzed_text_raises_nothing_but_own_errors(text: str) -> None:
    try:
        games = read_pdn(text)
        check_report(games)
        write_pdn([clean(g, replay(g)) for g in games])
        assert read_pdn(write_pdn(games)) == games
    except MindgamesError:
        pass


@settings(max_examples=200)
@given(st.text(PDN_CHARS, min_size=1, max_size=80), st.sampled_from(GOOD))
def test_a_broken_game_never_costs_the_well_formed_game_after_it(junk: str, good) -> None:
    broken = read_pdn(junk)
    assume(broken and broken[-1].error is not None)
    games = read_pdn(junk + "\n" + game_text(good))
    assert games[-1] == good
    assert games[-1].error is None and replay(games[-1]).error is None


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.lists(st.text("ab {}\n", max_size=12), max_size=4))
def test_random_played_trees_round_trip(seed: int, notes: list[str]) -> None:
    rng = np.random.default_rng(seed)
    rules = Checkers(max_plies=40)
    state, moves = rules.initial_state(), []
    while not rules.is_terminal(state):
        options = rules.legal_moves(state)
        moves.append(options[int(rng.integers(len(options)))])
        state = rules.play(state, moves[-1])
    game = record(rules, moves)
    nodes = list(game.moves)
    for note in notes:  # comments, annotations and a variation at random plies
        i = int(rng.integers(len(nodes)))
        text = " ".join(note.replace("{", "").replace("}", "").split())
        nodes[i] = attrs.evolve(nodes[i], comments=(*nodes[i].comments, text),
                                annotation=str(rng.choice(["", "!", " $4"])),
                                variations=((PdnMove(nodes[i].text),),))  # fmt: skip
    game = attrs.evolve(game, moves=tuple(nodes))
    back = read_pdn(write_pdn([game, game]))
    assert back == [game, game]
    assert replay(back[1]).final[:5] == state[:5]


# --- the command line, through a real subprocess ---------------------------------------------
def mindgames(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from mindgames.cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_cli_check_and_convert(tmp_path: Path) -> None:
    run = mindgames("pdn", "check", str(SLOPPY), "--json")
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert (report["total"], report["replayed"], report["errors"]) == (21, 12, 9)
    assert set(report["games"][0]) >= {"index", "plies", "final_fen", "warnings", "error"}
    assert mindgames("pdn", "check", str(ENGINE)).returncode == 0
    out = tmp_path / "clean.pdn"
    run = mindgames("pdn", "convert", str(ENGINE), "-o", str(out))
    assert run.returncode == 0 and out.read_text() == without_escapes(ENGINE.read_text())
    run = mindgames("pdn", "check", str(tmp_path / "missing.pdn"))
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.startswith("mindgames: error: ") and "missing.pdn" in run.stderr


def test_rules_give_games_without_a_variant_tag_their_game(tmp_path: Path) -> None:
    """``--game`` is the same option as ``show --game``: the game of an untagged record."""
    record = tmp_path / "untagged.pdn"
    record.write_text("1. 11-15 23-19 2. 8-11 22-17 1-0\n")
    for rules in ("checkers", "giveaway", None):
        out = tmp_path / f"{rules}.npz"
        run = mindgames("pdn", "extract", str(record), "-o", str(out),
                        *(["--game", rules] if rules else []))  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert read_dataset(out).game == (rules or "checkers")
    run = mindgames("pdn", "check", str(record), "--game", "kalah")
    assert run.returncode == 2 and "--game" in run.stderr


def test_games_without_tags_on_one_line_and_latin1_files(tmp_path: Path) -> None:
    games = read_pdn("1. 11-15 23-19 1-0 1. 9-14 22-18 0-1\n")
    assert [g.result for g in games] == ["1-0", "0-1"]
    assert [w.kind for w in games[1].warnings] == ["same-line"]
    assert [replay(g).plies for g in games] == [2, 2]
    path = tmp_path / "latin1.pdn"
    path.write_bytes('\ufeff[Event "Caf\xe9"]\n1. 11-15 *\n'.encode("utf-8")[3:].replace(
        b"\xc3\xa9", b"\xe9"))  # fmt: skip
    (game,) = read_pdn_file(path)
    assert game.tags["Event"] == "Caf\xe9" and game.moves[0].text == "11-15"
    with pytest.raises(GameRecordError, match="cannot read"):
        read_pdn_file(tmp_path / "missing.pdn")


def test_a_result_with_text_glued_to_it_reads_as_the_result_and_round_trips() -> None:
    """Hypothesis found '0-0B': read as the move 0-0 it was written back as a result."""
    games = read_pdn("0-0B")
    assert games[0].moves == () and games[0].result == "0-0"
    assert games[1].error is not None and "'B'" in games[1].error.message
    assert read_pdn(write_pdn(games)) == games


def test_an_unreadable_long_token_is_quoted_short_with_its_length():
    (game,) = read_pdn("1. 11-15 " + "@" * 500 + " *\n")
    message = str(game.error)
    assert "(500 characters)" in message and len(message) < 200
