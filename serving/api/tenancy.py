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

from cluster.tenants import DEFAULT_TENANT


def request_tenant(request: Any) -> str:
    """The tenant of ``request`` (set by the auth dependency), else the default tenant."""
    return getattr(request.state, "tenant", None) or DEFAULT_TENANT
