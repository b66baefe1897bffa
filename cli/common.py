"""What every ``strata`` command shares: the loaded configuration and log file of this invocation,
and option parsers.

>>> csv_of(int)(None, None, "10,20, 50")
(10, 20, 50)
"""

from __future__ import annotations

from pathlib import Path

import click

from cluster.config import StrataConfig


def config_of(ctx: click.Context) -> StrataConfig:
    """The configuration ``strata`` loaded (``--config``, ``--data-dir``, environment)."""
    return ctx.find_root().obj["config"]


def log_file_of(ctx: click.Context) -> Path | None:
    """The log file of this invocation (None before the configuration is loaded)."""
    root = ctx.find_root()
    return (root.obj or {}).get("log_file") if isinstance(root.obj, dict) else None


def _tenant(_ctx, param, value):
    from cluster.tenants import validate_tenant

    try:
        return validate_tenant(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param=param) from exc


def tenant_option(func):
    """``--tenant NAME``: the tenant whose index the command reads or writes (default: the default tenant)."""
    from cluster.tenants import DEFAULT_TENANT

    return click.option("--tenant", default=DEFAULT_TENANT, show_default=True, callback=_tenant,
                        help="the tenant whose index this acts on (each tenant's data is isolated)")(func)


def csv_of(kind: type):
    """A click callback parsing ``a,b,c`` into a tuple of ``kind`` (empty string → empty tuple)."""
    def parse(_ctx, param, value):
        if value is None:
            return None
        try:
            return tuple(kind(v.strip()) for v in value.split(",") if v.strip())
        except ValueError as exc:
            raise click.BadParameter(f"{value!r}: {exc}", param=param) from exc
    return parse
