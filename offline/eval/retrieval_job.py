"""``strata eval retrieval`` end to end: load a BEIR directory, pick the judged queries, write the
corpus as Markdown files and ingest them with the normal pipeline (idempotent), evaluate the
configurations and sweeps (:mod:`offline.eval.retrieval`), write the report (:mod:`.report`).

    job = RetrievalJob(Path("../shared/data/scifact"), split="train",
                       queries_file=Path("bench/data/scifact-heldout.txt"))
    evaluation, paths = run_retrieval_job(load_config(), job, progress=print)

Layout under ``storage.data_dir``: corpus files in ``<data_dir>/beir/<source>/corpus`` (override
with ``corpus_dir``), report in ``<data_dir>/eval/<source>-<split>`` (override with ``out_dir``).
The documents are ingested with the source label ``source`` (default: the data set directory's
name), and only hits of that label map back to corpus ids.

Real data has documents the pipeline cannot index (empty, binary …) and queries over the query
limit: the job evaluates what it can and says what it left out (:mod:`offline.eval.left_out`). A
corpus document not in the index afterwards is listed with the ingest's reason; a query over
``retrieval.max_query_chars`` is truncated at a word boundary and evaluated; a query with no text,
or whose judged documents were all left out, is not evaluated. The metrics are over the evaluated
queries; ``dataset["left_out"]`` of the report holds the counts and every item with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cluster.config import StrataConfig
from offline.eval.beir import BeirDataset, corpus_paths, load_beir, read_id_list, write_corpus_files
from offline.eval.configs import resolve_configs
from offline.eval.left_out import describe_left_out, documents_left_out, failure_reasons, plan_queries
from offline.eval.metrics import judged_queries
from offline.eval.report import write_report
from offline.eval.retrieval import (
    BASE_REQUEST,
    DocumentMap,
    PipelinePool,
    Progress,
    RetrievalEvaluation,
    Sweep,
    evaluate_retrieval,
)

__all__ = ["DEFAULT_TOP_K_SWEEP", "RetrievalJob", "ingest_corpus", "run_retrieval_job", "select_queries"]

DEFAULT_TOP_K_SWEEP = (10, 20, 50, 100)


@dataclass
class RetrievalJob:
    """What ``strata eval retrieval`` was asked (see the module docstring for defaults)."""

    beir_dir: Path
    split: str | None = None
    queries_file: Path | None = None
    query_ids: Sequence[str] | None = None
    max_queries: int | None = None
    configs: Sequence[str] | None = None
    top_k_sweep: Sequence[int] = DEFAULT_TOP_K_SWEEP
    sweep_configs: Sequence[str] | None = None
    bm25_weights: Sequence[float] = ()
    out_dir: Path | None = None
    ingest: bool = True
    source: str | None = None
    corpus_dir: Path | None = None
    context_budget: int | None = None
    base_request: dict[str, Any] | None = None
    tenant: str = "default"  # whose index the corpus is ingested into and evaluated on

    def source_label(self) -> str:
        return self.source or Path(self.beir_dir).resolve().name

    def corpus_location(self, cfg: StrataConfig) -> Path:
        default = Path(cfg.storage.data_dir) / "beir" / self.source_label() / "corpus"
        return Path(self.corpus_dir or default).expanduser()


def select_queries(ds: BeirDataset, wanted: Sequence[str] | None = None, max_queries: int | None = None, *,
                   origin: str = "the given ids") -> list[str]:
    """The evaluated query ids: judged ones (a relevant document in the split's qrels), in
    ``wanted`` order when given (an id not judged in this split is an error), else sorted; the
    first ``max_queries`` of them."""
    judged = judged_queries(ds.qrels)
    if wanted is not None:
        known = set(judged)
        missing = [q for q in wanted if q not in known]
        if missing:
            raise ValueError(f"{len(missing)} of {origin} have no relevant judgment in the "
                             f"{ds.split} split (first: {missing[:5]})")
        ids = list(dict.fromkeys(wanted))
    else:
        ids = judged
    no_text = [q for q in ids if q not in ds.queries]
    if no_text:
        raise ValueError(f"{len(no_text)} judged queries are missing from queries.jsonl (first: {no_text[:5]})")
    return ids[:max_queries] if max_queries is not None else ids


def ingest_corpus(cfg: StrataConfig, corpus_dir: Path, source: str, tenant: str = "default", *,
                  keep_going: bool = False) -> dict[str, Any]:
    """Ingest ``corpus_dir`` into ``tenant``'s index with the normal pipeline (idempotent: unchanged files
    are skipped); an embedded Ray started here is shut down afterwards. A summary dict.

    A file that fails to ingest raises ``RuntimeError``, unless ``keep_going``: then the summary's
    ``failed`` lists each such file as ``[path, reason, detail]`` and the rest is ingested."""
    from pipelines.ingest import ingest_complete

    report = ingest_complete(cfg, corpus_dir, source=source, tenant=tenant, keep_going=keep_going)
    return {"new": report.new, "updated": report.updated, "unchanged": report.unchanged,
            "chunks_written": report.chunks, "elapsed_s": round(report.elapsed_s, 1), "totals": report.totals,
            "failed": [list(f) for f in report.failed]}


def indexed_paths(cfg: StrataConfig, source: str, tenant: str = "default") -> list[str]:
    """The paths of ``tenant``'s indexed documents with the source label ``source``."""
    from cluster.store.lance_store import sql_in
    from cluster.store.schema import DOCUMENTS
    from serving.index.handle import IndexHandle

    view = IndexHandle(cfg).get(tenant)
    return view.store.scan(DOCUMENTS, ["path"], where=sql_in("source", [source])).column("path").to_pylist()


def run_retrieval_job(cfg: StrataConfig, job: RetrievalJob, *, progress: Progress | None = None,
                      write: bool = True) -> tuple[RetrievalEvaluation, dict[str, Path]]:
    """Prepare, ingest (``job.ingest``), evaluate and write the report; ``(evaluation, paths)``."""
    say = progress or (lambda _line: None)
    configs = resolve_configs(job.configs)
    swept = None if job.sweep_configs is None else [c.name for c in resolve_configs(job.sweep_configs)]
    ds = load_beir(job.beir_dir, split=job.split)
    if job.queries_file is not None:
        wanted, origin = read_id_list(job.queries_file), f"the ids in {job.queries_file}"
    else:
        wanted, origin = job.query_ids, "the given query ids"
    ids = select_queries(ds, wanted, job.max_queries, origin=origin)
    source = job.source_label()
    ingest_summary = None
    failures: dict[str, tuple[str, str]] = {}
    if job.ingest:
        corpus_dir = job.corpus_location(cfg)
        mapping = write_corpus_files(ds.corpus, corpus_dir)
        say(f"corpus: {len(mapping)} files in {corpus_dir}; ingesting into {cfg.storage.data_dir} (source {source!r})")
        ingest_summary = ingest_corpus(cfg, corpus_dir, source, job.tenant, keep_going=True)
        failures = failure_reasons(ingest_summary["failed"], corpus_dir)
        say(f"ingest: {ingest_summary['new']} new, {ingest_summary['updated']} updated, "
            f"{ingest_summary['unchanged']} unchanged, {len(ingest_summary['failed'])} failed "
            f"({ingest_summary['elapsed_s']}s)")
    else:
        mapping = corpus_paths(ds.corpus)
    left_docs = documents_left_out(mapping, indexed_paths(cfg, source, job.tenant), failures, ingested=job.ingest)
    limit = cfg.retrieval.max_query_chars
    plan = plan_queries({q: ds.queries[q] for q in ids}, {q: ds.qrels[q] for q in ids}, limit=limit,
                        left_out_docs=left_docs)
    left_out = {"counts": {"corpus_docs": len(ds.corpus), "documents_indexed": len(ds.corpus) - len(left_docs),
                           "documents_left_out": len(left_docs), **plan.counts()},
                "query_limit": limit, "documents": list(left_docs.values()), "queries_truncated": plan.truncated,
                "queries_skipped_empty": plan.skipped_empty,
                "queries_judged_documents_left_out": plan.judged_left_out,
                "queries_some_judged_documents_left_out": plan.partly_left_out}
    for line in describe_left_out(left_out, len(ds.corpus)):
        say(line)
    dataset = {"name": Path(job.beir_dir).resolve().name, "path": str(job.beir_dir), "split": ds.split,
               "source": source, "corpus_docs": len(ds.corpus),
               "queries_file": str(job.queries_file) if job.queries_file else None,
               "max_queries": job.max_queries, "ingest": ingest_summary, "tenant": job.tenant,
               "queries_selected": len(ids), "left_out": left_out}
    if not plan.queries:
        raise ValueError(f"none of the {len(ids)} selected queries can be evaluated: "
                         + "; ".join(describe_left_out(left_out, len(ds.corpus))))
    ids = list(plan.queries)
    say(f"evaluating {len(ids)} queries × {len(configs)} configurations"
        + (f", top_k sweep {list(job.top_k_sweep)}" if job.top_k_sweep else "")
        + (f", bm25_weight sweep {list(job.bm25_weights)}" if job.bm25_weights else ""))
    pool = PipelinePool(cfg, tenant=job.tenant)
    try:
        evaluation = evaluate_retrieval(
            pool, plan.queries, plan.qrels, configs,
            DocumentMap(mapping, source),
            sweep=Sweep(top_k=tuple(job.top_k_sweep), bm25_weights=tuple(job.bm25_weights), configs=swept),
            base_request=job.base_request or BASE_REQUEST, context_budget=job.context_budget, dataset=dataset,
            progress=say)
    finally:
        pool.close()
    paths: dict[str, Path] = {}
    if write:
        name = f"{source}-{ds.split}" + ("" if job.tenant == "default" else f"-{job.tenant}")
        out = Path(job.out_dir or Path(cfg.storage.data_dir) / "eval" / name).expanduser()
        paths = write_report(evaluation, out)
    return evaluation, paths
