"""``HybridRetriever``: BM25 + ANN + fusion + section tier over the index (several replicas;
each request runs in a worker thread: tantivy and LanceDB release the GIL).

>>> # handle.retrieve.remote(plan, vectors, Filters(), depth=10)  -> RetrievedRows
"""

from __future__ import annotations

import asyncio

from ray import serve

from cluster.config import StrataConfig
from serving.index.handle import IndexHandle
from serving.services.stages import RetrievedRows, retrieve_rows


@serve.deployment(name="HybridRetriever")
class HybridRetrieverDeployment:
    def __init__(self, config: dict) -> None:
        self.index = IndexHandle(StrataConfig.model_validate(config))

    async def retrieve(self, plan, vectors, filters, depth: int) -> RetrievedRows:
        return await asyncio.to_thread(retrieve_rows, self.index, plan, vectors, filters, depth)

    async def ready(self) -> str:
        return await asyncio.to_thread(self.index.version)
