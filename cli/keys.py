"""``strata keys``: API keys for the HTTP API (create, list, revoke).

    strata keys create --tenant acme --scope search,answer [--rate 5] [--json]
    strata keys list [--json]
    strata keys revoke 3f9c0a1b2d4e

The key is printed once, by ``create``; the index's storage keeps only a salted hash
(:mod:`cluster.security.keys`). Serve replicas on the same storage see new keys and revocations
within about a second, without a restart.
"""

from __future__ import annotations

import json

import click

from cli.common import config_of


def _store(ctx: click.Context):
    from cluster.security.keys import key_store

    return key_store(config_of(ctx))


@click.group("keys")
def keys_group() -> None:
    """API keys for the HTTP API (stored hashed in the index's storage)."""


@keys_group.command("create")
@click.option("--tenant", required=True, help="the tenant the key acts for (lowercase letters, digits, - and _)")
@click.option("--scope", "scopes", required=True,
              help="comma-separated: search (search, context, documents, sections), answer, admin (uploads, "
                   "deletes; implies search and answer)")
@click.option("--rate", type=click.FloatRange(min=0, min_open=True), default=None,
              help="requests/s for this key (default: serve.rate_limit_per_s)")
@click.option("--json", "as_json", is_flag=True, help='print {"id", "key", "tenant", "scopes", "rate"}')
@click.pass_context
def create(ctx: click.Context, tenant: str, scopes: str, rate: float | None, as_json: bool) -> None:
    """Create a key and print it (once: only its hash is stored)."""
    from cluster.security.keys import KeyStoreError

    try:
        info, key = _store(ctx).create(tenant, scopes, rate=rate)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    except (KeyStoreError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps({"id": info.id, "key": key, "tenant": info.tenant, "scopes": list(info.scopes),
                               "rate": info.rate}))
        return
    rate_text = f"{info.rate:g}/s" if info.rate is not None else "serve.rate_limit_per_s"
    click.echo(f"created key {info.id} for tenant {info.tenant} (scopes: {','.join(info.scopes)}; rate: {rate_text})")
    click.echo(key)
    click.echo("Store it now: it is not shown again. Send it as 'Authorization: Bearer <key>'.", err=True)


@keys_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def list_keys(ctx: click.Context, as_json: bool) -> None:
    """The keys (ids, tenants, scopes, rates, dates; never secrets)."""
    from cluster.security.keys import KeyStoreError

    try:
        keys = _store(ctx).list()
    except KeyStoreError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps([k.public() for k in keys], indent=2))
        return
    if not keys:
        click.echo("no API keys (the HTTP API is open unless serve.auth = \"required\")")
        return
    for k in keys:
        state = f"revoked {k.revoked_at}" if k.revoked else "active"
        rate = f"{k.rate:g}/s" if k.rate is not None else "default rate"
        click.echo(f"{k.id}  tenant={k.tenant}  scopes={','.join(k.scopes)}  {rate}  created {k.created_at}  {state}")


@keys_group.command("revoke")
@click.argument("key_id")
@click.pass_context
def revoke(ctx: click.Context, key_id: str) -> None:
    """Revoke a key by its id (running replicas refuse it within about a second)."""
    from cluster.security.keys import KeyStoreError

    try:
        info = _store(ctx).revoke(key_id)
    except KeyError:
        raise click.ClickException(f"no API key with id {key_id!r} (see `strata keys list`)") from None
    except (KeyStoreError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"revoked key {info.id} (tenant {info.tenant}) at {info.revoked_at}")
