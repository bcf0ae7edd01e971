"""Shipped example configs made small: the same TOML with some learner options replaced."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "training"


def toml_value(value: Any) -> str:
    """A TOML value (inline tables for dicts)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def shrunk(name: str, tmp_path: Path, **learner: Any) -> tuple[Path, dict[str, Any]]:
    """The example config with some learner options replaced, written to ``tmp_path``."""
    with (EXAMPLES / name).open("rb") as fh:
        config = tomllib.load(fh)
    config["learner"].update(learner)
    lines = [f"{k} = {toml_value(v)}" for k, v in config.items() if not isinstance(v, dict)]
    for table in ("eval", "learner"):
        if isinstance(config.get(table), dict):
            lines.append(f"[{table}]")
            lines += [f"{k} = {toml_value(v)}" for k, v in config[table].items()]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, config
