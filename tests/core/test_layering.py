"""The dependency direction of DESIGN.md, checked on the source."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "core": ("mindgames.games", "mindgames.evaluators", "mindgames.plugins"),
    "games": ("mindgames.evaluators", "mindgames.plugins"),
    "evaluators": ("mindgames.games", "mindgames.plugins"),
    "plugins": ("mindgames.games",),
}


def imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_no_module_imports_against_the_direction(folder):
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / folder).rglob("*.py")
        for name in imports(path)
        if name.startswith(FORBIDDEN[folder])
    ]
    assert bad == []


def test_no_pickle_anywhere():
    for folder in FORBIDDEN:
        for path in (ROOT / folder).rglob("*.py"):
            assert not {"pickle", "dill", "joblib"} & set(imports(path)), path
