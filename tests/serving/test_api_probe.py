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
    open_bm25(cfg.storage.bm25_path, create=True)
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


def make_client(data_dir: Path, **serve) -> TestClient:
    from serving.api.api_router import build_fastapi_app
    from serving.index.handle import IndexHandle
    from serving.services.search import SearchService

    cfg = load_config(storage={"data_dir": str(data_dir)}, serve={"refresh_interval_s": 3600, **serve})
    app = build_fastapi_app()
    app.state.service = SearchService(cfg, _Stages(cfg), IndexHandle(cfg))
    return TestClient(app)


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
