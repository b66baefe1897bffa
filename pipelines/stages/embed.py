"""Embedding actors (Ray Data actor pool): add chunk and section-summary vectors to parsed rows.

Each actor loads the embedder once (fastembed/onnxruntime; the CUDA provider when a GPU is
visible and granted). Identical texts in a batch are embedded once (a one-chunk section's
summary is that chunk).

>>> # ds.map_batches(EmbedDocuments, fn_constructor_kwargs=..., compute=ActorPoolStrategy(size=1))
"""

from __future__ import annotations

import time

import numpy as np
import pyarrow as pa

from cluster.config import EmbedderConfig, ModelsConfig
from cluster.models.embedder import Embedder
from cluster.models.registry import resolve_embedder
from cluster.telemetry.tracing import span
from pipelines.records import STATUS_OK, embedded_schema


class EmbedDocuments:
    """Callable class for ``Dataset.map_batches`` (one instance per actor)."""

    def __init__(self, models_json: str, embedder_json: str) -> None:
        resolved = resolve_embedder(ModelsConfig.model_validate_json(models_json))
        self.embedder = Embedder.load(resolved, EmbedderConfig.model_validate_json(embedder_json))
        self.schema = embedded_schema(self.embedder.dim)

    def __call__(self, batch: pa.Table) -> pa.Table:
        from cluster.telemetry.metrics import ingest_metrics

        started = time.perf_counter()
        statuses = batch.column("status").to_pylist()
        chunks = batch.column("chunks").to_pylist()
        sections = batch.column("sections").to_pylist()
        texts: list[str] = []
        index: dict[str, int] = {}

        def slot(text: str) -> int:
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            return index[text]

        chunk_slots = [[slot(c["embed_text"]) for c in cs] if st == STATUS_OK else [] for st, cs in zip(statuses, chunks)]
        section_slots = [[slot(s["summary_embed_text"]) for s in ss] if st == STATUS_OK else []
                         for st, ss in zip(statuses, sections)]
        with span("ingest.embed", texts=len(texts), device=self.embedder.device):
            vectors = self.embedder.embed(texts) if texts else np.zeros((0, self.embedder.dim), np.float32)
        dim = self.embedder.dim
        inner = pa.list_(pa.float32(), dim)

        def column(slots: list[list[int]]) -> pa.Array:
            flat = np.concatenate([vectors[s] for s in slots if s]) if any(slots) else np.zeros((0, dim), np.float32)
            values = pa.FixedSizeListArray.from_arrays(pa.array(flat.ravel(), pa.float32()), dim)
            offsets = np.cumsum([0] + [len(s) for s in slots]).astype(np.int32)
            return pa.ListArray.from_arrays(pa.array(offsets), values, type=pa.list_(inner))

        out = batch.append_column("chunk_vectors", column(chunk_slots)).append_column("section_vectors",
                                                                                      column(section_slots))
        ingest_metrics().stage_seconds.observe(time.perf_counter() - started, tags={"stage": "embed"})
        return out.cast(self.schema)
