"""Agents: a searcher plus an evaluator, built from a spec string or a TOML table.

Spec: ``SEARCHER[:option=value,...,eval=EVAL]`` where EVAL is ``@path/to/model.npz`` (a model
file), ``@zoo:NAME`` (a model of the zoo, core/zoo.py) or a model name played on that model's
default encoding (``material``). In TOML, ``eval``
may also be a table ``{model = "mlp", encoding = "raw32", seed = 1, hidden = [10]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from mindgames.config import structure
from mindgames.errors import ConfigError
from mindgames.game import DeclaresMaterial, Encoding, Game, State
from mindgames.model import Evaluator
from mindgames.registry import Registry
from mindgames.search import Searcher, SearchResult
from mindgames.spec import format_spec, parse_spec


@attrs.frozen(eq=False)
class Agent:
    """What plays a game: a searcher with its options and an evaluator (or none)."""

    name: str
    searcher: Searcher
    evaluator: Evaluator | None

    def choose(self, game: Game, state: State, rng: np.random.Generator) -> SearchResult:
        return self.searcher.search(game, state, self.evaluator, rng)


def build_evaluator(
    registry: Registry, game: Game, value: str | Mapping[str, Any], *, seed: int = 0
) -> Evaluator:
    """An evaluator from ``@file``, a model name, or a table with model, encoding and config."""
    from mindgames.modelfile import load_evaluator

    if isinstance(value, str):
        if value.startswith("@"):
            return load_evaluator(value[1:], registry, game)[1]
        table: dict[str, Any] = {"model": value}
    elif isinstance(value, Mapping):
        table = dict(value)
    else:  # a spec string's value may be any type: eval=0
        raise ConfigError(f"eval {value!r}: expected a model name, '@file' or a table with 'model'")
    kind = table.pop("model", None)
    if not isinstance(kind, str):
        raise ConfigError(f"eval {value!r}: expected a model name, '@file' or a table with 'model'")
    info = registry.model_info(kind)
    encoding_spec = table.pop("encoding", info.default_encoding)
    seed = table.pop("seed", seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"eval {value!r}: seed: expected a non-negative integer, got {seed!r}")
    if encoding_spec is None:
        raise ConfigError(f"eval {value!r}: model {kind!r} needs an encoding (give 'encoding')")
    encoding = registry.encoding(game, encoding_spec)
    if isinstance(table.get("groups"), str):  # a set of column groups the encoding offers
        table["groups"] = named_groups(encoding, table["groups"])
    if kind == "material" and "weights" not in table and isinstance(game, DeclaresMaterial):
        declared = dict(game.material_weights())  # give-away: fewer pieces is better
        if set(declared) <= set(encoding.columns):
            table["weights"] = declared
    config = structure(table, info.config, where=f"eval model {kind!r}")
    model = info.create(config, encoding.columns, np.random.default_rng(seed))
    return Evaluator(encoding, model)


def named_groups(encoding: Encoding, name: str) -> list[list[str]]:
    """The column groups ``name`` that ``encoding`` offers (a model's ``groups = "NAME"``)."""
    if name not in encoding.groups:
        known = ", ".join(sorted(encoding.groups)) or "none"
        raise ConfigError(
            f"encoding {encoding.name!r} offers no column groups {name!r} (it offers: {known})"
        )
    return [list(group) for group in encoding.groups[name]]


def build_agent(
    registry: Registry, game: Game, spec: str | Mapping[str, Any], *, name: str | None = None
) -> Agent:
    """An agent from ``alphabeta:depth=4,eval=material`` or an equivalent table."""
    if isinstance(spec, str):
        searcher_name, options = parse_spec(spec)
        label = name or spec
    else:
        options = dict(spec)
        searcher_name = options.pop("searcher", None)
        if not isinstance(searcher_name, str):
            raise ConfigError(f"agent {name or spec!r}: expected 'searcher = NAME'")
        label = name or format_spec(searcher_name, options)
    eval_value = options.pop("eval", None)
    info = registry.searcher_info(searcher_name)
    searcher = structure(options, info.cls, where=f"agent {label!r}")
    evaluator = None
    if eval_value is not None:
        evaluator = build_evaluator(registry, game, eval_value)
    elif info.cls.needs_evaluator:
        raise ConfigError(f"agent {label!r}: searcher {searcher_name!r} needs eval=...")
    return Agent(label, searcher, evaluator)
