"""Who runs the LLMs: :class:`LLMClient` is what the answer service calls, by role.

``writer`` answers; ``verifier`` judges and analyses queries (it is the writer's engine unless
``answer.verifier`` names another model). :class:`LocalLLM` starts vLLM engines in this process;
:class:`serving.deployments.llm.ServeLLM` calls the Serve LLM deployments.

>>> # llm = LocalLLM.start(cfg); async for event in llm.stream("writer", messages, max_tokens=64): ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Literal, Protocol

from cluster.config import StrataConfig
from serving.llm.engine import GenerationEvent, VLLMEngine

Role = Literal["writer", "verifier"]


class LLMClient(Protocol):
    def model(self, role: Role) -> str: ...

    def stream(self, role: Role, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
               schema: dict | None = None) -> AsyncIterator[GenerationEvent]: ...

    async def count_tokens(self, role: Role, messages: list[dict[str, str]]) -> int: ...

    async def ready(self) -> str: ...


class LocalLLM:
    """Engines in this process (``strata ask``, evaluation, benchmarks' in-process path)."""

    def __init__(self, writer: VLLMEngine, verifier: VLLMEngine | None = None) -> None:
        self.engines = {"writer": writer, "verifier": verifier or writer}

    @classmethod
    def start(cls, cfg: StrataConfig) -> "LocalLLM":
        writer = VLLMEngine.start(cfg.answer.writer, cfg.models.home)
        verifier = VLLMEngine.start(cfg.answer.verifier, cfg.models.home) if cfg.answer.verifier else None
        return cls(writer, verifier)

    def model(self, role: Role) -> str:
        return self.engines[role].llm.model

    async def stream(self, role, messages, *, max_tokens, temperature=0.0, schema=None):
        async for event in self.engines[role].stream(messages, max_tokens=max_tokens, temperature=temperature,
                                                     schema=schema):
            yield event

    async def count_tokens(self, role, messages) -> int:
        return self.engines[role].count_tokens(messages)

    async def ready(self) -> str:
        return "ok"

    def shutdown(self) -> None:
        for engine in {id(e): e for e in self.engines.values()}.values():
            engine.shutdown()
