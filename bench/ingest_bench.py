"""Ingest benchmarks, each printing figures measured side by side in one run.

    python bench/ingest_bench.py throughput --tokens 1000000
        end-to-end ingest tokens/s ÷ the same embedder (fastembed) called directly in one process
        on the same chunks in document order (goal ≥ 0.85); also ÷ an offline upper bound that
        sorts the whole corpus by length first
    python bench/ingest_bench.py memory --small 1000000 --large 10000000
        peak RSS (driver + all Ray processes) ingesting ≈10M tokens ÷ ≈1M tokens (goal ≤ 1.3),
        then IVF_PQ recall@10 against exact search on the large index (goal ≥ 0.95)
    python bench/ingest_bench.py recall --data-dir DIR

Corpora are real Debian documentation (bench/corpora.py). Results are appended as JSON lines
to bench/results/ingest.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import corpora  # noqa: E402

RESULTS = REPO / "bench" / "results" / "ingest.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path(tempfile.gettempdir()) / "strata-bench"))


def corpus(tokens: int) -> Path:
    out = WORK / f"corpus-{tokens}"
    if not out.exists():
        files, estimate = corpora.select(corpora.fetch(WORK / "debian"), tokens, out)
        print(f"corpus {out}: {files} files, ~{estimate:,} tokens")
    return out


def record(result: dict) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    result["cpus"] = os.cpu_count()
    with open(RESULTS, "a") as fh:
        fh.write(json.dumps(result) + "\n")
    print(json.dumps(result, indent=2))


# -- throughput ---------------------------------------------------------------------------------
def throughput(tokens: int) -> None:
    import ray

    from cluster.config import load_config
    from cluster.models.embedder import Embedder
    from cluster.models.registry import resolve_embedder
    from pipelines.chunk import ChunkingConfig
    from pipelines.ingest import run_ingest
    from pipelines.sources.files import SourceFile, discover
    from pipelines.stages.parse_chunk import _tokenizer, process_file

    src = corpus(tokens)
    cfg = load_config(storage={"data_dir": str(WORK / f"tp-{tokens}-{os.getpid()}")}, ingest={"progress": False})
    # 1) the embedder alone, one process, on exactly the chunks the pipeline will write
    tokenizer = _tokenizer(cfg.models.model_dump_json())
    chunking = ChunkingConfig(chunk_tokens=cfg.chunking.chunk_tokens, overlap_tokens=cfg.chunking.overlap_tokens,
                              header_tokens=cfg.chunking.header_tokens)
    texts, chunk_tokens = [], 0
    for entry in discover(src, include=cfg.ingest.include, exclude=cfg.ingest.exclude,
                          max_bytes=cfg.ingest.max_file_bytes, source="bench"):
        if isinstance(entry, SourceFile):
            row = process_file({"doc_id": entry.doc_id, "source": "bench", "path": entry.path, "relpath": entry.relpath,
                                "size": entry.size, "mtime_ns": entry.mtime_ns, "known_hash": ""},
                               tokenizer=tokenizer, config=chunking, max_file_bytes=cfg.ingest.max_file_bytes)
            texts += [c["embed_text"] for c in row["chunks"]]
            chunk_tokens += sum(c["n_tokens"] for c in row["chunks"])
    embedder = Embedder.load(resolve_embedder(cfg.models), cfg.embedder)
    # (a) fastembed called directly, chunks in document order, its own batching
    started = time.perf_counter()
    list(embedder._model.embed(texts, batch_size=cfg.embedder.batch_size))
    direct_s = time.perf_counter() - started
    # (b) Strata's Embedder.embed over the whole corpus at once (global length sort: an offline upper bound)
    started = time.perf_counter()
    embedder.embed(texts)
    sorted_s = time.perf_counter() - started
    del embedder
    # 2) the whole pipeline (Ray already up, so cluster start-up is not counted)
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    report = run_ingest(cfg, src, source="bench")
    ray.shutdown()
    assert report.chunks == len(texts), (report.chunks, len(texts))
    direct_tps = chunk_tokens / direct_s
    sorted_tps = chunk_tokens / sorted_s
    pipeline_tps = report.tokens / report.elapsed_s
    record({"bench": "ingest_throughput", "corpus_tokens": report.tokens, "chunks": report.chunks,
            "sections": report.sections, "direct_embed_s": round(direct_s, 1), "pipeline_s": round(report.elapsed_s, 1),
            "direct_tokens_per_s": round(direct_tps), "pipeline_tokens_per_s": round(pipeline_tps),
            "ratio_pipeline_over_direct": round(pipeline_tps / direct_tps, 3), "goal": ">= 0.85",
            "globally_sorted_embed_s": round(sorted_s, 1), "globally_sorted_tokens_per_s": round(sorted_tps),
            "ratio_pipeline_over_globally_sorted": round(pipeline_tps / sorted_tps, 3)})


# -- memory -------------------------------------------------------------------------------------
def _tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def peak_rss_ingest(src: Path, data_dir: Path) -> tuple[int, dict]:
    env = {**os.environ, "STRATA_STORAGE__DATA_DIR": str(data_dir), "STRATA_INGEST__PROGRESS": "false"}
    env.pop("RAY_ADDRESS", None)
    report_file = data_dir.with_suffix(".report.json")
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "ingest", str(src), "--source", "bench",
                             "--report", str(report_file)], env=env, cwd=REPO)
    ps = psutil.Process(proc.pid)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss(ps))
        time.sleep(0.5)
    if proc.returncode != 0:
        raise SystemExit(f"ingest failed with {proc.returncode}")
    return peak, json.loads(report_file.read_text())


def memory(small: int, large: int) -> None:
    results = {}
    for label, tokens in (("small", small), ("large", large)):
        data_dir = WORK / f"mem-{tokens}-{os.getpid()}"
        peak, report = peak_rss_ingest(corpus(tokens), data_dir)
        results[label] = {"tokens": report["tokens"], "chunks": report["chunks"], "peak_rss_mb": round(peak / 2**20),
                          "elapsed_s": round(report["elapsed_s"], 1), "tokens_per_s": round(report["tokens_per_s"]),
                          "data_dir": str(data_dir)}
    record({"bench": "ingest_peak_rss", **results,
            "ratio_large_over_small": round(results["large"]["peak_rss_mb"] / results["small"]["peak_rss_mb"], 3),
            "goal": "<= 1.3"})
    recall(Path(results["large"]["data_dir"]))
    rows = results["large"]["chunks"]
    recall(Path(results["large"]["data_dir"]), num_partitions=max(2, int(rows ** 0.5)))


# -- recall ---------------------------------------------------------------------------------------
def recall(data_dir: Path, queries: int = 200, num_partitions: int | None = None) -> None:
    """Recall@10 of the index at the default query settings; with ``num_partitions`` the index is
    rebuilt on a copy with that many partitions (to see a 100M-token corpus's partition density)."""
    import shutil

    from cluster.config import load_config
    from cluster.store.lance_store import LanceStore, derive_num_partitions
    from cluster.store.schema import CHUNKS, SECTIONS

    if num_partitions:
        copy = WORK / f"recall-{num_partitions}-{os.getpid()}"
        shutil.copytree(data_dir, copy)
        data_dir = copy
    cfg = load_config(storage={"data_dir": str(data_dir)})
    store = LanceStore.open(cfg.storage, dim=384)
    if num_partitions:
        cfg.index.num_partitions = num_partitions
        store._build_ivf_pq(store.table(CHUNKS).count_rows(), cfg.index)
    if not store.has_vector_index(CHUNKS):
        raise SystemExit(f"no IVF_PQ index on {data_dir} (fewer than index.ivf_min_rows chunks)")
    sections = store.scan(SECTIONS, ["vector"]).column("vector").to_numpy(zero_copy_only=False)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(sections), size=min(queries, len(sections)), replace=False)
    table = store.table(CHUNKS)
    hits, ann_ms, exact_ms = 0, [], []
    for i in picks:
        q = np.asarray(sections[i], dtype=np.float32)
        t = time.perf_counter()
        ann = store.vector_search(CHUNKS, q, k=10, index=cfg.index, columns=["chunk_id"]).column("chunk_id").to_pylist()
        ann_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        exact = (table.search(q).distance_type("cosine").bypass_vector_index().select(["chunk_id", "_distance"])
                 .limit(10).to_arrow().column("chunk_id").to_pylist())
        exact_ms.append((time.perf_counter() - t) * 1000)
        hits += len(set(ann) & set(exact))
    partitions = cfg.index.num_partitions or derive_num_partitions(table.count_rows())
    record({"bench": "ivf_pq_recall_at_10", "data_dir": str(data_dir), "rows": table.count_rows(),
            "num_partitions": partitions,
            "queries": len(picks), "nprobes": cfg.index.nprobes, "refine_factor": cfg.index.refine_factor,
            "recall_at_10": round(hits / (10 * len(picks)), 4), "ann_p50_ms": round(float(np.median(ann_ms)), 2),
            "exact_p50_ms": round(float(np.median(exact_ms)), 2), "goal": ">= 0.95"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("throughput")
    p.add_argument("--tokens", type=int, default=1_000_000)
    p = sub.add_parser("memory")
    p.add_argument("--small", type=int, default=1_000_000)
    p.add_argument("--large", type=int, default=10_000_000)
    p = sub.add_parser("recall")
    p.add_argument("--data-dir", type=Path, required=True)
    p.add_argument("--num-partitions", type=int, default=None, help="rebuild a copy with this many partitions")
    args = parser.parse_args()
    if args.cmd == "throughput":
        throughput(args.tokens)
    elif args.cmd == "memory":
        memory(args.small, args.large)
    else:
        recall(args.data_dir, num_partitions=args.num_partitions)


if __name__ == "__main__":
    main()
