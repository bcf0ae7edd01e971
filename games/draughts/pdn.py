"""PDN (Portable Draughts Notation, PDN 3.0) for checkers and give-away: read and write games.

``read_pdn(text)`` tokenizes a file of many games once and builds a tree per game (tags, moves
with comments, variations kept but never replayed, result). It never raises for what is in the
text: each game carries its repairs as ``warnings`` and its first error as ``error`` (game
number, line and column), and an error in one game never costs the games around it.
``replay`` (in ``pdn_replay``) plays a game's main line through the rules and ``write_pdn``
writes games back. See docs/formats.md, section PDN.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from mindgames.config import shorten
from mindgames.errors import GameRecordError
from mindgames.games.draughts.pdn_replay import (
    Replay,
    check_report,
    clean,
    record,
    replay,
    rules_for,
    start_state,
)
from mindgames.games.draughts.pdn_tree import (
    RESULTS,
    PdnGame,
    PdnIssue,
    PdnMove,
    game_text,
    move_number,
    write_pdn,
)

__all__ = [
    "RESULTS",
    "PdnGame",
    "PdnIssue",
    "PdnMove",
    "Replay",
    "check_report",
    "clean",
    "game_text",
    "read_pdn",
    "read_pdn_file",
    "record",
    "replay",
    "rules_for",
    "start_state",
    "write_pdn",
]

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
    |(?P<tag>\[[ \t]*(?P<tname>[A-Za-z][A-Za-z0-9_]*)[ \t]*
        "(?P<tval>(?:[^"\\\n\r]|\\[^\n\r])*)"[ \t]*\])
    |(?P<comment>\{)
    |(?P<lcomment>;[^\n]*)
    |(?m:(?P<escape>^%[^\n]*))
    |(?P<open>\()
    |(?P<close>\))
    |(?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|\*)(?![0-9/*xX-]))
    |(?P<number>[0-9]+\.+)
    |(?P<move>(?P<squares>[0-9]{1,2}(?:[-xX][0-9]{1,2})+)(?P<ann>[!?]{1,2})?
        (?P<glued>[^\s{}()\[\];0-9]*))
    |(?P<nag>\$[0-9]+|[!?]{1,2}(?![^\s{}()\[\];]))
    |(?P<bad>[^\s{}()\[\];]+|[\[\]}])
    """,
    re.VERBOSE,
)
# a comment ends at "}" -- or, when it was never closed, before the next line holding a tag
_COMMENT_END = re.compile(r'\}|\n(?=[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*")')
_UNESCAPE = re.compile(r"\\(.)")
_KNOWN_TAGS = {
    name.lower(): name
    for name in (
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Variant",
        "SetUp", "FEN", "Time", "TimeControl", "Annotator", "PlyCount", "Opening", "Termination",
        "WhiteType", "BlackType", "Mode", "Section", "Stage", "Board", "Event_Date",
    )
}  # fmt: skip
_INTERNATIONAL = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}


@attrs.define
class _Builder:
    """The game being read: a stack of lines (the main line first, then open variations)."""

    number: int
    line: int
    tags: dict[str, str] = attrs.Factory(dict)
    lines: list[list[PdnMove]] = attrs.Factory(lambda: [[]])
    starts: list[int] = attrs.Factory(lambda: [0])  # ply at which each open line starts
    opened: list[tuple[int, int]] = attrs.Factory(list)  # where each open "(" was
    pending: list[list[str]] = attrs.Factory(lambda: [[]])  # comments awaiting their move
    warnings: list[PdnIssue] = attrs.Factory(list)
    error: PdnIssue | None = None
    movetext: bool = False
    first_side: int | None = None
    places: dict[str, tuple[int, int]] = attrs.Factory(dict)  # where each tag was read

    def issue(self, kind: str, message: str, line: int, column: int, ply: int | None) -> PdnIssue:
        if self.first_side is None:
            fen = self.tags.get("FEN", "").strip()
            self.first_side = 1 if fen[:1].upper() == "W" else 0
        move = None if ply is None else move_number(ply, self.first_side)
        return PdnIssue(kind, message, self.number, line, column, move)

    def warn(self, kind: str, message: str, line: int, column: int, ply: int | None) -> None:
        self.warnings.append(self.issue(kind, message, line, column, ply))

    def fail(self, kind: str, message: str, line: int, column: int, ply: int | None) -> None:
        if self.error is None:
            self.error = self.issue(kind, message, line, column, ply)

    def next_ply(self) -> int:
        return self.starts[-1] + len(self.lines[-1])

    def finish(self, result: str | None, line: int, column: int) -> PdnGame:
        if self.error is None and self.opened:
            ol, oc = self.opened[-1]
            self.fail("syntax", f"variation opened at line {ol}, column {oc} is not closed",
                      line, column, None)  # fmt: skip
        tag_result = self.tags.get("Result")
        if tag_result is not None:
            tag_result = _INTERNATIONAL.get(tag_result, tag_result)
        if result is None:
            result = tag_result if tag_result is not None and tag_result in RESULTS else "*"
            self.warn("missing-result", f"game has no result; {result!r} assumed", line, column,
                      None)  # fmt: skip
        elif tag_result is not None and tag_result != result:
            self.warn("result-tag", f"Result tag {tag_result!r} differs from the game's end "
                      f"{result!r}; the game's end is kept", line, column, None)  # fmt: skip
        self.tags["Result"] = result  # the writer always writes it, equal to the game's end
        main = self.lines[0]
        comments = tuple(self.pending[0]) if not main else ()
        return PdnGame(
            tags=self.tags, moves=tuple(main), result=result, comments=comments,
            number=self.number, line=self.line, warnings=tuple(self.warnings), error=self.error,
            places=self.places,
        )  # fmt: skip


class _Reader:
    """Turns PDN text into games: one pass over the tokens, one builder per game."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.games: list[PdnGame] = []
        self.game: _Builder | None = None
        self.ended_line = 0  # line on which the previous game ended
        self._pos = 0
        self._line = 1
        self._start = 0

    def where(self, pos: int) -> tuple[int, int]:
        """Line and column (from 1) of an offset; offsets only ever grow."""
        if pos > self._pos:
            n = self.text.count("\n", self._pos, pos)
            if n:
                self._line += n
                self._start = self.text.rfind("\n", self._pos, pos) + 1
            self._pos = pos
        return self._line, pos - self._start + 1

    def builder(self, line: int, column: int) -> _Builder:
        if self.game is None:
            self.game = _Builder(len(self.games) + 1, line)
            if self.games and line == self.ended_line:
                self.game.warn("same-line", f"game starts on the line where game "
                               f"{len(self.games)} ended", line, column, None)  # fmt: skip
        return self.game

    def end(self, result: str | None, line: int, column: int) -> None:
        if self.game is not None:
            self.games.append(self.game.finish(result, line, column))
            self.ended_line = line if result is not None else 0
            self.game = None

    def read(self) -> list[PdnGame]:
        text, match = self.text, _TOKEN.match
        pos, size = 0, len(text)
        while pos < size:
            m = match(text, pos)
            assert m is not None  # every character starts some token
            kind = m.lastgroup or "bad"  # the outer group closes last: it names the token
            if kind == "ws" or kind == "escape":
                pos = m.end()
                continue
            if kind == "number" and self.game is not None:
                self.game.movetext = True  # move numbers are checked by nobody: archives
                pos = m.end()  # get them wrong
                continue
            line, column = self.where(pos)
            if kind == "comment":
                end = _COMMENT_END.search(text, pos + 1)
                stop = end.start() if end else size
                closed = end is not None and end.group() == "}"
                g = self.builder(line, column)
                if not closed:
                    g.fail("syntax", "comment '{' is not closed", line, column, None)
                self.comment(g, text[pos + 1 : stop])
                pos = stop + 1 if closed else stop
                continue
            pos = m.end()
            if kind == "tag":
                self.tag(m, line, column)
            elif kind == "result":
                self.builder(line, column)
                self.result(m.group(), line, column)
            elif kind == "lcomment":
                self.comment(self.builder(line, column), m.group()[1:])
            else:
                g = self.builder(line, column)
                g.movetext = True
                if g.error is None:
                    self.movetext(g, kind, m, line, column)
        self.end(None, *self.where(size))
        return self.games

    def tag(self, m: re.Match[str], line: int, column: int) -> None:
        name, value = m.group("tname"), _UNESCAPE.sub(r"\1", m.group("tval"))
        canonical = _KNOWN_TAGS.get(name.lower(), name)
        g = self.game
        if g is not None and (g.movetext or g.error is not None or canonical in g.tags):
            self.end(None, line, column)
        g = self.builder(line, column)
        if canonical != name:
            g.warn("tag-name", f"tag {name!r} read as {canonical!r}", line, column, None)
        if canonical == "FEN" and value.rstrip().endswith("."):
            value = value.rstrip().rstrip(".").rstrip()
            g.warn("fen-dot", "FEN ends in '.'; the '.' is dropped", line, column, None)
        g.tags[canonical] = value
        g.places[canonical] = (line, column)

    def result(self, text: str, line: int, column: int) -> None:
        g = self.game
        assert g is not None
        if text in _INTERNATIONAL:
            g.warn("result", f"result {text!r} (international scoring) read as "
                   f"{_INTERNATIONAL[text]!r}", line, column, None)  # fmt: skip
            text = _INTERNATIONAL[text]
        self.end(text, line, column)

    def comment(self, g: _Builder, raw: str) -> None:
        if g.error is not None:
            return
        text = " ".join(raw.split())
        current = g.lines[-1]
        if current and not g.pending[-1]:
            last = current[-1]
            current[-1] = attrs.evolve(last, comments=(*last.comments, text))
        else:
            g.pending[-1].append(text)

    def movetext(self, g: _Builder, kind: str, m: re.Match[str], line: int, column: int) -> None:
        current = g.lines[-1]
        if kind == "move":
            ply = g.next_ply()
            written = m.group("squares").replace("X", "x")
            glued = m.group("glued")
            if glued:
                g.warn("glued-text", f"text {glued!r} glued to {written} is dropped", line,
                       column, ply)  # fmt: skip
            before = tuple(g.pending[-1])
            g.pending[-1] = []
            current.append(PdnMove(written, m.group("ann") or "", (), before, (), line, column))
        elif kind == "number":
            pass
        elif kind == "nag":
            if current:
                last = current[-1]
                current[-1] = attrs.evolve(last, annotation=f"{last.annotation} {m.group()}")
            else:
                g.warn("stray-nag", f"{m.group()} before any move is dropped", line, column, None)
        elif kind == "open":
            if not current:
                g.fail("syntax", "variation '(' before any move", line, column, g.next_ply())
                return
            g.lines.append([])
            g.starts.append(g.next_ply() - 1)
            g.pending.append([])
            g.opened.append((line, column))
        elif kind == "close":
            if not g.opened:
                g.fail("syntax", "')' without '('", line, column, g.next_ply())
                return
            variation = tuple(g.lines.pop())
            g.starts.pop()
            g.opened.pop()
            if g.pending.pop():
                g.warn("comment", "comment in an empty variation is dropped", line, column, None)
            parent = g.lines[-1]
            parent[-1] = attrs.evolve(parent[-1], variations=(*parent[-1].variations, variation))
        else:  # bad
            g.fail("syntax", f"cannot read {shorten(m.group())!r}", line, column, g.next_ply())


def read_pdn(text: str) -> list[PdnGame]:
    """Every game of a PDN text, each with its repairs and its first error (never raises)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return _Reader(text).read()


def read_pdn_file(path: str | Path) -> list[PdnGame]:
    """Every game of a PDN file; UTF-8, or Latin-1 when the bytes are not UTF-8."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise GameRecordError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return read_pdn(text)
