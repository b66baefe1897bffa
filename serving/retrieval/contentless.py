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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from serving.retrieval.hybrid import Candidate

__all__ = ["demote_contentless", "CONTENTLESS_WORDS"]

CONTENTLESS_WORDS = 4  # fewer words of its own than this: a chunk that is (almost) only its header
_WORD = re.compile(r"\w+")


def demote_contentless(candidates: list[Candidate], rows: dict[str, dict], queries: Sequence[str],
                       factor: float) -> list[Candidate]:
    """``candidates`` re-sorted (stably) after scaling the score of each contentless chunk (of those with a row
    in ``rows``) that shares no word with ``queries`` by ``factor`` (1.0: unchanged); its
    ``scores["contentless"]`` records the factor, and a candidate is scaled once however often this runs."""
    if factor >= 1.0 or not candidates:
        return candidates
    asked = {w for q in queries for w in _WORD.findall(q.casefold())}
    changed = False
    for c in candidates:
        row = rows.get(c.chunk_id)
        if row is None or "contentless" in c.scores:  # not read yet, or scaled already
            continue
        words = _WORD.findall((row.get("text") or "").casefold())
        if len(words) < CONTENTLESS_WORDS and not asked.intersection(words):
            c.score *= factor
            c.scores["contentless"] = factor
            changed = True
    return sorted(candidates, key=lambda c: -c.score) if changed else candidates
