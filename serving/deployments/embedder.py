"""``QueryEmbedder``: query embeddings with Serve batching (concurrent requests share one ONNX call)
and the embedding cache.

>>> # handle.embed.remote(["what is a venv"], "default")  -> [array(384,)]
"""

from __future__ import annotations

import numpy as np
from ray import serve

from cluster.config import StrataConfig
from cluster.telemetry.tracing import traced_call
from serving.embedding import QueryEncoder


@serve.deployment(name="QueryEmbedder")
class QueryEmbedder:
    def __init__(self, config: dict) -> None:
        cfg = StrataConfig.model_validate(config)
        self.encoder = QueryEncoder.load(cfg, threads=cfg.serve.embedder_threads)
        self._batched.set_max_batch_size(cfg.serve.max_batch_size)
        self._batched.set_batch_wait_timeout_s(cfg.serve.batch_wait_timeout_s)

    @serve.batch(max_batch_size=32, batch_wait_timeout_s=0.005)
    async def _batched(self, requests: list[tuple[list[str], str]]) -> list[list[np.ndarray]]:
        """Concurrent requests of any tenants share one ONNX call; the cache is per tenant."""
        vectors = self.encoder.encode_keyed([(tenant, text) for texts, tenant in requests for text in texts])
        out, i = [], 0
        for texts, _ in requests:
            out.append(vectors[i:i + len(texts)])
            i += len(texts)
        return out

    @traced_call("serve.QueryEmbedder.embed")
    async def embed(self, texts: list[str], tenant: str) -> list[np.ndarray]:
        return await self._batched((texts, tenant)) if texts else []

    @traced_call("serve.QueryEmbedder.ready")
    async def ready(self) -> str:
        return self.encoder.fingerprint
