"""The docs' relative links resolve: every ``[text](target)`` and ``![alt](target)`` of the README,
docs/*.md and docs/notes/*.md (and the examples' and benchmarks' READMEs) names a file or folder
of the repository, and its ``#anchor``, if any, a heading of the page it names, spelled as GitHub
spells a heading's anchor."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "notes").glob("*.md")),
    *sorted((ROOT / "examples").glob("*/README.md")),
    ROOT / "benchmarks" / "README.md",
]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target), the target optionally in <...> and followed by a "title"
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]+)(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(path: Path) -> list[str]:
    """The page's lines outside fenced code blocks, inline code spans blanked."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text as rendered (links' targets, code marks and tags
    dropped), lower case, every character but letters, digits, ``_``, ``-`` and spaces removed,
    spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor on a page; a repeated one gets ``-1``, ``-2``… as on GitHub."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    return [match.group(1).strip("<>") for line in prose(path) for match in LINK.finditer(line)]


def test_slugs_are_githubs():
    assert slug("TD(λ) on Kalah(6,4) (issue 8)") == "tdλ-on-kalah64-issue-8"
    assert slug("A stronger TD net: `kalah-td-strong.toml` (issue 14)") == (
        "a-stronger-td-net-kalah-td-strongtoml-issue-14"
    )
    assert slug("`layered`: Layered Learning (Wałędzik and Mańdziuk)") == (
        "layered-layered-learning-wałędzik-and-mańdziuk"
    )
    assert slug("Evolution+RPROP beats evolution alone (checkers, Evo10N)") == (
        "evolutionrprop-beats-evolution-alone-checkers-evo10n"
    )


def test_every_page_is_found():
    assert ROOT / "docs" / "results.md" in PAGES
    assert any(page.parent.name == "notes" for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_of_a_page_resolves(page):
    broken = []
    for target in links(page):
        if SCHEME.match(target):
            continue
        name, _, anchor = unquote(target).partition("#")
        dest = (page.parent / name).resolve() if name else page
        if not dest.exists() or ROOT not in (dest, *dest.parents):
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor")
    assert broken == []
