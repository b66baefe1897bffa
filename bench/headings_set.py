"""Build a BEIR retrieval set from a documentation tree: section headings as queries, each section's
own body (heading removed) as the relevant document.

A third evaluation set beside SciFact and business-reports, out of both domains: real
technical documentation (the LLVM 14 manual from Debian's ``llvm-14-doc`` package, reStructuredText).
Every section of every sampled file becomes a corpus document: its own body text, without its
heading and without a title, so a query never finds its own words in a header. A heading becomes
a query when it is unique in the sampled tree (a repeated "Syntax" or "Overview" has no single
answer), has at least two words or looks like an identifier (``llvm.memcpy``, ``-mattr``), and its
section body has at least ``--min-words`` words. Queries are split into ``dev`` (tuning) and
``test`` (held out) by sha1 of their id; ``all`` has both.

    apt-get download llvm-14-doc && dpkg-deb -x llvm-14-doc_*.deb /tmp/llvm
    python bench/headings_set.py /tmp/llvm/usr/share/doc/llvm-14-doc/html/_sources \\
        --files 160 --out ~/.cache/strata-bench/llvm-headings          # the benchmark's set
    python bench/headings_set.py … --files 40 --max-queries 80 --out bench/data/llvm-headings   # CI's slice

The LLVM documentation is under the Apache License 2.0 with LLVM exceptions.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.beir import split_queries  # noqa: E402
from pipelines.parse import ParseError, parse_bytes  # noqa: E402

SEED = "strata-headings-v1"
_WORD = re.compile(r"\w+")
_IDENTIFIER = re.compile(r"[._:/-]|[a-z][A-Z]|\d")


def _key(text: str) -> str:
    return hashlib.sha1(f"{SEED}\x1f{text}".encode()).hexdigest()


def _clean_heading(title: str) -> str:
    return " ".join(title.replace("``", "").replace("'", " ").replace('"', " ").split())


def sections_of(root: Path, files: int) -> list[dict]:
    """Every section with a body of the first ``files`` files in sha1 order (a stable sample)."""
    paths = sorted((p for p in root.rglob("*") if p.is_file() and p.name.endswith((".rst", ".rst.txt", ".rst.gz"))),
                   key=lambda p: _key(str(p.relative_to(root))))[:files]
    out = []
    for path in sorted(paths):
        rel = str(path.relative_to(root))
        try:
            doc = parse_bytes(path.read_bytes(), path=rel, doc_id=rel)
        except ParseError:
            continue
        for s in doc.sections:
            body = " ".join(s.text.split())
            if s.level == 0 or not body:
                continue
            stem = rel.removesuffix(".gz").removesuffix(".txt").removesuffix(".rst")
            out.append({"_id": f"{stem}#{s.ordinal}", "heading": _clean_heading(s.title), "text": body})
    return out


def eligible(section: dict, counts: Counter, min_words: int) -> bool:
    heading = section["heading"]
    words = _WORD.findall(heading)
    return (counts[heading.lower()] == 1 and len(heading) <= 120 and len(_WORD.findall(section["text"])) >= min_words
            and (len(words) >= 2 or bool(words and _IDENTIFIER.search(heading))))


def build(root: Path, out: Path, *, files: int, min_words: int, max_queries: int | None, test_fraction: float) -> dict:
    sections = sections_of(root, files)
    counts = Counter(s["heading"].lower() for s in sections)
    chosen = sorted((s for s in sections if eligible(s, counts, min_words)), key=lambda s: _key(s["_id"]))
    chosen = sorted(chosen[:max_queries] if max_queries else chosen, key=lambda s: s["_id"])
    queries = {f"h{_key(s['_id'])[:10]}": s for s in chosen}
    dev, test = split_queries(queries, test_fraction, seed=SEED)
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "corpus.jsonl.gz", "wt", encoding="utf-8") as fh:
        for s in sections:
            fh.write(json.dumps({"_id": s["_id"], "title": "", "text": s["text"]}) + "\n")
    (out / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": s["heading"]}) + "\n"
                                               for q, s in sorted(queries.items())))
    (out / "qrels").mkdir(exist_ok=True)
    for split, ids in (("dev", dev), ("test", test), ("all", sorted(queries))):
        (out / "qrels" / f"{split}.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
            f"{q}\t{queries[q]['_id']}\t1\n" for q in ids))
    words = sum(len(s["text"].split()) for s in sections)
    return {"files": files, "sections": len(sections), "words": words, "queries": len(queries), "dev": len(dev),
            "test": len(test)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="a folder of .rst/.rst.txt files (e.g. llvm-14-doc's html/_sources)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--files", type=int, default=160, help="files sampled (sha1 order)")
    ap.add_argument("--min-words", type=int, default=30, help="words a query's section body needs")
    ap.add_argument("--max-queries", type=int, default=None)
    ap.add_argument("--test-fraction", type=float, default=0.5, help="queries held out as the test split")
    args = ap.parse_args()
    stats = build(args.root, args.out, files=args.files, min_words=args.min_words, max_queries=args.max_queries,
                  test_fraction=args.test_fraction)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
