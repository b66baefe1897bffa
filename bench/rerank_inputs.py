"""Cross-encoder input size vs held-out SciFact quality and rerank time: the search-latency budget.

    .venv/bin/python bench/rerank_inputs.py            # every variant below on the SciFact bench index
    .venv/bin/python bench/rerank_inputs.py --variants "t30w128:top_n=30,max_length=128,passage_window=true"

Each variant runs ``bench/retrieval_quality.py --configs default+rerank`` (the configured defaults with
the cross-encoder on, the 176 pinned held-out queries, the serving code in process) with its ``rerank.*``
settings in ``STRATA_RERANK__*``, one after another on the same index, and reads nDCG@10 and the rerank
stage's time per query from the report. One JSON line per variant goes to
``bench/results/rerank-inputs.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "rerank-inputs.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench")) / "scifact"
VARIANTS = ("before:top_n=50,passage_window=false;"
            "t30w128:top_n=30,max_length=128,passage_window=true;"
            "t30c128:top_n=30,max_length=128,passage_window=false;"
            "t50w128:top_n=50,max_length=128,passage_window=true;"
            "t20:top_n=20,passage_window=false;"
            "t30w160:top_n=30,max_length=160,passage_window=true")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=VARIANTS, help="name:key=value,...;name:...")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    for spec in [v for v in args.variants.split(";") if v.strip()]:
        name, _, knobs = spec.partition(":")
        env = {k: v for k, v in os.environ.items() if not k.startswith("STRATA_RERANK__")}
        settings = dict(kv.split("=", 1) for kv in knobs.split(",") if kv)
        env.update({f"STRATA_RERANK__{k.upper()}": v for k, v in settings.items()})
        out = WORK / f"report-rerank-{name}"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(REPO / "bench" / "retrieval_quality.py"), "--configs", "default+rerank",
                        "--top-k-sweep", "", "--skip-ingest", "--no-record", "--out", str(out)],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = json.loads((out / "report.json").read_text())
        row = next(r for r in report["results"] if r["name"] == "default+rerank")
        record = {"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit, "variant": name, "rerank": settings,
                  "queries": report["dataset"]["queries"], "ndcg@10": round(row["metrics"]["ndcg@10"], 4),
                  "recall@10": round(row["metrics"]["recall@10"], 4), "timings": row.get("timings"),
                  "wall_s": round(time.perf_counter() - t0, 1)}
        print(json.dumps(record), flush=True)
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with RESULTS.open("a") as fh:
            fh.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
