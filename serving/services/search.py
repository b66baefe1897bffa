"""The query service: orchestrates the stages for each endpoint and builds the responses.

Written once over the :class:`~serving.services.stages.Stages` interface: the Serve ingress runs it with
deployment handles, :class:`serving.services.local.SearchPipeline` with in-process stages.

Every endpoint acts for one tenant, given explicitly (``tenant=``, no default; the HTTP handlers pass
:func:`serving.api.tenancy.request_tenant`): retrieval, expansion and navigation read that tenant's
index only, and the result cache is keyed by the tenant as well as the index version and request.

>>> # service = SearchService(cfg, LocalStages(cfg))
>>> # await service.search(SearchRequest(query="venv"), tenant="default")
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from cluster.config import StrataConfig
from cluster.telemetry.metrics import query_metrics
from cluster.telemetry.tracing import span
from cluster.redact import public_source
from cluster.store.lance_store import LanceStore
from cluster.tenants import DEFAULT_TENANT, list_tenants, tenant_config
from serving.analysis import QueryPlan, analyse_query
from serving.analysis.llm import LLMHints
from serving.analysis.measure_names import statement_words
from serving.answer.span import asks_measure
from serving.cache import LruCache
from serving.expansion.awareness import ExpansionSettings
from serving.index.handle import IndexHandle, IndexNotReady
from serving.protocol import (
    ContextRequest,
    ContextResponse,
    DocumentDetail,
    DocumentInfo,
    DocumentList,
    Passage,
    Reason,
    RouteInfo,
    SearchHit,
    SearchRequest,
    SearchResponse,
    SectionDetail,
    SectionMatch,
    SectionNode,
    check_limits,
)
from serving.rerank.combine import interpolate, rerank_order
from serving.rerank.text import passage_text
from serving.retrieval.hybrid import Candidate
from serving.services.stages import Stages

RERANK_OFF_NOTE = ("cross-encoder reranking is off (the default, rerank.enabled = false: the shipped model helps on "
                   "SciFact-like text and hurts elsewhere), or the request set rerank=false; ask with rerank=true")


class NotFound(LookupError):
    """An unknown document or section id (answered with 404)."""


class StageTimer:
    """Milliseconds per named stage (``with timer.stage("embed"): …``), summed over repeats."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] = self.ms.get(name, 0.0) + (time.perf_counter() - t0) * 1000


def _node(row: dict) -> SectionNode:
    return SectionNode(section_id=row["section_id"], doc_id=row["doc_id"], parent_id=row["parent_id"],
                       level=row["level"], ordinal=row["ordinal"], title=row["title"] or "", path=list(row["path"] or []),
                       start=row["start"], end=row["end"], n_tokens=row["n_tokens"], n_chunks=row["n_chunks"],
                       summary=row["summary"] or "")


def _document_info(row: dict) -> DocumentInfo:
    ingested = row.get("ingested_at")
    return DocumentInfo(doc_id=row["doc_id"], source=public_source(row["source"]), path=row["path"] or "",
                        title=row["title"] or "", format=row["format"] or "", n_sections=row["n_sections"] or 0,
                        n_chunks=row["n_chunks"] or 0, n_tokens=row["n_tokens"] or 0,
                        ingested_at=ingested.isoformat() if ingested is not None else None)


class SearchService:
    def __init__(self, cfg: StrataConfig, stages: Stages, index: IndexHandle | None = None) -> None:
        self.cfg = cfg
        self.stages = stages
        self.index = index or IndexHandle(cfg)
        self.results = LruCache(cfg.serve.result_cache_size)

    # -- shared front half: analyse → embed → retrieve → rerank --------------------------------------
    async def _retrieve(self, request: SearchRequest, timer: StageTimer, hints: LLMHints | None = None, *,
                        tenant: str) -> tuple[QueryPlan, dict, list[Candidate], dict, object, bool]:
        with timer.stage("analyse"):
            plan = analyse_query(request, self.cfg, hints, amount=asks_measure(request.query))
        rerank = self.cfg.rerank.enabled if request.rerank is None else request.rerank
        texts = plan.texts_to_embed()
        depth = max(request.top_k, self.cfg.rerank.top_n if rerank else 0)
        with timer.stage("retrieve"):  # embed + retrieve in one call (the embedding's time comes back as "embed")
            vectors, retrieved = await self.stages.embed_retrieve(plan, texts, request.filters, depth, tenant)
        timer.ms["retrieve"] -= retrieved.result.timings_ms.get("embed", 0.0)  # reported as its own stage below
        result, rows = retrieved.result, retrieved.rows
        for name, value in result.timings_ms.items():
            timer.ms[name] = timer.ms.get(name, 0.0) + value
        candidates = [c for c in result.candidates if c.chunk_id in rows] + \
            [c for c in result.candidates[depth:]]
        if rerank and candidates:
            top = candidates[: self.cfg.rerank.top_n]
            with timer.stage("rerank"):
                scores = await self.stages.rerank(plan.query, [passage_text(rows[c.chunk_id]) for c in top])
            combined = interpolate([c.score for c in top], scores, weight=self.cfg.rerank.weight)
            order = rerank_order([c.score for c in top], scores, weight=self.cfg.rerank.weight)
            for c, s, v in zip(top, scores, combined):
                c.scores["rerank"] = s
                c.score = v
            for new_rank, i in enumerate(order, start=1):
                top[i].ranks["rerank"] = new_rank
            candidates = [top[i] for i in order] + candidates[len(top):]
        return plan, vectors, candidates, rows, result, rerank

    def _route_info(self, plan: QueryPlan, result, rerank: bool) -> RouteInfo:
        return RouteInfo(route=plan.route, reasons=plan.reasons, targets=[t.text for t in plan.targets],
                         variants=[v.text for t in plan.targets for v in t.variants[1:]],
                         identifiers=plan.identifiers, hyde=result.hyde, fusion=plan.fusion,
                         bm25_weight=result.bm25_shares[0] if result.bm25_shares else plan.bm25_weight,
                         fusion_note=result.fusion_note, rerank=rerank,
                         rerank_note=None if rerank else RERANK_OFF_NOTE)

    def _cache_key(self, tenant: str, version: str, request: SearchRequest) -> tuple:
        return tenant, version, type(request).__name__, request.model_dump_json(exclude={"use_cache"})

    def _record(self, plan_route: str, timer: StageTimer, counts: dict[str, int]) -> None:
        metrics = query_metrics()
        if metrics is None:
            return
        metrics.routes.inc(tags={"route": plan_route})
        for stage, ms in timer.ms.items():
            metrics.stage_seconds.observe(ms / 1000, tags={"stage": stage, "route": plan_route})
        for stage, n in counts.items():
            metrics.candidates.observe(n, tags={"stage": stage})

    def _cached(self, key: tuple):
        hit = self.results.get(key)
        metrics = query_metrics()
        if metrics is not None:
            metrics.cache_requests.inc(tags={"cache": "result", "result": "hit" if hit is not None else "miss"})
        return hit

    # -- endpoints --------------------------------------------------------------------------------------
    async def search(self, request: SearchRequest, *, tenant: str) -> SearchResponse:
        """``POST /v1/search`` over ``tenant``'s documents."""
        check_limits(request, self.cfg)
        timer = StageTimer()
        t0 = time.perf_counter()
        version = self.index.version(tenant)
        key = self._cache_key(tenant, version, request)
        if request.use_cache and (cached := self._cached(key)) is not None:
            return cached.model_copy(update={"cached": True, "timings_ms": {"total": (time.perf_counter() - t0) * 1000}})
        with span("query.search", route=request.mode):
            plan, _, candidates, rows, result, rerank = await self._retrieve(request, timer, tenant=tenant)
        hits = []
        for rank, c in enumerate(candidates[: request.top_k], start=1):
            row = rows.get(c.chunk_id)
            if row is None:
                continue
            hits.append(SearchHit(rank=rank, chunk_id=c.chunk_id, doc_id=c.doc_id, source=public_source(row["source"]),
                                  path=row["path"], title=row["title"] or "", section_id=row["section_id"],
                                  section_path=row["section_path"] or "", ordinal=row["ordinal"], start=row["start"],
                                  end=row["end"], n_tokens=row["n_tokens"], text=row["text"],
                                  first_page=row.get("first_page"), last_page=row.get("last_page"), score=c.score,
                                  scores=c.scores, ranks=c.ranks, target=c.target if len(plan.targets) > 1 else None))
        timer.ms["total"] = (time.perf_counter() - t0) * 1000
        counts = {**result.counts, "returned": len(hits)}
        response = SearchResponse(
            query=request.query, index_version=result.index_version or version, route=self._route_info(plan, result, rerank),
            hits=hits, sections=[SectionMatch(section_id=s.section_id, doc_id=s.doc_id, title=s.title or "",
                                              path=s.path or "", score=s.score, target=s.target)
                                 for s in result.sections],
            candidates=counts, timings_ms={k: round(v, 3) for k, v in timer.ms.items()})
        self._record(plan.route, timer, counts)
        self.results.put(self._cache_key(tenant, response.index_version, request), response)
        return response

    async def context(self, request: ContextRequest, hints: LLMHints | None = None, *, tenant: str) -> ContextResponse:
        """``POST /v1/context`` over ``tenant``'s documents (``hints``: the LLM's query analysis, from the
        answer path)."""
        check_limits(request, self.cfg)
        timer = StageTimer()
        t0 = time.perf_counter()
        version = self.index.version(tenant)
        key = self._cache_key(tenant, version, request) + ((repr(hints),) if hints is not None else ())
        if request.use_cache and (cached := self._cached(key)) is not None:
            return cached.model_copy(update={"cached": True, "timings_ms": {"total": (time.perf_counter() - t0) * 1000}})
        with span("query.context", route=request.mode):
            plan, vectors, candidates, _, result, rerank = await self._retrieve(request, timer, hints, tenant=tenant)
            expand = plan.awareness or request.expansion is not None
            amount = self.cfg.awareness.amount_hits_first and asks_measure(request.query)
            settings = ExpansionSettings.from_config(
                self.cfg, budget_tokens=request.budget_tokens, top_k=request.top_k, mode=request.expansion,
                window=request.window, awareness=plan.awareness, fill_with_hits=request.fill,
                min_hits_per_target=request.top_k if amount else None)  # a figure's row before the expansion
            # a long hit's excerpt is its window sharing most words with the target's texts and the statement's
            # words for its measures: "capex" is quoted by its "Capital expenditures" row, "R&D" by "Research and ..."
            settings.window_queries = {t.text: " ".join(dict.fromkeys([v.text for v in t.variants] + [statement_words(t.text)]))
                                       for t in plan.targets}
            if not expand:
                settings.window = 0
                settings.mode = "window"
            targets = {t.text: t.variants[0].text for t in plan.targets}
            with timer.stage("expand"):
                expanded = await self.stages.expand(candidates, result.sections, vectors, targets, settings, tenant)
        docs: dict[str, dict] = {}
        missing = {p.doc_id for p in expanded.passages if "path" not in p.meta}
        if missing:
            view = self.index.get(tenant)
            docs = {d: view.document(d) or {} for d in missing}
        passages = []
        for p in expanded.passages:
            meta = {**{k: docs.get(p.doc_id, {}).get(k) for k in ("source", "path", "title")}, **p.meta}
            passages.append(Passage(
                passage_id=p.passage_id, doc_id=p.doc_id, source=public_source(meta.get("source")),
                path=meta.get("path") or "",
                title=meta.get("title") or "", section_id=p.section_id, section_path=meta.get("section_path") or "",
                start=p.start, end=p.end, n_tokens=p.n_tokens, chunk_ids=p.chunk_ids, text=p.text,
                first_page=p.first_page, last_page=p.last_page, score=p.score,
                reasons=[Reason(**r) for r in p.reasons]))
        timer.ms["total"] = (time.perf_counter() - t0) * 1000
        counts = {**result.counts, **{f"pack_{k}": v for k, v in expanded.counts.items()}, "passages": len(passages)}
        response = ContextResponse(
            query=request.query, index_version=result.index_version or version,
            route=self._route_info(plan, result, rerank), budget_tokens=settings.budget_tokens,
            used_tokens=expanded.used_tokens, passages=passages, dropped=expanded.dropped,
            timings_ms={k: round(v, 3) for k, v in timer.ms.items()})
        self._record(plan.route, timer, counts)
        self.results.put(self._cache_key(tenant, response.index_version, request)
                         + ((repr(hints),) if hints is not None else ()), response)
        return response

    async def documents(self, *, offset: int, limit: int, source: str | None, tenant: str) -> DocumentList:
        """``tenant``'s documents, one page (of the latest committed version)."""
        version = self.index.latest(tenant)
        total, rows = self.index.get(tenant).documents(offset=offset, limit=limit, source=source)
        return DocumentList(index_version=version, total=total, offset=offset, limit=limit,
                            documents=[_document_info(r) for r in rows])

    async def document(self, doc_id: str, *, tenant: str) -> DocumentDetail:
        """One of ``tenant``'s documents (:class:`NotFound` for an id of no document of this tenant), as
        committed now: a deleted document is gone, a finished upload is there."""
        self.index.latest(tenant)
        view = self.index.get(tenant)
        row = view.document(doc_id)
        if row is None:
            raise NotFound(f"no document {doc_id!r}")
        nodes = {r["section_id"]: _node(r) for r in view.sections_of_documents([doc_id])}
        roots = []
        for node in sorted(nodes.values(), key=lambda n: n.ordinal):
            parent = nodes.get(node.parent_id) if node.parent_id else None
            (parent.children if parent is not None else roots).append(node)
        return DocumentDetail(**_document_info(row).model_dump(), sections=roots)

    async def section(self, section_id: str, *, tenant: str) -> SectionDetail:
        """A section of one of ``tenant``'s documents (:class:`NotFound` otherwise), as committed now."""
        self.index.latest(tenant)
        view = self.index.get(tenant)
        row = view.sections_by_id([section_id]).get(section_id)
        if row is None:
            raise NotFound(f"no section {section_id!r}")
        ancestors = []
        parent_id = row["parent_id"]
        while parent_id:
            parent = view.sections_by_id([parent_id]).get(parent_id)
            if parent is None:
                break
            ancestors.insert(0, _node(parent))
            parent_id = parent["parent_id"]
        siblings = [_node(s) for s in view.children_of([row["parent_id"]]) if s["section_id"] != section_id] \
            if row["parent_id"] else []
        chunks = view.chunks_of_sections([section_id])
        return SectionDetail(section=_node(row), parent=ancestors[-1] if ancestors else None, ancestors=ancestors,
                             children=[_node(c) for c in view.children_of([section_id])], siblings=siblings,
                             text=view.section_text(section_id), chunk_ids=[c["chunk_id"] for c in chunks])

    async def ready(self) -> dict[str, str]:
        """What each stage reports (raises if one is not up). Which tenants can be served: :meth:`tenants`."""
        return await self.stages.ready()

    def tenants(self) -> dict[str, dict[str, str]]:
        """Each tenant's index (``<data_dir>/tenants/*`` and the default tenant): ``{"status": "ready"}``
        (with ``index_version`` once open here), ``"no index"`` (503 for its requests until an ingest
        creates it) or ``"unavailable"`` (with the reason, e.g. an index of another embedder)."""
        opened = set(self.index.open_tenants())
        out: dict[str, dict[str, str]] = {}
        for tenant in list_tenants(self.cfg.storage):
            try:
                if tenant in opened or tenant == DEFAULT_TENANT:
                    out[tenant] = {"status": "ready", "index_version": self.index.version(tenant)}
                elif LanceStore.exists(tenant_config(self.cfg, tenant).storage):
                    out[tenant] = {"status": "ready"}  # opens on its first request
                else:
                    out[tenant] = {"status": "no index"}
            except IndexNotReady:
                out[tenant] = {"status": "no index"}
            except Exception as exc:  # this tenant cannot be served; the others can
                out[tenant] = {"status": "unavailable", "reason": f"{type(exc).__name__}: {exc}"}
        return out
