"""Headings found in SEC filings (10-K) as PDF and as EDGAR's HTML, against the headings they hold.

    .venv/bin/python bench/filing_headings_bench.py [--seeds 3] [--change "what changed"]

No real filing can be fetched here, so the filings are written by ``tests/parse/filinggen.py`` in the layouts
filings use (three styles a format, see its docstring): no outline and no h1–h6, Items and Notes at the body
size, bold or in capitals, "Item 7." on a line of its own, a label-and-title table row; with a cover page, a
table of contents, prose, a statement table and lines that open with "Note 12 to …". Each (format, style,
seed) is parsed with the product's parser and scored against the filing's own heading list (the trees of
seed 0 were read by hand):

- **recall**: the filing's headings found (title, case ignored);
- **precision**: found headings that are the filing's, not counting the cover page's lines, "TABLE OF
  CONTENTS" and "SIGNATURES" either way;
- **parent**: found headings whose parent section is the heading they sit under (PART > Item > its
  headings; Item 8 > Note > its headings);
- **sections per 100 pages**, found and held (PDF pages; for HTML the printed pages its page breaks mark).

Then the six documents of ``bench/filings_heldout`` (a 10-K, a 10-Q and a credit agreement as PDF; a Workiva
10-K, a Donnelley proxy statement and an 8-K press release as EDGAR HTML), written by someone who never read
the parser, scored the same way against their own outline; three were read to fix what they showed (tune),
three never were (test).

Also, when ``$STRATA_BENCH_DIR/pdf-corpus`` exists (``bench/pdf_ingest_bench.py corpus``), the sections per
100 pages of those real PDFs, which must not move. Prints a table and appends a row to
``bench/results/filing-headings.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests" / "parse"))

from filinggen import STYLES, filing_html, filing_pdf  # noqa: E402

from pipelines.parse import parse_bytes  # noqa: E402

RESULTS = REPO / "bench" / "results" / "filing-headings.jsonl"
NEUTRAL = frozenset({"united states", "securities and exchange commission", "united states securities and exchange commission",
           "form 10-k", "globex corporation", "table of contents", "signatures"})


def _norm(title: str) -> str:
    return " ".join(title.replace("\u2019", "'").split()).casefold()


def score(raw: bytes, path: str, truth: list[tuple[int, str]], neutral: frozenset[str] = frozenset()) -> dict[str, float]:
    """Recall, precision and parent accuracy of one filing's parsed headings against ``truth``. A top-level
    heading's parent is right when it is the root, or a level-1 heading that is the document's title."""
    doc = parse_bytes(raw, path=path, doc_id="d", max_bytes=100_000_000)
    sections = doc.sections[1:]
    ids = {s.section_id: s for s in doc.sections}
    wanted = {_norm(t) for _, t in truth}
    found = [s for s in sections if _norm(s.title) not in neutral]
    by_title: dict[str, object] = {}
    for s in sections:
        by_title.setdefault(_norm(s.title), s)
    parent_of: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for depth, title in truth:
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent_of[_norm(title)] = _norm(stack[-1][1]) if stack else ""
        stack.append((depth, title))

    def right_parent(s) -> bool:
        parent = ids[s.parent_id]
        want = parent_of[_norm(s.title)]
        if not want:
            return parent.level == 0 or (parent.level == 1 and _norm(parent.title) == _norm(doc.title))
        return parent.level > 0 and _norm(parent.title) == want

    hits = [by_title[t] for t in wanted if t in by_title]
    return {"recall": len(hits) / len(wanted),
            "precision": sum(_norm(s.title) in wanted for s in found) / len(found) if found else 0.0,
            "parent": sum(map(right_parent, hits)) / len(wanted), "found": len(sections)}


#: the held-out documents read to fix what they showed (bench/filings_heldout/README.md); the others never were
HELDOUT_TUNE = {"northwind_10k_2024.pdf", "northwind_credit_agreement_ex10-1.pdf", "lksh_8k_2025-02-26.htm"}


def heldout() -> list[dict[str, object]]:
    """Each document of ``bench/filings_heldout`` (written without reading the parser) scored, with its split."""
    sys.path.insert(0, str(REPO / "bench" / "filings_heldout"))
    import heldout as held  # noqa: PLC0415

    rows = []
    for name, raw, truth in held.documents():
        rows.append({"document": name, "split": "tune" if name in HELDOUT_TUNE else "test", "held": len(truth),
                     **{k: round(v, 3) for k, v in score(raw, name, truth).items()}})
    return rows


def real_pdfs() -> dict[str, float] | None:
    """Sections per 100 pages of the real PDFs of ``bench/pdf_ingest_bench.py`` (None when not downloaded)."""
    import ingest_bench  # noqa: PLC0415
    import pypdfium2 as pdfium  # noqa: PLC0415

    folder = ingest_bench.WORK / "pdf-corpus"
    files = sorted(folder.rglob("*.pdf*")) if folder.exists() else []
    if not files:
        return None
    out = {}
    for path in files:
        raw = path.read_bytes()
        raw = gzip.decompress(raw) if path.suffix == ".gz" else raw
        pages = len(pdfium.PdfDocument(raw))
        doc = parse_bytes(raw, path=path.name.removesuffix(".gz"), doc_id="d", max_bytes=200_000_000)
        out[str(path.relative_to(folder))] = round(100 * (len(doc.sections) - 1) / pages, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="filings per format and style (prose lengths vary)")
    parser.add_argument("--change", default="", help="what this run measures, stored with the row")
    args = parser.parse_args()
    rows = []
    for fmt, make, path in (("pdf", filing_pdf, "10-k.pdf"), ("html", filing_html, "10-k.htm")):
        for style in STYLES:
            for seed in range(args.seeds):
                raw, truth, pages = make(style, seed=seed, paragraphs=3 + 2 * seed)
                row = {"format": fmt, "style": style, "seed": seed, "pages": pages, "held": len(truth),
                       **score(raw, path, truth, NEUTRAL)}
                row["found_per_100_pages"] = round(100 * row["found"] / pages, 1)
                row["held_per_100_pages"] = round(100 * len(truth) / pages, 1)
                rows.append(row)
    print(f"{'format':6} {'style':6} {'pages':>5} {'held':>4} {'found':>5} {'recall':>6} {'precision':>9} {'parent':>6}")
    summary = {}
    for fmt in ("pdf", "html"):
        for style in STYLES:
            group = [r for r in rows if r["format"] == fmt and r["style"] == style]
            mean = {k: round(sum(r[k] for r in group) / len(group), 3) for k in ("recall", "precision", "parent")}
            summary[f"{fmt}/{style}"] = mean
            print(f"{fmt:6} {style:6} {sum(r['pages'] for r in group):5} {sum(r['held'] for r in group):4} "
                  f"{sum(r['found'] for r in group):5} {mean['recall']:6.3f} {mean['precision']:9.3f} {mean['parent']:6.3f}")
    held_rows = heldout()
    print("\nheld-out filings (bench/filings_heldout, written without reading the parser):")
    print(f"{'document':40} {'split':5} {'held':>4} {'found':>5} {'recall':>6} {'precision':>9} {'parent':>6}")
    for r in held_rows:
        print(f"{r['document']:40} {r['split']:5} {r['held']:4} {r['found']:5} {r['recall']:6.3f} {r['precision']:9.3f} "
              f"{r['parent']:6.3f}")
    for split in ("tune", "test"):
        group = [r for r in held_rows if r["split"] == split]
        summary[f"held-out {split}"] = {k: round(sum(r[k] for r in group) / len(group), 3)
                                        for k in ("recall", "precision", "parent")}
    real = real_pdfs()
    if real:
        print("real PDFs, sections per 100 pages:", real)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit, "change": args.change,
                            "summary": summary, "filings": rows, "held_out": held_rows,
                            "real_pdfs_sections_per_100_pages": real}) + "\n")


if __name__ == "__main__":
    main()
