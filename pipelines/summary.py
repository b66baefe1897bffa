"""Extractive section summaries: the lead sentences of a section, within a token budget.

A section that fits in one chunk is summarised by that chunk itself (same text, same
embedding input, so the embedder deduplicates it for free); a longer one by its first
sentences; a section without body text by the titles of its subsections.

>>> summarize_text("First point. Second point. Third.", token_counts=[3, 3, 2], budget=6)
'First point. Second point.'
"""

from __future__ import annotations

from pipelines.chunk import split_sentences


def summarize_text(text: str, *, token_counts: list[int] | None = None, budget: int = 64,
                   tokenizer=None) -> str:
    """Lead sentences of ``text`` totalling at most ``budget`` tokens (at least one sentence,
    cut at ``budget`` tokens when the first sentence alone is longer)."""
    spans = split_sentences(text)
    if not spans:
        return ""
    sentences = [text[s:e] for s, e in spans]
    if token_counts is None:
        encodings = tokenizer.encode_batch(sentences, add_special_tokens=False)
        token_counts = [len(enc.ids) for enc in encodings]
    picked: list[str] = []
    used = 0
    for sentence, count in zip(sentences, token_counts):
        if picked and used + count > budget:
            break
        if not picked and count > budget and tokenizer is not None:
            enc = tokenizer.encode(sentence, add_special_tokens=False)
            return sentence[: enc.offsets[budget - 1][1]] + " …"
        picked.append(sentence)
        used += count
    return " ".join(picked)
