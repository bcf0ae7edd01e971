"""One capability mechanism: protocols declared in core, ``require`` that narrows or refuses
naming both sides, the listings ``describe`` and ``check-game`` print, and the game methods that
a game without the capability refuses in one line."""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from mindgames.agent import build_evaluator
from mindgames.capabilities import (
    GAME_CAPABILITIES,
    MODEL_CAPABILITIES,
    capabilities_of,
    require,
)
from mindgames.cli.main import cli
from mindgames.conformance import check_game
from mindgames.errors import CapabilityError, ConformanceError
from mindgames.game import ExportsGames, HasOpeningBooks, ImportsGames, Solvable, StateRows
from mindgames.kernels import HasKernels
from mindgames.model import BatchDifferentiable, HasMembers, RowGrads, RowsGrads
from mindgames.registry import get_registry

from support.tictactoe import TicTacToe


def test_require_returns_the_object_it_was_given_when_it_has_the_capability():
    game = get_registry().game("kalah:pits=3,seeds=2")
    assert require(game, Solvable, what="data solve") is game


def test_require_names_who_needs_what_and_what_lacks_it():
    game = get_registry().game("checkers")
    with pytest.raises(CapabilityError) as refused:
        require(game, Solvable, what="learner 'layered' with deepest = 'solve'")
    assert str(refused.value) == (
        "learner 'layered' with deepest = 'solve' needs the 'solvable' capability (solve), "
        "but game 'checkers' does not offer it"
    )
    model = build_evaluator(get_registry(), game, {"model": "linear", "encoding": "raw32"}).model
    with pytest.raises(CapabilityError, match=r"needs the 'members' capability \(.*by.*members"):
        require(model, HasMembers, what="evaluators = 'per-stage'")
    with pytest.raises(CapabilityError, match="but model 'linear' does not offer it"):
        require(model, RowsGrads, what="td's lockstep")


def test_the_capability_tables_name_each_protocol_once_the_compiled_path_included():
    names = [cap.name for cap in (*GAME_CAPABILITIES, *MODEL_CAPABILITIES)]
    protocols = [cap.protocol for cap in (*GAME_CAPABILITIES, *MODEL_CAPABILITIES)]
    assert len(set(names)) == len(names) and len(set(protocols)) == len(protocols)
    assert HasKernels in protocols and StateRows in protocols and HasMembers in protocols


def test_the_games_capabilities_are_what_their_classes_define():
    registry = get_registry()
    kalah, checkers = registry.game("kalah"), registry.game("checkers")
    assert capabilities_of(kalah, GAME_CAPABILITIES)[:1] == ["solvable"]
    assert "state-rows" in capabilities_of(kalah, GAME_CAPABILITIES)
    for protocol in (ImportsGames, ExportsGames, HasOpeningBooks):
        assert isinstance(checkers, protocol) and not isinstance(kalah, protocol)
    assert not isinstance(checkers, Solvable) and not checkers.solvable and kalah.solvable


@pytest.mark.parametrize(
    ("method", "message"),
    [
        ("import_games", "cannot read game records"),
        ("export_games", "cannot write game records"),
        ("opening_books", "has no opening books"),
    ],
)
def test_a_capabilitys_method_on_a_game_without_it_is_one_clear_error(method, message):
    game = get_registry().game("kalah")
    with pytest.raises(CapabilityError, match=f"game 'kalah' {message}"):
        getattr(game, method)
    assert not hasattr(game, method)  # the protocols see it as absent
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        game.nothing  # noqa: B018


def test_a_model_class_offers_what_its_methods_and_declared_attributes_do():
    registry = get_registry()
    mlp = capabilities_of(registry.model_info("mlp").cls, MODEL_CAPABILITIES)
    assert {"batch-gradients", "rows-gradients", "row-gradient", "weighted-gradient"} <= set(mlp)
    assert "members" not in mlp
    assert "members" in capabilities_of(registry.model_info("staged").cls, MODEL_CAPABILITIES)
    linear = capabilities_of(registry.model_info("linear").cls, MODEL_CAPABILITIES)
    assert "row-gradient" not in linear


def test_a_model_with_the_one_row_gradient_offers_the_rows_gradients_too():
    assert issubclass(RowGrads, RowsGrads)
    game = get_registry().game("kalah:pits=3,seeds=2")
    evaluator = build_evaluator(get_registry(), game, {"model": "mlp", "encoding": "kalah14"})
    model = evaluator.model
    assert isinstance(model, RowGrads) and isinstance(model, BatchDifferentiable)
    xs = np.random.default_rng(0).normal(size=(5, evaluator.encoding.width))
    values, row = model.values_and_row_grad(xs)
    same, rows = model.values_and_rows_grads(xs)
    np.testing.assert_allclose(values, same)
    np.testing.assert_allclose(row(3), rows(np.array([3]))[0])


def test_a_staged_model_has_the_members_layered_learning_reads():
    registry = get_registry()
    game = registry.game("kalah:pits=3,seeds=2")
    table = {"model": "staged", "encoding": "kalah14+progress", "by": ["plies"],
             "bounds": [10.0], "measure": "sum", "members": [{"model": "linear"}] * 2}  # fmt: skip
    model = build_evaluator(registry, game, table, seed=1).model
    staged = require(model, HasMembers, what="test")
    assert [m.name for m in staged.members] == ["linear", "linear"] and staged.by == ["plies"]


def test_describe_lists_a_games_and_a_models_capabilities_from_the_protocols():
    runner = CliRunner()
    game = json.loads(runner.invoke(cli, ["describe", "checkers", "--json"]).output)
    assert game["capabilities"] == capabilities_of(get_registry().game("checkers"),
                                                   GAME_CAPABILITIES)  # fmt: skip
    assert "imports-games" in game["capabilities"] and "solvable" not in game["capabilities"]
    model = json.loads(runner.invoke(cli, ["describe", "mlp", "--json"]).output)
    assert model["capabilities"] == ["differentiable", "parametric"]  # the declared ones
    assert "batch-gradients" in model["offers"]
    text = runner.invoke(cli, ["describe", "kalah"]).output
    assert "capabilities: solvable, counts-pieces, margin, state-rows" in text


# --- the conformance suite reads the same declarations ------------------------------------


@attrs.frozen
class RecordedTicTacToe(TicTacToe):
    """Tic-tac-toe that writes its games as one line of move texts and reads them back."""

    def export_games(self, games):
        return ".ttt", "".join(" ".join(g["moves"]) + f" {g['result']}\n" for g in games)

    def import_games(self, path):
        games = []
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                *moves, result = line.split()
                state, states = self.initial_state(), [self.initial_state()]
                for text in self.kept(moves):
                    state = self.play_text(state, text)
                    states.append(state)
                games.append({"number": number, "states": states, "result": result})
        return games, {}

    def kept(self, moves):
        return moves


@attrs.frozen
class ForgetsTheLastMove(RecordedTicTacToe):
    def kept(self, moves):
        return moves[:-1]


def test_check_game_reports_the_games_capabilities_and_reads_its_records_back():
    report = check_game(RecordedTicTacToe(), [], playouts=3)
    assert report.capabilities == ("imports-games", "exports-games")
    assert check_game(TicTacToe(), [], playouts=1).capabilities == ()
    with pytest.raises(ConformanceError, match="a written record reads back as other positions"):
        check_game(ForgetsTheLastMove(), [], playouts=3)


def test_check_game_prints_the_capabilities(registry):
    out = CliRunner().invoke(cli, ["check-game", "kalah:pits=3,seeds=2", "--playouts", "2"])
    assert out.exit_code == 0, out.output
    assert "capabilities: solvable, counts-pieces, margin, state-rows, board" in out.output


def test_a_learner_plans_its_work_when_it_has_the_capability():
    from mindgames.capabilities import LEARNER_CAPABILITIES
    from mindgames.learner import Learner, planned_of

    class Unplanned(Learner):
        name = "unplanned"

        def train(self, game, evaluator, rng, *, workdir, resume=False, progress=None):
            raise NotImplementedError

    assert planned_of(Unplanned()) is None
    td = get_registry().learner("td", {"games": 30}, where="test")
    assert planned_of(td) == ("games", 30)
    assert capabilities_of(type(td), LEARNER_CAPABILITIES) == ["planned", "measures-inputs"]
    described = json.loads(CliRunner().invoke(cli, ["describe", "td", "--json"]).output)
    assert described["offers"] == ["planned", "measures-inputs"]
