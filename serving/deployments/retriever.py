"""``HybridRetriever``: BM25 + ANN + fusion + section tier over the index (several replicas;
each request runs in a worker thread: tantivy and LanceDB release the GIL). With adaptive fusion
(the default) each replica loads the cross-encoder too (int8, ~23 MB) to judge the two best hits.

>>> # handle.retrieve.remote(plan, vectors, Filters(), 10, "default")  -> RetrievedRows (that tenant's index only)
"""

from __future__ import annotations

import asyncio

from ray import serve

from cluster.config import StrataConfig
from serving.index.handle import IndexHandle
from serving.services.stages import CrossEncoderJudge, RetrievedRows, retrieve_rows


@serve.deployment(name="HybridRetriever")
class HybridRetrieverDeployment:
    def __init__(self, config: dict) -> None:
        cfg = StrataConfig.model_validate(config)
        self.index = IndexHandle(cfg)
        self.judge = CrossEncoderJudge(cfg)
        if cfg.retrieval.fusion == "adaptive":
            self.judge.load()  # ~1 s of ONNX start here rather than in the first query

    async def retrieve(self, plan, vectors, filters, depth: int, tenant: str) -> RetrievedRows:
        return await asyncio.to_thread(retrieve_rows, self.index, plan, vectors, filters, depth, self.judge,
                                       tenant=tenant)

    async def ready(self) -> str:
        return await asyncio.to_thread(self.index.probe)
