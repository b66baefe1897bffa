"""Tenants: one shared set of tables with a ``tenant`` column, or an index (tables + tantivy) per tenant?

    .venv/bin/python bench/tenant_bench.py                          # 100k shared rows, 100 + 1000 small tenants
    .venv/bin/python bench/tenant_bench.py --rows 20000 --many 50 --no-record   # a quick look

Three measurements, side by side in one process on the same rows:

1. **A small tenant inside a big shared index vs its own index** (dense). ``--rows`` chunk vectors
   (384-d, clustered: 300 topics, each tenant writes about 5 of them) belong to ``--rows / 1000``
   tenants; the small tenant has ``--small`` rows. The shared ``chunks`` table carries a ``tenant``
   column with a BITMAP scalar index and Strata's IVF_PQ index (sub-vectors derived as
   :meth:`cluster.store.lance_store.LanceStore.maintain` does; partitions per ``--partitions``: 0 derives
   them from the rows, 244 is what Strata derives for ~1M rows, so ``nprobes`` 20 probes the share of
   the index it would probe at that size); the small tenant's own table has only
   its rows and stays flat (below ``index.ivf_min_rows``), i.e. exact. Queries: half near the small
   tenant's topics ("on topic"), half near topics it does not have ("off topic": its true
   neighbours are far away, the probed partitions hold other tenants' rows). Per query: latency and
   recall@10 against the exact top-10 of the tenant's own rows, for the shared table with
   ``where tenant = 't'`` as a prefilter at Strata's ``nprobes`` (20, min = max, as ``vector_search``
   calls it), with ``maximum_nprobes = 0`` (LanceDB probes further while the filter leaves fewer than
   k), and with the vector index bypassed (exact, a filtered flat scan); and for the tenant's own table.
   Also a filtered scan (the tenant's documents listing).
2. **BM25**: real text (SciFact abstracts cut into ~100-word chunks, repeated to ``--rows``) in one
   tantivy index with a raw ``tenant`` field as a mandatory term filter, vs the small tenant's own
   index; 3-word queries drawn from the small tenant's chunks.
3. **Per-tenant overhead of separate indexes**: ``--many`` tenants (e.g. 100, 1000) each get a real
   Strata index directory (:class:`~cluster.store.lance_store.LanceStore` tables + a
   :class:`~cluster.store.bm25.Bm25Index`, 20 chunks each), then all of them are opened in this
   process as a query replica would (``IndexView``'s stores): time to create and open one, files on
   disk, open file descriptors and resident memory per open tenant, and a query's latency on an
   already open tenant vs one opened cold.

Results are appended to ``bench/results/tenants.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DATA = REPO.parent / "shared" / "data" / "scifact" / "corpus.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "tenants.jsonl"
DIM = 384
TOPICS = 300
K = 10


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


def texts(n: int, rng: random.Random) -> list[str]:
    """``n`` ~100-word chunks of SciFact abstracts (repeated as needed)."""
    chunks = []
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        for line in fh:
            words = json.loads(line)["text"].split()
            chunks += [" ".join(words[i:i + 100]) for i in range(0, len(words), 100) if words[i:i + 100]]
    rng.shuffle(chunks)
    return [chunks[i % len(chunks)] for i in range(n)]


# -- 1. dense: shared table + prefilter vs own table -----------------------------------------------------
def dense(args, root: Path, rng: np.random.Generator) -> dict:
    import lancedb
    from lancedb.index import Bitmap

    from cluster.config import IndexConfig
    from cluster.store.lance_store import derive_num_partitions, ivf_pq_config

    centers = unit(rng.standard_normal((TOPICS, DIM)))
    n_tenants = max(2, args.rows // 1000)
    tenant_topics = [rng.choice(TOPICS, 5, replace=False) for _ in range(n_tenants)]
    small_topics = tenant_topics[0]
    others = np.setdiff1d(np.arange(TOPICS), small_topics)

    def rows_for(topics, n):
        picks = rng.choice(topics, n)
        return unit(centers[picks] + args.noise * rng.standard_normal((n, DIM)) / np.sqrt(DIM) * 4)

    small = rows_for(small_topics, args.small)
    big_n = args.rows - args.small
    owners = rng.integers(1, n_tenants, big_n)
    big = np.empty((big_n, DIM), np.float32)
    for t in range(1, n_tenants):
        mask = owners == t
        big[mask] = rows_for(tenant_topics[t], int(mask.sum()))
    tenant_col = ["t0"] * args.small + [f"t{t}" for t in owners]
    vectors = np.concatenate([small, big])
    ids = [f"c{i}" for i in range(len(vectors))]
    schema = pa.schema([pa.field("chunk_id", pa.string()), pa.field("tenant", pa.string()),
                        pa.field("vector", pa.list_(pa.float32(), DIM))])

    def table_of(idx, vecs, tenants):
        return pa.table({"chunk_id": idx, "tenant": tenants,
                         "vector": pa.FixedSizeListArray.from_arrays(pa.array(vecs.reshape(-1)), DIM)}, schema=schema)

    db = lancedb.connect(str(root / "dense"))
    t0 = time.perf_counter()
    shared = db.create_table("chunks", table_of(ids, vectors, tenant_col))
    shared.create_index("tenant", config=Bitmap())
    build_s = time.perf_counter() - t0
    own = db.create_table("chunks_t0", table_of(ids[:args.small], small, ["t0"] * args.small))

    on = unit(centers[rng.choice(small_topics, args.queries // 2)]
              + args.noise * rng.standard_normal((args.queries // 2, DIM)) / np.sqrt(DIM) * 4)
    off = unit(centers[rng.choice(others, args.queries - len(on))]
               + args.noise * rng.standard_normal((args.queries - len(on), DIM)) / np.sqrt(DIM) * 4)
    small_ids = np.asarray(ids[:args.small])

    def truth(q):
        return set(small_ids[np.argsort(-(small @ q))[:K]])

    where = "tenant = 't0'"
    out = {"rows": len(vectors), "tenants": n_tenants, "small_rows": args.small, "runs": []}
    for wanted in args.partitions:
        partitions = wanted or derive_num_partitions(len(vectors))
        t0 = time.perf_counter()
        shared.create_index("vector", config=ivf_pq_config(len(vectors), DIM, IndexConfig(num_partitions=partitions)),
                            name="vector_idx", replace=True)
        run = {"ivf_partitions": partitions, "note": "derived from the rows" if not wanted else
               f"as derive_num_partitions gives ~{partitions * 4096:,} rows",
               "ivf_build_s": round(time.perf_counter() - t0, 1), "queries": {}}
        run["queries"] = _dense_queries(shared, own, on, off, truth, where)
        out["runs"].append(run)
        print(json.dumps(run), flush=True)
    out["scan_ms"] = _scans(shared, own, where)
    out["tenant_index_build_s"] = round(build_s, 1)
    return out


def _dense_queries(shared, own, on, off, truth, where) -> dict:
    variants = {
        "shared, prefilter, nprobes 20 (Strata's vector_search)":
            lambda q: shared.search(q, vector_column_name="vector").distance_type("cosine").nprobes(20)
            .refine_factor(10).where(where, prefilter=True),
        "shared, prefilter, nprobes 20..all (maximum_nprobes=0)":
            lambda q: shared.search(q, vector_column_name="vector").distance_type("cosine").minimum_nprobes(20)
            .maximum_nprobes(0).refine_factor(10).where(where, prefilter=True),
        "shared, prefilter, exact (index bypassed)":
            lambda q: shared.search(q, vector_column_name="vector").distance_type("cosine").bypass_vector_index()
            .where(where, prefilter=True),
        "own table (flat, exact)":
            lambda q: own.search(q, vector_column_name="vector").distance_type("cosine"),
    }
    out = {}
    for name, make in variants.items():
        for q in on[:2]:
            make(q).limit(K).to_arrow()  # warm
        per = {}
        for kind, queries in (("on_topic", on), ("off_topic", off)):
            lat, rec, short = [], [], 0
            for q in queries:
                t = time.perf_counter()
                got = make(q).select(["chunk_id", "tenant", "_distance"]).limit(K).to_arrow()
                lat.append((time.perf_counter() - t) * 1000)
                assert set(got.column("tenant").to_pylist()) <= {"t0"}, "the prefilter let another tenant through"
                found = set(got.column("chunk_id").to_pylist())
                short += len(found) < K
                rec.append(len(found & truth(q)) / K)
            per[kind] = {"p50_ms": round(pct(lat, 50), 2), "p95_ms": round(pct(lat, 95), 2),
                         "recall@10": round(float(np.mean(rec)), 3), "fewer_than_10": short}
        out[name] = per
    return out


def _scans(shared, own, where) -> dict:
    """A filtered scan: the small tenant's rows (documents listing / navigation)."""
    scans = {"shared, where tenant = 't0' (BITMAP)": lambda: shared.to_lance().to_table(columns=["chunk_id"], filter=where),
             "own table, full scan": lambda: own.to_lance().to_table(columns=["chunk_id"])}
    out = {}
    for name, fn in scans.items():
        fn()
        lat = []
        for _ in range(20):
            t = time.perf_counter()
            fn()
            lat.append((time.perf_counter() - t) * 1000)
        out[name] = round(pct(lat, 50), 2)
    return out


# -- 2. BM25: shared tantivy + tenant term filter vs own index -------------------------------------------
def bm25(args, root: Path, rng: random.Random) -> dict:
    import tantivy

    from cluster.store.bm25 import safe_query_text

    corpus = texts(args.rows, rng)
    n_tenants = max(2, args.rows // 1000)
    owner = ["t0" if i < args.small else f"t{rng.randrange(1, n_tenants)}" for i in range(len(corpus))]

    def schema(with_tenant: bool):
        sb = tantivy.SchemaBuilder()
        sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
        if with_tenant:
            sb.add_text_field("tenant", stored=False, tokenizer_name="raw")
        sb.add_text_field("text", stored=False, tokenizer_name="en_stem")
        return sb.build()

    def build(path: Path, with_tenant: bool, rows):
        path.mkdir(parents=True)
        s = schema(with_tenant)
        index = tantivy.Index(s, path=str(path))
        writer = index.writer(heap_size=256_000_000, num_threads=1)
        for i, text, tenant in rows:
            fields = {"chunk_id": f"c{i}", "text": text}
            if with_tenant:
                fields["tenant"] = tenant
            writer.add_document(tantivy.Document(**fields))
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        return s, index

    t0 = time.perf_counter()
    s_shared, shared = build(root / "bm25-shared", True, [(i, t, o) for i, (t, o) in enumerate(zip(corpus, owner))])
    build_s = time.perf_counter() - t0
    s_own, own = build(root / "bm25-own", False, [(i, corpus[i], "t0") for i in range(args.small)])
    queries = []
    for _ in range(args.queries):
        words = [w for w in safe_query_text(corpus[rng.randrange(args.small)]).split() if len(w) > 3]
        queries.append(" ".join(rng.sample(words, min(3, len(words)))))

    def shared_search(text):
        query = tantivy.Query.boolean_query([
            (tantivy.Occur.Must, shared.parse_query(text, ["text"])),
            (tantivy.Occur.Must, tantivy.Query.term_query(s_shared, "tenant", "t0"))])
        searcher = shared.searcher()
        return [searcher.doc(a)["chunk_id"][0] for _, a in searcher.search(query, K).hits]

    def own_search(text):
        searcher = own.searcher()
        return [searcher.doc(a)["chunk_id"][0] for _, a in searcher.search(own.parse_query(text, ["text"]), K).hits]

    out = {"rows": len(corpus), "small_rows": args.small, "build_s": round(build_s, 1), "queries": {}}
    same = 0
    for q in queries:
        same += set(shared_search(q)) == set(own_search(q))
    for name, fn in (("shared, tenant term filter", shared_search), ("own index", own_search)):
        for q in queries[:3]:
            fn(q)
        lat, hits = [], 0
        for q in queries:
            t = time.perf_counter()
            got = fn(q)
            lat.append((time.perf_counter() - t) * 1000)
            hits += len(got)
            assert all(int(c[1:]) < args.small for c in got), "the tenant filter let another tenant through"
        out["queries"][name] = {"p50_ms": round(pct(lat, 50), 3), "p95_ms": round(pct(lat, 95), 3),
                                "mean_hits": round(hits / len(queries), 1)}
    # BM25 statistics (document frequencies) are index-wide: in the shared index other tenants' text
    # changes a tenant's scores, so the top-10 differ from its own index's
    out["same_top10_share"] = round(same / len(queries), 3)
    return out


# -- 3. per-tenant overhead of an index per tenant ------------------------------------------------------
def many(args, root: Path, n: int, rng: np.random.Generator) -> dict:
    from cluster.config import StorageConfig
    from cluster.store.bm25 import Bm25Index
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS, chunks_schema

    base = root / f"many-{n}"
    rows_per = 20
    schema = chunks_schema(DIM)
    t0 = time.perf_counter()
    for t in range(n):
        storage = StorageConfig(data_dir=base / f"t{t}")
        store = LanceStore.open(storage, dim=DIM, create=True)
        vecs = unit(rng.standard_normal((rows_per, DIM)))
        cols = {f.name: pa.nulls(rows_per, f.type) for f in schema}
        cols["chunk_id"] = pa.array([f"t{t}-c{i}" for i in range(rows_per)])
        cols["doc_id"] = pa.array([f"t{t}-d{i // 5}" for i in range(rows_per)])
        cols["text"] = pa.array([f"tenant {t} passage {i} about topic{i % 7}" for i in range(rows_per)])
        cols["vector"] = pa.FixedSizeListArray.from_arrays(pa.array(vecs.reshape(-1)), DIM)
        store.add(CHUNKS, pa.table(cols, schema=schema))
        bm = Bm25Index(storage.bm25_path, create=True)
        bm.open_writer(heap_bytes=15_000_000)
        bm.add_chunks([{"chunk_id": f"t{t}-c{i}", "doc_id": f"t{t}-d{i // 5}", "title": "", "section_path": "",
                        "section_facet": f"/t{t}-d{i // 5}", "text": f"tenant {t} passage {i} about topic{i % 7}"}
                       for i in range(rows_per)])
        bm.commit()
        bm.close_writer()
    create_s = time.perf_counter() - t0
    files = sum(1 for p in base.rglob("*") if p.is_file())
    disk = sum(p.stat().st_size for p in base.rglob("*") if p.is_file())

    def open_one(t):
        storage = StorageConfig(data_dir=base / f"t{t}")
        return LanceStore.open(storage, dim=DIM), Bm25Index(storage.bm25_path)

    def query(opened):
        store, bm = opened
        q = unit(rng.standard_normal(DIM))
        store.table(CHUNKS).search(q, vector_column_name="vector").distance_type("cosine").limit(K).to_arrow()
        bm.search("passage topic3", k=K)

    rss0, fds0 = rss_mb(), open_fds()
    t0 = time.perf_counter()
    opened = [open_one(t) for t in range(n)]
    open_s = time.perf_counter() - t0
    for o in opened:  # a query on each: what a replica that served every tenant once holds
        query(o)
    rss1, fds1 = rss_mb(), open_fds()
    warm, cold = [], []
    for _ in range(30):
        t = rng.integers(n)
        s = time.perf_counter()
        query(opened[t])
        warm.append((time.perf_counter() - s) * 1000)
        s = time.perf_counter()
        query(open_one(t))
        cold.append((time.perf_counter() - s) * 1000)
    del opened
    shutil.rmtree(base, ignore_errors=True)
    return {"tenants": n, "create_ms_per_tenant": round(create_s / n * 1000, 1), "files_per_tenant": round(files / n, 1),
            "disk_kb_per_tenant": round(disk / n / 1024, 1), "open_ms_per_tenant": round(open_s / n * 1000, 2),
            "rss_mb_per_open_tenant": round((rss1 - rss0) / n, 3), "fds_per_open_tenant": round((fds1 - fds0) / n, 2),
            "rss_mb_all_open": round(rss1 - rss0, 1),
            "query_ms_warm_p50": round(pct(warm, 50), 2), "query_ms_cold_open_p50": round(pct(cold, 50), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the shared index (all tenants)")
    parser.add_argument("--small", type=int, default=200, help="rows of the small tenant")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--noise", type=float, default=0.35, help="spread of a topic's vectors")
    parser.add_argument("--partitions", default="0,244", type=lambda v: [int(x) for x in v.split(",") if x],
                        help="IVF partition counts of the shared index (0: derived from its rows as Strata does; "
                             "244: what Strata derives for ~1M rows, so nprobes 20 probes 8%% of it)")
    parser.add_argument("--many", default="100,1000", help="tenant counts for the overhead measurement")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: dense, bm25")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="strata-tenant-bench-"))
    result = {"bench": "tenants", "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpus": os.cpu_count(),
              "args": vars(args)}
    try:
        if "dense" not in args.skip:
            result["dense"] = dense(args, root, np.random.default_rng(args.seed))
            print(json.dumps({"dense": result["dense"]}, indent=1), flush=True)
        if "bm25" not in args.skip:
            result["bm25"] = bm25(args, root, random.Random(args.seed))
            print(json.dumps({"bm25": result["bm25"]}, indent=1), flush=True)
        result["many"] = []
        for n in [int(x) for x in args.many.split(",") if x]:
            result["many"].append(many(args, root, n, np.random.default_rng(args.seed)))
            print(json.dumps(result["many"][-1]), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a") as fh:
            fh.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
