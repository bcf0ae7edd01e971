"""Ratings: Bradley-Terry Elo and intervals, LOS, pentanomial counts, SPRT, against hand values."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.errors import ConfigError
from mindgames.measure.tdist import t_quantile
from mindgames.play.ratings import elo_from_score, fit_elo, los, score_from_elo
from mindgames.play.sprt import Sprt, pentanomial, sprt_llr

K = 400 / math.log(10)  # Elo points per natural-log unit


def test_two_agents_anchored_on_one():
    # A scores 6 wins, 2 draws, 2 losses = 7/10 against B: elo = 400 log10(0.7 / 0.3).
    fit = fit_elo(["A", "B"], {("A", "B"): (6, 2, 2)}, anchor="B")
    assert fit.elo[0] == pytest.approx(147.1907, abs=1e-3)
    assert fit.elo[1] == 0.0 and fit.low[1] == 0.0 and fit.high[1] == 0.0
    # Fisher information n p (1 - p) = 10 * 0.21 = 2.1, times the dispersion: the squared
    # residuals 6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2 = 1.6 over 2.1; half width 1.96 K sqrt(1.6) / 2.1
    half = 1.959964 * K * math.sqrt(1.6) / 2.1
    assert half == pytest.approx(205.08, abs=0.01)
    # the same as from the observed variance of a game's score (0.65 - 0.7^2 = 0.16), through
    # the slope of the Elo curve at 0.7 (cutechess's interval, to first order)
    assert half == pytest.approx(1.959964 * math.sqrt(0.16 / 10) * K / 0.21)
    assert fit.low[0] == pytest.approx(147.1907 - half, abs=1e-3)
    assert fit.high[0] == pytest.approx(147.1907 + half, abs=1e-3)
    assert not fit.regularised


def test_two_agents_anchored_on_the_mean():
    fit = fit_elo(["A", "B"], {("B", "A"): (2, 2, 6)})  # same games, seen from B
    assert fit.elo[0] == pytest.approx(73.5954, abs=1e-3)
    assert fit.elo[1] == pytest.approx(-73.5954, abs=1e-3)
    # centred ratings: var(r_A) = pinv([[2.1, -2.1], [-2.1, 2.1]])[0, 0] = 1 / 8.4, times the
    # dispersion 1.6 / 2.1
    half = 1.959964 * K * math.sqrt(1.6 / 2.1 / 8.4)
    assert fit.high[0] - fit.elo[0] == pytest.approx(half, abs=1e-3)


def test_without_draws_two_agents_get_the_binomial_interval():
    fit = fit_elo(["A", "B"], {("A", "B"): (7, 0, 3)}, anchor="B")
    half = 1.959964 * K / math.sqrt(10 * 0.7 * 0.3)  # dispersion 1: a game is a win or a loss
    assert fit.high[0] - fit.elo[0] == pytest.approx(half, abs=1e-3)


@pytest.mark.parametrize("draw_rate", [0.0, 0.4, 0.75])
def test_the_interval_covers_the_true_elo_95_times_in_100(draw_rate):
    # 2,000 seeded matches of 200 games between equal agents: the 95% interval of A (anchored
    # on B) holds 0 in about 95% of them, with few or many draws (without the dispersion
    # factor: 98.6% at 40% draws, all 2,000 at 75%, where the interval was twice too wide)
    rng = np.random.default_rng(7)
    decisive = (1.0 - draw_rate) / 2
    counts = rng.multinomial(200, [decisive, draw_rate, decisive], size=2000)
    covered = 0
    for won, drawn, lost in counts:
        fit = fit_elo(["A", "B"], {("A", "B"): (won, drawn, lost)}, anchor="B")
        covered += fit.low[0] <= 0.0 <= fit.high[0]
    assert 0.93 <= covered / 2000 <= 0.97


def test_a_symmetric_cycle_rates_everyone_equal():
    # A beats B, B beats C, C beats A, each 3-0-1 in 4 games: all ratings 0.
    results = {("A", "B"): (3, 0, 1), ("B", "C"): (3, 0, 1), ("C", "A"): (3, 0, 1)}
    fit = fit_elo(["A", "B", "C"], results)
    assert fit.elo == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    # information: a triangle Laplacian with weights 4 * 1/4 = 1; pinv diagonal = 2/9
    half = 1.959964 * K * math.sqrt(2 / 9)
    assert [h - e for h, e in zip(fit.high, fit.elo, strict=True)] == pytest.approx([half] * 3)


def test_anchor_must_be_an_agent():
    with pytest.raises(ConfigError, match="anchor 'Z'"):
        fit_elo(["A", "B"], {("A", "B"): (1, 0, 1)}, anchor="Z")


def test_perfect_scores_are_regularised_and_finite():
    fit = fit_elo(["A", "B"], {("A", "B"): (10, 0, 0)})
    assert fit.regularised
    assert all(math.isfinite(x) for x in (*fit.elo, *fit.low, *fit.high))
    assert fit.elo[0] > 200 > -200 > fit.elo[1]


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(0, 6), st.integers(1, 6)), min_size=3, max_size=3
    )
)
def test_the_fit_matches_expected_to_actual_scores(counts):
    # At the maximum of the likelihood each agent's expected score equals its actual score.
    pairs = [("A", "B"), ("B", "C"), ("A", "C")]
    results = dict(zip(pairs, counts, strict=True))
    fit = fit_elo(["A", "B", "C"], results)
    assert not fit.regularised
    rating = dict(zip(fit.agents, fit.elo, strict=True))
    for agent in "ABC":
        actual = expected = 0.0
        for (a, b), (w, d, l_) in results.items():
            n = w + d + l_
            if agent == a:
                actual += w + d / 2
                expected += n * score_from_elo(rating[a] - rating[b])
            elif agent == b:
                actual += l_ + d / 2
                expected += n * score_from_elo(rating[b] - rating[a])
        assert expected == pytest.approx(actual, abs=1e-6)
    assert sum(fit.elo) == pytest.approx(0.0, abs=1e-6)
    assert all(lo < e < hi for lo, e, hi in zip(fit.low, fit.elo, fit.high, strict=True))


def test_elo_and_score_are_inverse():
    for elo in (-400.0, -35.5, 0.0, 120.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert elo_from_score(1.0) == math.inf


def test_likelihood_of_superiority():
    assert los(0, 0) == 0.5
    assert los(5, 5) == 0.5
    # (w - l) / sqrt(w + l) = 10 / sqrt(10): Phi(3.1623) = 0.99922
    assert los(10, 0) == pytest.approx(0.999217, abs=1e-6)
    assert los(3, 7) + los(7, 3) == pytest.approx(1.0)


def test_pentanomial_counts():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    with pytest.raises(ValueError):
        pentanomial([2.5])


def test_sprt_bounds_and_a_hand_computed_llr():
    test = Sprt(0, 10, 0.05, 0.05)
    assert test.upper == pytest.approx(math.log(19))
    assert test.lower == pytest.approx(-math.log(19))
    # L, D, W = 5, 10, 25, each + 0.5: mean 30.75 / 41.5 = 0.740964, variance 0.128684;
    # s0 = 0.5, s1 = 0.514387: LLR = 40 * 0.014387 * (1.481928 - 1.014387) / (2 * 0.128684)
    assert sprt_llr([5, 10, 25], 0, 10) == pytest.approx(1.04543, abs=1e-4)
    # a mean score of exactly 1/2 between symmetric hypotheses carries no evidence
    assert sprt_llr([10, 20, 10], -10, 10) == pytest.approx(0.0)
    assert sprt_llr([1, 2, 3, 2, 1], -5, 5) == pytest.approx(0.0)
    assert sprt_llr([0, 0, 0], 0, 5) == 0.0


def test_sprt_rejects_bad_parameters():
    with pytest.raises(ConfigError):
        Sprt(5, 0)
    with pytest.raises(ConfigError):
        Sprt(0, 5, alpha=1.5)


def _run(test: Sprt, outcomes) -> tuple[str, int]:
    counts = [0, 0, 0]
    for n, k in enumerate(outcomes, 1):
        counts[k] += 1
        verdict = test.verdict(counts)
        if verdict != "continue":
            return verdict, n
    return "continue", len(outcomes)


def test_sprt_stops_on_one_sided_streams():
    test = Sprt(0, 10)
    verdict, n = _run(test, [2] * 1000)
    assert verdict == "H1" and n < 100
    verdict, n = _run(test, [0] * 1000)
    assert verdict == "H0" and n < 100


@pytest.mark.parametrize(("true_elo", "expected"), [(150.0, "H1"), (-150.0, "H0")])
def test_sprt_finds_the_truth_on_seeded_streams(true_elo, expected):
    rng = np.random.default_rng(7)
    draw = 0.3
    p_win = score_from_elo(true_elo) - draw / 2
    outcomes = rng.choice(3, size=5000, p=[1 - draw - p_win, draw, p_win])
    verdict, n = _run(Sprt(0, 20), list(outcomes))
    assert verdict == expected
    assert n < 2000


def test_sprt_keeps_going_when_the_stream_sits_between_the_hypotheses():
    # alternating win and loss (score 1/2, Elo 0) between H0 = -20 and H1 = +20: few games settle
    verdict, _ = _run(Sprt(-20, 20), [2, 0] * 20)
    assert verdict == "continue"


@pytest.mark.parametrize(
    ("p", "df", "published"),
    [  # Student's t table (two-sided 95%, 99%, 90%), and the normal limit
        (0.975, 1, 12.706),
        (0.975, 2, 4.303),
        (0.975, 3, 3.182),
        (0.975, 11, 2.201),
        (0.975, 30, 2.042),
        (0.995, 1, 63.657),
        (0.995, 10, 3.169),
        (0.95, 5, 2.015),
        (0.975, 100000, 1.960),
    ],
)
def test_t_quantiles_agree_with_the_published_table(p, df, published):
    assert t_quantile(p, df) == pytest.approx(published, abs=5e-4)
    assert t_quantile(1 - p, df) == pytest.approx(-published, abs=5e-4)


@settings(max_examples=50)
@given(st.floats(0.5, 0.999), st.integers(1, 60))
def test_t_quantiles_grow_with_p_and_shrink_with_df(p, df):
    q = t_quantile(p, df)
    assert t_quantile(min(p + 0.0005, 0.9995), df) >= q >= t_quantile(p, df + 1) >= 0.0
    assert q >= t_quantile(p, 100000) - 1e-9  # never below the normal quantile


def test_t_quantiles_just_above_the_median_follow_the_density_at_zero():
    # P(0 < T < t) is about t times the density at 0, 1 / (2 sqrt 2) for 2 degrees of freedom;
    # computing 1 - x there instead of t^2 / (df + t^2) lost it to rounding
    assert t_quantile(0.5 + 1e-6, 2) == pytest.approx(1e-6 * 2 * math.sqrt(2), rel=1e-6)


def test_t_quantile_refuses_what_has_no_quantile():
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        t_quantile(1.0, 3)
