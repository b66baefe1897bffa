"""The writer on its own: how many embedded chunks a second it commits, LanceDB and tantivy apart,
in both designs (``ingest.writer``), against the same libraries driven the fastest way in the same
process on the same rows.

    .venv/bin/python bench/sink_bench.py                   # 100k chunks of SciFact text, 384-d vectors
    .venv/bin/python bench/sink_bench.py --chunks 300000 --no-record

The rows are real text (SciFact abstracts from ``../shared/data/scifact``, cut into ~100-word
chunks and repeated under new document ids until ``--chunks``) with random unit vectors. Side by side:

* **driver writer** (``writer = "driver"``): :class:`pipelines.sink.writer.IndexSink` fed the batches
  the embedding actors send (16 documents) with the default commit size (``ingest.writer_batch_rows``
  = 4096 chunks), exactly as ``strata ingest`` drives it: journal, LanceDB ``chunks`` + ``sections``,
  the embedding cache, tantivy add + commit (multi-threaded), the ``documents`` upsert;
* **fragment writes** (``writer = "workers"``, the worker side): :func:`pipelines.sink.fragments.
  write_fragments_batch` on blocks of ~4096 chunks, in this one process: chunks/s per worker process;
* **driver commit** (``writer = "workers"``, the driver side): ``IndexSink`` fed those written rows:
  one Lance ``Append`` per table per commit, BM25 from pre-rendered JSON, the documents upsert;
* **BM25 vs threads**: the pre-rendered documents into tantivy with 1, 2, 4 … threads (up to the cores),
  a commit per 4096 chunks as the writer does;
* **BM25 vs shard writer processes** (``ingest.bm25_shards``): the same documents routed to 1, 2, 4 …
  :class:`pipelines.sink.bm25_shards.Bm25ShardWriter` actors (one tantivy thread each), a commit per
  4096 chunks;
* **BM25 schema**: tantivy's CPU a chunk with the schema indexes had before 2026-11 and today's, the
  same chunks, one thread (see :mod:`cluster.store.bm25`);
* **driver commit, sharded BM25**: the driver commit again, its BM25 in ``--shards`` shards written by
  shard writer processes beside it (sent before the LanceDB commit, so they overlap it);
* **shard writers on the worker nodes** (``ingest.bm25_writers = "workers"``, the GPU default): the
  largest ``--shards`` count again, each writer placed as on a worker node (here this one node) and
  sent only its own documents: the driver's CPU a chunk is then all the head spends.

The writer's own clock (``SinkCounts.seconds``) splits each writer's time by part. The baselines, on
the same flattened rows in this process: **LanceDB** ``table.add`` in the same 4096-row commits and
in one call; **tantivy** ``add_json`` of documents rendered beforehand, 2 indexing threads, a 256 MB
heap, one commit.

The figure that matters for a GPU cluster is chunks/s of the driver: one H100 embeds MiniLM-L6 at
~20k chunks/s, so eight need ~150k chunks/s. The bench prints how many H100s each design feeds, and
per-core figures to project a head node with N cores: the driver commit's serial time per chunk
(everything but waiting for BM25) and BM25's chunks/s per indexing thread and per shard process. Results are appended to
``bench/results/sink.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DATA = REPO.parent / "shared" / "data" / "scifact" / "corpus.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "sink.jsonl"
DIM = 384
DOCS_PER_BATCH = 16
GPU_CHUNKS_PER_S = 20_000


def chunk_texts(words_per_chunk: int = 100, doc_chunks: int = 0) -> list[tuple[str, list[str]]]:
    """``(title, chunk texts)`` per SciFact abstract (~2.5 chunks each), or with ``doc_chunks``
    consecutive abstracts joined into documents of at least that many chunks (a manual page or a
    report: the Debian-docs corpus averages ~32 chunks a file)."""
    docs: list[tuple[str, list[str]]] = []
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            words = row["text"].split()
            chunks = [" ".join(words[i:i + words_per_chunk]) for i in range(0, len(words), words_per_chunk)]
            if not chunks:
                continue
            if docs and len(docs[-1][1]) < doc_chunks:
                docs[-1][1].extend(chunks)
            else:
                docs.append((row["title"], chunks))
    return docs


def build_batches(n_chunks: int, seed: int = 7, doc_chunks: int = 0) -> tuple[list[pa.Table], int]:
    """Embedded-record batches (:func:`pipelines.records.embedded_schema`) holding ``n_chunks`` chunks
    in documents of ~2.5 chunks, or of at least ``doc_chunks`` (:func:`chunk_texts`)."""
    from pipelines.records import STATUS_OK, embedded_schema

    rng = np.random.default_rng(seed)
    schema = embedded_schema(DIM)
    source = chunk_texts(doc_chunks=doc_chunks)
    rows, batches, total = [], [], 0
    copy = 0
    while total < n_chunks:
        for title, texts in source:
            if total >= n_chunks:
                break
            doc_id = f"{copy:04d}-{len(rows) + len(batches) * DOCS_PER_BATCH:08d}"
            section_id = f"{doc_id}-s0"
            vectors = rng.standard_normal((len(texts) + 1, DIM)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            offsets = np.cumsum([0] + [len(t) + 1 for t in texts])
            chunks = [{"chunk_id": f"{doc_id}-c{i}", "section_id": section_id, "section_path": title,
                       "section_facet": f"/{doc_id}", "ordinal": i, "start": int(offsets[i]),
                       "end": int(offsets[i] + len(t)), "n_tokens": int(len(t.split()) * 1.3),
                       "content_hash": "", "text": t, "header": title} for i, t in enumerate(texts)]
            section = {"section_id": section_id, "parent_id": None, "level": 0, "ordinal": 0, "title": title,
                       "path": [title], "path_str": title, "start": 0, "end": int(offsets[-1]),
                       "n_tokens": sum(c["n_tokens"] for c in chunks), "n_chunks": len(chunks),
                       "text": " ".join(texts), "summary": texts[0], "summary_header": title}
            keys = [f"{doc_id}-k{i}" for i in range(len(texts))]
            rows.append({"doc_id": doc_id, "source": "bench", "path": f"{doc_id}.md", "abs_path": f"/x/{doc_id}.md",
                         "title": title, "format": "markdown", "n_bytes": int(offsets[-1]), "mtime_ns": 0,
                         "content_hash": doc_id, "status": STATUS_OK, "reason": None, "detail": None,
                         "n_tokens": section["n_tokens"], "chunks": chunks, "sections": [section],
                         "chunk_vectors": vectors[:-1].tolist(), "section_vectors": vectors[-1:].tolist(),
                         "section_centroids": vectors[-1:].tolist(), "cache_hits": 0, "cache_misses": len(texts),
                         "new_cache_keys": keys, "new_cache_vectors": vectors[:-1].tolist()})
            total += len(texts)
            if len(rows) == DOCS_PER_BATCH:
                batches.append(pa.Table.from_pylist(rows, schema=schema))
                rows = []
        copy += 1
    if rows:
        batches.append(pa.Table.from_pylist(rows, schema=schema))
    return batches, total


def _open_index(work: Path, shards: int = 0, listed: bool = False):
    """A new index under ``work``: (config, LanceStore, BM25 writer, EmbeddingCache); ``shards`` > 1:
    a sharded BM25 index written by shard writer processes (needs Ray); ``listed``: placed as on
    worker nodes (``ingest.bm25_writers = "workers"``; here this one node): the driver sends each
    writer its own documents instead of sharing one copy."""
    import ray

    from cluster.config import load_config
    from cluster.store.bm25 import ShardedBm25, open_bm25
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.lance_store import LanceStore
    from pipelines.sink.bm25_shards import ShardWriterPool

    cfg = load_config(storage={"data_dir": str(work)})
    bm25 = open_bm25(cfg.storage.bm25_path, create=True, shards=shards)
    return (cfg, LanceStore.open(cfg.storage, dim=DIM, create=True),
            (ShardWriterPool(bm25, [ray.get_runtime_context().get_node_id()] if listed else [])
             if isinstance(bm25, ShardedBm25) else bm25),
            EmbeddingCache.open(cfg.storage, dim=DIM, create=True))


def _drain(cfg, store, bm25, cache, batches: list[pa.Table], batch_rows: int, cpu: dict | None = None):
    """Feed ``batches`` to a fresh :class:`IndexSink` and close it: (seconds, the sink). ``cpu``: filled
    with this process's CPU seconds for it and, for shard writers, theirs (before they stop)."""
    from cluster.store.journal import IngestJournal
    from pipelines.sink.writer import IndexSink

    sink = IndexSink(store, bm25, IngestJournal(cfg.storage.journal_path), known={}, batch_rows=batch_rows,
                     cache=cache, fingerprint="bench")
    shard_cpu = getattr(bm25, "cpu_seconds", lambda: [])
    started, cpu_started, shards_started = time.perf_counter(), time.process_time(), shard_cpu()
    for batch in batches:
        sink.accept(batch)
    sink.flush()
    if cpu is not None:
        cpu["driver"] = time.process_time() - cpu_started
        cpu["shards"] = [b - a for a, b in zip(shards_started, shard_cpu())]
    sink.close()
    return time.perf_counter() - started, sink


def run_sink(batches: list[pa.Table], work: Path, batch_rows: int) -> dict:
    """Everything ``strata ingest``'s writer does with the batches; seconds by part."""
    elapsed, sink = _drain(*_open_index(work), batches, batch_rows)
    return {"seconds": elapsed, "parts": dict(sink.counts.seconds), "chunks": sink.counts.chunks,
            "commits": sink.counts.commits}


def lance_baseline(chunks: pa.Table, work: Path, batch_rows: int) -> dict:
    import lancedb

    out = {}
    for name, step in (("lance_4096_commits", batch_rows), ("lance_one_call", chunks.num_rows)):
        db = lancedb.connect(str(work / name))
        table = db.create_table("chunks", schema=chunks.schema)
        started = time.perf_counter()
        for i in range(0, chunks.num_rows, step):
            table.add(chunks.slice(i, step))
        out[name] = time.perf_counter() - started
    return out


def tantivy_baseline(chunks: pa.Table, work: Path) -> float:
    """tantivy the fastest simple way: documents rendered beforehand (not timed), ``add_json`` on a
    writer with 2 indexing threads and a 256 MB heap, one commit."""
    import tantivy

    from cluster.store.bm25 import _schema
    from pipelines.sink.flatten import bm25_documents

    path = work / "tantivy-baseline"
    path.mkdir()
    index = tantivy.Index(_schema(), path=str(path))
    docs = bm25_documents(chunks)
    started = time.perf_counter()
    writer = index.writer(heap_size=256_000_000, num_threads=2)
    for doc in docs:
        writer.add_json(doc)
    writer.commit()
    writer.wait_merging_threads()
    return time.perf_counter() - started


def bm25_schema_comparison(chunks: pa.Table, work: Path, batch_rows: int, rounds: int = 2) -> dict[str, float]:
    """tantivy's CPU µs a chunk with the schema indexes had before 2026-11 (positions, ``title`` and
    ``section_path`` fields) and with today's, on the same chunks: one indexing thread, a commit per
    ``batch_rows``, the two alternated ``rounds`` times (the best of each kept: this box's speed drifts);
    and each index's bytes on disk a chunk (``<name>_bytes_per_chunk``)."""
    import tantivy

    from cluster.store.bm25 import _schema, schema_before_2026_11
    from pipelines.sink.flatten import bm25_documents

    now = bm25_documents(chunks)
    extra = chunks.select(["title", "section_path"]).to_pylist()
    before = [doc[:-1] + ", " + json.dumps({"title": e["title"] or "", "section_path": e["section_path"] or ""})[1:]
              for doc, e in zip(now, extra)]
    best: dict[str, float] = {}
    for i in range(rounds):
        for name, schema, docs in (("before_2026_11", schema_before_2026_11(), before), ("now", _schema(), now)):
            path = work / f"schema-{name}-{i}"
            path.mkdir()
            index = tantivy.Index(schema, path=str(path))
            started = time.process_time()
            writer = index.writer(heap_size=64_000_000, num_threads=1)
            for start in range(0, len(docs), batch_rows):
                for doc in docs[start:start + batch_rows]:
                    writer.add_json(doc)
                writer.commit()
            writer.wait_merging_threads()
            best[name] = min(best.get(name, float("inf")), (time.process_time() - started) / len(docs) * 1e6)
            files = [f for f in path.rglob("*") if f.is_file()]
            best[f"{name}_bytes_per_chunk"] = sum(f.stat().st_size for f in files) / len(docs)
    return best


def run_workers(batches: list[pa.Table], work: Path, batch_rows: int, shards: int = 0, listed: bool = False) -> dict:
    """``writer = "workers"``: fragment writes (this process standing for one worker) then the driver
    commit (with ``shards`` > 1: BM25 in that many shards, each written by its own process; ``listed``:
    sent as to writers on worker nodes)."""
    from pipelines.sink.fragments import fragment_targets, write_fragments_batch

    cfg, store, bm25, cache = _open_index(work, shards, listed)
    targets = fragment_targets(store, cache, "bench", storage_options={}, bm25_shards=bm25.shards)
    blocks = _blocks(batches, batch_rows)  # what a fragment task gets: a Ray Data block of ~a commit's chunks
    started = time.perf_counter()
    written = [write_fragments_batch(block, targets_json=targets, unit_chunks=batch_rows) for block in blocks]
    write_s = time.perf_counter() - started
    cpu: dict = {}
    commit_s, sink = _drain(cfg, store, bm25, cache, written, batch_rows, cpu)
    assert store.table("chunks").count_rows() == sink.counts.chunks
    return {"write_seconds": write_s, "commit_seconds": commit_s, "parts": dict(sink.counts.seconds), "cpu": cpu,
            "chunks": sink.counts.chunks, "commits": sink.counts.commits,
            "written": written}


def bm25_inputs(written: list[pa.Table]) -> tuple[list[str], list[str]]:
    """The pre-rendered BM25 documents of the written rows and each one's doc_id."""
    docs, ids = [], []
    for batch in written:
        column = batch.column("bm25")
        docs += pc.list_flatten(column).to_pylist()
        ids += pc.take(batch.column("doc_id"), pc.list_parent_indices(column)).to_pylist()
    return docs, ids


def _blocks(batches: list[pa.Table], chunks_per_block: int) -> list[pa.Table]:
    out, group, rows = [], [], 0
    for batch in batches:
        group.append(batch)
        rows += sum(len(c) for c in batch.column("chunks").to_pylist())
        if rows >= chunks_per_block:
            out.append(pa.concat_tables(group))
            group, rows = [], 0
    if group:
        out.append(pa.concat_tables(group))
    return out


def bm25_threads_sweep(docs: list[str], work: Path, batch_rows: int) -> dict[int, float]:
    """Seconds to index the pre-rendered documents with 1, 2, 4 … threads, a commit per ``batch_rows``."""
    from cluster.store.bm25 import Bm25Index

    out = {}
    threads = 1
    while threads <= min(os.cpu_count() or 1, 8):
        bm25 = Bm25Index(work / f"bm25-{threads}", create=True)
        started = time.perf_counter()
        bm25.open_writer(threads=threads)
        for i in range(0, len(docs), batch_rows):
            bm25.add_json(docs[i:i + batch_rows])
            bm25.commit()
        bm25.close_writer()
        out[threads] = time.perf_counter() - started
        threads *= 2
    return out


def bm25_shards_sweep(docs: list[str], doc_ids: list[str], work: Path, batch_rows: int) -> dict[int, float]:
    """Seconds to index the pre-rendered documents routed to 1, 2, 4 … shard writer processes (one
    tantivy thread each, up to the cores), a commit per ``batch_rows`` as the writer does."""
    from cluster.store.bm25 import open_bm25, shards_of
    from pipelines.sink.bm25_shards import ShardWriterPool

    out = {}
    shards = 1
    while shards <= min(os.cpu_count() or 1, 8):
        pool = ShardWriterPool(open_bm25(work / f"bm25-shards-{shards}", create=True, shards=shards))
        pool.open_writer(threads=1)
        numbers = shards_of(doc_ids, shards)  # the workers route documents (``bm25_shard``)
        started = time.perf_counter()
        for i in range(0, len(docs), batch_rows):
            pool.add_json(docs[i:i + batch_rows], numbers[i:i + batch_rows])
            pool.commit()
        out[shards] = time.perf_counter() - started
        pool.close_writer()
        shards *= 2
    return out


def main() -> int:
    from pipelines.sink.flatten import flatten_chunks

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--batch-rows", type=int, default=4096, help="chunks per writer commit (the default setting)")
    ap.add_argument("--shards", default="2,8,16", help="BM25 shard counts of the sharded driver commit, each "
                    "measured (its shard writers time-share this machine's cores: their CPU per chunk is what counts)")
    ap.add_argument("--doc-chunks", type=int, default=0, help="join SciFact abstracts into documents of at least "
                    "this many chunks (0: one abstract, ~2.5 chunks, a document; the Debian docs average ~32)")
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    shard_counts = [int(s) for s in args.shards.split(",") if s.strip()]
    random.seed(7)
    t0 = time.perf_counter()
    batches, n = build_batches(args.chunks, doc_chunks=args.doc_chunks)
    n_docs = sum(b.num_rows for b in batches)
    print(f"{n:,} chunks in {n_docs:,} documents ({n / n_docs:.1f} chunks each), {len(batches)} batches of "
          f"{DOCS_PER_BATCH} documents (built in {time.perf_counter() - t0:.1f}s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="strata-sink-") as tmp:
        work = Path(tmp)
        sink = run_sink(batches, work / "index", args.batch_rows)
        workers = run_workers(batches, work / "index-workers", args.batch_rows)
        docs, doc_ids = bm25_inputs(workers.pop("written"))
        sweep = bm25_threads_sweep(docs, work, args.batch_rows)
        import ray

        ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
        shard_sweep = bm25_shards_sweep(docs, doc_ids, work, args.batch_rows)
        sharded_by_count = {}
        for shards in shard_counts:
            sharded_by_count[shards] = run_workers(batches, work / f"index-sharded-{shards}", args.batch_rows,
                                                   shards=shards)
            sharded_by_count[shards].pop("written")
        most = max(shard_counts)  # bm25_writers = "workers": each remote writer is sent its own documents
        on_workers = run_workers(batches, work / f"index-listed-{most}", args.batch_rows, shards=most, listed=True)
        on_workers.pop("written")
        ray.shutdown()
        chunks = flatten_chunks(pa.concat_tables(batches), DIM)
        lance = lance_baseline(chunks, work, args.batch_rows)
        bm25 = tantivy_baseline(chunks, work)
        schemas = bm25_schema_comparison(chunks.slice(0, min(chunks.num_rows, 100_000)), work, args.batch_rows)
    parts, wparts = sink["parts"], workers["parts"]
    rate = lambda s: n / s if s else float("inf")  # noqa: E731
    commit_rate = rate(workers["commit_seconds"])
    # Per-core projection of the driver commit: BM25 scales with indexing threads, the rest is serial.
    bm25_1 = sweep[1]
    serial_s = max(workers["commit_seconds"] - wparts.get("bm25", 0.0), 1e-9)
    projection = {cores: round(n / (serial_s + bm25_1 / min(cores, 8))) for cores in (2, 4, 8, 16)}
    # The sharded design on a head with a core for the driver and one per shard writer: the driver's
    # own CPU per chunk (its LanceDB and Arrow threads included) against the shard writers' CPU per
    # chunk spread over S processes (documents are spread by hash), whichever is slower.
    # Each shard count is projected from its own run: with S shards a shard commits 1/S of every
    # commit, and tantivy's cost per chunk grows as its commits shrink.
    n_shards = shard_counts[0]
    sharded = sharded_by_count[n_shards]
    sparts = sharded["parts"]
    driver_cpu_us = sharded["cpu"]["driver"] / n * 1e6
    shard_cpu_us = sum(sharded["cpu"]["shards"]) / n * 1e6
    cpu_by_shards = {s: (r["cpu"]["driver"] / n * 1e6, sum(r["cpu"]["shards"]) / n * 1e6)
                     for s, r in sharded_by_count.items()}
    shard_projection = {s: round(1e6 / max(d, c / s)) for s, (d, c) in cpu_by_shards.items()}
    # Shard writers on the worker nodes: the head spends only the driver's CPU a chunk; BM25 needs the
    # shard writers' CPU a chunk spread over the GPU nodes.
    remote_driver_us = on_workers["cpu"]["driver"] / n * 1e6
    remote_shard_us = sum(on_workers["cpu"]["shards"]) / n * 1e6
    result = {
        "bench": "sink", "chunks": n, "commits": sink["commits"], "batch_rows": args.batch_rows,
        "writer_chunks_per_s": round(rate(sink["seconds"])),
        "writer_seconds_by_part": {k: round(v, 2) for k, v in parts.items()},
        "writer_lance_chunks_per_s": round(rate(parts.get("lance", 0))),
        "writer_bm25_chunks_per_s": round(rate(parts.get("bm25", 0))),
        "workers_fragment_write_chunks_per_s_per_process": round(rate(workers["write_seconds"])),
        "workers_commit_chunks_per_s": round(commit_rate),
        "workers_commit_seconds_by_part": {k: round(v, 2) for k, v in wparts.items()},
        "workers_commit_lance_chunks_per_s": round(rate(wparts.get("lance", 0))),
        "workers_commit_bm25_chunks_per_s": round(rate(wparts.get("bm25", 0))),
        "bm25_chunks_per_s_by_threads": {str(k): round(rate(v)) for k, v in sweep.items()},
        "commit_serial_us_per_chunk": round(serial_s / n * 1e6, 2),
        "bm25_chunks_per_s_by_shard_processes": {str(k): round(rate(v)) for k, v in shard_sweep.items()},
        "sharded_shards": n_shards,
        "sharded_commit_chunks_per_s": round(rate(sharded["commit_seconds"])),
        "sharded_commit_seconds_by_part": {k: round(v, 2) for k, v in sparts.items()},
        "sharded_commit_driver_cpu_us_per_chunk": round(driver_cpu_us, 2),
        "sharded_commit_shard_writers_cpu_us_per_chunk": round(shard_cpu_us, 2),
        "documents": n_docs, "chunks_per_document": round(n / n_docs, 1),
        "sharded_cpu_us_per_chunk_by_shards": {str(s): {"driver": round(d, 2), "shard_writers": round(c, 2)}
                                               for s, (d, c) in cpu_by_shards.items()},
        "workers_commit_driver_cpu_us_per_chunk": round(workers["cpu"]["driver"] / n * 1e6, 2),
        "projected_sharded_commit_chunks_per_s_by_shards": {str(k): v for k, v in shard_projection.items()},
        "projected_commit_chunks_per_s_by_head_cores": {str(k): v for k, v in projection.items()},
        "baseline_lance_4096_commits_chunks_per_s": round(rate(lance["lance_4096_commits"])),
        "baseline_lance_one_call_chunks_per_s": round(rate(lance["lance_one_call"])),
        "baseline_tantivy_2_threads_chunks_per_s": round(rate(bm25)),
        "gpus_fed_at_20k_chunks_per_s": round(rate(sink["seconds"]) / GPU_CHUNKS_PER_S, 2),
        "workers_gpus_fed_at_20k_chunks_per_s": round(commit_rate / GPU_CHUNKS_PER_S, 2),
        "workers_processes_per_h100": round(GPU_CHUNKS_PER_S / rate(workers["write_seconds"]), 2),
        "bm25_cpu_us_per_chunk_by_schema": {k: round(v, 1) for k, v in schemas.items()},
        "bm25_writers_on_workers": {
            "shards": most, "chunks_per_s_here": round(rate(on_workers["commit_seconds"])),
            "driver_cpu_us_per_chunk": round(remote_driver_us, 2),
            "shard_writers_cpu_us_per_chunk": round(remote_shard_us, 2),
            "head_chunks_per_s": round(1e6 / remote_driver_us),
            "shard_writer_cores_for_150k_chunks_per_s": round(150_000 * remote_shard_us / 1e6, 1)},
        "cpus": os.cpu_count(), "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    result["ratio_lance_vs_baseline"] = round(result["writer_lance_chunks_per_s"]
                                              / result["baseline_lance_4096_commits_chunks_per_s"], 3)
    result["ratio_bm25_vs_baseline"] = round(result["writer_bm25_chunks_per_s"]
                                             / result["baseline_tantivy_2_threads_chunks_per_s"], 3)
    print(f"\ndriver writer: {result['writer_chunks_per_s']:,} chunks/s over {n:,} chunks "
          f"({sink['commits']} commits) = {result['gpus_fed_at_20k_chunks_per_s']} H100s at 20k chunks/s")
    print("  time by part (s): " + ", ".join(f"{k} {v:.2f}" for k, v in parts.items()))
    print(f"  LanceDB (chunks + sections): {result['writer_lance_chunks_per_s']:,} chunks/s; baseline table.add "
          f"in {args.batch_rows}-row commits {result['baseline_lance_4096_commits_chunks_per_s']:,}, one call "
          f"{result['baseline_lance_one_call_chunks_per_s']:,} (ratio {result['ratio_lance_vs_baseline']})")
    print(f"  tantivy (add + commit): {result['writer_bm25_chunks_per_s']:,} chunks/s; baseline 2 threads, one commit "
          f"{result['baseline_tantivy_2_threads_chunks_per_s']:,} (ratio {result['ratio_bm25_vs_baseline']})")
    print(f"\nworkers write fragments: {result['workers_fragment_write_chunks_per_s_per_process']:,} chunks/s per "
          f"worker process ({result['workers_processes_per_h100']} processes per H100)")
    print(f"driver commits them: {result['workers_commit_chunks_per_s']:,} chunks/s ({workers['commits']} commits) = "
          f"{result['workers_gpus_fed_at_20k_chunks_per_s']} H100s at 20k chunks/s")
    print("  time by part (s): " + ", ".join(f"{k} {v:.2f}" for k, v in wparts.items()))
    print("BM25 chunks/s by indexing threads: " + ", ".join(
        f"{k}: {v:,}" for k, v in result["bm25_chunks_per_s_by_threads"].items()))
    print(f"per-core projection of the driver commit: serial {result['commit_serial_us_per_chunk']} us/chunk + BM25 "
          f"{round(rate(bm25_1)):,} chunks/s per thread -> " + ", ".join(
              f"{k} cores {v:,} chunks/s ({v / GPU_CHUNKS_PER_S:.1f} H100s)" for k, v in projection.items()))
    print("BM25 chunks/s by shard writer processes (1 thread each): " + ", ".join(
        f"{k}: {v:,}" for k, v in result["bm25_chunks_per_s_by_shard_processes"].items()))
    print(f"driver commit with BM25 in {n_shards} shards: {result['sharded_commit_chunks_per_s']:,} chunks/s "
          f"({sharded['commits']} commits)")
    print("  time by part (s): " + ", ".join(f"{k} {v:.2f}" for k, v in sparts.items()))
    print(f"  CPU per chunk: the driver {driver_cpu_us:.1f} us (unsharded, BM25 threads in it: "
          f"{result['workers_commit_driver_cpu_us_per_chunk']} us), the shard writers {shard_cpu_us:.1f} us in all")
    for s, (d, c) in cpu_by_shards.items():
        print(f"  with {s} shards: the driver {d:.1f} us/chunk, the shard writers {c:.1f} us/chunk in all")
    print("projection of the sharded commit, a core each for the driver and every shard writer: " + ", ".join(
              f"{k} shards {v:,} chunks/s ({v / GPU_CHUNKS_PER_S:.1f} H100s)" for k, v in shard_projection.items()))
    print(f"BM25 shard writers on the worker nodes ({most} shards, each sent its own documents): the driver "
          f"{remote_driver_us:.1f} us/chunk -> the head commits {1e6 / remote_driver_us:,.0f} chunks/s on one core; "
          f"the shard writers {remote_shard_us:.1f} us/chunk in all -> 150k chunks/s needs "
          f"{150_000 * remote_shard_us / 1e6:.1f} shard-writer cores across the worker nodes")
    print(f"tantivy CPU a chunk (1 thread, up to 100k chunks), the schema before 2026-11 (positions, title and "
          f"section_path fields) {schemas['before_2026_11']:.1f} us, today's {schemas['now']:.1f} us "
          f"(ratio {schemas['now'] / schemas['before_2026_11']:.2f}); on disk {schemas['before_2026_11_bytes_per_chunk']:.0f} "
          f"and {schemas['now_bytes_per_chunk']:.0f} bytes a chunk")
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        with RESULTS.open("a") as fh:
            fh.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
