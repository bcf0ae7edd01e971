"""Small file helpers shared by every writer: atomic replace, ``.npz`` with a JSON record, and
JSON Lines."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import math
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from mindgames.errors import FileError, MindgamesError


def _reason(exc: OSError) -> str:
    """The system's reason for an OSError, without the file name (the caller names the file)."""
    return exc.strerror or str(exc)


#: the array of an ``.npz`` file that holds its JSON metadata record (UTF-8 bytes as uint8)
META = "__meta__"


def _permissions(target: Path) -> int:
    """The mode a replaced file keeps, or what ``open`` would give a new one (0666 less the
    umask): ``mkstemp`` makes its file private (0600), which a user's outputs should not be."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and rename it over ``path`` when done.

    On any error the temporary file is removed and ``path`` is left as it was, so a reader
    never sees a half-written file.
    """
    target = Path(path)
    make_directory(target.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise FileError(f"{target}: cannot write: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, mode) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _permissions(target))
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):  # a full disk, a file-size limit: one line, file unchanged
            raise FileError(f"{target}: cannot write: {_reason(exc)}") from None
        raise


def write_npz(
    path: str | Path,
    meta: Mapping[str, Any],
    arrays: Mapping[str, np.ndarray],
    error: type[MindgamesError] = MindgamesError,
) -> None:
    """Write numeric ``arrays`` plus the JSON record ``meta`` as one ``.npz``, atomically.

    Never pickle: an array of Python objects is refused with ``error`` before anything is written.
    """
    for name, array in arrays.items():
        if np.asarray(array).dtype == object:
            raise error(f"{path}: array {name!r} is not numeric; refusing to save it")
    payload = {name: np.asarray(a) for name, a in arrays.items()}
    payload[META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **payload)
    with atomic_write(path) as fh:
        fh.write(buffer.getvalue())


def read_npz(
    path: str | Path,
    what: str,
    error: type[MindgamesError] = MindgamesError,
    max_elements: int | None = None,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The JSON record and the arrays of an ``.npz`` written by ``write_npz``.

    Every way the file can be bad -- missing, not a zip, truncated, no or corrupt record, arrays
    of more than ``max_elements`` numbers in all (read from their headers, before any array) --
    is one ``error`` naming the file and ``what`` it should have been.
    """
    p = Path(path)
    if p.is_file() and not zipfile.is_zipfile(p):
        raise error(f"{p}: not a readable {what} (not an .npz archive)")
    try:
        with np.load(p, allow_pickle=False) as data:
            if max_elements is not None:
                elements = npz_elements(data)
                if elements > max_elements:
                    raise error(
                        f"{p}: its arrays hold {elements:,} numbers, more than a {what} may "
                        f"({max_elements:,}); it is not read"
                    )
            arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise error(f"{p}: no such {what}") from None
    except (zipfile.BadZipFile, EOFError, ValueError, OSError, KeyError) as exc:
        raise error(f"{p}: not a readable {what} ({exc})") from None
    if META not in arrays:
        raise error(f"{p}: not a mindgames {what} (no metadata record)")
    try:
        meta = json.loads(arrays.pop(META).tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise error(f"{p}: corrupt metadata record ({exc})") from None
    if not isinstance(meta, dict):
        raise error(f"{p}: corrupt metadata record (not a JSON object)")
    return meta, arrays


def npz_elements(data: Any) -> int:
    """The numbers in all arrays of an open ``np.load`` archive, from their headers alone."""
    total = 0
    for name in data.files:
        with data.zip.open(f"{name}.npy") as member:
            version = np.lib.format.read_magic(member)
            if version == (1, 0):
                shape, _, _ = np.lib.format.read_array_header_1_0(member)
            else:
                shape, _, _ = np.lib.format.read_array_header_2_0(member)
        total += math.prod(shape)
    return total


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of a file's bytes (hex), read in blocks: names a file's exact content."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:
        raise FileError(f"{path}: cannot read: {_reason(exc)}") from None
    return h.hexdigest()


def append_jsonl(fh: IO[str], record: dict[str, Any]) -> None:
    """Append one JSON record as a line and flush it, so a killed run loses nothing written."""
    data = (json.dumps(record, sort_keys=True) + "\n").encode("utf-8")
    try:
        fh.flush()
        while data:  # straight to the descriptor: a failed write leaves nothing buffered
            data = data[os.write(fh.fileno(), data) :]
        os.fsync(fh.fileno())
    except OSError as exc:  # what was written before stays; a torn last line is dropped on reading
        raise FileError(f"{fh.name}: cannot write: {_reason(exc)}") from None


def drop_torn_tail(path: str | Path) -> None:
    """Cut a last line left half-written by a killed run, so appends start on a fresh line."""
    p = Path(path)
    if not p.exists():
        return
    data = p.read_bytes()
    if data and not data.endswith(b"\n"):
        with p.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Every complete record of a JSON Lines file; a torn last line (a killed writer) is dropped.

    A malformed line anywhere else is an error naming the file and line.
    """
    p = Path(path)
    if not p.exists():
        return []
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:  # a binary or non-UTF-8 file given where results belong
        raise MindgamesError(f"{p}: not a JSON Lines file: {exc}") from None
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            if number >= len(lines) - 1 and not text.endswith("\n"):
                break  # the last line was cut by a kill: drop it
            raise MindgamesError(f"{p}:{number}: not a JSON record: {exc}") from None
        if not isinstance(out[-1], dict):
            raise MindgamesError(
                f"{p}:{number}: not a JSON record: an object {{...}} expected, "
                f"got {type(out[-1]).__name__}"
            )
    return out


#: the lock file of a run directory (``lock_run``): it holds the pid of the process that runs it
LOCK_FILE = ".lock"


def output_file(path: str | Path) -> Path:
    """``path`` as the target of an output file whose directory must exist already.

    Commands that write one file where the user says (``-o FILE``) check this before any work,
    rather than creating a mistyped directory silently.
    """
    p = Path(path)
    if p.is_dir():
        raise FileError(f"{p}: is a directory; give a file name")
    if not p.parent.is_dir():
        raise FileError(f"{p}: no such directory {str(p.parent)!r} (create it first)")
    return p


def make_directory(path: str | Path) -> Path:
    """Create ``path`` and its parents; a regular file in the way or no permission is a
    FileError naming the directory."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FileError(
            f"{p}: cannot create the directory: a file of that name is in the way"
        ) from None
    except OSError as exc:
        raise FileError(f"{p}: cannot create the directory: {_reason(exc)}") from None
    return p


@contextlib.contextmanager
def lock_file(path: str | Path, what: str) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if needed) while the body runs.

    Another process holding it is a FileError naming ``what`` and that process, so two runs
    never write into one place. The lock is ``flock``: the kernel drops it when the process
    dies, even by SIGKILL, so a killed run never leaves a stale lock.
    """
    p = Path(path)
    try:
        fh = p.open("a+", encoding="utf-8")
    except OSError as exc:
        raise FileError(f"{what}: cannot lock: {_reason(exc)}") from None
    with fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "?"
            raise FileError(
                f"{what}: in use by another mindgames process (pid {holder}); "
                "wait for it to finish or stop it first"
            ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        yield


@contextlib.contextmanager
def lock_run(directory: str | Path) -> Iterator[Path]:
    """Create ``directory`` if needed and hold its exclusive lock (``LOCK_FILE``) meanwhile.

    Every command that writes a run directory (train, tournament, ...) runs inside this. When
    the body fails and the directory was created here and holds nothing else, it is removed
    again, so a refused run leaves no trace.
    """
    p = Path(directory)
    created = not p.exists()
    make_directory(p)
    try:
        with lock_file(p / LOCK_FILE, str(p)):
            yield p
    except BaseException:
        if created and [f.name for f in p.iterdir()] == [LOCK_FILE]:
            shutil.rmtree(p, ignore_errors=True)
        raise
