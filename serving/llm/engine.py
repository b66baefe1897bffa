"""One vLLM engine (``AsyncLLM``) with chat templating, JSON-schema structured output and streaming.

The same class runs inside the Serve deployment (:class:`serving.deployments.llm.LLMDeployment`)
and in-process (``strata ask``, evaluation). vLLM starts its engine core in a child process
(multiprocessing *spawn*): scripts that create an engine need an ``if __name__ == "__main__"`` guard.

>>> # engine = VLLMEngine.start(cfg.answer.writer, cfg.models.home)
>>> # async for event in engine.stream([{"role": "user", "content": "Hi"}], max_tokens=16): ...
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cluster.config import LLMConfig
from cluster.models.llm import resolve_llm


class PromptTooLong(ValueError):
    """The prompt does not fit the model's context window (the caller trims context and retries)."""


@dataclass
class GenerationEvent:
    """A streamed piece of a generation: ``delta`` text; the last event has ``done`` and the usage."""

    delta: str
    done: bool = False
    text: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    ttft_s: float | None = None
    finish_reason: str | None = None


async def final_event(events) -> GenerationEvent:
    """The last event of a generation's stream (the one with ``done`` and the usage): ``complete()``."""
    last = None
    async for event in events:
        last = event
    assert last is not None and last.done
    return last


def _has_cuda() -> bool:
    try:
        import torch

        return bool(torch.cuda.is_available())
    except Exception:  # noqa: BLE001 - torch missing or broken: CPU
        return False


def cpu_thread_binding(llm: LLMConfig, cpus: list[int] | None = None) -> str | None:
    """The cores the CPU engine's worker binds its OpenMP threads to (``VLLM_CPU_OMP_THREADS_BIND``),
    or None for vLLM's own choice.

    >>> cpu_thread_binding(LLMConfig(), cpus=[0, 1])
    '0,1'
    >>> cpu_thread_binding(LLMConfig(), cpus=list(range(16))) is None
    True
    >>> cpu_thread_binding(LLMConfig(cpu_threads=3), cpus=list(range(16)))
    '0,1,2'
    """
    cpus = sorted(os.sched_getaffinity(0)) if cpus is None else cpus
    threads = llm.cpu_threads or (len(cpus) if len(cpus) <= 4 else None)
    return ",".join(str(c) for c in cpus[:threads]) if threads else None


def engine_args(llm: LLMConfig, models_home: Path) -> dict[str, Any]:
    """vLLM ``AsyncEngineArgs`` keyword arguments for ``llm`` (CPU defaults when no GPU is visible)."""
    from vllm.config import StructuredOutputsConfig

    cuda = _has_cuda()
    utilization = llm.gpu_memory_utilization or (0.9 if cuda else 0.15)
    return dict(
        model=str(resolve_llm(llm, models_home)), served_model_name=llm.model,
        dtype=llm.dtype if (cuda or llm.dtype != "auto") else "bfloat16",
        max_model_len=llm.max_model_len, max_num_seqs=llm.max_num_seqs,
        tensor_parallel_size=llm.tensor_parallel_size, gpu_memory_utilization=utilization,
        enforce_eager=llm.enforce_eager if llm.enforce_eager is not None else not cuda,
        disable_log_stats=True, enable_prefix_caching=True,
        # compact JSON: small models otherwise fill the free whitespace of a JSON grammar with newlines
        structured_outputs_config=StructuredOutputsConfig(backend="xgrammar", disable_any_whitespace=True),
    )


def sampling_penalties(llm: LLMConfig, **overrides: float | None) -> dict[str, float]:
    """The penalty arguments of vLLM's ``SamplingParams``: ``llm``'s values, replaced by the overrides
    that are not None.

    >>> sampling_penalties(LLMConfig())
    {'repetition_penalty': 1.15, 'frequency_penalty': 0.3, 'presence_penalty': 0.0}
    >>> sampling_penalties(LLMConfig(), repetition_penalty=1.0, frequency_penalty=None)["repetition_penalty"]
    1.0
    """
    out = {name: float(getattr(llm, name)) for name in ("repetition_penalty", "frequency_penalty", "presence_penalty")}
    unknown = set(overrides) - set(out)
    if unknown:
        raise TypeError(f"unknown sampling penalties: {sorted(unknown)}")
    out.update({name: float(value) for name, value in overrides.items() if value is not None})
    return out


def chat_tokens(tokenizer: Any, messages: list[dict[str, str]]) -> int:
    """Tokens of ``messages`` as the model sees them: its chat template, with the generation prompt."""
    prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return len(tokenizer.encode(prompt, add_special_tokens=False))


class VLLMEngine:
    """A started vLLM engine for one model."""

    def __init__(self, engine: Any, llm: LLMConfig) -> None:
        self.engine = engine
        self.llm = llm
        self.tokenizer = engine.tokenizer if getattr(engine, "tokenizer", None) is not None else None
        self.max_model_len = llm.max_model_len

    @classmethod
    def start(cls, llm: LLMConfig, models_home: Path) -> "VLLMEngine":
        """Load the model and start the engine (tens of seconds on CPU)."""
        from vllm.engine.arg_utils import AsyncEngineArgs
        from vllm.v1.engine.async_llm import AsyncLLM

        if not _has_cuda() and (binding := cpu_thread_binding(llm)) and "VLLM_CPU_OMP_THREADS_BIND" not in os.environ:
            os.environ["VLLM_CPU_OMP_THREADS_BIND"] = binding  # read by the engine's worker process
        engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**engine_args(llm, models_home)))
        out = cls(engine, llm)
        if out.tokenizer is None:
            from transformers import AutoTokenizer

            out.tokenizer = AutoTokenizer.from_pretrained(str(resolve_llm(llm, models_home)))
        return out

    def prompt(self, messages: list[dict[str, str]]) -> str:
        """The chat-templated prompt text for ``messages``."""
        return self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)

    def count_tokens(self, messages: list[dict[str, str]]) -> int:
        """Prompt tokens of ``messages`` (chat template included)."""
        return chat_tokens(self.tokenizer, messages)

    async def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
                     schema: dict | None = None, repetition_penalty: float | None = None,
                     frequency_penalty: float | None = None,
                     presence_penalty: float | None = None) -> AsyncIterator[GenerationEvent]:
        """Generate, yielding text deltas; with ``schema`` the output is constrained to that JSON schema.

        The repetition, frequency and presence penalties are the model's :class:`LLMConfig` values for free
        text, neutral (1.0 / 0.0 / 0.0) for a JSON form (a grammar already bounds it, and penalising the
        tokens a form repeats — quotes, keys — breaks it), unless given here."""
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind, StructuredOutputsParams

        prompt = self.prompt(messages)
        n_prompt = len(self.tokenizer.encode(prompt, add_special_tokens=False))
        if n_prompt + 1 > self.max_model_len:
            raise PromptTooLong(f"prompt of {n_prompt} tokens does not fit max_model_len {self.max_model_len}")
        max_tokens = max(1, min(max_tokens, self.max_model_len - n_prompt))
        if schema is not None:
            repetition_penalty = 1.0 if repetition_penalty is None else repetition_penalty
            frequency_penalty = 0.0 if frequency_penalty is None else frequency_penalty
            presence_penalty = 0.0 if presence_penalty is None else presence_penalty
        params = SamplingParams(max_tokens=max_tokens, temperature=temperature,
                                output_kind=RequestOutputKind.DELTA,
                                structured_outputs=StructuredOutputsParams(json=schema) if schema else None,
                                **sampling_penalties(self.llm, repetition_penalty=repetition_penalty,
                                                     frequency_penalty=frequency_penalty,
                                                     presence_penalty=presence_penalty))
        t0 = time.perf_counter()
        ttft = None
        parts: list[str] = []
        completion = 0
        finish = None
        prompt_tokens = n_prompt
        try:
            async for out in self.engine.generate(prompt, params, request_id=uuid.uuid4().hex):
                piece = out.outputs[0]
                if ttft is None:
                    ttft = time.perf_counter() - t0
                if out.prompt_token_ids is not None:
                    prompt_tokens = len(out.prompt_token_ids)
                completion += len(piece.token_ids)
                finish = piece.finish_reason or finish
                if piece.text:
                    parts.append(piece.text)
                    yield GenerationEvent(delta=piece.text)
        except ValueError as exc:  # vLLM's own length check (e.g. a different tokenizer count)
            if "longer than the maximum model length" in str(exc) or "max_model_len" in str(exc):
                raise PromptTooLong(str(exc)) from exc
            raise
        yield GenerationEvent(delta="", done=True, text="".join(parts), prompt_tokens=prompt_tokens,
                              completion_tokens=completion, ttft_s=ttft, finish_reason=finish)

    async def complete(self, messages: list[dict[str, str]], **kwargs) -> GenerationEvent:
        """The whole generation at once (the final :class:`GenerationEvent`)."""
        return await final_event(self.stream(messages, **kwargs))

    def shutdown(self) -> None:
        """Stop the engine (its core process and IPC) now; later calls do nothing.

        vLLM's ``AsyncLLM.__del__`` calls its ``shutdown()`` again when the object is collected; left to
        interpreter exit, with modules half torn down, that raised a TypeError traceback. So the stopped
        engine's ``shutdown`` is replaced by a no-op and the reference dropped: collected now or at exit,
        its ``__del__`` does nothing."""
        engine, self.engine = self.engine, None
        if engine is None:
            return
        try:
            engine.shutdown()
        except Exception:  # noqa: BLE001 - stopping anyway; a failed cleanup must not hide the answer
            import logging

            logging.getLogger(__name__).info("vLLM engine shutdown failed", exc_info=True)  # the log file
        finally:
            try:
                engine.shutdown = lambda *args, **kwargs: None  # what __del__ calls
            except Exception:  # noqa: BLE001 - a read-only attribute: __del__ then runs vLLM's (idempotent) one
                pass
