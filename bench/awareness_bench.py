"""Awareness benchmark: evidence recall of ``/v1/context`` with and without awareness expansion.

    flock /tmp/strata-ray.lock .venv/bin/python bench/awareness_bench.py            # ingest if needed, run
    flock /tmp/strata-ray.lock .venv/bin/python bench/awareness_bench.py --budgets 500,1000,2000,4000
    .venv/bin/python bench/awareness_bench.py --skip-ingest --top-k 8    # /v1/context's default hit count
    .venv/bin/python bench/awareness_bench.py --skip-ingest --ablations  # expansion parts switched off one by one
    .venv/bin/python bench/awareness_bench.py --skip-ingest --check      # check the questions against the index

1. **Corpus**: real multi-section Debian documentation — the bundled ``samples/corpus`` plus the
   documents in :data:`DEBIAN_DOCS` (Python HOWTOs, Linux admin-guide pages, Perl PODs,
   PostgreSQL chapters) linked from the unpacked packages of ``bench/corpora.py`` (``apt-get
   download``) into ``<work>/corpus``; ingested with the normal pipeline (embedded Ray) into
   ``<work>`` (default ``~/.cache/strata-bench/awareness``). Ingest is idempotent.
2. **Questions** (``bench/data/awareness-questions.jsonl``, format in
   :mod:`offline.eval.context_recall`): each needs two pieces of evidence in two distant sections of
   one document or in two documents; a piece counts as found when its short evidence text appears
   in a passage of its document in the pack.
3. **Configurations**, every question at every budget, through the in-process ``SearchPipeline``
   (the code of ``POST /v1/context``; ``mode=auto``, no cache), ``top_k`` large enough that the
   token budget, not the hit count, bounds every pack (equal budgets *and* equal used tokens):

   * ``single-query`` — no awareness: the question retrieved as one query (decomposition off,
     ``awareness.max_targets=1``), ranked hybrid hits fill the budget (a naive RAG context);
   * ``decomposed`` — the awareness analysis only: each sub-question (target) retrieved on its own
     and merged round-robin, ranked hits fill the budget, no expansion (``awareness=false``);
   * ``awareness`` — the whole awareness path (``awareness=true``): decomposition, then hits, the
     section tier, neighbourhoods, parent/sibling summaries (the configured ``awareness.*``).

Prints a table (mean evidence recall, both-pieces-found rate, used tokens; awareness ÷ single-query
and awareness ÷ decomposed) and
appends one JSON line per configuration and budget (with per-question recall) to
``bench/results/awareness.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.context_recall import EvidenceQuestion, load_questions, score_pack, summarize_runs  # noqa: E402
from offline.eval.evidence import locate  # noqa: E402
from offline.eval.retrieval_job import ingest_corpus  # noqa: E402

from bench.corpora import CACHE as DEBIAN_CACHE  # noqa: E402

QUESTIONS = REPO / "bench" / "data" / "awareness-questions.jsonl"
RESULTS = REPO / "bench" / "results" / "awareness.jsonl"
SAMPLES = REPO / "samples" / "corpus"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench")) / "awareness"
SOURCE = "awareness-bench"
TOP_K = 60
# --ablations: the awareness configuration with one part of the expansion switched off
ABLATIONS: dict[str, dict] = {
    "awareness-no-tier": {"section_top_k": 0},
    "awareness-no-neighbours": {"window": 0},
    "awareness-no-summaries": {"parents": False, "siblings": False},
}

_PY = "usr/share/doc/python3.11/html/_sources/howto"
_LINUX = "usr/share/doc/linux-doc-6.1/Documentation/admin-guide"
_PG = "usr/share/doc/postgresql-doc-15/html"
# path in the bench corpus → glob under the unpacked Debian packages (bench/corpora.py)
DEBIAN_DOCS: dict[str, str] = {
    "python-howto/logging.rst.txt": f"{_PY}/logging.rst.txt",
    "python-howto/sorting.rst.txt": f"{_PY}/sorting.rst.txt",
    "python-howto/regex.rst.txt": f"{_PY}/regex.rst.txt",
    "python-howto/unicode.rst.txt": f"{_PY}/unicode.rst.txt",
    "python-howto/sockets.rst.txt": f"{_PY}/sockets.rst.txt",
    "linux-admin-guide/module-signing.rst.gz": f"{_LINUX}/module-signing.rst.gz",
    "linux-admin-guide/lockup-watchdogs.rst.gz": f"{_LINUX}/lockup-watchdogs.rst.gz",
    "linux-admin-guide/md.rst.gz": f"{_LINUX}/md.rst.gz",
    "linux-admin-guide/sysfs-rules.rst.gz": f"{_LINUX}/sysfs-rules.rst.gz",
    "linux-admin-guide/bootconfig.rst.gz": f"{_LINUX}/bootconfig.rst.gz",
    "perl/perlunifaq.pod": "usr/share/perl/*/pod/perlunifaq.pod",
    "perl/perlrequick.pod": "usr/share/perl/*/pod/perlrequick.pod",
    "postgresql/routine-vacuuming.html": f"{_PG}/routine-vacuuming.html",
    "postgresql/transaction-iso.html": f"{_PG}/transaction-iso.html",
    "postgresql/sql-vacuum.html": f"{_PG}/sql-vacuum.html",
}


def build_corpus(out: Path, cache: Path = DEBIAN_CACHE) -> int:
    """Link ``samples/corpus`` and :data:`DEBIAN_DOCS` into ``out`` (fetching the packages if needed)."""
    from bench.corpora import fetch

    root = cache / "root"
    if not all(any(root.glob(pattern)) for pattern in DEBIAN_DOCS.values()):
        root = fetch(cache)
    links = {p.relative_to(SAMPLES).as_posix(): p for p in SAMPLES.rglob("*") if p.is_file()}
    for rel, pattern in DEBIAN_DOCS.items():
        matches = sorted(root.glob(pattern))
        if not matches:
            raise FileNotFoundError(f"{pattern} not found under {root}")
        links[rel] = matches[-1]
    for rel, src in links.items():
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() and dst.resolve() == src.resolve():
            continue
        if dst.exists() or dst.is_symlink():
            dst.unlink()
        dst.symlink_to(src.resolve())
    return len(links)


def add_awareness_option(ap: argparse.ArgumentParser) -> None:
    """``--awareness KEY=VALUE`` (repeatable): an ``awareness.*`` setting for this run (a JSON value)."""
    ap.add_argument("--awareness", action="append", default=[], metavar="KEY=VALUE",
                    help="override an awareness.* setting (JSON value), e.g. --awareness expansion_max_tokens=800")


def awareness_overrides(args: argparse.Namespace) -> dict:
    """The ``scripted_config`` keyword arguments of ``--awareness`` (none given: none).

    >>> awareness_overrides(argparse.Namespace(awareness=["window=0", 'mode="section"']))
    {'awareness': {'window': 0, 'mode': 'section'}}
    """
    overrides = {k: json.loads(v) for k, _, v in (a.partition("=") for a in args.awareness)}
    return {"awareness": overrides} if overrides else {}


def make_config(work: Path, **overrides):
    """The bench's config: the cross-encoder is off in every configuration (the comparison is about
    what fills the pack; the reranker would cost ~2 s of CPU per sub-question here)."""
    from cluster.config import scripted_config

    return scripted_config(work, **overrides)


def check_questions(cfg, questions: list[EvidenceQuestion]) -> list[str]:
    """Problems: evidence texts that are not in their document's section in the index."""
    from cluster.store.schema import CHUNKS
    from serving.index.view import IndexView

    chunks = IndexView.open(cfg).store.table(CHUNKS).to_arrow().select(["path", "section_path", "text"]).to_pylist()
    problems = []
    for q in questions:
        for piece in q.evidence:
            if not locate(piece, chunks):
                problems.append(f"{q.id}: {piece.document} / {piece.section!r}: text {piece.text!r} not found")
    return problems


def run_config(pipeline, questions: list[EvidenceQuestion], name: str, budget: int, awareness: bool,
               top_k: int = TOP_K) -> list[dict]:
    from serving.protocol import ContextRequest

    rows = []
    for q in questions:
        t0 = time.perf_counter()
        response = pipeline.context(ContextRequest(query=q.question, top_k=top_k, budget_tokens=budget,
                                                   awareness=awareness, use_cache=False))
        recall, all_found = score_pack(q, response.passages)
        rows.append({"config": name, "budget": budget, "id": q.id, "kind": q.kind, "recall": recall,
                     "all_found": all_found, "used_tokens": response.used_tokens, "route": response.route.route,
                     "targets": len(response.route.targets), "ms": (time.perf_counter() - t0) * 1000})
    return rows


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "inf"


def print_table(summary: dict, budgets: list[int], configs: list[str], kinds_summary: dict) -> None:
    head = f"{'budget':>6} | " + " | ".join(f"{c:>22}" for c in configs) + \
        " | awareness ÷ single-query | awareness ÷ decomposed"
    print("\nevidence recall / both pieces found / mean used tokens")
    print(head)
    print("-" * len(head))
    for b in budgets:
        cells = []
        for c in configs:
            s = summary[(c, b)]
            cells.append(f"{s['recall']:.3f} / {s['all_found']:.3f} / {s['used_tokens']:5.0f}")
        aware, single, decomposed = summary[("awareness", b)], summary[("single-query", b)], summary[("decomposed", b)]
        print(f"{b:>6} | " + " | ".join(f"{x:>22}" for x in cells) +
              f" | {_ratio(aware['recall'], single['recall']):>5}, {_ratio(aware['all_found'], single['all_found']):>5}"
              f"           | {_ratio(aware['recall'], decomposed['recall']):>5}, "
              f"{_ratio(aware['all_found'], decomposed['all_found']):>5}")
    for kind, by_kind in kinds_summary.items():
        print(f"\n{kind} (recall): " + "; ".join(
            f"{b}: " + " / ".join(f"{by_kind[(c, b)]['recall']:.3f}" for c in configs) for b in budgets))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=WORK, help="corpus links + index (storage.data_dir)")
    ap.add_argument("--questions", type=Path, default=QUESTIONS)
    ap.add_argument("--budgets", default="500,1000,2000", help="comma-separated token budgets")
    ap.add_argument("--top-k", type=int, default=TOP_K,
                    help="direct hits seeding every pack (default: enough that the budget binds; /v1/context's own "
                         "default is 8)")
    ap.add_argument("--ablations", action="store_true", help=f"also run {', '.join(ABLATIONS)}")
    ap.add_argument("--skip-ingest", action="store_true", help="use the existing index as is")
    ap.add_argument("--check", action="store_true", help="only check that every evidence text is in the index")
    ap.add_argument("--no-record", action="store_true", help=f"do not append to {RESULTS.relative_to(REPO)}")
    add_awareness_option(ap)
    args = ap.parse_args(argv)

    work = args.work.expanduser()
    questions = load_questions(args.questions)
    budgets = [int(b) for b in args.budgets.split(",") if b.strip()]
    cfg = make_config(work, **awareness_overrides(args))
    ingest_summary = None
    if not args.skip_ingest:
        n = build_corpus(work / "corpus")
        print(f"corpus: {n} documents linked into {work / 'corpus'}; ingesting …", flush=True)
        ingest_summary = ingest_corpus(cfg, work / "corpus", SOURCE)
        print(ingest_summary, flush=True)
    problems = check_questions(cfg, questions)
    if problems:
        print("questions that do not fit the index:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"{len(questions)} questions, {sum(len(q.evidence) for q in questions)} evidence pieces: all in the index")
    if args.check:
        return 0

    from serving.services.local import SearchPipeline

    shared = SearchPipeline(cfg)
    pipelines = {"single-query": (SearchPipeline(make_config(work, awareness={"max_targets": 1})), False),
                 "decomposed": (shared, False), "awareness": (shared, True)}
    if args.ablations:
        for name, overrides in ABLATIONS.items():
            pipelines[name] = (SearchPipeline(make_config(work, awareness=overrides)), True)
    rows: list[dict] = []
    for budget in budgets:
        for name, (pipeline, awareness) in pipelines.items():
            t0 = time.perf_counter()
            rows += run_config(pipeline, questions, name, budget, awareness, args.top_k)
            print(f"  {name} @ {budget}: {time.perf_counter() - t0:.1f}s", flush=True)
    configs = list(pipelines)
    summary = summarize_runs(rows)
    kinds = sorted({q.kind for q in questions})
    by_kind = {k: summarize_runs([r for r in rows if r["kind"] == k]) for k in kinds}
    print_table(summary, budgets, configs, by_kind)

    if not args.no_record:
        run_id, when, commit = uuid.uuid4().hex[:12], time.strftime("%Y-%m-%dT%H:%M:%S"), _git_commit()
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with RESULTS.open("a", encoding="utf-8") as fh:
            for (name, budget), s in summary.items():
                per_q = [r for r in rows if r["config"] == name and r["budget"] == budget]
                fh.write(json.dumps({
                    "bench": "awareness", "run_id": run_id, "when": when, "commit": commit,
                    "questions_file": str(args.questions.resolve().relative_to(REPO)) if args.questions.resolve()
                    .is_relative_to(REPO) else str(args.questions), "questions": len(questions),
                    "config": name, "budget": budget, "top_k": args.top_k,
                    "awareness_settings": cfg.awareness.model_dump(), "retrieval_fusion": cfg.retrieval.fusion,
                    "metrics": {k: round(v, 4) for k, v in s.items()},
                    "by_kind": {k: {m: round(v, 4) for m, v in by_kind[k][(name, budget)].items()} for k in kinds},
                    "ingest": ingest_summary, "cpus": os.cpu_count(), "python": platform.python_version(),
                    "per_question": {r["id"]: {"recall": r["recall"], "used_tokens": r["used_tokens"],
                                               "route": r["route"], "targets": r["targets"]} for r in per_q},
                }) + "\n")
        print(f"\nappended {len(summary)} lines to {RESULTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
