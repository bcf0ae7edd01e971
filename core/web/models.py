"""Which model files a ``serve`` request may name: only the ``.npz`` files inside the directories
given with ``serve --models DIR``.

A request names a model as ``eval=@NAME``, ``NAME`` relative to one of those directories. Every
path that is refused — absolute, climbing out with ``..`` or a link, missing, not a regular file
(a FIFO would block the reader), not ``.npz``, or no directory given at all — gets the one
message ``REFUSED``, so that a caller cannot learn which files exist on the server.
``find_model`` is the only lookup. The model zoo joins it: ``eval=@zoo:NAME`` names a zoo model
(core/zoo.py; shipped with the package, public), listed to the page after the directories' files.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from mindgames import zoo
from mindgames.errors import MindgamesError
from mindgames.web.errors import RequestError

#: the one answer to a model path the server does not offer (no existence oracle)
REFUSED = "this server offers no such model (see the page's list; serve --models DIR adds some)"
#: the most model names listed to the page
MAX_LISTED = 500


def find_model(name: str, dirs: Sequence[Path]) -> Path:
    """The model file that ``name`` means inside one of ``dirs``; ``RequestError(REFUSED)`` for
    any name that is not a regular ``.npz`` file inside one of them or ``zoo:NAME`` of the zoo."""
    if name.startswith(zoo.PREFIX):
        try:
            return zoo.path_of(name[len(zoo.PREFIX) :])
        except MindgamesError:
            raise RequestError(REFUSED) from None
    relative = PurePosixPath(name)
    if (
        not name
        or "\\" in name
        or "\x00" in name
        or relative.is_absolute()
        or ".." in relative.parts
        or relative.suffix != ".npz"
    ):
        raise RequestError(REFUSED)
    for directory in dirs:
        try:
            root = directory.resolve(strict=True)
            path = (root / relative).resolve(strict=True)
            inside = path.is_relative_to(root)
            regular = stat.S_ISREG(os.stat(path).st_mode)
        except (OSError, RuntimeError, ValueError):  # missing, unreadable, a loop of links
            continue
        if inside and regular:
            return path
    raise RequestError(REFUSED)


def list_models(dirs: Sequence[Path]) -> list[str]:
    """The model names the page may offer: the ``.npz`` files under ``dirs`` (the first
    ``MAX_LISTED``), as ``find_model`` accepts them."""
    names: list[str] = []
    for directory in dirs:
        try:
            found = sorted(directory.rglob("*.npz"))
        except OSError:
            continue
        for path in found:
            name = path.relative_to(directory).as_posix()
            try:
                find_model(name, [directory])
            except RequestError:
                continue
            if name not in names:
                names.append(name)
            if len(names) >= MAX_LISTED:
                return names
    with contextlib.suppress(MindgamesError):  # a name in two zoo folders: none is offered
        names += [zoo.PREFIX + name for name in zoo.models()]
    return names[:MAX_LISTED]
