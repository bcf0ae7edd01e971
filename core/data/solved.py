"""Solved positions: late positions of random games with the exact value of every legal move.

For a game that declares ``solvable``, ``build`` samples positions and solves each of their
moves with ``Game.solve`` as pure tasks on an executor; ``mindgames quality`` then judges any
agent against the stored values without solving again (``core/measure/quality.py``).

Sampling (seeded): candidate k plays one game of uniformly random moves from the initial
position and takes one of its positions uniformly at random among those that are late enough
-- at most ``max_pieces`` pieces on the board (``CountsPieces``; Kalah: seeds in the pits) and at
least ``min_plies`` plies played -- and offer at least two moves. With ``spread = (lo, hi)`` the
set covers the whole game evenly instead: candidate k asks for exactly ``lo + k mod (hi - lo +
1)`` pieces on the board (random games are played until one passes through such a position).
Two judges (``JUDGES``): ``values`` solves each move's successor on its own (every move's exact
value, so the margin an agent loses); ``best`` (a game that ``SolvesBestMoves``: Kalah) solves
the position once, for its value and every best move, and stores null for the other moves --
the share of optimal moves needs no more, at the cost of one solve instead of one a move.
A candidate whose moves all have the same exact value asks nothing of an agent and is left out;
the set is the first ``count`` candidates that remain, so it depends on the seed alone (never on
the executor).

File (JSON Lines, written atomically; ``core/data/solvedfile.py``, the format in docs/measuring.md):
a header record, then one record per position: ``{"position", "plies", "values", "best"}``
(version 1 for the ``values`` judge, 2 with its nulls for ``best``).
While it is built, every solved candidate is appended to ``FILE.partial`` (header first), so a
killed run resumes without solving those again (also with another count: the candidates are the
same stream, cut elsewhere).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import IO, Any

import attrs
import numpy as np

from mindgames.capabilities import require
from mindgames.data.solvedfile import FORMAT, VERSION, Solved, write_file
from mindgames.data.solvedfile import read_file as read_file  # solved sets are read from here too
from mindgames.errors import CapabilityError, MindgamesError
from mindgames.executors import Done, ordered
from mindgames.files import append_jsonl, drop_torn_tail, lock_file, read_jsonl
from mindgames.game import CountsPieces, Game, Solvable, SolvesBestMoves, State
from mindgames.play.task import cached
from mindgames.registry import Registry, get_registry

#: Kalah(6,4) solves every move of a position with at most 18 seeds in the pits in about 0.2 s
#: (measured; at 20-26 seeds it took 1-60 s), so this is the default bound (docs/measuring.md)
DEFAULT_MAX_PIECES = 18
#: spawn key that separates the sampling stream from other random streams
SAMPLE_STREAM = 3
#: random games that may yield no late position before sampling gives up
MAX_TRIES = 1000
#: how a set's positions are solved (module docstring): every move's value, or the best moves
JUDGES = ("values", "best")
#: what the header's ``value`` says each judge stores
VALUE_TEXT = {
    "values": "Game.solve of the successor, for the side to move in the position",
    "best": "the position's value (Game.solve_best) for each best move; null for a move known "
    "only to be worse",
}


def _spread_ok(_: object, __: object, value: tuple[int, int] | None) -> None:
    if value is not None and not 0 <= value[0] <= value[1]:
        raise MindgamesError(f"a spread of pieces needs 0 <= lo <= hi, got {value[0]}-{value[1]}")


@attrs.frozen
class Sampling:
    """Which positions a set holds: how many, from which seed, and how late."""

    count: int = 1000
    seed: int = 0
    max_pieces: int | None = DEFAULT_MAX_PIECES
    min_plies: int = 0
    #: (lo, hi): candidate k has exactly ``lo + k mod (hi - lo + 1)`` pieces (module docstring)
    spread: tuple[int, int] | None = attrs.field(default=None, validator=_spread_ok)

    def as_dict(self) -> dict[str, Any]:
        """The header's ``sampling``; ``spread`` only when set (older sets' headers unchanged)."""
        out = attrs.asdict(self)
        if self.spread is None:
            del out["spread"]
        else:
            out["spread"] = list(self.spread)
        return out

    def target(self, k: int) -> int | None:
        """The exact piece count candidate ``k`` asks for (None: any up to ``max_pieces``)."""
        if self.spread is None:
            return None
        lo, hi = self.spread
        return lo + k % (hi - lo + 1)


def require_solvable(game: Game, sampling: Sampling | None = None, judge: str = "values") -> None:
    """Refuse a game that cannot solve, or cannot count pieces when a bound is asked for."""
    if not isinstance(game, Solvable):
        raise CapabilityError(f"game {game.spec()!r} cannot solve positions exactly (not solvable)")
    if judge not in JUDGES:
        raise MindgamesError(f"unknown judge {judge!r}: one of {', '.join(JUDGES)}")
    if judge == "best" and not isinstance(game, SolvesBestMoves):
        raise CapabilityError(
            f"game {game.spec()!r} cannot find the best moves in one solve: use --judge values"
        )
    bounded = sampling is not None and (
        sampling.max_pieces is not None or sampling.spread is not None
    )
    if bounded and not isinstance(game, CountsPieces):
        raise CapabilityError(
            f"game {game.spec()!r} does not count pieces: sample with --max-pieces none "
            "and --min-plies instead"
        )


def candidates(game: Game, sampling: Sampling) -> Iterator[tuple[str, int]]:
    """The endless stream of candidate positions (text, plies played) that ``sampling`` asks."""
    rng = np.random.default_rng([sampling.seed, SAMPLE_STREAM])
    k = 0
    while True:
        exact = sampling.target(k)
        for _ in range(MAX_TRIES):
            late = _late_positions(game, sampling, exact, rng)
            if late:
                state = late[int(rng.integers(len(late)))]
                yield game.position_text(state), game.progress(state)
                break
        else:
            pieces = f"at most {sampling.max_pieces}" if exact is None else f"exactly {exact}"
            raise MindgamesError(
                f"{MAX_TRIES} random games of {game.spec()} gave no position with {pieces} "
                f"pieces after {sampling.min_plies} plies"
            )
        k += 1


def _late_positions(
    game: Game, sampling: Sampling, exact: int | None, rng: np.random.Generator
) -> list[State]:
    """The positions with two moves or more of one game of random moves that ``sampling``
    takes: late enough, or with exactly ``exact`` pieces when it is given."""
    pieces = game.pieces if isinstance(game, CountsPieces) else None
    bound = sampling.max_pieces
    state = game.initial_state()
    late = []
    while not game.is_terminal(state):
        moves = game.legal_moves(state)
        if len(moves) > 1 and game.progress(state) >= sampling.min_plies:
            count = pieces(state) if pieces is not None else None
            if exact is not None:
                if count == exact:
                    late.append(state)
            elif bound is None or (count is not None and count <= bound):
                late.append(state)
        state = game.play(state, moves[int(rng.integers(len(moves)))])
    return late


def solve_moves(game: Game, state: State) -> dict[str, int]:
    """The exact value of each legal move for the side to move in ``state``.

    A move's value is ``solve`` of its successor, negated when the other side moves there.
    """
    solver = require(game, Solvable, what="solve_moves")
    mover = game.to_move(state)
    values = {}
    for move, child in game.children(state):
        value = solver.solve(child)
        values[game.move_text(state, move)] = value if game.to_move(child) == mover else -value
    return values


def solve_best_moves(game: Game, state: State) -> dict[str, int | None]:
    """The position's exact value for each best move, None for every other legal move: one
    ``solve_best`` of ``state`` itself, no successor solved."""
    solver = require(game, SolvesBestMoves, what="solve_best_moves")
    value, best = solver.solve_best(state)
    keep = {game.move_text(state, move) for move in best}
    return {
        text: value if text in keep else None
        for text in (game.move_text(state, move) for move in game.legal_moves(state))
    }


def solve_task(
    game_spec: str,
    position: str,
    plies: int,
    judge: str = "values",
    registry: Registry | None = None,
) -> Solved:
    """Worker entry point: one position with the values of its moves as ``judge`` stores them
    (pure: same input, same answer)."""
    reg = registry or get_registry()
    game = cached(reg, ("game", game_spec), lambda: reg.game(game_spec))
    state = game.parse_position(position)
    values = solve_best_moves(game, state) if judge == "best" else solve_moves(game, state)
    return Solved(position, plies, dict(values))


def header(game: Game, sampling: Sampling, judge: str = "values") -> dict[str, Any]:
    """The first record of a solved-positions file: what the set is and how it was drawn."""
    return {
        "format": FORMAT,
        "version": 1 if judge == "values" else VERSION,  # values sets stay readable by v1 readers
        "game": game.spec(),
        "sampling": sampling.as_dict(),
        "value": VALUE_TEXT[judge],
    }


def build(
    game: Game,
    sampling: Sampling,
    executor: Executor,
    *,
    write: str | Path | None = None,
    registry: Registry | None = None,
    on_solved: Callable[[Solved, bool], None] | None = None,
    window: int = 8,
    judge: str = "values",
) -> list[Solved]:
    """Sample and solve ``sampling.count`` decisive positions with ``judge`` (``JUDGES``);
    write them to ``write``.

    With ``write``, every solved candidate also goes to ``write + ".partial"`` as it comes out
    of the pump (in order) and a rerun takes those from there; the finished set replaces
    ``write`` atomically.
    ``on_solved(solved, kept)`` is called for each candidate in order.
    """
    require_solvable(game, sampling, judge)
    head = header(game, sampling, judge)
    partial = Path(f"{write}.partial") if write is not None else None
    with contextlib.ExitStack() as stack:
        log: IO[str] | None = None
        known: dict[int, Solved] = {}
        lock = partial.with_name(f".{partial.name}.lock") if partial is not None else None
        if partial is not None and lock is not None:  # one writer at a time (files.lock_file)
            stack.enter_context(lock_file(lock, str(write)))
            known = _read_partial(partial, head)
            log = stack.enter_context(_open_partial(partial, head))
        kept = _solve_in_order(
            game, sampling, executor, known, log, registry, on_solved, window, judge
        )
        if log is not None:
            log.close()
        if write is not None:
            write_file(write, head, kept)
        if partial is not None and lock is not None:  # finished: nothing left beside the file
            partial.unlink(missing_ok=True)
            lock.unlink(missing_ok=True)  # still held: no other writer can be between
    return kept


def _solve_in_order(
    game: Game,
    sampling: Sampling,
    executor: Executor,
    known: Mapping[int, Solved],
    log: IO[str] | None,
    registry: Registry | None,
    on_solved: Callable[[Solved, bool], None] | None,
    window: int,
    judge: str,
) -> list[Solved]:
    """Solve candidates ``window`` at a time, keeping the first decisive ones in order."""
    spec = game.spec()
    jobs = (
        Done(known[index])
        if index in known and known[index].position == text
        else (spec, text, plies, judge)
        for index, (text, plies) in enumerate(candidates(game, sampling))
    )
    kept: list[Solved] = []
    if sampling.count <= 0:
        return kept
    solved_ = ordered(executor, solve_task, jobs, window=window, local=(registry,))
    with contextlib.closing(solved_):
        for index, solved in enumerate(solved_):
            if log is not None and known.get(index) is not solved:
                append_jsonl(log, {"index": index, **solved.as_dict()})
            if solved.decisive:
                kept.append(solved)
            if on_solved is not None:
                on_solved(solved, solved.decisive)
            if len(kept) >= sampling.count:
                break
    return kept


@contextlib.contextmanager
def _open_partial(path: Path, head: Mapping[str, Any]) -> Iterator[IO[str]]:
    """The partial file open for appending, its header written first when it is new."""
    drop_torn_tail(path)
    fresh = not path.exists() or path.stat().st_size == 0
    with path.open("a", encoding="utf-8") as fh:
        if fresh:
            append_jsonl(fh, dict(head))
        yield fh


def _read_partial(path: Path, head: Mapping[str, Any]) -> dict[int, Solved]:
    """The candidates solved by an earlier run of the same set; another set's file is refused."""
    records = read_jsonl(path)
    if not records:
        return {}
    if _stream(records[0]) != _stream(json.loads(json.dumps(head))):
        raise MindgamesError(
            f"{path}: a partial set of other positions (another game, seed or bound); "
            "delete it or give another --write"
        )  # the count may differ: the candidates are the same stream, cut elsewhere
    return {
        int(r["index"]): Solved(r["position"], int(r["plies"]), dict(r["values"]))
        for r in records[1:]
    }


def _stream(head: Mapping[str, Any]) -> dict[str, Any]:
    """What decides the candidates of a set: everything in its header but the count."""
    sampling = {k: v for k, v in dict(head.get("sampling") or {}).items() if k != "count"}
    return {**head, "sampling": sampling}
