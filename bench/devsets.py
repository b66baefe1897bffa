"""Build the judged dev sets of other kinds than SciFact, each as a BEIR directory with a ``tune`` and a
``test`` split (``qrels/tune.tsv``, ``qrels/test.tsv``, ``qrels/all.tsv``), split by sha1 of the query id.

Kinds (with the set each adds beside scifact, business-reports, arcd and llvm-headings):

* ``man-describe`` — **entity look-up by description**: the one-line descriptions of the Linux
  man-pages (Debian ``manpages`` + ``manpages-dev``: sections 2, 3, 5, 7, …) as queries ("copy memory
  area"), each page without its NAME section as the document. The page's name is not in the query
  and the query's words are not in a heading. ~1,900 pages.
* ``br-longq`` — **long queries**: three consecutive parts of a business report (~200 words) ask
  for the other parts of the same report; the query parts are taken out of the corpus. The relevance
  is topical, as in classic collections with long queries.
* ``business-reports-split`` and ``arcd-split`` — the shipped sets with a tune/test split of their
  queries (business-reports with the corrected judgments of bench/data/business-reports-qrels.tsv).

    apt-get download manpages manpages-dev && for f in manpages*.deb; do dpkg-deb -x $f /tmp/man; done
    python bench/devsets.py man-describe /tmp/man/usr/share/man --out ~/.cache/strata-bench/sets/man-describe
    python bench/devsets.py br-longq ../shared/data/business-reports --out ~/.cache/strata-bench/sets/br-longq
    python bench/devsets.py split ../shared/data/arcd --split test --out ~/.cache/strata-bench/sets/arcd

The man-pages are under several free licences (mostly the "verbatim" and GPL licences of the
man-pages project); only derived queries and judgments are kept outside the package.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import shutil
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.beir import load_beir, load_qrels, split_queries  # noqa: E402
from pipelines.parse import ParseError, parse_bytes  # noqa: E402

SEED = "strata-devsets-v1"
TEST_FRACTION = 0.5


def _key(text: str) -> str:
    return hashlib.sha1(f"{SEED}\x1f{text}".encode()).hexdigest()


def write_set(out: Path, corpus: dict[str, dict], queries: dict[str, str], qrels: dict[str, dict[str, int]],
              *, test_fraction: float = TEST_FRACTION) -> dict:
    """Write a BEIR directory with ``tune``/``test``/``all`` judgments; returns its counts."""
    tune, test = split_queries(qrels, test_fraction, seed=SEED)
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "corpus.jsonl.gz", "wt", encoding="utf-8") as fh:
        for doc_id in sorted(corpus):
            fh.write(json.dumps({"_id": doc_id, **corpus[doc_id]}, ensure_ascii=False) + "\n")
    (out / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": queries[q]}, ensure_ascii=False) + "\n"
                                               for q in sorted(qrels)), encoding="utf-8")
    (out / "qrels").mkdir(exist_ok=True)
    for split, ids in (("tune", tune), ("test", test), ("all", sorted(qrels))):
        (out / "qrels" / f"{split}.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
            f"{q}\t{d}\t{g}\n" for q in ids for d, g in sorted(qrels[q].items())))
    return {"docs": len(corpus), "queries": len(qrels), "tune": len(tune), "test": len(test)}


# -- man-describe ------------------------------------------------------------------------------------
_NAME_LINE = re.compile(r"^\s*(?P<names>[^\n]+?)\s+(?:\\?-|—|–)\s+(?P<what>.+?)\s*$")


def man_pages(root: Path) -> dict[str, dict]:
    """``{page id: {"description", "text"}}`` for every man page with a NAME section (``.so`` aliases and
    pages that fail to parse are skipped)."""
    pages = {}
    for path in sorted(root.glob("man*/*")):
        if not path.is_file() or path.is_symlink():  # a link is another name of a page already read
            continue
        raw = path.read_bytes()
        raw = gzip.decompress(raw) if path.suffix == ".gz" else raw
        if raw.lstrip().startswith(b".so "):
            continue
        rel = str(path.relative_to(root)).removesuffix(".gz")
        try:
            doc = parse_bytes(raw, path=rel, doc_id=rel)
        except ParseError:
            continue
        name = next((s for s in doc.sections if s.title.strip().upper() == "NAME"), None)
        if name is None:
            continue
        match = _NAME_LINE.match(" ".join(name.text.split()))
        if match is None:
            continue
        body = "\n\n".join(s.text for s in doc.sections if s is not name and s.level > 0 and s.text.strip())
        if len(body.split()) < 40:
            continue
        pages[rel] = {"description": match["what"].rstrip("."), "text": body}
    return pages


def build_man_describe(root: Path, out: Path) -> dict:
    pages = man_pages(root)
    by_description: dict[str, list[str]] = defaultdict(list)
    for page, row in pages.items():
        by_description[row["description"].lower()].append(page)
    corpus = {page: {"title": "", "text": row["text"]} for page, row in pages.items()}
    queries, qrels = {}, {}
    for page, row in pages.items():
        if len(by_description[row["description"].lower()]) > 1 or len(row["description"].split()) < 2:
            continue  # a description shared by several pages has no single answer
        qid = f"m{_key(page)[:10]}"
        queries[qid], qrels[qid] = row["description"], {page: 1}
    return write_set(out, corpus, queries, qrels)


# -- br-longq -----------------------------------------------------------------------------------------
_PART = re.compile(r"^(?P<report>.+)_chunk_(?P<n>\d+)$")


def build_br_longq(beir_dir: Path, out: Path, *, per_report: int = 2, window: int = 3) -> dict:
    """Each query is ``window`` consecutive parts of a report (~200 words: the parts are 50–80 words),
    taken out of the corpus; the report's other parts are relevant. ``per_report`` windows a report."""
    ds = load_beir(beir_dir, split="test")
    reports: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for doc_id in ds.corpus:
        m = _PART.match(doc_id)
        if m:
            reports[m["report"]].append((int(m["n"]), doc_id))
    corpus = {d: {"title": "", "text": ds.corpus[d].text} for d in ds.corpus}
    queries, qrels = {}, {}
    for report, numbered in sorted(reports.items()):
        parts = [d for _, d in sorted(numbered)]
        if len(parts) < window * per_report + 3:
            continue
        starts = sorted(range(0, len(parts) - window + 1, window), key=lambda i: _key(parts[i]))[:per_report]
        taken = []
        for i in starts:
            qid = f"l{_key(parts[i])[:10]}"
            queries[qid] = " ".join(ds.corpus[p].text for p in parts[i:i + window])
            taken += parts[i:i + window]
        for p in taken:
            corpus.pop(p)
        for i in starts:
            qrels[f"l{_key(parts[i])[:10]}"] = {p: 1 for p in parts if p in corpus}
    return write_set(out, corpus, queries, qrels)


# -- split of a shipped set -----------------------------------------------------------------------------
def build_split(beir_dir: Path, out: Path, *, split: str, qrels_file: Path | None) -> dict:
    ds = load_beir(beir_dir, split=split)
    qrels = load_qrels(qrels_file) if qrels_file else ds.qrels
    qrels = {q: r for q, r in qrels.items() if q in ds.queries and any(v > 0 for v in r.values())}
    corpus = {d: {"title": doc.title, "text": doc.text} for d, doc in ds.corpus.items()}
    return write_set(out, corpus, {q: ds.queries[q] for q in qrels}, qrels)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["man-describe", "br-longq", "split"])
    ap.add_argument("source", type=Path, help="man root (usr/share/man) or a BEIR directory")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--split", default="test", help="split: the shipped qrels to read")
    ap.add_argument("--qrels", type=Path, default=None, help="split: judgments replacing the shipped ones")
    args = ap.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    if args.kind == "man-describe":
        stats = build_man_describe(args.source, args.out)
    elif args.kind == "br-longq":
        stats = build_br_longq(args.source, args.out)
    else:
        stats = build_split(args.source, args.out, split=args.split, qrels_file=args.qrels)
    print(json.dumps({"set": args.out.name, **stats}))


if __name__ == "__main__":
    main()
