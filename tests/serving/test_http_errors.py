"""The HTTP error contract, over FastAPI's TestClient on the in-process service (the same routes, error
handlers and services the Serve ingress runs; no Ray Serve): 503 with no index, 504 on the request
timeout and on the answer timeout (a stage forced to be slow), 422 naming an unknown request field."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.timeout(300)


def _client(cfg, *, slow_embed_s: float = 0.0) -> TestClient:
    """The ingress's FastAPI app over :class:`LocalStages`; ``slow_embed_s`` delays the embed stage."""
    from serving.api.api_router import build_fastapi_app
    from serving.services.answer import AnswerService
    from serving.services.search import SearchService
    from serving.services.stages import LocalStages

    class SlowStages(LocalStages):
        async def embed(self, texts, *args, **kwargs):
            await asyncio.sleep(slow_embed_s)
            return await super().embed(texts, *args, **kwargs)

    stages = SlowStages(cfg)
    service = SearchService(cfg, stages, stages.index)
    app = build_fastapi_app()
    app.state.service = service
    app.state.answers = AnswerService(cfg, service, None)
    return TestClient(app)


@pytest.fixture(scope="module")
def no_index(tmp_path_factory):
    from cluster.config import load_config

    cfg = load_config(storage={"data_dir": str(tmp_path_factory.mktemp("no-index"))})
    with _client(cfg) as client:
        yield client


@pytest.mark.parametrize("method, path, body", [
    ("post", "/v1/search", {"query": "virtual environments"}),
    ("post", "/v1/context", {"query": "virtual environments"}),
    ("post", "/v1/answer", {"question": "How do I create a virtual environment?"}),
    ("get", "/v1/documents", None),
    ("get", "/readyz", None),
])
def test_no_index_is_503_saying_to_ingest(no_index, method, path, body):
    response = no_index.post(path, json=body) if method == "post" else no_index.get(path)
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert "no index at" in error and "strata ingest" in error, error


@pytest.mark.parametrize("path, body, field", [
    ("/v1/search", {"query": "x", "topk": 3}, "topk"),
    ("/v1/search", {"query": "x", "filters": {"doc_id": ["a"]}}, "filters.doc_id"),
    ("/v1/context", {"query": "x", "budget": 500}, "budget"),
    ("/v1/answer", {"question": "x?", "temperature": 0.2}, "temperature"),
])
def test_unknown_request_fields_are_422_naming_the_field(no_index, path, body, field):
    """A misspelt option must not be silently ignored (the request would run with the default)."""
    response = no_index.post(path, json=body)
    assert response.status_code == 422, response.text
    body = response.json()
    assert f"{field}: Extra inputs are not permitted" in body["error"], body
    assert {"field": field, "message": "Extra inputs are not permitted"} in body["detail"]


def _defaults(sample_index, **overrides):
    from cluster.config import load_config

    cfg, _ = sample_index
    return load_config(storage={"data_dir": str(cfg.storage.data_dir)}, **overrides)


def test_request_timeout_is_504(sample_index):
    cfg = _defaults(sample_index, serve={"request_timeout_s": 0.5})
    with _client(cfg, slow_embed_s=3.0) as client:
        for path in ("/v1/search", "/v1/context"):
            response = client.post(path, json={"query": "How do I create a virtual environment?", "use_cache": False})
            assert response.status_code == 504, response.text
            assert response.json()["error"] == "the request took longer than serve.request_timeout_s (0.5 s)"
    with _client(cfg) as client:  # the same settings without the slow stage: answered
        response = client.post("/v1/search", json={"query": "How do I create a virtual environment?"})
        assert response.status_code == 200, response.text


def test_answer_timeout_is_504(sample_index):
    cfg = _defaults(sample_index, answer={"timeout_s": 0.5})
    with _client(cfg, slow_embed_s=3.0) as client:
        response = client.post("/v1/answer", json={"question": "How do I create a virtual environment?",
                                                   "use_cache": False})
        assert response.status_code == 504, response.text
        assert response.json()["error"] == "no answer within answer.timeout_s (0.5 s)"
        with client.stream("POST", "/v1/answer", json={"question": "How do I create a virtual environment?",
                                                       "use_cache": False, "stream": True}) as stream:
            text = "".join(stream.iter_text())
        assert "event: error" in text and "no answer within" in text, text
