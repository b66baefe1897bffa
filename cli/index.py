"""Commands that write or inspect the index: ``strata ingest``, ``delete``, ``maintain``, ``stats``.

Each is a thin layer over :mod:`pipelines` and :mod:`cluster.store`; the single-writer lock is
taken by the library, never here.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from cli.common import config_of, tenant_option
from cluster.config import StrataConfig

INGEST_FAILED_EXIT = 3  # `strata ingest`'s status when files failed (beyond --max-failed-ratio)


def _ratio(_ctx, param, value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise click.BadParameter(f"{value}: a ratio between 0 and 1", param=param)
    return value


@click.command()
@click.argument("path", type=click.Path(exists=False))
@click.option("--source", default=None, help="source label for document ids (default: the absolute corpus path)")
@click.option("--prune", is_flag=True, help="delete documents of this source that no longer exist on disk")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, help="write the report as JSON")
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.option("--max-failed-ratio", type=float, default=0.0, show_default=True, callback=_ratio,
              help=f"the share of the files seen that may fail or be skipped and still exit 0 (above it: exit "
                   f"status {INGEST_FAILED_EXIT}); 0 = any failed file fails the command")
@tenant_option
@click.pass_context
def ingest(ctx: click.Context, path: str, source: str | None, prune: bool, report_path: str | None,
           no_progress: bool, max_failed_ratio: float, tenant: str) -> None:
    """Ingest a file or directory tree into a tenant's index (idempotent; resumes after a crash).

    Exit status: 0 when every file was ingested or unchanged (or the failed share is within
    --max-failed-ratio); 3 when files failed or were skipped, so a KubeRay RayJob or a CI step
    fails (the report is printed either way); 1 on an error; 2 on a usage error."""
    cfg = config_of(ctx)
    if no_progress:
        cfg.ingest.progress = False
    report = run_ingest_command(cfg, path, source=source, prune=prune, tenant=tenant)
    click.echo(report.summary())
    if report_path:
        Path(report_path).write_text(json.dumps(report.to_dict(), indent=2))
    if ingest_failed(report, max_failed_ratio):
        click.echo(f"strata ingest: {len(report.failed)} of {report.files_seen} file(s) failed or were skipped "
                   f"(allowed: {max_failed_ratio:.0%}); exit status {INGEST_FAILED_EXIT}", err=True)
        # the group's result callback (stop_ray) still runs, then exits with this status (cli/main.py)
        ctx.find_root().obj["exit_status"] = INGEST_FAILED_EXIT


def ingest_failed(report, max_failed_ratio: float = 0.0) -> bool:
    """Whether an ingest's failed (or skipped) files exceed the tolerated share of the files seen.

    >>> from pipelines.report import IngestReport
    >>> bad = IngestReport(files_seen=10, new=9, failed=[("x.bin", "binary", "NUL bytes")])
    >>> ingest_failed(bad), ingest_failed(bad, 0.1), ingest_failed(bad, 0.05), ingest_failed(IngestReport(files_seen=3))
    (True, False, True, False)
    """
    if not report.failed:
        return False
    return len(report.failed) > max_failed_ratio * max(report.files_seen, len(report.failed))


def run_ingest_command(cfg: StrataConfig, path: str, *, source: str | None, prune: bool, tenant: str = "default"):
    from cluster.runtime import init_ray, telemetry_env

    if not Path(path).exists():
        raise click.ClickException(f"corpus path does not exist: {path}")
    # Ray first, the ingest's own imports meanwhile (run_ingest then finds Ray started).
    init_ray(cfg.ray, env=telemetry_env(cfg), import_meanwhile=("pipelines.ingest",))
    from cluster.models.manifest import EmbedderMismatchError
    from pipelines.ingest import run_ingest

    try:
        return run_ingest(cfg, path, source=source, prune=prune, tenant=tenant)
    except (EmbedderMismatchError, FileNotFoundError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc


def _require_index(cfg: StrataConfig, tenant: str) -> None:
    """Refuse (rather than create an empty index) when ``tenant`` has no index: a mistyped name."""
    from cluster.store.lance_store import LanceStore
    from cluster.tenants import DEFAULT_TENANT, tenant_config

    storage = tenant_config(cfg, tenant).storage
    if not LanceStore.exists(storage):
        who = "" if tenant == DEFAULT_TENANT else f" of tenant {tenant!r}"
        raise click.ClickException(f"no index{who} at {storage.lance_location}: nothing to change")


@click.command()
@click.argument("doc_ids", nargs=-1)
@click.option("--path", "paths", multiple=True, help="relative path of a document (with --source)")
@click.option("--source", default=None, help="source label used at ingest (default: matches any source)")
@tenant_option
@click.pass_context
def delete(ctx: click.Context, doc_ids: tuple[str, ...], paths: tuple[str, ...], source: str | None,
           tenant: str) -> None:
    """Delete a tenant's documents (by id, or by --path) from LanceDB and the BM25 index."""
    from cluster.store.lance_store import sql_in
    from cluster.store.schema import DOCUMENTS
    from pipelines.delete import delete_documents
    from pipelines.ingest import open_index_for_write

    if not doc_ids and not paths:
        raise click.UsageError("give document ids or --path")
    _require_index(config_of(ctx), tenant)
    _, store, bm25 = open_index_for_write(config_of(ctx), tenant)
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


@click.command()
@tenant_option
@click.pass_context
def maintain(ctx: click.Context, tenant: str) -> None:
    """Compact fragments, build or refresh indexes, remove old table versions (schedule it, e.g. nightly)."""
    from pipelines.ingest import open_index_for_write

    _require_index(config_of(ctx), tenant)
    _, store, bm25 = open_index_for_write(config_of(ctx), tenant)
    try:
        bm25.open_writer()  # the single-writer lock: never maintain while an ingest is writing
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        for table, action in store.maintain(config_of(ctx).index).items():
            click.echo(f"{table}: {action}")
    finally:
        bm25.close_writer()


@click.command()
@tenant_option
@click.pass_context
def stats(ctx: click.Context, tenant: str) -> None:
    """Row, fragment and index statistics of a tenant's index (and the tenants that have one)."""
    from cluster.models.registry import resolve_embedder
    from cluster.store.bm25 import open_bm25
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS
    from cluster.tenants import list_tenants, tenant_config

    root = config_of(ctx)
    cfg = tenant_config(root, tenant)
    try:
        store = LanceStore.open(cfg.storage, dim=resolve_embedder(cfg.models).manifest.dim)
        bm25 = open_bm25(cfg.storage.bm25_path)
    except FileNotFoundError as exc:
        hint = "" if tenant == "default" else f" (tenant {tenant!r}: `strata ingest PATH --tenant {tenant}`)"
        raise click.ClickException(f"{exc}{hint}") from exc
    out = {name: store.stats(name).__dict__ for name in (DOCUMENTS, SECTIONS, CHUNKS)}
    out["bm25_docs"] = bm25.num_docs()
    out["bm25_shards"] = bm25.shards
    manifest = store.embedder_manifest()
    out["embedder"] = manifest.fingerprint if manifest else None
    out["vector_index"] = store.has_vector_index(CHUNKS)
    out["tenant"] = tenant
    out["tenants"] = list_tenants(root.storage)
    click.echo(json.dumps(out, indent=2))
