"""Ladders through the real CLI at tiny sizes (Kalah(3,3) on the Python path): build, show,
resume, rate, malformed files; and the fixed-scale fit against hand-computed values."""

from __future__ import annotations

import json
import math

import pytest

from mindgames.ladder.build import default_anchor, parse_rungs
from mindgames.ladder.file import LadderError, parse_ladder
from mindgames.ladder.misfit import rung_misfits
from mindgames.ladder.rate import fit_fixed, nearest, step_pairs, step_seed
from mindgames.play.ratings import ELO_PER_NAT, Z95, elo_from_score, score_from_elo
from tests.support.cli import one_line_error, run

GAME = "kalah:pits=3,seeds=3"
RUNGS = ["--rung", "random", "--rung", "greedy=greedy:eval=material"]
RUNGS += ["--rung", "ab2=alphabeta:depth=2,eval=material"]


@pytest.fixture(autouse=True)
def python_path(monkeypatch):
    """The Python path: no compile in the subprocesses, and the ladder must work there too."""
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")


def build(tmp_path, *extra, name="k.json"):
    out = tmp_path / name
    args = ["ladder", "build", GAME, *RUNGS, "--games", "4", "--workers", "1", "--seed", "3"]
    return run(*args, "--out", out, *extra), out


# --- the fit -------------------------------------------------------------------------------------
def test_one_opponent_gives_the_elo_its_score_stands_for():
    """Four game pairs scoring 2, 1, 1, 2 (75%): the Elo 75% stands for, and the interval of
    the pairs' spread by hand: info 8 * 3/16, residuals +-1/2, n / (n - 1) = 4/3."""
    fit = fit_fixed([(100.0, 0.0, [2.0, 1.0, 1.0, 2.0])])
    assert fit.elo == pytest.approx(100.0 + elo_from_score(0.75))
    half = Z95 * math.sqrt(1.0 / 1.5**2 * 4 / 3) * ELO_PER_NAT
    assert fit.high - fit.elo == pytest.approx(half) and fit.elo - fit.low == pytest.approx(half)
    assert not fit.regularised


def test_the_interval_counts_game_pairs_not_games():
    """The same eight games (4 wins, 4 losses) paired two ways: when each opening's pair splits
    (the opening decides nothing, colour does) the pairs say the score is exact; when openings
    give both games to one side, the pairs vary and so does the rating."""
    split = fit_fixed([(0.0, 0.0, [1.0, 1.0, 1.0, 1.0])])
    swept = fit_fixed([(0.0, 0.0, [2.0, 0.0, 2.0, 0.0])])
    assert split.elo == pytest.approx(0.0, abs=1e-9) == swept.elo
    assert split.high - split.low == pytest.approx(0.0, abs=1e-9)
    assert swept.high - swept.low > 100.0


def test_a_rungs_misfit_widens_the_interval_by_its_share():
    """Pairs that fit exactly leave only the misfit: the 95% half-width is 1.96 misfits; two
    rungs, each half the information, add their misfits halved, in quadrature."""
    one = fit_fixed([(0.0, 30.0, [1.0, 1.0])])
    assert one.high - one.elo == pytest.approx(Z95 * 30.0)
    two = fit_fixed([(-100.0, 30.0, [1.5, 1.5]), (100.0, 40.0, [0.5, 0.5])])
    assert two.elo == pytest.approx(0.0, abs=1e-9)
    q = score_from_elo(100.0)  # the expected score against the rung 100 below (in nats below)
    spread, info = 4 * (1.5 - 2 * q) ** 2, 8 * q * (1 - q)
    variance = spread / info**2 * 4 / 3 + (15.0**2 + 20.0**2) / ELO_PER_NAT**2
    assert two.high - two.elo == pytest.approx(Z95 * math.sqrt(variance) * ELO_PER_NAT)


def test_even_scores_against_symmetric_rungs_rate_between_them():
    fit = fit_fixed([(-100.0, 0.0, [1.0, 1.0]), (100.0, 0.0, [1.0, 1.0])])
    assert fit.elo == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("won", [True, False])
def test_a_one_sided_record_is_regularised_and_finite(won):
    fit = fit_fixed([(50.0, 0.0, [2.0 if won else 0.0] * 2)])
    assert fit.regularised
    assert (fit.elo > 50.0) == won and abs(fit.elo) < 1000


def test_a_rungs_misfit_is_its_neighbours_residual_beyond_noise():
    """Rungs a 0, b 100, c 200, where b scores 50% against both neighbours (64% and 36% were
    predicted): against c in ten split pairs (no spread: c's misfit is the residual in Elo,
    ``(0.5 - 0.36) / (0.36 * 0.64)`` nats), against a in eight split pairs and one swept each
    way (a's misfit is the residual less the pairs' sampling variance); b's is the mean of the
    two squares."""
    q = score_from_elo(100.0)
    resid = (q - 0.5) * ELO_PER_NAT / (q * (1 - q))
    var = 2 * 1.0**2 / (10 * 9) / 4 * (ELO_PER_NAT / (q * (1 - q))) ** 2
    pairings = [
        {"agents": ["b", "c"], "games": 20, "wins": 10, "draws": 0, "losses": 10,
         "pentanomial": [0, 0, 10, 0, 0]},
        {"agents": ["a", "b"], "games": 20, "wins": 10, "draws": 0, "losses": 10,
         "pentanomial": [1, 0, 8, 0, 1]},
    ]  # fmt: skip
    m = rung_misfits({"a": 0.0, "b": 100.0, "c": 200.0}, pairings)
    assert m["c"] == pytest.approx(resid, abs=0.05)
    assert m["a"] == pytest.approx(math.sqrt(resid**2 - var), abs=0.05)
    assert m["b"] == pytest.approx(math.sqrt((2 * resid**2 - var) / 2), abs=0.05)
    assert rung_misfits({"a": 0.0, "b": 100.0}, []) == {"a": 0.0, "b": 0.0}


def test_steps_split_the_pairs_and_seeds_differ():
    assert step_pairs(40) == [5, 5, 5, 5]
    assert step_pairs(9) == [2, 1, 1, 1]
    assert step_pairs(2) == [1]
    assert len({step_seed(1, s) for s in range(4)}) == 4
    assert step_seed(1, 0) == step_seed(1, 0) != step_seed(2, 0)


def test_rungs_parse_names_and_the_anchor():
    rungs = parse_rungs(["random", "ab=alphabeta:depth=2,eval=material", "greedy:eval=material"])
    assert rungs == {
        "random": "random",
        "ab": "alphabeta:depth=2,eval=material",
        "greedy:eval=material": "greedy:eval=material",
    }
    assert default_anchor({"r": "random", "g": "greedy"}) == "r"
    with pytest.raises(Exception, match="anchored at random"):
        default_anchor({"g": "greedy:eval=material", "a": "alphabeta:depth=1,eval=material"})
    with pytest.raises(Exception, match="given twice"):
        parse_rungs(["random", "random"])


# --- malformed files -----------------------------------------------------------------------------
GOOD = {
    "format": "mindgames-ladder",
    "version": 1,
    "game": GAME,
    "openings": "random:plies=2",
    "max_plies": 400,
    "anchor": "random",
    "rungs": [
        {"name": "random", "agent": "random", "elo": 0, "low": 0, "high": 0, "games": 4},
        {"name": "g", "agent": "greedy:eval=material", "elo": 9, "low": -9, "high": 20, "games": 4},
    ],
    "provenance": {},
}


def mutate(key, value):
    data = json.loads(json.dumps(GOOD))
    if key.startswith("rungs."):
        data["rungs"][1][key[6:]] = value
    else:
        data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ([1, 2], "not a ladder file"),
        (mutate("format", "mindgames-model"), "not a ladder file"),
        (mutate("version", 2), "version 2"),
        (mutate("game", ""), "game: expected a non-empty string"),
        (mutate("max_plies", 0), "max_plies"),
        (mutate("anchor", "nobody"), "anchor 'nobody' is not a rung"),
        (mutate("rungs", []), "at least two rungs"),
        (mutate("rungs.elo", "high"), "rungs[1]: elo: expected a finite number"),
        (mutate("rungs.low", 10), "low <= elo <= high"),
        (mutate("rungs.elo", -5), "weakest first"),
        (mutate("rungs.name", "random"), "repeated"),
        (mutate("rungs.games", -1), "games"),
        (mutate("rungs.misfit", -1.0), "misfit: expected a non-negative number"),
        (mutate("provenance", [1]), "provenance"),
    ],
)
def test_a_malformed_ladder_is_one_error_naming_the_file(data, says):
    parse_ladder(GOOD, where="good.json")
    with pytest.raises(LadderError) as info:
        parse_ladder(data, where="bad.json")
    assert str(info.value).startswith("bad.json: ") and says in str(info.value)
    assert "\n" not in str(info.value)


def test_a_malformed_ladder_file_is_one_line_in_show_and_rate(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mindgames-ladder", "version": 1', encoding="utf-8")
    one_line_error(run("ladder", "show", bad), str(bad), "not a ladder file")
    bad.write_text(json.dumps(mutate("rungs.elo", -5)), encoding="utf-8")
    one_line_error(run("rate", "random", "--ladder", bad), "weakest first")
    one_line_error(run("ladder", "show", tmp_path / "none.json"), "no such ladder file")


# --- build, show, resume -------------------------------------------------------------------------
def test_a_ladder_is_built_shown_and_anchored_at_random(tmp_path):
    done, out = build(tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["format"] == "mindgames-ladder" and data["game"] == GAME
    names = [r["name"] for r in data["rungs"]]
    assert sorted(names) == ["ab2", "greedy", "random"]
    elos = [r["elo"] for r in data["rungs"]]
    assert elos == sorted(elos)
    random_rung = data["rungs"][names.index("random")]
    assert random_rung["elo"] == random_rung["low"] == random_rung["high"] == 0
    assert all(r["games"] == 8 for r in data["rungs"])  # 4 games against each of two others
    provenance = data["provenance"]
    assert provenance["games"] == 12 and provenance["seed"] == 3
    assert provenance["command"].startswith("mindgames ladder build " + GAME)
    assert "commit" in provenance
    shown = run("ladder", "show", out)
    assert shown.returncode == 0, shown.stderr
    assert all(name in shown.stdout for name in names) and "anchored at random" in shown.stdout
    assert all(r["misfit"] >= 0 for r in data["rungs"]) and "misfit" in shown.stdout
    assert json.loads(run("ladder", "show", out, "--json").stdout) == data


def test_a_cut_build_is_refused_then_resumed_to_the_same_ladder(tmp_path):
    done, whole = build(tmp_path, name="whole.json")
    assert done.returncode == 0, done.stderr
    done, cut = build(tmp_path, name="cut.json")
    assert done.returncode == 0, done.stderr
    results = tmp_path / "cut.run" / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:5]) + lines[5][:10])  # as a kill leaves it: a torn line
    cut.unlink()
    one_line_error(build(tmp_path, name="cut.json")[0], "unfinished tournament", "--resume")
    assert not cut.exists()
    again, _ = build(tmp_path, "--resume", name="cut.json")
    assert again.returncode == 0, again.stderr
    assert "7 games played now" in again.stdout
    a, b = json.loads(whole.read_text()), json.loads(cut.read_text())
    assert a["rungs"] == b["rungs"]


def test_a_ladder_needs_random_or_an_anchor(tmp_path):
    args = ["ladder", "build", GAME, "--rung", "greedy:eval=material", "--rung", "ab=alphabeta"]
    one_line_error(run(*args, "--out", tmp_path / "x.json"), "anchored at random")
    one_line_error(
        run(*args, "--anchor", "ab", "--out", tmp_path / "x.json"), "needs eval=", "'ab'"
    )
    assert not (tmp_path / "x.json").exists()


# --- rate ----------------------------------------------------------------------------------------
def test_rate_prints_an_elo_with_its_interval_and_is_reproducible(tmp_path):
    done, out = build(tmp_path)
    assert done.returncode == 0, done.stderr
    args = ["rate", "alphabeta:depth=2,eval=material", "--ladder", out, "--games", "8"]
    first = run(*args, "--workers", "1", "--json", "--seed", "5")
    assert first.returncode == 0, first.stderr
    rating = json.loads(first.stdout)
    assert rating["elo_low"] <= rating["elo"] <= rating["elo_high"]
    assert rating["games"] == 8 == sum(o["games"] for o in rating["opponents"])
    assert len(rating["steps"]) == 4
    ladder = json.loads(out.read_text())
    middle = ladder["rungs"][1]["name"]
    assert rating["steps"][0] == middle  # the gauntlet starts in the middle
    again = run(*args, "--workers", "2", "--json", "--seed", "5")
    assert json.loads(again.stdout) == rating  # the same games, serial or parallel
    text = run(*args, "--workers", "1", "--seed", "5")
    assert text.returncode == 0, text.stderr
    assert f"Elo {rating['elo']:+.0f} [" in text.stdout and "8 games" in text.stdout


def test_the_next_rung_is_the_nearest_to_the_estimate():
    from mindgames.ladder.file import parse_ladder as parse

    ladder = parse(GOOD, where="good")
    assert nearest(ladder, -50.0) == 0 and nearest(ladder, 4.6) == 1 and nearest(ladder, 4.5) == 0


def test_rate_without_a_ladder_for_the_game_is_one_line(tmp_path):
    one_line_error(run("rate", "random", "--game", "kalah:pits=5,seeds=2"), "no ladder ships")
    one_line_error(run("rate", "random"), "give --game GAME")
    done, out = build(tmp_path)
    assert done.returncode == 0, done.stderr
    one_line_error(
        run("rate", "random", "--ladder", out, "--game", "kalah:pits=4,seeds=3"),
        "a ladder of " + GAME,
    )


# --- the shipped ladders -------------------------------------------------------------------------
def shipped():
    from mindgames.ladder.file import shipped_files

    return shipped_files()


def test_the_shipped_ladders_are_the_package_data_files():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "core" / "shipped" / "ladders"
    assert [p.name for p in shipped()] == sorted(p.name for p in root.glob("*.json"))


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.stem)
def test_a_shipped_ladder_reads_builds_its_agents_and_says_where_it_comes_from(path):
    from mindgames.agent import build_agent
    from mindgames.ladder.file import load_ladder, shipped_ladder
    from mindgames.registry import get_registry

    registry = get_registry()
    ladder = load_ladder(path)
    game = registry.game(ladder.game)
    for rung in ladder.rungs:
        build_agent(registry, game, rung.agent, name=rung.name)
    assert ladder.rung(ladder.anchor).elo == 0 and ladder.rung(ladder.anchor).agent == "random"
    for key in ("command", "seed", "commit", "games"):
        assert key in ladder.provenance, key
    assert shipped_ladder(registry, ladder.game) == ladder


@pytest.mark.slow
def test_a_ladder_and_a_rating_on_a_dask_cluster_are_those_of_one_process(dask_cluster, tmp_path):
    from click.testing import CliRunner

    from mindgames.cli.main import cli

    def mindgames(*args):
        done = CliRunner().invoke(cli, [str(a) for a in args])
        assert done.exit_code == 0, done.output
        return done.stdout

    build = ["ladder", "build", GAME, *RUNGS, "--games", "4", "--seed", "2", "--json"]
    serial = json.loads(mindgames(*build, "--workers", "1", "--out", tmp_path / "a.json"))
    dask = json.loads(mindgames(*build, "--scheduler", dask_cluster, "--out", tmp_path / "b.json"))
    assert dask["rungs"] == serial["rungs"]
    rate = ["rate", "alphabeta:depth=1,eval=material", "--ladder", tmp_path / "a.json"]
    rate += ["--games", "6", "--json"]
    one = json.loads(mindgames(*rate, "--workers", "1"))
    assert json.loads(mindgames(*rate, "--scheduler", dask_cluster)) == one


def test_the_shipped_kalah_ladder_is_topped_by_the_solver_agent():
    """Above every rung but the zoo's net, which may beat it (docs/measuring.md says why)."""
    from mindgames.ladder.file import shipped_ladder
    from mindgames.registry import get_registry

    ladder = shipped_ladder(get_registry(), "kalah:pits=6,seeds=4")
    (solver,) = [r for r in ladder.rungs if r.agent.startswith("kalah-solver:")]
    others = [r for r in ladder.rungs if r is not solver and "@zoo:" not in r.agent]
    assert len(others) == len(ladder.rungs) - 2
    assert all(r.elo < solver.elo for r in others)


@pytest.mark.parametrize("game", ["checkers", "giveaway", "kalah"])
def test_the_shipped_ladders_are_full_builds_with_the_zoo_net_as_a_rung(game):
    """Issue 36: 200 games a neighbouring pairing (every pairing, in a round robin), and the
    zoo's net of the game among the rungs (Kalah's: the stronger of its two)."""
    from mindgames.ladder.file import shipped_ladder
    from mindgames.registry import get_registry

    net = {"kalah": "kalah-td-strong"}.get(game, f"{game}-td")
    ladder = shipped_ladder(get_registry(), game)
    assert ladder.provenance["games_per_pairing"] >= 200
    assert any(r.agent.endswith(f"eval=@zoo:{net}") for r in ladder.rungs)


def test_a_gauntlet_on_a_book_samples_its_openings_by_seed():
    """Each step of ``rate`` meets a seeded sample of a long book's openings, not its first
    ballots (on which every rating would otherwise rest); the same seed, the same games."""
    from mindgames.ladder.file import Ladder, Rung
    from mindgames.ladder.rate import rate
    from mindgames.play.openings import opening_books_of
    from mindgames.registry import get_registry

    registry = get_registry()
    rungs = (
        Rung("random", "random", 0.0, 0.0, 0.0, 2),
        Rung("greedy", "greedy:eval=material", 100.0, 50.0, 150.0, 2),
    )
    ladder = Ladder("checkers", "book:name=acf-3move", 400, "random", rungs)
    first = opening_books_of(registry.game("checkers"))["acf-3move"][0][0]

    def openings(seed):
        seen = []
        rate(
            registry,
            ladder,
            "random",
            games=8,
            seed=seed,
            workers=1,
            on_record=lambda r: seen.append(r["opening"]),
        )
        return seen

    one = openings(3)
    assert len(one) == 8 and set(one) != {first}
    assert openings(3) == one and openings(4) != one
