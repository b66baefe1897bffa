"""The whole query path in one process: ``SearchPipeline(cfg).search(SearchRequest(...))``.

Runs exactly the code the Serve app runs (:class:`~serving.api.serving.SearchService`), with
every stage called in-process one after another — used by ``strata search``/``strata context``,
evaluation, tests, and as the naive baseline of the serving benchmark.

>>> # pipe = SearchPipeline(load_config())
>>> # pipe.search(SearchRequest(query="how do I create a venv", top_k=5)).hits[0].path
"""

from __future__ import annotations

import asyncio

from cluster.config import StrataConfig
from serving.api.protocol import ContextRequest, ContextResponse, SearchRequest, SearchResponse
from serving.api.serving import SearchService
from serving.stages import LocalStages


class SearchPipeline:
    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self.stages = LocalStages(cfg)
        self.service = SearchService(cfg, self.stages, self.stages.index)
        self._loop = asyncio.new_event_loop()

    def search(self, request: SearchRequest) -> SearchResponse:
        return self._loop.run_until_complete(self.service.search(request))

    def context(self, request: ContextRequest) -> ContextResponse:
        return self._loop.run_until_complete(self.service.context(request))

    def close(self) -> None:
        self._loop.close()
