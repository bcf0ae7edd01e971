"""The searchers: alpha-beta against plain minimax on every landed game, principal variations
that reach their leaf, node and time budgets, seeded randomness, extensions on hand-made
checkers positions, the null evaluator, greedy and random."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.agent import build_agent, build_evaluator
from mindgames.errors import CapabilityError, ConfigError, MindgamesError
from mindgames.plugins.searchers.alphabeta import AlphaBeta
from mindgames.plugins.searchers.common import PROVEN, STEP, WIN, plies_to_end, pruning
from mindgames.plugins.searchers.minimax import Minimax
from mindgames.registry import get_registry

# Draughts with the path-dependent draw rules off: the transposition key then decides the future
# exactly (with them on, transpositions may differ in their no-progress counters).
GAMES = {
    "checkers": ("checkers:repetition=false,no_progress=0", "raw32", 40, 3),
    "giveaway": ("giveaway:repetition=false,no_progress=0", "raw32", 40, 3),
    "kalah": ("kalah", "kalah14", 30, 3),  # depth 4: kalah43 (Kalah(6,4) at 4 costs ~30 s)
    "kalah43": ("kalah:pits=4,seeds=3", "kalah14", 20, 4),
    "tictactoe": ("tictactoe", "cells", 6, 4),
}

VARIANTS = (
    {},
    {"tt": False},
    {"tt": False, "ordering": False},
    {"random_order": True, "random_ties": True},
    {"batch": True},
)


@pytest.fixture(scope="module")
def setup():
    """Per game: the game, a material and a random-MLP evaluator (distinct leaf values)."""
    from mindgames.registry import registry_with

    from support.tictactoe import TicTacToePlugin

    registry = registry_with(("tictactoe", TicTacToePlugin()))
    out = {}
    for key, (spec, encoding, plies, depth) in GAMES.items():
        game = registry.game(spec)
        mlp = {"model": "mlp", "encoding": encoding, "hidden": [4], "init": [-1.0, 1.0]}
        out[key] = (
            game,
            {
                "material": build_evaluator(registry, game, "material"),
                "mlp": build_evaluator(registry, game, mlp, seed=7),
            },
            plies,
            depth,
        )
    return registry, out


def random_position(game, seed: int, plies: int):
    """A position reached by up to ``plies`` random moves that is not over."""
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(int(rng.integers(0, plies + 1))):
        moves = game.legal_moves(state)
        nxt = game.play(state, moves[int(rng.integers(len(moves)))])
        if game.is_terminal(nxt):
            break
        state = nxt
    return state


def walk(game, state, pv):
    for move in pv:
        assert move in list(game.legal_moves(state))
        state = game.play(state, move)
    return state


@pytest.mark.parametrize("key", sorted(GAMES))
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(1, 4),
    ext=st.sampled_from(["none", "forced", "captures", "both"]),
    null=st.booleans(),
    evalname=st.sampled_from(["material", "mlp"]),
)
def test_alphabeta_equals_minimax(setup, key, seed, depth, ext, null, evalname):
    _, games = setup
    game, evaluators, plies, max_depth = games[key]
    depth = min(depth, max_depth)
    state = random_position(game, seed, plies)
    evaluator = evaluators[evalname]
    common = {
        "depth": depth,
        "extend_forced": ext in ("forced", "both"),
        "extend_captures": ext in ("captures", "both"),
        "null": null,
    }
    rng = np.random.default_rng(seed)
    reference = Minimax(**common).search(game, state, evaluator, rng)
    for variant in VARIANTS:
        found = AlphaBeta(**common, **variant).search(game, state, evaluator, rng)
        expected = reference
        if found.stats.depth < depth:
            # deepening stops early, as documented, once the root value is proven or nothing
            # was cut: the value is then minimax's at the depth completed (a proven result may
            # still lie a few plies nearer or further at a deeper horizon)
            shallower = {**common, "depth": found.stats.depth}
            expected = Minimax(**shallower).search(game, state, evaluator, rng)
        assert found.value == pytest.approx(expected.value, abs=1e-9), variant
        assert found.stats.depth >= 1
        assert found.pv[0] == found.move
        leaf = walk(game, state, found.pv)
        # the principal variation reaches the leaf whose value the root reports (TD-leaf)
        if game.is_terminal(leaf):
            assert abs(found.value) > PROVEN or found.value == 0.0
        elif null:
            assert found.value == 0.0
        else:
            v = evaluator.evaluate(leaf)
            v = v if game.to_move(leaf) == game.to_move(state) else -v
            assert v == pytest.approx(found.value, abs=1e-9), variant
    assert reference.move in list(game.legal_moves(state))


@pytest.mark.parametrize("key", ["checkers", "kalah", "tictactoe"])
@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), budget=st.integers(1, 300))
def test_node_budget_is_respected(setup, key, seed, budget):
    _, games = setup
    game, evaluators, plies, _ = games[key]
    state = random_position(game, seed, plies)
    for extra in ({}, {"extend_captures": True, "extend_forced": True}, {"batch": True}):
        found = AlphaBeta(nodes=budget, **extra).search(
            game, state, evaluators["material"], np.random.default_rng(seed)
        )
        assert found.stats.nodes <= budget
        assert found.move in list(game.legal_moves(state))
        walk(game, state, found.pv)


def test_node_budget_deepens_until_spent(setup):
    _, games = setup
    game, evaluators, _, _ = games["checkers"]
    state = game.initial_state()
    small = AlphaBeta(nodes=150).search(
        game, state, evaluators["material"], np.random.default_rng(0)
    )
    large = AlphaBeta(nodes=3000).search(
        game, state, evaluators["material"], np.random.default_rng(0)
    )
    assert small.stats.nodes <= 150 < large.stats.nodes <= 3000
    assert 1 <= small.stats.depth < large.stats.depth


def test_time_limit_stops_after_the_first_iteration(setup):
    """A limit already spent when the first iteration ends: that iteration's move is played."""
    _, games = setup
    game, evaluators, _, _ = games["checkers"]
    state = game.initial_state()
    found = AlphaBeta(depth=30, time=1e-9).search(
        game, state, evaluators["material"], np.random.default_rng(0)
    )
    assert found.stats.depth <= 1
    assert found.move in game.legal_moves(state)
    # without a depth, a time limit alone bounds the search (it returns at all)
    found = AlphaBeta(time=0.02).search(
        game, state, evaluators["material"], np.random.default_rng(0)
    )
    assert 1 <= found.stats.depth < 64


@pytest.mark.parametrize("key", ["checkers", "kalah"])
def test_same_seed_same_move_and_different_seeds_vary(setup, key):
    _, games = setup
    game, evaluators, _, _ = games[key]
    state = game.initial_state()
    searcher = AlphaBeta(depth=2, random_ties=True, random_order=True)
    moves = []
    for seed in range(12):
        a = searcher.search(game, state, evaluators["material"], np.random.default_rng(seed))
        b = searcher.search(game, state, evaluators["material"], np.random.default_rng(seed))
        assert (a.move, a.value, a.pv, a.stats.nodes) == (b.move, b.value, b.pv, b.stats.nodes)
        moves.append(a.move)
    if key == "checkers":  # seven opening moves of equal material: ties to choose from
        assert len(set(moves)) > 1, "random ties never chose another equally good move"
    plain = AlphaBeta(depth=2)
    first = {
        plain.search(game, state, evaluators["material"], np.random.default_rng(s)).move
        for s in range(4)
    }
    assert len(first) == 1


def test_random_ties_only_choose_best_moves(setup):
    """Every move random ties choose has the minimax value of the position."""
    _, games = setup
    game, evaluators, _, _ = games["checkers"]
    state = game.initial_state()
    ev = evaluators["material"]
    best = Minimax(depth=3).search(game, state, ev, np.random.default_rng(0)).value
    for seed in range(6):
        found = AlphaBeta(depth=3, random_ties=True).search(
            game, state, ev, np.random.default_rng(seed)
        )
        child = game.play(state, found.move)
        v = -Minimax(depth=2).search(game, child, ev, np.random.default_rng(0)).value
        assert found.value == pytest.approx(best) and v == pytest.approx(best)


# --- extensions on hand-made checkers positions ------------------------------------------------


@pytest.fixture(scope="module")
def checkers(setup):
    _, games = setup
    game, evaluators, _, _ = games["checkers"]
    return game, evaluators["material"]


def test_forced_reply_at_the_horizon_is_searched(checkers):
    """White's lone man on 29 has one move: with the extension, two more plies are searched."""
    game, ev = checkers
    state = game.parse_position("B:W29:BK1")
    plain = AlphaBeta(depth=1).search(game, state, ev, np.random.default_rng(0))
    assert len(plain.pv) == 1 and plain.stats.nodes == 1
    extended = AlphaBeta(depth=1, extend_forced=True).search(
        game, state, ev, np.random.default_rng(0)
    )
    assert len(extended.pv) == 3  # Black's move, White's forced 29-25, Black's reply
    assert extended.pv[1] == (29, 25)
    assert extended.stats.nodes > plain.stats.nodes
    one = AlphaBeta(depth=1, extend_forced=True, extension=1).search(
        game, state, ev, np.random.default_rng(0)
    )
    assert len(one.pv) == 2  # the forced ply alone does not count
    assert Minimax(depth=1, extend_forced=True).search(
        game, state, ev, np.random.default_rng(0)
    ).pv[1] == (29, 25)


def test_forced_move_at_the_root_does_not_count(checkers):
    game, ev = checkers
    state = game.parse_position("B:WK32:B5")  # Black's only move is 5-9
    found = AlphaBeta(depth=1, extend_forced=True).search(game, state, ev, np.random.default_rng(0))
    assert found.pv[0] == (5, 9) and len(found.pv) == 3


def test_capture_pending_at_the_horizon_is_searched(checkers):
    """12-16 hangs Black's last man to 20x11: only the capture extension sees the loss."""
    game, ev = checkers
    state = game.parse_position("B:W20,K32:B12")
    plain = AlphaBeta(depth=1).search(game, state, ev, np.random.default_rng(0))
    assert plain.pv == ((12, 16),) and -1.0 < plain.value < 1.0
    found = AlphaBeta(depth=1, extend_captures=True).search(
        game, state, ev, np.random.default_rng(0)
    )
    assert found.pv == ((12, 16), (20, 11))
    assert found.value == pytest.approx(-WIN + 2 * STEP)  # lost two plies from the root
    assert plies_to_end(found.value) == 2
    # with a safe move beside it, the extension makes the searcher keep its man
    state = game.parse_position("B:W20,K32:B12,K1")
    plain = AlphaBeta(depth=1).search(game, state, ev, np.random.default_rng(0))
    found = AlphaBeta(depth=1, extend_captures=True).search(
        game, state, ev, np.random.default_rng(0)
    )
    assert found.move != (12, 16)
    assert found.stats.nodes > plain.stats.nodes


def test_extension_budget_bounds_paths(checkers):
    game, ev = checkers
    state = game.parse_position("B:W29:BK1")
    found = AlphaBeta(depth=1, extend_forced=True, max_extension=0).search(
        game, state, ev, np.random.default_rng(0)
    )
    assert len(found.pv) == 1


# --- the null evaluator and proven values ------------------------------------------------------


def test_null_evaluator_finds_the_quickest_win(setup):
    registry, games = setup
    game = games["tictactoe"][0]
    # X to move can win at once on 3 (cells 1,2 are X), or later elsewhere
    state = game.parse_position("XX.OO.... x")
    agent = build_agent(registry, game, "endgame:depth=5")
    assert agent.evaluator is None
    found = agent.choose(game, state, np.random.default_rng(0))
    assert found.move == 2 and found.pv == (2,)
    assert found.value == pytest.approx(WIN - STEP)
    slow = AlphaBeta(depth=5, null=True, quick_wins=False).search(
        game, state, None, np.random.default_rng(0)
    )
    assert slow.value == WIN


def test_null_evaluator_scores_unresolved_leaves_as_draws(setup):
    registry, games = setup
    game = games["checkers"][0]
    found = build_agent(registry, game, "endgame:depth=3").choose(
        game, game.initial_state(), np.random.default_rng(0)
    )
    assert found.value == 0.0 and found.stats.depth == 3


def test_fully_resolved_trees_stop_deepening(setup):
    _, games = setup
    game = games["tictactoe"][0]
    found = AlphaBeta(nodes=100000, null=True).search(
        game, game.initial_state(), None, np.random.default_rng(0)
    )
    assert found.value == 0.0  # tic-tac-toe is a draw
    assert found.stats.depth <= 9


# --- greedy, random, statistics and errors -----------------------------------------------------


def test_greedy_matches_depth_one(setup):
    registry, games = setup
    for key in ("checkers", "kalah", "tictactoe"):
        game, evaluators, plies, _ = games[key]
        for seed in range(5):
            state = random_position(game, seed, plies)
            ev = evaluators["mlp"]
            greedy = build_agent(registry, game, "greedy:eval=material").searcher
            g = greedy.search(game, state, ev, np.random.default_rng(0))
            m = Minimax(depth=1).search(game, state, ev, np.random.default_rng(0))
            assert g.value == pytest.approx(m.value, abs=1e-9)
            assert g.move in game.legal_moves(state)


def test_random_player_is_seeded_and_needs_no_evaluator(setup):
    registry, games = setup
    game = games["checkers"][0]
    agent = build_agent(registry, game, "random")
    state = game.initial_state()
    picks = [agent.choose(game, state, np.random.default_rng(s)).move for s in range(20)]
    assert picks == [agent.choose(game, state, np.random.default_rng(s)).move for s in range(20)]
    assert len(set(picks)) > 2 and set(picks) <= set(game.legal_moves(state))


def test_stats_and_pruning(setup):
    _, games = setup
    game, evaluators, _, _ = games["checkers"]
    found = AlphaBeta(depth=5).search(
        game, game.initial_state(), evaluators["material"], np.random.default_rng(0)
    )
    s = found.stats
    took = s.seconds  # a measured time: only its consistency with the rate is checked
    assert s.depth == 5 and s.nodes > 0 and s.leaves > 0 and took > 0
    assert 1.0 < s.branching <= 12.0
    assert 0.0 < s.pruning < 1.0
    assert s.pruning == pytest.approx(pruning(s.nodes, s.branching, 5))
    assert s.as_dict()["nodes_per_second"] == pytest.approx((s.nodes + s.leaves) / took)
    assert pruning(10, 2.0, 3) == pytest.approx(1 - 10 / 7)
    assert pruning(0, 2.0, 3) == 0.0
    assert plies_to_end(0.5) is None


def test_errors(setup):
    registry, games = setup
    game, evaluators, _, _ = games["checkers"]
    with pytest.raises(ConfigError, match="needs eval"):
        build_agent(registry, game, "alphabeta:depth=2")
    with pytest.raises(ConfigError, match="depth"):
        build_agent(registry, game, "alphabeta:depth=0,eval=material")
    with pytest.raises(ConfigError, match="colour"):
        build_agent(registry, game, "alphabeta:colour=1,eval=material")
    with pytest.raises(CapabilityError, match="needs an evaluator"):
        AlphaBeta(depth=2).search(game, game.initial_state(), None, np.random.default_rng(0))
    over = game.parse_position("B:WK1:B")
    with pytest.raises(MindgamesError, match="finished"):
        AlphaBeta(depth=2).search(game, over, evaluators["material"], np.random.default_rng(0))


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_endgame_search_agrees_with_the_kalah_solver(setup, seed):
    """An independent reference for extra turns: the sign of the exact result and a best move."""
    from mindgames.games.kalah.solver import solve

    registry, _ = setup
    game = registry.game("kalah:pits=3,seeds=2")
    state = random_position(game, seed, 6)
    solution = solve(game, state)
    found = build_agent(registry, game, "endgame:depth=40").choose(
        game, state, np.random.default_rng(seed)
    )
    assert np.sign(found.value) == np.sign(solution.value)
    assert found.value == 0.0 or abs(found.value) > PROVEN  # exact: solved, not estimated
    # the chosen move keeps the game-theoretic result (the child's mover may be the same side)
    child = game.play(state, found.move)
    if not game.is_terminal(child):
        after = solve(game, child).value
        same = game.to_move(child) == game.to_move(state)
        assert np.sign(after if same else -after) == np.sign(solution.value)


def test_random_ties_make_different_games(setup):
    registry, games = setup
    game = games["checkers"][0]
    agent = build_agent(registry, game, "alphabeta:depth=2,random_ties=true,eval=material")
    played = set()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        state, line = game.initial_state(), []
        for _ in range(8):
            move = agent.choose(game, state, rng).move
            line.append(move)
            state = game.play(state, move)
        played.add(tuple(line))
    assert len(played) > 1


def test_a_proven_root_value_stops_the_deepening_at_minimax_of_the_depth_completed(setup):
    """Kalah(4,3), found by hypothesis: a loss proven at depth 2 (five plies away with the
    forced-move extension) is where deepening stops; minimax to depth 3 finds the opponent's
    quicker win (four plies), so the two agree at the depth alpha-beta completed."""
    game = get_registry().game("kalah:pits=4,seeds=3")
    evaluator = build_evaluator(get_registry(), game, "material")
    state = random_position(game, 92805, 20)
    common = {"extend_forced": True, "extend_captures": False, "null": False}
    rng = np.random.default_rng(0)
    found = AlphaBeta(depth=3, **common).search(game, state, evaluator, rng)
    assert found.stats.depth == 2 and found.value < -PROVEN
    at_two = Minimax(depth=2, **common).search(game, state, evaluator, rng)
    at_three = Minimax(depth=3, **common).search(game, state, evaluator, rng)
    assert found.value == at_two.value
    assert plies_to_end(at_three.value) < plies_to_end(found.value)
