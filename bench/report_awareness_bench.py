"""Awareness on long reports: evidence recall of ``/v1/context`` packs with and without the awareness
expansion, at equal token budgets, on ``../shared/data/business-reports``.

The set splits long reports into consecutive parts (``<report>_chunk_<n>``, "Part k/N"). Here the
parts of one report are put back together: one Markdown document per report, each part one
``## Part k`` section in order, so the index holds the report → part (section) → sibling structure the
awareness tier navigates. Each judged question's evidence is its report's parts
(``bench/data/business-reports-qrels.tsv``: the shipped qrels, corrected by title — see
``bench/data/README.md``). **Part recall** of a pack = the share of the question's relevant parts
that have a passage in the pack; **report found** = the pack holds any part of the report.

Configurations, through the in-process ``SearchPipeline`` (the code of ``POST /v1/context``), every
question at every budget, ``top_k`` high enough that the budget binds:
* ``no-awareness`` — ``awareness=false``: ranked hybrid hits fill the budget (a naive RAG context);
* ``awareness`` — ``awareness=true``: the configured expansion (section tier, neighbours within the
  heading, parent and sibling summaries).

    .venv/bin/python bench/report_awareness_bench.py                      # ingest if needed, then run
    .venv/bin/python bench/report_awareness_bench.py --budgets 1000,2000,4000 --skip-ingest
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.awareness_bench import add_awareness_option, awareness_overrides  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "business-reports"
QRELS = REPO / "bench" / "data" / "business-reports-qrels.tsv"
WORK = Path.home() / ".cache" / "strata-bench" / "reports-merged"
RESULTS = REPO / "bench" / "results" / "report-awareness.jsonl"
SOURCE = "business-reports-merged"
TOP_K = 40
_PART = re.compile(r"Part (\d+)$")


def report_of(part_id: str) -> tuple[str, int]:
    """``("<report>", k)`` of a part id (a one-part report has no ``_chunk_`` suffix: part 1).

    >>> report_of("59f11d5004ed84ad_chunk_3"), report_of("eeeeabcf920052ab")
    (('59f11d5004ed84ad', 4), ('eeeeabcf920052ab', 1))
    """
    report, _, n = part_id.partition("_chunk_")
    return report, int(n) + 1 if n else 1


def build_corpus(out: Path) -> int:
    """One Markdown file per report (``# title`` then ``## Part k`` sections in order); the number of reports."""
    parts: dict[str, list[tuple[int, str, str]]] = {}
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            report, k = report_of(row["_id"])
            parts.setdefault(report, []).append((k, re.sub(r"\s*\(Part \d+/\d+\)$", "", row["title"]), row["text"]))
    out.mkdir(parents=True, exist_ok=True)
    for report, rows in parts.items():
        rows.sort()
        body = [f"# {' '.join(rows[0][1].split())}", ""]
        for k, _, text in rows:
            body += [f"## Part {k}", "", text.strip(), ""]
        target = out / f"{report}.md"
        content = "\n".join(body)
        if not target.is_file() or target.read_text() != content:
            target.write_text(content)
    return len(parts)


def load_judgments() -> tuple[dict[str, str], dict[str, set[tuple[str, int]]]]:
    queries = {r["_id"]: r["text"] for r in map(json.loads, (DATA / "queries.jsonl").read_text().splitlines())}
    relevant: dict[str, set[tuple[str, int]]] = {}
    with QRELS.open() as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if int(row["score"]) > 0:
                relevant.setdefault(row["query-id"], set()).add(report_of(row["corpus-id"]))
    return {q: queries[q] for q in relevant}, relevant


def score(passages, relevant: set[tuple[str, int]]) -> tuple[float, bool]:
    """(part recall, report found) of one pack."""
    touched = set()
    for p in passages:
        m = _PART.search(p.section_path or "")
        if m:
            touched.add((Path(p.path).stem, int(m.group(1))))
    reports = {r for r, _ in relevant}
    return len(touched & relevant) / len(relevant), any(r in reports for r, _ in touched)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=WORK)
    ap.add_argument("--budgets", default="1000,2000,4000")
    ap.add_argument("--top-k", type=int, default=TOP_K)
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--no-record", action="store_true")
    add_awareness_option(ap)
    args = ap.parse_args()
    from cluster.config import scripted_config
    from offline.eval.retrieval_job import ingest_corpus
    from serving.protocol import ContextRequest
    from serving.services.local import SearchPipeline

    work = args.work.expanduser()
    cfg = scripted_config(work, **awareness_overrides(args))
    if not args.skip_ingest:
        n = build_corpus(work / "corpus")
        print(f"{n} reports → {work / 'corpus'}; ingesting …", flush=True)
        print(ingest_corpus(cfg, work / "corpus", SOURCE), flush=True)
    queries, relevant = load_judgments()
    pipe = SearchPipeline(cfg)
    budgets = [int(b) for b in args.budgets.split(",")]
    summary = {}
    rows = []
    for budget in budgets:
        for name, awareness in (("no-awareness", False), ("awareness", True)):
            recalls, found, used = [], [], []
            t0 = time.perf_counter()
            for q, text in queries.items():
                r = pipe.context(ContextRequest(query=text, top_k=args.top_k, budget_tokens=budget,
                                                awareness=awareness, use_cache=False))
                recall, hit = score(r.passages, relevant[q])
                recalls.append(recall), found.append(hit), used.append(r.used_tokens)
                rows.append({"config": name, "budget": budget, "id": q, "recall": round(recall, 4), "found": hit})
            summary[(name, budget)] = {"part_recall": statistics.fmean(recalls), "report_found": statistics.fmean(found),
                                       "used_tokens": statistics.fmean(used), "s": time.perf_counter() - t0}
    print(f"\n{len(queries)} questions; part recall / report found / mean used tokens")
    print(f"{'budget':>6} | {'no-awareness':>24} | {'awareness':>24} | part recall ratio")
    for b in budgets:
        cells = [summary[(c, b)] for c in ("no-awareness", "awareness")]
        ratio = cells[1]["part_recall"] / cells[0]["part_recall"] if cells[0]["part_recall"] else float("inf")
        print(f"{b:>6} | " + " | ".join(f"{c['part_recall']:.3f} / {c['report_found']:.3f} / {c['used_tokens']:5.0f}"
                                       .rjust(24) for c in cells) + f" | {ratio:.2f}")
    if not args.no_record:
        with RESULTS.open("a") as fh:
            for (name, b), s in summary.items():
                fh.write(json.dumps({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "config": name, "budget": b,
                                     "top_k": args.top_k, **{k: round(v, 4) for k, v in s.items()},
                                     "per_question": [r for r in rows if r["config"] == name and r["budget"] == b]})
                         + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
