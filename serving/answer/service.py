"""``POST /v1/answer``: analyse → context pack → writer → verifier → (widen and retry) → answer or refuse.

One orchestration for the Serve ingress (LLMs behind deployment handles) and the in-process
pipeline (``strata ask``): :class:`AnswerService` over a :class:`~serving.api.serving.SearchService`
(retrieval, awareness expansion, the query embedder) and an :class:`~serving.llm.client.LLMClient`.

1. **Analysis** — one LLM call (intent, complexity, rephrasings, keywords, HyDE passage, route);
   the rule-based analyser is the fallback and always runs underneath.
2. **Context** — ``/v1/context`` with the hints; passages are numbered ``[1..N]`` in document order
   and trimmed (lowest score first) to the prompt token budget.
3. **Writer** — vLLM structured output (:class:`~serving.answer.forms.WriterForm`); the ``answer``
   field streams as it is generated.
4. **Verifier** — deterministic checks (:mod:`serving.answer.verify`) plus the verifier LLM's judgment.
5. **Retry** — a failed or blank attempt retries with a widened context (``answer.widen``: heading-
   bounded, sliding window, whole section; budget × ``widen_budget_factor``), then **refuses**.

>>> # service = AnswerService(cfg, search_service, LocalLLM.start(cfg))
>>> # (await service.answer(AnswerRequest(question="Which flag makes epoll edge-triggered?"))).answer
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from cluster.config import StrataConfig
from cluster.telemetry.metrics import answer_metrics
from cluster.telemetry.tracing import span
from serving.analysis.llm import LLMHints, analyse_with_llm
from serving.answer.citations import all_cited
from serving.answer.forms import FormError, JudgeForm, WriterForm, parse_form, schema_of
from serving.answer.prompts import judge_messages, writer_messages
from serving.answer.stream import JsonFieldStream
from serving.answer.verify import check_answer, final_verdict
from serving.api.protocol import (
    AnalysisInfo, AnswerRequest, AnswerResponse, AttemptInfo, Citation, ContextRequest, LLMJudgment,
    OverloadedError, Passage, Verification, check_answer_limits,
)
from serving.api.serving import SearchService
from serving.cache import LruCache
from serving.llm.client import LLMClient
from serving.llm.engine import GenerationEvent, PromptTooLong

Emit = Callable[[str, dict], Awaitable[None]]
REFUSAL = "The indexed documents do not contain enough information to answer this question."


def _label(p: Passage) -> str:
    return " > ".join(x for x in (p.path, p.section_path) if x)


def _citation(n: int, p: Passage) -> Citation:
    return Citation(n=n, passage_id=p.passage_id, chunk_id=p.chunk_ids[0] if p.chunk_ids else "",
                    document_id=p.doc_id, path=p.path, title=p.title, section_id=p.section_id,
                    section_path=[s for s in p.section_path.split(" > ") if s], start=p.start, end=p.end,
                    snippet=p.text[:1000])


class AnswerService:
    def __init__(self, cfg: StrataConfig, search: SearchService, llm: LLMClient) -> None:
        self.cfg = cfg
        self.search = search
        self.llm = llm
        self.cache = LruCache(cfg.answer.cache_size)
        self.in_flight = 0
        settings = "|".join(getattr(cfg, name).model_dump_json() for name in ("answer", "retrieval", "awareness", "rerank"))
        self.config_key = hashlib.sha256(settings.encode()).hexdigest()[:16]

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

    # -- public entry points -----------------------------------------------------------------------------
    async def answer(self, request: AnswerRequest) -> AnswerResponse:
        """The whole answer (no streaming)."""
        check_answer_limits(request, self.cfg)
        self.acquire()
        try:
            return await asyncio.wait_for(self._answer(request, None), timeout=self.cfg.answer.timeout_s)
        finally:
            self.release()

    def events(self, request: AnswerRequest, *, acquired: bool = False) -> AsyncIterator[tuple[str, dict]]:
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
                response = await asyncio.wait_for(self._answer(request, emit), timeout=self.cfg.answer.timeout_s)
                await queue.put(("final", response.model_dump(mode="json")))
            except asyncio.TimeoutError:
                await queue.put(("error", {"error": "timeout", "detail": f"no answer within {self.cfg.answer.timeout_s}s"}))
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
    async def _answer(self, request: AnswerRequest, emit: Emit | None) -> AnswerResponse:
        settings = self.cfg.answer
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        version = await self.search.stages.index_version()
        key = (version, self.config_key, " ".join(request.question.lower().split()),
               request.model_dump_json(exclude={"stream", "use_cache", "question"}))
        if request.use_cache and (cached := self.cache.get(key)) is not None:
            if emit is not None and cached.answer:
                await emit("token", {"text": cached.answer})
            return cached.model_copy(update={"cached": True, "timings_ms": {"total": (time.perf_counter() - t0) * 1000}})
        usage = {"prompt_tokens": 0, "completion_tokens": 0}
        metrics = answer_metrics()
        ttft_recorded = False

        def count(role: str, prompt_tokens: int, completion_tokens: int) -> None:
            usage["prompt_tokens"] += prompt_tokens
            usage["completion_tokens"] += completion_tokens
            if metrics is not None:
                model = self.llm.model(role)
                metrics.tokens.inc(prompt_tokens, tags={"model": model, "role": role, "direction": "in"})
                metrics.tokens.inc(completion_tokens, tags={"model": model, "role": role, "direction": "out"})

        with span("answer", question_chars=len(request.question)):
            s = time.perf_counter()
            hints, analysis = await self._analyse(request)
            if hints is not None:
                count("verifier", hints.usage.get("prompt_tokens", 0), hints.usage.get("completion_tokens", 0))
            timings["analyse"] = (time.perf_counter() - s) * 1000
            attempts: list[AttemptInfo] = []
            retries = settings.max_retries if request.max_retries is None else request.max_retries
            budget = request.budget_tokens or settings.budget_tokens
            verification = Verification(verdict="refused", reasons=["no attempt made"])
            context = None
            passages: list[Passage] = []
            form: WriterForm | None = None
            for attempt in range(retries + 1):
                expansion = None if attempt == 0 else settings.widen[min(attempt - 1, len(settings.widen) - 1)]
                attempt_budget = int(budget * settings.widen_budget_factor ** attempt)
                if attempt:
                    if metrics is not None:
                        metrics.retries.inc(tags={"expansion": expansion})
                    if emit is not None:
                        await emit("retry", {"attempt": attempt, "expansion": expansion, "reasons": verification.reasons})
                s = time.perf_counter()
                context = await self.search.context(ContextRequest(
                    query=request.question, top_k=request.top_k or settings.top_k, budget_tokens=attempt_budget,
                    filters=request.filters, expansion=expansion, awareness=True if attempt else None,
                    window=1 + attempt if expansion == "window" else None, use_cache=request.use_cache), hints)
                timings["context"] = timings.get("context", 0.0) + (time.perf_counter() - s) * 1000
                if not context.passages:
                    verification = Verification(verdict="blank", reasons=["retrieval found no passages"])
                    attempts.append(AttemptInfo(attempt=attempt, expansion=expansion or "route", budget_tokens=attempt_budget,
                                                passages=0, verdict="blank", reasons=verification.reasons))
                    break
                passages, trimmed, messages, prompt_tokens = await self._fit(request.question, context.passages)
                s = time.perf_counter()
                try:
                    event = await self._write(messages, emit, t0, record_ttft=not ttft_recorded)
                    ttft_recorded = ttft_recorded or event.ttft_s is not None
                    count("writer", event.prompt_tokens, event.completion_tokens)
                    form = parse_form(WriterForm, event.text)
                except FormError as exc:
                    form = None
                    verification = Verification(verdict="fail", reasons=[f"writer output is not a valid answer form: {exc}"])
                except PromptTooLong as exc:
                    form = None
                    verification = Verification(verdict="fail", reasons=[f"prompt too long even after trimming: {exc}"])
                timings["write"] = timings.get("write", 0.0) + (time.perf_counter() - s) * 1000
                if form is not None:
                    s = time.perf_counter()
                    verification = await self._verify(request.question, form, passages, count)
                    timings["verify"] = timings.get("verify", 0.0) + (time.perf_counter() - s) * 1000
                if metrics is not None:
                    metrics.verifications.inc(tags={"result": verification.verdict})
                attempts.append(AttemptInfo(
                    attempt=attempt, expansion=expansion or "route", budget_tokens=attempt_budget, passages=len(passages),
                    trimmed=trimmed, prompt_tokens=prompt_tokens, verdict=verification.verdict, reasons=verification.reasons))
                if verification.verdict == "pass":
                    break
        timings["total"] = (time.perf_counter() - t0) * 1000
        answered = verification.verdict == "pass" and form is not None
        models = {"writer": self.llm.model("writer"), "verifier": self.llm.model("verifier")}
        common = dict(question=request.question, index_version=context.index_version if context else version,
                      attempts=attempts, route=context.route if context else None, analysis=analysis, models=models,
                      usage=usage, timings_ms={k: round(v, 3) for k, v in timings.items()})
        if answered:
            numbers = [n for n in dict.fromkeys(all_cited(form.answer) + list(form.cited_ids)) if 1 <= n <= len(passages)]
            response = AnswerResponse(answer=form.answer.strip(), answer_value=form.answer_value.strip() or None,
                                      explanation=form.explanation.strip() or None, refused=False,
                                      citations=[_citation(n, passages[n - 1]) for n in sorted(numbers)],
                                      verification=verification, **common)
        else:
            reasons = verification.reasons or ["no supported answer"]
            response = AnswerResponse(answer="", refused=True, refusal_reason=f"{REFUSAL} ({'; '.join(reasons)[:500]})",
                                      verification=verification.model_copy(update={"verdict": "refused"}), **common)
        if metrics is not None:
            outcome = "answered" if answered else "refused"
            metrics.requests.inc(tags={"outcome": outcome})
            metrics.answer_seconds.observe(timings["total"] / 1000, tags={"outcome": outcome})
        self.cache.put(key, response)
        return response

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
        """Drop the lowest-scoring passages until the writer prompt fits its token budget."""
        writer = self.cfg.answer.writer
        limit = min(self.cfg.answer.prompt_budget_tokens, writer.max_model_len - self.cfg.answer.max_answer_tokens)
        kept = list(passages)
        while True:
            messages = writer_messages(question, [p.text for p in kept], [_label(p) for p in kept])
            n = await self.llm.count_tokens("writer", messages)
            if n <= limit or len(kept) <= 1:
                return kept, len(passages) - len(kept), messages, n
            drop = min(range(len(kept)), key=lambda i: kept[i].score)
            kept.pop(drop)

    async def _write(self, messages: list[dict], emit: Emit | None, t0: float, record_ttft: bool) -> GenerationEvent:
        """Run the writer, streaming the ``answer`` field's text to ``emit``; the final event."""
        field = JsonFieldStream("answer")
        last = None
        first = True
        async for event in self.llm.stream("writer", messages, max_tokens=self.cfg.answer.max_answer_tokens,
                                           temperature=self.cfg.answer.temperature, schema=schema_of(WriterForm)):
            last = event
            if event.delta:
                if first and record_ttft:  # the writer's first generated token
                    metrics = answer_metrics()
                    if metrics is not None:
                        metrics.ttft_seconds.observe(time.perf_counter() - t0)
                first = False
                text = field.feed(event.delta)
                if text and emit is not None:
                    await emit("token", {"text": text})
        assert last is not None
        return last

    async def _verify(self, question: str, form: WriterForm, passages: list[Passage], count) -> Verification:
        settings = self.cfg.answer
        texts = [p.text for p in passages]
        verification = await check_answer(form, texts, self.search.stages.embed, settings)
        judgment = LLMJudgment(mode=settings.llm_judge)
        if settings.llm_judge != "off" and verification.verdict == "pass":
            try:
                last = None
                async for event in self.llm.stream("verifier", judge_messages(question, form.answer, texts,
                                                                              [_label(p) for p in passages]),
                                                   max_tokens=160, temperature=0.0, schema=schema_of(JudgeForm)):
                    last = event
                count("verifier", last.prompt_tokens, last.completion_tokens)
                verdict = parse_form(JudgeForm, last.text)
                judgment = LLMJudgment(mode=settings.llm_judge, supported=verdict.supported, reason=verdict.reason)
            except Exception as exc:  # noqa: BLE001 - an unusable judgment is reported, not fatal
                judgment = LLMJudgment(mode=settings.llm_judge, supported=None,
                                       reason=f"judgment failed: {type(exc).__name__}: {str(exc)[:200]}")
        return final_verdict(verification, judgment)
