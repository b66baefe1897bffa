"""What the chunk overlap and the embedded headers cost, and what they buy: ingest work against
retrieval quality, for chunking variants measured side by side on the same evaluation sets.

Each variant is a set of ``chunking`` settings (the default: 200-token chunks, 32-token overlap,
40-token title/section header in front of every embedded chunk). For every set and variant, a fresh
index is built and evaluated with ``strata eval retrieval`` (the normal ingest, the serving code
path), with the variant's settings in the environment. Printed per set: chunks, chunk tokens and
distinct texts embedded (the embedding work), the ingest's wall time, and nDCG@10 per
configuration with its difference from the first variant (paired randomization test over the
queries, 10,000 sign flips). One JSON line per (set, variant) goes to ``bench/results/chunking.jsonl``.

    .venv/bin/python bench/chunking_bench.py                                   # business-reports + SciFact held-out
    .venv/bin/python bench/chunking_bench.py --llvm-headings ~/.cache/strata-bench/llvm-headings \\
        --variants base,overlap0,noheader                                       # + LLVM headings (bench/headings_set.py)

A (set, variant) whose report is already in ``--work`` is not run again (delete its folder to rerun).
``--corpus DIR`` measures only the work, on any corpus (e.g. the Debian documentation of
``bench/corpora.py``): every file parsed and chunked as the ingest's parse tasks do, per variant,
and the tokens the embedder would see (the distinct chunk and summary inputs, headers included).

    .venv/bin/python bench/chunking_bench.py --corpus /tmp/strata-bench/corpus-1.7m --variants base,overlap0,noheader
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.metrics import paired_randomization_p  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
RESULTS = REPO / "bench" / "results" / "chunking.jsonl"

#: Chunking settings per variant (environment overrides of ``chunking.*``; base = the defaults).
VARIANTS: dict[str, dict[str, int | bool]] = {
    "base": {},
    "overlap0": {"overlap_tokens": 0},
    "overlap16": {"overlap_tokens": 16},
    "noheader": {"header_tokens": 0},
    "greedy": {"balance_tail": False},  # a section's last chunk as small as greedy packing leaves it (the chunker before v7)
}


def business_reports(work: Path) -> Path:
    """The business-reports set with the corrected judgments (bench/data/README.md says why)."""
    target = work / "sets" / "business-reports"
    (target / "qrels").mkdir(parents=True, exist_ok=True)
    for name in ("corpus.jsonl.gz", "queries.jsonl"):
        shutil.copy(SHARED / "business-reports" / name, target / name)
    shutil.copy(REPO / "bench" / "data" / "business-reports-qrels.tsv", target / "qrels" / "test.tsv")
    return target


def index_work(data_dir: Path) -> dict[str, int]:
    """Chunks, their tokens and the distinct texts embedded (the embedding cache's rows) of an index."""
    import lancedb

    db = lancedb.connect(str(data_dir / "lance"))
    chunks = db.open_table("chunks").to_arrow().select(["n_tokens"])
    return {"chunks": chunks.num_rows, "chunk_tokens": int(chunks.column("n_tokens").to_numpy().sum()),
            "texts_embedded": db.open_table("embed_cache").count_rows()}


def run_one(work: Path, set_name: str, beir_dir: Path, split: str, queries_file: str | None, variant: str,
            configs: str) -> dict:
    out = work / f"{set_name}-{variant}"
    report_path = out / "report" / "report.json"
    log = out / "eval.log"
    if not report_path.exists():
        out.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **{f"STRATA_CHUNKING__{k.upper()}": str(v) for k, v in VARIANTS[variant].items()}}
        cmd = [str(REPO / ".venv" / "bin" / "strata"), "--data-dir", str(out / "data"), "eval", "retrieval",
               str(beir_dir), "--split", split, "--configs", configs, "--top-k-sweep", "", "--out", str(out / "report")]
        if queries_file:
            cmd += ["--queries-file", queries_file]
        print(f"[{set_name} / {variant}] {' '.join(cmd[1:])}", flush=True)
        started = time.perf_counter()
        with open(log, "w") as sink:
            subprocess.run(cmd, env=env, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT, check=True)
        print(f"[{set_name} / {variant}] {time.perf_counter() - started:.0f} s", flush=True)
    ingest = re.search(r"ingest: .*\(([\d.]+)s\)", log.read_text())
    report = json.loads(report_path.read_text())
    return {"set": set_name, "variant": variant, "chunking": VARIANTS[variant],
            "ingest_s": float(ingest.group(1)) if ingest else None, **index_work(out / "data"),
            "queries": report["dataset"]["queries"], "commit": report["meta"]["commit"],
            "ndcg@10": {r["name"]: r["metrics"]["ndcg@10"] for r in report["results"] if r["status"] == "ok"},
            "per_query": {r["name"]: {q: m["ndcg@10"] for q, m in r["per_query"].items()}
                          for r in report["results"] if r["status"] == "ok"}}


def print_set(rows: list[dict]) -> None:
    base = rows[0]
    configs = list(base["ndcg@10"])
    print(f"\n{base['set']} ({base['queries']} queries); nDCG@10, difference from {base['variant']} (p)")
    print(f"{'variant':<10} {'chunks':>7} {'chunk tok':>10} {'texts':>7} {'ingest s':>9}  " +
          "  ".join(f"{c:>24}" for c in configs))
    for row in rows:
        cells = []
        for c in configs:
            score = row["ndcg@10"][c]
            if row is base:
                cells.append(f"{score:>24.3f}")
            else:
                p = paired_randomization_p(row["per_query"][c], base["per_query"][c])
                cells.append(f"{score:.3f} ({score - base['ndcg@10'][c]:+.3f}, p={p:.2f})".rjust(24))
        ratio = row["chunk_tokens"] / base["chunk_tokens"]
        print(f"{row['variant']:<10} {row['chunks']:>7,} {row['chunk_tokens']:>10,} {row['texts_embedded']:>7,} "
              f"{row['ingest_s'] or float('nan'):>9.1f}  " + "  ".join(cells) + f"   (chunk tokens ×{ratio:.2f})")


def corpus_work(corpus: Path, variant: str) -> dict:
    """Parse and chunk every file under ``corpus`` with a variant's settings (no embedding): chunks,
    their tokens, and the distinct texts the embedder would get with their tokens."""
    from cluster.config import load_config
    from pipelines.records import chunk_input, summary_input
    from pipelines.sources.files import SourceFile, discover
    from pipelines.stages.parse_chunk import chunking_setup, process_file

    cfg = load_config(chunking=VARIANTS[variant])
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    started = time.perf_counter()
    chunks = chunk_tokens = 0
    texts: set[str] = set()
    for entry in discover(corpus, include=cfg.ingest.include, exclude=cfg.ingest.exclude,
                          max_bytes=cfg.ingest.max_file_bytes, source="corpus"):
        if not isinstance(entry, SourceFile):
            continue
        row = process_file({"doc_id": entry.doc_id, "source": entry.source, "path": entry.path,
                            "relpath": entry.relpath, "size": entry.size, "mtime_ns": entry.mtime_ns,
                            "known_hash": ""}, tokenizer=tokenizer, config=config,
                           max_file_bytes=cfg.ingest.max_file_bytes)
        chunks += len(row["chunks"])
        chunk_tokens += sum(ch["n_tokens"] for ch in row["chunks"])
        texts.update(chunk_input(ch) for ch in row["chunks"])
        texts.update(summary_input(se) for se in row["sections"])
    parsed_s = time.perf_counter() - started
    ordered = sorted(texts)
    model_tokens = sum(len(e.ids) for e in tokenizer.encode_batch(ordered))  # [CLS] … [SEP], as embedded
    return {"set": corpus.name, "variant": variant, "chunking": VARIANTS[variant], "chunks": chunks,
            "chunk_tokens": chunk_tokens, "texts_embedded": len(texts), "model_tokens": model_tokens,
            "parse_chunk_s": round(parsed_s, 1)}


def print_work(rows: list[dict]) -> None:
    base = rows[0]
    print(f"\n{base['set']}: the embedding work of each variant (parse + chunk only)")
    print(f"{'variant':<10} {'chunks':>8} {'chunk tokens':>13} {'texts':>8} {'model tokens':>13} {'÷ ' + base['variant']:>9}")
    for row in rows:
        print(f"{row['variant']:<10} {row['chunks']:>8,} {row['chunk_tokens']:>13,} {row['texts_embedded']:>8,} "
              f"{row['model_tokens']:>13,} {row['model_tokens'] / base['model_tokens']:>9.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="base,overlap0", help=f"comma-separated, first = reference: {list(VARIANTS)}")
    ap.add_argument("--configs", default="bm25,dense,hybrid-linear,default")
    ap.add_argument("--work", type=Path, default=Path.home() / ".cache" / "strata-bench" / "chunking")
    ap.add_argument("--sets", default="business-reports,scifact-heldout",
                    help="comma-separated: business-reports, scifact-heldout, llvm-headings (needs --llvm-headings)")
    ap.add_argument("--scifact", type=Path, default=SHARED / "scifact")
    ap.add_argument("--llvm-headings", type=Path, default=None, help="a set built by bench/headings_set.py (test split)")
    ap.add_argument("--corpus", type=Path, default=None, help="only the embedding work of each variant on this corpus")
    args = ap.parse_args()
    variants, wanted = args.variants.split(","), args.sets.split(",")
    when = time.strftime("%Y-%m-%dT%H:%M:%S")
    if args.corpus:
        rows = [corpus_work(args.corpus, v) for v in variants]
        print_work(rows)
        with open(RESULTS, "a") as results:
            for row in rows:
                results.write(json.dumps({"bench": "chunking-work", "when": when, **row}) + "\n")
        return
    if args.llvm_headings and "llvm-headings" not in wanted:
        wanted.append("llvm-headings")
    sets: list[tuple[str, Path, str, str | None]] = []
    if "business-reports" in wanted:
        sets.append(("business-reports", business_reports(args.work), "test", None))
    if "llvm-headings" in wanted:
        if not args.llvm_headings:
            ap.error("llvm-headings needs --llvm-headings DIR (bench/headings_set.py builds it)")
        sets.append(("llvm-headings", args.llvm_headings, "test", None))
    if "scifact-heldout" in wanted:
        sets.append(("scifact-heldout", args.scifact, "train", str(REPO / "bench" / "data" / "scifact-heldout.txt")))
    with open(RESULTS, "a") as results:
        for set_name, beir_dir, split, queries_file in sets:
            rows = [run_one(args.work, set_name, beir_dir, split, queries_file, v, args.configs) for v in variants]
            print_set(rows)
            for row in rows:
                results.write(json.dumps({"bench": "chunking", "when": when, **row}) + "\n")


if __name__ == "__main__":
    main()
