"""The query encoder: the index's embedder plus an LRU cache of query vectors.

>>> # enc = QueryEncoder.load(cfg); enc.encode(["what is a venv"])[0].shape  -> (384,)
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

    def encode(self, texts: list[str]) -> list[np.ndarray]:
        """One L2-normalised float32 vector per text (cached by model fingerprint and text)."""
        out: list[np.ndarray | None] = []
        missing: list[int] = []
        for i, text in enumerate(texts):
            vector = self.cache.get((self.fingerprint, text))
            out.append(vector)
            if vector is None:
                missing.append(i)
        metrics = query_metrics()
        if metrics is not None:
            if len(texts) - len(missing):
                metrics.cache_requests.inc(len(texts) - len(missing), tags={"cache": "embedding", "result": "hit"})
            if missing:
                metrics.cache_requests.inc(len(missing), tags={"cache": "embedding", "result": "miss"})
        if missing:
            unique = list(dict.fromkeys(texts[i] for i in missing))
            vectors = dict(zip(unique, self.embedder.embed(unique)))
            for i in missing:
                out[i] = vectors[texts[i]]
                self.cache.put((self.fingerprint, texts[i]), vectors[texts[i]])
        return [v for v in out if v is not None]
