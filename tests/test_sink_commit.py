"""The writer's commit paths without Ray: embedded records written by the driver, or fragments written
by workers (:func:`pipelines.sink.fragments.write_fragments_batch`) and committed by the driver, give
the same index; fragments written but never committed (a crash in between) are invisible, the resumed
ingest is exact, and maintenance removes their files. A sharded BM25 index written by one Ray actor
per shard (:class:`pipelines.sink.bm25_shards.ShardWriterPool`) keeps all of that."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest
import ray
from index_probe import assert_consistent, snapshot
from support import make_config

from cluster.store.bm25 import Bm25Index, document_json, open_bm25, shards_of
from cluster.store.embed_cache import EmbeddingCache
from cluster.store.journal import IngestJournal
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS
from pipelines.records import STATUS_FAILED, STATUS_OK, STATUS_UNCHANGED, embedded_schema
from pipelines.sink.bm25_shards import TOKEN_FILE, SharedStorageError, ShardWriterPool
from pipelines.sink.fragments import fragment_targets, write_fragments_batch
from pipelines.sink.writer import IndexSink, unit_rows

DIM = 384


def _doc(i: int, n_chunks: int, rng, *, version: str = "v1", status: str = STATUS_OK) -> dict:
    doc_id = f"doc-{i:03d}"
    texts = [f"{version} passage {j} of document {i} about helium{i} and argon" for j in range(n_chunks)]
    vectors = rng.standard_normal((n_chunks + 1, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    sid = f"{doc_id}-s0"
    chunks = [{"chunk_id": f"{doc_id}-{version}-c{j}", "section_id": sid, "section_path": f"Title {i}",
               "section_facet": f"/{doc_id}/{sid}", "ordinal": j, "start": 0, "end": len(t), "n_tokens": 9,
               "content_hash": version, "text": t, "header": ""} for j, t in enumerate(texts)]
    section = {"section_id": sid, "parent_id": None, "level": 0, "ordinal": 0, "title": f"Title {i}",
               "path": [f"Title {i}"], "path_str": f"Title {i}", "start": 0, "end": 10, "n_tokens": 9 * n_chunks,
               "n_chunks": n_chunks, "text": " ".join(texts), "summary": texts[0], "summary_header": ""}
    ok = status == STATUS_OK
    return {"doc_id": doc_id, "source": "t", "path": f"{doc_id}.md", "abs_path": f"/x/{doc_id}.md",
            "title": f"Title {i}", "format": "markdown", "n_bytes": 100 + i, "mtime_ns": 1, "content_hash": version,
            "status": status, "reason": None if ok else "undecodable", "detail": None, "n_tokens": 9 * n_chunks,
            "chunks": chunks if ok else [], "sections": [section] if ok else [],
            "chunk_vectors": vectors[:-1].tolist() if ok else [], "section_vectors": vectors[-1:].tolist() if ok else [],
            "section_centroids": vectors[-1:].tolist() if ok else [], "cache_hits": 0,
            "cache_misses": n_chunks if ok else 0, "new_cache_keys": [f"{version}-{doc_id}-k{j}" for j in range(n_chunks)] if ok else [],
            "new_cache_vectors": vectors[:-1].tolist() if ok else []}


def _batches(version: str = "v1", seed: int = 3) -> list[pa.Table]:
    rng = np.random.default_rng(seed)
    docs = [_doc(i, 1 + i % 4, rng, version=version) for i in range(12)]
    docs.append(_doc(90, 2, rng, status=STATUS_FAILED))
    docs.append(_doc(91, 2, rng, status=STATUS_UNCHANGED))
    return [pa.Table.from_pylist(docs[i:i + 3], schema=embedded_schema(DIM)) for i in range(0, len(docs), 3)]


def _open(cfg, *, batch_rows: int = 7, shards: int = 0, listed: bool = False):
    """A sink over a new or existing index; ``shards`` > 1: a sharded BM25 written by Ray actors
    (``listed``: placed as on worker nodes, here the one node: token checked, own documents sent)."""
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    bm25 = open_bm25(cfg.storage.bm25_path, create=True, shards=shards)
    writer = ShardWriterPool(bm25, [ray.get_runtime_context().get_node_id()] if listed else []) if bm25.shards > 1 else bm25
    cache = EmbeddingCache.open(cfg.storage, dim=DIM, create=True)
    sink = IndexSink(store, writer, IngestJournal(cfg.storage.journal_path), known=store.known_documents(),
                     batch_rows=batch_rows, cache=cache, fingerprint="fp", bm25_threads=2)
    return store, cache, sink


def _written(batches: list[pa.Table], store, cache, shards: int = 1) -> list[pa.Table]:
    """What the fragment-writing workers send the driver (here in this process)."""
    targets = fragment_targets(store, cache, "fp", storage_options={}, bm25_shards=shards)
    return [write_fragments_batch(b, targets_json=targets, unit_chunks=4) for b in batches]


def _rows(cfg, name: str, key: str) -> list[dict]:
    table = LanceStore.open(cfg.storage, dim=DIM).table(name).to_arrow().drop_columns(
        [c for c in ("ingested_at",) if name == DOCUMENTS])
    return table.sort_by(key).to_pylist()


def _ingest(cfg, *, workers: bool, version: str = "v1", shards: int = 0, listed: bool = False) -> IndexSink:
    store, cache, sink = _open(cfg, shards=shards, listed=listed)
    sink.recover()
    batches = _batches(version)
    for batch in (_written(batches, store, cache, sink.bm25.shards) if workers else batches):
        sink.accept(batch)
    sink.close()
    return sink


def _data_files(cfg, name: str) -> set[str]:
    return {p.name for p in (cfg.storage.data_dir / "lance" / f"{name}.lance" / "data").iterdir()}


def _referenced(cfg, name: str) -> set[str]:
    dataset = LanceStore.open(cfg.storage, dim=DIM).table(name).to_lance()
    return {f.path for fragment in dataset.get_fragments() for f in fragment.data_files()}


def test_workers_commit_gives_the_same_index_as_the_driver_writer(tmp_path):
    driver, workers = make_config(tmp_path / "driver"), make_config(tmp_path / "workers")
    a, b = _ingest(driver, workers=False), _ingest(workers, workers=True)
    for attr in ("new", "updated", "unchanged", "chunks", "sections", "tokens", "cache_misses"):
        assert getattr(a.counts, attr) == getattr(b.counts, attr), attr
    assert a.counts.failed == b.counts.failed and len(b.counts.failed) == 1
    assert b.counts.commits > 1 and b.counts.new == 12
    for name, key in ((DOCUMENTS, "doc_id"), (SECTIONS, "section_id"), (CHUNKS, "chunk_id")):
        assert _rows(driver, name, key) == _rows(workers, name, key), name
    assert EmbeddingCache.open(workers.storage, dim=DIM).rows() == b.counts.cache_misses
    snap_a, snap_b = snapshot(driver), snapshot(workers)
    assert_consistent(snap_b)
    assert snap_a["bm25_docs"] == snap_b["bm25_docs"] == b.counts.chunks
    for query in ("helium3 argon", "passage document"):
        hits_a = Counter(h.chunk_id for h in Bm25Index(driver.storage.bm25_path).search(query, k=50))
        hits_b = Counter(h.chunk_id for h in Bm25Index(workers.storage.bm25_path).search(query, k=50))
        assert hits_a == hits_b and hits_a
    facet = Bm25Index(workers.storage.bm25_path).search("helium3", section_facet="/doc-003")
    assert [h.doc_id for h in facet] == ["doc-003"] * 4


def test_written_rows_recut_anyhow_commit_the_same_index(tmp_path):
    """Ray Data may cut the fragment tasks' output anywhere: units split over batches, several in one."""
    whole, recut = make_config(tmp_path / "whole"), make_config(tmp_path / "recut")
    _ingest(whole, workers=True)
    store, cache, sink = _open(recut)
    rows = pa.concat_tables(_written(_batches(), store, cache))
    for start in range(0, rows.num_rows, 5):
        sink.accept(rows.slice(start, 5))
    sink.close()
    for name, key in ((DOCUMENTS, "doc_id"), (SECTIONS, "section_id"), (CHUNKS, "chunk_id")):
        assert _rows(whole, name, key) == _rows(recut, name, key), name
    assert_consistent(snapshot(recut))


def test_unit_rows_gathers_a_unit_found_apart():
    rows = pa.table({"unit": ["a", "a", "b", "a", "c"], "n": [1, 2, 3, 4, 5]})
    assert [(u, t.column("n").to_pylist()) for u, t in unit_rows(rows)] == [("a", [1, 2, 4]), ("b", [3]), ("c", [5])]
    assert unit_rows(rows.slice(0, 0)) == []


@pytest.mark.parametrize("workers", [False, True], ids=["driver", "workers"])
def test_vectors_reach_the_cache_before_their_documents_commit(tmp_path, workers):
    """A crash before the next document commit keeps the vectors embedded so far: the resumed
    ingest finds them in the cache, and the index it commits is the uninterrupted one."""
    cfg = make_config(tmp_path / "idx")
    store, cache, sink = _open(cfg, batch_rows=10_000)  # no document commit before the end
    sink.cache_commit_s = 0.0  # a cache commit after every batch
    batches = _batches()
    for batch in (_written(batches, store, cache) if workers else batches)[:2]:
        sink.accept(batch)
    assert sink.counts.commits == 0 and store.table(DOCUMENTS).count_rows() == 0
    assert cache.rows() == sink.counts.cache_misses > 0, "the vectors should be committed already"
    sink.bm25.close_writer()  # the process dies here: nothing else is flushed

    resumed = _ingest(cfg, workers=workers)
    assert resumed.counts.new == 12 and resumed.counts.commits > 0
    # (these batches come pre-embedded, so the resumed run stores its texts again; the pipeline's
    # actors would look them up first: tests/test_embed_cache.py)
    after = EmbeddingCache.open(cfg.storage, dim=DIM)
    assert after.rows() == sink.counts.cache_misses + resumed.counts.cache_misses
    reference = make_config(tmp_path / "reference")
    _ingest(reference, workers=workers)
    for name, key in ((DOCUMENTS, "doc_id"), (SECTIONS, "section_id"), (CHUNKS, "chunk_id")):
        assert _rows(reference, name, key) == _rows(cfg, name, key), name


def test_changed_documents_replace_their_old_rows(tmp_path):
    cfg = make_config(tmp_path / "idx")
    _ingest(cfg, workers=True)
    second = _ingest(cfg, workers=True, version="v2")
    assert second.counts.updated == 12 and second.counts.new == 0
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert all("-v2-" in c for c in snap["chunk_ids"])


@pytest.mark.parametrize("journaled", [False, True])
def test_crash_between_fragment_write_and_commit_leaves_the_index_exact(tmp_path, journaled):
    """Workers wrote fragments, the driver died before (or, journaled, during) their commit: readers
    never see those rows, the resumed ingest has exactly the rows of an uninterrupted one, and
    maintenance removes the orphaned files."""
    reference = make_config(tmp_path / "reference")
    _ingest(reference, workers=True)
    cfg = make_config(tmp_path / "idx")
    store, cache, sink = _open(cfg)
    batches = _batches()
    sink.accept(_written(batches[:1], store, cache)[0])
    sink.flush()  # the first unit (3 documents) is committed
    committed = snapshot(cfg)["documents"]
    _written(batches, store, cache)  # every fragment written again, none committed: the "crash"
    if journaled:  # the driver died after journaling the next commit
        sink.journal.begin([f"doc-{i:03d}" for i in range(3, 6)])
    sink.bm25.close_writer()
    orphans = _data_files(cfg, CHUNKS) - _referenced(cfg, CHUNKS)
    assert orphans
    assert snapshot(cfg)["documents"] == committed
    assert LanceStore.open(cfg.storage, dim=DIM).table(CHUNKS).count_rows() == sum(
        n for _, n, _, _ in committed.values())

    resumed = _ingest(cfg, workers=True)  # the next ingest: recover, then the documents not yet complete
    assert resumed.counts.new == 12 - len(committed)
    snap, ref = snapshot(cfg), snapshot(reference)
    assert_consistent(snap)
    assert snap["documents"] == ref["documents"] and snap["chunk_ids"] == ref["chunk_ids"]
    assert snap["section_ids"] == ref["section_ids"] and snap["bm25_docs"] == ref["bm25_docs"]

    from cluster.config import IndexConfig

    store = LanceStore.open(cfg.storage, dim=DIM)
    store.maintain(IndexConfig(cleanup_older_than_hours=24))  # what run_ingest does after its commits
    assert not orphans & _data_files(cfg, CHUNKS), "uncommitted fragment files survived maintenance"
    assert store.table(CHUNKS).count_rows() == sum(ref["chunk_ids"].values())


@pytest.mark.parametrize("workers,listed", [(False, False), (True, False), (True, True)])
def test_sharded_bm25_written_by_shard_actors_holds_the_same_chunks(tmp_path, ray_session, workers, listed):
    single, sharded = make_config(tmp_path / "single"), make_config(tmp_path / "sharded")
    _ingest(single, workers=workers)
    counts = _ingest(sharded, workers=workers, shards=3, listed=listed).counts
    assert counts.new == 12 and counts.commits > 1
    for name, key in ((DOCUMENTS, "doc_id"), (SECTIONS, "section_id"), (CHUNKS, "chunk_id")):
        assert _rows(single, name, key) == _rows(sharded, name, key), name
    snap = snapshot(sharded)
    assert_consistent(snap)
    bm25 = open_bm25(sharded.storage.bm25_path)
    assert bm25.shards == 3 and all(part.num_docs() for part in bm25.parts)
    for query in ("helium3 argon", "passage document"):
        hits_single = Counter(h.chunk_id for h in Bm25Index(single.storage.bm25_path).search(query, k=50))
        assert Counter(h.chunk_id for h in bm25.search(query, k=50)) == hits_single and hits_single
    assert [h.doc_id for h in bm25.search("helium3", section_facet="/doc-003")] == ["doc-003"] * 4
    again = _ingest(sharded, workers=workers, version="v2", shards=3, listed=listed)  # old chunks deleted
    assert again.counts.updated == 12
    snap = snapshot(sharded)
    assert_consistent(snap)
    assert all("-v2-" in c for c in snap["chunk_ids"])


def _sharded_after_one_batch(tmp_path):
    """A reference index of every batch, and a 3-shard sink that has committed the first batch
    (3 documents): (reference config, config, sink, batches)."""
    reference = make_config(tmp_path / "reference")
    _ingest(reference, workers=False, shards=3)
    cfg = make_config(tmp_path / "idx")
    _, _, sink = _open(cfg, shards=3)
    batches = _batches()
    sink.accept(batches[0])
    sink.flush()
    return reference, cfg, sink, batches


def _assert_resumes_exact(cfg, reference) -> None:
    """The next ingest adds the 9 documents not committed and the index equals the reference's."""
    resumed = _ingest(cfg, workers=False, shards=3)
    assert resumed.counts.new == 9
    snap, ref = snapshot(cfg), snapshot(reference)
    assert_consistent(snap)
    assert snap["documents"] == ref["documents"] and snap["chunk_ids"] == ref["chunk_ids"]
    assert snap["bm25_docs"] == ref["bm25_docs"]


def test_crash_while_shard_writers_hold_a_torn_commit_leaves_the_index_exact(tmp_path, ray_session):
    """The driver died after the shard writers committed a batch's BM25 documents but before its
    documents rows: the next ingest removes them from every shard and the index is exact."""
    reference, cfg, sink, batches = _sharded_after_one_batch(tmp_path)
    torn = batches[1].to_pylist()
    sink.journal.begin([d["doc_id"] for d in torn])
    chunks = [dict(c, doc_id=d["doc_id"], title=d["title"]) for d in torn for c in d["chunks"]]
    sink.bm25.add_json([document_json(c) for c in chunks], shards_of([c["doc_id"] for c in chunks], 3))
    sink.bm25.commit()  # BM25 holds the torn documents; LanceDB and documents do not
    sink.bm25._kill()  # the crash: the shard writers die with their locks
    assert open_bm25(cfg.storage.bm25_path).num_docs() == 6 + len(chunks)  # 3 complete docs: 1+2+3 chunks

    _assert_resumes_exact(cfg, reference)


def test_shard_writers_on_a_node_that_does_not_share_the_index_stop_or_move(tmp_path, ray_session, monkeypatch):
    """A shard writer placed on a worker node checks the driver's token in the index folder first: a
    node that sees another folder at that path (not shared storage) stops the ingest with a clear
    error, or with ``fallback`` (``bm25_writers = "auto"``) its writer moves to the driver's node."""
    bm25 = open_bm25(tmp_path / "bm25", create=True, shards=2)
    here = ray.get_runtime_context().get_node_id()
    stamp = ShardWriterPool._stamp
    monkeypatch.setattr(ShardWriterPool, "_stamp", lambda self: stamp(self) and "not-the-stamped-token")
    strict = ShardWriterPool(bm25, [here])
    with pytest.raises(SharedStorageError, match="must be storage every worker node shares"):
        strict.open_writer()
    assert not strict.writing
    moved = ShardWriterPool(bm25, [here], fallback=True)
    moved.open_writer()
    assert moved.placed == [here, here] and moved._remote == [False, False]
    docs = [document_json({"chunk_id": f"d{i}-c0", "doc_id": f"d{i}", "text": f"krypton {i}", "title": "t",
                           "section_path": "", "section_facet": f"/d{i}"}) for i in range(6)]
    moved.add_json(docs, shards_of([f"d{i}" for i in range(6)], 2))
    moved.commit()
    moved.close_writer()
    assert open_bm25(tmp_path / "bm25").num_docs() == 6 and (tmp_path / "bm25" / TOKEN_FILE).exists()


def test_a_shard_writer_lost_mid_ingest_stops_the_batch_and_the_next_ingest_resumes(tmp_path, ray_session):
    """A shard writer's node is lost between commits: the next commit fails with a clear error and
    commits nothing of its batch, closing the writers still works, and the next ingest is exact."""
    reference, cfg, sink, batches = _sharded_after_one_batch(tmp_path)
    ray.kill(sink.bm25._actors[1])  # its node is lost
    with pytest.raises(RuntimeError, match="BM25 shard writer .* died .* run the ingest again"):
        for batch in batches[1:]:
            sink.accept(batch)
        sink.flush()
    sink.bm25.close_writer()  # what run_ingest's cleanup does: no second error
    assert not sink.bm25.writing

    _assert_resumes_exact(cfg, reference)
