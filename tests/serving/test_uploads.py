"""Documents over HTTP (admin scope): uploads ingested by the real pipeline (Ray Data parse → chunk → real
embedder → single writer) as jobs, then searchable; bad uploads refused with the reason and nothing written;
deletes. The real FastAPI app over the in-process query service (the real embedder), no Serve."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient

from cluster.config import load_config
from cluster.security.keys import KeyStore

pytestmark = pytest.mark.timeout(900)

GOOD = (b"# zorbctl\n\n## Cache\n\nThe --purge-cache option of zorbctl deletes the local package cache before the "
        b"update starts. The --dry-run option prints the plan without changing anything.\n")


@pytest.fixture(scope="module")
def setup(tmp_path_factory, ray_session, installed_models):
    from serving.api.api_router import build_fastapi_app
    from serving.services.local import SearchPipeline

    data_dir = tmp_path_factory.mktemp("uploads-index")
    cfg = load_config(storage={"data_dir": str(data_dir)}, ingest={"max_file_bytes": 100_000},
                      serve={"max_upload_bytes": 200_000, "refresh_interval_s": 0, "result_cache_size": 0})
    keys = KeyStore(data_dir)
    _, admin = keys.create("default", ["admin"])
    _, reader = keys.create("default", ["search"])
    pipe = SearchPipeline(cfg)
    app = build_fastapi_app()
    app.state.service = pipe.service
    client = TestClient(app)
    yield client, data_dir, {"Authorization": f"Bearer {admin}"}, {"Authorization": f"Bearer {reader}"}
    pipe.close()


def _finished(client, headers, job_id: str, timeout_s: float = 600) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        reply = client.get(f"/v1/ingests/{job_id}", headers=headers)
        assert reply.status_code == 200, reply.text
        if reply.json()["status"] in ("done", "failed"):
            return reply.json()
        time.sleep(0.5)
    raise AssertionError(f"ingest {job_id} did not finish in {timeout_s} s")


def _search(client, headers, query: str) -> list[dict]:
    reply = client.post("/v1/search", json={"query": query, "top_k": 3, "use_cache": False}, headers=headers)
    assert reply.status_code == 200, reply.text
    return reply.json()["hits"]


def test_upload_is_ingested_searchable_idempotent_and_deletable(setup):
    client, data_dir, admin, reader = setup
    reply = client.post("/v1/documents", files=[("file", ("zorbctl.md", GOOD, "text/markdown"))], headers=admin)
    assert reply.status_code == 202, reply.text
    job = reply.json()
    assert reply.headers["Location"] == f"/v1/ingests/{job['id']}" and job["tenant"] == "default"
    doc_id = job["files"][0]["doc_id"]
    done = _finished(client, admin, job["id"])
    assert done["status"] == "done", done
    assert done["report"]["new"] == 1 and done["report"]["chunks"] >= 1 and done["files"][0]["status"] == "ingested"
    assert (data_dir / "uploads" / "default" / "uploads" / "zorbctl.md").read_bytes() == GOOD
    assert not any((data_dir / "uploads" / ".jobs").iterdir())  # the job's links are gone

    hits = _search(client, reader, "Which zorbctl option deletes the local package cache?")
    assert hits and hits[0]["doc_id"] == doc_id and hits[0]["path"] == "zorbctl.md"
    assert client.get(f"/v1/ingests/{job['id']}", headers=reader).status_code == 403  # job status: admin scope

    again = client.post("/v1/documents?wait=true", files={"file": ("zorbctl.md", GOOD)}, headers=admin)
    assert again.status_code in (200, 202), again.text
    again = _finished(client, admin, again.json()["id"])
    assert again["status"] == "done" and again["report"]["unchanged"] == 1 and again["report"]["new"] == 0
    assert again["files"][0]["doc_id"] == doc_id

    assert client.delete(f"/v1/documents/{doc_id}", headers=reader).status_code == 403
    gone = client.delete(f"/v1/documents/{doc_id}", headers=admin)
    assert gone.status_code == 200 and gone.json() == {"doc_id": doc_id, "deleted": True, "path": "zorbctl.md",
                                                       "source": "uploads"}
    assert all(h["doc_id"] != doc_id for h in _search(client, reader, "zorbctl purge cache option"))
    assert client.get(f"/v1/documents/{doc_id}", headers=reader).status_code == 404
    assert not (data_dir / "uploads" / "default" / "uploads" / "zorbctl.md").exists()
    assert client.delete(f"/v1/documents/{doc_id}", headers=admin).status_code == 404


def test_bad_uploads_get_4xx_with_the_reason_and_nothing_is_written(setup):
    client, data_dir, admin, reader = setup
    # a document to compare against, so the index exists whatever ran before
    base = client.post("/v1/documents", files={"file": ("base.md", b"# Base\n\nA baseline document about kettles.\n")},
                       headers=admin)
    assert _finished(client, admin, base.json()["id"])["status"] == "done"
    client.get("/v1/documents", headers=reader)  # the list is read, then the view moves to the latest version
    before = client.get("/v1/documents", headers=reader).json()
    jobs_before = sorted(p.name for p in (data_dir / "ingests").iterdir())
    random.seed(7)
    cases = {
        "binary": (("logo.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200)), 422, "binary"),
        "empty": (("empty.md", b""), 422, "empty"),
        "blank": (("blank.txt", b"  \n\t\n"), 422, "empty"),
        "mis-encoded": (("latin.md", bytes(random.randrange(0x80, 0x100) for _ in range(4000))), 422, "undecodable"),
        "too large for a file": (("big.md", b"# Big\n\n" + b"word " * 30_000), 413, "too_large"),
        "not a document type": (("tool.exe", b"MZ this is not text"), 415, "unsupported"),
    }
    for label, (file, status, reason) in cases.items():
        reply = client.post("/v1/documents", files={"file": file}, headers=admin)
        assert reply.status_code == status, (label, reply.text)
        body = reply.json()
        assert "nothing was ingested" in body["error"] and body["detail"][0]["reason"] == reason, (label, body)
        assert body["detail"][0]["file"] == file[0]

    # one bad file rejects the whole upload: the good one is not ingested either
    mixed = client.post("/v1/documents", files=[("file", ("ok.md", GOOD)), ("file", ("bad.md", b"\x00\x01\x02" * 50))],
                        headers=admin)
    assert mixed.status_code == 422 and [p["file"] for p in mixed.json()["detail"]] == ["bad.md"]
    # a body over serve.max_upload_bytes is refused before it is read; no files; not multipart
    huge = client.post("/v1/documents", files={"file": ("huge.md", b"x " * 150_000)}, headers=admin)
    assert huge.status_code == 413 and "serve.max_upload_bytes" in huge.json()["error"]
    assert client.post("/v1/documents", data={"source": "x"}, files={}, headers=admin).status_code in (415, 422)
    assert client.post("/v1/documents", files={"note": (None, "just a field")}, headers=admin).status_code == 422
    assert client.post("/v1/documents", json={"path": "/etc/passwd"}, headers=admin).status_code == 415
    bad_source = client.post("/v1/documents?source=../etc", files={"file": ("ok.md", GOOD)}, headers=admin)
    assert bad_source.status_code == 422 and "source" in bad_source.json()["error"]

    after = client.get("/v1/documents", headers=reader).json()
    assert after["total"] == before["total"] and after["index_version"] == before["index_version"]
    assert sorted(p.name for p in (data_dir / "ingests").iterdir()) == jobs_before  # no job was queued
    staged = {p.name for p in (data_dir / "uploads" / "default" / "uploads").iterdir()}
    assert not staged & {"logo.md", "empty.md", "blank.txt", "latin.md", "big.md", "tool.exe", "ok.md", "bad.md"}
    assert client.get("/v1/ingests/0123456789abcdef", headers=admin).status_code == 404
