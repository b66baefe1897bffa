"""Checks the third blind question set against its documents: every evidence text is an exact substring of the
parsed text (pipelines.parse.parse_bytes); every answerable question's first answer form occurs in the text, or
its number is a unit conversion of a printed figure; terms that the unanswerable questions hinge on are absent;
ids are unique and the tune/test split follows the alternation rule. Usage: python bench/filings_blind3/check.py"""

from __future__ import annotations

import json
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
sys.path.insert(0, _HERE)
sys.path.insert(0, _ROOT)
sys.path.insert(0, os.path.join(_ROOT, "bench", "filings_blind"))

import blind3  # noqa: E402
from check import check_rows  # noqa: E402  (bench/filings_blind/check.py)
from pipelines.parse import parse_bytes  # noqa: E402

FILES = {s: os.path.join(_ROOT, "bench", "data", f"answers-filings-blind3-{s}.jsonl") for s in ("tune", "test")}
DOCS = {"e": "qwtr-def14a_2026.htm", "f": "hlbd-20250930.htm"}
# words that must not occur in a document (what the unanswerable questions ask for)
ABSENT = {
    "qwtr-def14a_2026.htm": ["2022", "Risk Committee", "Chief Operating Officer", "one-year total shareholder",
                             "Pay Versus Performance", "TSR of", "BlackRock", "Vanguard", "2023 annual meeting",
                             "severance", "change in control", "change-in-control"],
    "hlbd-20250930.htm": ["2023", "EBITDA", "Paddle net sales in Europe", "Paddle sales in Europe",
                          "segment and region", "total assets at September 30, 2024", "total assets of",
                          "guidance", "outlook", "full-year 2025 net sales", "employees", "headcount",
                          "June 30, 2025", "second quarter of 2025"],
}


def main() -> int:
    docs = dict(blind3.documents())
    again = dict(blind3.documents())
    bad = 0
    if docs != again:
        print("  DOCUMENTS NOT DETERMINISTIC")
        bad += 1
    texts = {n: parse_bytes(raw, path=n, doc_id=n).text for n, raw in docs.items()}
    split = {s: [json.loads(x) for x in open(p)] for s, p in FILES.items()}
    rows = split["tune"] + split["test"]
    for key, doc in DOCS.items():
        bad += check_rows([r for r in rows if r["id"].startswith(f"fb3-{key}-")], doc, texts[doc], ABSENT[doc])
    for s, rs in split.items():
        for key, doc in DOCS.items():
            mine = [r for r in rs if r["id"].startswith(f"fb3-{key}-")]
            na = sum(r["answerable"] for r in mine)
            print(f"{s} {doc}: {len(mine)} questions, {na} answerable, {len(mine) - na} unanswerable")
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        print("  DUPLICATE IDS")
        bad += 1
    print("pages:", blind3.page_counts())
    print("OK" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
