"""The conformance suite passes on every registered game and catches broken ones."""

import attrs
import pytest

from mindgames.conformance import check_game
from mindgames.errors import ConformanceError
from mindgames.registry import get_registry

from support.tictactoe import TicTacToe


def test_tictactoe_conforms(registry):
    game = registry.game("tictactoe")
    encs = [registry.encoding(game, e.name) for e in registry.encodings_for("tictactoe")]
    report = check_game(game, encs, playouts=10, seed=1)
    assert report.positions > 50 and report.encodings == ("cells", "material", "progress")


@pytest.mark.parametrize("name", sorted(get_registry().games))
def test_every_registered_game_conforms(name):
    registry = get_registry()
    game = registry.game(name)
    encs = [registry.encoding(game, e.name) for e in registry.encodings_for(name)]
    report = check_game(game, encs, playouts=5, seed=0)
    assert report.positions > 5


@attrs.frozen
class NoisyReturns(TicTacToe):
    def returns(self, state):
        return (1.0, 0.0)


@attrs.frozen
class ReversedChildren(TicTacToe):
    def children(self, state):
        return list(reversed(super().children(state)))


@attrs.frozen
class BadText(TicTacToe):
    def move_text(self, state, move):
        return "1"


def test_broken_games_are_caught():
    with pytest.raises(ConformanceError, match="do not sum to zero"):
        check_game(NoisyReturns(), [], playouts=2)
    with pytest.raises(ConformanceError, match="does not round-trip"):
        check_game(BadText(), [], playouts=2)
    with pytest.raises(ConformanceError, match="children differ"):
        check_game(ReversedChildren(), [], playouts=2)
