"""Citations attributed after generation: each sentence of a plain-text answer gets the ``[n]`` of
the passage that supports it best, measured as the verifier measures support
(:func:`serving.answer.verify.support_scores`: lexical overlap + embedding similarity to 3-sentence
windows of the passage). Small models write better plain text than forced ``[n]`` JSON; the
verifier then checks the attributed answer like any other (see :func:`attribute`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from serving.answer.citations import cited_sentences
from serving.answer.verify import Embed, Support, support_scores

__all__ = ["AttributedAnswer", "AttributedSentence", "attribute", "with_marker"]

_END = re.compile(r"[.!?…]+[\"'”’)\]»]*$")


@dataclass(frozen=True)
class AttributedSentence:
    """One sentence of the answer: its text (without markers), the passage it now cites (``[]`` when
    no passage reaches ``min_support``) and that support (the best passage's when none is cited)."""

    text: str
    cited: list[int]
    support: float


@dataclass(frozen=True)
class AttributedAnswer:
    """The answer with one ``[n]`` per supported sentence, and the per-sentence records."""

    answer: str
    sentences: list[AttributedSentence] = field(default_factory=list)

    @property
    def cited(self) -> list[int]:
        """The passage numbers cited, in order of first citation.

        >>> AttributedAnswer("a [2]. b [1]. c [2].", [AttributedSentence("a.", [2], 0.9),
        ...     AttributedSentence("b.", [1], 0.8), AttributedSentence("c.", [2], 0.7)]).cited
        [2, 1]
        """
        return list(dict.fromkeys(n for s in self.sentences for n in s.cited))


def with_marker(sentence: str, number: int | None) -> str:
    """``sentence`` with ``[number]`` before its final punctuation (unchanged for None).

    >>> with_marker("Use the --force option.", 2), with_marker('It says "yes."', 1), with_marker("EPOLLET", 3)
    ('Use the --force option [2].', 'It says "yes [1]."', 'EPOLLET [3]')
    """
    if number is None:
        return sentence
    m = _END.search(sentence)
    if m is None:
        return f"{sentence} [{number}]"
    return f"{sentence[: m.start()].rstrip()} [{number}]{m.group()}"


def _choose(cited: list[int], row: dict[int, Support], min_support: float) -> tuple[int | None, float]:
    """The passage a sentence cites: its own best-supporting valid citation when that one supports it,
    else the best-supporting passage (the earlier, i.e. better-ranked, one on a tie), else none."""
    def best(numbers) -> int | None:
        return max(numbers, key=lambda n: (row[n].support, -n), default=None)

    own = best([n for n in cited if n in row])
    if own is not None and row[own].support >= min_support:
        return own, row[own].support
    top = best(row)
    if top is None:
        return None, 0.0
    return (top if row[top].support >= min_support else None), row[top].support


async def attribute(answer: str, passages: Sequence[str], embed: Embed, *, lexical_weight: float,
                    min_support: float) -> AttributedAnswer:
    """Cite, for each sentence of ``answer``, the passage (1-based) that supports it best.

    Markers already in the answer are replaced: a sentence keeps the best of its valid citations
    when that one supports it (support ≥ ``min_support``), otherwise it cites the best-supporting
    passage, or nothing when no passage reaches ``min_support`` (a sentence without content words
    never does). Every sentence is scored against every passage with one ``embed`` call.
    Paragraphs (blank-line separated) stay apart; the sentences of a paragraph are joined by a space.

    >>> import asyncio, re, zlib, numpy as np
    >>> async def embed(texts):  # a stand-in embedder: hashed bag of words, unit norm
    ...     vs = [np.bincount([zlib.crc32(w.encode()) % 64 for w in re.findall(r"\\w+", t.lower())],
    ...                       minlength=64).astype(float) for t in texts]
    ...     return [v / max(float(np.linalg.norm(v)), 1e-9) for v in vs]
    >>> passages = ["The default behavior for epoll is level-triggered.",
    ...             "EPOLLET requests edge-triggered notification for the file descriptor."]
    >>> out = asyncio.run(attribute("EPOLLET requests edge-triggered notification [1]. "
    ...                             "The default is level-triggered [1].", passages, embed,
    ...                             lexical_weight=0.5, min_support=0.45))
    >>> out.answer
    'EPOLLET requests edge-triggered notification [2]. The default is level-triggered [1].'
    >>> [(s.text, s.cited) for s in out.sentences], out.cited
    ([('EPOLLET requests edge-triggered notification.', [2]), ('The default is level-triggered.', [1])], [2, 1])
    >>> asyncio.run(attribute("It is so [1].", passages, embed, lexical_weight=0.5, min_support=0.45))
    AttributedAnswer(answer='It is so.', sentences=[AttributedSentence(text='It is so.', cited=[], support=0.0)])
    """
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", answer.strip()) if p.strip()]
    parsed = [cited_sentences(p) for p in paragraphs]
    flat = [s for sentences in parsed for s in sentences]
    if not flat:
        return AttributedAnswer(answer="", sentences=[])
    scores = await support_scores([s.text for s in flat], passages, embed, lexical_weight=lexical_weight)
    records = []
    for sentence, row in zip(flat, scores):
        number, support = _choose(sentence.cited, row, min_support)
        records.append(AttributedSentence(sentence.text, [number] if number is not None else [], round(support, 4)))
    out, k = [], 0
    for sentences in parsed:
        pieces = [with_marker(r.text, r.cited[0] if r.cited else None) for r in records[k: k + len(sentences)]]
        k += len(sentences)
        out.append(" ".join(pieces))
    return AttributedAnswer(answer="\n\n".join(out), sentences=records)

