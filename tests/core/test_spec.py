"""Spec strings: parsing, formatting, and their errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindgames.errors import SpecError
from mindgames.spec import format_spec, parse_spec


def test_parse_examples():
    assert parse_spec("kalah:pits=4,seeds=3") == ("kalah", {"pits": 4, "seeds": 3})
    assert parse_spec("alphabeta:depth=4,eval=material") == (
        "alphabeta",
        {"depth": 4, "eval": "material"},
    )
    assert parse_spec("mlp:hidden=[10,5],direct=true,range=0.5") == (
        "mlp",
        {"hidden": [10, 5], "direct": True, "range": 0.5},
    )
    assert parse_spec("alphabeta:eval=@runs/td/model.npz") == (
        "alphabeta",
        {"eval": "@runs/td/model.npz"},
    )
    assert parse_spec("kalah:empty-capture=true") == ("kalah", {"empty_capture": True})
    assert parse_spec("  checkers ") == ("checkers", {})


@pytest.mark.parametrize(
    "bad",
    ["", ":x=1", "kalah:", "kalah:pits", "kalah:pits=", "kalah:pits=1,pits=2", "a:b=[1,2", "a:=3"],
)
def test_malformed_specs_are_spec_errors(bad):
    with pytest.raises(SpecError, match="spec"):
        parse_spec(bad)


values = st.one_of(
    st.integers(-1000, 1000),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text("abcxyz_-./@", min_size=1, max_size=8),
    st.lists(st.integers(0, 50), max_size=3),
)


@given(
    st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
    st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), values, max_size=4),
)
def test_format_then_parse_round_trips(name, options):
    assert parse_spec(format_spec(name, options)) == (name, options)


@given(st.text(max_size=30))
def test_fuzzed_specs_raise_only_spec_errors(text):
    try:
        name, options = parse_spec(text)
    except SpecError:
        return
    assert parse_spec(format_spec(name, options)) == (name, options)  # what parses round-trips
