"""Answers from an OpenAI-compatible server (``answer.writer.kind = "openai"``), end to end against a REAL
server started here: vLLM's own OpenAI server (``python -m vllm.entrypoints.openai.api_server``) on the
installed SmolLM2-135M-Instruct, with an API key the client reads from the environment variable the config
names. Every check compares Strata's token counts with the server's own Prometheus counters, so the tokens
are known to come from that endpoint.

The server takes ~40 s to start on 2 idle cores (minutes on a busy machine): marked ``slow``
(``pytest -m 'not slow'`` skips it)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from serving.protocol import AnswerRequest
from support import free_port, metric_total

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

MODEL = "smollm2-135m-instruct"
KEY_ENV = "STRATA_TEST_LLM_SERVER_KEY"  # the variable's NAME goes into the config; the tests' conftest keeps STRATA_TEST_*
KEY = "sk-test-4b1d2f0c9e"
ANSWERABLE = "Which epoll flag requests edge-triggered notification?"


@pytest.fixture(scope="module")
def vllm_server(installed_models, tmp_path_factory):
    """vLLM's OpenAI server on SmolLM2, requiring ``KEY``; yields its ``/v1`` URL."""
    from cluster.config import LLMConfig, load_config
    from cluster.models.llm import resolve_llm
    from serving.llm.engine import cpu_thread_binding

    model_dir = resolve_llm(LLMConfig(), load_config().models.home)
    port = free_port()
    log = tmp_path_factory.mktemp("vllm-server") / "server.log"
    env = {**os.environ, "VLLM_CPU_OMP_THREADS_BIND": cpu_thread_binding(LLMConfig()) or "auto"}
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model_dir),
           "--served-model-name", MODEL, "--host", "127.0.0.1", "--port", str(port), "--api-key", KEY,
           "--dtype", "bfloat16", "--max-model-len", "4096", "--enforce-eager",
           # on the CPU backend this is the share of the node's RAM (weights + KV cache), as in engine_args
           "--gpu-memory-utilization", "0.15",
           # compact JSON, as the in-process engine (engine_args): SmolLM2 fills free whitespace with newlines
           "--structured-outputs-config", '{"backend": "xgrammar", "disable_any_whitespace": true}']
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 900
        while True:
            if proc.poll() is not None:
                pytest.fail(f"vLLM's server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if requests.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"vLLM's server did not start in 900 s:\n{log.read_text()[-3000:]}")
            time.sleep(2)
        os.environ[KEY_ENV] = KEY
        yield f"{url}/v1"
    finally:
        os.environ.pop(KEY_ENV, None)
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def server_tokens(base_url: str) -> tuple[float, float]:
    """(prompt, generated) tokens the server counted so far (its own /metrics)."""
    text = requests.get(base_url.removesuffix("/v1") + "/metrics", timeout=10).text
    return (metric_total(text, "vllm:prompt_tokens_total", model_name=MODEL),
            metric_total(text, "vllm:generation_tokens_total", model_name=MODEL))


def _llm(base_url: str, **extra):
    from cluster.config import LLMConfig

    return LLMConfig(kind="openai", base_url=base_url, model=MODEL, api_key_env=KEY_ENV, **extra)


def test_stream_json_form_and_token_counts_come_from_the_server(vllm_server):
    from pydantic import BaseModel

    from serving.llm.forms import parse_form, schema_of
    from serving.llm.openai_server import OpenAIEngine

    class Colour(BaseModel):
        colour: str
        certain: bool

    engine = OpenAIEngine(_llm(vllm_server))
    messages = [{"role": "user", "content": "What colour is a clear daytime sky? Answer in JSON."}]

    async def run():
        assert await engine.ready() == MODEL
        counted = await engine.count_tokens(messages)
        before = server_tokens(vllm_server)
        deltas, last = [], None
        async for event in engine.stream(messages, max_tokens=40, schema=schema_of(Colour)):
            deltas.append(event.delta)
            last = event
        after = server_tokens(vllm_server)
        return counted, before, after, deltas, last

    counted, before, after, deltas, last = asyncio.run(run())
    assert last.done and last.text == "".join(deltas) and len([d for d in deltas if d]) >= 2  # streamed in pieces
    form = parse_form(Colour, last.text)  # the server constrained the output to the schema
    assert isinstance(form.certain, bool) and form.colour
    # the tokens are the server's: its own counters grew by exactly the usage it reported
    assert last.completion_tokens > 0 and after[1] - before[1] == last.completion_tokens
    assert after[0] - before[0] == last.prompt_tokens == counted  # /tokenize counts the prompt as generation sees it


def test_prompt_too_long_wrong_key_and_unreachable_server_are_clear_errors(vllm_server, monkeypatch):
    from serving.llm.engine import PromptTooLong
    from serving.llm.openai_server import LLMServerError, OpenAIEngine

    async def write(engine, text):
        return [e async for e in engine.stream([{"role": "user", "content": text}], max_tokens=8)]

    with pytest.raises(PromptTooLong, match="context length"):
        asyncio.run(write(OpenAIEngine(_llm(vllm_server)), "word " * 5000))

    monkeypatch.setenv(KEY_ENV, "sk-wrong")
    with pytest.raises(LLMServerError, match=r"HTTP 401") as err:
        asyncio.run(write(OpenAIEngine(_llm(vllm_server)), "Hi"))
    assert vllm_server in str(err.value) and "sk-wrong" not in str(err.value)

    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(LLMServerError, match=f"api_key_env names {KEY_ENV}, but that environment variable is not set"):
        OpenAIEngine(_llm(vllm_server))

    monkeypatch.setenv(KEY_ENV, KEY)
    t0 = time.monotonic()
    with pytest.raises(LLMServerError, match="cannot connect"):
        asyncio.run(write(OpenAIEngine(_llm(f"http://127.0.0.1:{free_port()}/v1", request_retries=1)), "Hi"))
    assert time.monotonic() - t0 < 30


class _Throttle:
    """A pass-through proxy in front of the real server that answers the first ``refusals`` chat requests
    with 429 (Retry-After: 0) or 503, as a loaded server or gateway does, and forwards everything else."""

    def __init__(self, target: str, statuses: list[int]) -> None:
        self.statuses = list(statuses)
        self.seen: list[int] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.endswith("/chat/completions") and proxy.statuses:
                    status = proxy.statuses.pop(0)
                    proxy.seen.append(status)
                    self.send_response(status)
                    self.send_header("Retry-After", "0")
                    self.send_header("Content-Type", "application/json")
                    payload = b'{"error": {"message": "busy"}}'
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                proxy.seen.append(200)
                headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type")}
                with requests.post(target + self.path.removeprefix("/v1"), data=body, headers=headers,
                                   stream=True, timeout=120) as r:
                    self.send_response(r.status_code)
                    self.send_header("Content-Type", r.headers.get("Content-Type", "application/json"))
                    self.end_headers()
                    for chunk in r.iter_content(chunk_size=None):
                        self.wfile.write(chunk)
                        self.wfile.flush()
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()


def test_429_and_503_are_retried_with_backoff(vllm_server):
    from serving.llm.openai_server import LLMServerError, OpenAIEngine

    proxy = _Throttle(vllm_server, [429, 503])
    try:
        engine = OpenAIEngine(_llm(proxy.url, request_retries=2))
        before = server_tokens(vllm_server)
        last = asyncio.run(engine.complete([{"role": "user", "content": "Say hello."}], max_tokens=12))
        assert proxy.seen == [429, 503, 200] and last.text and last.completion_tokens > 0
        assert server_tokens(vllm_server)[1] - before[1] == last.completion_tokens
        proxy.statuses = [429, 429]  # more refusals than retries: a clear error, not a hang
        with pytest.raises(LLMServerError, match=r"after 1 retries: HTTP 429"):
            asyncio.run(OpenAIEngine(_llm(proxy.url, request_retries=1)).complete(
                [{"role": "user", "content": "Hi"}], max_tokens=4))
    finally:
        proxy.close()


def _openai_config(data_dir, base_url: str, **answer):
    from cluster.config import load_config

    return load_config(storage={"data_dir": str(data_dir)},
                       answer={"writer": {"kind": "openai", "base_url": base_url, "model": MODEL,
                                          "api_key_env": KEY_ENV}, **answer})


def test_answer_written_by_the_server_with_citations(vllm_server, sample_index):
    """The answer service with ``kind = "openai"``: the writer (and the verifier's analysis and judgment, on the
    same server) run there; the response's usage is what the server counted; a cited answer comes back
    (the server's verified answer, or the extractive fallback when SmolLM2's fails verification)."""
    from serving.services.local import AnswerPipeline

    cfg, _ = sample_index
    config = _openai_config(cfg.storage.data_dir, vllm_server)
    assert "api_key_env" in config.answer.writer.model_dump() and KEY not in config.model_dump_json()
    before = server_tokens(vllm_server)
    with AnswerPipeline(config) as pipe:
        response = pipe.answer(AnswerRequest(question=ANSWERABLE, use_cache=False, max_retries=0))
    after = server_tokens(vllm_server)
    assert response.models["writer"] == MODEL and response.analysis.source == "llm", response.analysis
    assert response.usage["completion_tokens"] > 0 and response.usage["prompt_tokens"] > 0
    # every token Strata counted was generated by that server (and nothing else used it meanwhile)
    assert after[1] - before[1] == response.usage["completion_tokens"], (before, after, response.usage)
    assert after[0] - before[0] == response.usage["prompt_tokens"]
    assert response.refused is False and "EPOLLET" in response.answer and response.citations
    if response.writer == "extractive":
        assert response.extractive.note.startswith("fallback")
    else:
        assert response.writer == "llm" and response.verification.verdict == "pass"


def test_a_failed_server_falls_back_to_the_extractive_answer(vllm_server, sample_index):
    from serving.services.local import AnswerPipeline

    cfg, _ = sample_index
    config = _openai_config(cfg.storage.data_dir, vllm_server, llm_analysis=False)
    config.answer.writer.api_key_env = "STRATA_TEST_LLM_WRONG_KEY"
    os.environ["STRATA_TEST_LLM_WRONG_KEY"] = "sk-nope"
    try:
        with AnswerPipeline(config) as pipe:
            response = pipe.answer(AnswerRequest(question=ANSWERABLE, use_cache=False))
    finally:
        os.environ.pop("STRATA_TEST_LLM_WRONG_KEY")
    assert response.refused is False and response.writer == "extractive" and "EPOLLET" in response.answer
    reasons = response.attempts[0].reasons
    assert len(response.attempts) == 2 and "HTTP 401" in reasons[0] and vllm_server in reasons[0], response.attempts


def test_the_serve_ingress_client_and_plan_use_the_server(vllm_server, sample_index):
    """In the Serve app the ingress calls the server itself: no LLM deployment is planned or bound."""
    from serving.deployments.llm import ServeLLM
    from serving.resources import plan_reservations

    cfg, _ = sample_index
    config = _openai_config(cfg.storage.data_dir, vllm_server)
    assert [r.deployment for r in plan_reservations(config, {"CPU": 2.0})] == [
        "StrataIngress", "QueryEmbedder", "HybridRetriever", "AwarenessExpander", "Reranker"]
    llm = ServeLLM(config)  # no deployment handles: both roles on the server

    async def run():
        assert await llm.ready() == MODEL
        return [e async for e in llm.stream("verifier", [{"role": "user", "content": "Say yes."}], max_tokens=6)]

    events = asyncio.run(run())
    assert events[-1].done and events[-1].completion_tokens > 0 and llm.model("verifier") == MODEL
