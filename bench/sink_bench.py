"""The single writer on its own: how many embedded chunks a second it commits, LanceDB and tantivy
apart, against the same libraries driven the fastest way in the same process on the same rows.

    .venv/bin/python bench/sink_bench.py                   # 100k chunks of SciFact text, 384-d vectors
    .venv/bin/python bench/sink_bench.py --chunks 300000 --no-record

The rows are real text (SciFact abstracts from ``../shared/data/scifact``, cut into ~100-word
chunks and repeated under new document ids until ``--chunks``) with random unit vectors, fed to
:class:`pipelines.sink.writer.IndexSink` in the batches the embedding actors send (16 documents)
with the default commit size (``ingest.writer_batch_rows`` = 4096 chunks), exactly as
``strata ingest`` drives it: journal, LanceDB ``chunks`` + ``sections``, the embedding cache,
tantivy add + commit, the ``documents`` upsert. The writer's own clock (``SinkCounts.seconds``)
splits the time by part. The baselines, on the same flattened rows in this process:

* **LanceDB**: the chunk table appended with ``table.add`` in the same 4096-row commits, and in one
  call (the fastest single-process write);
* **tantivy**: every chunk added to an ``IndexWriter`` with 2 indexing threads and a 256 MB heap,
  one commit.

The figure that matters for a GPU cluster is chunks/s of the whole writer: one H100 embeds
MiniLM-L6 at ~20k chunks/s, so eight need ~150k chunks/s. Results are appended to
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DATA = REPO.parent / "shared" / "data" / "scifact" / "corpus.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "sink.jsonl"
DIM = 384
DOCS_PER_BATCH = 16
GPU_CHUNKS_PER_S = 20_000


def chunk_texts(words_per_chunk: int = 100) -> list[tuple[str, list[str]]]:
    """``(title, chunk texts)`` per SciFact abstract."""
    docs = []
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            words = row["text"].split()
            chunks = [" ".join(words[i:i + words_per_chunk]) for i in range(0, len(words), words_per_chunk)]
            if chunks:
                docs.append((row["title"], chunks))
    return docs


def build_batches(n_chunks: int, seed: int = 7) -> tuple[list[pa.Table], int]:
    """Embedded-record batches (:func:`pipelines.records.embedded_schema`) holding ``n_chunks`` chunks."""
    from pipelines.records import STATUS_OK, embedded_schema

    rng = np.random.default_rng(seed)
    schema = embedded_schema(DIM)
    source = chunk_texts()
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
                       "content_hash": "", "text": t, "embed_text": f"{title}\n{t}"} for i, t in enumerate(texts)]
            section = {"section_id": section_id, "parent_id": None, "level": 0, "ordinal": 0, "title": title,
                       "path": [title], "path_str": title, "start": 0, "end": int(offsets[-1]),
                       "n_tokens": sum(c["n_tokens"] for c in chunks), "n_chunks": len(chunks),
                       "text": " ".join(texts), "summary": texts[0], "summary_embed_text": f"{title}\n{texts[0]}"}
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


def run_sink(batches: list[pa.Table], work: Path, batch_rows: int) -> dict:
    """Everything ``strata ingest``'s writer does with the batches; seconds by part."""
    from cluster.config import load_config
    from cluster.store.bm25 import Bm25Index
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.journal import IngestJournal
    from cluster.store.lance_store import LanceStore
    from pipelines.sink.writer import IndexSink

    cfg = load_config(storage={"data_dir": str(work)})
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    bm25 = Bm25Index(cfg.storage.bm25_path, create=True)
    cache = EmbeddingCache.open(cfg.storage, dim=DIM, create=True)
    sink = IndexSink(store, bm25, IngestJournal(cfg.storage.journal_path), known={}, batch_rows=batch_rows,
                     cache=cache, fingerprint="bench")
    started = time.perf_counter()
    for batch in batches:
        sink.accept(batch)
    sink.close()
    elapsed = time.perf_counter() - started
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
    import tantivy

    from cluster.store.bm25 import _schema

    path = work / "tantivy-baseline"
    path.mkdir()
    index = tantivy.Index(_schema(), path=str(path))
    rows = chunks.select(["chunk_id", "doc_id", "title", "section_path", "section_facet", "text"]).to_pylist()
    started = time.perf_counter()
    writer = index.writer(heap_size=256_000_000, num_threads=2)
    for row in rows:
        writer.add_document(tantivy.Document(
            chunk_id=row["chunk_id"], doc_id=row["doc_id"], text="\n".join((row["title"], row["section_path"], row["text"])),
            title=row["title"], section_path=row["section_path"], section=tantivy.Facet.from_string(row["section_facet"])))
    writer.commit()
    writer.wait_merging_threads()
    return time.perf_counter() - started


def main() -> int:
    from pipelines.sink.writer import flatten_chunks

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--batch-rows", type=int, default=4096, help="chunks per writer commit (the default setting)")
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    random.seed(7)
    t0 = time.perf_counter()
    batches, n = build_batches(args.chunks)
    print(f"{n:,} chunks in {len(batches)} batches of {DOCS_PER_BATCH} documents (built in "
          f"{time.perf_counter() - t0:.1f}s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="strata-sink-") as tmp:
        work = Path(tmp)
        sink = run_sink(batches, work / "index", args.batch_rows)
        chunks = flatten_chunks(pa.concat_tables(batches), DIM)
        lance = lance_baseline(chunks, work, args.batch_rows)
        bm25 = tantivy_baseline(chunks, work)
    parts = sink["parts"]
    rate = lambda s: n / s if s else float("inf")  # noqa: E731
    result = {
        "bench": "sink", "chunks": n, "commits": sink["commits"], "batch_rows": args.batch_rows,
        "writer_chunks_per_s": round(rate(sink["seconds"])),
        "writer_seconds_by_part": {k: round(v, 2) for k, v in parts.items()},
        "writer_lance_chunks_per_s": round(rate(parts.get("lance", 0))),
        "writer_bm25_chunks_per_s": round(rate(parts.get("bm25", 0))),
        "baseline_lance_4096_commits_chunks_per_s": round(rate(lance["lance_4096_commits"])),
        "baseline_lance_one_call_chunks_per_s": round(rate(lance["lance_one_call"])),
        "baseline_tantivy_2_threads_chunks_per_s": round(rate(bm25)),
        "gpus_fed_at_20k_chunks_per_s": round(rate(sink["seconds"]) / GPU_CHUNKS_PER_S, 2),
        "cpus": os.cpu_count(),
    }
    result["ratio_lance_vs_baseline"] = round(result["writer_lance_chunks_per_s"]
                                              / result["baseline_lance_4096_commits_chunks_per_s"], 3)
    result["ratio_bm25_vs_baseline"] = round(result["writer_bm25_chunks_per_s"]
                                             / result["baseline_tantivy_2_threads_chunks_per_s"], 3)
    print(f"\nsingle writer: {result['writer_chunks_per_s']:,} chunks/s over {n:,} chunks "
          f"({sink['commits']} commits) = {result['gpus_fed_at_20k_chunks_per_s']} H100s at 20k chunks/s")
    print("  time by part (s): " + ", ".join(f"{k} {v:.2f}" for k, v in parts.items()))
    print(f"  LanceDB (chunks + sections): {result['writer_lance_chunks_per_s']:,} chunks/s; baseline table.add "
          f"in {args.batch_rows}-row commits {result['baseline_lance_4096_commits_chunks_per_s']:,}, one call "
          f"{result['baseline_lance_one_call_chunks_per_s']:,} (ratio {result['ratio_lance_vs_baseline']})")
    print(f"  tantivy (add + commit): {result['writer_bm25_chunks_per_s']:,} chunks/s; baseline 2 threads, one commit "
          f"{result['baseline_tantivy_2_threads_chunks_per_s']:,} (ratio {result['ratio_bm25_vs_baseline']})")
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        with RESULTS.open("a") as fh:
            fh.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
