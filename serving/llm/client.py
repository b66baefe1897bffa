"""Who runs the LLMs: :class:`LLMClient` is what the answer service calls, by role.

``writer`` answers; ``verifier`` judges and analyses queries (it is the writer's engine unless
``answer.verifier`` names another model). :class:`LocalLLM` starts vLLM engines in this process, or
clients of an OpenAI-compatible server (``kind = "openai"``, :mod:`serving.llm.openai_server`);
:class:`serving.deployments.llm.ServeLLM` calls the Serve LLM deployments (and such servers).

>>> # llm = LocalLLM.start(cfg); async for event in llm.stream("writer", messages, max_tokens=64): ...
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from typing import Literal, Protocol, Union

from cluster.config import LLMConfig, StrataConfig
from serving.llm.engine import GenerationEvent, VLLMEngine
from serving.llm.openai_server import OpenAIEngine

Engine = Union[VLLMEngine, OpenAIEngine]

Role = Literal["writer", "verifier"]


class LLMClient(Protocol):
    def model(self, role: Role) -> str: ...

    def stream(self, role: Role, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
               schema: dict | None = None) -> AsyncIterator[GenerationEvent]: ...

    async def count_tokens(self, role: Role, messages: list[dict[str, str]]) -> int: ...

    async def ready(self) -> str: ...


def openai_engines(cfg: StrataConfig) -> dict[str, OpenAIEngine]:
    """A client for each role answered by an OpenAI-compatible server (``kind = "openai"``); the verifier
    shares the writer's when ``answer.verifier`` is unset.

    >>> from cluster.config import load_config
    >>> sorted(openai_engines(load_config(answer={"writer": {"kind": "openai", "base_url": "http://h:1/v1"}})))
    ['verifier', 'writer']
    >>> openai_engines(load_config())
    {}
    """
    out: dict[str, OpenAIEngine] = {}
    if cfg.answer.writer.kind == "openai":
        out["writer"] = OpenAIEngine(cfg.answer.writer, role="writer")
    verifier = cfg.answer.verifier
    if verifier is None and "writer" in out:
        out["verifier"] = out["writer"]
    elif verifier is not None and verifier.kind == "openai":
        out["verifier"] = OpenAIEngine(verifier, role="verifier")
    return out


def _start(llm: LLMConfig, cfg: StrataConfig, role: str) -> Engine:
    return OpenAIEngine(llm, role=role) if llm.kind == "openai" else VLLMEngine.start(llm, cfg.models.home)


class LocalLLM:
    """Engines in this process (``strata ask``, evaluation, benchmarks' in-process path): vLLM engines, or
    clients of an OpenAI-compatible server."""

    def __init__(self, writer: Engine, verifier: Engine | None = None) -> None:
        self.engines = {"writer": writer, "verifier": verifier or writer}

    @classmethod
    def start(cls, cfg: StrataConfig) -> "LocalLLM":
        writer = _start(cfg.answer.writer, cfg, "writer")
        verifier = _start(cfg.answer.verifier, cfg, "verifier") if cfg.answer.verifier else None
        return cls(writer, verifier)

    def model(self, role: Role) -> str:
        return self.engines[role].llm.model

    async def stream(self, role, messages, *, max_tokens, temperature=0.0, schema=None):
        async for event in self.engines[role].stream(messages, max_tokens=max_tokens, temperature=temperature,
                                                     schema=schema):
            yield event

    async def count_tokens(self, role, messages) -> int:
        count = self.engines[role].count_tokens(messages)  # a server's count is awaited
        return await count if inspect.isawaitable(count) else count

    async def ready(self) -> str:
        for engine in {id(e): e for e in self.engines.values()}.values():
            if isinstance(engine, OpenAIEngine):
                await engine.ready()
        return "ok"

    def shutdown(self) -> None:
        for engine in {id(e): e for e in self.engines.values()}.values():
            engine.shutdown()
