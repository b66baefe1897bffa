"""Filings context packs: how many answerable questions of the ten filings answer sets a ``/v1/context`` pack holds
the evidence of, without and with awareness, at each budget.

The questions are those of ``bench/data/answers-filings-*.jsonl`` (analysts' questions about invented SEC filings:
10-K, 10-Q, 8-K, proxy statements, a credit agreement, as PDF and HTML; written without running the product), over
the three indexes :mod:`answer_calibrate` builds for them (``filings-index``, ``filings-blind-index``,
``filings-blind3-index`` under ``$STRATA_BENCH_DIR``, default ``~/.cache/strata-bench``; built on first use). A pack
holds a question's evidence when a passage of its document holds the evidence text and, for a figure, one of the
gold answers in that passage (:func:`longdoc_awareness_bench.held_in`: a row label alone is not the figure). Packs
are asked in process with the product's defaults, ``top_k`` 8 (``/v1/context``'s default), uncached.

Only each set's counts are printed and stored: the ``*-test`` sets and ``answers-filings-blind2`` are held out, and
their questions are not listed. Rows go to ``bench/results/filings-context.jsonl`` (one per set and budget).

    .venv/bin/python bench/filings_context_bench.py --label "what changed"
    .venv/bin/python bench/filings_context_bench.py --budgets 2000 --no-record
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

RESULTS = REPO / "bench" / "results" / "filings-context.jsonl"
BUDGETS = (1000, 2000, 4000)
TOP_K = 8


def filings_sets() -> list[tuple[str, Path, str]]:
    """(set name, QA file, index kind) of the filings answer sets, in :data:`answer_calibrate.SETS` order."""
    from answer_calibrate import SETS

    return [(name, path, kind) for name, path, kind, _ in SETS if kind.startswith("filings")]


def held_counts(pipeline, questions: list, budget: int, top_k: int = TOP_K) -> tuple[int, int]:
    """(plain, aware): how many of ``questions`` (:class:`longdoc_awareness_bench.LongDocQuestion`) the pack of
    ``budget`` tokens holds the evidence of, without and with awareness."""
    from longdoc_awareness_bench import held_in
    from serving.protocol import ContextRequest

    counts = []
    for aware in (False, True):
        counts.append(sum(held_in(q, pipeline.context(ContextRequest(
            query=q.question, top_k=top_k, budget_tokens=budget, awareness=aware, use_cache=False)).passages)
            for q in questions))
    return counts[0], counts[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="comma-separated token budgets")
    ap.add_argument("--top-k", type=int, default=TOP_K)
    ap.add_argument("--label", default="", help="a note stored with the result rows")
    ap.add_argument("--no-record", action="store_true", help="do not append to bench/results/filings-context.jsonl")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]

    from answer_calibrate import INDEX_DIRS, WORK, kind_index
    from longdoc_awareness_bench import LongDocQuestion
    from offline.eval.qa_format import load_qa
    from serving.services.local import SearchPipeline

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True,
                      text=True).stdout.strip():
        commit += "+"  # measured with changes not committed yet
    when = dt.datetime.now().isoformat(timespec="seconds")
    rows, totals = [], {b: [0, 0, 0] for b in budgets}
    pipelines: dict[str, SearchPipeline] = {}
    try:
        for name, path, kind in filings_sets():
            if kind not in pipelines:
                pipelines[kind] = SearchPipeline(kind_index(kind, WORK / INDEX_DIRS[kind]))
            questions = [LongDocQuestion(e.id, "all", e.question, e.evidence[0], tuple(e.answers))
                         for e in load_qa(path) if e.answerable and e.evidence]
            for budget in budgets:
                plain, aware = held_counts(pipelines[kind], questions, budget, args.top_k)
                n = len(questions)
                print(f"{name:30s} @{budget:5d}: {plain:3d} → {aware:3d} of {n}", flush=True)
                totals[budget] = [totals[budget][0] + plain, totals[budget][1] + aware, totals[budget][2] + n]
                rows.append({"bench": "filings_context", "when": when, "commit": commit, "label": args.label,
                             "set": name, "budget": budget, "top_k": args.top_k, "questions": n,
                             "plain": plain, "aware": aware})
    finally:
        for pipeline in pipelines.values():
            pipeline.close()
    for budget, (plain, aware, n) in totals.items():
        print(f"{'all sets':30s} @{budget:5d}: {plain:3d} → {aware:3d} of {n}")
    if not args.no_record:
        with RESULTS.open("a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(row) + "\n" for row in rows)
        print(f"appended {len(rows)} lines to {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
