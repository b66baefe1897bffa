"""The shortened load-and-fault run of ``bench/load_bench.py`` (the full one is a benchmark, README):
``strata serve`` with the defaults under mixed search/context/answer load while ``strata ingest``
commits new documents, with a retriever replica, the reranker replica and the ingest's embed actor
SIGKILLed mid-run. It fails when an endpoint answers fewer than half its requests with a 200 that holds
content (hits, passages, an answer or a refusal), when a response is a 5xx other than 503 or has no
clear JSON status, when the index is not exactly the ingested files (duplicates, gaps, missing chunks
or BM25 postings), when a killed replica does not come back by itself and serve a request that needs
it, or when the ingest whose embed actor was killed does not finish."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support import REPO

pytestmark = pytest.mark.timeout(1200)


def test_load_with_replica_and_actor_kills_keeps_every_goal(tmp_path, installed_models):
    work = tmp_path / "load"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "load_bench.py"), "--clients", "3", "--seconds", "30", "--batches", "2",
         "--per-batch", "10", "--faults", "retriever,reranker,embed", "--work", str(work), "--no-record"],
        cwd=REPO, capture_output=True, text=True, timeout=1100)
    out = proc.stdout + proc.stderr
    log = (work / "load_bench.log").read_text(errors="replace")[-4000:] if (work / "load_bench.log").exists() else ""
    assert proc.returncode == 0, f"{out}\n--- log tail ---\n{log}"
    assert "goals: all met" in out and "— exact" in out, out
    for target in ("retriever", "reranker"):
        line = next((x for x in out.splitlines() if x.startswith(f"fault {target}: ")), "")
        assert "killed pid" in line and "served again" in line, out
    assert "fault embed: killed pid" in out, out
    for endpoint in ("search", "context", "answer"):
        row = next((x.split() for x in out.splitlines() if x.startswith(endpoint + " ")), None)
        assert row is not None and int(row[2]) >= 0.5 * int(row[1]) > 0, out  # requests, answered with content
