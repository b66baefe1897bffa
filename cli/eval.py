"""``strata eval``: retrieval and answer quality on judged data (the logic lives in :mod:`offline.eval`).
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import config_of, csv_of, tenant_option
from cluster import logs


@click.group("eval")
def eval_group() -> None:
    """Evaluate Strata on judged data (each subcommand's logic lives in offline/eval)."""


@eval_group.command("retrieval")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default=None, help="qrels/<split>.tsv (default: the only one, else test)")
@click.option("--queries-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="evaluate only these query ids (one a line, # comments), e.g. bench/data/scifact-heldout.txt")
@click.option("--max-queries", type=click.IntRange(1), default=None, help="the first N selected queries")
@click.option("--configs", default=None, callback=csv_of(str),
              help="comma-separated (default bm25,dense,hybrid-rrf,hybrid-linear,hybrid-adaptive,rerank,awareness,"
                   "default,default+rerank)")
@click.option("--top-k-sweep", default="10,20,50,100", show_default=True, callback=csv_of(int),
              help="top_k (= candidates) values swept per configuration; '' for none")
@click.option("--sweep-configs", default=None, callback=csv_of(str),
              help="configurations the top_k sweep runs (default: all)")
@click.option("--bm25-weights", default="", callback=csv_of(float), help="BM25 shares swept for the hybrid configurations")
@click.option("--budget", "context_budget", type=click.IntRange(16, 200_000), default=None,
              help="token budget of the awareness (/v1/context) configuration (default: awareness.budget_tokens)")
@click.option("--source", default=None, help="source label of the ingested corpus (default: BEIR_DIR's name)")
@click.option("--corpus-dir", type=click.Path(file_okay=False), default=None,
              help="where the corpus is written as Markdown (default: <data_dir>/beir/<source>/corpus)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="report directory (default: <data_dir>/eval/<source>-<split>)")
@click.option("--ingest/--no-ingest", default=True, show_default=True, help="ingest the corpus first (idempotent)")
@tenant_option
@click.pass_context
def eval_retrieval(ctx: click.Context, beir_dir: str, split: str | None, queries_file: str | None,
                   max_queries: int | None, configs: tuple[str, ...] | None, top_k_sweep: tuple[int, ...],
                   sweep_configs: tuple[str, ...] | None, bm25_weights: tuple[float, ...],
                   context_budget: int | None, source: str | None, corpus_dir: str | None, out_dir: str | None,
                   ingest: bool, tenant: str) -> None:
    """nDCG@10, recall@10/100, MRR@10 of each configuration on a BEIR directory (corpus.jsonl,
    queries.jsonl, qrels/*.tsv), through the serving code path; writes report.json/.md/.png."""
    from cluster.models.manifest import EmbedderMismatchError
    from offline.eval.retrieval_job import RetrievalJob, run_retrieval_job
    from serving.index.handle import IndexNotReady

    cfg = config_of(ctx)
    cfg.ingest.progress = False
    job = RetrievalJob(Path(beir_dir), split=split, queries_file=Path(queries_file) if queries_file else None,
                       max_queries=max_queries, configs=configs or None, top_k_sweep=top_k_sweep,
                       sweep_configs=sweep_configs or None,
                       bm25_weights=bm25_weights, out_dir=Path(out_dir) if out_dir else None, ingest=ingest,
                       source=source, corpus_dir=Path(corpus_dir) if corpus_dir else None, context_budget=context_budget,
                       tenant=tenant)
    try:
        _, paths = run_retrieval_job(cfg, job, progress=click.echo)
    except (EmbedderMismatchError, FileNotFoundError, IndexNotReady, ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo("report: " + ", ".join(str(p) for p in paths.values()))


@eval_group.command("answers")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="report directory (default: <data_dir>/eval/answers-<QA file name>)")
@click.option("--max-questions", type=click.IntRange(1), default=None, help="only the first N questions")
@click.option("--url", default=None, help="evaluate a running Strata Serve app (e.g. http://127.0.0.1:8000) "
              "instead of an in-process answer pipeline")
@tenant_option
@click.pass_context
def eval_answers(ctx: click.Context, qa_file: str, out_dir: str | None, max_questions: int | None,
                 url: str | None, tenant: str) -> None:
    """Answer a JSONL QA set with the LLM answer pipeline and score it: exact match, token F1, contains,
    citation precision, refusal accuracy, latency (format: offline/eval/qa_format.py); writes
    answers-report.json/.md."""
    from cluster.models.manifest import EmbedderMismatchError
    from offline.eval.answers_job import run_answer_eval
    from offline.eval.qa_format import QAFormatError
    from serving.index.handle import IndexNotReady

    if url is not None and tenant != "default":
        raise click.UsageError("--tenant applies in-process; a running app takes the tenant from the API key")
    if url is None and config_of(ctx).answer.writer_kind == "llm":
        logs.redirect_native_stderr()  # vLLM's engine process: its output into the log file
    try:
        report, paths = run_answer_eval(config_of(ctx), Path(qa_file), out_dir=Path(out_dir) if out_dir else None,
                                        max_questions=max_questions, progress=click.echo, url=url, tenant=tenant)
    except ImportError as exc:
        raise click.ClickException(f"the LLM answer pipeline is not available: {exc}") from exc
    except (QAFormatError, EmbedderMismatchError, FileNotFoundError, IndexNotReady, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    m = report.metrics
    fmt = lambda v: "—" if v is None else f"{v:.3f}"  # noqa: E731
    click.echo(f"exact match {fmt(m['exact_match'])}, token F1 {fmt(m['token_f1'])}, contains {fmt(m['contains'])}, "
               f"answer rate {fmt(m['answer_rate'])}, refusal accuracy {fmt(m['refusal_accuracy'])}, "
               f"citation precision {fmt(m['citation_precision'])}, latency p50 {fmt(m['latency_ms_p50'])} ms "
               f"p95 {fmt(m['latency_ms_p95'])} ms")
    if m.get("n_truncated") or m.get("n_errors"):
        click.echo(f"{m.get('n_truncated', 0)} question(s) over the question limit, asked truncated at a word "
                   f"boundary and scored; {m['n_errors']} error(s), scored 0; the report names each with its reason")
    click.echo("report: " + ", ".join(str(p) for p in paths.values()))
