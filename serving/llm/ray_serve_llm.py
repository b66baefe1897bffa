"""The in-cluster LLM on Ray Serve's LLM API (``answer.writer.deployment = "ray_serve_llm"``): Ray's
``LLMServer`` deployment (``ray.serve.llm.build_llm_deployment``) runs vLLM with vLLM's own OpenAI serving,
Ray's placement groups, replica autoscaling and engine metrics; Strata talks to it over its deployment
handle, never over HTTP (the deployment has no route, so the answer path's keys and limits stay the only
way in).

:func:`ray_llm_config` turns Strata's :class:`~cluster.config.LLMConfig` into Ray's ``LLMConfig`` (the same
vLLM engine arguments as :func:`serving.llm.engine.engine_args`, the same model folder). :class:`RayServeLLM`
is the :class:`~serving.llm.engine.VLLMEngine` interface over the handle: ``stream`` sends the OpenAI chat
request :func:`~serving.llm.openai_server.chat_body` builds and reads the streamed chunks back (the handle
yields batches of ``data: {…}`` SSE lines) through the same :func:`~serving.llm.openai_server.chunk_events`
as an OpenAI-compatible server; ``count_tokens`` is vLLM's tokenize on the same replica, else the model
folder's tokenizer.

>>> lines = ['data: {"choices": [{"delta": {"content": "Hi"}}]}\\n\\n', "data: [DONE]\\n\\n"]
>>> list(sse_payloads(lines))
[{'choices': [{'delta': {'content': 'Hi'}}]}]
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from cluster.config import LLMConfig
from cluster.models.llm import resolve_llm
from serving.llm.engine import (
    GenerationEvent, PromptTooLong, chat_tokens, cpu_thread_binding, engine_args, final_event,
)
from serving.llm.openai_server import _TOO_LONG, LLMServerError, chat_body, chunk_events, estimate_tokens


def ray_llm_config(llm: LLMConfig, models_home: Path, *, cpus: float, gpus: float = 0.0):
    """Ray Serve's ``LLMConfig`` for Strata's ``llm`` (one replica set of ``llm.replicas``, ``cpus`` each;
    ``gpus`` > 0 places it on GPUs with ``llm.tensor_parallel_size`` of them a replica)."""
    from ray.serve.llm import LLMConfig as RayLLMConfig

    args = engine_args(llm, models_home)
    model, name = args.pop("model"), args.pop("served_model_name")
    args["disable_log_stats"] = False  # Ray's engine metrics (log_engine_metrics) need vLLM's stats
    structured = args.pop("structured_outputs_config", None)
    if structured is not None:  # a vLLM config object: Ray's config wants plain values
        args["structured_outputs_config"] = {"backend": structured.backend,
                                             "disable_any_whitespace": structured.disable_any_whitespace}
    env = {}
    if not gpus and (binding := cpu_thread_binding(llm)):
        env["VLLM_CPU_OMP_THREADS_BIND"] = binding
    accelerator = {"kind": "gpu"} if gpus else {"kind": "cpu"}
    # One bundle a replica holding the replica's CPUs (on a CPU host the engine runs in that bundle), and
    # one GPU a tensor-parallel rank on GPU hosts.
    bundles = ([{"GPU": 1, "CPU": cpus if i == 0 else 0} for i in range(llm.tensor_parallel_size)] if gpus
               else [{"CPU": cpus}])
    return RayLLMConfig(
        model_loading_config={"model_id": name, "model_source": str(model)},
        accelerator_config=accelerator, engine_kwargs=args, placement_group_config={"bundles": bundles},
        deployment_config={"num_replicas": llm.replicas, "ray_actor_options": {"num_cpus": 0}},
        runtime_env={"env_vars": env} if env else None, log_engine_metrics=True)


def sse_payloads(batch: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """The JSON objects of a batch of streamed SSE strings (``data: {…}``; ``[DONE]`` skipped)."""
    for item in batch:
        if not isinstance(item, str):
            raise _error_of(item)
        for line in item.splitlines():
            if line.startswith("data:"):
                payload = line[5:].strip()
                if payload and payload != "[DONE]":
                    obj = json.loads(payload)
                    if "error" in obj and "choices" not in obj:
                        raise _error_of(obj["error"])
                    yield obj


def _error_of(item: Any) -> Exception:
    """A :class:`PromptTooLong` or :class:`LLMServerError` from an error the LLM server streamed back."""
    data = item.model_dump() if hasattr(item, "model_dump") else item
    if isinstance(data, dict) and "error" in data and isinstance(data["error"], dict):
        data = data["error"]
    message = str(data.get("message") if isinstance(data, dict) else data)
    if any(s in message.lower() for s in _TOO_LONG):
        return PromptTooLong(f"Ray Serve LLM: {message}")
    return LLMServerError(f"the Ray Serve LLM deployment failed: {message[:300]}")


class RayServeLLM:
    """One model on a Ray Serve ``LLMServer`` deployment, over its handle (the ``VLLMEngine`` interface)."""

    def __init__(self, llm: LLMConfig, handle: Any, models_home: Path) -> None:
        self.llm = llm
        self.handle = handle
        self.models_home = models_home
        self.max_model_len = llm.max_model_len
        self._remote_tokenize = True
        self._tokenizer: Any = None  # loaded on first use; False: none to be had

    async def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
                     schema: dict | None = None, repetition_penalty: float | None = None,
                     frequency_penalty: float | None = None,
                     presence_penalty: float | None = None) -> AsyncIterator[GenerationEvent]:
        """Generate, yielding text deltas (see :meth:`serving.llm.engine.VLLMEngine.stream`)."""
        from ray.serve.llm.openai_api_models import ChatCompletionRequest

        request = ChatCompletionRequest(**chat_body(
            self.llm, messages, max_tokens=max_tokens, temperature=temperature, schema=schema,
            repetition_penalty=repetition_penalty, frequency_penalty=frequency_penalty,
            presence_penalty=presence_penalty))
        t0 = time.perf_counter()
        response = self.handle.options(stream=True).chat.remote(request, None)

        async def chunks() -> AsyncIterator[dict[str, Any]]:
            async for batch in response:
                for payload in sse_payloads(batch if isinstance(batch, list) else [batch]):
                    yield payload

        try:
            async for event in chunk_events(chunks(), messages, t0):
                yield event
        finally:  # stopped early (a degenerate output, a closed client): end the replica's generation too
            response.cancel()

    async def complete(self, messages: list[dict[str, str]], **kwargs) -> GenerationEvent:
        """The whole generation at once (the final :class:`GenerationEvent`)."""
        return await final_event(self.stream(messages, **kwargs))

    async def count_tokens(self, messages: list[dict[str, str]]) -> int:
        """Prompt tokens of ``messages`` (chat template included): vLLM's tokenize on the replica; where Ray's
        wrapper cannot reach it (Ray 2.60 looks for ``openai_serving_tokenization``, which vLLM 0.32 names
        ``serving_tokenization``), the model folder's own tokenizer here, else a generous estimate."""
        if self._remote_tokenize:
            from vllm.entrypoints.serve.tokenize.protocol import TokenizeChatRequest

            request = TokenizeChatRequest(model=self.llm.model, messages=messages, add_generation_prompt=True)
            async for out in self.handle.options(stream=True).tokenize.remote(request, None):
                data = out.model_dump() if hasattr(out, "model_dump") else out
                if isinstance(data, dict) and isinstance(data.get("count"), int):
                    return data["count"]
                self._remote_tokenize = False  # an error response: the endpoint is not there
                break
        tokenizer = self._local_tokenizer()
        if tokenizer is None:
            return estimate_tokens(messages)
        return chat_tokens(tokenizer, messages)

    def _local_tokenizer(self):
        if self._tokenizer is None:
            try:
                from transformers import AutoTokenizer

                self._tokenizer = AutoTokenizer.from_pretrained(str(resolve_llm(self.llm, self.models_home)))
            except Exception:  # noqa: BLE001 - no model folder on this node, or no transformers: estimate
                self._tokenizer = False
        return self._tokenizer or None

    async def ready(self) -> str:
        await self.handle.check_health.remote()
        return self.llm.model

    def shutdown(self) -> None:
        """Nothing to stop: Serve owns the deployment."""
