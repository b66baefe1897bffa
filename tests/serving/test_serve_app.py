"""The Ray Serve application started for real with the product defaults (shared Ray), exercised over HTTP."""

from __future__ import annotations

import re
import time
import urllib.request

import pytest
import requests

from support import METRICS_PORT


# pytest-timeout counts the shared app fixture's start in the first test that needs it.
pytestmark = pytest.mark.timeout(900)


def post(url: str, path: str, body: dict) -> requests.Response:
    return requests.post(url + path, json=body, timeout=60)


def test_health_and_readiness(app):
    url, _ = app
    assert requests.get(f"{url}/healthz", timeout=10).json() == {"status": "ok"}
    ready = requests.get(f"{url}/readyz", timeout=10).json()
    assert ready["status"] == "ready" and ready["reranker"].startswith("strata/reranker-")
    assert ready["answers"] == "extractive" and "llm" not in ready
    assert ready["embedder"].startswith("all-minilm-l6-v2")
    assert requests.get(f"{url}/openapi.json", timeout=10).json()["paths"]["/v1/search"]


def test_search_over_http(app):
    url, _ = app
    response = post(url, "/v1/search", {"query": "How do I handle exceptions with try and except?", "top_k": 5})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["route"]["route"] == "hybrid" and body["index_version"]
    hit = body["hits"][0]
    assert hit["path"].endswith("errors.rst.txt") and hit["section_path"] and hit["end"] > hit["start"]
    assert {"bm25", "dense", "fused"} <= set(hit["scores"])
    assert {"analyse", "embed", "retrieve", "total"} <= set(body["timings_ms"])


def test_context_over_http(app):
    url, _ = app
    body = post(url, "/v1/context", {"query": "Compare edge-triggered mode and the epoll_wait example",
                                     "top_k": 3, "budget_tokens": 700}).json()
    assert body["route"]["route"] == "hybrid+awareness" and body["used_tokens"] <= 700
    sections = [p["section_path"] for p in body["passages"]]
    assert any("Example for suggested usage" in s for s in sections), sections
    assert all(p["reasons"] for p in body["passages"])


def test_navigation(app):
    url, _ = app
    listing = requests.get(f"{url}/v1/documents", params={"limit": 5}, timeout=10).json()
    assert listing["total"] == 23 and len(listing["documents"]) == 5
    doc = next(d for d in requests.get(f"{url}/v1/documents", params={"limit": 100}, timeout=10).json()["documents"]
               if d["path"].endswith("errors.rst.txt"))
    detail = requests.get(f"{url}/v1/documents/{doc['doc_id']}", timeout=10).json()
    assert detail["title"] == "Errors and Exceptions"

    def walk(nodes, parent=None):
        for node in nodes:
            yield node, parent
            yield from walk(node["children"], node)

    child, parent = next((n, p) for n, p in walk(detail["sections"]) if n["title"] == "Handling Exceptions")
    assert parent is not None and child["parent_id"] == parent["section_id"]
    section = requests.get(f"{url}/v1/sections/{child['section_id']}", timeout=10).json()
    assert section["parent"]["section_id"] == parent["section_id"]
    assert [a["section_id"] for a in section["ancestors"]][-1] == parent["section_id"]
    assert section["siblings"] and section["chunk_ids"] and "try" in section["text"]


@pytest.mark.parametrize("method, path, body, status, message", [
    ("post", "/v1/search", {"query": ""}, 422, "query"),
    ("post", "/v1/search", {"query": "x", "top_k": 0}, 422, "top_k"),
    ("post", "/v1/search", {"query": "x", "top_k": 100000}, 422, "limit is"),
    ("post", "/v1/search", {"query": "x" * 5000}, 422, "characters"),
    ("post", "/v1/search", {"query": "x", "filters": {"section_id": "nope"}}, 404, "no section"),
    ("post", "/v1/search", {"query": "x", "filters": "doc"}, 422, "filters"),
    ("post", "/v1/search", {"query": "x", "mode": "telepathy"}, 422, "mode"),
    ("post", "/v1/context", {"query": "x", "budget_tokens": 1}, 422, "budget_tokens"),
    ("post", "/v1/search", "not json", 422, "invalid request"),
    ("get", "/v1/documents/nope", None, 404, "no document"),
    ("get", "/v1/sections/nope", None, 404, "no section"),
    ("get", "/v1/documents?limit=0", None, 422, "limit"),
])
def test_bad_requests_get_clear_4xx(app, method, path, body, status, message):
    url, _ = app
    if method == "post":
        kwargs = {"json": body} if isinstance(body, dict) else {"data": body, "headers": {"content-type": "application/json"}}
        response = requests.post(url + path, timeout=30, **kwargs)
    else:
        response = requests.get(url + path, timeout=30)
    assert response.status_code == status, response.text
    assert message in response.json()["error"]


def test_result_cache_and_freshness(app, tmp_path, ray_session):
    """A repeated query is served from the cache; a new ingest changes the index version, which
    invalidates it, and the running replicas find the new document without a restart."""
    from pipelines.ingest import run_ingest

    url, cfg = app
    query = {"query": "quokka zebrafish interoperability", "top_k": 3, "mode": "bm25"}
    first = post(url, "/v1/search", query).json()
    second = post(url, "/v1/search", query).json()
    assert second["cached"] is True and second["index_version"] == first["index_version"]
    assert not any("fresh.md" in h["path"] for h in first["hits"])
    corpus = tmp_path / "fresh"
    corpus.mkdir()
    (corpus / "fresh.md").write_text("# Fresh\n\nThe quokka zebrafish interoperability layer was added today.\n")
    run_ingest(cfg, corpus, source="fresh")
    deadline = time.monotonic() + 60
    body = {}
    while time.monotonic() < deadline:
        body = post(url, "/v1/search", query).json()
        if body["hits"] and body["hits"][0]["path"] == "fresh.md":
            break
        time.sleep(1)
    assert body["hits"][0]["path"] == "fresh.md", body
    assert body["index_version"] != first["index_version"] and body["cached"] is False
    # the ingress replica counted the switch to the new version (Serve tags: the replica exported it)
    pattern = r'^ray_strata_index_version_changes_total\{[^}]*deployment="StrataIngress"[^}]*\} ([0-9.e+]+)$'
    deadline = time.monotonic() + 60
    while not re.search(pattern, _scrape(), re.M):
        assert time.monotonic() < deadline, "no ray_strata_index_version_changes_total from the ingress replica"
        time.sleep(2)
    assert float(re.search(pattern, _scrape(), re.M).group(1)) >= 1


def _scrape() -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=5) as r:
        return r.read().decode()


def _tagged(deployment: str, **labels: str) -> str:
    """Lookaheads matching the labels of a sample recorded inside a replica of ``deployment``: Serve's
    ``application``/``deployment``/``replica`` tags, plus ``labels``."""
    parts = [f'application="strata"', f'deployment="{deployment}"', 'replica="[^"]+"'] + \
        [f'{k}="{v}"' for k, v in labels.items()]
    return "".join(rf"(?=[^}}]*{p})" for p in parts)


def test_query_metrics_are_exported(app):
    """The query metrics come from the replicas (Serve's deployment/replica tags prove it), errors included,
    and grow by what this test's own requests add (not by what earlier tests left)."""
    from support import scrape_metrics, wait_for_deltas

    url, _ = app
    before = scrape_metrics()
    assert post(url, "/v1/search", {"query": "virtual environments", "top_k": 3, "use_cache": False}).status_code == 200
    assert post(url, "/v1/search", {"query": "virtual environments", "top_k": 3}).status_code == 200  # a cache lookup
    assert post(url, "/v1/search", {"query": "   "}).status_code == 422
    ingress = {"application": "strata", "deployment": "StrataIngress"}
    wanted = {
        "stage analyse": ("ray_strata_query_stage_seconds_count", {**ingress, "stage": "analyse"}, 1),
        "stage total": ("ray_strata_query_stage_seconds_count", {**ingress, "stage": "total"}, 1),
        "stage bm25": ("ray_strata_query_stage_seconds_count", {**ingress, "stage": "bm25"}, 1),
        "stage dense": ("ray_strata_query_stage_seconds_count", {**ingress, "stage": "dense"}, 1),
        "route": ("ray_strata_query_routes_total", {**ingress, "route": "hybrid"}, 1),
        "embedding cache": ("ray_strata_query_cache_requests_total",
                            {"application": "strata", "deployment": "HybridRetriever", "cache": "embedding"}, 1),
        "result cache": ("ray_strata_query_cache_requests_total", {**ingress, "cache": "result"}, 1),
        "candidates": ("ray_strata_query_candidates_count", {**ingress, "stage": "bm25"}, 1),
        "errors 422": ("ray_strata_query_errors_total", {**ingress, "status": "422"}, 1),
        "serve http": ("ray_serve_num_http_requests_total", {"application": "strata"}, 3),
    }
    grown = wait_for_deltas(before, wanted)
    short = {key: grown[key] for key, (_, _, least) in wanted.items() if grown[key] < least}
    assert not short, (short, grown)
