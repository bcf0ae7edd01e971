"""The PDN game tree (tags, moves with comments and variations, result) and its writer.

One tree is read once and used by every consumer: replay, export, conversion and training-data
extraction. Source positions ride along for messages but are not part of equality, so a game read
back from written text equals the game that was written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import attrs

from mindgames.errors import GameRecordError

#: the results PDN allows for American checkers; ``1-0`` is a win for the side moving first
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0", "*")
#: the seven tag roster, written first and in this order (PDN 3.0, after PGN)
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
#: tags written right after the roster, in this order; every other tag keeps its read order
SETUP_TAGS = ("GameType", "Variant", "SetUp", "FEN")
#: the tag of our own that marks a give-away game (the standard has no GameType for it)
VARIANT_TAG = "Variant"
GIVEAWAY = "giveaway"
#: the PDN standard's GameType of English draughts (American checkers), written on every game we
#: write: a game without it is 10x10 international draughts by the standard. Give-away is
#: played on the same board with the same moves, and the standard has no number for it (42-49
#: are kept for future draughts), so it is ``21`` with ``Variant "giveaway"``.
GAME_TYPE_TAG = "GameType"
ENGLISH_DRAUGHTS = "21"
#: the game types the PDN standard numbers (pdn.fmjd.org/gametype.html), for messages
GAME_TYPES = {
    "0": "chess", "1": "Chinese chess", "20": "10x10 international draughts",
    "21": "English draughts", "22": "Italian draughts", "23": "American pool checkers",
    "24": "Spanish draughts", "25": "Russian draughts", "26": "Brazilian draughts",
    "27": "Canadian draughts", "28": "Portuguese draughts", "29": "Czech draughts",
    "30": "Turkish draughts", "31": "Thai draughts", "40": "Frisian draughts",
    "41": "Spantsiretti draughts", "50": "Othello",
}  # fmt: skip
LINE_WIDTH = 79
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@attrs.frozen
class PdnIssue:
    """A repair (warning) or an error in one game, with where it happened.

    ``game`` counts from 1 as people do; ``move`` is the PDN move number (``"7"`` for Black's
    7th move, ``"7..."`` for White's) or ``None`` outside the moves.
    """

    kind: str
    message: str
    game: int
    line: int
    column: int
    move: str | None = None

    def __str__(self) -> str:
        where = f"game {self.game}, line {self.line}, column {self.column}"
        if self.move is not None:
            where += f", move {self.move}"
        return f"{where}: {self.message}"

    def as_error(self) -> GameRecordError:
        """This issue as the exception a caller that wants to stop can raise."""
        return GameRecordError(str(self))


@attrs.frozen
class PdnMove:
    """One move as written, with its annotation, comments and alternative lines.

    ``variations`` are lines that replace this move (kept and written back, never replayed);
    ``before`` holds comments written before the move, ``comments`` those after it.
    """

    text: str
    annotation: str = ""
    comments: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    variations: tuple[tuple[PdnMove, ...], ...] = ()
    line: int = attrs.field(default=0, eq=False, repr=False)
    column: int = attrs.field(default=0, eq=False, repr=False)


def _tags(value: Mapping[str, str]) -> dict[str, str]:
    return dict(value)


@attrs.frozen
class PdnGame:
    """One game: tags, the main line as a tree of moves, the result, and what reading found.

    ``comments`` are comments of a game without moves. ``warnings`` and ``error`` are the
    repairs and the first error met while reading (replay adds its own, see ``pdn_replay``);
    ``number`` counts games in the file from 1 and ``places`` says where each tag was read.
    """

    tags: dict[str, str] = attrs.field(converter=_tags)
    moves: tuple[PdnMove, ...] = ()
    result: str = "*"
    comments: tuple[str, ...] = ()
    number: int = attrs.field(default=1, eq=False)
    line: int = attrs.field(default=1, eq=False, repr=False)
    warnings: tuple[PdnIssue, ...] = attrs.field(default=(), eq=False)
    error: PdnIssue | None = attrs.field(default=None, eq=False)
    places: dict[str, tuple[int, int]] = attrs.field(factory=dict, eq=False, repr=False)

    @classmethod
    def from_moves(
        cls, moves: Iterable[str], result: str = "*", tags: Mapping[str, str] | None = None
    ) -> PdnGame:
        """A plain record from move texts: what a tournament exports for a game it played."""
        if result not in RESULTS:
            raise GameRecordError(f"result {result!r} is not one of {', '.join(RESULTS)}")
        head = {**(tags or {}), "Result": result}
        return cls(tags=head, moves=tuple(PdnMove(m) for m in moves), result=result)

    @property
    def first_side(self) -> int:
        """0 when Black moves first (no FEN or a ``B:`` FEN), 1 when the FEN gives White."""
        fen = self.tags.get("FEN", "").strip().strip('"').strip()
        return 1 if fen[:1].upper() == "W" else 0


def move_number(ply: int, first_side: int) -> str:
    """PDN move number of a ply counted from 0: ``"3"`` (Black's move) or ``"3..."`` (White's)."""
    n = ply + first_side
    return f"{n // 2 + 1}" + ("..." if n % 2 else "")


# --- writing ----------------------------------------------------------------------------------
def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ordered_tags(game: PdnGame) -> list[tuple[str, str]]:
    """Tags in the standard order: the roster, the set-up tags, then the rest as read.

    ``Result`` is always written and always equals the game's result.
    """
    tags = dict(game.tags)
    tags["Result"] = game.result
    head = [name for name in (*ROSTER, *SETUP_TAGS) if name in tags]
    rest = [name for name in tags if name not in head]
    return [(name, tags[name]) for name in (*head, *rest)]


def _comment_words(text: str) -> list[str]:
    if "}" in text:
        raise GameRecordError(f"a comment cannot hold '}}': {text!r}")
    words = text.split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


#: marks in the word list of ``_line_words``: a variation opens (glued to the word after it)
#: and closes (glued to the word before it)
_OPEN, _CLOSE = 1, -1


def _line_words(moves: tuple[PdnMove, ...], ply: int, first_side: int, out: list[str]) -> None:
    """Append the words of a line of moves starting at ``ply`` (numbers, comments, variations).

    A walk with its own stack, not recursion: a game may nest variations thousands deep
    (``pdn convert`` of 1,000 nested variations was a RecursionError).
    """
    tokens: list[str | int] = []
    # frames: (line, its first ply, index of the next move, need a number, is a variation)
    stack: list[tuple[tuple[PdnMove, ...], int, int, bool, bool]] = [(moves, ply, 0, True, False)]
    while stack:
        line, start, i, need_number, nested = stack.pop()
        if nested and i == 0:
            tokens.append(_OPEN)
        if i >= len(line):
            if nested:
                tokens.append(_CLOSE)
            continue
        move = line[i]
        n = start + i + first_side
        for comment in move.before:
            tokens.extend(_comment_words(comment))
            need_number = True
        word = move.text + move.annotation
        if n % 2 == 0:
            word = f"{n // 2 + 1}. {word}"  # a number stays on the line of its move
        elif need_number:
            word = f"{n // 2 + 1}... {word}"
        tokens.append(word)
        for comment in move.comments:
            tokens.extend(_comment_words(comment))
        stack.append((line, start, i + 1, bool(move.comments or move.variations), nested))
        for variation in reversed(move.variations):  # popped in their written order
            stack.append((variation, start + i, 0, True, True))
    _glue(tokens, out)


def _glue(tokens: list[str | int], out: list[str]) -> None:
    """Words from ``_line_words``' tokens: an opening parenthesis joins the next word, a
    closing one the word before (an empty variation is ``()``)."""
    prefix = ""
    for token in tokens:
        if token == _OPEN:
            prefix += "("
        elif token == _CLOSE:
            if prefix:
                out.append(prefix + ")")
                prefix = ""
            else:
                out[-1] += ")"
        else:
            assert isinstance(token, str)
            out.append(prefix + token)
            prefix = ""


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE_WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def game_text(game: PdnGame) -> str:
    """One game as PDN: tags, a blank line, move text wrapped under 80 characters, result."""
    for move in game.moves:
        if not move.text:
            raise GameRecordError(f"game {game.number}: a move without text cannot be written")
    head = []
    for name, value in ordered_tags(game):
        if not TAG_NAME.fullmatch(name) or "\n" in value or "\r" in value:
            raise GameRecordError(f"game {game.number}: tag {name!r} = {value!r} cannot be written")
        head.append(f"[{name} {_quote(value)}]")
    words: list[str] = []
    for comment in game.comments:
        words.extend(_comment_words(comment))
    _line_words(game.moves, 0, game.first_side, words)
    words.append(game.result)
    return "\n".join([*head, "", *_wrap(words)]) + "\n"


def write_pdn(games: Iterable[PdnGame]) -> str:
    """Many games as one PDN text, a blank line between games."""
    return "\n".join(game_text(game) for game in games)
