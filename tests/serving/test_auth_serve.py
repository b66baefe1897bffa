"""API keys on the running Ray Serve app (the product defaults): a key created while it runs is required
at once, scopes hold, an upload is ingested inside the ingress replica (Ray Data from a Serve replica,
the single-writer lock) and becomes searchable; revoking is seen without a restart. The key file is
removed afterwards, which opens the app again for the other serving tests."""

from __future__ import annotations

import time

import pytest
import requests

from cluster.security.keys import KeyStore, keys_path

pytestmark = pytest.mark.timeout(900)


def test_keys_scopes_upload_and_revocation_on_the_serve_app(app):
    url, cfg = app
    store = KeyStore(cfg.storage.data_dir)
    try:
        search_info, search_key = store.create("default", ["search"])
        _, admin_key = store.create("default", ["admin"])
        time.sleep(1.5)  # replicas look at the key file at most every second
        query = {"query": "How do I create a virtual environment?", "top_k": 3}
        assert requests.post(f"{url}/v1/search", json=query, timeout=60).status_code == 401
        ok = {"Authorization": f"Bearer {search_key}"}
        reply = requests.post(f"{url}/v1/search", json=query, headers=ok, timeout=120)
        assert reply.status_code == 200 and reply.json()["hits"], reply.text
        assert requests.post(f"{url}/v1/answer", json={"question": "why?"}, headers=ok, timeout=60).status_code == 403
        assert requests.get(f"{url}/healthz", timeout=30).status_code == 200
        assert requests.get(f"{url}/readyz", timeout=60).status_code == 200

        admin = {"Authorization": f"Bearer {admin_key}"}
        text = b"# quuxfile\n\nThe quuxfile format stores frobnication tables as sorted runs of glorp records.\n"
        reply = requests.post(f"{url}/v1/documents", files={"file": ("quuxfile.md", text)}, headers=admin, timeout=60)
        assert reply.status_code == 202, reply.text
        job_id, doc_id = reply.json()["id"], reply.json()["files"][0]["doc_id"]
        deadline = time.monotonic() + 600
        while True:
            job = requests.get(f"{url}/v1/ingests/{job_id}", headers=admin, timeout=60).json()
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert job["status"] == "done" and job["report"]["new"] == 1, job
        deadline = time.monotonic() + 30  # replicas move to the new index version within refresh_interval_s
        while True:
            hits = requests.post(f"{url}/v1/search", json={"query": "quuxfile frobnication tables", "top_k": 3,
                                                           "use_cache": False}, headers=ok, timeout=120).json()["hits"]
            if (hits and hits[0]["doc_id"] == doc_id) or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert hits and hits[0]["doc_id"] == doc_id
        assert requests.delete(f"{url}/v1/documents/{doc_id}", headers=admin, timeout=120).status_code == 200

        store.revoke(search_info.id)
        time.sleep(1.5)
        assert requests.post(f"{url}/v1/search", json=query, headers=ok, timeout=60).status_code == 401
    finally:
        keys_path(cfg.storage.data_dir).unlink(missing_ok=True)
        time.sleep(1.5)
