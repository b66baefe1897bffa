"""The outside probe's findings on the HTTP API (issue 53), each as a test, without Ray: the real FastAPI
app (routes, error handlers, the security middleware) over the real services and index reader, on
small indexes written here directly through :class:`~cluster.store.lance_store.LanceStore` (what a
finished ingest leaves; no embedding needed for reads by id, readiness or uploads' checks).

* reads by id see the latest committed version (a delete, a new document) at once;
* an upload is all-or-nothing, names are checked in bytes, no error shows a server path;
* ``/readyz`` is ready when any tenant can be served, with each tenant's status; responses show
  sources relative to the ingested root;
* every error has the API's ``{"error", "detail"}`` shape; strict request types; the bearer scheme
  in the OpenAPI document.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from fastapi.testclient import TestClient

from cluster.config import load_config
from cluster.store.bm25 import open_bm25
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, DOCUMENTS_SCHEMA, SECTIONS, chunks_schema, sections_schema
from cluster.tenants import tenant_config

pytestmark = pytest.mark.timeout(300)


def _vector(dim: int, seed: int) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


def add_document(cfg, doc_id: str, *, tenant: str = "default", source: str = "notes", path: str | None = None,
                 text: str = "The relay rotates its signing keys every ninety days.") -> str:
    """Write one document (one section, one chunk) into ``tenant``'s index as a finished ingest would,
    creating the index if needed; returns the section id."""
    from cluster.models.registry import resolve_embedder

    cfg = tenant_config(cfg, tenant)
    manifest = resolve_embedder(cfg.models).manifest
    dim = manifest.dim
    store = LanceStore.open(cfg.storage, dim=dim, create=True)
    store.bind_embedder(manifest, action="test", models_home=cfg.models.home)
    path = path or f"{doc_id}.md"
    sid = f"{doc_id}-s0"
    store.add(CHUNKS, pa.Table.from_pylist([{
        "chunk_id": f"{doc_id}-c0", "doc_id": doc_id, "section_id": sid, "section_path": "Relay",
        "section_facet": f"/{doc_id}", "title": "Relay", "source": source, "path": path, "ordinal": 0, "start": 0,
        "end": len(text), "n_tokens": 12, "content_hash": "h", "text": text, "vector": _vector(dim, 1)}],
        schema=chunks_schema(dim)))
    store.add(SECTIONS, pa.Table.from_pylist([{
        "section_id": sid, "doc_id": doc_id, "parent_id": None, "level": 0, "ordinal": 0, "title": "Relay",
        "path": ["Relay"], "path_str": "Relay", "start": 0, "end": len(text), "n_tokens": 12, "n_chunks": 1,
        "text": text, "summary": text, "vector": _vector(dim, 2), "centroid": _vector(dim, 3)}],
        schema=sections_schema(dim)))
    bm25 = open_bm25(cfg.storage.bm25_path, create=True)
    bm25.open_writer()
    bm25.add_chunks([{"chunk_id": f"{doc_id}-c0", "doc_id": doc_id, "title": "Relay", "section_path": "Relay",
                      "section_facet": f"/{doc_id}", "text": text}])
    bm25.commit()
    bm25.close_writer()
    store.upsert_documents(pa.Table.from_pylist([{
        "doc_id": doc_id, "source": source, "path": path, "title": "Relay", "format": "markdown", "n_bytes": len(text),
        "mtime_ns": 1, "content_hash": "h", "n_sections": 1, "n_chunks": 1, "n_tokens": 12,
        "ingested_at": datetime.now(timezone.utc)}], schema=DOCUMENTS_SCHEMA))
    return sid


class _Stages:
    """Stages that are up (readiness) and never asked for a search here."""

    def __init__(self, cfg) -> None:
        from serving.index.handle import IndexHandle

        self.index = IndexHandle(cfg)

    async def ready(self) -> dict[str, str]:
        return {"embedder": "test"}


def make_client(data_dir: Path, *, local: bool = False, **serve) -> TestClient:
    """The app over the search service; ``local``: with the real in-process stages (the query encoder)."""
    from serving.api.api_router import build_fastapi_app
    from serving.index.handle import IndexHandle
    from serving.services.search import SearchService
    from serving.services.stages import LocalStages

    cfg = load_config(storage={"data_dir": str(data_dir)}, serve={"refresh_interval_s": 3600, **serve})
    app = build_fastapi_app()
    stages = LocalStages(cfg) if local else _Stages(cfg)
    app.state.service = SearchService(cfg, stages, stages.index if local else IndexHandle(cfg))
    return TestClient(app, raise_server_exceptions=False)  # a 500 is answered, as by uvicorn


# -- 2. reads by id see the latest committed version -----------------------------------------------
def test_reads_by_id_see_a_delete_and_a_new_document_at_once(tmp_path, installed_models):
    """``refresh_interval_s`` is an hour here: only the by-id check can move the view."""
    cfg = load_config(storage={"data_dir": str(tmp_path)})
    sid = add_document(cfg, "doc-a")
    client = make_client(tmp_path)
    assert client.get("/v1/documents/doc-a").status_code == 200
    section = client.get(f"/v1/sections/{sid}")
    assert section.status_code == 200 and "ninety days" in section.json()["text"]

    deleted = client.delete("/v1/documents/doc-a")
    assert deleted.status_code == 200, deleted.text
    assert client.get("/v1/documents/doc-a").status_code == 404
    assert client.get(f"/v1/sections/{sid}").status_code == 404

    add_document(cfg, "doc-b")  # another writer (a finished upload on another replica, a CLI ingest)
    assert client.get("/v1/documents/doc-b").status_code == 200
    assert client.get("/v1/sections/doc-b-s0").status_code == 200
    listed = client.get("/v1/documents").json()
    assert [d["doc_id"] for d in listed["documents"]] == ["doc-b"] and listed["total"] == 1

    # cheap when nothing changed: a stat per table, no refresh of the handles
    view = client.app.state.service.index.get("default")
    refreshes = []
    original = view.refresh
    view.refresh = lambda: refreshes.append(1) or original()
    time.sleep(0.3)  # past the settling time of the last commit's timestamp
    for _ in range(3):
        assert client.get("/v1/documents/doc-b").status_code == 200
    assert len(refreshes) <= 1, refreshes


# -- 3. uploads: names in bytes, all or nothing, no server paths -------------------------------------
GOOD = b"# Relay\n\nThe relay rotates its signing keys every ninety days.\n"


@pytest.fixture()
def no_jobs(monkeypatch):
    """Upload jobs that are never run (these tests check what happens before a job starts)."""
    from pipelines.uploads import IngestJobs

    monkeypatch.setattr(IngestJobs, "_run", lambda self, record, job_dir: record)


def _nothing_written(data_dir: Path) -> None:
    jobs = data_dir / "uploads" / ".jobs"
    assert not jobs.exists() or not any(jobs.iterdir()), list(jobs.iterdir())
    assert not (data_dir / "ingests").exists() or not any((data_dir / "ingests").iterdir())


def _no_server_path(reply, data_dir: Path) -> None:
    assert set(reply.json()) == {"error", "detail"}, reply.text
    for path in {str(data_dir), str(data_dir.resolve()), str(Path.home())}:
        assert path not in reply.text, reply.text


def test_a_long_utf8_name_rejects_the_whole_upload_by_its_byte_length(tmp_path, no_jobs):
    """203 characters, 403 bytes: 422 naming the limit in bytes; the good file of the request is not staged."""
    client = make_client(tmp_path)
    long_name = "é" * 200 + ".md"
    reply = client.post("/v1/documents", files=[("file", ("first.md", GOOD)), ("file", (long_name, GOOD))])
    assert reply.status_code == 422, reply.text
    _no_server_path(reply, tmp_path)
    assert [p["reason"] for p in reply.json()["detail"]] == ["bad_name"]
    assert "403 bytes" in reply.json()["detail"][0]["message"] and "255" in reply.json()["detail"][0]["message"]
    assert not (tmp_path / "uploads" / "default" / "uploads" / "first.md").exists()
    _nothing_written(tmp_path)
    at_limit = "é" * 125 + ".md"  # 253 bytes: taken
    assert client.post("/v1/documents", files={"file": (at_limit, GOOD)}).status_code == 202
    assert (tmp_path / "uploads" / "default" / "uploads" / at_limit).read_bytes() == GOOD


def test_a_failed_staging_puts_back_what_the_request_wrote(tmp_path, no_jobs):
    """The second file cannot be staged (a folder has its name): the first, which replaced an older
    version, is put back; no job folder and no job record remain; the 500 shows no server path."""
    client = make_client(tmp_path)
    staged = tmp_path / "uploads" / "default" / "uploads"
    staged.mkdir(parents=True)
    (staged / "a.md").write_bytes(b"# Old\n\nThe older version of a.\n")
    (staged / "b.md").mkdir()
    reply = client.post("/v1/documents", files=[("file", ("a.md", GOOD)), ("file", ("b.md", GOOD))])
    assert reply.status_code == 500, reply.text
    _no_server_path(reply, tmp_path)
    assert (staged / "a.md").read_bytes() == b"# Old\n\nThe older version of a.\n"
    assert (staged / "b.md").is_dir() and sorted(p.name for p in staged.iterdir()) == ["a.md", "b.md"]
    _nothing_written(tmp_path)


def test_upload_limits_and_heading_only_files_are_refused_up_front(tmp_path, no_jobs):
    client = make_client(tmp_path)
    many = [("file", (f"f{i}.md", b"# F\n\nSome text.\n")) for i in range(101)]
    reply = client.post("/v1/documents", files=many)
    assert reply.status_code == 413 and "serve.max_upload_files" in reply.json()["error"], reply.text
    headings = client.post("/v1/documents", files={"file": ("outline.md", b"# Title\n\n## Part one\n\n## Part two\n")})
    assert headings.status_code == 422, headings.text
    assert headings.json()["detail"][0]["reason"] == "empty"
    _nothing_written(tmp_path)


# -- 4. readiness per tenant; no server paths in responses ----------------------------------------------
def test_readyz_is_ready_when_only_a_named_tenant_has_an_index(tmp_path, installed_models):
    from cluster.security.keys import KeyStore

    client = make_client(tmp_path, local=True)
    missing = client.get("/readyz")
    assert missing.status_code == 503, missing.text
    _no_server_path(missing, tmp_path)
    assert missing.json()["detail"]["tenants"] == {"default": {"status": "no index"}}
    assert "strata ingest" in missing.json()["error"]

    cfg = load_config(storage={"data_dir": str(tmp_path)})
    add_document(cfg, "doc-acme", tenant="acme")
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["status"] == "ready" and body["embedder"].startswith("all-minilm")
    assert body["tenants"]["acme"]["status"] == "ready" and body["tenants"]["default"] == {"status": "no index"}

    _, acme = KeyStore(tmp_path).create("acme", ["search"])
    _, other = KeyStore(tmp_path).create("default", ["search"])
    query = {"query": "How often does the relay rotate its signing keys?", "mode": "bm25"}
    served = client.post("/v1/search", json=query, headers={"Authorization": f"Bearer {acme}"})
    assert served.status_code == 200 and served.json()["hits"][0]["doc_id"] == "doc-acme", served.text
    refused = client.post("/v1/search", json=query, headers={"Authorization": f"Bearer {other}"})
    assert refused.status_code == 503 and "strata ingest" in refused.json()["error"], refused.text
    _no_server_path(refused, tmp_path)
    assert str(tmp_path) not in client.get("/readyz").text


def test_cli_ingested_sources_show_relative_to_the_ingested_root(tmp_path, installed_models):
    """``strata ingest /abs/corpus`` labels its documents with the absolute folder: responses show the
    folder's name (and paths relative to it); that name works as a source filter too."""
    cfg = load_config(storage={"data_dir": str(tmp_path / "index")})
    corpus = tmp_path / "corpus"
    add_document(cfg, "doc-c", source=str(corpus), path="guide/relay.md")
    add_document(cfg, "doc-u", source="uploads", path="other.md", text="Kettles boil water for tea.")
    client = make_client(tmp_path / "index", local=True)

    one = client.get("/v1/documents/doc-c").json()
    assert (one["source"], one["path"]) == ("corpus", "guide/relay.md"), one
    listed = client.get("/v1/documents", params={"source": "corpus"}).json()
    assert [d["doc_id"] for d in listed["documents"]] == ["doc-c"] and listed["documents"][0]["source"] == "corpus"
    assert client.get("/v1/documents", params={"source": str(corpus)}).json()["total"] == 1  # the stored label too
    query = {"query": "relay signing keys", "mode": "bm25", "filters": {"sources": ["corpus"]}, "use_cache": False}
    for route, items in (("/v1/search", "hits"), ("/v1/context", "passages")):
        reply = client.post(route, json=query)
        assert reply.status_code == 200, reply.text
        found = reply.json()[items]
        assert found and {(h["source"], h["path"]) for h in found} == {("corpus", "guide/relay.md")}, found
        assert str(tmp_path) not in reply.text
    assert str(tmp_path) not in client.get("/v1/documents").text


# -- 6. every error in the API's shape -----------------------------------------------------------------
@pytest.mark.parametrize("method, path, body, status", [
    ("post", "/v1/search", b'{"query": "caf\xe9"}', 400),  # not UTF-8
    ("post", "/v1/search", b'{"query": "x", "filters": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", 400),  # too deep
    ("post", "/v1/search", b"{not json", 422),
    ("get", "/v1/no-such-route", None, 404),
    ("put", "/v1/search", b"{}", 405),
], ids=["not-utf8", "too-deep", "not-json", "unknown-route", "wrong-method"])
def test_every_error_has_the_api_shape(tmp_path, method, path, body, status):
    client = make_client(tmp_path, max_body_bytes=1_000_000)
    reply = client.request(method.upper(), path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == status, reply.text
    assert set(reply.json()) == {"error", "detail"} and reply.json()["error"], reply.text


@pytest.mark.parametrize("path, body, field", [
    ("/v1/search", {"query": "x", "top_k": "5"}, "top_k"),
    ("/v1/search", {"query": "x", "top_k": True}, "top_k"),
    ("/v1/search", {"query": "x", "rerank": "yes"}, "rerank"),
    ("/v1/search", {"query": "x", "bm25_weight": "0.5"}, "bm25_weight"),
    ("/v1/search", {"query": "x", "filters": {"doc_ids": [5]}}, "filters.doc_ids.0"),
    ("/v1/context", {"query": "x", "budget_tokens": "500"}, "budget_tokens"),
    ("/v1/answer", {"question": "x?", "stream": "true"}, "stream"),
    ("/v1/answer", {"question": "x?", "top_k": 2.0}, "top_k"),
])
def test_request_fields_are_not_coerced(tmp_path, path, body, field):
    reply = make_client(tmp_path).post(path, json=body)
    assert reply.status_code == 422, reply.text
    assert [p["field"] for p in reply.json()["detail"]] == [field], reply.json()


def test_openapi_declares_the_bearer_scheme_on_every_v1_operation(tmp_path):
    spec = make_client(tmp_path).get("/openapi.json").json()
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            secured = operation.get("security") == [{"HTTPBearer": []}]
            assert secured == path.startswith("/v1/"), (method, path, operation.get("security"))
