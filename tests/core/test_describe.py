"""``mindgames describe NAME`` for every kind, through the real CLI: options from attrs fields."""

from __future__ import annotations

import json

import attrs

from mindgames.agent import build_evaluator
from mindgames.describe import option_rows
from mindgames.modelfile import save_evaluator
from mindgames.registry import get_registry

from support.dists import run_cli


def describe(*args: str) -> dict:
    out = run_cli(None, "describe", *args, "--json", strict=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_searcher_learner_and_model_print_their_options():
    alphabeta = describe("alphabeta")
    options = {o["name"]: o for o in alphabeta["options"]}
    assert alphabeta["kind"] == "searcher"
    assert options["tt"] == {
        "name": "tt",
        "type": "bool",
        "default": "True",
        "doc": "transposition table",
    }
    assert options["depth"]["type"] == "int | None"
    td = describe("td")
    assert td["kind"] == "learner" and td["needs"] == ["differentiable"]
    lam = next(o for o in td["options"] if o["name"] == "lam")
    assert lam["default"] == "0.7" and lam["doc"].startswith("trace decay lambda")
    mlp = describe("mlp")
    assert mlp["capabilities"] == ["differentiable", "parametric"]
    names = [o["name"] for o in mlp["options"]]
    assert names == ["hidden", "activation", "direct", "init", "groups", "input_sum"]
    assert mlp["options"][0]["default"] == "[10]"
    text = run_cli(None, "describe", "mlp", strict=True).stdout
    assert "  hidden (list[int], default [10])  hidden layer sizes" in text


def test_game_shows_parameters_and_wrapped_columns():
    kalah = describe("kalah:pits=4")
    assert kalah["kind"] == "game" and kalah["spec"] == "kalah:pits=4"
    assert "kalah14" in {e["name"] for e in kalah["encodings"]}
    text = run_cli(None, "describe", "checkers", strict=True).stdout
    columns = [line for line in text.splitlines() if line.startswith("    ")]
    assert len(columns) > 20 and max(len(line) for line in columns) <= 96
    assert "    sq1_mine sq1_theirs sq1_king" in text


def test_unknown_name_lists_every_kind():
    out = run_cli(None, "describe", "alphabet", strict=True)
    assert out.returncode == 2
    assert "unknown game, searcher, learner or model 'alphabet'" in out.stderr
    assert "did you mean 'alphabeta'" in out.stderr


def test_a_model_file_is_shown_as_describe_model_shows_it(tmp_path):
    registry = get_registry()
    game = registry.game("kalah")
    path = tmp_path / "model.npz"
    save_evaluator(
        path, game, build_evaluator(registry, game, {"model": "linear", "encoding": "kalah14"})
    )
    out = run_cli(None, "describe", str(path), strict=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == run_cli(None, "describe-model", str(path), strict=True).stdout
    assert "game:       kalah\n" in out.stdout
    as_in_a_spec = run_cli(None, "describe", f"@{path}", strict=True)  # eval=@runs/td/model.npz
    assert as_in_a_spec.returncode == 0 and as_in_a_spec.stdout == out.stdout, as_in_a_spec.stderr


def test_a_path_is_not_a_name_and_the_error_says_what_a_spec_is():
    out = run_cli(None, "describe", "runs/td/model", strict=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "expected NAME or NAME:key=value,... with a NAME such as 'alphabeta'" in out.stderr
    assert "got 'runs/td/model'" in out.stderr and "before ':'" not in out.stderr


@attrs.frozen
class Documented:
    """``plain``: from the docstring; the rest is prose."""

    #: from a comment
    #: over two lines
    commented: int = 1
    plain: str = "x"
    meta: float = attrs.field(default=0.5, metadata={"doc": "from metadata"})
    bare: list[int] = attrs.Factory(list)


def test_option_docs_come_from_metadata_comments_or_the_docstring():
    rows = {r["name"]: r for r in option_rows(Documented)}
    assert rows["commented"]["doc"] == "from a comment over two lines"
    assert rows["plain"]["doc"] == "from the docstring"
    assert rows["meta"]["doc"] == "from metadata"
    assert rows["bare"] == {"name": "bare", "type": "list[int]", "default": "[]", "doc": ""}
