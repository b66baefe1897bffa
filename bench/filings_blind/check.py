"""Checks the blind question sets against the documents: every evidence text is an exact substring of the
parsed text (pipelines.parse.parse_bytes) and of the tag-stripped / PDF-line text; every answerable question's
first answer form occurs in the text, or its number is a unit conversion of a printed figure; and terms that
the unanswerable questions hinge on are absent. Usage: python bench/filings_blind/check.py"""

from __future__ import annotations

import html
import json
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
sys.path.insert(0, _HERE)
sys.path.insert(0, _ROOT)

import blind  # noqa: E402
from pipelines.parse import parse_bytes  # noqa: E402

# words that must not occur in a document (what the unanswerable questions ask for)
ABSENT = {
    "meridian_10k_fy2024.pdf": ["EBITDA", "retention rate", "net revenue retention", "Denver, Colorado, of",
                                "fiscal 2021", "June 30, 2021", "at June 30, 2023. ", "segment operating income"],
    "cplx-20250930.htm": ["EBITDA", "length of haul", "revenue guidance", "full-year 2025 revenue",
                          "June 30, 2025", "September 30, 2024 |", "net revenue", "gross margin"],
}


def plain(name: str, raw: bytes) -> str:
    if name.endswith(".pdf"):
        return ""
    t = re.sub(r"<[^>]+>", " ", raw.decode("utf-8"))
    return re.sub(r"\s+", " ", html.unescape(t).replace("\xa0", " "))


def numbers(text: str) -> set[float]:
    return {float(m.replace(",", "")) for m in re.findall(r"\d[\d,]*\.?\d*", text)}


def check_rows(rows: list[dict], doc: str, text: str, absent: list[str], alt: str = "") -> int:
    """The problems of ``rows`` (questions over ``doc``, whose parsed text is ``text`` and tag-stripped text ``alt``),
    printed; their count. Also used by ``bench/filings_blind2/check.py``."""
    bad = 0
    nums = numbers(text)
    na = sum(r["answerable"] for r in rows)
    print(f"{doc}: {len(rows)} questions, {na} answerable, {len(rows) - na} unanswerable")
    for r in rows:
        if not r["answerable"]:
            assert not r["answers"] and "evidence" not in r, r["id"]
            continue
        for ev in r["evidence"]:
            if ev["document"] != doc or ev["text"] not in text or (alt and ev["text"] not in alt):
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
    for term in absent:
        if term.lower() in text.lower():
            print("  PRESENT BUT SHOULD BE ABSENT", doc, term)
            bad += 1
    return bad


def main() -> int:
    docs = {n: raw for n, raw in blind.documents()}
    texts = {n: parse_bytes(raw, path=n, doc_id=n).text for n, raw in docs.items()}
    bad = 0
    for fname, doc in (("answers-filings-blind-tune.jsonl", "meridian_10k_fy2024.pdf"),
                       ("answers-filings-blind-test.jsonl", "cplx-20250930.htm")):
        rows = [json.loads(x) for x in open(os.path.join(_ROOT, "bench", "data", fname))]
        bad += check_rows(rows, doc, texts[doc], ABSENT[doc], plain(doc, docs[doc]))
    print("OK" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
