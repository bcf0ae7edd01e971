"""Fixtures of the evaluator tests: games, encodings and seeded random positions."""

from __future__ import annotations

import pytest

from support.positions import random_positions


@pytest.fixture
def positions():
    return random_positions
