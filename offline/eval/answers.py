"""Answer evaluation: run a QA set through an answer function and score it.

The QA-set format (JSONL) is described in :mod:`offline.eval.qa_format`; the metric functions are in
:mod:`offline.eval.answer_metrics`. ``answer_fn`` maps a :class:`QAExample` to anything with the
attributes of ``serving.protocol.AnswerResponse`` that the harness reads (duck typing, see
:class:`AnswerLike`): ``answer`` (text with ``[n]`` markers, ``""`` when refused), ``answer_value``
(the short answer or ``None``), ``refused``, ``citations`` (each with ``path``, ``section_path``,
``snippet``) and ``timings_ms``; ``verification.verdict`` is recorded when present.

Metrics (``AnswerReport.metrics``; ``None`` where the denominator is empty):

* ``exact_match`` / ``token_f1`` / ``contains`` — over **all answerable** questions (a refusal or an
  error scores 0); the ``*_answered`` variants only over the answerable questions that were answered.
  EM and F1 compare the short ``answer_value`` (else the answer text without citation markers);
  ``contains`` looks for a gold answer in ``answer_value`` or the answer text.
* ``answer_rate`` — answered ÷ answerable; ``refusal_accuracy`` — refused ÷ unanswerable.
* ``citation_precision`` — per answered answerable question with evidence and at least one citation,
  the share of its citations that are evidence (same document, and the section matches or the
  passage contains the evidence text), averaged over those questions; ``citation_precision_micro``
  pools all their citations; ``evidence_cited_rate`` — share of answered answerable questions with
  evidence that cite at least one evidence passage; ``uncited_answers`` — answered questions with no
  citation at all.
* ``latency_ms_p50`` / ``_p95`` / ``_mean`` — wall time of ``answer_fn`` per question.
* ``n_truncated`` — questions over ``max_question_chars`` (the service's ``retrieval.max_query_chars``),
  asked truncated at a word boundary and scored like any other; each carries the reason in ``truncated``.

>>> from offline.eval.qa_format import Evidence, QAExample
>>> qa = [QAExample("q1", "Which flag?", ("EPOLLET",), True, (Evidence("man7/epoll.7.gz", "DESCRIPTION"),)),
...       QAExample("q2", "Default max_user_watches?", (), False)]
>>> replies = {"q1": SimpleAnswer("EPOLLET [1]", "EPOLLET", False,
...                               [SimpleCitation("man7/epoll.7.gz", ["DESCRIPTION"], "... EPOLLET ...")]),
...            "q2": SimpleAnswer("", None, True)}
>>> report = evaluate_answers(qa, lambda ex: replies[ex.id])
>>> {k: report.metrics[k] for k in ("exact_match", "answer_rate", "refusal_accuracy", "citation_precision")}
{'exact_match': 1.0, 'answer_rate': 1.0, 'refusal_accuracy': 1.0, 'citation_precision': 1.0}
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from offline.eval.answer_metrics import (
    CitationLike,
    citation_is_evidence,
    contains,
    exact_match,
    percentile,
    strip_citation_markers,
    token_f1,
)
from offline.eval.left_out import truncate_at_word, truncation_note
from offline.eval.qa_format import QAExample

__all__ = ["AnswerLike", "AnswerReport", "QuestionResult", "SimpleAnswer", "SimpleCitation", "evaluate_answers",
           "render_markdown", "score_answer", "summarize", "write_report"]


class AnswerLike(Protocol):
    """The attributes of an answer response the harness reads."""

    answer: str
    answer_value: str | None
    refused: bool
    citations: Sequence[CitationLike]
    timings_ms: Mapping[str, float]


@dataclass
class SimpleCitation:
    """A citation with the fields the harness reads (for replays and tests)."""

    path: str
    section_path: list[str]
    snippet: str


@dataclass
class SimpleAnswer:
    """An answer with the fields the harness reads (for replays and tests)."""

    answer: str
    answer_value: str | None
    refused: bool
    citations: list[SimpleCitation] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass
class QuestionResult:
    """One question's outcome and scores."""

    id: str
    question: str
    answerable: bool
    golds: list[str]
    refused: bool
    answer: str
    answer_value: str | None
    exact_match: float
    token_f1: float
    contains: float
    has_evidence: bool
    n_citations: int
    n_evidence_citations: int
    citation_precision: float | None
    latency_ms: float
    server_ms: float | None = None
    verdict: str | None = None
    refusal_reason: str | None = None
    error: str | None = None
    truncated: str | None = None  # why and how the question was shortened before it was asked

    @property
    def answered(self) -> bool:
        return not self.refused and self.error is None

    @property
    def correct_refusal(self) -> bool:
        return not self.answerable and self.refused and self.error is None


@dataclass
class AnswerReport:
    metrics: dict[str, Any]
    results: list[QuestionResult]
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"meta": self.meta, "metrics": self.metrics, "results": [asdict(r) for r in self.results]}


def score_answer(example: QAExample, response: AnswerLike | None, latency_ms: float,
                 error: str | None = None) -> QuestionResult:
    """Score one response (``None`` with ``error`` when the answer function failed)."""
    refused = bool(response is not None and response.refused)
    text = "" if response is None else (response.answer or "")
    value = None if response is None else response.answer_value
    answered = response is not None and not refused
    prediction = (value if value and value.strip() else strip_citation_markers(text)) if answered else ""
    golds = list(example.answers)
    em = f1 = found = 0.0
    if example.answerable and answered:
        em, f1 = exact_match(prediction, golds), token_f1(prediction, golds)
        found = max(contains(value or "", golds), contains(strip_citation_markers(text), golds))
    citations = list(response.citations) if answered else []
    hits = sum(1 for c in citations if citation_is_evidence(c, example.evidence))
    precision = hits / len(citations) if (example.answerable and example.evidence and citations) else None
    verification = getattr(response, "verification", None)
    timings = getattr(response, "timings_ms", None) or {}
    return QuestionResult(
        id=example.id, question=example.question, answerable=example.answerable, golds=golds, refused=refused,
        answer=text, answer_value=value, exact_match=em, token_f1=f1, contains=found,
        has_evidence=bool(example.answerable and example.evidence), n_citations=len(citations),
        n_evidence_citations=hits, citation_precision=precision, latency_ms=round(latency_ms, 3),
        server_ms=timings.get("total"), verdict=getattr(verification, "verdict", None),
        refusal_reason=getattr(response, "refusal_reason", None) if refused else None, error=error)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(results: Sequence[QuestionResult]) -> dict[str, Any]:
    """Aggregate metrics over per-question results (see the module docstring)."""
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    answered = [r for r in answerable if r.answered]
    cited = [r for r in answered if r.citation_precision is not None]
    with_evidence = [r for r in answered if r.has_evidence]
    latencies = [r.latency_ms for r in results]
    n_citations = sum(r.n_citations for r in cited)
    metrics: dict[str, Any] = {
        "n_questions": len(results), "n_answerable": len(answerable), "n_unanswerable": len(unanswerable),
        "n_answered": len(answered), "n_errors": sum(1 for r in results if r.error is not None),
        "n_truncated": sum(1 for r in results if r.truncated),
        "exact_match": _mean([r.exact_match for r in answerable]),
        "token_f1": _mean([r.token_f1 for r in answerable]),
        "contains": _mean([r.contains for r in answerable]),
        "exact_match_answered": _mean([r.exact_match for r in answered]),
        "token_f1_answered": _mean([r.token_f1 for r in answered]),
        "contains_answered": _mean([r.contains for r in answered]),
        "answer_rate": len(answered) / len(answerable) if answerable else None,
        "refusal_accuracy": _mean([float(r.correct_refusal) for r in unanswerable]),
        "citation_precision": _mean([r.citation_precision for r in cited]),
        "citation_precision_micro": sum(r.n_evidence_citations for r in cited) / n_citations if n_citations else None,
        "evidence_cited_rate": _mean([float(r.n_evidence_citations > 0) for r in with_evidence]),
        "uncited_answers": sum(1 for r in results if r.answered and r.n_citations == 0),
        "latency_ms_p50": percentile(latencies, 50) if latencies else None,
        "latency_ms_p95": percentile(latencies, 95) if latencies else None,
        "latency_ms_mean": _mean(latencies),
        "verdicts": dict(Counter(r.verdict for r in results if r.verdict)),
    }
    return metrics


def evaluate_answers(examples: Iterable[QAExample], answer_fn: Callable[[QAExample], AnswerLike], *,
                     on_result: Callable[[QuestionResult], None] | None = None,
                     clock: Callable[[], float] = time.perf_counter,
                     meta: dict[str, Any] | None = None,
                     max_question_chars: int | None = None) -> AnswerReport:
    """Answer every example with ``answer_fn`` (one at a time), score it and aggregate.

    An exception from ``answer_fn`` is recorded on that question (it counts as neither an answer
    nor a refusal) and the run goes on. A question over ``max_question_chars`` is handed to
    ``answer_fn`` truncated at a word boundary, scored as usual and marked ``truncated``.

    >>> r = evaluate_answers([QAExample("q", "say x " * 5, ("x",), True)],
    ...                      lambda ex: SimpleAnswer(ex.question, "x", False), max_question_chars=16)
    >>> r.results[0].answer, r.results[0].truncated, r.metrics["n_truncated"]
    ('say x say x say', 'question is 30 characters; the limit is 16: truncated at a word boundary to 15 characters', 1)
    """
    results: list[QuestionResult] = []
    for example in examples:
        asked, note = example, None
        if max_question_chars is not None and len(example.question) > max_question_chars:
            asked = dataclasses.replace(example, question=truncate_at_word(example.question, max_question_chars))
            note = truncation_note(len(example.question), len(asked.question), max_question_chars, "question")
        t0 = clock()
        try:
            response, error = answer_fn(asked), None
        except Exception as exc:  # noqa: BLE001 — one failing question must not end the evaluation
            response, error = None, f"{type(exc).__name__}: {exc}"
        result = score_answer(example, response, (clock() - t0) * 1000, error)
        result.truncated = note
        results.append(result)
        if on_result is not None:
            on_result(result)
    return AnswerReport(summarize(results), results, dict(meta or {}))


_SUMMARY_ROWS = [
    ("exact_match", "exact match (answerable)"), ("token_f1", "token F1 (answerable)"),
    ("contains", "contains gold (answerable)"), ("exact_match_answered", "exact match (answered)"),
    ("token_f1_answered", "token F1 (answered)"), ("answer_rate", "answer rate (answerable)"),
    ("refusal_accuracy", "refusal accuracy (unanswerable)"), ("citation_precision", "citation precision"),
    ("citation_precision_micro", "citation precision (micro)"), ("evidence_cited_rate", "evidence cited"),
    ("uncited_answers", "answers without citations"), ("latency_ms_p50", "latency p50 (ms)"),
    ("latency_ms_p95", "latency p95 (ms)"), ("n_errors", "errors"),
    ("n_truncated", "questions truncated to the limit"),
]


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3f}"
    return str(value)


def _cell(text: str | None, limit: int = 80) -> str:
    text = " ".join((text or "").split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_markdown(report: AnswerReport) -> str:
    """A Markdown summary table followed by one row per question.

    >>> from offline.eval.qa_format import QAExample
    >>> r = evaluate_answers([QAExample("q", "Q?", ("x",), True)], lambda ex: SimpleAnswer("x", "x", False))
    >>> print(render_markdown(r).splitlines()[6])
    | exact match (answerable) | 1.000 |
    """
    m = report.metrics
    out = ["# Answer evaluation", "",
           f"{m['n_questions']} questions: {m['n_answerable']} answerable, {m['n_unanswerable']} unanswerable", "",
           "| metric | value |", "|---|---|"]
    out += [f"| {label} | {_fmt(m.get(key))} |" for key, label in _SUMMARY_ROWS]
    if m.get("verdicts"):
        out += ["", "verification verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(m["verdicts"].items()))]
    truncated = [r for r in report.results if r.truncated]
    if truncated:
        out += ["", f"{len(truncated)} question{'s' * (len(truncated) != 1)} over the question limit, asked "
                "truncated at a word boundary and scored like the others:", ""]
        out += [f"- {_cell(r.id)}: {r.truncated}" for r in truncated]
    out += ["", "| id | answerable | outcome | answer | gold | EM | F1 | cites (evidence) | ms |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in report.results:
        outcome = "error" if r.error else ("refused" if r.refused else "answered")
        outcome += " (truncated)" if r.truncated else ""
        shown = r.error or (r.refusal_reason if r.refused else (r.answer_value or strip_citation_markers(r.answer)))
        out.append(f"| {_cell(r.id)} | {'yes' if r.answerable else 'no'} | {outcome} | {_cell(shown)} | "
                   f"{_cell(' / '.join(r.golds), 40)} | {r.exact_match:.0f} | {r.token_f1:.2f} | "
                   f"{r.n_citations} ({r.n_evidence_citations}) | {r.latency_ms:.0f} |")
    return "\n".join(out) + "\n"


def write_report(report: AnswerReport, out_dir: str | Path, stem: str = "answers-report") -> dict[str, Path]:
    """Write ``<stem>.json`` (metrics + every question) and ``<stem>.md`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / f"{stem}.json", "markdown": out / f"{stem}.md"}
    paths["json"].write_text(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    paths["markdown"].write_text(render_markdown(report), encoding="utf-8")
    return paths
