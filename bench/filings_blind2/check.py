"""Checks the second blind question set against its documents: every evidence text is an exact substring of
the parsed text (pipelines.parse.parse_bytes); every answerable question's first answer form occurs in the text,
or its number is a unit conversion of a printed figure; and terms that the unanswerable questions hinge on are
absent. Usage: python bench/filings_blind2/check.py"""

from __future__ import annotations

import json
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
sys.path.insert(0, _HERE)
sys.path.insert(0, _ROOT)

import blind2  # noqa: E402
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


def numbers(text: str) -> set[float]:
    return {float(m.replace(",", "")) for m in re.findall(r"\d[\d,]*\.?\d*", text)}


def main() -> int:
    docs = dict(blind2.documents())
    texts = {n: parse_bytes(raw, path=n, doc_id=n).text for n, raw in docs.items()}
    rows = [json.loads(x) for x in open(FILE)]
    bad = 0
    for key, doc in DOCS.items():
        mine = [r for r in rows if r["id"].startswith(f"fb2-{key}-")]
        text = texts[doc]
        nums = numbers(text)
        na = sum(r["answerable"] for r in mine)
        print(f"{doc}: {len(mine)} questions, {na} answerable, {len(mine) - na} unanswerable")
        for r in mine:
            if not r["answerable"]:
                assert not r["answers"] and "evidence" not in r, r["id"]
                continue
            for ev in r["evidence"]:
                if ev["document"] != doc or ev["text"] not in text:
                    print("  EVIDENCE MISSING", r["id"], repr(ev["text"]))
                    bad += 1
            first = r["answers"][0]
            if first in text or first.lower() in ("yes", "no"):
                continue
            v = re.sub(r"[^\d.]", "", first.split(" to ")[0])
            ok = False
            if v:
                x = float(v)
                ok = any(abs(x * k - n) < 0.051 * k for n in nums for k in (1000, 1)) or x in nums
            if not ok:
                print("  FIRST ANSWER NOT IN TEXT", r["id"], first)
                bad += 1
        for term in ABSENT[doc]:
            if term.lower() in text.lower():
                print("  PRESENT BUT SHOULD BE ABSENT", doc, term)
                bad += 1
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        print("  DUPLICATE IDS")
        bad += 1
    print("OK" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
