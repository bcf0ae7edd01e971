"""The console lines of a page run verbatim, in order, in a directory holding what a fresh clone
holds (``examples/`` and nothing made yet): the README's tour and docs/playing.md are runnable as
written (issue 38). A ``play`` line gets ``quit`` on standard input; a ``serve`` line is started,
seen to print its address, and stopped; a shell glob is expanded as the shell would."""

from __future__ import annotations

import glob
import importlib.util
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path
from types import ModuleType

from support.cli import command, environment

ROOT = Path(__file__).resolve().parents[2]


def fresh_clone(directory: Path) -> Path:
    """``directory`` holding the repository's examples, as a fresh clone has them."""
    ignore = shutil.ignore_patterns("*.egg-info", "__pycache__", "build", "runs")
    shutil.copytree(ROOT / "examples", directory / "examples", ignore=ignore)
    return directory


def demo_module() -> ModuleType:
    """examples/demo/demo.py, the script ``make demo`` runs, as a module."""
    spec = importlib.util.spec_from_file_location("demo", ROOT / "examples" / "demo" / "demo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def demo_commands() -> list[list[str]]:
    """The ``mindgames`` lines ``make demo`` runs, as words: its trainings (side by side in the
    demo, one after the other here), then its steps."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo:.*\n\t\$\(BIN\)/python examples/demo/demo.py", text, re.M), (
        "the Makefile's demo target moved"
    )
    demo = demo_module()
    trainings = [words for learner in demo.TRAININGS for words in learner]
    return [["mindgames", *words] for words in [*trainings, *demo.STEPS]]


def console_commands(path: Path, heading: str | None = None) -> list[list[str]]:
    """The ``mindgames`` lines of a page's console blocks (after ``heading`` and before the
    next heading of that level, when given), as words, comments cut."""
    text = path.read_text(encoding="utf-8")
    if heading is not None:
        start = text.index(heading)
        level = heading.split(" ")[0]
        end = text.find(f"\n{level} ", start + len(heading))
        text = text[start : end if end > 0 else None]
    blocks = re.findall(r"```console\n(.*?)```", text, re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    found = [line.strip().removeprefix("$ ") for line in lines]
    return [shlex.split(line, comments=True) for line in found if line.startswith("mindgames ")]


def expand(words: list[str], cwd: Path) -> list[str]:
    """Shell globs expanded relative to ``cwd`` (sorted), as a shell does."""
    out: list[str] = []
    for word in words:
        if any(c in word for c in "*?"):
            matches = sorted(glob.glob(word, root_dir=cwd))
            assert matches, f"{word}: matches nothing"
            out.extend(matches)
        else:
            out.append(word)
    return out


def run_line(words: list[str], cwd: Path, timeout: float = 900) -> tuple[float, str]:
    """Run one console line; (seconds, what it printed on stderr). Fails when it fails."""
    args = expand(words[1:], cwd)
    start = time.perf_counter()
    if args and args[0] == "serve":
        proc = subprocess.Popen(
            command(*args, "--port", "0"),
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        proc.terminate()
        _, err = proc.communicate(timeout=60)
        assert line.startswith("mindgames serve: http://"), (words, line, err)
        return time.perf_counter() - start, err
    stdin = "quit\n" if args and args[0] == "play" else None
    done = subprocess.run(
        command(*args),
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(),
    )
    assert done.returncode == 0, (" ".join(words), done.stderr[-2000:])
    return time.perf_counter() - start, done.stderr
