"""``Reranker``: the cross-encoder with Serve batching over (query, passage) pairs of concurrent
requests. Deployed only when ``rerank.enabled``.

>>> # handle.rerank.remote("what is a venv", ["venv creates…", "tuples are…"])  -> [2.3, -4.1]
"""

from __future__ import annotations

from ray import serve

from cluster.config import StrataConfig
from cluster.telemetry.tracing import traced_call
from serving.rerank import CrossEncoderReranker


@serve.deployment(name="Reranker")
class RerankerDeployment:
    def __init__(self, config: dict) -> None:
        cfg = StrataConfig.model_validate(config)
        self.model = CrossEncoderReranker.from_config(cfg)
        self._batched.set_max_batch_size(cfg.serve.max_batch_size)
        self._batched.set_batch_wait_timeout_s(cfg.serve.batch_wait_timeout_s)

    @serve.batch(max_batch_size=32, batch_wait_timeout_s=0.005)
    async def _batched(self, requests: list[tuple[str, list[str]]]) -> list[list[float]]:
        pairs = [(query, text) for query, texts in requests for text in texts]
        scores = self.model.score_pairs(pairs)
        out, i = [], 0
        for _, texts in requests:
            out.append(scores[i:i + len(texts)])
            i += len(texts)
        return out

    @traced_call("serve.Reranker.rerank")
    async def rerank(self, query: str, texts: list[str]) -> list[float]:
        return await self._batched((query, texts)) if texts else []

    @traced_call("serve.Reranker.ready")
    async def ready(self) -> str:
        return self.model.name
