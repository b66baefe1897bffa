"""Running page furniture: the page numbers, running footers and "Table of Contents" links printed at every page.

A PDF's running lines are found by their place on the page (:mod:`pipelines.parse.pdf`); paginated HTML (SEC
filings as EDGAR serves them, documents exported from word processors) marks its printed pages with
``page-break-before/after`` styles instead, and repeats the same furniture next to each break: Workiva's
``Calder Scientific Corporation | 2024 Form 10-K | 9`` footer and ``Table of Contents`` link, a centred page
number. Left in, it splits sentences, fills chunks and is quoted as evidence. :func:`running_spans` finds it:
a line within :data:`EDGE_LINES` lines of a page break that is a page number, or whose identity (:func:`running_key`:
case, spacing and numbers folded) recurs next to at least a third of the breaks (three at least) and is a navigation
link or starts or ends with a number that changes from page to page, or a line that never changes (a running header
``Halberd Outdoor Products, Inc. | Form 10-Q | Q3 2025`` or the company's name printed at the top of each page) that
sits next to at least half of the breaks (three at least) and nowhere else. Text between breaks is never touched, and
a document with fewer than two breaks keeps every line.

>>> pages = ["Table of Contents\\n\\nRevenue rose in 2024.\\n\\nAcme | 2024 Form 10-K | %d" % n for n in range(1, 5)]
>>> text = "\\n\\n".join(pages)
>>> breaks = [i for i in range(len(text)) if text.startswith("Table", i)]
>>> [text[a:b] for a, b in running_spans(text, breaks)][:4]
['Table of Contents', 'Acme | 2024 Form 10-K | 1', 'Table of Contents', 'Acme | 2024 Form 10-K | 2']
>>> len(running_spans(text, breaks)), running_spans(text, breaks[:1])
(8, [])
>>> text = "\\n\\n".join("Revenue rose in 2024.\\n\\n%d" % n for n in range(1, 5))  # a bare page number: no repeat needed
>>> [text[a:b] for a, b in running_spans(text, [text.index("Revenue", 1), text.rindex("Revenue")])]
['1', '2', '3', '4']

A line that never changes is furniture only where it sits next to every other break at least, and nowhere else:

>>> body = "Sales rose in the {}.\\nCosts fell.\\nMargins held.\\nCash grew.\\nDebt fell."
>>> pages = [f"Acme Corp. | Form 10-Q\\n{body.format(w)}\\nAcme Corp." for w in ("north", "south", "east", "west")]
>>> text = "\\n".join(pages)
>>> breaks = [text.index(p) for p in pages[1:]]
>>> sorted({text[a:b] for a, b in running_spans(text, breaks)})
['Acme Corp.', 'Acme Corp. | Form 10-Q']
>>> moved = text.replace("Margins held.", "Acme Corp.", 1)  # also printed between the edges: kept
>>> sorted({moved[a:b] for a, b in running_spans(moved, breaks)})
['Acme Corp. | Form 10-Q']
>>> len(running_spans(text.replace("Sales rose in the", "Sales rose"), breaks))  # a sentence that never changes: kept
8
"""

from __future__ import annotations

import re
from collections import defaultdict

__all__ = ["EDGE_LINES", "PAGE_NUMBER", "fold", "running_key", "running_spans"]

EDGE_LINES = 2  # non-blank lines on each side of a page break where furniture sits
_MAX_CHARS = 150  # longer lines are text
_DIGITS = re.compile(r"\d+")
_EDGE_ROMAN = re.compile(r"^[ivxlc]{1,7}\b|\b[ivxlc]{1,7}$")
_FOLD = re.compile(r"[\W_]+")
#: A printed page number on its own: ``12``, ``- 12 -``, ``Page 3 of 9``, ``viii``, ``F-12``.
PAGE_NUMBER = re.compile(r"(?:page|p\.|seite|página|pagina)?\s*[-–—(\[]?\s*(?:[a-z]{1,2}-)?(?:\d{1,5}|[ivxlcdm]{1,8})"
                         r"\s*[-–—)\]]?(?:\s*(?:/|of|de|von|sur)\s*\d{1,5})?", re.I)
#: A line that ends a sentence ("Revenue rose in 2024."), not a name ("Acme Holdings, Inc.") or a header: text, even
#: when every page repeats it.
_SENTENCE = re.compile(r"(?<!\bInc)(?<!\bCorp)(?<!\bCo)(?<!\bLtd)(?<!\bL\.P)(?<!\bN\.A)(?<!\bS\.A)(?<!\bplc)[.!?][\"”’)]*$")
_NAVIGATION = re.compile(r"(?:back to |return to |go to )?(?:the )?(?:table of contents|contents|index|top)", re.I)


def fold(s: str) -> str:
    """``s`` lowercased with punctuation and spacing folded to single spaces."""
    return _FOLD.sub(" ", s.lower()).strip()


def running_key(s: str) -> str:
    """A running line's identity: case, spacing and numbers folded (``Page 3 of 9`` ≡ ``Page 4 of 9``), a
    roman page number at either end too.

    >>> running_key("Page 3 of 9") == running_key("page 4 of 9"), running_key("Guide viii") == running_key("Guide 12")
    (True, True)
    """
    return _EDGE_ROMAN.sub("#", _DIGITS.sub("#", fold(s)))


def running_spans(text: str, breaks: list[int]) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of ``text``'s running lines (see the module docstring); ``breaks``: the offsets of
    the page breaks in ``text``."""
    breaks = sorted(set(breaks))
    if len(breaks) < 2:
        return []
    lines: list[tuple[int, int]] = []  # (start, end) of the non-blank lines
    pos = 0
    for line in text.split("\n"):
        if line.strip():
            lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    edges: dict[int, set[int]] = defaultdict(set)  # line index → the boundaries it sits next to
    first = 0
    for b, at in enumerate([0, *breaks, len(text) + 1]):
        while first < len(lines) and lines[first][0] < at:
            first += 1
        for i in (*range(max(0, first - EDGE_LINES), first), *range(first, min(len(lines), first + EDGE_LINES))):
            edges[i].add(b)
    seen: dict[str, set[int]] = defaultdict(set)  # a line's identity → the boundaries it sits next to
    texts: dict[str, set[str]] = defaultdict(set)  # … and its texts: a page number changes from page to page
    keyed = {i: (line, running_key(line)) for i in edges if (line := text[lines[i][0]:lines[i][1]].strip())}
    for i, near in edges.items():
        line, key = keyed[i]
        seen[key] |= near
        texts[key].add(line)
    repeat = max(3, (len(breaks) + 2) // 3)
    # a line that never changes: the breaks it sits next to (not the document's start and end), and how often it is
    # printed at a page's edge against how often anywhere
    at_breaks: dict[str, set[int]] = defaultdict(set)
    printed_at_breaks: dict[str, int] = defaultdict(int)
    for i, near in edges.items():
        at_breaks[keyed[i][0]] |= {b for b in near if 0 < b <= len(breaks)}
        printed_at_breaks[keyed[i][0]] += 1  # the first page's header and the last page's footer count as printed there
    printed: dict[str, int] = defaultdict(int)
    for start, end in lines:
        line = text[start:end].strip()
        if line in at_breaks:
            printed[line] += 1
    constant = max(3, (len(breaks) + 1) // 2)
    out = []
    for i in sorted(edges):
        start, end = lines[i]
        line, key = keyed[i]
        if len(line) > _MAX_CHARS:
            continue
        if PAGE_NUMBER.fullmatch(line) or (len(seen[key]) >= repeat and (_NAVIGATION.fullmatch(line) or (
                key.startswith("#") or key.endswith("#")) and len(texts[key]) > 1)) or (
                len(at_breaks[line]) >= constant and printed[line] == printed_at_breaks[line] and not _SENTENCE.search(line)):
            out.append((start, end))
    return out
