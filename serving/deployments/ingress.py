"""``StrataIngress``: the FastAPI ingress (OpenAPI at ``/docs``) running the query service over
deployment handles.

>>> # serve.run(build_application(cfg))  then  POST http://127.0.0.1:8000/v1/search
"""

from __future__ import annotations

import asyncio

from ray import serve
from ray.serve.handle import DeploymentHandle

from cluster.config import StrataConfig
from cluster.telemetry.tracing import trace_carrier
from serving.api.api_router import build_fastapi_app
from serving.index.handle import IndexHandle
from serving.services.search import SearchService
from serving.services.stages import RetrievedRows, embed_then_retrieve


class ServeStages:
    """The :class:`~serving.services.stages.Stages` interface over Serve deployment handles; every call carries
    the current trace context (:func:`~cluster.telemetry.tracing.trace_carrier`)."""

    def __init__(self, embedder: DeploymentHandle, retriever: DeploymentHandle, expander: DeploymentHandle,
                 reranker: DeploymentHandle | None, index: IndexHandle, *, embed_in_retriever: bool = True) -> None:
        self.embedder, self.retriever, self.expander, self.reranker = embedder, retriever, expander, reranker
        self.index = index
        self.embed_in_retriever = embed_in_retriever

    async def embed(self, texts, tenant: str):
        return await self.embedder.embed.remote(texts, tenant, trace_carrier=trace_carrier())

    async def retrieve(self, plan, vectors, filters, depth, tenant: str) -> RetrievedRows:
        return await self.retriever.retrieve.remote(plan, vectors, filters, depth, tenant,
                                                   trace_carrier=trace_carrier())

    async def embed_retrieve(self, plan, texts, filters, depth, tenant: str):
        if self.embed_in_retriever:  # one Serve hop: the retriever replica embeds the query itself
            return await self.retriever.embed_retrieve.remote(plan, texts, filters, depth, tenant,
                                                             trace_carrier=trace_carrier())
        return await embed_then_retrieve(self, plan, texts, filters, depth, tenant)

    async def rerank(self, query, texts):
        if self.reranker is None:
            raise RuntimeError("no cross-encoder deployed")
        return await self.reranker.rerank.remote(query, texts, trace_carrier=trace_carrier())

    async def expand(self, candidates, sections, vectors, target_texts, settings, tenant: str):
        return await self.expander.expand.remote(candidates, sections, vectors, target_texts, settings, tenant,
                                                 trace_carrier=trace_carrier())

    async def index_version(self, tenant: str) -> str:
        return await asyncio.to_thread(self.index.version, tenant)

    async def ready(self) -> dict[str, str]:
        carrier = trace_carrier()
        calls = {"embedder": self.embedder.ready.remote(trace_carrier=carrier),
                 "retriever": self.retriever.ready.remote(trace_carrier=carrier),
                 "expander": self.expander.ready.remote(trace_carrier=carrier)}
        if self.reranker is not None:
            calls["reranker"] = self.reranker.ready.remote(trace_carrier=carrier)
        out = {name: str(await call) for name, call in calls.items()}
        out.setdefault("reranker", "off")
        return out


@serve.deployment(name="StrataIngress")
@serve.ingress()
class StrataIngress:
    def __init__(self, config: dict, embedder: DeploymentHandle, retriever: DeploymentHandle,
                 expander: DeploymentHandle, reranker: DeploymentHandle | None = None,
                 writer: DeploymentHandle | None = None, verifier: DeploymentHandle | None = None) -> None:
        cfg = StrataConfig.model_validate(config)
        index = IndexHandle(cfg)
        self.service = SearchService(cfg, ServeStages(embedder, retriever, expander, reranker, index,
                                                          embed_in_retriever=cfg.serve.embed_in_retriever), index)
        self.answers = None
        if cfg.answer.enabled:
            from serving.deployments.llm import ServeLLM
            from serving.services.answer import AnswerService

            llm = ServeLLM(cfg, writer, verifier) if cfg.answer.writer_kind == "llm" else None
            self.answers = AnswerService(cfg, self.service, llm)

    def __serve_build_asgi_app__(self):
        """Called by Serve on the replica after ``__init__``: the FastAPI app bound to this service."""
        app = build_fastapi_app()
        app.state.service = self.service
        app.state.answers = self.answers
        return app
