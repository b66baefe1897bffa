"""Pages of paged documents (PDF) in the index: every chunk's ``first_page``/``last_page`` (null for other
formats) stored in the ``chunks`` table by both writers (the driver's and the fragment-writing workers');
an index written before the columns existed is read as nulls and upgraded in place by the next writer.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from support import make_config

from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, DOCUMENTS_SCHEMA, chunks_schema

sys.path.insert(0, str(Path(__file__).parent / "parse"))
from pdfgen import Mark, Text, make_pdf  # noqa: E402

DIM = 384
PAGE_WORDS = {"Overview": 1, "Harbour": 2, "Lighthouse": 3}
SKIP_INGEST = pytest.mark.skipif(os.environ.get("STRATA_TEST_SKIP_INGEST") == "1", reason="STRATA_TEST_SKIP_INGEST=1")


def report_pdf() -> bytes:
    """Three pages, each of its own word's body lines (30, 30, 10: some chunk runs over a page break)."""
    pages = []
    for word, n in (("Overview", 30), ("Harbour", 30), ("Lighthouse", 10)):
        items = [Text(72, 740, 16, "1 Overview", bold=True)] if word == "Overview" else []
        items += [Text(72, 710 - 14 * k, 10, f"{word} line {k} of the body text, written plainly for the reader.")
                  for k in range(n)]
        pages.append(items)
    return make_pdf(pages, outline=[Mark(1, "Overview", 0, 760)], title="Coastal survey")


def expected_pages(text: str) -> tuple[int, int]:
    pages = {PAGE_WORDS[w] for w in re.findall(r"(\w+) line \d+ of", text)}
    return min(pages), max(pages)


def _pdf_corpus(root: Path) -> Path:
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "survey.pdf").write_bytes(report_pdf())
    (corpus / "notes.md").write_text("# Notes\n\nA plain note about rivers and deltas.\n")
    return corpus


@SKIP_INGEST
def test_pdf_chunks_carry_their_pages_in_the_index(tmp_path, ray_session, installed_models):
    from pipelines.ingest import run_ingest

    cfg = make_config(tmp_path / "idx")
    report = run_ingest(cfg, _pdf_corpus(tmp_path), source="docs")
    assert report.new == 2 and not report.failed
    rows = LanceStore.open(cfg.storage, dim=DIM).scan(CHUNKS, ["path", "text", "first_page", "last_page"]).to_pylist()
    pdf = [r for r in rows if r["path"] == "survey.pdf"]
    assert len(pdf) >= 3
    for r in pdf:
        assert (r["first_page"], r["last_page"]) == expected_pages(r["text"]), r["text"][:80]
    assert any(r["first_page"] < r["last_page"] for r in pdf)
    assert all(r["first_page"] is None and r["last_page"] is None for r in rows if r["path"] == "notes.md")


# -- an index from before the page columns -----------------------------------------------------------------
OLD_CHUNKS = pa.schema([f for f in chunks_schema(DIM) if f.name not in ("first_page", "last_page")])


def _unit(rng, n: int) -> list[list[float]]:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist()


def _record(doc_id: str, pages: list[tuple[int | None, int | None]], rng) -> dict:
    """An embedded record (:func:`pipelines.records.embedded_schema`) with one chunk per entry of ``pages``."""
    sid = f"{doc_id}-s0"
    texts = [f"passage {j} of {doc_id} about harbours" for j in range(len(pages))]
    chunks = [{"chunk_id": f"{doc_id}-c{j}", "section_id": sid, "section_path": "Survey", "section_facet": f"/{doc_id}",
               "ordinal": j, "start": 0, "end": len(t), "n_tokens": 7, "content_hash": "h", "text": t, "header": "",
               "first_page": first, "last_page": last} for j, (t, (first, last)) in enumerate(zip(texts, pages))]
    section = {"section_id": sid, "parent_id": None, "level": 0, "ordinal": 0, "title": "Survey", "path": ["Survey"],
               "path_str": "Survey", "start": 0, "end": 10, "n_tokens": 7 * len(pages), "n_chunks": len(pages),
               "text": " ".join(texts), "summary": texts[0], "summary_header": ""}
    vectors = _unit(rng, len(pages) + 1)
    return {"doc_id": doc_id, "source": "t", "path": f"{doc_id}.pdf", "abs_path": f"/x/{doc_id}.pdf", "title": "Survey",
            "format": "pdf", "n_bytes": 100, "mtime_ns": 1, "content_hash": "h", "status": "ok", "reason": None,
            "detail": None, "n_tokens": 7 * len(pages), "chunks": chunks, "sections": [section],
            "chunk_vectors": vectors[:-1], "section_vectors": vectors[-1:], "section_centroids": vectors[-1:],
            "cache_hits": 0, "cache_misses": 0, "new_cache_keys": [], "new_cache_vectors": []}


def _old_index(cfg, rng) -> None:
    """An index as the schema before pages wrote it: a chunks table without the page columns, one row."""
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    store.db.drop_table(CHUNKS)
    row = {f.name: None for f in OLD_CHUNKS}
    row.update(chunk_id="old-c0", doc_id="old", path="old.md", ordinal=0, text="an old passage", vector=_unit(rng, 1)[0])
    store.db.create_table(CHUNKS, schema=OLD_CHUNKS).add(pa.Table.from_pylist([row], schema=OLD_CHUNKS))
    doc = {f.name: None for f in DOCUMENTS_SCHEMA}
    doc.update(doc_id="old", path="old.md", n_chunks=1)
    store.upsert_documents(pa.Table.from_pylist([doc], schema=DOCUMENTS_SCHEMA))


@pytest.mark.parametrize("workers", [False, True], ids=["driver", "workers"])
def test_an_index_from_before_pages_is_read_as_nulls_and_upgraded_by_the_writer(tmp_path, workers):
    from cluster.store.bm25 import open_bm25
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.journal import IngestJournal
    from pipelines.records import embedded_schema
    from pipelines.sink.fragments import fragment_targets, write_fragments_batch
    from pipelines.sink.writer import IndexSink

    rng = np.random.default_rng(5)
    cfg = make_config(tmp_path / "idx")
    _old_index(cfg, rng)

    reader = LanceStore.open(cfg.storage, dim=DIM)  # a reader (a Serve replica) changes nothing …
    assert "first_page" not in reader.table(CHUNKS).schema.names
    # … and reads the missing columns as nulls
    assert reader.scan(CHUNKS, ["chunk_id", "first_page", "last_page"]).to_pylist() == [
        {"chunk_id": "old-c0", "first_page": None, "last_page": None}]

    store = LanceStore.open(cfg.storage, dim=DIM, create=True)  # the writer upgrades the table in place
    assert store.table(CHUNKS).schema == chunks_schema(DIM)
    cache = EmbeddingCache.open(cfg.storage, dim=DIM, create=True)
    sink = IndexSink(store, open_bm25(cfg.storage.bm25_path, create=True), IngestJournal(cfg.storage.journal_path),
                     known=store.known_documents(), batch_rows=4, cache=cache, fingerprint="fp", bm25_threads=1)
    sink.recover()
    batch = pa.Table.from_pylist([_record("new", [(1, 1), (1, 2), (3, 3)], rng), _record("flat", [(None, None)], rng)],
                                 schema=embedded_schema(DIM))
    if workers:
        targets = fragment_targets(store, cache, "fp", storage_options={}, bm25_shards=1)
        batch = write_fragments_batch(batch, targets_json=targets, unit_chunks=4)
    sink.accept(batch)
    sink.close()

    reader.refresh()  # the replica moves to the new version and sees the columns
    rows = {r["chunk_id"]: (r["first_page"], r["last_page"])
            for r in reader.scan(CHUNKS, ["chunk_id", "first_page", "last_page"]).to_pylist()}
    assert rows == {"old-c0": (None, None), "new-c0": (1, 1), "new-c1": (1, 2), "new-c2": (3, 3),
                    "flat-c0": (None, None)}
    assert store.table(DOCUMENTS).count_rows() == 3
