"""Awareness on long manuals: does ``/v1/context`` with awareness hold the evidence a plain pack misses?

    .venv/bin/python bench/longdoc_awareness_bench.py                       # fetch, ingest if needed, run
    .venv/bin/python bench/longdoc_awareness_bench.py --skip-ingest --split tune
    .venv/bin/python bench/longdoc_awareness_bench.py --check               # evidence spans vs the index

1. **Corpus**: four long Debian manuals, each one file (≈ 280k tokens in all), of three kinds —
   plain text whose headings are numbered lines with underlines (``debian-policy.txt``, the
   Developer's Reference), plain text whose headings are numbered questions with no underline (the
   Debian FAQ), and a man page rendered to HTML whose long sections (``SHELL BUILTIN COMMANDS``,
   ``Shell Variables``) have no heading markup inside (``bash.html``). ``apt-get download`` of
   :data:`PACKAGES` into ``--cache``, unpacked with ``dpkg-deb -x``, copied into ``<work>/corpus``.
2. **Questions** (``bench/data/longdoc-questions.jsonl``, 65, written by hand): each has one evidence
   span deep in one manual, worded unlike its section (the question paraphrases; the section's
   heading and the span share few words), split ``tune`` / ``test`` alternately per manual. A pack
   **holds** the evidence when a passage of that document contains the span (case and whitespace
   ignored, :func:`offline.eval.evidence.piece_found`).
3. **Configurations**, through the in-process ``SearchPipeline`` (the code of ``POST /v1/context``;
   product defaults, cross-encoder off as in every bench), every question at every budget:
   ``no-awareness`` (``awareness=false``: ranked hybrid hits fill the budget) and ``awareness``
   (``awareness=true``), ``top_k`` high enough that the budget binds both.

Prints evidence held per split and document and appends one JSON line per (configuration, budget,
split) to ``bench/results/longdoc-awareness.jsonl``.

``--corpus filings`` runs the same on the six blind-written SEC filings of ``bench/filings_heldout`` (10-K, 10-Q
and a credit agreement as PDF; a Workiva 10-K, a proxy statement and an 8-K as HTML) with the answerable
questions of ``bench/data/answers-filings-{tune,test}.jsonl`` (analyst questions written without running the
product; split by document). A figure's evidence is often only its row label ("Net sales"), so there a pack
holds the evidence only when the passage with the label also holds a gold answer ("1,184,207").

    .venv/bin/python bench/longdoc_awareness_bench.py --corpus filings --budgets 500,1000,2000
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.awareness_bench import add_awareness_option, awareness_overrides  # noqa: E402

from offline.eval.evidence import locate  # noqa: E402
from offline.eval.qa_format import Evidence, QAFormatError  # noqa: E402

QUESTIONS = REPO / "bench" / "data" / "longdoc-questions.jsonl"
RESULTS = REPO / "bench" / "results" / "longdoc-awareness.jsonl"
WORK = Path.home() / ".cache" / "strata-bench" / "longdoc"
CACHE = Path.home() / ".cache" / "strata-bench" / "debian-longdoc"
SOURCE = "longdoc-bench"
TOP_K = 60
# corpus file → (Debian package, path in the unpacked package; ``.gz`` is decompressed)
PACKAGES: dict[str, tuple[str, str]] = {
    "debian-policy.txt": ("debian-policy", "usr/share/doc/debian-policy/policy.txt.gz"),
    "developers-reference.txt": ("developers-reference",
                                 "usr/share/developers-reference/developers-reference.txt.gz"),
    "debian-faq.txt": ("debian-faq", "usr/share/doc/debian/FAQ/debian-faq.en.txt.gz"),
    "bash.html": ("bash-doc", "usr/share/doc/bash/bash.html"),
}


@dataclass(frozen=True, slots=True)
class LongDocQuestion:
    id: str
    split: str
    question: str
    evidence: Evidence
    answers: tuple[str, ...] = ()  # held only with one of these in the evidence's passage (when given)


FILINGS_QA = {"tune": REPO / "bench" / "data" / "answers-filings-tune.jsonl",
              "test": REPO / "bench" / "data" / "answers-filings-test.jsonl"}
FILINGS_WORK = Path.home() / ".cache" / "strata-bench" / "filings-context"


def filing_questions() -> list[LongDocQuestion]:
    """The answerable questions of the filings QA sets with their first evidence piece and gold answers.

    >>> qs = filing_questions()
    >>> len(qs) >= 30, {q.split for q in qs} == {"tune", "test"}, all(q.answers for q in qs)
    (True, True, True)
    """
    from offline.eval.qa_format import load_qa

    return [LongDocQuestion(e.id, split, e.question, e.evidence[0], tuple(e.answers))
            for split, path in FILINGS_QA.items() for e in load_qa(path) if e.answerable and e.evidence]


def build_filings(out: Path) -> int:
    """The six held-out filings written into ``out``."""
    sys.path.insert(0, str(REPO / "bench" / "filings_heldout"))
    import heldout

    out.mkdir(parents=True, exist_ok=True)
    docs = heldout.documents()
    for name, raw, _ in docs:
        if not (out / name).is_file() or (out / name).read_bytes() != raw:
            (out / name).write_bytes(raw)
    return len(docs)


def held_in(q: LongDocQuestion, passages: list) -> bool:
    """Whether a passage of the question's document holds its evidence (and, when it has gold answers, one of
    them in that same passage: a row label alone is not the figure; a verdict is in no passage).

    >>> from types import SimpleNamespace as P
    >>> q = LongDocQuestion("q", "tune", "Did it buy back shares?", Evidence("a.pdf", None, "we repurchased"),
    ...                     ("Yes", "yes, 612,480 shares for $27.9 million"))
    >>> held_in(q, [P(path="a.pdf", section_path="", text="In 2024 we repurchased 612,480 shares.")])
    True
    >>> figure = LongDocQuestion("q", "tune", "How many shares?", Evidence("a.pdf", None, "we repurchased"), ("612,480",))
    >>> held_in(figure, [P(path="a.pdf", section_path="", text="In 2024 we repurchased shares.")])
    False
    """
    from offline.eval.evidence import normalize_text, piece_in

    found = [p for p in passages if piece_in(q.evidence, p)]
    # a verdict ("Yes", or "no, it has never paid cash dividends" with its reason) is in no passage
    golds = [normalize_text(a) for a in q.answers if not re.match(r"(?:yes|no)\b", a.casefold())]
    if not golds:
        return bool(found)
    return any(g in normalize_text(getattr(p, "text", "") or "") for p in found for g in golds)


def load_questions(path: Path = QUESTIONS) -> list[LongDocQuestion]:
    """The question file: ``{"id", "split": "tune"|"test", "question", "evidence": [{"document", "text"}]}``
    per line (``#`` lines skipped).

    >>> qs = load_questions()
    >>> len(qs) >= 50, {q.split for q in qs} == {"tune", "test"}
    (True, True)
    """
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        obj = json.loads(line)
        if obj.get("split") not in ("tune", "test") or len(obj.get("evidence", ())) != 1:
            raise QAFormatError(f"{path}:{number}: needs split tune|test and exactly one evidence piece")
        e = obj["evidence"][0]
        out.append(LongDocQuestion(obj["id"], obj["split"], obj["question"],
                                   Evidence(e["document"], e.get("section"), e["text"])))
    return out


def build_corpus(out: Path, cache: Path = CACHE) -> int:
    """Download and unpack :data:`PACKAGES` once into ``cache``; copy the manuals into ``out``."""
    root = cache / "root"
    cache.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    for name, (package, inner) in PACKAGES.items():
        src = root / inner
        if not src.is_file():
            if not list(cache.glob(f"{package}_*.deb")):
                subprocess.run(["apt-get", "download", "-q", package], cwd=cache, check=True)
            subprocess.run(["dpkg-deb", "-x", str(sorted(cache.glob(f"{package}_*.deb"))[-1]), str(root)], check=True)
        data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
        dst = out / name
        if not dst.is_file() or dst.read_bytes() != data:
            dst.write_bytes(data)
    return len(PACKAGES)


def check(cfg, questions: list[LongDocQuestion]) -> list[str]:
    """Questions whose evidence span is not inside one chunk of its document in the index."""
    from cluster.store.schema import CHUNKS
    from serving.index.view import IndexView

    chunks = IndexView.open(cfg).store.table(CHUNKS).to_arrow().select(["path", "section_path", "text"]).to_pylist()
    return [f"{q.id}: {q.evidence.text!r} not in one chunk of {q.evidence.document}"
            for q in questions if not locate(q.evidence, chunks)]


def sections_per_document(cfg) -> dict[str, dict]:
    """Sections and their depth per indexed document (how much hierarchy awareness has to walk)."""
    from cluster.store.schema import DOCUMENTS, SECTIONS
    from serving.index.view import IndexView

    store = IndexView.open(cfg).store
    paths = dict(zip(*store.table(DOCUMENTS).to_arrow().select(["doc_id", "path"]).to_pydict().values()))
    out: dict[str, dict] = {}
    for r in store.table(SECTIONS).to_arrow().select(["doc_id", "path"]).to_pylist():
        d = out.setdefault(paths.get(r["doc_id"], r["doc_id"]), {"sections": 0, "max_depth": 0})
        d["sections"] += 1
        d["max_depth"] = max(d["max_depth"], len(r["path"] or ()))
    return out


def run(pipeline, questions: list[LongDocQuestion], budget: int, awareness: bool, top_k: int) -> list[dict]:
    from serving.protocol import ContextRequest

    rows = []
    for q in questions:
        r = pipeline.context(ContextRequest(query=q.question, top_k=top_k, budget_tokens=budget,
                                            awareness=awareness, use_cache=False))
        rows.append({"id": q.id, "split": q.split, "document": q.evidence.document,
                     "held": held_in(q, r.passages), "used_tokens": r.used_tokens})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", choices=("manuals", "filings"), default="manuals",
                    help="the four long Debian manuals, or the six held-out SEC filings with the filings QA sets")
    ap.add_argument("--work", type=Path, default=None, help="corpus copy + index (storage.data_dir)")
    ap.add_argument("--questions", type=Path, default=QUESTIONS)
    ap.add_argument("--budgets", default="1000,2000,4000")
    ap.add_argument("--split", choices=("tune", "test", "all"), default="all")
    ap.add_argument("--top-k", type=int, default=TOP_K)
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--check", action="store_true", help="only check the evidence spans against the index")
    ap.add_argument("--no-record", action="store_true")
    ap.add_argument("--label", default="", help="a note stored with the result rows")
    add_awareness_option(ap)
    args = ap.parse_args(argv)
    from cluster.config import scripted_config
    from offline.eval.retrieval_job import ingest_corpus
    from serving.services.local import SearchPipeline

    filings = args.corpus == "filings"
    work = (args.work or (FILINGS_WORK if filings else WORK)).expanduser()
    cfg = scripted_config(work, **awareness_overrides(args))
    ingest = None
    if not args.skip_ingest:
        built = build_filings(work / "corpus") if filings else build_corpus(work / "corpus")
        print(f"{built} documents → {work / 'corpus'}; ingesting …", flush=True)
        ingest = ingest_corpus(cfg, work / "corpus", SOURCE)
        print(ingest, flush=True)
    pool = filing_questions() if filings else load_questions(args.questions)
    questions = [q for q in pool if args.split in ("all", q.split)]
    problems = check(cfg, questions)
    if problems:
        print("evidence not in the index:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    structure = sections_per_document(cfg)
    print(f"{len(questions)} questions; sections per document: {structure}")
    if args.check:
        return 0
    pipe = SearchPipeline(cfg)
    budgets = [int(b) for b in args.budgets.split(",")]
    rows: dict[tuple[str, int], list[dict]] = {}
    for budget in budgets:
        for name, awareness in (("no-awareness", False), ("awareness", True)):
            t0 = time.perf_counter()
            rows[(name, budget)] = run(pipe, questions, budget, awareness, args.top_k)
            print(f"  {name} @ {budget}: {time.perf_counter() - t0:.1f}s", flush=True)
    splits = sorted({q.split for q in questions}, reverse=True)
    documents = sorted({q.evidence.document for q in questions})

    def held(rs: list[dict]) -> float:
        return statistics.fmean(r["held"] for r in rs) if rs else float("nan")

    print("\nevidence held: no-awareness → awareness (Δ)")
    for split in splits:
        for b in budgets:
            plain = [r for r in rows[("no-awareness", b)] if r["split"] == split]
            aware = [r for r in rows[("awareness", b)] if r["split"] == split]
            per_doc = "; ".join(f"{d.split('.')[0]} {held([r for r in plain if r['document'] == d]):.2f}→"
                                f"{held([r for r in aware if r['document'] == d]):.2f}" for d in documents)
            print(f"{split:>5} @ {b:>5}: {held(plain):.3f} → {held(aware):.3f} ({held(aware) - held(plain):+.3f})"
                  f"  [{per_doc}]")
    if not args.no_record:
        when = time.strftime("%Y-%m-%dT%H:%M:%S")
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        with RESULTS.open("a", encoding="utf-8") as fh:
            for (name, b), rs in rows.items():
                for split in splits:
                    part = [r for r in rs if r["split"] == split]
                    fh.write(json.dumps({
                        "bench": "longdoc-awareness", "when": when, "commit": commit, "label": args.label,
                        "corpus": args.corpus,
                        "config": name, "budget": b, "split": split, "top_k": args.top_k, "questions": len(part),
                        "held": round(held(part), 4),
                        "by_document": {d: round(held([r for r in part if r["document"] == d]), 4) for d in documents},
                        "used_tokens": round(statistics.fmean(r["used_tokens"] for r in part), 1),
                        "awareness_settings": cfg.awareness.model_dump(), "sections": structure, "ingest": ingest,
                        "per_question": {r["id"]: r["held"] for r in part}}) + "\n")
        print(f"appended {len(rows) * len(splits)} lines to {RESULTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
