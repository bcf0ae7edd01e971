"""Data sets of labelled positions: one ``.npz`` with a JSON record, for any game.

A data set holds, one row per position (docs/formats.md, "Data sets"):

* ``position`` -- the canonical position text (``Game.position_text``), so any encoding applies
  later;
* ``group``    -- the game (playout, recorded game) it came from: splits never cut a group;
* ``ply``      -- plies played when it arose;
* ``label``    -- optional: its value in [-1, 1] for the side to move;
* ``weight``   -- optional: the weight of its error in a fit.

The record names the format and version, the game spec, the columns and the provenance
(generator, labeller, seed, mindgames version). Writes are atomic; a truncated file, another
game or a missing column is one ``DataSetError`` naming the file and what was wanted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mindgames.errors import DataSetError
from mindgames.files import read_npz, write_npz

FORMAT = "mindgames-dataset"
VERSION = 1
REQUIRED = ("position", "group", "ply")
OPTIONAL = ("label", "weight")
_DTYPES = {"group": np.int64, "ply": np.int64, "label": np.float64, "weight": np.float64}


def _version() -> str:
    from mindgames import __version__

    return __version__


@attrs.frozen(eq=False)
class DataSet:
    """Positions of one game with their groups, plies and (optionally) labels and weights."""

    game: str
    positions: np.ndarray = attrs.field(converter=lambda a: np.asarray(a, dtype=str))
    groups: np.ndarray = attrs.field(converter=lambda a: np.asarray(a, dtype=np.int64))
    plies: np.ndarray = attrs.field(converter=lambda a: np.asarray(a, dtype=np.int64))
    labels: np.ndarray | None = None
    weights: np.ndarray | None = None
    provenance: dict[str, Any] = attrs.Factory(dict)

    def __attrs_post_init__(self) -> None:
        n = len(self.positions)
        for name, column in self._columns().items():
            if column.ndim != 1 or len(column) != n:
                raise DataSetError(f"data set column {name!r} has {len(column)} rows, not {n}")
        if self.labels is not None and not np.all(np.abs(self.labels) <= 1.0):
            raise DataSetError("data set labels must lie in [-1, 1]")

    def __len__(self) -> int:
        return len(self.positions)

    def _columns(self) -> dict[str, np.ndarray]:
        columns = {"position": self.positions, "group": self.groups, "ply": self.plies}
        if self.labels is not None:
            columns["label"] = np.asarray(self.labels, dtype=np.float64)
        if self.weights is not None:
            columns["weight"] = np.asarray(self.weights, dtype=np.float64)
        return columns

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self._columns())

    def select(self, index: np.ndarray | Sequence[int]) -> DataSet:
        """The rows at ``index`` (integer indices or a boolean mask), same record."""
        return DataSet(
            self.game,
            self.positions[index],
            self.groups[index],
            self.plies[index],
            None if self.labels is None else self.labels[index],
            None if self.weights is None else self.weights[index],
            dict(self.provenance),
        )

    def with_labels(self, labels: np.ndarray, labeller: Mapping[str, Any]) -> DataSet:
        """The same positions with new labels; ``labeller`` joins the provenance."""
        provenance = {**self.provenance, "labeller": dict(labeller)}
        return attrs.evolve(
            self, labels=np.asarray(labels, dtype=np.float64), provenance=provenance
        )


def write_dataset(path: str | Path, data: DataSet) -> None:
    """Write ``data`` atomically as ``path`` (an ``.npz`` with the data-set record)."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": data.game,
        "count": len(data),
        "columns": list(data.columns),
        "provenance": {"mindgames": _version(), **data.provenance},
    }
    write_npz(path, meta, data._columns(), DataSetError)


def read_dataset(
    path: str | Path, *, game: str | None = None, need: Sequence[str] = (), who: str = "this"
) -> DataSet:
    """The data set in ``path``; with ``game`` (a spec) it must be of that game, and it must
    hold every column in ``need`` (``who`` names what needs them in the error)."""
    meta, arrays = read_npz(path, "data set", DataSetError)
    if meta.get("format") != FORMAT:
        raise DataSetError(f"{path}: not a mindgames data set (format {meta.get('format')!r})")
    version = meta.get("version")
    if not isinstance(version, int) or version > VERSION or version < 1:
        raise DataSetError(
            f"{path}: data-set version {version!r}; this mindgames reads 1..{VERSION}"
        )
    listed = [c for c in meta.get("columns", []) if isinstance(c, str)]
    absent = [c for c in (*REQUIRED, *listed) if c not in arrays]
    if absent:
        raise DataSetError(f"{path}: truncated or corrupt data set: no column {', '.join(absent)}")
    if game is not None and meta.get("game") != game:
        raise DataSetError(
            f"{path}: a data set of game {meta.get('game')!r}, but {who} plays {game!r}"
        )
    missing = [c for c in need if c not in listed]
    if missing:
        raise DataSetError(
            f"{path}: the data set has no {', '.join(missing)} column, which {who} needs "
            f"(it has: {', '.join(listed)})"
        )
    try:
        typed = {
            name: arrays[name].astype(_DTYPES[name], casting="same_kind")
            for name in listed
            if name in _DTYPES
        }
        data = DataSet(
            str(meta.get("game")),
            arrays["position"],
            typed["group"],
            typed["ply"],
            typed.get("label"),
            typed.get("weight"),
            dict(meta.get("provenance") or {}),
        )
    except (TypeError, ValueError, KeyError) as exc:
        raise DataSetError(f"{path}: corrupt data set ({exc})") from None
    except DataSetError as exc:
        raise DataSetError(f"{path}: {exc}") from None
    if len(data) != meta.get("count"):
        raise DataSetError(
            f"{path}: the record says {meta.get('count')} rows, the file has {len(data)}"
        )
    return data


def merge(parts: Sequence[tuple[str, DataSet]]) -> DataSet:
    """One data set from ``(name, data set)`` parts of one game; groups stay apart.

    Each part's groups are shifted past the previous parts' largest group. Labels and weights
    are kept when every part has them.
    """
    if not parts:
        raise DataSetError("merge needs at least one data set")
    game = parts[0][1].game
    for name, part in parts:
        if part.game != game:
            raise DataSetError(
                f"{name}: a data set of game {part.game!r}, but {parts[0][0]} is of {game!r}"
            )
    _refuse_mixed_labels(parts)
    groups, offset = [], 0
    for _, part in parts:
        groups.append(part.groups - (part.groups.min() if len(part) else 0) + offset)
        offset = int(groups[-1].max()) + 1 if len(part) else offset

    def joined(column: str) -> np.ndarray | None:
        values = [getattr(part, column) for _, part in parts]
        return None if any(v is None for v in values) else np.concatenate(values)

    return DataSet(
        game,
        np.concatenate([part.positions for _, part in parts]),
        np.concatenate(groups),
        np.concatenate([part.plies for _, part in parts]),
        joined("labels"),
        joined("weights"),
        {"merged": [{"file": name, **part.provenance} for name, part in parts]},
    )


def label_meaning(provenance: Mapping[str, Any]) -> str | None:
    """What a data set's labels are (``solve linear/48.0``, ``search``), from its labeller;
    None when its provenance does not say (game records labelled by their results)."""
    labeller = provenance.get("labeller")
    if isinstance(labeller, Mapping):
        kind = labeller.get("kind")
        return (
            f"solve {labeller.get('squash')}/{labeller.get('scale')}"
            if kind == "solve"
            else str(kind)
        )
    merged = provenance.get("merged")
    if isinstance(merged, list):
        meanings = {label_meaning(p) for p in merged if isinstance(p, Mapping)} - {None}
        return meanings.pop() if len(meanings) == 1 else None
    return None


def _refuse_mixed_labels(parts: Sequence[tuple[str, DataSet]]) -> None:
    """Labels of two scales (exact margins over 48 beside search values) would train a model on
    a mixture no one asked for: one meaning per merge (a part without labels drops them all)."""
    if any(part.labels is None for _, part in parts):
        return
    meanings = [(name, label_meaning(part.provenance)) for name, part in parts]
    known = [(name, meaning) for name, meaning in meanings if meaning is not None]
    for name, meaning in known[1:]:
        if meaning != known[0][1]:
            raise DataSetError(
                f"{name}: labels by {meaning}, but {known[0][0]}'s are by {known[0][1]}: "
                "label them alike before merging (mindgames data solve or data label)"
            )


def split_by_group(
    groups: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (train, validation): a random ``fraction`` of the groups is held out whole.

    A group is never in both parts, and at least one group is always left for training.
    """
    if not 0.0 <= fraction < 1.0:
        raise DataSetError(f"validation fraction must be in [0, 1), got {fraction!r}")
    unique = np.unique(groups)
    held = min(round(fraction * len(unique)), len(unique) - 1)
    chosen = rng.permutation(unique)[:held]
    valid = np.isin(groups, chosen)
    return np.flatnonzero(~valid), np.flatnonzero(valid)


def describe(data: DataSet, bins: int = 10) -> dict[str, Any]:
    """Counts, plies, label histogram and provenance: what ``data describe`` prints."""
    out: dict[str, Any] = {
        "game": data.game,
        "positions": len(data),
        "groups": len(np.unique(data.groups)),
        "distinct_positions": len(np.unique(data.positions)),
        "columns": list(data.columns),
    }
    if len(data):
        out["plies"] = {
            "min": int(data.plies.min()),
            "max": int(data.plies.max()),
            "mean": round(float(data.plies.mean()), 3),
        }
    if data.labels is not None and len(data):
        counts, edges = np.histogram(data.labels, bins=bins, range=(-1.0, 1.0))
        out["labels"] = {
            "mean": round(float(data.labels.mean()), 6),
            "wins": int((data.labels > 0).sum()),
            "draws": int((data.labels == 0).sum()),
            "losses": int((data.labels < 0).sum()),
            "histogram": [
                [round(float(edges[i]), 3), round(float(edges[i + 1]), 3), int(c)]
                for i, c in enumerate(counts)
            ],
        }
    out["provenance"] = data.provenance
    return out
