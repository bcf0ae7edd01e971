"""pyproject.toml lists every package of the four source folders: a wheel or a non-editable
install holds only the listed ones (the editable install hides a missing entry)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_listed_in_pyproject():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    setuptools = setup["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for name, folder in setuptools["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            if "templates" not in parts and "__pycache__" not in parts:
                found.add(".".join((name, *parts)))
    assert found - listed == set(), "packages missing from pyproject.toml"
