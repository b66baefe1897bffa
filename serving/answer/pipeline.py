"""Answers in one process: ``AnswerPipeline(cfg).answer(AnswerRequest(question=...))``.

The same :class:`~serving.answer.service.AnswerService` the Serve app runs, over the in-process
search stages — ``strata ask``, ``strata demo``, answer evaluation. The extractive writer (the
default on CPU) needs no LLM; with ``answer.writer.kind = "llm"`` the vLLM engines start here (tens
of seconds on CPU). vLLM starts its engine core with multiprocessing *spawn*: a script that uses
that path needs an ``if __name__ == "__main__":`` guard.

>>> # with AnswerPipeline(load_config()) as pipe:
>>> #     print(pipe.answer(AnswerRequest(question="How do I create a virtual environment?")).answer)
"""

from __future__ import annotations

from collections.abc import Iterator

from cluster.config import StrataConfig
from serving.answer.service import AnswerService
from serving.api.protocol import AnswerRequest, AnswerResponse
from serving.llm.client import LocalLLM
from serving.pipeline import SearchPipeline


class AnswerPipeline:
    def __init__(self, cfg: StrataConfig, llm: LocalLLM | None = None) -> None:
        self.cfg = cfg
        self.search = SearchPipeline(cfg)
        if llm is None and cfg.answer.writer_kind == "llm":
            llm = LocalLLM.start(cfg)
        self.llm = llm
        self.service = AnswerService(cfg, self.search.service, self.llm)

    def answer(self, request: AnswerRequest) -> AnswerResponse:
        return self.search._loop.run_until_complete(self.service.answer(request))

    def events(self, request: AnswerRequest) -> Iterator[tuple[str, dict]]:
        """The streaming events (``token`` … ``final``), one at a time."""
        async def start():
            return self.service.events(request)

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
