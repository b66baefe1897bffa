"""Packing selected chunks and section summaries into passages: overlapping and adjacent chunks
of one section merge into one span (chunk text is an exact slice of the document text, so the
overlap is cut by offsets), passages are ordered by document (best first) and then by position.

>>> a = Piece("d", "s", 0, 0, 10, "0123456789", 3, ["c0"], [{"kind": "direct"}], 1.0, 1)
>>> b = Piece("d", "s", 1, 7, 15, "789abcde", 2, ["c1"], [{"kind": "neighbour"}], 0.5, 1, first_page=4, last_page=5)
>>> [(p.text, p.first_page, p.last_page) for p in pack([b, a])]
[('0123456789abcde', 4, 5)]

A passage's pages run from its chunks' first to their last (None where no chunk has pages). A passage that starts
inside a table begins with the table's head (its caption and header rows, from the chunk above: a piece's
``head``), so its rows say what their figures are; a passage that holds the chunk above does not repeat it.

>>> head = Piece("d", "s", 3, 50, 70, "Net loss | (70,193)", 6, ["c3"], [{"kind": "direct"}], 1.0, 0,
...              head="Year | 2024", head_tokens=3)
>>> [p.text for p in pack([head])]
['Year | 2024\\nNet loss | (70,193)']
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass
class Piece:
    """One selected chunk (``ordinal >= 0``) or section summary (``ordinal == -1``)."""

    doc_id: str
    section_id: str
    ordinal: int
    start: int
    end: int
    text: str
    n_tokens: int
    chunk_ids: list[str]
    reasons: list[dict]
    score: float
    priority: int  # lower = more important (the rank of the seed that brought it in)
    meta: dict = field(default_factory=dict)  # source, path, title, section_path
    first_page: int | None = None  # pages (1-based) of a paged document's chunk; None if unknown
    last_page: int | None = None
    excerpt: bool = False  # a sentence window of a chunk (start/end are its own): joins only what it overlaps
    head: str = ""  # a chunk that starts inside a table: the table's head from above it, shown before it when it leads
    head_tokens: int = 0  # the head's share of n_tokens


@dataclass
class PackedPassage:
    passage_id: str
    doc_id: str
    section_id: str
    start: int
    end: int
    text: str
    n_tokens: int
    chunk_ids: list[str]
    reasons: list[dict]
    score: float
    meta: dict
    first_page: int | None = None
    last_page: int | None = None


def _pages(a: int | None, b: int | None, pick) -> int | None:
    return pick(a, b) if a is not None and b is not None else (a if b is None else b)


def _merge(into: Piece, nxt: Piece) -> None:
    tokens = nxt.n_tokens - nxt.head_tokens  # what comes before it in the passage holds its table's head
    if nxt.start < into.end:  # overlapping chunks: keep only the new characters (and their share of tokens)
        new = nxt.text[into.end - nxt.start:] if nxt.end > into.end else ""
        into.text += new
        into.n_tokens += round(tokens * len(new) / max(len(nxt.text), 1))
    else:
        into.text += "\n" + nxt.text
        into.n_tokens += tokens
    into.end = max(into.end, nxt.end)
    into.first_page = _pages(into.first_page, nxt.first_page, min)
    into.last_page = _pages(into.last_page, nxt.last_page, max)
    into.ordinal = nxt.ordinal
    into.chunk_ids += nxt.chunk_ids
    into.reasons += [r for r in nxt.reasons if r not in into.reasons]
    into.score = max(into.score, nxt.score)
    into.priority = min(into.priority, nxt.priority)


def pack(pieces: list[Piece]) -> list[PackedPassage]:
    """Merge contiguous chunk pieces per section and order the result (see module docstring)."""
    by_doc: dict[str, list[Piece]] = {}
    for piece in pieces:
        by_doc.setdefault(piece.doc_id, []).append(piece)
    doc_order = sorted(by_doc, key=lambda d: min(p.priority for p in by_doc[d]))
    out: list[PackedPassage] = []
    for doc_id in doc_order:
        merged: list[Piece] = []
        for piece in sorted(by_doc[doc_id], key=lambda p: (p.start, p.ordinal)):
            last = merged[-1] if merged else None
            if (last is not None and piece.ordinal >= 0 and last.ordinal >= 0
                    and piece.section_id == last.section_id and piece.ordinal <= last.ordinal + 1
                    and (not (piece.excerpt or last.excerpt) or piece.start <= last.end)):
                _merge(last, Piece(**{**piece.__dict__, "chunk_ids": list(piece.chunk_ids),
                                      "reasons": list(piece.reasons)}))
            else:
                merged.append(Piece(**{**piece.__dict__, "chunk_ids": list(piece.chunk_ids),
                                       "reasons": list(piece.reasons)}))
        for p in merged:
            key = f"{p.doc_id}:{p.start}:{p.end}:{','.join(p.chunk_ids) or p.section_id}"
            text = f"{p.head}\n{p.text}" if p.head else p.text
            out.append(PackedPassage(hashlib.sha1(key.encode()).hexdigest()[:16], p.doc_id, p.section_id, p.start,
                                     p.end, text, p.n_tokens, p.chunk_ids, p.reasons, p.score, p.meta,
                                     p.first_page, p.last_page))
    return out
