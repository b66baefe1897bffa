"""The embedding cache: a re-ingest of moved files embeds nothing, and what it reuses is right."""

from __future__ import annotations

import shutil

import numpy as np

from cluster.store.embed_cache import EmbeddingCache, text_key
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, SECTIONS
from pipelines.ingest import run_ingest
from support import make_config


def _vectors_by_text(cfg) -> dict[str, np.ndarray]:
    store = LanceStore.open(cfg.storage, dim=384)
    rows = store.scan(CHUNKS, ["text", "vector"]).to_pylist()
    return {r["text"]: np.asarray(r["vector"], np.float32) for r in rows}


def test_moved_files_are_reingested_without_embedding(tmp_path, corpus_copy, ray_session, installed_models):
    cfg = make_config(tmp_path / "index")
    first = run_ingest(cfg, corpus_copy, source="docs")
    assert first.failed == [] and first.new > 0
    assert first.cache_hits == 0 and first.cache_misses > first.chunks // 2, first.summary()
    cache = EmbeddingCache.open(cfg.storage, dim=384)
    assert cache is not None and cache.rows() == first.cache_misses
    before = _vectors_by_text(cfg)

    # Move every file one folder down: new paths, so new document ids; the texts are the same.
    moved = corpus_copy / "archive"
    moved.mkdir()
    for child in [p for p in corpus_copy.iterdir() if p.name != "archive"]:
        shutil.move(str(child), moved / child.name)
    second = run_ingest(cfg, corpus_copy, source="docs", prune=True)
    assert second.failed == [] and second.new == first.new and second.deleted == first.new, second.summary()
    assert second.cache_misses == 0, f"a moved file was embedded again: {second.summary()}"
    assert second.cache_hits == first.cache_misses
    assert "Embedding cache:" in second.summary() and "(100%)" in second.summary()
    assert cache.rows() == first.cache_misses, "nothing new should have been stored"

    after = _vectors_by_text(cfg)
    assert after.keys() == before.keys()
    assert all(np.allclose(after[t], before[t], atol=1e-6) for t in before)
    store = LanceStore.open(cfg.storage, dim=384)
    paths = set(store.scan(CHUNKS, ["path"]).column("path").to_pylist())
    assert paths and all("archive" in p for p in paths)
    assert store.scan(SECTIONS, ["doc_id"]).num_rows == first.sections


def test_cache_is_keyed_by_embedder_and_text(tmp_path):
    cache = EmbeddingCache.open(make_config(tmp_path / "index").storage, dim=4, create=True)
    import pyarrow as pa

    vectors = pa.FixedSizeListArray.from_arrays(pa.array([1, 0, 0, 0, 0, 1, 0, 0], pa.float32()), 4)
    assert cache.add("embedder-a", [text_key("alpha"), text_key("beta")], vectors) == 2
    found = cache.lookup("embedder-a", [text_key("beta"), text_key("gamma"), text_key("beta")])
    assert list(found) == [text_key("beta")] and found[text_key("beta")].tolist() == [0, 1, 0, 0]
    assert cache.lookup("embedder-b", [text_key("alpha")]) == {}
    assert cache.lookup("embedder-a", []) == {}
    assert EmbeddingCache.open(make_config(tmp_path / "fresh").storage, dim=4) is None


def _chunk_texts(cfg) -> list[tuple[str, str]]:
    store = LanceStore.open(cfg.storage, dim=384)
    return sorted(zip(*(store.scan(CHUNKS, ["doc_id", "text"]).column(c).to_pylist() for c in ("doc_id", "text"))))


def test_a_chunking_change_chunks_again_and_reuses_the_texts_it_keeps(tmp_path, corpus_copy, ray_session,
                                                                     installed_models):
    cfg = make_config(tmp_path / "index")
    first = run_ingest(cfg, corpus_copy, source="docs")
    assert first.failed == [] and first.new > 0 and first.rechunked == 0

    # Without the overlap, the chunks that carried none keep their texts (and the summaries theirs).
    changed = make_config(tmp_path / "index", chunking={"overlap_tokens": 0})
    second = run_ingest(changed, corpus_copy, source="docs")
    assert second.rechunked == first.new and second.updated == first.new and second.unchanged == 0, second.summary()
    assert "Chunked again:" in second.summary()
    assert second.cache_hits > 0 and second.cache_misses > 0, second.summary()
    print(f"overlap 32 -> 0: {second.cache_hits} of {second.cache_hits + second.cache_misses} texts reused")

    # The result equals a fresh index built with the new settings, chunk for chunk.
    fresh = make_config(tmp_path / "fresh", chunking={"overlap_tokens": 0})
    run_ingest(fresh, corpus_copy, source="docs")
    assert _chunk_texts(changed) == _chunk_texts(fresh)
    store = LanceStore.open(changed.storage, dim=384)
    signatures = set(store.scan("documents", ["chunking"]).column("chunking").to_pylist())
    assert len(signatures) == 1 and "overlap=0" in signatures.pop()

    # The same settings again: nothing to do.
    third = run_ingest(changed, corpus_copy, source="docs")
    assert third.unchanged == first.new and third.rechunked == 0 and third.cache_misses == 0


def test_an_index_from_before_the_chunking_column_is_upgraded_in_place(tmp_path):
    import pyarrow as pa

    from cluster.store.schema import DOCUMENTS, DOCUMENTS_SCHEMA

    cfg = make_config(tmp_path / "index")
    store = LanceStore.open(cfg.storage, dim=384, create=True)
    old_schema = pa.schema([f for f in DOCUMENTS_SCHEMA if f.name != "chunking"])
    store.db.drop_table(DOCUMENTS)
    store.db.create_table(DOCUMENTS, schema=old_schema).add(pa.table(
        {f.name: pa.array([None], f.type) if f.name != "doc_id" else pa.array(["d1"]) for f in old_schema},
        schema=old_schema))

    reader = LanceStore.open(cfg.storage, dim=384)  # a reader changes nothing
    assert "chunking" not in reader.table(DOCUMENTS).schema.names
    writer = LanceStore.open(cfg.storage, dim=384, create=True)
    assert "chunking" in writer.table(DOCUMENTS).schema.names
    # the old document's chunking is unknown: it counts as current (no forced re-ingest after an upgrade)
    assert writer.known_documents() == {"d1": (None, None, None, None)}
