"""``LLMWriter`` / ``LLMVerifier``: a vLLM engine (``AsyncLLM``) in a Serve deployment, and
:class:`ServeLLM`, the :class:`~serving.llm.client.LLMClient` over their handles.

vLLM batches concurrent requests itself (continuous batching), so the deployment passes each call
straight to the engine; generation streams back through ``handle.options(stream=True)``. Replicas,
CPUs, GPUs and tensor parallelism come from ``answer.writer`` / ``answer.verifier``. The verifier
deployment exists only when ``answer.verifier`` names another model; otherwise the writer serves both.

>>> # async for event in handle.options(stream=True).stream.remote(messages, 64, 0.0, None): ...
"""

from __future__ import annotations

from ray import serve
from ray.serve.handle import DeploymentHandle

from cluster.config import StrataConfig
from cluster.telemetry.tracing import trace_carrier, traced_call
from serving.llm.client import openai_engines
from serving.llm.engine import VLLMEngine


@serve.deployment(name="LLMWriter")
class LLMDeployment:
    def __init__(self, config: dict, role: str = "writer") -> None:
        cfg = StrataConfig.model_validate(config)
        llm = cfg.answer.verifier if role == "verifier" and cfg.answer.verifier else cfg.answer.writer
        self.engine = VLLMEngine.start(llm, cfg.models.home)
        self.name = llm.model

    @traced_call("serve.LLM.stream")  # LLMWriter and LLMVerifier
    async def stream(self, messages: list[dict[str, str]], max_tokens: int, temperature: float, schema: dict | None):
        async for event in self.engine.stream(messages, max_tokens=max_tokens, temperature=temperature, schema=schema):
            yield event

    @traced_call("serve.LLM.count_tokens")  # LLMWriter and LLMVerifier
    async def count_tokens(self, messages: list[dict[str, str]]) -> int:
        return self.engine.count_tokens(messages)

    @traced_call("serve.LLM.ready")  # LLMWriter and LLMVerifier
    async def ready(self) -> str:
        return self.name

    def __del__(self) -> None:
        """Serve calls this when the replica stops: end vLLM's engine-core and worker processes
        with it (they are child processes and would otherwise outlive the replica)."""
        engine = getattr(self, "engine", None)
        if engine is not None:
            engine.shutdown()


class ServeLLM:
    """The LLM roles over deployment handles (the verifier falls back to the writer), or — for a role with
    ``kind = "openai"`` — the ingress's own client of that OpenAI-compatible server."""

    def __init__(self, cfg: StrataConfig, writer: DeploymentHandle | None = None,
                 verifier: DeploymentHandle | None = None) -> None:
        self.servers = openai_engines(cfg)
        self.handles = {"writer": writer, "verifier": verifier or writer}
        for role, llm in (("writer", cfg.answer.writer), ("verifier", cfg.answer.verifier or cfg.answer.writer)):
            if role not in self.servers and llm.deployment == "ray_serve_llm" and self.handles[role] is not None:
                from serving.llm.ray_serve_llm import RayServeLLM  # Ray Serve's LLMServer: the engine interface

                self.servers[role] = RayServeLLM(llm, self.handles[role], cfg.models.home)
        missing = [r for r in ("writer", "verifier") if r not in self.servers and self.handles[r] is None]
        if missing:
            raise ValueError(f"no LLM deployment and no OpenAI-compatible server for the {' and '.join(missing)}")
        verifier_cfg = cfg.answer.verifier or cfg.answer.writer
        self.names = {"writer": cfg.answer.writer.model, "verifier": verifier_cfg.model}

    def model(self, role: str) -> str:
        return self.names[role]

    async def stream(self, role, messages, *, max_tokens, temperature=0.0, schema=None):
        if role in self.servers:
            async for event in self.servers[role].stream(messages, max_tokens=max_tokens, temperature=temperature,
                                                         schema=schema):
                yield event
            return
        handle = self.handles[role].options(stream=True)
        response = handle.stream.remote(messages, max_tokens, temperature, schema, trace_carrier=trace_carrier())
        try:
            async for event in response:
                yield event
        finally:  # stopped early (a degenerate output, a closed client): end the replica's generation too
            response.cancel()

    async def count_tokens(self, role, messages) -> int:
        if role in self.servers:
            return await self.servers[role].count_tokens(messages)
        return await self.handles[role].count_tokens.remote(messages, trace_carrier=trace_carrier())

    async def ready(self) -> str:
        if "writer" in self.servers:
            return await self.servers["writer"].ready()
        return await self.handles["writer"].ready.remote(trace_carrier=trace_carrier())
