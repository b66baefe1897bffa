"""``strata eval answers``: a QA set through the answer pipeline, scored and reported.

    strata eval answers bench/data/answers-dev.jsonl --out /tmp/answers   # in-process AnswerPipeline
    strata eval answers bench/data/answers-dev.jsonl --url http://127.0.0.1:8000   # a running app

Every question is asked with ``use_cache=false`` (the answer cache would hide the real latency). A
question over ``retrieval.max_query_chars`` (the service's limit; with ``--url``, this configuration's
value) is asked truncated at a word boundary, and the report counts and names it (``n_truncated``,
each result's ``truncated``) instead of the whole run, or that question, failing on the limit.

>>> # report, paths = run_answer_eval(cfg, Path("bench/data/answers-dev.jsonl"), max_questions=5)
>>> # report.metrics["exact_match"], paths["markdown"]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cluster.config import StrataConfig
from offline.eval.answers import AnswerReport, QuestionResult, evaluate_answers, write_report
from offline.eval.qa_format import QAExample, load_qa

__all__ = ["HttpAnswerClient", "default_out_dir", "run_answer_eval"]

Progress = Callable[[str], None]


def default_out_dir(cfg: StrataConfig, qa_path: Path) -> Path:
    """``<storage.data_dir>/eval/answers-<QA file stem>``."""
    return Path(cfg.storage.data_dir).expanduser() / "eval" / f"answers-{qa_path.name.split('.')[0]}"


class HttpAnswerClient:
    """``.answer(AnswerRequest)`` over ``POST <url>/v1/answer`` of a running Strata app."""

    def __init__(self, url: str, timeout_s: float = 900.0) -> None:
        import httpx

        self.endpoint = url.rstrip("/") + "/v1/answer"
        self.client = httpx.Client(timeout=timeout_s)

    def answer(self, request):
        from serving.protocol import AnswerResponse

        reply = self.client.post(self.endpoint, json=request.model_dump(mode="json", exclude_none=True))
        if reply.status_code != 200:
            raise RuntimeError(f"HTTP {reply.status_code}: {reply.text[:300]}")
        return AnswerResponse.model_validate(reply.json())

    def close(self) -> None:
        self.client.close()


def _writer_settings(cfg: StrataConfig) -> dict[str, Any] | None:
    writer = getattr(getattr(cfg, "answer", None), "writer", None)
    return writer.model_dump(mode="json") if writer is not None else None


def _line(result: QuestionResult, position: int, total: int) -> str:
    if result.error:
        outcome = f"error: {result.error}"
    elif result.refused:
        outcome = "refused" + ("" if result.answerable else " (correct)")
    else:
        shown = (result.answer_value or result.answer or "").replace("\n", " ")[:60]
        outcome = f"EM {result.exact_match:.0f} F1 {result.token_f1:.2f} cites {result.n_evidence_citations}/" \
                  f"{result.n_citations}: {shown}"
    note = f"; {result.truncated}" if result.truncated else ""
    return f"[{position}/{total}] {result.id}: {outcome} ({result.latency_ms:.0f} ms{note})"


def run_answer_eval(cfg: StrataConfig, qa_path: Path, *, out_dir: Path | None = None,
                    max_questions: int | None = None, progress: Progress | None = None,
                    pipeline: Any | None = None, url: str | None = None,
                    tenant: str = "default") -> tuple[AnswerReport, dict[str, Path]]:
    """Load the QA set, answer every question with ``pipeline`` (default: :class:`HttpAnswerClient`
    for ``url``, else a new ``serving.services.local.AnswerPipeline(cfg, tenant=tenant)``; closed afterwards), write
    ``answers-report.json`` and ``.md`` into ``out_dir``; returns the report and the written paths."""
    say = progress or (lambda _line: None)
    examples: list[QAExample] = load_qa(qa_path)
    if max_questions is not None:
        examples = examples[:max_questions]
    owned = pipeline is None
    if owned and url:
        pipeline = HttpAnswerClient(url)
    elif owned:
        from serving.services.local import AnswerPipeline

        pipeline = AnswerPipeline(cfg, tenant=tenant)
    from serving.protocol import AnswerRequest

    def answer(example: QAExample):
        return pipeline.answer(AnswerRequest(question=example.question, use_cache=False))

    counter = iter(range(1, len(examples) + 1))
    limit = cfg.retrieval.max_query_chars
    over = [e.id for e in examples if len(e.question) > limit]
    say(f"{len(examples)} questions from {qa_path}"
        + (f"; {len(over)} over the {limit}-character limit, asked truncated at a word boundary: "
           + ", ".join(over[:5]) + (", …" if len(over) > 5 else "") if over else ""))
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    try:
        report = evaluate_answers(examples, answer, on_result=lambda r: say(_line(r, next(counter), len(examples))),
                                  meta={"qa_file": str(qa_path), "started": started, "max_questions": max_questions,
                                        "data_dir": str(cfg.storage.data_dir), "url": url, "tenant": tenant,
                                        "writer": _writer_settings(cfg), "max_question_chars": limit},
                                  max_question_chars=limit)
    finally:
        if owned and hasattr(pipeline, "close"):
            pipeline.close()
    paths = write_report(report, out_dir or default_out_dir(cfg, qa_path))
    return report, paths
