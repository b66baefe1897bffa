"""The verifier's deterministic checks: citations point at given passages, cited passages support
the sentences citing them (lexical overlap + embedding similarity), enough sentences carry a
citation, the short answer value appears in a cited passage, the length is sane. The LLM judgment
is added by the answer service (:mod:`serving.answer.service`) and combined in :func:`final_verdict`.

>>> content_words("The EPOLLET flag requests edge-triggered notification.")
['epollet', 'flag', 'request', 'edge', 'trigger', 'notification']
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

import numpy as np

from cluster.config import AnswerConfig
from serving.answer.citations import cited_sentences
from serving.answer.forms import WriterForm
from serving.api.protocol import LLMJudgment, SentenceCheck, Verification

Embed = Callable[[list[str]], Awaitable[list[np.ndarray]]]

_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:/+-]*[A-Za-z0-9_]|[A-Za-z0-9]")
STOPWORDS = frozenset("""
a an the and or but if then else of to in on at by for with from into onto over under as is are was were be been
being it its this that these those there here which who whom whose what when where why how can could should would
may might must will shall do does did done has have had having not no nor so than too very just also only such
own same other any each few more most some all both i you he she we they me him her us them my your our their
about above after again against below between during before through until up down out off once further
""".split())


def _stem(word: str) -> str:
    for suffix, keep in (("ings", 4), ("ing", 4), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> list[str]:
    """Lower-cased, lightly stemmed content words; identifiers like ``EPOLL_CTL_ADD`` stay whole."""
    words = []
    for token in _WORD.findall(text):
        parts = [token] if re.search(r"[_./:+]|\d", token) else token.split("-")
        for part in parts:
            low = part.lower().strip(".:/+-")
            if low and low not in STOPWORDS:
                words.append(_stem(low) if not re.search(r"[_./:+]|\d", low) else low)
    return words


def lexical_support(sentence: str, passage: str) -> float:
    """Share of the sentence's distinct content words that the passage contains."""
    words = set(content_words(sentence))
    if not words:
        return 1.0
    vocabulary = set(content_words(passage))
    return len(words & vocabulary) / len(words)


def windows(text: str, size: int = 3) -> list[str]:
    """Overlapping windows of ``size`` sentences (what one sentence of an answer paraphrases)."""
    from pipelines.chunk.sentences import split_sentences

    spans = [text[s:e].strip() for s, e in split_sentences(text)] or [text]
    if len(spans) <= size:
        return [" ".join(spans)]
    return [" ".join(spans[i: i + size]) for i in range(0, len(spans) - size + 1, max(1, size - 1))]


def value_in_passages(value: str, passages: Sequence[str]) -> bool:
    """The short answer value (all of its content words, or its literal text) occurs in a passage."""
    value = value.strip()
    if not value:
        return False
    words = set(content_words(value))
    for passage in passages:
        if value.lower() in passage.lower():
            return True
        if words and words <= set(content_words(passage)):
            return True
    return False


async def check_answer(form: WriterForm, passages: Sequence[str], embed: Embed, settings: AnswerConfig) -> Verification:
    """Run the deterministic checks of ``form`` against the numbered ``passages`` (1-based)."""
    if form.is_blank or not form.answer.strip():
        return Verification(verdict="blank", reasons=["the writer found no answer in the passages"])
    reasons: list[str] = []
    sentences = cited_sentences(form.answer)
    cited_anywhere = [n for s in sentences for n in s.cited]
    invalid = sorted({n for n in cited_anywhere + list(form.cited_ids) if not 1 <= n <= len(passages)})
    if invalid:
        reasons.append(f"citation(s) {invalid} point at no provided passage (1–{len(passages)})")
    length_ok = len(form.answer) <= settings.max_answer_chars
    if not length_ok:
        reasons.append(f"answer is {len(form.answer)} characters; the limit is {settings.max_answer_chars}")

    # Embedding similarity of each cited sentence to the windows of the passages it cites.
    jobs: list[tuple[int, int]] = [(i, n) for i, s in enumerate(sentences) for n in s.cited if 1 <= n <= len(passages)]
    passage_windows = {n: windows(passages[n - 1]) for n in {n for _, n in jobs}}
    texts = [s.text for s in sentences] + [w for n in sorted(passage_windows) for w in passage_windows[n]]
    vectors = await embed(texts) if jobs else []
    sentence_vecs = vectors[: len(sentences)]
    window_vecs: dict[int, np.ndarray] = {}
    offset = len(sentences)
    for n in sorted(passage_windows):
        k = len(passage_windows[n])
        window_vecs[n] = np.stack(vectors[offset: offset + k]) if k else np.zeros((0, 1))
        offset += k

    checks: list[SentenceCheck] = []
    for i, sentence in enumerate(sentences):
        valid = [n for n in sentence.cited if 1 <= n <= len(passages)]
        lexical = max((lexical_support(sentence.text, passages[n - 1]) for n in valid), default=0.0)
        semantic = max((float(np.max(window_vecs[n] @ sentence_vecs[i])) for n in valid if len(window_vecs[n])),
                       default=0.0)
        support = settings.lexical_weight * lexical + (1 - settings.lexical_weight) * max(semantic, 0.0)
        checks.append(SentenceCheck(text=sentence.text, cited=sentence.cited, lexical=round(lexical, 4),
                                    semantic=round(semantic, 4), support=round(support, 4),
                                    supported=bool(valid) and support >= settings.min_support))
    n = max(len(checks), 1)
    coverage = sum(1 for c in checks if c.cited) / n
    supported_share = sum(1 for c in checks if c.supported) / n
    mean_support = sum(c.support for c in checks) / n
    if coverage < settings.min_citation_coverage:
        reasons.append(f"only {coverage:.0%} of the sentences cite a passage (need {settings.min_citation_coverage:.0%})")
    if supported_share < settings.min_supported_share:
        weak = [c.text[:80] for c in checks if not c.supported][:3]
        reasons.append(f"only {supported_share:.0%} of the sentences are supported by their citations "
                       f"(need {settings.min_supported_share:.0%}); unsupported: {weak}")
    cited_texts = [passages[n - 1] for n in dict.fromkeys(cited_anywhere + list(form.cited_ids)) if 1 <= n <= len(passages)]
    value_supported = value_in_passages(form.answer_value, cited_texts) if form.answer_value.strip() else None
    if value_supported is False:
        reasons.append(f"the answer value {form.answer_value[:80]!r} appears in no cited passage")
    return Verification(
        verdict="fail" if reasons else "pass", reasons=reasons, citations_valid=not invalid,
        invalid_citations=invalid, citation_coverage=round(coverage, 4), supported_share=round(supported_share, 4),
        mean_support=round(mean_support, 4), value_supported=value_supported, length_ok=length_ok, sentences=checks)


def final_verdict(verification: Verification, judgment: LLMJudgment) -> Verification:
    """Add the LLM judgment; in ``required`` mode a negative judgment fails the answer."""
    out = verification.model_copy(update={"llm": judgment})
    if judgment.mode == "required" and verification.verdict == "pass" and judgment.supported is False:
        out.verdict = "fail"
        out.reasons = [*out.reasons, f"the verifier model judged the answer unsupported: {judgment.reason[:200]}"]
    return out
