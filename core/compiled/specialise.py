"""Bind a compiled template to a game's and a model's kernel modules, as a cached module.

numba caches module-level functions, but not a function that takes another compiled function as
an argument or closes over one: those are compiled again in every process (measured: a cold
compile of the searcher each time). A searcher that must call any game's kernels therefore reads
them as module globals. ``bind`` copies the template's source with the block between its
``# <bind>`` and ``# </bind>`` markers replaced by imports from the given modules, writes the copy
once to the generated-modules directory (``cache``), named by a digest of everything it depends
on (the template, the bindings, the kernel modules' sources, numba's version), and imports it:
numba then caches its functions like any module's, across processes and runs. A changed kernel
gives a new digest, hence a new module: a stale compiled copy is never used.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import numba

from mindgames.compiled.cache import configure

_BLOCK = re.compile(r"# <bind>\n.*?# </bind>\n", re.S)
_bound: dict[tuple[str, tuple[tuple[str, str], ...]], ModuleType] = {}


def _sources(module_name: str) -> bytes:
    """The sources a kernel module's compiled code may depend on: its own file and every other
    module file of its package (the kernel modules it imports are among them).

    Every file of the package, not the ones this process happens to have imported: the digest
    must not depend on what ran before the bind (a process that had imported the package's
    solver would otherwise name, and compile, a second copy of the same searcher)."""
    module = importlib.import_module(module_name)
    origin = getattr(module, "__file__", None)
    if origin is None:
        return module_name.encode()
    files = {Path(origin)}
    if "." in module_name:
        files.update(Path(origin).parent.glob("*.py"))
    return b"".join(f.name.encode() + f.read_bytes() for f in sorted(files))


def bind(template: Path, bindings: Mapping[str, tuple[str, str]]) -> ModuleType:
    """The template's module with each global ``name`` bound to ``module.attribute``
    (``bindings``: name -> (module, attribute)); made and imported once per process."""
    memo = (str(template), tuple(sorted((k, f"{m}:{a}") for k, (m, a) in bindings.items())))
    if memo in _bound:
        return _bound[memo]
    source = template.read_text()
    if not _BLOCK.search(source):
        raise ValueError(f"{template} has no '# <bind>' ... '# </bind>' block")
    imports = "".join(
        f"from {module} import {attribute} as {name}\n"
        for name, (module, attribute) in sorted(bindings.items())
    )
    text = _BLOCK.sub(lambda _: f"# <bind>\n{imports}# </bind>\n", source, count=1)
    digest = hashlib.sha256(text.encode() + numba.__version__.encode())
    for kernel_module in sorted({m for m, _ in bindings.values()}):
        digest.update(_sources(kernel_module))
    name = f"mindgames_{template.stem}_{digest.hexdigest()[:20]}"
    path = configure() / f"{name}.py"
    if not path.exists():
        _write_atomically(path, text)
    for module_name, attribute in bindings.values():
        keep_counting(getattr(importlib.import_module(module_name), attribute))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _bound[memo] = module
    return module


def keep_counting(kernel: object) -> None:
    """Pin an ``njit`` kernel that does not say otherwise to numba's reference counting.

    The templates' functions are ``hot`` (``mindgames.compiled.hot``: no reference counting),
    and numba compiles a called function that does not set the option with its caller's: a
    plugin's kernel that allocates (even a slice copy may) would then fail to compile. Pinned,
    it is compiled as it would be called from Python; ``hot`` and ``allocating`` kernels set the
    option themselves and are left alone.
    """
    options = getattr(kernel, "targetoptions", None)
    if isinstance(options, dict) and "_nrt" not in options:
        options["_nrt"] = True


def _write_atomically(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (processes may race to write the same module)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".py")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
