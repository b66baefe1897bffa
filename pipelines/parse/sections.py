"""Heading marks → section tree with stable ids, plus a small line builder for parsers.

>>> text = "intro\\nInstall\\nrun it\\n"
>>> doc = build_sections("d1", text, [Heading(1, "Install", 6, 13)], title="Doc", fmt="text")
>>> [(s.level, s.path, s.text) for s in doc.sections]
[(0, [], 'intro'), (1, ['Install'], 'run it')]
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from pipelines.parse.document import Heading, ParsedDocument, Section

__all__ = ["build_sections", "clean_title", "section_id", "size_levels", "LineBuilder", "MAX_TITLE"]

MAX_TITLE = 200
_WS = re.compile(r"\s+")


def clean_title(title: str) -> str:
    """Collapse whitespace and truncate to :data:`MAX_TITLE` characters."""
    return _WS.sub(" ", title).strip()[:MAX_TITLE].rstrip()


def size_levels(sizes: Iterable[float], body: float) -> dict[float, int]:
    """Heading level per font size, for the sizes set clearly larger than the body text's (by 1 pt and 12 %
    or more): the largest is level 1, each smaller one the next level, and a size within 0.6 pt of a larger
    one shares its level; 6 at the most. (Text wholly bold at the body size ranks one level below them.)

    >>> size_levels([11, 14, 24, 13.5, 18, 12], body=11)
    {24: 1, 18: 2, 14: 3, 13.5: 3}
    """
    levels: dict[float, int] = {}
    for s in sorted({s for s in sizes if s >= body + 1 and s >= body * 1.12}, reverse=True):
        near = next((levels[t] for t in levels if t - s <= 0.6), None)
        levels[s] = near if near is not None else min(len(set(levels.values())) + 1, 6)
    return levels


def section_id(doc_id: str, path: list[str], k: int) -> str:
    """Stable id: sha1 of doc id, section path and the index among same-path sections."""
    joined = "\x1f".join(path)
    return hashlib.sha1(f"{doc_id}\x1f{joined}\x1f{k}".encode()).hexdigest()[:16]


class LineBuilder:
    """Accumulates output lines and heading marks with offsets into the joined text.

    >>> b = LineBuilder(); b.heading(1, "Title"); b.line("body")
    >>> b.text(), b.headings
    ('Title\\nbody', [Heading(level=1, title='Title', start=0, end=5)])
    """

    __slots__ = ("lines", "headings", "pos", "_blank")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.headings: list[Heading] = []
        self.pos = 0  # offset where the next line will start
        self._blank = True  # last line emitted was blank (or nothing emitted yet)

    def line(self, s: str) -> None:
        self.lines.append(s)
        self.pos += len(s) + 1
        self._blank = not s.strip()

    def pop_line(self) -> str:
        """Remove and return the last line."""
        s = self.lines.pop()
        self.pos -= len(s) + 1
        self._blank = not self.lines or not self.lines[-1].strip()
        return s

    def blank(self) -> None:
        """Emit one blank line unless the previous line is already blank."""
        if not self._blank:
            self.line("")

    def heading(self, level: int, title: str) -> None:
        """Emit ``title`` as its own line (surrounded by blank lines) and mark it."""
        title = title.strip()
        if not title:
            return
        self.blank()
        self.headings.append(Heading(level, title, self.pos, self.pos + len(title)))
        self.line(title)

    def text(self) -> str:
        return "\n".join(self.lines)


def _span(text: str, a: int, b: int) -> tuple[int, int]:
    seg = text[a:b]
    stripped = seg.strip()
    if not stripped:
        return a, a
    lead = len(seg) - len(seg.lstrip())
    return a + lead, a + lead + len(stripped)


def build_sections(
    doc_id: str, text: str, headings: list[Heading], *, title: str, fmt: str
) -> ParsedDocument:
    """Build the section tree (root first, document order) from heading marks into ``text``."""
    marks: list[Heading] = []
    last_end = 0
    for h in sorted(headings, key=lambda h: h.start):
        t = clean_title(h.title)
        if not t or h.start < last_end or h.end > len(text):
            continue
        marks.append(Heading(max(1, h.level), t, h.start, h.end))
        last_end = h.end

    seen: dict[tuple[str, ...], int] = {}

    def new_id(path: list[str]) -> str:
        key = tuple(path)
        k = seen.get(key, 0)
        seen[key] = k + 1
        return section_id(doc_id, path, k)

    root_end = marks[0].start if marks else len(text)
    a, b = _span(text, 0, root_end)
    root = Section(new_id([]), doc_id, None, 0, clean_title(title), [], 0, a, b, text[a:b])
    sections = [root]
    stack = [root]
    for i, h in enumerate(marks):
        while stack[-1].level >= h.level:
            stack.pop()
        parent = stack[-1]
        path = [*parent.path, h.title]
        body_end = marks[i + 1].start if i + 1 < len(marks) else len(text)
        a, b = _span(text, h.end, body_end)
        sec = Section(new_id(path), doc_id, parent.section_id, h.level, h.title, path,
                      len(sections), a, b, text[a:b])
        parent.children.append(sec.section_id)
        sections.append(sec)
        stack.append(sec)
    return ParsedDocument(doc_id=doc_id, title=clean_title(title), format=fmt, text=text,
                          sections=sections)
