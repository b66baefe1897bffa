"""Tenant names: the namespace every document, section, chunk and BM25 posting belongs to.

A request's tenant comes from its API key (``serving.api.auth``); the CLI takes ``--tenant``.
Without either, everything is in :data:`DEFAULT_TENANT`, so the embedded default needs no setup.

**Each tenant has its own index** (README, "Tenants"): its own LanceDB tables (``documents``,
``sections``, ``chunks``, ``meta``, ``embed_cache``), tantivy directory and ingest journal. The
default tenant's index is where the index has always been (``storage.data_dir``: an index written
before tenants existed *is* the default tenant's, unchanged); tenant ``T``'s lives under
``<data_dir>/tenants/T`` (``<lance_uri>/tenants/T`` for the tables on object storage). Every reader
and writer opens the index of one tenant (:func:`tenant_config`), so no query can reach another
tenant's rows: there is no shared table to forget a filter on.

>>> validate_tenant("acme-eu")
'acme-eu'
>>> validate_tenant("Bad Name")
Traceback (most recent call last):
...
ValueError: tenant 'Bad Name': use 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit
>>> from cluster.config import StorageConfig
>>> s = tenant_storage(StorageConfig(data_dir="/idx"), "acme")
>>> s.lance_location, str(s.bm25_path), str(s.journal_path)
('/idx/tenants/acme/lance', '/idx/tenants/acme/bm25', '/idx/tenants/acme/ingest-journal.json')
>>> tenant_storage(StorageConfig(data_dir="/idx", lance_uri="s3://b/strata/"), "acme").lance_location
's3://b/strata/tenants/acme'
>>> tenant_storage(StorageConfig(data_dir="/idx"), DEFAULT_TENANT).lance_location
'/idx/lance'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cluster.config import StorageConfig, StrataConfig

DEFAULT_TENANT = "default"
TENANTS_DIR = "tenants"
_TENANT = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")


def validate_tenant(name: str) -> str:
    """``name`` if it is a valid tenant name, else ``ValueError`` saying what is allowed."""
    if not isinstance(name, str) or not _TENANT.fullmatch(name):
        raise ValueError(f"tenant {name!r}: use 1-63 lowercase letters, digits, '-' or '_', "
                         "starting with a letter or digit")
    return name


def tenant_storage(storage: "StorageConfig", tenant: str) -> "StorageConfig":
    """Where ``tenant``'s index lives: ``storage`` itself for the default tenant, else a copy pointing
    under ``<data_dir>/tenants/<tenant>`` (and ``<lance_uri>/tenants/<tenant>``,
    ``<bm25_dir>-tenants/<tenant>`` when those are set). The name is validated first, so it can never
    name a path outside the tenants directory."""
    validate_tenant(tenant)
    if tenant == DEFAULT_TENANT:
        return storage
    update: dict = {"data_dir": Path(storage.data_dir) / TENANTS_DIR / tenant}
    if storage.lance_uri is not None:
        update["lance_uri"] = f"{storage.lance_uri.rstrip('/')}/{TENANTS_DIR}/{tenant}"
    if storage.bm25_dir is not None:
        bm25 = Path(storage.bm25_dir)
        update["bm25_dir"] = bm25.with_name(bm25.name + "-" + TENANTS_DIR) / tenant
    return storage.model_copy(update=update)


def tenant_config(cfg: "StrataConfig", tenant: str) -> "StrataConfig":
    """``cfg`` with its storage pointing at ``tenant``'s index (the same object for the default tenant)."""
    storage = tenant_storage(cfg.storage, tenant)
    return cfg if storage is cfg.storage else cfg.model_copy(update={"storage": storage})


def list_tenants(storage: "StorageConfig") -> list[str]:
    """Tenants with an index directory on the writer's filesystem (``<data_dir>/tenants/*``), plus the
    default tenant; sorted."""
    root = Path(storage.data_dir) / TENANTS_DIR
    found = {p.name for p in root.iterdir() if p.is_dir() and _TENANT.fullmatch(p.name)} if root.is_dir() else set()
    return sorted(found | {DEFAULT_TENANT})
