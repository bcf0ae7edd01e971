"""``mindgames train --explain``: the settings a training run will use and where each came from
-- the config, a default, or measured on random games before training (the ``MeasuresInputs``
learners: TD's and supervised's step sizes, Layered Learning's stage schedule, the evolution
learners' initial ranges and mutation scales)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from mindgames.config import unstructure
from mindgames.learner import MeasuresInputs
from mindgames.registry import Registry, get_registry
from mindgames.training import build, load_config

CONFIG, DEFAULT, MEASURED = "config", "default", "measured from the encoding"
#: learner fields that carry a measurement, not an option (shown as the measured rows)
_INTERNAL = frozenset({"measured"})


def explain(
    config_path: str | Path,
    *,
    seed: int | None = None,
    registry: Registry | None = None,
    placement: Mapping[str, Any] | None = None,
) -> list[tuple[str, Any, str]]:
    """(setting, value, source) of every setting of the run ``config_path`` describes
    (``placement``: the command line's ``--workers``/``--scheduler``, shown as the config's)."""
    registry = registry or get_registry()
    config, raw = load_config(config_path, placement)
    seed = config.seed if seed is None else seed
    game, evaluator, learner, name = build(config, registry, seed, where=str(config_path))
    rows: list[tuple[str, Any, str]] = [
        ("game", config.game, CONFIG),
        ("seed", seed, CONFIG if "seed" in raw else DEFAULT),
    ]
    table = raw["eval"] if isinstance(raw["eval"], Mapping) else {"model": raw["eval"]}
    rows.append(("eval.model", table.get("model", raw["eval"]), CONFIG))
    rows.append(("eval.encoding", evaluator.encoding.name, _source(table, "encoding")))
    if isinstance(table.get("model"), str):
        info = registry.model_info(table["model"])
        try:
            defaults = unstructure(info.config()) if attrs.has(info.config) else {}
        except TypeError:  # a model config with required options: the table lists them
            defaults = {k: v for k, v in table.items() if k not in ("model", "encoding")}
        for key, value in defaults.items():
            rows.append((f"eval.{key}", table.get(key, value), _source(table, key)))
    measured: dict[str, Any] = {}
    if isinstance(learner, MeasuresInputs):
        learner, measured = learner.measure(game, evaluator, seed)
    options = {k: v for k, v in unstructure(learner).items() if k not in _INTERNAL}
    rows.append(("learner.name", name, CONFIG))
    shown = _learner_rows(options, raw.get("learner", {}), measured, "", rows)
    for key, value in measured.items():
        if key not in shown:
            rows.append((f"measured.{key}", value, MEASURED))
    return rows


def _learner_rows(
    options: Mapping[str, Any], given: Mapping[str, Any], measured: Mapping[str, Any],
    prefix: str, rows: list[tuple[str, Any, str]],
) -> set[str]:  # fmt: skip
    """Append a row per learner option (a nested table's options as ``table.key``), its value
    from the config, the measurement or the default; the measured keys it showed."""
    shown = set()
    for key, value in options.items():
        full = prefix + key
        if isinstance(value, Mapping) and value:
            inner = given.get(key, {}) if isinstance(given.get(key), Mapping) else {}
            shown |= _learner_rows(value, inner, measured, full + ".", rows)
        elif key in given:
            rows.append((f"learner.{full}", given[key], CONFIG))
        elif full in measured:
            rows.append((f"learner.{full}", measured[full], MEASURED))
            shown.add(full)
        else:
            rows.append((f"learner.{full}", value, DEFAULT))
    return shown


def _source(table: Mapping[str, Any], key: str) -> str:
    return CONFIG if key in table else DEFAULT


def format_rows(rows: list[tuple[str, Any, str]]) -> str:
    """The rows as aligned text, one setting a line (long lists shortened)."""
    width = max(len(k) for k, _, _ in rows)
    lines = []
    for key, value, source in rows:
        text = json.dumps(value)
        if len(text) > 60:
            text = text[:57] + "..."
        lines.append(f"{key:<{width}}  {text:<60}  {source}")
    return "\n".join(lines)
