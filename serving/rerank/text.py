"""The text a cross-encoder reads for one chunk: its heading path, then the chunk text.

Chunks are stored without their header (document title › section path), but passages that never
name their document rely on it — the embedder reads it too. Training and serving both build the
passage with :func:`passage_text`, so the model sees the same input in both.

>>> passage_text({"title": "Venv", "section_path": "Venv > Creating", "text": "Run python -m venv."})
'Venv > Creating\\nRun python -m venv.'
>>> passage_text({"title": "", "section_path": "", "text": "plain"})
'plain'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["best_window", "header_of", "passage_text"]


def header_of(title: str | None, section_path: str | None) -> str:
    """``title > section > subsection`` with the title not repeated when the path starts with it.

    >>> header_of("Cats", "Cats"), header_of("Cats", "Diet > Fish"), header_of(None, "A")
    ('Cats', 'Cats > Diet > Fish', 'A')
    """
    parts = [" ".join((title or "").split())]
    for part in (section_path or "").split(" > "):
        part = " ".join(part.split())
        if part and part != parts[-1]:
            parts.append(part)
    return " > ".join(p for p in parts if p)


def passage_text(row: Mapping[str, Any]) -> str:
    """The cross-encoder input for a chunk row (``title``, ``section_path``, ``text``)."""
    header = header_of(row.get("title"), row.get("section_path"))
    text = row.get("text") or ""
    return f"{header}\n{text}" if header else text


_TERM = re.compile(r"[a-z0-9]+")


def _terms(text: str) -> set[str]:
    """Lower-cased word parts (identifiers split at ``_``), a plural ``s`` dropped, cut to 5
    characters (a crude stem); stopwords out."""
    from serving.analysis.variants import STOPWORDS

    return {(w[:-1] if len(w) > 3 and w.endswith("s") else w)[:5] for w in _TERM.findall(text.lower())
            if w not in STOPWORDS and len(w) > 1}


def best_window(query: str, sentences: Sequence[str], lengths: Sequence[int], budget: int,
                carried: Sequence[str] | None = None) -> tuple[int, int]:
    """The run of whole sentences ``[i, j)`` within ``budget`` tokens (``lengths`` per sentence) that
    shares the most terms with ``query`` (ties: the earliest) — what a cross-encoder with a short
    window reads of a long chunk. At least one sentence is kept.

    >>> best_window("futex wake operation", ["Intro text here.", "Waiters sleep.", "FUTEX_WAKE wakes waiters."],
    ...             [4, 3, 5], budget=8)
    (1, 3)

    ``carried[i]``: text quoted with a window that starts at sentence ``i`` (a table's head above its rows), whose
    terms count for it too: the row "Research and development | 272,455" under "Year Ended Dec. 31, 2024" answers
    "R&D in 2024" better than the head alone.

    >>> rows = ["Year Ended Dec. 31, 2024", "Revenue | 401,900", "Research and development | 272,455"]
    >>> best_window("research and development in the year 2024", rows, [6, 4, 5], 6)
    (0, 1)
    >>> best_window("research and development in the year 2024", rows, [6, 4, 5], 6, ["", rows[0], rows[0]])
    (2, 3)
    """
    query_terms = _terms(query)
    sets = [_terms(s) for s in sentences]
    extra = [_terms(c) if c else set() for c in carried] if carried is not None else [set()] * len(sentences)
    best, best_span = -1.0, (0, 1)
    for i in range(len(sentences)):
        used, seen, j = 0, set(extra[i]), i
        while j < len(sentences) and (used + lengths[j] <= budget or j == i):
            used += lengths[j]
            seen |= sets[j]
            j += 1
        score = len(query_terms & seen) + (0.5 if i == 0 else 0.0) * bool(query_terms & sets[0])
        if score > best:
            best, best_span = score, (i, j)
    return best_span


def window_text(query: str, text: str, count: Callable[[list[str]], list[int]], budget: int) -> str:
    """``text`` (``header\nbody``) cut to the best sentence window of its body within ``budget`` tokens
    (header included); unchanged when it fits."""
    from pipelines.chunk.sentences import split_sentences

    header, sep, body = text.partition("\n") if "\n" in text else ("", "", text)
    head_tokens, body_tokens = count([header, body]) if header else (0, count([body])[0])
    room = budget - head_tokens - 1
    if body_tokens <= room:
        return text
    spans = split_sentences(body)
    if len(spans) <= 1:
        return text  # the tokenizer's truncation cuts it
    sentences = [body[s:e] for s, e in spans]
    i, j = best_window(query, sentences, count(sentences), room)
    window = body[spans[i][0]:spans[j - 1][1]].strip()
    return f"{header}{sep}{window}" if header else window
