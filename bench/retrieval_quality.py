"""Retrieval quality on BEIR SciFact (held-out part of the train split): nDCG@10, recall@10/100, MRR@10.

A thin wrapper over ``strata eval retrieval`` (:mod:`offline.eval.retrieval_job`) with the
benchmark's fixed layout, pinned held-out queries and a results log.

    .venv/bin/python bench/retrieval_quality.py                  # prepare, ingest (if needed), evaluate
    .venv/bin/python bench/retrieval_quality.py --ingest-only    # build the index and stop
    .venv/bin/python bench/retrieval_quality.py --configs bm25,dense,hybrid-rrf --top-k-sweep ''
    .venv/bin/python bench/retrieval_quality.py --queries train --bm25-weights 0.3,0.5,0.7
        tune on the training queries (fusion weight sweep), never on the held-out ones

1. The corpus (``../shared/data/scifact``, 5,183 abstracts) is written as one Markdown file per
   abstract (``# <title>\\n\\n<text>``) under ``<work>/corpus`` (default work dir
   ``~/.cache/strata-bench/scifact``, or ``$STRATA_BENCH_DIR/scifact``).
2. It is ingested with Strata's normal pipeline (embedded Ray) into ``storage.data_dir = <work>``
   with the source label ``scifact``; ingest is idempotent, so a built index is reused (unchanged
   files are not even read).
3. The held-out queries are the pinned ids in ``bench/data/scifact-heldout.txt`` (20% of the train
   queries by ``sha1`` of the id — :func:`offline.eval.beir.split_queries`; never tuned on; the
   other 80% are for training learned components such as a reranker).
4. Each configuration (:data:`offline.eval.configs.STANDARD`: ``bm25``, ``dense``, ``hybrid-rrf``,
   ``hybrid-linear``, ``rerank`` — skipped without a trained cross-encoder —, ``awareness``,
   ``default``, ``hybrid-rrf+multi_query``, ``hybrid-rrf+hyde``) runs every query through the
   in-process ``SearchPipeline`` (``top_k=200``, ``candidates=200``, no cache); chunk hits become a
   document ranking by their first (best) occurrence, i.e. a document scores as its best chunk.
   Then the ``top_k`` (= candidates) sweep and, if asked, the BM25-share sweep.

Figures print as they come; the report (``report.json``, ``report.md``, ``report.png``) goes to
``<work>/report-<query set>`` (``--out``); one JSON line per configuration is appended to
``bench/results/retrieval.jsonl`` (date, git commit, configuration, counts, metrics, per-query
nDCG@10). Up to commit 71ee986 the dense configuration was named ``vector`` there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.beir import (  # noqa: E402
    BeirDataset,
    load_beir,
    read_id_list,
    split_queries,
    write_corpus_files,
    write_id_list,
)
from offline.eval.configs import DEFAULT_CONFIGS  # noqa: E402
from offline.eval.retrieval import RetrievalEvaluation  # noqa: E402
from offline.eval.retrieval_job import DEFAULT_TOP_K_SWEEP, RetrievalJob, ingest_corpus, run_retrieval_job  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "scifact"
HELDOUT = REPO / "bench" / "data" / "scifact-heldout.txt"
RESULTS = REPO / "bench" / "results" / "retrieval.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench")) / "scifact"
SOURCE = "scifact"
SPLIT_SEED = "strata-heldout-v1"
HELD_OUT_FRACTION = 0.2
BENCH_CONFIGS = (*DEFAULT_CONFIGS, "default+rerank", "hybrid-rrf+multi_query", "hybrid-rrf+hyde")


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
        f"offline.eval.beir.split_queries(qrels ids, {HELD_OUT_FRACTION}, seed={SPLIT_SEED!r}); never train on these."))
    print(f"wrote {len(computed)} held-out query ids to {path}")
    return computed


def make_config(work: Path):
    from cluster.config import load_config

    return load_config(storage={"data_dir": str(work)}, ingest={"progress": False})


def records(ev: RetrievalEvaluation, query_set: str, run_id: str) -> list[dict]:
    """One results-log line per evaluated configuration (main table and BM25-share sweep)."""
    ds, meta = ev.dataset, ev.meta
    rows = [(r, r.name) for r in ev.results if r.ok]
    rows += [(r, f"{r.name}@{r.params['bm25_weight']:g}") for r in ev.sweeps.get("bm25_weight", []) if r.ok]
    out = []
    for r, name in rows:
        rec = {
            "bench": "retrieval_quality", "run_id": run_id, "when": meta["when"], "commit": meta["commit"],
            "dataset": "scifact", "split": ds["split"], "query_set": query_set, "queries": ds["queries"],
            "judgments": ds["judgments"], "heldout_file": str(HELDOUT.relative_to(REPO)),
            "corpus_docs": ds["corpus_docs"], "config": name, "endpoint": r.endpoint, "request": r.request,
            "config_overrides": r.config_overrides, "retrieval": meta["retrieval"], "embedder": meta["models"],
            "document_score": meta["document_score"], "metrics": {k: round(v, 4) for k, v in r.metrics.items()},
            "counts": r.counts, "elapsed_s": r.timings.get("elapsed_s"), "timings": r.timings,
            "ingest": ds.get("ingest"), "cpus": meta["cpus"],
            "per_query_ndcg@10": {q: s["ndcg@10"] for q, s in r.per_query.items()},
        }
        if name in ev.significance:
            rec["significance"] = ev.significance[name]
        out.append(rec)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="BEIR SciFact directory")
    ap.add_argument("--work", type=Path, default=WORK, help="corpus files + index (storage.data_dir)")
    ap.add_argument("--configs", default=",".join(BENCH_CONFIGS), help="comma-separated configurations")
    ap.add_argument("--queries", choices=("heldout", "train"), default="heldout",
                    help="heldout: the pinned evaluation queries; train: the rest (for tuning only)")
    ap.add_argument("--top-k-sweep", default=",".join(map(str, DEFAULT_TOP_K_SWEEP)),
                    help="top_k (= candidates) values swept per configuration; '' for none")
    ap.add_argument("--bm25-weights", default="",
                    help="comma-separated BM25 shares swept for the hybrid configurations")
    ap.add_argument("--out", type=Path, default=None, help="report directory (default <work>/report-<query set>)")
    ap.add_argument("--ingest-only", action="store_true", help="prepare and ingest, then stop")
    ap.add_argument("--skip-ingest", action="store_true", help="evaluate the existing index as is")
    ap.add_argument("--no-record", action="store_true", help=f"do not append to {RESULTS.relative_to(REPO)}")
    args = ap.parse_args(argv)

    ds = load_beir(args.data, split="train")
    heldout = pinned_heldout(ds)
    work = args.work.expanduser()
    cfg = make_config(work)
    if args.ingest_only:
        mapping = write_corpus_files(ds.corpus, work / "corpus")
        print(f"corpus: {len(mapping)} files in {work / 'corpus'}")
        print(ingest_corpus(cfg, work / "corpus", SOURCE))
        return 0
    if args.queries == "train":
        held = set(heldout)
        evaluated = [q for q in sorted(ds.qrels) if q not in held]
    else:
        evaluated = heldout
    job = RetrievalJob(args.data, split="train", query_ids=None if args.queries == "heldout" else evaluated,
                       queries_file=HELDOUT if args.queries == "heldout" else None,
                       configs=[c for c in args.configs.split(",") if c.strip()],
                       top_k_sweep=[int(x) for x in args.top_k_sweep.split(",") if x.strip()],
                       bm25_weights=[float(x) for x in args.bm25_weights.split(",") if x.strip()],
                       out_dir=args.out or work / f"report-{args.queries}", ingest=not args.skip_ingest,
                       source=SOURCE, corpus_dir=work / "corpus")
    try:
        ev, paths = run_retrieval_job(cfg, job, progress=print)
    except ValueError as exc:
        ap.error(str(exc))
    print("\n" + paths["md"].read_text().split("## Sweep", 1)[0].split("## Timings", 1)[0].rstrip())
    print("\nreport: " + ", ".join(str(p) for p in paths.values()))
    if not args.no_record:
        lines = records(ev, args.queries, uuid.uuid4().hex[:12])
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a") as fh:
            for rec in lines:
                fh.write(json.dumps(rec) + "\n")
        print(f"appended {len(lines)} lines to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
