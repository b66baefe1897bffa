"""Kill a real ingest process mid-way (SIGKILL), resume, and compare with an uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pyarrow as pa
import pytest
from index_probe import assert_consistent, snapshot
from support import REPO, SAMPLES, make_config

from cluster.store.bm25 import open_bm25
from cluster.store.journal import IngestJournal
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS
from pipelines.ingest import run_ingest


def _chunk_rows(cfg) -> int:
    try:
        return LanceStore.open(cfg.storage, dim=384).table(CHUNKS).count_rows()
    except Exception:
        return 0


def _complete_docs(cfg) -> set[str]:
    """The documents whose ``documents`` row (written last: it marks a document complete) is committed."""
    try:
        return set(LanceStore.open(cfg.storage, dim=384).scan(DOCUMENTS, ["doc_id"]).column("doc_id").to_pylist())
    except Exception:
        return set()


#: The two writers (``ingest.writer``): the driver writes every row (the CPU default), or workers
#: write the Lance fragments and the driver commits them, BM25 in shards each written by its own
#: process (the GPU default); both must resume to the same index as an uninterrupted ingest.
WRITERS = {"driver": {}, "workers-sharded": {"writer": "workers", "bm25_shards": 2}}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_kill_mid_ingest_then_resume_matches_uninterrupted(tmp_path, sample_index, ray_session, writer):
    reference_cfg, reference_report = sample_index
    settings = {"writer_batch_rows": 16, **WRITERS[writer]}
    cfg = make_config(tmp_path / "idx", ingest=settings)
    env = {**os.environ, "STRATA_STORAGE__DATA_DIR": str(cfg.storage.data_dir),
           **{f"STRATA_INGEST__{key.upper()}": str(value) for key, value in settings.items()},
           "PYTHONPATH": str(REPO),
           # the child driver joins this session's Ray cluster (as `strata ingest` does with RAY_ADDRESS on a
           # real cluster); killing it kills the driver and, through Ray's ownership, its actors and tasks
           "RAY_ADDRESS": ray_session.get_runtime_context().gcs_address}
    cmd = [sys.executable, "-m", "cli.main", "ingest", str(SAMPLES), "--source", "samples", "--no-progress"]
    killed_at, output = None, ""
    for _attempt in range(2):  # a second try only if the child died on its own (e.g. Ray start-up timed out)
        log = tmp_path / "child.log"
        with open(log, "w") as sink:  # a file, not a pipe: a full pipe would block the child
            proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            rows = _chunk_rows(cfg)
            if 0 < rows < reference_report.chunks * 0.8 and _complete_docs(cfg):
                os.killpg(proc.pid, signal.SIGKILL)  # the writer process dies mid-ingest, no cleanup
                killed_at = rows
                break
            time.sleep(0.2)
        proc.wait(timeout=60)
        output = log.read_text()[-3000:]
        if killed_at is not None or _chunk_rows(cfg) > 0:
            break
    assert killed_at is not None, "the ingest was not killed mid-way: " + output
    done_before = _complete_docs(cfg)

    report = run_ingest(cfg, SAMPLES, source="samples")  # resume in this process
    assert report.failed == []
    # a resume, not a rebuild: what was complete before the kill is skipped, only the rest is ingested
    assert done_before and report.unchanged == len(done_before), (len(done_before), report)
    assert report.new + report.updated == reference_report.new - len(done_before), report
    assert open_bm25(cfg.storage.bm25_path).shards == settings.get("bm25_shards", 1)
    resumed, reference = snapshot(cfg), snapshot(reference_cfg)
    assert_consistent(resumed)
    assert resumed["documents"] == reference["documents"]
    assert resumed["chunk_ids"] == reference["chunk_ids"]
    assert resumed["section_ids"] == reference["section_ids"]
    assert resumed["bm25_docs"] == reference["bm25_docs"]


def test_torn_batch_is_rolled_back_from_the_journal(tmp_path, ray_session, installed_models):
    """A batch that wrote chunks (and BM25 docs) but died before its documents rows is undone."""
    cfg = make_config(tmp_path / "idx")
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# Alpha\n\nAlpha particles are helium nuclei.\n")
    run_ingest(cfg, corpus)
    store = LanceStore.open(cfg.storage, dim=384)
    torn = store.scan(CHUNKS, store.table(CHUNKS).schema.names).to_pylist()[0]
    torn.update(doc_id="torn-doc", chunk_id="torn-chunk", text="zyzzyva torn write")
    store.add(CHUNKS, pa.Table.from_pylist([torn], schema=store.table(CHUNKS).schema))
    bm25 = open_bm25(cfg.storage.bm25_path)
    bm25.open_writer()
    bm25.add_chunks([{"chunk_id": "torn-chunk", "doc_id": "torn-doc", "title": "", "section_path": "",
                      "section_facet": "/torn-doc", "text": "zyzzyva torn write"}])
    bm25.commit()
    bm25.close_writer()
    IngestJournal(cfg.storage.journal_path).begin(["torn-doc"])

    report = run_ingest(cfg, corpus)
    assert report.recovered == ["torn-doc"]
    assert not cfg.storage.journal_path.exists()
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert "torn-chunk" not in snap["chunk_ids"]
