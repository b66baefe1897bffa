"""Answer metrics: SQuAD-style exact match and token F1, containment, citation checks, percentiles.

Normalisation follows the SQuAD v1.1 evaluation script: lower-case, drop ASCII punctuation,
drop the articles *a/an/the*, collapse whitespace. Against several gold answers a prediction
gets its best score.

>>> normalize_answer("The  EPOLLET flag!")
'epollet flag'
>>> exact_match("the EPOLLET flag", ["EPOLLET flag", "EPOLLET"])
1.0
>>> round(token_f1("edge triggered EPOLLET flag", ["EPOLLET"]), 4)   # P 1/4, R 1/1
0.4
>>> contains("Use the EPOLLET flag [1].", ["EPOLLET"])
1.0
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

from offline.eval.qa_format import Evidence

__all__ = ["CitationLike", "citation_is_evidence", "contains", "document_matches", "exact_match", "normalize_answer",
           "normalize_text", "percentile", "section_matches", "strip_citation_markers", "token_f1"]

_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_MARKERS = re.compile(r"\s*\[\d+(?:\s*[,;]\s*\d+)*\]")


class CitationLike(Protocol):
    """What citation checks read from a citation (``serving.protocol.Citation`` has these)."""

    path: str
    section_path: Sequence[str] | str
    snippet: str


def normalize_answer(text: str) -> str:
    """SQuAD v1.1 normalisation: lower, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def normalize_text(text: str) -> str:
    """Looser normalisation for evidence snippets: case-folded, whitespace collapsed (punctuation kept).

    >>> normalize_text("  Field 9\\n  should GO")
    'field 9 should go'
    """
    return " ".join(text.casefold().split())


def strip_citation_markers(text: str) -> str:
    """Remove ``[1]``/``[1, 2]`` markers an answer carries.

    >>> strip_citation_markers("It is EPOLLET [1][2]. Also [3, 4] done.")
    'It is EPOLLET. Also done.'
    """
    return _MARKERS.sub("", text).strip()


def exact_match(prediction: str, golds: Iterable[str]) -> float:
    """1.0 if the normalised prediction equals any normalised gold answer, else 0.0."""
    pred = normalize_answer(prediction)
    return float(any(pred == normalize_answer(g) for g in golds))


def _f1(pred_tokens: list[str], gold_tokens: list[str]) -> float:
    if not pred_tokens or not gold_tokens:
        return float(pred_tokens == gold_tokens)
    same = sum((Counter(pred_tokens) & Counter(gold_tokens)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred_tokens), same / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, golds: Iterable[str]) -> float:
    """Best token-overlap F1 (bag of normalised tokens) of the prediction against the gold answers.

    >>> round(token_f1("four bytes long", ["four bytes"]), 4)   # P 2/3, R 1
    0.8
    """
    pred = normalize_answer(prediction).split()
    return max((_f1(pred, normalize_answer(g).split()) for g in golds), default=0.0)


def contains(prediction: str, golds: Iterable[str]) -> float:
    """1.0 if some normalised gold answer occurs in the normalised prediction as whole tokens.

    >>> contains("merged in Linux 2.5.70", ["2.5.7"]), contains("merged in Linux 2.5.7.", ["2.5.7"])
    (0.0, 1.0)
    """
    pred = f" {normalize_answer(prediction)} "
    return float(any((gold := normalize_answer(g)) and f" {gold} " in pred for g in golds))


def _parts(path: Sequence[str] | str | None) -> list[str]:
    if path is None:
        return []
    items = path.split(" > ") if isinstance(path, str) else list(path)
    return [normalize_text(p) for p in items if p and p.strip()]


def section_matches(cited: Sequence[str] | str, wanted: str) -> bool:
    """Does a citation's section path (root → leaf; a list or ``"A > B"``) end with the wanted title path?

    >>> section_matches(["DESCRIPTION", "Semantics"], "Semantics")
    True
    >>> section_matches("DESCRIPTION > Semantics", "description")
    False
    """
    have, want = _parts(cited), _parts(wanted)
    return bool(want) and have[len(have) - len(want):] == want


def document_matches(path: str, document: str) -> bool:
    """Same document: equal relative paths, or the citation's path ends with ``/<document>``.

    >>> document_matches("man7/epoll.7.gz", "man7/epoll.7.gz")
    True
    >>> document_matches("corpus/man7/epoll.7.gz", "man7/epoll.7.gz"), document_matches("epoll.7.gz", "man7/epoll.7.gz")
    (True, False)
    """
    path, document = path.replace("\\", "/").strip("/"), document.replace("\\", "/").strip("/")
    return path == document or path.endswith("/" + document)


def citation_is_evidence(citation: CitationLike, evidence: Sequence[Evidence]) -> bool:
    """A citation is evidence when it is in an evidence document and its section matches or its passage
    contains the evidence text; evidence that names only its document (one passage a file) is any citation
    of that document.

    >>> from types import SimpleNamespace as Cite
    >>> citation_is_evidence(Cite(path="arcd-doc9.md", section_path=[], snippet="…"), [Evidence("arcd-doc9.md")])
    True
    >>> citation_is_evidence(Cite(path="a.md", section_path=[], snippet="other"), [Evidence("a.md", text="gold")])
    False
    """
    for piece in evidence:
        if not document_matches(citation.path or "", piece.document):
            continue
        if not piece.section and not piece.text:
            return True
        if piece.section and section_matches(citation.section_path or [], piece.section):
            return True
        if piece.text and normalize_text(piece.text) in normalize_text(citation.snippet or ""):
            return True
    return False


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile with linear interpolation between order statistics (numpy's default).

    >>> percentile([10, 20, 30, 40], 50), percentile([10, 20, 30, 40], 95)
    (25.0, 38.5)
    """
    if not values:
        return math.nan
    if not 0 <= q <= 100:
        raise ValueError(f"q must be within [0, 100], got {q}")
    ordered = sorted(float(v) for v in values)
    rank = q / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
