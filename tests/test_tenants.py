"""Tenants are isolated: two tenants' corpora ingested for real into one data directory, queried through
the in-process services, the HTTP routes (FastAPI's TestClient over the same services) and the CLI.

Each corpus has a marker word no other text holds and a file at the same relative path under the same
source label (so the two tenants have a document with the same id, with different contents).
"""

from __future__ import annotations

import json

import pytest
from support import make_config

from cluster.tenants import DEFAULT_TENANT

A, B = "alpha", "beta"
MARK = {A: "zorblaxite", B: "quintarrow"}
SOURCE = "docs"


def _write_corpus(root, tenant: str) -> None:
    mark = MARK[tenant]
    root.mkdir(parents=True)
    (root / "shared.md").write_text(
        f"# Handbook of {tenant}\n\n## Overview\n\nThe {mark} process cleans the {tenant} reactor every night. "
        f"Operators start {mark} with the reactor console and watch its pressure gauge.\n\n"
        f"## Maintenance\n\nReplace the {tenant} filters every spring. The filters catch dust before it reaches "
        f"the pumps, and the pumps keep the coolant moving.\n")
    (root / f"{tenant}-notes.md").write_text(
        f"# Notes of {tenant}\n\n## Safety\n\nNever open the {mark} valve while the reactor runs. "
        f"The valve of the {mark} line releases steam at high pressure.\n")


@pytest.fixture(scope="module")
def tenants(tmp_path_factory, ray_session, installed_models):
    """One data directory, tenant ``alpha`` and tenant ``beta`` ingested from their own corpora."""
    from pipelines.ingest import run_ingest

    root = tmp_path_factory.mktemp("tenants")
    cfg = make_config(root / "idx")
    reports = {}
    for tenant in (A, B):
        _write_corpus(root / tenant, tenant)
        reports[tenant] = run_ingest(cfg, root / tenant, source=SOURCE, tenant=tenant)
        assert reports[tenant].failed == [] and reports[tenant].new == 2, reports[tenant].summary()
    return cfg, root, reports


def _docs(cfg, tenant: str) -> dict[str, dict]:
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import DOCUMENTS
    from cluster.tenants import tenant_config

    store = LanceStore.open(tenant_config(cfg, tenant).storage, dim=384)
    return {r["doc_id"]: r for r in store.scan(DOCUMENTS, ["doc_id", "path", "title"]).to_pylist()}


def _ids(cfg, tenant: str) -> dict[str, str]:
    """path → doc id of ``tenant``'s documents."""
    return {row["path"]: doc_id for doc_id, row in _docs(cfg, tenant).items()}


def _section_ids(cfg, tenant: str) -> set[str]:
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import SECTIONS
    from cluster.tenants import tenant_config

    store = LanceStore.open(tenant_config(cfg, tenant).storage, dim=384)
    return set(store.scan(SECTIONS, ["section_id"]).column("section_id").to_pylist())


def test_each_tenant_has_its_own_index_and_the_same_file_does_not_collide(tenants):
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.lance_store import LanceStore
    from cluster.tenants import tenant_config
    from index_probe import assert_consistent, snapshot
    from pipelines.ingest import run_ingest

    cfg, root, reports = tenants
    assert reports[A].tenant == A and "tenant 'alpha'" in reports[A].summary()
    assert not LanceStore.exists(cfg.storage), "nothing was written to the default tenant's index"
    for tenant in (A, B):
        tcfg = tenant_config(cfg, tenant)
        assert tcfg.storage.data_dir == cfg.storage.data_dir / "tenants" / tenant
        assert_consistent(snapshot(tcfg))
        assert EmbeddingCache.open(tcfg.storage, dim=384).rows() > 0  # the embedding cache is per tenant too
    docs_a, docs_b = _docs(cfg, A), _docs(cfg, B)
    shared = _ids(cfg, A)["shared.md"]
    assert shared == _ids(cfg, B)["shared.md"]  # same source + path: the same id, in two separate indexes
    assert docs_a[shared]["title"] == "Handbook of alpha" and docs_b[shared]["title"] == "Handbook of beta"
    assert set(docs_a) ^ set(docs_b) == {_ids(cfg, A)["alpha-notes.md"], _ids(cfg, B)["beta-notes.md"]}
    # idempotent per tenant: ingesting alpha's corpus again writes nothing, and beta is untouched
    before = snapshot(tenant_config(cfg, B))["versions"]
    again = run_ingest(cfg, root / A, source=SOURCE, tenant=A)
    assert (again.new, again.updated, again.unchanged, again.chunks) == (0, 0, 2, 0)
    assert snapshot(tenant_config(cfg, B))["versions"] == before


def test_search_and_context_never_cross_tenants(tenants):
    from serving.protocol import ContextRequest, Filters, SearchRequest
    from serving.retrieval.filters import UnknownFilterTarget
    from serving.services.local import SearchPipeline

    cfg, _, _ = tenants
    ids_b = _ids(cfg, B)
    for tenant, other in ((A, B), (B, A)):
        pipe = SearchPipeline(cfg, tenant=tenant)
        own_docs = set(_docs(cfg, tenant))
        for mode in ("auto", "bm25", "vector", "hybrid", "hybrid+awareness"):
            hits = pipe.search(SearchRequest(query=f"{MARK[other]} valve", top_k=20, mode=mode, use_cache=False)).hits
            assert {h.doc_id for h in hits} <= own_docs, (tenant, mode)
            assert not any(MARK[other] in h.text for h in hits), (tenant, mode)
        hits = pipe.search(SearchRequest(query=MARK[tenant], top_k=5, mode="bm25", use_cache=False)).hits
        assert hits and MARK[tenant] in hits[0].text
        pack = pipe.context(ContextRequest(query=f"How do I open the {MARK[other]} valve?", budget_tokens=2000,
                                           use_cache=False))
        assert pack.passages and {p.doc_id for p in pack.passages} <= own_docs
        assert not any(MARK[other] in p.text for p in pack.passages)
        pipe.close()
    # filters naming beta's documents, source or sections match nothing of beta from alpha
    pipe = SearchPipeline(cfg, tenant=A)
    only_b = Filters(doc_ids=[ids_b["beta-notes.md"]])
    assert pipe.search(SearchRequest(query=MARK[B], filters=only_b, use_cache=False)).hits == []
    assert pipe.context(ContextRequest(query=MARK[B], filters=only_b, use_cache=False)).passages == []
    hits = pipe.search(SearchRequest(query=f"{MARK[B]} valve", filters=Filters(sources=[SOURCE]), top_k=20,
                                     use_cache=False)).hits
    assert hits and all(MARK[B] not in h.text and h.doc_id in _docs(cfg, A) for h in hits)
    with pytest.raises(UnknownFilterTarget):
        pipe.search(SearchRequest(query="valve", filters=Filters(section_id=sorted(_section_ids(cfg, B))[0]),
                                  use_cache=False))
    pipe.close()


def test_result_and_embedding_caches_are_keyed_by_tenant(tenants):
    from serving.protocol import ContextRequest, SearchRequest
    from serving.services.local import SearchPipeline

    cfg, _, _ = tenants
    pipe = SearchPipeline(cfg, tenant=A)
    service, loop = pipe.service, pipe._loop
    request = SearchRequest(query="reactor filters", top_k=5, mode="hybrid")
    first = loop.run_until_complete(service.search(request, tenant=A))
    assert not first.cached and loop.run_until_complete(service.search(request, tenant=A)).cached
    other = loop.run_until_complete(service.search(request, tenant=B))  # the same request, another tenant
    assert not other.cached
    assert {h.doc_id for h in other.hits} <= set(_docs(cfg, B)) and {h.doc_id for h in first.hits} <= set(_docs(cfg, A))
    assert any("beta" in h.text for h in other.hits) and not any("beta" in h.text for h in first.hits)
    context = ContextRequest(query="reactor filters")
    assert not loop.run_until_complete(service.context(context, tenant=A)).cached
    assert not loop.run_until_complete(service.context(context, tenant=B)).cached
    assert loop.run_until_complete(service.context(context, tenant=B)).cached
    encoder = pipe.stages.encoder
    keys = list(encoder.cache._data)
    assert ("alpha", encoder.fingerprint, "reactor filters") in keys and ("beta", encoder.fingerprint, "reactor filters") in keys
    pipe.close()


@pytest.fixture(scope="module")
def client(tenants):
    """The HTTP routes over in-process services, with the security middleware and a real API key per
    tenant (search and answer scopes): the key names the tenant, as in production."""
    from fastapi.testclient import TestClient

    from cluster.security.keys import KeyStore
    from serving.api.api_router import build_fastapi_app
    from serving.services.answer import AnswerService
    from serving.services.local import SearchPipeline

    cfg, _, _ = tenants
    store = KeyStore(cfg.storage.data_dir)
    for tenant in (A, B, DEFAULT_TENANT):
        _KEYS[tenant] = store.create(tenant, ["search", "answer"])[1]
    pipe = SearchPipeline(cfg)
    app = build_fastapi_app()
    app.state.service = pipe.service
    app.state.answers = AnswerService(cfg, pipe.service)
    with TestClient(app) as http:
        yield http
    pipe.close()


_KEYS: dict[str, str] = {}


def _as(tenant: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {_KEYS[tenant]}"}


def test_http_routes_are_isolated(tenants, client):
    cfg, _, _ = tenants
    ids_a, ids_b = _ids(cfg, A), _ids(cfg, B)
    body = {"query": f"{MARK[B]} valve", "top_k": 20, "mode": "hybrid", "use_cache": False}
    hits = client.post("/v1/search", json=body, headers=_as(A)).json()["hits"]
    assert hits and not any(MARK[B] in h["text"] for h in hits) and {h["doc_id"] for h in hits} <= set(ids_a.values())
    hits = client.post("/v1/search", json=body, headers=_as(B)).json()["hits"]
    assert MARK[B] in hits[0]["text"]
    for filters in ({"doc_ids": [ids_b["beta-notes.md"]]}, {"sources": [SOURCE], "doc_ids": [ids_b["beta-notes.md"]]}):
        reply = client.post("/v1/search", json={**body, "filters": filters}, headers=_as(A))
        assert reply.status_code == 200 and reply.json()["hits"] == []
        reply = client.post("/v1/context", json={"query": MARK[B], "filters": filters, "use_cache": False},
                            headers=_as(A))
        assert reply.status_code == 200 and reply.json()["passages"] == []
    section_b = sorted(_section_ids(cfg, B))[0]
    reply = client.post("/v1/search", json={**body, "filters": {"section_id": section_b}}, headers=_as(A))
    assert reply.status_code == 404
    # navigation: alpha lists its own documents; beta's ids are unknown to it
    listing = client.get("/v1/documents", headers=_as(A)).json()
    assert listing["total"] == 2 and {d["doc_id"] for d in listing["documents"]} == set(ids_a.values())
    assert client.get(f"/v1/documents/{ids_b['beta-notes.md']}", headers=_as(A)).status_code == 404
    assert client.get(f"/v1/documents/{ids_b['beta-notes.md']}", headers=_as(B)).status_code == 200
    assert client.get(f"/v1/sections/{section_b}", headers=_as(A)).status_code == 404
    assert client.get(f"/v1/sections/{section_b}", headers=_as(B)).status_code == 200
    shared = ids_a["shared.md"]  # the same id in both tenants names each tenant's own document
    assert client.get(f"/v1/documents/{shared}", headers=_as(A)).json()["title"] == "Handbook of alpha"
    assert client.get(f"/v1/documents/{shared}", headers=_as(B)).json()["title"] == "Handbook of beta"
    # a cached response of alpha is never served to beta
    cached_body = {"query": "reactor pressure gauge", "top_k": 5}
    first = client.post("/v1/search", json=cached_body, headers=_as(A)).json()
    again = client.post("/v1/search", json=cached_body, headers=_as(A)).json()
    other = client.post("/v1/search", json=cached_body, headers=_as(B)).json()
    assert not first["cached"] and again["cached"] and not other["cached"]
    assert {h["doc_id"] for h in other["hits"]} <= set(ids_b.values())
    assert any("beta" in h["text"] for h in other["hits"]) and not any("beta" in h["text"] for h in first["hits"])
    # no key: refused; the default tenant's key: its own index, which does not exist here
    assert client.post("/v1/search", json=cached_body).status_code == 401
    reply = client.post("/v1/search", json=cached_body, headers=_as(DEFAULT_TENANT))
    assert reply.status_code == 503 and "run `strata ingest" in reply.json()["error"]
    for path in ("/v1/documents", f"/v1/documents/{shared}", f"/v1/sections/{section_b}"):
        assert client.get(path, headers=_as(DEFAULT_TENANT)).status_code in (404, 503)


def test_answers_are_built_from_the_requesting_tenants_documents(tenants, client):
    from serving.protocol import AnswerRequest
    from serving.services.local import AnswerPipeline

    cfg, _, _ = tenants
    pipe = AnswerPipeline(cfg, tenant=A)
    seen: list[tuple[str, str]] = []
    search_context, stages_embed = pipe.search.service.context, pipe.search.stages.embed

    async def context_spy(request, hints=None, *, tenant):
        seen.append(("context", tenant))
        return await search_context(request, hints, tenant=tenant)

    async def embed_spy(texts, tenant):
        seen.append(("embed", tenant))
        return await stages_embed(texts, tenant)

    pipe.search.service.context, pipe.search.stages.embed = context_spy, embed_spy
    response = pipe.answer(AnswerRequest(question=f"When must the {MARK[B]} valve never be opened?", use_cache=False))
    assert ("context", A) in seen and {t for _, t in seen} == {A}
    assert MARK[B] not in response.answer
    assert all(c.document_id in _docs(cfg, A) for c in response.citations)
    pipe.close()
    # over HTTP, beta's question about its own valve is answered from beta's notes only
    reply = client.post("/v1/answer", json={"question": f"When must the {MARK[B]} valve never be opened?",
                                            "use_cache": False}, headers=_as(B))
    assert reply.status_code == 200, reply.text
    answer = reply.json()
    assert answer["refused"] is False and MARK[B] in answer["answer"], answer
    assert answer["citations"] and all(c["document_id"] in _docs(cfg, B) for c in answer["citations"])
    # alpha asking the same question cannot reach beta's notes: no citation of beta, no beta marker
    reply = client.post("/v1/answer", json={"question": f"When must the {MARK[B]} valve never be opened?",
                                            "use_cache": False}, headers=_as(A))
    assert reply.status_code == 200 and MARK[B] not in reply.json()["answer"]
    assert all(c["document_id"] in _docs(cfg, A) for c in reply.json()["citations"])


def test_cli_stats_search_and_delete_per_tenant(tenants):
    from click.testing import CliRunner

    from cli.main import main

    cfg, _, _ = tenants
    base = ["--data-dir", str(cfg.storage.data_dir)]
    runner = CliRunner()

    def stats(tenant: str) -> dict:
        result = runner.invoke(main, [*base, "stats", "--tenant", tenant])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    before_a, before_b = stats(A), stats(B)
    assert before_a["tenant"] == A and before_a["documents"]["rows"] == 2
    assert before_a["tenants"] == [A, B, DEFAULT_TENANT]
    assert before_a["chunks"]["rows"] == before_a["bm25_docs"] and before_b["documents"]["rows"] == 2
    result = runner.invoke(main, [*base, "stats"])
    assert result.exit_code != 0 and "run `strata ingest` first" in result.output  # the default tenant has none
    result = runner.invoke(main, [*base, "stats", "--tenant", "Bad Name"])
    assert result.exit_code != 0 and "lowercase letters" in result.output
    result = runner.invoke(main, [*base, "search", MARK[B], "--mode", "bm25", "--json", "--tenant", A])
    assert result.exit_code == 0 and json.loads(result.output)["hits"] == []
    result = runner.invoke(main, [*base, "context", MARK[B], "--json", "--tenant", B])
    assert result.exit_code == 0 and any(MARK[B] in p["text"] for p in json.loads(result.output)["passages"])
    # delete in alpha: the shared id (beta has a document with the same id) and alpha's notes by path
    shared = _ids(cfg, A)["shared.md"]
    result = runner.invoke(main, [*base, "delete", "--tenant", A, shared])
    assert result.exit_code == 0 and "deleted 1 document" in result.output, result.output
    result = runner.invoke(main, [*base, "delete", "--tenant", A, "--path", "alpha-notes.md"])
    assert result.exit_code == 0 and "deleted 1 document" in result.output, result.output
    after_a, after_b = stats(A), stats(B)
    assert after_a["documents"]["rows"] == 0 and after_a["chunks"]["rows"] == 0 and after_a["bm25_docs"] == 0
    assert (after_b["documents"]["rows"], after_b["chunks"]["rows"], after_b["bm25_docs"]) == (
        2, before_b["chunks"]["rows"], before_b["bm25_docs"])
    assert shared in _docs(cfg, B)
    result = runner.invoke(main, [*base, "search", MARK[B], "--mode", "bm25", "--json", "--tenant", B])
    assert result.exit_code == 0 and len(json.loads(result.output)["hits"]) >= 2


def test_index_handle_validates_names_and_keeps_at_most_max_open_tenants(tmp_path, installed_models):
    """No Ray: empty tenant indexes, opened through the replica's handle."""
    from cluster.store.bm25 import Bm25Index
    from cluster.store.lance_store import LanceStore
    from cluster.tenants import tenant_config
    from serving.index.handle import IndexHandle, IndexNotReady

    cfg = make_config(tmp_path / "idx", serve={"max_open_tenants": 2})
    for tenant in ("t1", "t2", "t3"):
        storage = tenant_config(cfg, tenant).storage
        LanceStore.open(storage, dim=384, create=True)
        Bm25Index(storage.bm25_path, create=True)
    handle = IndexHandle(cfg)
    for tenant in ("t1", "t2", "t3", "t2"):
        assert handle.version(tenant)
    assert handle.open_tenants() == ["t3", "t2"]  # t1, least recently used, was closed
    assert handle.get("t1") is not None and handle.open_tenants() == ["t2", "t1"]
    for bad in ("../t1", "T1", "", "a/b"):
        with pytest.raises(ValueError):
            handle.get(bad)
    with pytest.raises(IndexNotReady, match="--tenant t4"):
        handle.get("t4")
    with pytest.raises(IndexNotReady, match="run `strata ingest` first"):
        handle.get(DEFAULT_TENANT)
    assert not (cfg.storage.data_dir / "tenants" / "t4").exists()  # asking never creates a tenant
