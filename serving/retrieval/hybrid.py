"""BM25, dense and hybrid (RRF) search over an index, used by ``strata search``.

The configured embedder must match the one the index was built with, or the retriever refuses.

>>> # r = Retriever(load_config()); r.search("how do I configure logging", k=5, mode="hybrid")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cluster.config import StrataConfig
from cluster.models.embedder import Embedder
from cluster.models.registry import resolve_embedder
from cluster.store.bm25 import Bm25Index
from cluster.store.lance_store import LanceStore, sql_in
from cluster.store.schema import CHUNKS
from serving.retrieval.fusion import rrf

Mode = Literal["bm25", "vector", "hybrid"]
HIT_COLUMNS = ["chunk_id", "doc_id", "path", "title", "section_id", "section_path", "ordinal", "start", "end", "text"]


@dataclass
class Hit:
    chunk_id: str
    doc_id: str
    path: str
    title: str
    section_id: str
    section_path: str
    ordinal: int
    start: int
    end: int
    text: str
    score: float = 0.0
    stage_scores: dict[str, float] = field(default_factory=dict)


class Retriever:
    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self.resolved = resolve_embedder(cfg.models)
        self.store = LanceStore.open(cfg.storage, dim=self.resolved.manifest.dim)
        stored = self.store.embedder_manifest()
        if stored is not None:
            stored.check_compatible(self.resolved.manifest, action="query this index")
        self.bm25 = Bm25Index(cfg.storage.bm25_path)
        self._embedder: Embedder | None = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder.load(self.resolved, self.cfg.embedder)
        return self._embedder

    def search(self, query: str, *, k: int = 10, mode: Mode = "hybrid", candidates: int = 100) -> list[Hit]:
        """Top-``k`` chunks for ``query``; hybrid fuses ``candidates`` from each side by RRF."""
        if not query.strip():
            raise ValueError("empty query")
        depth = k if mode != "hybrid" else max(k, candidates)
        bm25_ids, dense_ids, stage = [], [], {}
        if mode in ("bm25", "hybrid"):
            for rank, hit in enumerate(self.bm25.search(query, k=depth), start=1):
                bm25_ids.append(hit.chunk_id)
                stage.setdefault(hit.chunk_id, {})["bm25"] = hit.score
        if mode in ("vector", "hybrid"):
            vector = self.embedder.embed([query])[0]
            table = self.store.vector_search(CHUNKS, vector, k=depth, index=self.cfg.index, columns=["chunk_id"])
            for chunk_id, distance in zip(table.column("chunk_id").to_pylist(), table.column("_distance").to_pylist()):
                dense_ids.append(chunk_id)
                stage.setdefault(chunk_id, {})["dense"] = 1.0 - float(distance)
        if mode == "bm25":
            ranked = [(c, stage[c]["bm25"]) for c in bm25_ids]
        elif mode == "vector":
            ranked = [(c, stage[c]["dense"]) for c in dense_ids]
        else:
            ranked = rrf([bm25_ids, dense_ids])
        ranked = ranked[:k]
        rows = self._fetch([c for c, _ in ranked])
        hits = []
        for chunk_id, score in ranked:
            row = rows.get(chunk_id)
            if row is not None:
                hits.append(Hit(**row, score=score, stage_scores=stage.get(chunk_id, {})))
        return hits

    def _fetch(self, chunk_ids: list[str]) -> dict[str, dict]:
        if not chunk_ids:
            return {}
        table = self.store.scan(CHUNKS, HIT_COLUMNS, where=sql_in("chunk_id", chunk_ids))
        return {row["chunk_id"]: row for row in table.to_pylist()}
