"""Checks the second blind question set against its documents: every evidence text is an exact substring of
the parsed text (pipelines.parse.parse_bytes); every answerable question's first answer form occurs in the text,
or its number is a unit conversion of a printed figure; and terms that the unanswerable questions hinge on are
absent. Usage: python bench/filings_blind2/check.py"""

from __future__ import annotations

import json
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
sys.path.insert(0, _HERE)
sys.path.insert(0, _ROOT)
sys.path.insert(0, os.path.join(_ROOT, "bench", "filings_blind"))

import blind2  # noqa: E402
from check import check_rows  # noqa: E402  (bench/filings_blind/check.py)
from pipelines.parse import parse_bytes  # noqa: E402

FILE = os.path.join(_ROOT, "bench", "data", "answers-filings-blind2.jsonl")
DOCS = {"c": "bramblecrest_10q_q2_2025.pdf", "d": "ashgrove_ex99-1_q4_2024.pdf"}
# words that must not occur in a document (what the unanswerable questions ask for)
ABSENT = {
    "bramblecrest_10q_q2_2025.pdf": ["2023", "EBITDA", "guidance", "revenue outlook", "full-year 2025 revenue",
                                     "Europe revenue", "revenue in Europe", "segment operating income",
                                     "product line operating income", "employees"],
    "ashgrove_ex99-1_q4_2024.pdf": ["EPS guidance", "EPS of", "per share of", "third quarter", "September",
                                    "operating activities", "free cash flow", "average unit volume", "AUV",
                                    "Little Fern Kitchen sales", "Little Fern Kitchen revenue", "segment"],
}


def main() -> int:
    docs = dict(blind2.documents())
    texts = {n: parse_bytes(raw, path=n, doc_id=n).text for n, raw in docs.items()}
    rows = [json.loads(x) for x in open(FILE)]
    bad = sum(check_rows([r for r in rows if r["id"].startswith(f"fb2-{key}-")], doc, texts[doc], ABSENT[doc])
              for key, doc in DOCS.items())
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        print("  DUPLICATE IDS")
        bad += 1
    print("OK" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
