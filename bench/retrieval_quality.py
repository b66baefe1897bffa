"""Retrieval quality on BEIR SciFact (held-out part of the train split): nDCG@10, recall@10/100, MRR@10.

    .venv/bin/python bench/retrieval_quality.py                  # prepare, ingest (if needed), evaluate
    .venv/bin/python bench/retrieval_quality.py --ingest-only    # build the index and stop
    .venv/bin/python bench/retrieval_quality.py --configs bm25,vector,hybrid-rrf
    .venv/bin/python bench/retrieval_quality.py --queries train --bm25-weights 0.3,0.5,0.7
        tune on the training queries (fusion weight sweep), never on the held-out ones

1. The corpus (``../shared/data/scifact``, 5,183 abstracts) is written as one Markdown file per
   abstract (``# <title>\\n\\n<text>``) under ``<work>/corpus`` (default work dir
   ``~/.cache/strata-bench/scifact``, or ``$STRATA_BENCH_DIR/scifact``).
2. It is ingested with Strata's normal pipeline (embedded Ray) into ``storage.data_dir = <work>``;
   ingest is idempotent, so a built index is reused (unchanged files are not even read).
3. The held-out queries are the pinned ids in ``bench/data/scifact-heldout.txt`` (20% of the train
   queries by ``sha1`` of the id — :func:`serving.eval.beir.split_queries`; never tuned on; the
   other 80% are for training learned components such as a reranker).
4. Each configuration runs every held-out query through the in-process ``SearchPipeline``
   (``top_k=200``, ``candidates=200``, no cache); chunk hits become a document ranking by their
   first (best) occurrence, i.e. a document scores as its best chunk.

Figures print as a table; one JSON line per configuration is appended to
``bench/results/retrieval.jsonl`` (date, git commit, configuration, counts, metrics).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from serving.eval.beir import (  # noqa: E402
    BeirDataset, load_beir, read_id_list, split_queries, write_corpus_files, write_id_list,
)
from serving.eval.metrics import collapse_to_documents, evaluate, paired_randomization_p, per_query  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "scifact"
HELDOUT = REPO / "bench" / "data" / "scifact-heldout.txt"
RESULTS = REPO / "bench" / "results" / "retrieval.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench")) / "scifact"
SOURCE = "scifact"
SPLIT_SEED = "strata-heldout-v1"
HELD_OUT_FRACTION = 0.2
KS = (10, 100)
COLUMNS = ("ndcg@10", "recall@10", "recall@100", "mrr@10")


@dataclass(frozen=True)
class BenchConfig:
    """One evaluated configuration: a name and the ``SearchRequest`` fields it sets."""

    name: str
    request: dict = field(default_factory=dict)


CONFIGS = [
    BenchConfig("bm25", {"mode": "bm25"}),
    BenchConfig("vector", {"mode": "vector"}),
    BenchConfig("hybrid-rrf", {"mode": "hybrid", "fusion": "rrf"}),
    BenchConfig("hybrid-linear", {"mode": "hybrid", "fusion": "linear"}),
    BenchConfig("hybrid-rrf+multi_query", {"mode": "hybrid", "fusion": "rrf", "multi_query": True}),
    BenchConfig("hybrid-rrf+hyde", {"mode": "hybrid", "fusion": "rrf", "hyde": True}),
]
RERANK = BenchConfig("hybrid-rrf+rerank", {"mode": "hybrid", "fusion": "rrf", "rerank": True})
BASE_REQUEST = {"top_k": 200, "candidates": 200, "multi_query": False, "hyde": False, "use_cache": False}


# -- data ---------------------------------------------------------------------------------------
def pinned_heldout(ds: BeirDataset, path: Path = HELDOUT) -> list[str]:
    """The held-out query ids: read from ``path``; written there on first use (then commit it).
    If the file exists it wins, and a disagreement with the computed split is reported."""
    _, computed = split_queries(ds.qrels, HELD_OUT_FRACTION, seed=SPLIT_SEED)
    if path.is_file():
        pinned = read_id_list(path)
        if pinned != computed:
            print(f"warning: {path} differs from split_queries(seed={SPLIT_SEED!r}); using the file", file=sys.stderr)
        return pinned
    write_id_list(computed, path, header=(
        f"SciFact (BEIR) train-split queries held out for evaluation only: {len(computed)} of {len(ds.qrels)}.\n"
        f"serving.eval.beir.split_queries(qrels ids, {HELD_OUT_FRACTION}, seed={SPLIT_SEED!r}); never train on these."))
    print(f"wrote {len(computed)} held-out query ids to {path}")
    return computed


def make_config(work: Path):
    from cluster.config import load_config

    return load_config(storage={"data_dir": str(work)}, ingest={"progress": False})


def prepare(ds: BeirDataset, work: Path) -> dict[str, str]:
    """Write the corpus files (idempotent); ``{relative path: corpus id}``."""
    started = time.perf_counter()
    mapping = write_corpus_files(ds.corpus, work / "corpus")
    print(f"corpus: {len(mapping)} files in {work / 'corpus'} ({time.perf_counter() - started:.1f}s)")
    return mapping


def ingest(cfg, work: Path) -> dict:
    """Ingest ``<work>/corpus`` (embedded Ray unless RAY_ADDRESS is set); a summary dict."""
    import ray

    from pipelines.ingest import run_ingest

    started_ray = not ray.is_initialized()
    try:
        report = run_ingest(cfg, work / "corpus", source=SOURCE)
    finally:
        if started_ray and ray.is_initialized():
            ray.shutdown()
    print(report.summary(max_failures=10))
    return {"new": report.new, "updated": report.updated, "unchanged": report.unchanged,
            "failed": len(report.failed), "chunks_written": report.chunks, "elapsed_s": round(report.elapsed_s, 1),
            "totals": report.totals}


# -- evaluation ---------------------------------------------------------------------------------
def document_run(pipe, queries: dict[str, str], request: dict, path_to_id: dict[str, str]) -> tuple[dict, dict]:
    """Run every query; ``({qid: ranked corpus ids}, counters)``."""
    from serving.api.protocol import SearchRequest

    run: dict[str, list[str]] = {}
    unmapped = hits_total = multi_target = 0
    latencies: list[float] = []
    for qid, text in queries.items():
        t0 = time.perf_counter()
        resp = pipe.search(SearchRequest(query=text, **{**BASE_REQUEST, **request}))
        latencies.append(time.perf_counter() - t0)
        multi_target += len(resp.route.targets) > 1
        ids = []
        for hit in resp.hits:
            hits_total += 1
            corpus_id = path_to_id.get(hit.path)
            if corpus_id is None:
                unmapped += 1
                continue
            ids.append(corpus_id)
        run[qid] = collapse_to_documents(ids)
    latencies.sort()
    counters = {"hits": hits_total, "unmapped_hits": unmapped, "multi_target_queries": multi_target,
                "mean_docs_per_query": round(sum(len(r) for r in run.values()) / max(len(run), 1), 1),
                "ms_p50": round(1000 * latencies[len(latencies) // 2], 1) if latencies else None,
                "ms_mean": round(1000 * sum(latencies) / len(latencies), 1) if latencies else None}
    return run, counters


def git_commit() -> str | None:
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        return sha + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def print_table(rows: list[tuple[str, dict[str, float]]], n_queries: int, query_set: str) -> None:
    width = max(len(name) for name, _ in rows)
    label = "held-out" if query_set == "heldout" else "training (tuning only)"
    print(f"\nSciFact train split, {n_queries} {label} queries (document = best chunk)")
    print(f"{'configuration':<{width}}  " + "  ".join(f"{c:>10}" for c in COLUMNS))
    for name, scores in rows:
        print(f"{name:<{width}}  " + "  ".join(f"{scores[c]:>10.4f}" for c in COLUMNS))


def print_significance(ndcg: dict[str, dict[str, float]], records: list[dict]) -> None:
    """nDCG@10 of each fused configuration against BM25 and dense alone: difference and paired
    randomization-test p-value (also stored in the records)."""
    bases = [b for b in ("bm25", "vector") if b in ndcg]
    if not bases:
        return
    print("\nnDCG@10 difference vs single retrievers (paired randomization test, 10,000 trials)")
    for rec in records:
        name = rec["config"]
        if name in bases:
            continue
        parts, sig = [], {}
        for base in bases:
            diff = sum(ndcg[name].values()) / len(ndcg[name]) - sum(ndcg[base].values()) / len(ndcg[base])
            p = paired_randomization_p(ndcg[name], ndcg[base])
            sig[base] = {"ndcg@10_diff": round(diff, 4), "p": round(p, 4)}
            parts.append(f"vs {base} {diff:+.4f} (p={p:.3f})")
        rec["significance"] = sig
        print(f"  {name}: " + ", ".join(parts))


def wait_for_pipeline(timeout_s: float, poll_s: float = 120.0):
    """Import ``serving.pipeline.SearchPipeline``, retrying while it does not exist / import yet."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            from serving.pipeline import SearchPipeline

            return SearchPipeline
        except Exception as exc:  # the module may be mid-edit
            if time.monotonic() >= deadline:
                raise
            print(f"serving.pipeline not importable yet ({type(exc).__name__}: {exc}); retrying in {poll_s:.0f}s")
            for name in [m for m in sys.modules if m == "serving.pipeline" or m.startswith("serving.pipeline.")]:
                del sys.modules[name]
            time.sleep(poll_s)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="BEIR SciFact directory")
    ap.add_argument("--work", type=Path, default=WORK, help="corpus files + index (storage.data_dir)")
    ap.add_argument("--configs", default="", help="comma-separated subset of: " + ", ".join(c.name for c in CONFIGS))
    ap.add_argument("--queries", choices=("heldout", "train"), default="heldout",
                    help="heldout: the pinned evaluation queries; train: the rest (for tuning only)")
    ap.add_argument("--bm25-weights", default="",
                    help="comma-separated BM25 shares: adds hybrid-rrf@w and hybrid-linear@w configurations")
    ap.add_argument("--ingest-only", action="store_true", help="prepare and ingest, then stop")
    ap.add_argument("--skip-ingest", action="store_true", help="evaluate the existing index as is")
    ap.add_argument("--wait-pipeline", type=float, default=0.0, help="seconds to wait for serving.pipeline to import")
    ap.add_argument("--no-record", action="store_true", help=f"do not append to {RESULTS.relative_to(REPO)}")
    args = ap.parse_args(argv)

    ds = load_beir(args.data, split="train")
    heldout = pinned_heldout(ds)
    work = args.work.expanduser()
    cfg = make_config(work)
    path_to_id = prepare(ds, work)
    ingest_summary = None
    if not args.skip_ingest:
        ingest_summary = ingest(cfg, work)
    if args.ingest_only:
        return 0

    SearchPipeline = wait_for_pipeline(args.wait_pipeline)
    configs = list(CONFIGS) + ([RERANK] if cfg.rerank.enabled else [])
    if args.configs:
        wanted = [c.strip() for c in args.configs.split(",") if c.strip()]
        known = {c.name: c for c in configs}
        missing = [w for w in wanted if w not in known]
        if missing:
            ap.error(f"unknown configurations {missing}; known: {list(known)}")
        configs = [known[w] for w in wanted]
    for w in (float(x) for x in args.bm25_weights.split(",") if x.strip()):
        configs += [BenchConfig(f"hybrid-{f}@{w:g}", {"mode": "hybrid", "fusion": f, "bm25_weight": w})
                    for f in ("rrf", "linear")]

    if args.queries == "train":
        held = set(heldout)
        evaluated = [q for q in sorted(ds.qrels) if q not in held]
    else:
        evaluated = heldout
    queries = {qid: ds.queries[qid] for qid in evaluated}
    qrels = {qid: ds.qrels[qid] for qid in evaluated}
    pipe = SearchPipeline(cfg)
    run_id, commit, when = uuid.uuid4().hex[:12], git_commit(), time.strftime("%Y-%m-%dT%H:%M:%S")
    rows: list[tuple[str, dict[str, float]]] = []
    records: list[dict] = []
    ndcg_by_config: dict[str, dict[str, float]] = {}
    for bc in configs:
        t0 = time.perf_counter()
        run, counters = document_run(pipe, queries, bc.request, path_to_id)
        scores = evaluate(run, qrels, ks=KS)
        elapsed = time.perf_counter() - t0
        rows.append((bc.name, scores))
        ndcg_by_config[bc.name] = {q: s["ndcg@10"] for q, s in per_query(run, qrels, ks=(10,), metrics=("ndcg",)).items()}
        print(f"{bc.name}: " + ", ".join(f"{k}={v:.4f}" for k, v in scores.items()) + f"  ({elapsed:.0f}s)")
        records.append({
            "bench": "retrieval_quality", "run_id": run_id, "when": when, "commit": commit,
            "dataset": "scifact", "split": ds.split, "query_set": args.queries, "queries": len(queries), "judgments": sum(len(v) for v in qrels.values()),
            "heldout_file": str(HELDOUT.relative_to(REPO)), "corpus_docs": len(ds.corpus),
            "config": bc.name, "request": {**BASE_REQUEST, **bc.request},
            "retrieval": cfg.retrieval.model_dump(mode="json"), "embedder": cfg.models.model_dump(mode="json"),
            "document_score": "max over chunks (first occurrence)",
            "metrics": {k: round(v, 4) for k, v in scores.items()},
            "counts": counters, "elapsed_s": round(elapsed, 1), "ingest": ingest_summary, "cpus": os.cpu_count(),
            "per_query_ndcg@10": {q: round(v, 4) for q, v in ndcg_by_config[bc.name].items()},
        })
    print_table(rows, len(queries), args.queries)
    print_significance(ndcg_by_config, records)
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
        print(f"appended {len(records)} lines to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
