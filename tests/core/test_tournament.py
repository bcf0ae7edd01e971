"""Tournaments in this process: schedule, records, report, resume, and errors before any game."""

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames import Searcher, SearcherInfo, SearchResult, hookimpl
from mindgames.errors import ConfigError, MindgamesError, UnknownNameError
from mindgames.executors import SerialExecutor, open_executor
from mindgames.files import read_jsonl
from mindgames.play.openings import make_openings, parse_openings, random_openings, read_openings
from mindgames.play.report import markdown
from mindgames.play.task import comparable
from mindgames.play.tournament import (
    CONFIG_FILE,
    RESULTS_FILE,
    TournamentConfig,
    load_config,
    plan,
    run_tournament,
)
from mindgames.registry import get_registry, registry_with

EXAMPLES = Path(__file__).parents[2] / "examples" / "tournaments"


@attrs.frozen
class Pick(Searcher):
    """A test searcher: a seeded random move, shifted by ``bias`` towards later moves."""

    name = "pick"
    needs_evaluator = False
    bias: int = 0

    def search(self, game, state, evaluator, rng):
        moves = list(game.legal_moves(state))
        i = min(len(moves) - 1, int(rng.integers(len(moves))) + self.bias)
        return SearchResult(moves[i], 0.0)


class PickPlugin:
    @hookimpl
    def mindgames_searchers(self):
        return [SearcherInfo("pick", Pick, "test searcher")]


@pytest.fixture(scope="module")
def reg():
    return registry_with(("pick", PickPlugin()))


def config(**changes) -> TournamentConfig:
    base = TournamentConfig(
        game="kalah:pits=4,seeds=3",
        agents={"a": "pick", "b": "pick:bias=1", "c": {"searcher": "pick", "bias": 2}},
        openings="random:plies=2,count=3",
        seed=3,
    )
    return attrs.evolve(base, **changes)


def test_round_robin_schedule_pairs_openings_with_colours_swapped(reg):
    p = plan(config(rounds=2), reg)
    assert len(p.tasks) == 3 * 3 * 2 * 2  # pairings x openings x rounds x colours
    assert [t.index for t in p.tasks] == list(range(len(p.tasks)))
    pairs: dict[int, list] = {}
    for t in p.tasks:
        pairs.setdefault(t.pair, []).append(t)
    assert all(len(ts) == 2 for ts in pairs.values())
    for one, two in pairs.values():
        assert one.opening == two.opening
        assert (one.first, one.second) == (two.second, two.first)
    assert len({t.seed for t in p.tasks}) == len(p.tasks)


def test_gauntlet_pairs_the_champion_with_each_other_agent(reg):
    p = plan(config(format="gauntlet", champion="c"), reg)
    met = {frozenset((t.first, t.second)) for t in p.tasks}
    assert met == {frozenset("ca"), frozenset("cb")}


def test_a_tournament_writes_records_and_a_report(reg, tmp_path):
    p = plan(config(), reg)
    out = run_tournament(p, tmp_path / "run", workers=1, registry=reg)
    records = read_jsonl(tmp_path / "run" / RESULTS_FILE)
    assert out.played == len(records) == len(p.tasks) == 18
    assert sorted(r["index"] for r in records) == list(range(18))
    game = reg.game("kalah:pits=4,seeds=3")
    for r in records:  # the moves replay to the final position and its result
        state = game.initial_state()
        for text in [*r["opening_moves"], *r["moves"]]:
            state = game.play_text(state, text)
        assert game.position_text(state) == r["final_position"]
        assert r["termination"] == "rules" and game.is_terminal(state)
        assert r["score"] == (game.returns(state)[0] + 1) / 2
        assert r["plies"] == len(r["moves"])
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["games"] == 18
    rows = {s["agent"]: s for s in report["standings"]}
    assert set(rows) == {"a", "b", "c"}
    for s in rows.values():
        assert set(s) >= {"agent", "games", "wins", "draws", "losses", "score_games"}
        assert s["score_games"] == 2 * s["wins"] + s["draws"]
        assert s["games"] == 12 and s["elo_low"] <= s["elo"] <= s["elo_high"]
    assert sum(s["score_games"] for s in rows.values()) == 2 * 18
    assert sum(s["score_clashes"] for s in rows.values()) == 2 * 3
    assert sum(s["elo"] for s in rows.values()) == pytest.approx(0.0, abs=1e-6)
    for pairing in report["pairings"]:
        assert sum(pairing["pentanomial"]) == 3  # three game pairs per pairing
    assert "| # | agent |" in (tmp_path / "run" / "report.md").read_text()


def test_the_same_seed_gives_the_same_games_and_another_seed_others(reg, tmp_path):
    p = plan(config(), reg)
    one = run_tournament(p, tmp_path / "one", workers=1, registry=reg).records
    two = run_tournament(p, tmp_path / "two", workers=1, registry=reg).records
    assert [comparable(r) for r in one] == [comparable(r) for r in two]
    other = run_tournament(plan(config(), reg, seed=4), tmp_path / "x", workers=1, registry=reg)
    assert [r["moves"] for r in other.records] != [r["moves"] for r in one]


def test_move_cap_is_a_draw_by_adjudication(reg, tmp_path):
    p = plan(config(max_plies=3), reg)
    out = run_tournament(p, tmp_path / "run", workers=1, registry=reg)
    assert all(r["termination"] == "move cap" and r["result"] == "1/2-1/2" for r in out.records)
    assert out.report["terminations"] == {"move cap": 18}
    assert all(s["draws"] == 12 for s in out.report["standings"])


def test_resume_after_a_torn_file_plays_only_the_missing_games(reg, tmp_path):
    p = plan(config(), reg)
    full = run_tournament(p, tmp_path / "full", workers=1, registry=reg).records
    run = tmp_path / "run"
    run_tournament(p, run, workers=1, registry=reg)
    lines = (run / RESULTS_FILE).read_text().splitlines(keepends=True)
    (run / RESULTS_FILE).write_text("".join(lines[:7]) + lines[7][:25])  # killed mid-write
    with pytest.raises(ConfigError, match="unfinished tournament.*--resume"):
        run_tournament(p, run, workers=1, registry=reg)
    again = run_tournament(p, run, resume=True, workers=1, registry=reg)
    assert again.played == 18 - 7
    on_disk = read_jsonl(run / RESULTS_FILE)
    assert sorted(r["index"] for r in on_disk) == list(range(18))
    assert [comparable(r) for r in again.records] == [comparable(r) for r in full]
    # a finished run of the same config is kept as it is (make demo twice)
    assert run_tournament(p, run, workers=1, registry=reg).played == 0


def test_resume_refuses_another_config(reg, tmp_path):
    run_tournament(plan(config(), reg), tmp_path, workers=1, registry=reg)
    with pytest.raises(ConfigError, match="another config or seed"):
        run_tournament(plan(config(), reg, seed=9), tmp_path, resume=True, registry=reg)
    with pytest.raises(ConfigError, match="nothing to resume"):
        run_tournament(plan(config(), reg), tmp_path / "new", resume=True, registry=reg)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"agents": {"a": "pick", "b": "pik"}}, UnknownNameError, "unknown searcher 'pik'"),
        ({"agents": {"a": "pick", "b": "pick:depth=3"}}, ConfigError, "agent 'b'"),
        ({"agents": {"a": "pick", "b": "alphabeta:depth=2"}}, ConfigError, "needs eval"),
        ({"agents": {"a": "pick"}}, ConfigError, "at least two agents"),
        ({"game": "kalha"}, UnknownNameError, "unknown game 'kalha'.*did you mean 'kalah'"),
        ({"format": "swiss"}, ConfigError, "format: unknown 'swiss'"),
        ({"format": "gauntlet"}, ConfigError, "champion"),
        ({"anchor": "z"}, ConfigError, "anchor 'z'"),
        ({"openings": "book:name=acf-3move"}, ConfigError, "has no book 'acf-3move'"),
        ({"openings": "file:path=/no/such/file.txt"}, ConfigError, "no such opening file"),
        ({"openings": "swiss:plies=2"}, ConfigError, "unknown kind 'swiss'"),
        ({"openings": "start:plies=3"}, ConfigError, "kind 'start' does not use plies"),
        ({"openings": "book:name=acf-3move,plies=5"}, ConfigError, "does not use plies .*name"),
        ({"openings": {"kind": "random", "path": "x"}}, ConfigError, "does not use path"),
        ({"openings": ""}, ConfigError, "openings: empty; expected a kind"),
    ],
)
def test_bad_configs_fail_before_any_game(reg, tmp_path, changes, error, message):
    with pytest.raises(error, match=message):
        plan(config(**changes), reg)


def test_a_bad_opening_file_names_file_and_line(reg, tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("# two Kalah(4,3) positions\n3,3,3,3;0;3,3,3,3;0;S\n3,3,x;0;3,3,3,3;0;N\n")
    with pytest.raises(ConfigError, match=r"openings.txt:3: not a kalah position"):
        plan(config(openings={"kind": "file", "path": str(path)}), reg)


def test_a_bad_config_file_is_one_clear_error(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('game = "kalah"\nagents = {a = "random", b = "random"}\nroundz = 2\n')
    with pytest.raises(ConfigError, match=r"t.toml: .*roundz"):
        load_config(path)


def test_openings_from_a_file_and_a_book(reg, tmp_path):
    kalah = reg.game("kalah:pits=4,seeds=3")
    path = tmp_path / "o.txt"
    path.write_text("3,3,3,3;0;3,3,3,3;0;N\n\n0,4,4,4;0;3,3,3,3;0;N\n")
    openings = read_openings(kalah, path)
    assert [o.label for o in openings] == ["o.txt:1", "o.txt:3"]
    assert kalah.to_move(openings[0].state(kalah)) == 1
    checkers = reg.game("checkers")
    book = make_openings(checkers, parse_openings("book:name=acf-3move,count=5", where="t"), 0)
    assert len(book) == 5 and all(len(o.moves) == 3 for o in book)
    every = make_openings(
        checkers, parse_openings({"kind": "book", "name": "acf-3move"}, where=""), 0
    )
    assert len(every) == 156


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 6), count=st.integers(1, 8))
def test_random_openings_are_seeded_legal_and_distinct(reg, seed, plies, count):
    game = reg.game("kalah:pits=4,seeds=3")
    one = random_openings(game, plies, count, seed)
    assert one == random_openings(game, plies, count, seed)
    assert len(one) == count
    for opening in one:
        assert len(opening.moves) <= plies
        opening.state(game)  # replays: every move legal
    if plies >= 3:  # thousands of lines exist: no repeats
        assert len({o.moves for o in one}) == count


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 12))
def test_opening_files_round_trip_positions(reg, tmp_path_factory, seed, plies):
    game = reg.game("kalah:pits=4,seeds=3")
    lines = [o.state(game) for o in random_openings(game, plies, 4, seed)]
    texts = [game.position_text(s) for s in lines if not game.is_terminal(s)]
    path = tmp_path_factory.mktemp("o") / "o.txt"
    path.write_text("\n".join(["# positions", *texts]) + "\n")
    if not texts:
        with pytest.raises(ConfigError, match="no positions"):
            read_openings(game, path)
        return
    assert [o.state(game) for o in read_openings(game, path)] == [
        game.parse_position(t) for t in texts
    ]


def test_serial_executor_delivers_exceptions_through_the_future():
    with open_executor(1) as executor:
        assert isinstance(executor, SerialExecutor)
        assert executor.submit(pow, 2, 5).result() == 32
        future = executor.submit(int, "x")
    with pytest.raises(ValueError):
        future.result()
    with pytest.raises(MindgamesError, match="at least 1"), open_executor(0):
        pass


def test_the_examples_are_valid_configs():
    registry = get_registry()
    for path in sorted(EXAMPLES.glob("*.toml")):
        p = plan(load_config(path), registry, where=str(path), base=path.parent)
        assert len(p.tasks) >= 2, path


def test_markdown_report_has_every_section(reg, tmp_path):
    out = run_tournament(plan(config(), reg), tmp_path, workers=1, registry=reg)
    text = markdown(out.report)
    for heading in ("## Standings", "## Crosstable", "## Pairings"):
        assert heading in text
    assert json.loads((tmp_path / CONFIG_FILE).read_text())["seed"] == 3


def test_checkers_games_export_to_pdn_that_reads_back(reg, tmp_path):
    from mindgames.games.draughts.pdn import read_pdn

    p = plan(config(game="checkers", openings="book:name=acf-3move,count=1", max_plies=30), reg)
    out = run_tournament(p, tmp_path, workers=1, registry=reg)
    games = read_pdn((tmp_path / "games.pdn").read_text())
    assert len(games) == len(out.records) == 6
    for game, record in zip(games, out.records, strict=True):
        assert game.result == record["result"]
        assert game.tags["Black"] == record["first"] and game.tags["White"] == record["second"]
        texts = [m.text for m in game.moves]
        assert texts == [*record["opening_moves"], *record["moves"]]
    # Kalah has no record format of its own: only the JSON lines
    run_tournament(plan(config(), reg), tmp_path / "k", workers=1, registry=reg)
    assert not list((tmp_path / "k").glob("games*"))
