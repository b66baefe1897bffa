"""``HybridRetriever``: BM25 + ANN + fusion + section tier over the index (several replicas;
each request runs in a worker thread: tantivy, LanceDB and onnxruntime release the GIL). With adaptive
fusion (the default) each replica loads the cross-encoder too (int8, ~23 MB) to judge the two best hits.
With ``serve.embed_in_retriever`` (the default) each replica also loads the query embedder (one
onnxruntime thread) and embeds the query itself: a search is one Serve call from the ingress, not two.

>>> # handle.retrieve.remote(plan, vectors, Filters(), 10, "default")  -> RetrievedRows (that tenant's index only)
>>> # handle.embed_retrieve.remote(plan, ["what is a venv"], Filters(), 10, "default")  -> (vectors, RetrievedRows)
"""

from __future__ import annotations

import asyncio

from ray import serve

from cluster.config import StrataConfig
from cluster.telemetry.tracing import traced_call
from serving.index.handle import IndexHandle
from serving.services.stages import CrossEncoderJudge, RetrievedRows, embed_and_retrieve, retrieve_rows


@serve.deployment(name="HybridRetriever")
class HybridRetrieverDeployment:
    def __init__(self, config: dict) -> None:
        cfg = StrataConfig.model_validate(config)
        self.index = IndexHandle(cfg)
        self.judge = CrossEncoderJudge(cfg)
        if cfg.retrieval.fusion == "adaptive":
            self.judge.load()  # ~1 s of ONNX start here rather than in the first query
        self.encoder = None
        if cfg.serve.embed_in_retriever:
            from serving.embedding import QueryEncoder

            self.encoder = QueryEncoder.load(cfg, threads=cfg.serve.embedder_threads)

    @traced_call("serve.HybridRetriever.retrieve")
    async def retrieve(self, plan, vectors, filters, depth: int, tenant: str) -> RetrievedRows:
        return await asyncio.to_thread(retrieve_rows, self.index, plan, vectors, filters, depth, self.judge,
                                       tenant=tenant)

    @traced_call("serve.HybridRetriever.embed_retrieve")
    async def embed_retrieve(self, plan, texts, filters, depth: int, tenant: str):
        if self.encoder is None:
            raise RuntimeError("serve.embed_in_retriever is off: the QueryEmbedder deployment embeds queries")
        return await asyncio.to_thread(embed_and_retrieve, self.encoder, self.index, plan, texts, filters, depth,
                                       self.judge, tenant=tenant)

    @traced_call("serve.HybridRetriever.ready")
    async def ready(self) -> str:
        return await asyncio.to_thread(self.index.probe)
