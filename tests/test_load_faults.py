"""The shortened load-and-fault run of ``bench/load_bench.py`` (the full one is a benchmark, README):
``strata serve`` with the defaults under mixed search/context/answer load while ``strata ingest``
commits new documents, with a retriever replica, the reranker replica and the ingest's embed actor
SIGKILLed mid-run. It fails when a response is a 5xx other than 503 or has no clear JSON status, when
the index is not exactly the ingested files (duplicates, gaps, missing chunks or BM25 postings), or
when a killed replica does not come back by itself."""

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
    assert "fault retriever: killed pid" in out and "fault reranker: killed pid" in out, out
    for endpoint in ("search", "context", "answer"):
        assert any(line.startswith(endpoint) for line in out.splitlines()), out
