"""The model zoo through the real CLI: ``@zoo:NAME`` in agent specs and model commands, ``zoo
list`` / ``zoo show``, one-line errors; and the package data that ships zoo and ladders."""

from __future__ import annotations

import fnmatch
import json
import tomllib
from pathlib import Path

import pytest

from mindgames.agent import build_evaluator
from mindgames.files import write_npz
from mindgames.modelfile import PREFIX, read_model_file, save_evaluator
from mindgames.registry import get_registry
from mindgames.zoo import models
from tests.support.cli import one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
GAME = "kalah:pits=3,seeds=3"


@pytest.fixture
def zoo(tmp_path, monkeypatch):
    """A zoo folder (``MINDGAMES_ZOO``) holding one linear model of Kalah(3,3)."""
    folder = tmp_path / "zoo"
    folder.mkdir()
    registry = get_registry()
    game = registry.game(GAME)
    evaluator = build_evaluator(registry, game, {"model": "linear", "encoding": "kalah14"})
    provenance = {"learner": "td", "seed": 7, "ladder_rating": 12.5}
    save_evaluator(folder / "k33-test.npz", game, evaluator, provenance)
    monkeypatch.setenv("MINDGAMES_ZOO", str(folder))
    monkeypatch.setenv("MINDGAMES_PYTHON_PATH", "1")
    return folder


def test_zoo_list_and_show_describe_a_model(zoo):
    listed = run("zoo", "list")
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.startswith("k33-test"))
    assert GAME in line and "linear on kalah14" in line and "td" in line and "Elo +12" in line
    rows = [json.loads(x) for x in run("zoo", "list", "--json").stdout.splitlines()]
    assert [r["name"] for r in rows if r["file"].startswith(str(zoo))] == ["k33-test"]
    shown = run("zoo", "show", "k33-test")
    assert shown.returncode == 0, shown.stderr
    record = json.loads(shown.stdout)
    assert record["provenance"]["seed"] == 7 and record["game"] == GAME


def test_a_zoo_model_plays_wherever_a_model_file_does(zoo):
    agent = "alphabeta:depth=2,eval=@zoo:k33-test"
    done = run("match", agent, "random", "--game", GAME, "--games", "2", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "random" in done.stdout and agent in done.stdout  # the standings
    described = run("describe-model", "zoo:k33-test", "--json")
    assert described.returncode == 0, described.stderr
    assert json.loads(described.stdout)["provenance"]["learner"] == "td"
    analysed = run("analyse", GAME, "--agent", agent, "--json")
    assert analysed.returncode == 0, analysed.stderr


def test_an_unknown_zoo_name_is_one_line_listing_the_known_ones(zoo):
    agent = "alphabeta:depth=1,eval=@zoo:nope"
    line = one_line_error(run("match", agent, "random", "--game", GAME, "--games", "2"))
    assert "zoo:nope: no such zoo model (known: " in line and "k33-test" in line
    one_line_error(run("zoo", "show", "nope"), "no such zoo model", "k33-test")


def test_a_zoo_model_of_another_game_is_refused(zoo):
    agent = "alphabeta:depth=1,eval=@zoo:k33-test"
    done = run("match", agent, "random", "--game", "kalah:pits=4,seeds=3", "--games", "2")
    one_line_error(done, "written for game 'kalah:pits=3,seeds=3'")


def test_a_name_in_two_zoo_folders_is_one_line(zoo, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    (other / "k33-test.npz").write_bytes((zoo / "k33-test.npz").read_bytes())
    monkeypatch.setenv("MINDGAMES_ZOO", f"{zoo}:{other}")
    one_line_error(run("zoo", "list"), "'k33-test' is in two folders")


def test_the_shipped_zoo_alone_lists_exactly_its_files(monkeypatch):
    monkeypatch.delenv("MINDGAMES_ZOO", raising=False)
    shipped = sorted(p.stem for p in (ROOT / "core" / "shipped" / "zoo").glob("*.npz"))
    assert list(models()) == shipped
    listed = run("zoo", "list")
    assert listed.returncode == 0, listed.stderr
    if not shipped:
        assert "the zoo is empty" in listed.stdout


def test_every_shipped_data_file_is_package_data():
    """A non-editable install holds only files package-data names: zoo models and ladders."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    globs = setup["setuptools"]["package-data"]["mindgames"]
    data = ROOT / "core" / "shipped"
    for path in data.rglob("*"):
        if path.is_file():
            relative = str(path.relative_to(ROOT / "core"))
            assert any(fnmatch.fnmatch(relative, g) for g in globs), relative
    assert "shipped/zoo/*.npz" in globs and "shipped/ladders/*.json" in globs


def test_serve_offers_the_zoo_and_refuses_an_unknown_name_like_any_other(zoo):
    from support.serveload import running

    with running() as server:
        game = {"game": GAME, "moves": []}
        status, answer = server.post("/api/agent", {**game, "agent": "greedy:eval=@zoo:k33-test"})
        assert status == 200, answer
        status, unknown = server.post("/api/agent", {**game, "agent": "greedy:eval=@zoo:nope"})
        status_x, missing = server.post("/api/agent", {**game, "agent": "greedy:eval=@x.npz"})
        assert status == status_x == 400 and unknown["error"] == missing["error"]
        assert "zoo:k33-test" in server.get("/api/games")[1]["models"]


def test_a_zoo_model_plays_in_tournament_play_and_quality(zoo, tmp_path):
    agent = "greedy:eval=@zoo:k33-test"
    config = tmp_path / "t.toml"
    config.write_text(
        f'game = "{GAME}"\nformat = "round-robin"\nseed = 1\nopenings = "random:plies=2,count=1"\n'
        f'[agents]\nrandom = "random"\nnet = "{agent}"\n',
        encoding="utf-8",
    )
    toured = run("tournament", config, "--out", tmp_path / "t", "--workers", "1")
    assert toured.returncode == 0, toured.stderr
    assert "net" in (tmp_path / "t" / "report.md").read_text(encoding="utf-8")
    played = run("play", GAME, agent, "random", "--seed", "1")
    assert played.returncode == 0, played.stderr
    judged = run("quality", GAME, "--agent", agent, "--count", "5", "--workers", "1", "--json")
    assert judged.returncode == 0, judged.stderr
    assert json.loads(judged.stdout.splitlines()[0])["agent"] == agent


def test_zoo_add_rates_a_model_and_keeps_its_provenance(tmp_path, monkeypatch):
    """``zoo add`` on a model trained by ``train``: the copy holds the training's provenance
    (config, seed, commit, CPU) and the rating of the gauntlet it recorded, which ``rate``
    with the recorded agent and seed reproduces exactly."""
    config = tmp_path / "k.toml"
    config.write_text(
        'game = "kalah:pits=6,seeds=4"\nseed = 3\n[eval]\nmodel = "linear"\n'
        'encoding = "kalah14"\n[learner]\nname = "td"\ngames = 20\nbatch = 10\n',
        encoding="utf-8",
    )
    trained = run("train", config, "--out", tmp_path / "run", "--quiet")
    assert trained.returncode == 0, trained.stderr
    folder = tmp_path / "zoo"
    folder.mkdir()
    added = run(
        "zoo",
        "add",
        tmp_path / "run" / "model.npz",
        "k-test",
        "--depth",
        "1",
        "--games",
        "4",
        "--into",
        folder,
        "--workers",
        "1",
    )
    assert added.returncode == 0, added.stderr
    assert "Elo" in added.stdout
    meta, _ = read_model_file(folder / "k-test.npz")
    p = meta["provenance"]
    assert p["learner"] == "td" and p["seed"] == 3 and p["config"]["learner"]["games"] == 20
    assert p["cpu_seconds"] > 0 and len(p["commit"]) >= 7
    assert p["ladder"]["agent"] == "alphabeta:depth=1,eval=@zoo:k-test"
    assert p["ladder"]["elo_low"] <= p["ladder_rating"] <= p["ladder"]["elo_high"]
    monkeypatch.setenv("MINDGAMES_ZOO", str(folder))
    again = run(
        "rate",
        p["ladder"]["agent"],
        "--game",
        "kalah",
        "--games",
        str(p["ladder"]["games"]),
        "--seed",
        str(p["ladder"]["seed"]),
        "--workers",
        "1",
        "--json",
    )
    assert again.returncode == 0, again.stderr
    assert round(json.loads(again.stdout)["elo"], 1) == p["ladder_rating"]
    one_line_error(run("zoo", "add", tmp_path / "run" / "model.npz", "Bad Name"), "name")


def test_zoo_add_refuses_a_name_the_zoo_already_holds_and_changes_nothing(zoo, tmp_path):
    """A name that a zoo folder or the target folder holds is one line (``@zoo:NAME`` names one
    file; a shipped model is not overwritten by accident), and every file stays as it was."""
    model = models()["kalah-td"]
    kept = {path: path.read_bytes() for path in (model, zoo / "k33-test.npz")}
    for name in ("kalah-td", "k33-test"):  # shipped; in MINDGAMES_ZOO
        refused = run("zoo", "add", model, name, "--into", tmp_path / "mine", "--workers", "1")
        one_line_error(refused, "already holds", name)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "fresh.npz").write_bytes(b"not mine to replace")
    one_line_error(
        run("zoo", "add", model, "fresh", "--into", mine, "--workers", "1"), "already holds"
    )
    assert (mine / "fresh.npz").read_bytes() == b"not mine to replace"
    assert {path: path.read_bytes() for path in kept} == kept
    assert sorted(p.name for p in mine.iterdir()) == ["fresh.npz"]


def test_zoo_rerate_rates_a_model_again_as_recorded_and_keeps_the_rest(tmp_path, monkeypatch):
    """``zoo rerate`` (after a ladder is rebuilt) plays the recorded agent, games and seed again
    and rewrites only the record: a file whose record was changed gets the gauntlet's figure
    back, its weights and the rest of its provenance as they were."""
    folder = tmp_path / "zoo"
    folder.mkdir()
    added = run("zoo", "add", models()["kalah-td"], "k-again", "--depth", "1", "--games", "4",
                "--into", folder, "--workers", "1")  # fmt: skip
    assert added.returncode == 0, added.stderr
    path = folder / "k-again.npz"
    meta, arrays = read_model_file(path)
    recorded = meta["provenance"]
    stale = {**recorded, "ladder_rating": -1.0,
             "ladder": {**recorded["ladder"], "elo_low": -9.0, "elo_high": 9.0}}  # fmt: skip
    write_npz(path, {**meta, "provenance": stale}, {PREFIX + k: v for k, v in arrays.items()})
    monkeypatch.setenv("MINDGAMES_ZOO", str(folder))
    again = run("zoo", "rerate", "k-again", "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert "recorded before: -1" in again.stdout
    meta_again, arrays_again = read_model_file(path)
    assert meta_again["provenance"] == recorded
    assert {k: v.tolist() for k, v in arrays_again.items()} == {
        k: v.tolist() for k, v in arrays.items()
    }
    one_line_error(run("zoo", "rerate", "no-such-model"), "no such zoo model")
    unrated = {k: v for k, v in recorded.items() if k not in ("ladder", "ladder_rating")}
    write_npz(folder / "k-unrated.npz", {**meta, "provenance": unrated},
              {PREFIX + k: v for k, v in arrays.items()})  # fmt: skip
    one_line_error(run("zoo", "rerate", "k-unrated"), "records no rating to repeat")
