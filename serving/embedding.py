"""The query encoder: the index's embedder plus an LRU cache of query vectors.

The cache is keyed by (tenant, model fingerprint, text). A vector does not depend on any index, but
a shared entry would let one tenant learn from a fast answer that another tenant recently embedded
the same text (its question, or a passage of its documents that the answer path embeds); keyed by
tenant, nothing one tenant does changes another's latency through this cache. The ONNX batch itself
is shared by concurrent requests of all tenants (it returns each text's own vector).

>>> # enc = QueryEncoder.load(cfg); enc.encode(["what is a venv"], tenant="default")[0].shape  -> (384,)
"""

from __future__ import annotations

import numpy as np

from cluster.config import StrataConfig
from cluster.models.embedder import Embedder
from cluster.models.registry import resolve_embedder
from cluster.telemetry.metrics import query_metrics
from serving.cache import LruCache


class QueryEncoder:
    def __init__(self, embedder: Embedder, cache_size: int) -> None:
        self.embedder = embedder
        self.fingerprint = embedder.resolved.manifest.fingerprint
        self.cache = LruCache(cache_size)

    @classmethod
    def load(cls, cfg: StrataConfig, *, threads: int | None = None) -> "QueryEncoder":
        settings = cfg.embedder.model_copy(update={"threads": threads}) if threads else cfg.embedder
        embedder = Embedder.load(resolve_embedder(cfg.models), settings)
        return cls(embedder, cfg.serve.embedding_cache_size)

    def encode(self, texts: list[str], *, tenant: str) -> list[np.ndarray]:
        """One L2-normalised float32 vector per text (cached by tenant, model fingerprint and text)."""
        return self.encode_keyed([(tenant, text) for text in texts])

    def encode_keyed(self, items: list[tuple[str, str]]) -> list[np.ndarray]:
        """One vector per ``(tenant, text)``; the misses of every tenant are embedded in one call."""
        out: list[np.ndarray | None] = []
        missing: list[int] = []
        for i, (tenant, text) in enumerate(items):
            vector = self.cache.get((tenant, self.fingerprint, text))
            out.append(vector)
            if vector is None:
                missing.append(i)
        metrics = query_metrics()
        if metrics is not None:
            if len(items) - len(missing):
                metrics.cache_requests.inc(len(items) - len(missing), tags={"cache": "embedding", "result": "hit"})
            if missing:
                metrics.cache_requests.inc(len(missing), tags={"cache": "embedding", "result": "miss"})
        if missing:
            unique = list(dict.fromkeys(items[i][1] for i in missing))
            vectors = dict(zip(unique, self.embedder.embed(unique, kind="query")))
            for i in missing:
                tenant, text = items[i]
                out[i] = vectors[text]
                self.cache.put((tenant, self.fingerprint, text), vectors[text])
        return [v for v in out if v is not None]
