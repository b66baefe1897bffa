"""``POST /v1/answer``: context pack → writer → verifier → answer, or an honest refusal.

One orchestration for the Serve ingress (LLMs behind deployment handles) and the in-process
pipeline (``strata ask``): :class:`AnswerService` over a :class:`~serving.services.search.SearchService`
(retrieval, rerank, awareness expansion, the query embedder and the cross-encoder stage) and,
for the generative writer, an :class:`~serving.llm.client.LLMClient`.

The writer is ``answer.writer.kind`` (``auto``: generative on GPU writers, else extractive):

* **extractive** — the context pack's best evidence sentences, scored by the cross-encoder
  (:mod:`serving.answer.extractive`), quoted verbatim with their ``[n]`` and a short answer span;
  below the calibrated answerability threshold it refuses. No LLM.
* **llm** — 1. LLM query analysis (rules as the fallback); 2. the context pack, best passages first,
  trimmed to the prompt budget; 3. the writer in plain text with repetition penalties, stopped at
  once when its output degenerates (:mod:`serving.answer.degenerate`); 4. citations attributed
  per sentence to the passage that supports it (:mod:`serving.answer.attribution`), then the
  deterministic verifier (+ the advisory LLM judgment); 5. a blank or failed attempt retries with
  a widened context (``answer.widen``, budget × ``widen_budget_factor``) — a degenerate one does
  not; 6. without a verified answer, the **extractive answerer is the fallback**, then refusal.

>>> # service = AnswerService(cfg, search_service)                  # extractive, no LLM
>>> # service = AnswerService(cfg, search_service, LocalLLM.start(cfg))  # answer.writer.kind = "llm"
>>> # (await service.answer(AnswerRequest(question="Which flag makes epoll edge-triggered?"), tenant="default")).answer
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from cluster.config import StrataConfig
from cluster.telemetry.metrics import answer_metrics
from cluster.telemetry.tracing import span
from serving.analysis.llm import LLMHints, analyse_with_llm
from serving.answer.attribution import attribute
from serving.answer.citations import all_cited, strip_markers
from serving.answer.degenerate import DegenerationGuard, degeneration
from serving.answer.extractive import (
    ExtractiveAnswer,
    ExtractiveAnswerer,
    ScoredSentence,
    header_for,
    resolve_answerability,
)
from serving.answer.forms import JudgeForm, WriterForm
from serving.answer.injection import withhold_instructions
from serving.answer.prompts import is_no_answer, judge_messages, writer_text_messages
from serving.answer.span import answer_span, expected_type, holds_value
from serving.answer.verify import check_answer, final_verdict
from serving.cache import LruCache
from serving.llm.client import LLMClient
from serving.llm.engine import GenerationEvent, PromptTooLong
from serving.llm.forms import parse_form, schema_of
from serving.llm.openai_server import LLMServerError
from serving.protocol import (
    AnalysisInfo,
    AnswerRequest,
    AnswerResponse,
    AttemptInfo,
    Citation,
    ContextRequest,
    ExtractiveInfo,
    LLMJudgment,
    OverloadedError,
    Passage,
    Verification,
    check_answer_limits,
    citation_label,
)
from serving.services.search import SearchService, StageTimer

Emit = Callable[[str, dict], Awaitable[None]]
REFUSAL = "The indexed documents do not contain enough information to answer this question."


def _label(p: Passage) -> str:
    return " > ".join(x for x in (p.path, p.section_path) if x)


def _citation(n: int, p: Passage, quoted: list[ScoredSentence] | None = None) -> Citation:
    """Citation ``[n]`` of passage ``p``; with the sentences an extractive answer quotes from it, the snippet
    runs from just before the first of them to just after the last (at least 1000 characters)."""
    quoted = quoted or []
    begin = max(0, min(s.start for s in quoted) - 200) if quoted else 0
    stop = max([begin + 1000] + [s.end + 100 for s in quoted])
    return Citation(n=n, passage_id=p.passage_id, chunk_id=p.chunk_ids[0] if p.chunk_ids else "",
                    document_id=p.doc_id, path=p.path, title=p.title, section_id=p.section_id,
                    section_path=[s for s in p.section_path.split(" > ") if s], start=p.start, end=p.end,
                    first_page=p.first_page, last_page=p.last_page,
                    label=citation_label(p.path, p.section_path or p.title, p.first_page, p.last_page),
                    snippet=p.text[begin:stop], quotes=[s.text for s in quoted])


class AnswerService:
    def __init__(self, cfg: StrataConfig, search: SearchService, llm: LLMClient | None = None) -> None:
        self.cfg = cfg
        self.search = search
        self.kind = cfg.answer.writer_kind
        if self.kind == "llm" and llm is None:
            raise ValueError("answer.writer.kind resolves to 'llm' but no LLM client was given")
        self.llm = llm
        self.extractive = ExtractiveAnswerer(cfg.answer.extractive, resolve_answerability(cfg), search.stages.rerank)
        verifier = cfg.answer.verifier or cfg.answer.writer
        self.models = ({"writer": cfg.answer.writer.model, "verifier": verifier.model, "fallback": self.extractive_name}
                       if self.kind == "llm" else {"writer": self.extractive_name, "verifier": "deterministic"})
        self.cache = LruCache(cfg.answer.cache_size)
        self.in_flight = 0
        settings = "|".join(getattr(cfg, name).model_dump_json() for name in ("answer", "retrieval", "awareness", "rerank"))
        self.config_key = hashlib.sha256(settings.encode()).hexdigest()[:16]

    @property
    def extractive_name(self) -> str:
        return f"extractive:{self.cfg.rerank.model_dir or self.cfg.rerank.model}"

    # -- admission (429) ---------------------------------------------------------------------------------
    def acquire(self) -> None:
        """Take an answer slot or raise :class:`OverloadedError` (HTTP 429 with Retry-After)."""
        if self.in_flight >= self.cfg.answer.max_concurrent:
            metrics = answer_metrics()
            if metrics is not None:
                metrics.requests.inc(tags={"outcome": "overloaded"})
            raise OverloadedError(f"{self.in_flight} answers in flight (answer.max_concurrent="
                                  f"{self.cfg.answer.max_concurrent}); retry later", self.cfg.answer.retry_after_s)
        self.in_flight += 1

    def release(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)

    def _timeout_message(self) -> str:
        return f"no answer within answer.timeout_s ({self.cfg.answer.timeout_s:g} s)"

    # -- public entry points -----------------------------------------------------------------------------
    async def answer(self, request: AnswerRequest, *, tenant: str) -> AnswerResponse:
        """The whole answer (no streaming), from ``tenant``'s documents only."""
        check_answer_limits(request, self.cfg)
        self.acquire()
        try:
            return await asyncio.wait_for(self._answer(request, None, tenant), timeout=self.cfg.answer.timeout_s)
        except TimeoutError:  # → 504, saying which limit
            raise TimeoutError(self._timeout_message()) from None
        finally:
            self.release()

    def events(self, request: AnswerRequest, *, tenant: str, acquired: bool = False) -> AsyncIterator[tuple[str, dict]]:
        """Start answering now and return the Server-Sent-Event payloads: ``token`` {text}, ``retry``
        {attempt, expansion, reasons}, then ``final`` (the :class:`AnswerResponse`) or ``error``.

        Must be called inside a running event loop. The answer runs as its own task, which gives the
        admission slot back when it ends — also when the client goes away before reading anything
        (closing the returned iterator cancels it). Pass ``acquired`` when :meth:`acquire` was called."""
        if not acquired:
            check_answer_limits(request, self.cfg)
            self.acquire()
        queue: asyncio.Queue = asyncio.Queue()

        async def emit(kind: str, data: dict) -> None:
            await queue.put((kind, data))

        async def run() -> None:
            try:
                response = await asyncio.wait_for(self._answer(request, emit, tenant), timeout=self.cfg.answer.timeout_s)
                await queue.put(("final", response.model_dump(mode="json")))
            except asyncio.TimeoutError:
                await queue.put(("error", {"error": "timeout", "detail": self._timeout_message()}))
            except Exception as exc:  # noqa: BLE001 - reported to the client as an event
                await queue.put(("error", {"error": type(exc).__name__, "detail": str(exc)}))
            finally:
                self.release()
                queue.put_nowait(None)

        task = asyncio.get_running_loop().create_task(run())

        async def drain() -> AsyncIterator[tuple[str, dict]]:
            try:
                while (item := await queue.get()) is not None:
                    yield item
            finally:
                if not task.done():
                    task.cancel()

        return drain()

    # -- the orchestration -------------------------------------------------------------------------------
    async def _answer(self, request: AnswerRequest, emit: Emit | None, tenant: str) -> AnswerResponse:
        t0 = time.perf_counter()
        version = await self.search.stages.index_version(tenant)
        key = (tenant, version, self.config_key, " ".join(request.question.lower().split()),
               request.model_dump_json(exclude={"stream", "use_cache", "question"}))
        if request.use_cache and (cached := self.cache.get(key)) is not None:
            if emit is not None and cached.answer:
                await emit("token", {"text": cached.answer})
            return cached.model_copy(update={"cached": True, "timings_ms": {"total": (time.perf_counter() - t0) * 1000}})
        run = _Run(t0=t0, metrics=answer_metrics(), tenant=tenant,
                   embed=functools.partial(self.search.stages.embed, tenant=tenant))
        with span("answer", question_chars=len(request.question), writer=self.kind):
            if self.kind == "extractive":
                response = await self._extractive_answer(request, emit, run, version)
            else:
                response = await self._generative_answer(request, emit, run, version)
        if run.metrics is not None:
            outcome = "refused" if response.refused else "answered"
            run.metrics.requests.inc(tags={"outcome": outcome})
            run.metrics.answer_seconds.observe(response.timings_ms["total"] / 1000, tags={"outcome": outcome})
        self.cache.put(key, response)
        return response

    async def _context(self, request: AnswerRequest, run: "_Run", *, attempt: int, hints: LLMHints | None = None):
        """The context pack of attempt ``attempt`` (0: the route's; then ``answer.widen`` with a larger budget)."""
        settings = self.cfg.answer
        expansion = None if attempt == 0 else settings.widen[min(attempt - 1, len(settings.widen) - 1)]
        budget = int((request.budget_tokens or settings.budget_tokens) * settings.widen_budget_factor ** attempt)
        with run.stage("context"):
            context = await self.search.context(ContextRequest(
                query=request.question, top_k=request.top_k or settings.top_k, budget_tokens=budget,
                filters=request.filters, expansion=expansion, awareness=True if attempt else None,
                window=1 + attempt if expansion == "window" else None, fill=settings.fill_with_hits,
                use_cache=request.use_cache), hints,
                tenant=run.tenant)
        # sentences that instruct the reader (prompt markup, "ignore previous instructions") are never evidence
        passages = [p.model_copy(update={"text": withhold_instructions(p.text)}) for p in context.passages]
        context = context.model_copy(update={"passages": [p for p in passages if p.text.strip()]})
        return context, expansion or "route", budget

    async def _extract(self, question: str, passages: list[Passage], run: "_Run") -> ExtractiveAnswer:
        with run.stage("extract"):
            return await self.extractive.answer(
                question, [(p.text, header_for(p.path, p.section_path, p.title), p.score, f"{p.path} {p.title or ''}")
                           for p in passages])

    async def _extractive_answer(self, request: AnswerRequest, emit: Emit | None, run: "_Run",
                                 version: str) -> AnswerResponse:
        analysis = AnalysisInfo(source="rules", note="extractive writer: no LLM")
        context, expansion, budget = await self._context(request, run, attempt=0)
        passages = list(context.passages)
        if not passages:
            run.attempts.append(AttemptInfo(attempt=0, expansion=expansion, budget_tokens=budget, passages=0,
                                            verdict="blank", reasons=["retrieval found no passages"]))
            return self._refusal(request, run, context, version, analysis, ["retrieval found no passages"])
        extracted = await self._extract(request.question, passages, run)
        return await self._finish_extractive(request, emit, run, context, version, analysis, passages, extracted,
                                             expansion=expansion, budget=budget, attempt=0)

    async def _finish_extractive(self, request, emit, run, context, version, analysis, passages, extracted, *,
                                 expansion: str, budget: int, attempt: int, note: str | None = None) -> AnswerResponse:
        """Verify an extractive answer and build the response (answer or refusal)."""
        note = "; ".join(n for n in (note, extracted.note) if n) or None
        info = ExtractiveInfo(score=extracted.score, threshold=extracted.threshold, features=extracted.features,
                              answerable=extracted.answerable, sentences_scored=extracted.scored, note=note)
        if not extracted.answerable:
            shown = "n/a" if extracted.score is None else f"{extracted.score:.2f}"
            reason = (f"no sentence of the {len(passages)} passages answers the question well enough "
                      f"(answerability {shown} < threshold {extracted.threshold:.2f})")
            if extracted.unquotable and not extracted.missing_anchors:
                reason = (f"no sentence of the {len(passages)} passages can be quoted as an answer (a sentence "
                          "that asks, or counts something other than what the question counts, is never quoted)")
            if extracted.missing_anchors:
                reason = (f"the {len(passages)} passages do not mention {', '.join(extracted.missing_anchors)} "
                          "together with an answer (each sentence's passage must name every proper name, "
                          "identifier and figure of the question)")
            run.attempts.append(AttemptInfo(attempt=attempt, expansion=expansion, budget_tokens=budget,
                                            passages=len(passages), verdict="blank", reasons=[reason]))
            if run.metrics is not None:
                run.metrics.verifications.inc(tags={"result": "blank"})
            return self._refusal(request, run, context, version, analysis, [reason], extractive=info)
        with run.stage("verify"):
            verification = await check_answer(_form(extracted.answer, extracted.answer_value or ""),
                                              [p.text for p in passages], run.embed, self.cfg.answer)
        run.attempts.append(AttemptInfo(attempt=attempt, expansion=expansion, budget_tokens=budget,
                                        passages=len(passages), verdict=verification.verdict,
                                        reasons=verification.reasons))
        if run.metrics is not None:
            run.metrics.verifications.inc(tags={"result": verification.verdict})
        if verification.verdict != "pass":
            return self._refusal(request, run, context, version, analysis, verification.reasons, extractive=info,
                                 verification=verification)
        if emit is not None:
            await emit("token", {"text": extracted.answer})
        return self._answered(request, run, context, version, analysis, extracted.answer, extracted.answer_value,
                              passages, verification, writer="extractive", extractive=info,
                              explanation="quoted from the passages (extractive answer)"
                                          + (f"; {extracted.note}" if extracted.note else ""), quoted=extracted.sentences)

    async def _generative_answer(self, request: AnswerRequest, emit: Emit | None, run: "_Run",
                                 version: str) -> AnswerResponse:
        settings = self.cfg.answer
        with run.stage("analyse"):
            hints, analysis = await self._analyse(request)
        if hints is not None:
            run.count(self.llm, "verifier", hints.usage.get("prompt_tokens", 0), hints.usage.get("completion_tokens", 0))
        retries = settings.max_retries if request.max_retries is None else request.max_retries
        verification = Verification(verdict="refused", reasons=["no attempt made"])
        context = first = None
        passages: list[Passage] = []
        for attempt in range(retries + 1):
            if attempt:
                expansion = settings.widen[min(attempt - 1, len(settings.widen) - 1)]
                if run.metrics is not None:
                    run.metrics.retries.inc(tags={"expansion": expansion})
                if emit is not None:
                    await emit("retry", {"attempt": attempt, "expansion": expansion, "reasons": verification.reasons})
            context, expansion, budget = await self._context(request, run, attempt=attempt, hints=hints)
            first = first or context
            if not context.passages:
                verification = Verification(verdict="blank", reasons=["retrieval found no passages"])
                run.attempts.append(AttemptInfo(attempt=attempt, expansion=expansion, budget_tokens=budget,
                                                passages=0, verdict="blank", reasons=verification.reasons))
                break
            passages, trimmed, messages, prompt_tokens = await self._fit(request.question, context.passages)
            degenerate = None
            server_failed = False
            with run.stage("write"):
                try:
                    event, degenerate = await self._write(messages, emit, run)
                    run.count(self.llm, "writer", event.prompt_tokens or prompt_tokens, event.completion_tokens)
                    text = event.text.strip()
                except PromptTooLong as exc:
                    text = ""
                    verification = Verification(verdict="fail", reasons=[f"prompt too long even after trimming: {exc}"])
                except LLMServerError as exc:  # the OpenAI-compatible server failed after its own retries
                    text, server_failed = "", True
                    verification = Verification(verdict="fail", reasons=[str(exc)[:500]])
            if degenerate is not None:
                verification = Verification(verdict="fail", reasons=[f"degenerate writer output dropped: {degenerate}"])
            elif text and is_no_answer(text):
                verification = Verification(verdict="blank", reasons=["the writer found no answer in the passages"])
            elif text and (kind := expected_type(request.question)) and not holds_value(request.question, text):
                verification = Verification(verdict="fail", reasons=[f"the answer names no {kind} although the "
                                                                     "question asks for one"])
            elif text:
                with run.stage("verify"):
                    attributed = await attribute(text, [p.text for p in passages], run.embed,
                                                 lexical_weight=settings.lexical_weight,
                                                 min_support=settings.min_support)
                    value = answer_span(request.question, [strip_markers(attributed.answer)]) or ""
                    form = _form(attributed.answer, value)
                    verification = await self._verify(request.question, form, passages, run)
            if run.metrics is not None:
                run.metrics.verifications.inc(tags={"result": verification.verdict})
            run.attempts.append(AttemptInfo(
                attempt=attempt, expansion=expansion, budget_tokens=budget, passages=len(passages),
                trimmed=trimmed, prompt_tokens=prompt_tokens, verdict=verification.verdict, reasons=verification.reasons))
            if verification.verdict == "pass":
                return self._answered(request, run, context, version, analysis, form.answer, form.answer_value or None,
                                      passages, verification, writer="llm")
            if degenerate is not None or server_failed:
                break  # a looping model loops again, a failed server was already retried: no retries spent on it
        # The generative writer did not produce a verified answer: the extractive answerer is the fallback,
        # on the first attempt's context (the one its answerability threshold was calibrated on).
        if first is None or not first.passages:
            return self._refusal(request, run, context, version, analysis, verification.reasons)
        context = first
        passages = list(context.passages)
        extracted = await self._extract(request.question, passages, run)
        if emit is not None:
            await emit("retry", {"attempt": len(run.attempts), "expansion": "extractive", "reasons": verification.reasons})
        note = "fallback after the generative writer failed: " + "; ".join(verification.reasons)[:300]
        return await self._finish_extractive(request, emit, run, context, version, analysis, passages, extracted,
                                             expansion="extractive", budget=run.attempts[0].budget_tokens,
                                             attempt=len(run.attempts), note=note)

    # -- responses -------------------------------------------------------------------------------------------
    def _common(self, request: AnswerRequest, run: "_Run", context, version: str, analysis: AnalysisInfo) -> dict:
        run.timings["total"] = (time.perf_counter() - run.t0) * 1000
        return dict(question=request.question, index_version=context.index_version if context else version,
                    attempts=run.attempts, route=context.route if context else None, analysis=analysis,
                    models=self.models, usage=run.usage, timings_ms={k: round(v, 3) for k, v in run.timings.items()})

    def _answered(self, request, run, context, version, analysis, answer: str, value: str | None,
                  passages: list[Passage], verification: Verification, *, writer: str,
                  extractive: "ExtractiveInfo | None" = None, explanation: str | None = None,
                  quoted: list[ScoredSentence] | None = None) -> AnswerResponse:
        quoted = quoted or []
        numbers = [n for n in all_cited(answer) if 1 <= n <= len(passages)]
        return AnswerResponse(answer=answer.strip(), answer_value=(value or "").strip() or None,
                              explanation=explanation, refused=False, writer=writer, extractive=extractive,
                              citations=[_citation(n, passages[n - 1], [s for s in quoted if s.n == n])
                                         for n in sorted(set(numbers))],
                              verification=verification, **self._common(request, run, context, version, analysis))

    def _refusal(self, request, run, context, version, analysis, reasons: list[str], *,
                 extractive: "ExtractiveInfo | None" = None,
                 verification: Verification | None = None) -> AnswerResponse:
        reasons = reasons or ["no supported answer"]
        verification = (verification or Verification(verdict="refused", reasons=reasons)).model_copy(
            update={"verdict": "refused", "reasons": reasons})
        return AnswerResponse(answer="", refused=True, refusal_reason=f"{REFUSAL} ({'; '.join(reasons)[:500]})",
                              writer=self.kind, extractive=extractive, verification=verification,
                              **self._common(request, run, context, version, analysis))

    async def _analyse(self, request: AnswerRequest) -> tuple[LLMHints | None, AnalysisInfo]:
        use_llm = self.cfg.answer.llm_analysis if request.llm_analysis is None else request.llm_analysis
        if not use_llm:
            return None, AnalysisInfo(source="rules", note="LLM analysis off")
        try:
            hints = await analyse_with_llm(request.question, self.llm)
        except Exception as exc:  # noqa: BLE001 - any failure falls back to the rules
            return None, AnalysisInfo(source="rules", note=f"LLM analysis failed: {type(exc).__name__}: {str(exc)[:200]}")
        return hints, AnalysisInfo(source="llm", intent=hints.intent, complexity=hints.complexity,
                                   rephrasings=hints.rephrasings, hyde=bool(hints.hypothetical_passage.strip()),
                                   route=hints.route)

    async def _fit(self, question: str, passages: list[Passage]) -> tuple[list[Passage], int, list[dict], int]:
        """The best passages first, dropping the lowest-scoring ones until the prompt fits its budget."""
        writer = self.cfg.answer.writer
        limit = min(self.cfg.answer.prompt_budget_tokens, writer.max_model_len - self.cfg.answer.max_answer_tokens)
        kept = sorted(passages, key=lambda p: -p.score)
        while True:
            messages = writer_text_messages(question, [p.text for p in kept], [_label(p) for p in kept])
            n = await self.llm.count_tokens("writer", messages)
            if n <= limit or len(kept) <= 1:
                return kept, len(passages) - len(kept), messages, n
            kept.pop()

    async def _write(self, messages: list[dict], emit: Emit | None, run: "_Run") -> tuple[GenerationEvent, str | None]:
        """Run the writer (plain text), streaming it to ``emit``; stops at once when the output degenerates.
        Returns the final event and the degeneration reason (None when the text is fine)."""
        guard = DegenerationGuard()
        parts: list[str] = []
        reason = None
        last = None
        stream = self.llm.stream("writer", messages, max_tokens=self.cfg.answer.max_answer_tokens,
                                 temperature=self.cfg.answer.temperature)
        try:
            async for event in stream:
                last = event
                if event.delta:
                    if not run.ttft_recorded:  # the writer's first generated token
                        run.ttft_recorded = True
                        if run.metrics is not None:
                            run.metrics.ttft_seconds.observe(time.perf_counter() - run.t0)
                    parts.append(event.delta)
                    if (reason := guard.feed(event.delta)) is not None:
                        break
                    if emit is not None:
                        await emit("token", {"text": event.delta})
        finally:
            await stream.aclose()  # ends the generation (vLLM aborts the request) when we stopped early
        text = "".join(parts)
        if reason is None:
            reason = degeneration(text)
        if last is None or not last.done:
            last = GenerationEvent(delta="", done=True, text=text, completion_tokens=len(parts))
        return last, reason

    async def _verify(self, question: str, form: WriterForm, passages: list[Passage], run: "_Run") -> Verification:
        settings = self.cfg.answer
        texts = [p.text for p in passages]
        verification = await check_answer(form, texts, run.embed, settings)
        judgment = LLMJudgment(mode=settings.llm_judge)
        if settings.llm_judge != "off" and verification.verdict == "pass":
            try:
                last = None
                async for event in self.llm.stream("verifier", judge_messages(question, form.answer, texts,
                                                                              [_label(p) for p in passages]),
                                                   max_tokens=160, temperature=0.0, schema=schema_of(JudgeForm)):
                    last = event
                run.count(self.llm, "verifier", last.prompt_tokens, last.completion_tokens)
                verdict = parse_form(JudgeForm, last.text)
                judgment = LLMJudgment(mode=settings.llm_judge, supported=verdict.supported, reason=verdict.reason)
            except Exception as exc:  # noqa: BLE001 - an unusable judgment is reported, not fatal
                judgment = LLMJudgment(mode=settings.llm_judge, supported=None,
                                       reason=f"judgment failed: {type(exc).__name__}: {str(exc)[:200]}")
        return final_verdict(verification, judgment)


def _form(answer: str, value: str) -> WriterForm:
    """An answer in the verifier's form (built, not validated: quoted sentences may hold brackets or quotes)."""
    return WriterForm.model_construct(answer=answer, answer_value=value, cited_ids=all_cited(answer),
                                      explanation="", is_blank=False)


@dataclass
class _Run:
    """What one answer request accumulates: timings, token usage, attempts."""

    t0: float
    metrics: object | None
    tenant: str  # whose documents the answer is built from (every context call and cache key uses it)
    embed: Callable[[list[str]], Awaitable[list]]  # the embedding stage, cached per tenant
    timer: StageTimer = field(default_factory=StageTimer)
    usage: dict[str, int] = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    attempts: list[AttemptInfo] = field(default_factory=list)
    ttft_recorded: bool = False

    @property
    def timings(self) -> dict[str, float]:
        return self.timer.ms

    def stage(self, name: str):
        return self.timer.stage(name)

    def count(self, llm: LLMClient, role: str, prompt_tokens: int, completion_tokens: int) -> None:
        self.usage["prompt_tokens"] += prompt_tokens
        self.usage["completion_tokens"] += completion_tokens
        if self.metrics is not None:
            model = llm.model(role)
            for n, direction in ((prompt_tokens, "in"), (completion_tokens, "out")):
                if n > 0:  # Ray counters refuse 0
                    self.metrics.tokens.inc(n, tags={"model": model, "role": role, "direction": direction})
