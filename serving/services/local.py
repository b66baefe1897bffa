"""The whole query path in one process, with no Ray: :class:`SearchPipeline` and :class:`AnswerPipeline`.

They run exactly the services the Serve app runs (:class:`~serving.services.search.SearchService`,
:class:`~serving.services.answer.AnswerService`) over :class:`~serving.services.stages.LocalStages`,
every stage called in this process one after another. Used by ``strata search``/``context``/``ask``/
``demo``, offline evaluation and training, tests, and as the naive baseline of the serving benchmark.

The extractive writer (the default on CPU) needs no LLM; with ``answer.writer.kind = "llm"`` the vLLM
engines start here (tens of seconds on CPU). vLLM starts its engine core with multiprocessing
*spawn*: a script that uses that path needs an ``if __name__ == "__main__":`` guard.

A pipeline acts for one tenant (``tenant=``, default :data:`~cluster.tenants.DEFAULT_TENANT`; the CLI's
``--tenant``) and passes it to every service call.

>>> # pipe = SearchPipeline(load_config(), tenant="acme")
>>> # pipe.search(SearchRequest(query="how do I create a venv", top_k=5)).hits[0].path
>>> # with AnswerPipeline(load_config()) as pipe:
>>> #     print(pipe.answer(AnswerRequest(question="How do I create a virtual environment?")).answer)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from cluster.config import StrataConfig
from cluster.tenants import DEFAULT_TENANT, validate_tenant
from serving.llm.client import LocalLLM
from serving.protocol import (
    AnswerRequest,
    AnswerResponse,
    ContextRequest,
    ContextResponse,
    SearchRequest,
    SearchResponse,
)
from serving.services.answer import AnswerService
from serving.services.search import SearchService
from serving.services.stages import LocalStages


class SearchPipeline:
    def __init__(self, cfg: StrataConfig, *, tenant: str = DEFAULT_TENANT) -> None:
        self.cfg = cfg
        self.tenant = validate_tenant(tenant)
        self.stages = LocalStages(cfg)
        self.service = SearchService(cfg, self.stages, self.stages.index)
        self._loop = asyncio.new_event_loop()

    def search(self, request: SearchRequest) -> SearchResponse:
        return self._loop.run_until_complete(self.service.search(request, tenant=self.tenant))

    def context(self, request: ContextRequest) -> ContextResponse:
        return self._loop.run_until_complete(self.service.context(request, tenant=self.tenant))

    def close(self) -> None:
        self._loop.close()


class AnswerPipeline:
    def __init__(self, cfg: StrataConfig, llm: LocalLLM | None = None, *, tenant: str = DEFAULT_TENANT) -> None:
        self.cfg = cfg
        self.search = SearchPipeline(cfg, tenant=tenant)
        self.tenant = self.search.tenant
        if llm is None and cfg.answer.writer_kind == "llm":
            llm = LocalLLM.start(cfg)
        self.llm = llm
        self.service = AnswerService(cfg, self.search.service, self.llm)

    def answer(self, request: AnswerRequest) -> AnswerResponse:
        return self.search._loop.run_until_complete(self.service.answer(request, tenant=self.tenant))

    def events(self, request: AnswerRequest) -> Iterator[tuple[str, dict]]:
        """The streaming events (``token`` … ``final``), one at a time."""
        async def start():
            return self.service.events(request, tenant=self.tenant)

        stream = self.search._loop.run_until_complete(start())
        while True:
            try:
                yield self.search._loop.run_until_complete(stream.__anext__())
            except StopAsyncIteration:
                return

    def close(self) -> None:
        if self.llm is not None:
            self.llm.shutdown()
            self.llm = None
        self.search.close()

    def __enter__(self) -> "AnswerPipeline":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
