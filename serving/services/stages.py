"""The query stages behind one interface, so the orchestration is written once.

``query → analyse → embed → retrieve → rerank → expand``: :class:`Stages` is what the
orchestrator (:class:`serving.services.search.SearchService`) calls. :class:`LocalStages` runs every
stage in this process, one after another (the CLI, benchmarks' naive baseline, evaluation);
:class:`serving.deployments.ServeStages` calls the Ray Serve deployments instead.

Every stage that reads the index or caches by data takes the request's ``tenant`` (no default):
each tenant has its own index, and the stage reads only that one.

>>> # stages = LocalStages(cfg); await stages.retrieve(plan, vectors, Filters(), depth=10, tenant="default")
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from cluster.config import StrataConfig
from serving.analysis import QueryPlan
from serving.expansion.awareness import AwarenessExpander, ExpansionResult, ExpansionSettings
from serving.index.handle import IndexHandle
from serving.index.view import IndexView
from serving.protocol import Filters
from serving.rerank.text import passage_text
from serving.retrieval.contentless import demote_contentless
from serving.retrieval.filters import resolve_filters
from serving.retrieval.hybrid import Candidate, HybridRetriever, Judge, RetrievalResult
from serving.retrieval.sections import SectionHit

log = logging.getLogger(__name__)


@dataclass
class RetrievedRows:
    """A retrieval result plus the rows (text, offsets, section) of its first ``depth`` candidates."""

    result: RetrievalResult
    rows: dict[str, dict]


class Stages(Protocol):
    async def embed(self, texts: list[str], tenant: str) -> list[np.ndarray]: ...

    async def retrieve(self, plan: QueryPlan, vectors: dict[str, np.ndarray], filters: Filters,
                       depth: int, tenant: str) -> RetrievedRows: ...

    async def embed_retrieve(self, plan: QueryPlan, texts: list[str], filters: Filters, depth: int,
                             tenant: str) -> tuple[dict[str, np.ndarray], RetrievedRows]: ...

    async def rerank(self, query: str, texts: list[str]) -> list[float]: ...

    async def expand(self, candidates: list[Candidate], sections: list[SectionHit], vectors: dict[str, np.ndarray],
                     target_texts: dict[str, str], settings: ExpansionSettings, tenant: str) -> ExpansionResult: ...

    async def index_version(self, tenant: str) -> str: ...

    async def ready(self) -> dict[str, str]: ...


class CrossEncoderJudge:
    """Adaptive fusion's judge (:data:`serving.retrieval.hybrid.Judge`): the cross-encoder's scores of
    chunks for a query, on their rerank texts. The model loads on first use; when it cannot (no
    reranker installed) the judge answers None once and for all and fusion keeps its prior share.

    The chunks it scores are read from the index of the request being served: :meth:`for_view` binds it
    to one tenant's index (the model is shared; it is a pure function of its inputs).

    >>> # judge = CrossEncoderJudge(cfg).for_view(view); judge("which flag?", [bm25_best_id, dense_best_id])
    """

    def __init__(self, cfg: StrataConfig, reranker=None) -> None:
        self.cfg = cfg
        self._reranker = reranker
        self._failed = False
        self._lock = threading.Lock()

    def load(self) -> bool:
        """Load the model now (a replica does it at start, so the first query does not pay for it)."""
        return self._model() is not None

    def _model(self):
        if self._reranker is None and not self._failed:
            with self._lock:
                if self._reranker is None and not self._failed:
                    from serving.rerank import CrossEncoderReranker

                    try:  # one thread: two pairs a query gain nothing from a second, whose spinning costs CPU
                        self._reranker = CrossEncoderReranker.from_config(
                            self.cfg, threads=1, max_length=self.cfg.retrieval.judge_max_length)
                    except (FileNotFoundError, ValueError) as exc:
                        log.warning("adaptive fusion keeps the prior BM25 share: no cross-encoder (%s)", exc)
                        self._failed = True
        return self._reranker

    def for_view(self, view: IndexView) -> Judge:
        """The judge of chunks of ``view`` (one tenant's index)."""
        def judge(query: str, chunk_ids: list[str]) -> list[float] | None:
            model = self._model()
            if model is None:
                return None
            rows = view.chunks_by_id(chunk_ids)
            if any(c not in rows for c in chunk_ids):
                return None
            return model.score(query, [passage_text(rows[c]) for c in chunk_ids])
        return judge


def retrieve_rows(index: IndexHandle, plan: QueryPlan, vectors: dict[str, np.ndarray], filters: Filters,
                  depth: int, judge: CrossEncoderJudge | None = None, *, tenant: str) -> RetrievedRows:
    """The retriever stage's work (shared by LocalStages and the HybridRetriever deployment), over
    ``tenant``'s index only: filters resolve there, so another tenant's ids match nothing."""
    view = index.get(tenant)
    index.version(tenant)
    result = HybridRetriever(view, judge=judge.for_view(view) if judge is not None else None).retrieve(
        plan, vectors, resolve_filters(filters, view), depth=depth)
    rows = view.chunks_by_id(c.chunk_id for c in result.candidates[:depth])
    queries = [t.text for t in plan.targets] or [plan.query]
    for _ in range(3):  # a demoted chunk leaves the top ``depth``: read the ones that move up (bounded)
        result.candidates = demote_contentless(result.candidates, rows, queries, index.cfg.retrieval.contentless_factor)
        missing = [c.chunk_id for c in result.candidates[:depth] if c.chunk_id not in rows]
        if not missing:
            break
        rows.update(view.chunks_by_id(missing))
    return RetrievedRows(result, rows)


def embed_and_retrieve(encoder, index: IndexHandle, plan: QueryPlan, texts: list[str], filters: Filters, depth: int,
                       judge: CrossEncoderJudge | None = None, *, tenant: str) -> tuple[dict[str, np.ndarray], RetrievedRows]:
    """Embed the plan's ``texts`` with ``encoder`` (a :class:`~serving.embedding.QueryEncoder`), then
    :func:`retrieve_rows`: the query's vectors and its rows, with the embedding's time as the ``embed``
    stage. One call where the retriever embeds the query itself (``serve.embed_in_retriever``)."""
    started = time.perf_counter()
    vectors = dict(zip(texts, encoder.encode(texts, tenant=tenant))) if texts else {}
    embedded = time.perf_counter()
    return vectors, _with_embed_stage(retrieve_rows(index, plan, vectors, filters, depth, judge, tenant=tenant),
                                      embedded - started)


async def embed_then_retrieve(stages: Stages, plan: QueryPlan, texts: list[str], filters: Filters, depth: int,
                              tenant: str) -> tuple[dict[str, np.ndarray], RetrievedRows]:
    """``stages.embed`` then ``stages.retrieve``, the embedding's time added as the ``embed`` stage: the
    ``embed_retrieve`` of stages whose retriever does not embed (in process; Serve with
    ``serve.embed_in_retriever = false``)."""
    started = time.perf_counter()
    vectors = dict(zip(texts, await stages.embed(texts, tenant))) if texts else {}
    embedded = time.perf_counter()
    return vectors, _with_embed_stage(await stages.retrieve(plan, vectors, filters, depth, tenant), embedded - started)


def _with_embed_stage(retrieved: RetrievedRows, seconds: float) -> RetrievedRows:
    """``retrieved`` with the query embedding's time added to its ``embed`` stage."""
    timings = retrieved.result.timings_ms
    timings["embed"] = timings.get("embed", 0.0) + seconds * 1000
    return retrieved


class LocalStages:
    """Every stage in this process, sequentially (no Ray needed)."""

    def __init__(self, cfg: StrataConfig) -> None:
        from serving.embedding import QueryEncoder

        self.cfg = cfg
        self.index = IndexHandle(cfg)
        self.encoder = QueryEncoder.load(cfg)
        self._reranker = None
        self.judge = CrossEncoderJudge(cfg)

    @property
    def reranker(self):
        """The cross-encoder, loaded on first use (the rerank stage, the extractive answerer)."""
        if self._reranker is None:
            from serving.rerank import CrossEncoderReranker

            self._reranker = self.judge._reranker or CrossEncoderReranker.from_config(self.cfg)
            self.judge._reranker = self._reranker  # one model in this process
        return self._reranker

    async def embed(self, texts: list[str], tenant: str) -> list[np.ndarray]:
        return self.encoder.encode(texts, tenant=tenant)

    async def retrieve(self, plan, vectors, filters, depth, tenant: str) -> RetrievedRows:
        return retrieve_rows(self.index, plan, vectors, filters, depth, judge=self.judge, tenant=tenant)

    async def embed_retrieve(self, plan, texts, filters, depth, tenant: str):
        return await embed_then_retrieve(self, plan, texts, filters, depth, tenant)

    async def rerank(self, query: str, texts: list[str]) -> list[float]:
        return self.reranker.score(query, texts)

    async def expand(self, candidates, sections, vectors, target_texts, settings, tenant: str) -> ExpansionResult:
        return AwarenessExpander(self.index.get(tenant)).expand(candidates, sections, vectors, target_texts, settings)

    async def index_version(self, tenant: str) -> str:
        return self.index.version(tenant)

    async def ready(self) -> dict[str, str]:
        return {"index": self.index.probe(), "embedder": self.encoder.fingerprint,
                "reranker": self._reranker.name if self._reranker else ("on first use" if self.cfg.rerank.enabled else "off")}
