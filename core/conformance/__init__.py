"""The conformance suite: checks that a game keeps the Game contract and that its
compiled kernels equal its Python rules.

Plugins import ``check_game`` from here (docs/plugins.md)."""

from mindgames.conformance.suite import ConformanceReport, check_game, playout

__all__ = ["ConformanceReport", "check_game", "playout"]
