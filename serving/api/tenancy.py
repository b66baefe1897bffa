"""The tenant a request acts for.

The auth dependency (``serving.api.auth``) stores the caller's key on ``request.state``; every
handler that reads or writes the index asks :func:`request_tenant` and passes the answer down, so
no handler can forget the tenant filter. Without auth (the embedded default) it is
:data:`~cluster.tenants.DEFAULT_TENANT`.

>>> from types import SimpleNamespace
>>> request_tenant(SimpleNamespace(state=SimpleNamespace()))
'default'
>>> request_tenant(SimpleNamespace(state=SimpleNamespace(tenant="acme")))
'acme'
"""

from __future__ import annotations

from typing import Any

from fastapi import Security
from fastapi.security import HTTPBearer

from cluster.tenants import DEFAULT_TENANT

#: The API key as the OpenAPI document declares it (``components.securitySchemes.HTTPBearer``, on every
#: ``/v1`` operation), so clients and generated SDKs send ``Authorization: Bearer <key>``. The check itself
#: is :class:`serving.api.auth.SecurityMiddleware`'s, before any route runs; this only documents it.
API_KEY = HTTPBearer(auto_error=False, description="an API key (`strata keys create`): `sk_strata_…`; "
                                                   "needed once the index has keys (serve.auth)")
SECURED = [Security(API_KEY)]


def request_tenant(request: Any) -> str:
    """The tenant of ``request`` (set by the auth dependency), else the default tenant."""
    return getattr(request.state, "tenant", None) or DEFAULT_TENANT
