"""PDF ingest at scale: 2,000+ pages of real PDFs from Debian documentation packages.

    python bench/pdf_ingest_bench.py corpus
        downloads the packages once (apt-get download, dpkg-deb -x; no other network) and links their PDFs
        into one folder (``$STRATA_BENCH_DIR/pdf-corpus``); prints files and pages
    python bench/pdf_ingest_bench.py parse
        the parser alone, one process: pages/s of CPU (one core), headings, table rows, per file
    python bench/pdf_ingest_bench.py throughput
        `strata ingest` end to end with the defaults on that folder, ÷ the embedder's bound, exactly as
        ``bench/ingest_bench.py throughput --corpus`` does for text (its row goes to ingest.jsonl), then
        a row here with pages/s, tokens/s, the ratio to the bound and the parse CPU share: the CPU
        seconds of the parse tasks' processes and of the PDF parser's child processes over the CPU
        seconds of all the ingest's processes

The PDFs: the C++ Annotations (1151 pages), Gri's manual (285), Auto Multiple Choice's manuals in three
languages and its LaTeX samples (498), the DocBook XSL reference (95) and Nettle's manual (111): 2,140
pages of LaTeX, Texinfo and FOP output. (live-manual-pdf is left out: PDFium finds text on a third of its
pages, so it is refused as ``no_text_layer``.) Timings share a 2-core box with whatever else runs on it:
compare rows of one run, not runs of different days. Results go to bench/results/pdf_ingest.jsonl.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import corpora  # noqa: E402
import ingest_bench  # noqa: E402

RESULTS = REPO / "bench" / "results" / "pdf_ingest.jsonl"
CORPUS = ingest_bench.WORK / "pdf-corpus"
#: package → the PDFs it ships that go in (globs under the unpacked tree; one copy of each document)
PACKAGES: dict[str, list[str]] = {
    "c++-annotations-pdf": ["usr/share/doc/c++-annotations/cplusplus.pdf"],
    "gri-pdf-doc": ["usr/share/doc/gri/gri.pdf.gz"],
    "auto-multiple-choice-doc-pdf": ["usr/share/doc/auto-multiple-choice/auto-multiple-choice.*.pdf",
                                     "usr/share/doc/auto-multiple-choice/latex/*.pdf"],
    "docbook-xsl-doc-pdf": ["usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz"],
    "nettle-dev": ["usr/share/doc/nettle-dev/nettle.pdf.gz"],
}


def read_pdf(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def page_count(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(read_pdf(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def build_corpus(cache: Path = corpora.CACHE / "pdf", out: Path = CORPUS) -> tuple[Path, dict[str, int]]:
    """Fetch and unpack :data:`PACKAGES` into ``cache`` (once) and link their PDFs into ``out``;
    returns ``out`` and the page count of each file (relative path → pages)."""
    root = corpora.fetch(cache, PACKAGES)
    pages: dict[str, int] = {}
    for patterns in PACKAGES.values():
        for pattern in patterns:
            for src in sorted(root.glob(pattern)):
                dst = out / src.relative_to(root / "usr/share/doc")
                dst.parent.mkdir(parents=True, exist_ok=True)
                if not dst.exists():
                    os.symlink(src, dst)
                pages[str(dst.relative_to(out))] = page_count(src)
    return out, pages


def record(result: dict) -> None:
    ingest_bench.record(result, RESULTS)


def parse_only() -> None:
    """The parser alone in this process: CPU seconds, pages/s, headings and table rows per file."""
    from pipelines.parse import parse_bytes

    src, pages = build_corpus()
    files = []
    total_cpu = 0.0
    for rel, n in sorted(pages.items()):
        raw = read_pdf(src / rel)
        started = time.process_time()
        try:
            doc = parse_bytes(raw, path=rel, doc_id=rel, max_bytes=200_000_000)
            verdict = "ok"
        except Exception as exc:  # noqa: BLE001 - a refused file is a figure too
            doc, verdict = None, f"{type(exc).__name__}: {exc}"[:120]
        cpu = time.process_time() - started
        total_cpu += cpu
        rows = sum(1 for line in doc.text.splitlines() if " | " in line) if doc else 0
        files.append({"file": rel, "pages": n, "cpu_s": round(cpu, 2), "pages_per_cpu_s": round(n / cpu, 1),
                      "sections": len(doc.sections) - 1 if doc else 0, "table_rows": rows, "chars": len(doc.text) if doc else 0,
                      "verdict": verdict})
        print(files[-1], flush=True)
    n_pages = sum(pages.values())
    record({"bench": "pdf_parse", "files": len(files), "pages": n_pages, "parse_cpu_s": round(total_cpu, 1),
            "pages_per_cpu_s": round(n_pages / total_cpu, 1), "per_file": files})


def throughput() -> None:
    src, pages = build_corpus()
    n_pages = sum(pages.values())
    print(f"{src}: {len(pages)} PDFs, {n_pages} pages", flush=True)
    ingest_bench.throughput(0, given=src)
    row = json.loads(ingest_bench.RESULTS.read_text().splitlines()[-1])
    assert row["corpus"] == str(src), row["corpus"]
    by_process = row["pipeline_cpu_s_by_process"]
    box = by_process["box_busy"]  # the whole box's, other work included
    tree = round(sum(v for k, v in by_process.items() if not k.startswith("box_")), 1)  # the ingest's processes
    children = round(sum(v for k, v in by_process.items() if k.startswith("python")), 1)  # the PDF parser's children
    # the parse task's worker: titled ray::MapBatches(parse_chunk_batch) while it runs, ray::IDLE once its tasks
    # are done (the other Ray workers of an ingest, the embedding actors, keep their titles)
    tasks = round(sum(v for k, v in by_process.items() if k.startswith(("ray::MapBatches(parse_chunk", "ray::IDLE"))), 1)
    record({"bench": "pdf_ingest_throughput", "files": len(pages), "pages": n_pages,
            "corpus_tokens": row["corpus_tokens"], "chunks": row["chunks"],
            "pipeline_wall_s": row["pipeline_wall_s"], "pages_per_s": round(n_pages / row["pipeline_wall_s"], 2),
            "pipeline_tokens_per_s": row["pipeline_tokens_per_s"], "bound_tokens_per_s": row["bound_tokens_per_s"],
            "ratio_pipeline_over_bound": row["ratio_pipeline_over_bound"],
            "ratio_without_fixed_start": row["ratio_without_fixed_start"],
            "parse_chunk_one_process_s": row["parse_chunk_one_process_s"], "box_busy_cpu_s": box,
            "ingest_processes_cpu_s": tree, "parse_task_cpu_s": tasks, "pdf_child_processes_cpu_s": children,
            "parse_cpu_share": round((tasks + children) / tree, 3), "ingest_row_when": row["when"],
            "note": "2-core box shared with other work: timings noisy"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("corpus")
    sub.add_parser("parse")
    sub.add_parser("throughput")
    args = parser.parse_args()
    if args.cmd == "corpus":
        src, pages = build_corpus()
        print(f"{src}: {len(pages)} PDFs, {sum(pages.values())} pages")
        for rel, n in sorted(pages.items()):
            print(f"  {n:5d}  {rel}")
    elif args.cmd == "parse":
        parse_only()
    else:
        throughput()


if __name__ == "__main__":
    main()
