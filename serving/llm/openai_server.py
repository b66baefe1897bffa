"""An LLM on an OpenAI-compatible server the user already runs (vLLM, llama.cpp, TGI, Ollama, a hosted
API): ``answer.writer.kind = "openai"`` with ``base_url``, ``model`` and ``api_key_env`` (the NAME of the
environment variable that holds the key). The same interface as :class:`serving.llm.engine.VLLMEngine`:
streamed :class:`~serving.llm.engine.GenerationEvent` s with the server's own token usage, JSON-schema
structured output (``response_format``), prompt token counts.

The ``openai`` client does the HTTP: timeouts (``request_timeout_s`` to the first byte and between streamed
chunks, ``connect_timeout_s``), retries with exponential backoff on 408/409/429/5xx and lost connections
(``request_retries``; a ``Retry-After`` is honoured). A prompt the server finds too long is a
:class:`~serving.llm.engine.PromptTooLong`; any other failure a :class:`LLMServerError` naming the server.

>>> from cluster.config import LLMConfig
>>> engine = OpenAIEngine(LLMConfig(kind="openai", base_url="http://127.0.0.1:8001/v1", model="m"))
>>> engine.root_url
'http://127.0.0.1:8001/'
>>> # async for event in engine.stream([{"role": "user", "content": "Hi"}], max_tokens=16): ...
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import AsyncIterator
from typing import Any

from cluster.config import LLMConfig
from serving.llm.engine import GenerationEvent, PromptTooLong, final_event, sampling_penalties

# What servers say when the prompt does not fit (vLLM, llama.cpp, TGI, OpenAI).
_TOO_LONG = ("maximum context length", "context length", "too long", "exceeds the context", "context window",
             "input_tokens", "max_model_len")
CHARS_PER_TOKEN = 3.0  # a prompt's size when the server cannot count its tokens: ~4 chars/token in English, rounded
                       # down so the estimate errs long (passages are trimmed earlier, never cut by the server)


class LLMServerError(RuntimeError):
    """The OpenAI-compatible server failed, refused, or could not be reached (after the retries)."""


def api_key_of(llm: LLMConfig, role: str = "writer") -> str | None:
    """The API key from the environment variable ``llm.api_key_env`` names (None when no variable is named).

    >>> api_key_of(LLMConfig(kind="openai", base_url="u")) is None
    True
    >>> api_key_of(LLMConfig(kind="openai", base_url="u", api_key_env="STRATA_DOCTEST_UNSET_KEY"))
    Traceback (most recent call last):
    ...
    serving.llm.openai_server.LLMServerError: answer.writer.api_key_env names STRATA_DOCTEST_UNSET_KEY, but that environment variable is not set (or empty) where the writer runs
    """
    if not llm.api_key_env:
        return None
    key = os.environ.get(llm.api_key_env, "").strip()
    if not key:
        raise LLMServerError(f"answer.{role}.api_key_env names {llm.api_key_env}, but that environment variable is "
                             f"not set (or empty) where the {role} runs")
    return key


def estimate_tokens(messages: list[dict[str, str]]) -> int:
    """A generous token count for a server that cannot count them (:data:`CHARS_PER_TOKEN`, plus a chat
    template's few tokens a message).

    >>> estimate_tokens([{"role": "user", "content": "x" * 300}])
    108
    """
    return sum(math.ceil(len(m.get("content") or "") / CHARS_PER_TOKEN) + 8 for m in messages)


def chat_body(llm: LLMConfig, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
              schema: dict | None = None, repetition_penalty: float | None = None,
              frequency_penalty: float | None = None, presence_penalty: float | None = None) -> dict[str, Any]:
    """The OpenAI chat-completions request body of one streamed generation (usage included); with ``schema``
    the output is constrained to that JSON schema and the penalties are neutral unless given, as in
    :meth:`serving.llm.engine.VLLMEngine.stream`. ``repetition_penalty`` (vLLM's extra field) is in the
    body when ``llm.send_repetition_penalty`` and it is not 1.

    >>> body = chat_body(LLMConfig(model="m"), [{"role": "user", "content": "Hi"}], max_tokens=8)
    >>> body["model"], body["stream"], body["stream_options"], body["repetition_penalty"]
    ('m', True, {'include_usage': True}, 1.15)
    >>> "repetition_penalty" in chat_body(LLMConfig(), [], max_tokens=8, schema={"title": "F"})
    False
    """
    if schema is not None:
        repetition_penalty = 1.0 if repetition_penalty is None else repetition_penalty
        frequency_penalty = 0.0 if frequency_penalty is None else frequency_penalty
        presence_penalty = 0.0 if presence_penalty is None else presence_penalty
    penalties = sampling_penalties(llm, repetition_penalty=repetition_penalty,
                                   frequency_penalty=frequency_penalty, presence_penalty=presence_penalty)
    body: dict[str, Any] = dict(
        model=llm.model, messages=messages, max_tokens=max_tokens, temperature=temperature, stream=True,
        stream_options={"include_usage": True}, frequency_penalty=penalties["frequency_penalty"],
        presence_penalty=penalties["presence_penalty"])
    if schema is not None:
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": schema.get("title") or "form", "schema": schema}}
    if llm.send_repetition_penalty and penalties["repetition_penalty"] != 1.0:
        body["repetition_penalty"] = penalties["repetition_penalty"]
    return body


async def chunk_events(chunks: AsyncIterator[dict[str, Any]], messages: list[dict[str, str]],
                       t0: float) -> AsyncIterator[GenerationEvent]:
    """:class:`GenerationEvent` s from the streamed chat-completion chunks (as dicts) of one generation: a
    delta per piece of text, then the final event with the server's usage (estimated when it sends none).
    ``t0``: when the request was sent (``time.perf_counter()``), for the time to the first token."""
    ttft = None
    parts: list[str] = []
    usage = None
    finish = None
    async for chunk in chunks:
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or ():
            finish = choice.get("finish_reason") or finish
            piece = (choice.get("delta") or {}).get("content")
            if piece:
                if ttft is None:
                    ttft = time.perf_counter() - t0
                parts.append(piece)
                yield GenerationEvent(delta=piece)
    # The server's own counts; a server that reports no usage: its streamed pieces, and the prompt estimated
    prompt_tokens = usage["prompt_tokens"] if usage else estimate_tokens(messages)
    completion = usage["completion_tokens"] if usage else len(parts)
    yield GenerationEvent(delta="", done=True, text="".join(parts), prompt_tokens=prompt_tokens,
                          completion_tokens=completion, ttft_s=ttft, finish_reason=finish)


class OpenAIEngine:
    """One model on an OpenAI-compatible server (``llm.base_url``), through the ``openai`` client."""

    def __init__(self, llm: LLMConfig, *, role: str = "writer") -> None:
        import openai

        if not llm.base_url:
            raise LLMServerError(f"answer.{role}.kind = 'openai' needs answer.{role}.base_url")
        self.llm = llm
        self.role = role
        self.max_model_len = llm.max_model_len
        # "EMPTY": the placeholder vLLM documents for a server started without --api-key (the client
        # insists on a key, and must not pick up an unrelated OPENAI_API_KEY from the environment)
        self.client = openai.AsyncOpenAI(
            base_url=llm.base_url, api_key=api_key_of(llm, role) or "EMPTY",
            timeout=openai.Timeout(llm.request_timeout_s, connect=llm.connect_timeout_s),
            max_retries=llm.request_retries)
        self._can_tokenize: bool | None = None  # whether the server has vLLM's /tokenize (found on first use)

    @property
    def root_url(self) -> str:
        """The server's root (``base_url`` without its ``/v1``), where vLLM serves ``/tokenize`` and ``/metrics``."""
        url = self.llm.base_url.rstrip("/")
        return (url[:-3] if url.endswith("/v1") else url) + "/"

    def _failed(self, exc: Exception) -> Exception:
        import openai

        message = getattr(exc, "message", None) or str(exc)
        if isinstance(exc, openai.BadRequestError) and any(s in message.lower() for s in _TOO_LONG):
            return PromptTooLong(f"{self.llm.base_url}: {message}")
        if isinstance(exc, openai.APITimeoutError):
            detail = f"no response within answer.{self.role}.request_timeout_s = {self.llm.request_timeout_s:g} s"
        elif isinstance(exc, openai.APIConnectionError):
            detail = f"cannot connect ({exc.__cause__ or message})"
        elif isinstance(exc, openai.APIStatusError):
            detail = f"HTTP {exc.status_code}: {message[:300]}"
        else:
            detail = f"{type(exc).__name__}: {message[:300]}"
        retryable = (not isinstance(exc, openai.APIStatusError)  # the statuses the client retries, and lost connections
                     or exc.status_code in (408, 409, 429) or exc.status_code >= 500)
        retried = f" after {self.llm.request_retries} retries" if self.llm.request_retries and retryable else ""
        return LLMServerError(f"the {self.role}'s OpenAI-compatible server {self.llm.base_url} (model "
                              f"{self.llm.model!r}) failed{retried}: {detail}")

    async def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float = 0.0,
                     schema: dict | None = None, repetition_penalty: float | None = None,
                     frequency_penalty: float | None = None,
                     presence_penalty: float | None = None) -> AsyncIterator[GenerationEvent]:
        """Generate, yielding text deltas; with ``schema`` the output is constrained to that JSON schema.
        The penalties follow :meth:`serving.llm.engine.VLLMEngine.stream` (neutral for a JSON form)."""
        import openai

        body = chat_body(self.llm, messages, max_tokens=max_tokens, temperature=temperature, schema=schema,
                         repetition_penalty=repetition_penalty, frequency_penalty=frequency_penalty,
                         presence_penalty=presence_penalty)
        extra = {"repetition_penalty": body.pop("repetition_penalty")} if "repetition_penalty" in body else {}
        t0 = time.perf_counter()
        try:
            stream = await self.client.chat.completions.create(**body, **({"extra_body": extra} if extra else {}))
        except openai.OpenAIError as exc:
            raise self._failed(exc) from exc

        async def chunks() -> AsyncIterator[dict[str, Any]]:
            try:
                async for chunk in stream:
                    yield chunk.model_dump()
            except openai.OpenAIError as exc:
                raise self._failed(exc) from exc

        try:
            async for event in chunk_events(chunks(), messages, t0):
                yield event
        finally:  # stopped early (degenerate output, a closed client): closing the response ends the generation
            await stream.close()

    async def complete(self, messages: list[dict[str, str]], **kwargs) -> GenerationEvent:
        """The whole generation at once (the final :class:`GenerationEvent`)."""
        return await final_event(self.stream(messages, **kwargs))

    async def count_tokens(self, messages: list[dict[str, str]]) -> int:
        """Prompt tokens of ``messages`` (chat template included), counted by the server's ``/tokenize`` (vLLM's
        API); :func:`estimate_tokens` on a server without one, or when that call fails (the generation that
        follows then reports the failure)."""
        import openai

        if self._can_tokenize is not False:
            try:
                out = await self.client.with_options(
                    base_url=self.root_url, max_retries=0,
                    timeout=openai.Timeout(self.llm.request_timeout_s, connect=self.llm.connect_timeout_s)).post(
                    "/tokenize", cast_to=object,
                    body={"model": self.llm.model, "messages": messages, "add_generation_prompt": True})
                count = out.get("count") if isinstance(out, dict) else None
                if isinstance(count, int):
                    self._can_tokenize = True
                    return count
                self._can_tokenize = False
            except openai.APIStatusError as exc:
                if exc.status_code in (404, 405, 501):
                    self._can_tokenize = False
            except openai.OpenAIError:
                pass
        return estimate_tokens(messages)

    async def ready(self) -> str:
        """The model's name once the server lists it (``GET /v1/models``); :class:`LLMServerError` otherwise."""
        import openai

        try:
            served = [m.id async for m in self.client.models.list()]
        except openai.OpenAIError as exc:
            raise self._failed(exc) from exc
        if served and self.llm.model not in served:
            raise LLMServerError(f"the {self.role}'s server {self.llm.base_url} does not serve answer.{self.role}.model = "
                                 f"{self.llm.model!r}; it serves {', '.join(served[:10])}")
        return self.llm.model

    def shutdown(self) -> None:
        """Nothing to stop (the server is not ours); the client's connections close with it."""
