"""Read an index back for assertions: every row of every store, keyed for comparison."""

from __future__ import annotations

from collections import Counter

from cluster.store.bm25 import open_bm25
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS


def snapshot(cfg) -> dict:
    """Documents, sections, chunks and BM25 contents of the index under ``cfg``."""
    store = LanceStore.open(cfg.storage, dim=384)
    bm25 = open_bm25(cfg.storage.bm25_path)
    docs = store.scan(DOCUMENTS, ["doc_id", "content_hash", "n_chunks", "n_sections", "path"]).to_pylist()
    chunks = store.scan(CHUNKS, ["chunk_id", "doc_id", "content_hash"]).to_pylist()
    sections = store.scan(SECTIONS, ["section_id", "doc_id"]).to_pylist()
    searcher_docs = bm25.num_docs()
    return {
        "documents": {d["doc_id"]: (d["content_hash"], d["n_chunks"], d["n_sections"], d["path"]) for d in docs},
        "chunk_ids": Counter(c["chunk_id"] for c in chunks),
        "section_ids": Counter(s["section_id"] for s in sections),
        "chunks_per_doc": Counter(c["doc_id"] for c in chunks),
        "sections_per_doc": Counter(s["doc_id"] for s in sections),
        "bm25_docs": searcher_docs,
        "versions": {name: store.table(name).version for name in (DOCUMENTS, SECTIONS, CHUNKS)},
    }


def assert_consistent(snap: dict) -> None:
    """No duplicates, no orphans, no gaps: every store agrees with the documents table."""
    assert all(n == 1 for n in snap["chunk_ids"].values()), "duplicate chunk ids"
    assert all(n == 1 for n in snap["section_ids"].values()), "duplicate section ids"
    assert set(snap["chunks_per_doc"]) == set(snap["documents"]), "chunks of unknown documents or documents without chunks"
    for doc_id, (_, n_chunks, n_sections, _) in snap["documents"].items():
        assert snap["chunks_per_doc"][doc_id] == n_chunks, doc_id
        assert snap["sections_per_doc"][doc_id] == n_sections, doc_id
    assert snap["bm25_docs"] == sum(snap["chunk_ids"].values()), "BM25 and LanceDB disagree"
