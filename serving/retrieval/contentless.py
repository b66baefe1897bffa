"""Chunks that match a query only through their header rank below those that say something.

Every chunk is embedded and indexed under its header (document title › section path), so a chunk whose own
text is a word or two ("None." under "Item 3. Legal Proceedings", "Page No." under a contents page, a
reStructuredText label) is scored almost on its header alone. Where the title names the company of a
filing (``GLOBEX CORPORATION, Form 10-K, …``), every such chunk of that filing matched every question that
names the company: on six filings, 18 of the top-10 slots of ten company-naming questions were "None.",
"Not applicable." or "Page". A chunk with fewer than :data:`CONTENTLESS_WORDS` words of its own that shares no
word with the query has its fused score multiplied by ``retrieval.contentless_factor``; one that names a word
of the query keeps its score ("Syria." for a question about Syria).

>>> from serving.retrieval.hybrid import Candidate
>>> cands = [Candidate("a", "d", 1.0), Candidate("b", "d", 0.9), Candidate("c", "d", 0.8)]
>>> rows = {"a": {"text": "None."}, "b": {"text": "Backlog was $212.4 million at year end."},
...         "c": {"text": "Backlog."}}
>>> [c.chunk_id for c in demote_contentless(cands, rows, ["Globex backlog"], factor=0.5)]
['b', 'c', 'a']

A table of contents says nothing either, but it names every section: "Item 7. | Management's Discussion … | 45"
shares the words of any question about that item, and a filing has one after its cover (a credit agreement, two
pages). A chunk whose lines are mostly contents entries (:func:`is_contents`: a title ending in a page number or
dot leaders) is scaled by the same factor whatever words it shares; so is a short chunk that only points to another
document (:func:`is_pointer`: a 10-K's Part III items, "The information required by this item is incorporated by
reference to our definitive Proxy Statement …"), which names the item's subject and holds none of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from serving.retrieval.hybrid import Candidate

__all__ = ["demote_contentless", "is_contents", "is_pointer", "CONTENTLESS_WORDS", "POINTER_WORDS"]

CONTENTLESS_WORDS = 4  # fewer words of its own than this: a chunk that is (almost) only its header
_WORD = re.compile(r"\w+")
#: A contents entry: a title and its page (arabic or roman) after a cell bar, dot leaders or spaces; or dot leaders.
_ENTRY = re.compile(r"(?:\|\s*|\.{4,}\s*\|?\s*|[A-Za-z)’'.]\s+)(?:\d{1,4}|[ivxlcIVXLC]{1,6})\s*$|\.{8,}")


POINTER_WORDS = 60  # a pointer to another document is short: a longer chunk says something besides
_POINTER = re.compile(r"\bincorporated (?:herein )?by reference (?:to|from)\b|\bincorporated herein by reference\b|\b(?:will|shall) be (?:included|contained|set forth) in "
                      r"(?:our|the|its) (?:definitive )?proxy statement\b", re.IGNORECASE)


def is_pointer(text: str) -> bool:
    """Whether ``text`` is a short pointer to another document, as a 10-K's Part III items are.

    >>> is_pointer("The information required by this item is incorporated by reference to our definitive Proxy "
    ...            "Statement for the 2025 Annual Meeting of Stockholders.")
    True
    >>> is_pointer("Backlog was $212.4 million at year end, up from $180.2 million in 2023.")
    False
    """
    return len(_WORD.findall(text)) < POINTER_WORDS and _POINTER.search(text) is not None


_PAGE_HEAD = re.compile(r"\s*(?:section\s*\|\s*)?page(?:\s+no\.?)?\s*", re.IGNORECASE)  # "Page", "Section | Page"


def is_contents(text: str) -> bool:
    r"""Whether ``text`` is (part of) a table of contents: most of its lines are entries with a page number or dot
    leaders, or it is a run of "label | title" rows of several items.

    >>> is_contents("Item 1. | Business | 1\nItem 1A. | Risk Factors | 3\nItem 2. | Properties | 4")
    True
    >>> is_contents("4.02 | Conditions to all Credit Extensions ........................ | 5\nARTICLE V | REPRESENTATIONS | 5")
    True
    >>> is_contents("................................................................ | 10")
    True
    >>> is_contents("Net sales | 1,184,207 | 1,092,688\nCost of sales | 702,114 | 655,301")
    False
    >>> is_contents("SIGHUP |  1 |  1 |  1 |  1\nSIGINT |  2 |  2 |  2 |  2\nSIGQUIT |  3 |  3 |  3 |  3")
    False
    >>> is_contents("Backlog was $212.4 million at year end, up from $180.2 million in 2023.")
    False
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    entries = sum(1 for line in lines if _PAGE_HEAD.fullmatch(line) or _ENTRY.search(line) and not re.search(r"\d[\d,]{3,}\s*$|\d\.\d+\s*$", line)
                  and sum(1 for cell in line.split("|")[1:] if re.fullmatch(r"\s*[-\d.,()$%]+\s*", cell)) <= 1)
    if len(lines) == 1:
        return bool(re.fullmatch(r"[\s.]*\.{8,}[\s.|]*(?:\d{1,4}|[ivxlc]{1,6})?\s*", lines[0]))
    return entries >= 2 and entries >= 0.6 * len(lines)


def is_navigation(text: str) -> bool:
    r"""Whether ``text`` only points elsewhere: a table of contents (:func:`is_contents`) or a pointer to another
    document (:func:`is_pointer`). Retrieval demotes such a chunk and the expansion never quotes one.

    >>> is_navigation("Item 1. | Business | 1\nItem 1A. | Risk Factors | 3"), is_navigation("Backlog rose 4%.")
    (True, False)
    """
    return is_contents(text) or is_pointer(text)


def demote_contentless(candidates: list[Candidate], rows: dict[str, dict], queries: Sequence[str],
                       factor: float) -> list[Candidate]:
    """``candidates`` re-sorted (stably) after scaling the score of each contentless chunk (of those with a row
    in ``rows``) that shares no word with ``queries``, and of each table-of-contents or pointer chunk, by ``factor`` (1.0:
    unchanged); its ``scores["contentless"]`` records the factor, and a candidate is scaled once however often
    this runs."""
    if factor >= 1.0 or not candidates:
        return candidates
    asked = {w for q in queries for w in _WORD.findall(q.casefold())}
    changed = False
    for c in candidates:
        row = rows.get(c.chunk_id)
        if row is None or "contentless" in c.scores:  # not read yet, or scaled already
            continue
        text = row.get("text") or ""
        words = _WORD.findall(text.casefold())
        if (len(words) < CONTENTLESS_WORDS and not asked.intersection(words)) or is_navigation(text):
            c.score *= factor
            c.scores["contentless"] = factor
            changed = True
    return sorted(candidates, key=lambda c: -c.score) if changed else candidates
