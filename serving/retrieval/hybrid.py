"""The hybrid retriever: tantivy BM25 + LanceDB ANN per query variant, fused per target.

For each target of a :class:`~serving.analysis.QueryPlan` every variant is searched by BM25
and by the dense index (exact, from the vectors held in memory, while they fit ``index.memory_search_mb``;
else LanceDB's IVF_PQ with ``nprobes``/``refine_factor``); the rankings are fused
by weighted linear fusion of min-max scores (``adaptive``, the default, and ``linear``), DBSF or
RRF, with the BM25 share ``plan.bm25_weight``. **Adaptive fusion** asks a judge (the cross-encoder,
given by the caller) to score each retriever's best hit for the target and moves the share toward
the retriever it prefers (:func:`~serving.retrieval.fusion.judged_bm25_share`); without a judge
the share stays ``plan.bm25_weight``. With HyDE
on, the dense side searches once more with a hypothetical-answer vector (pseudo-relevance
feedback from the first pass until an LLM writes the passage). Several targets are merged
round-robin so each sub-question keeps its share of the top-k.

>>> # r = HybridRetriever(IndexView.open(cfg)); r.retrieve(plan, vectors, ResolvedFilters())
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cluster.config import StrataConfig
from cluster.store.schema import CHUNKS
from serving.analysis import QueryPlan
from serving.index.view import IndexView
from serving.retrieval.filters import ResolvedFilters
from serving.retrieval.fusion import dbsf, judged_bm25_share, linear, rrf
from serving.retrieval.sections import SectionHit, SectionTier


@dataclass
class Candidate:
    """A chunk found by retrieval, with its per-stage scores and ranks."""

    chunk_id: str
    doc_id: str
    score: float
    scores: dict[str, float] = field(default_factory=dict)
    ranks: dict[str, int] = field(default_factory=dict)
    target: str | None = None


@dataclass
class RetrievalResult:
    candidates: list[Candidate]
    sections: list[SectionHit]
    counts: dict[str, int]
    timings_ms: dict[str, float]
    hyde: str | None = None
    index_version: str = ""
    bm25_shares: list[float] = field(default_factory=list)  # per target: the share fusion used
    fusion_note: str | None = None


#: Scores chunks (by id) for a query, higher is more relevant (the cross-encoder), or None when it cannot.
Judge = Callable[[str, list[str]], "list[float] | None"]


def normalise(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


class HybridRetriever:
    """Searches one index; safe to call from several threads."""

    def __init__(self, view: IndexView, cfg: StrataConfig | None = None, judge: Judge | None = None) -> None:
        self.view = view
        self.cfg = cfg or view.cfg
        self.judge = judge
        self.sections = SectionTier(view, self.cfg)

    # -- the two retrievers ------------------------------------------------------------------------
    def bm25(self, text: str, k: int, filters: ResolvedFilters) -> list[tuple[str, str, float]]:
        hits = self.view.bm25.search(text, k=k, doc_ids=filters.doc_ids, section_facet=filters.section_facet)
        return [(h.chunk_id, h.doc_id, h.score) for h in hits]

    def dense(self, vector: np.ndarray, k: int, filters: ResolvedFilters) -> list[tuple[str, str, float]]:
        return self.dense_many([vector], k, filters)[0]

    def dense_many(self, vectors: list[np.ndarray], k: int, filters: ResolvedFilters) -> list[list[tuple[str, str, float]]]:
        """:meth:`dense` for several vectors in one index query (a target's variants)."""
        tables = self.view.store.vector_search_many(CHUNKS, vectors, k=k, index=self.cfg.index,
                                                    where=filters.lance_where(), columns=["chunk_id", "doc_id"])
        return [[(c, d, 1.0 - float(dist)) for c, d, dist in zip(
            table.column("chunk_id").to_pylist(), table.column("doc_id").to_pylist(),
            table.column("_distance").to_pylist())] for table in tables]

    # -- one query plan -------------------------------------------------------------------------------
    def retrieve(self, plan: QueryPlan, vectors: dict[str, np.ndarray], filters: ResolvedFilters,
                 *, depth: int) -> RetrievalResult:
        """Fused candidates (``depth`` per target), section-tier matches, counts and timings."""
        timings = {"bm25": 0.0, "dense": 0.0, "fuse": 0.0, "sections": 0.0}
        counts = {"bm25": 0, "dense": 0, "fused": 0, "sections": 0}
        version = self.view.version()
        if filters.empty:
            return RetrievalResult([], [], counts, timings, index_version=version)
        per_target: list[list[Candidate]] = []
        shares: list[float] = []
        notes: list[str] = []
        hyde_note = None
        k = max(plan.candidates, depth)
        for target in plan.targets:
            lists: list[tuple[str, float, list[tuple[str, float]]]] = []  # (retriever, variant weight, ranking)
            stage: dict[str, Candidate] = {}

            def note(hits: list[tuple[str, str, float]], name: str) -> None:
                for rank, (chunk_id, doc_id, score) in enumerate(hits, start=1):
                    c = stage.get(chunk_id)
                    if c is None:
                        c = stage[chunk_id] = Candidate(chunk_id, doc_id, 0.0, target=target.text)
                    if score > c.scores.get(name, float("-inf")):
                        c.scores[name] = score
                    c.ranks[name] = min(c.ranks.get(name, rank), rank)

            both = plan.use_bm25 and plan.use_dense
            searched = [v for v in target.variants if plan.use_dense and plan.dense_variant(target, v)]
            dense_hits: dict[int, list[tuple[str, str, float]]] = {}
            if searched:
                t0 = time.perf_counter()
                found = self.dense_many([vectors[v.text] for v in searched], k, filters)
                timings["dense"] += (time.perf_counter() - t0) * 1000
                dense_hits = {id(v): hits for v, hits in zip(searched, found)}
            for variant in target.variants:
                if plan.use_bm25:
                    t0 = time.perf_counter()
                    hits = self.bm25(variant.text, k, filters)
                    timings["bm25"] += (time.perf_counter() - t0) * 1000
                    counts["bm25"] += len(hits)
                    note(hits, "bm25")
                    lists.append(("bm25", variant.weight, [(c, s) for c, _, s in hits]))
                if id(variant) in dense_hits:
                    hits = dense_hits[id(variant)]
                    counts["dense"] += len(hits)
                    note(hits, "dense")
                    lists.append(("dense", variant.weight, [(c, s) for c, _, s in hits]))
            share = plan.bm25_weight
            if both and plan.fusion == "adaptive":
                t0 = time.perf_counter()
                share, why = self._adaptive_share(plan, target.variants[0].text, lists)
                timings["judge"] = timings.get("judge", 0.0) + (time.perf_counter() - t0) * 1000
                notes.append(why)
            shares.append(share)

            def weights() -> list[float]:
                return [w * ((share if name == "bm25" else 1.0 - share) if both else 1.0) for name, w, _ in lists]

            t0 = time.perf_counter()
            fused = self._fuse(plan, [ranking for *_, ranking in lists], weights())
            if plan.hyde and plan.use_dense and fused:
                t1 = time.perf_counter()
                hyde_vector = self._feedback_vector(vectors[target.variants[0].text], [c for c, _ in fused])
                hits = self.dense(hyde_vector, k, filters)
                timings["dense"] += (time.perf_counter() - t1) * 1000
                counts["dense"] += len(hits)
                note(hits, "hyde")
                lists.append(("dense", 1.0, [(c, s) for c, _, s in hits]))
                fused = self._fuse(plan, [ranking for *_, ranking in lists], weights())
                hyde_note = (f"pseudo-relevance feedback: query vector + mean of the top "
                             f"{self.cfg.retrieval.hyde_feedback_docs} first-pass chunks (no LLM configured)")
            timings["fuse"] += (time.perf_counter() - t0) * 1000
            ranked = []
            for rank, (chunk_id, score) in enumerate(fused[:k], start=1):
                c = stage[chunk_id]
                c.score = score
                c.scores["fused"] = score
                c.ranks["fused"] = rank
                ranked.append(c)
            per_target.append(ranked)
        candidates = merge_round_robin(per_target)
        counts["fused"] = len(candidates)
        section_hits: list[SectionHit] = []
        if plan.awareness:
            t0 = time.perf_counter()
            section_hits = self.sections.search(plan, vectors, filters, candidates)
            timings["sections"] = (time.perf_counter() - t0) * 1000
            counts["sections"] = len(section_hits)
        return RetrievalResult(candidates, section_hits, counts, timings, hyde=hyde_note, index_version=version,
                               bm25_shares=shares, fusion_note="; ".join(notes) or None)

    def _adaptive_share(self, plan: QueryPlan, query: str,
                        lists: list[tuple[str, float, list[tuple[str, float]]]]) -> tuple[float, str]:
        """BM25's share for one target and why: the judge's verdict on the best BM25 and the best
        dense hit of the target's own text (its first variant), around the route's prior."""
        prior = plan.bm25_weight
        best = {name: ranking[0][0] for name, _, ranking in reversed(lists) if ranking}
        if len(best) < 2:
            return prior, f"adaptive fusion: {'no BM25' if 'bm25' not in best else 'no dense'} hits, share {prior:.2f}"
        if best["bm25"] == best["dense"]:
            return prior, f"adaptive fusion: both retrievers agree on the best hit, share {prior:.2f}"
        scores = self.judge(query, [best["bm25"], best["dense"]]) if self.judge is not None else None
        if not scores:
            return prior, f"adaptive fusion: no cross-encoder to judge, BM25 share kept at {prior:.2f}"
        share = judged_bm25_share(prior, scores[0], scores[1], temperature=self.cfg.retrieval.adaptive_temperature)
        return share, (f"adaptive fusion: BM25 share {share:.2f} (cross-encoder on the best BM25 hit {scores[0]:.2f}, "
                       f"on the best dense hit {scores[1]:.2f}; prior {prior:.2f})")

    def _fuse(self, plan: QueryPlan, scored: list[list[tuple[str, float]]], weights: list[float]) -> list[tuple[str, float]]:
        if len(scored) == 1:
            return list(scored[0])
        if plan.fusion in ("linear", "adaptive"):
            return linear(scored, weights=weights)
        if plan.fusion == "dbsf":
            return dbsf(scored, weights=weights)
        return rrf([[c for c, _ in s] for s in scored], k=plan.rrf_k, weights=weights)

    def _feedback_vector(self, query_vector: np.ndarray, ranked_ids: list[str]) -> np.ndarray:
        """Rocchio: normalise(q + mean of the top first-pass chunk vectors)."""
        top = ranked_ids[: self.cfg.retrieval.hyde_feedback_docs]
        vectors = self.view.chunk_vectors(top)
        if not vectors:
            return query_vector
        mean = np.mean(np.asarray(list(vectors.values()), dtype=np.float32), axis=0)
        return normalise(normalise(query_vector) + normalise(mean)).astype(np.float32)


def merge_round_robin(per_target: list[list[Candidate]]) -> list[Candidate]:
    """Interleave the targets' rankings (first of each, then second of each, …) without duplicates."""
    if len(per_target) == 1:
        return per_target[0]
    merged: list[Candidate] = []
    seen: set[str] = set()
    for position in range(max((len(r) for r in per_target), default=0)):
        for ranking in per_target:
            if position < len(ranking) and ranking[position].chunk_id not in seen:
                seen.add(ranking[position].chunk_id)
                merged.append(ranking[position])
    return merged
