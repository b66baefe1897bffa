"""Data model shared by every parser: headings found in a text, and the section tree built from them.

A format parser turns raw bytes into plain text plus a flat list of :class:`Heading` marks
(level, title, character span in that text). :func:`pipelines.parse.sections.build_sections`
turns the marks into a :class:`ParsedDocument` whose sections form a document → section →
subsection tree with stable ids.

>>> h = Heading(level=1, title="Install", start=0, end=7)
>>> h.title
'Install'
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading mark: ``level`` 1 is the top heading level; ``start``/``end`` span the heading
    line in the parser's plain text (the body of the section starts after ``end``)."""

    level: int
    title: str
    start: int
    end: int


@dataclass(slots=True)
class Section:
    """One node of a document's section tree.

    ``level`` 0 is the document root (title = document title, holds text before the first
    heading). ``path`` lists the titles from the root's first child down to this section
    (the root's path is empty). ``start``/``end`` span the section's *own* body text in
    :attr:`ParsedDocument.text` (children excluded); ``text`` is that slice, stripped.
    ``ordinal`` is the section's position in document order (root = 0).
    """

    section_id: str
    doc_id: str
    parent_id: str | None
    level: int
    title: str
    path: list[str]
    ordinal: int
    start: int
    end: int
    text: str
    children: list[str] = field(default_factory=list)

    @property
    def path_str(self) -> str:
        """Section path joined with `` > `` (empty string for the root)."""
        return " > ".join(self.path)


@dataclass(slots=True)
class ParsedDocument:
    """A parsed document: normalized plain text and its section tree (root first, document order).

    ``page_starts`` (paged formats: PDF) holds the offset in :attr:`text` where each page starts,
    page 1 first; empty for formats without pages.

    >>> doc = ParsedDocument("d", "T", "pdf", "one\\ntwo\\nthree", [], page_starts=[0, 4, 8])
    >>> doc.page_span(0, 3), doc.page_span(4, 13), ParsedDocument("d", "T", "text", "x", []).page_span(0, 1)
    ((1, 1), (2, 3), None)
    """

    doc_id: str
    title: str
    format: str
    text: str
    sections: list[Section]
    page_starts: list[int] = field(default_factory=list)

    def page_span(self, start: int, end: int) -> tuple[int, int] | None:
        """First and last page (1-based) of the text ``[start, end)``; None without pages."""
        if not self.page_starts:
            return None
        first = max(1, bisect.bisect_right(self.page_starts, start))
        last = max(first, bisect.bisect_right(self.page_starts, max(start, end - 1)))
        return first, last


class ParseError(ValueError):
    """Raised for input that cannot be ingested; ``reason`` is a short machine-friendly label
    (``empty``, ``binary``, ``undecodable``, ``too_large``, ``malformed``, ``unsupported``; for PDFs
    ``encrypted``, ``corrupt``, ``no_text_layer``)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class ParserCrash(RuntimeError):
    """An unexpected exception inside decoding or a format parser: a bug in Strata, not bad input.

    Kept apart from :class:`ParseError` (a deliberate verdict on the file, with a reason) so that a crash
    is never counted as a malformed file: the ingest reports it with reason ``parser_error`` (the
    ``StrataIngestParserErrors`` alert) and the detail ``parser crash: <Type>: <message>``; the
    original exception is the ``__cause__``."""

    reason = "parser_error"

    def __init__(self, exc: BaseException, *, fmt: str | None = None) -> None:
        where = f" ({fmt})" if fmt else ""
        self.detail = f"parser crash{where}: {type(exc).__name__}: {exc}"
        super().__init__(self.detail)
