"""API keys, per-key limits and request-size limits of the HTTP API: one ASGI middleware,
:class:`SecurityMiddleware`, in front of every route (before the body is read).

For a request under ``/v1/``, in this order:

1. **Authentication** when keys are on (``serve.auth = "required"``, or ``"auto"`` once the index's
   key file holds a key): ``Authorization: Bearer sk_strata_…``; none, malformed, unknown or revoked
   → **401** with ``WWW-Authenticate: Bearer``; a key without the route's scope (:func:`required_scope`)
   → **403**. The key's tenant and id go to ``request.state.tenant`` / ``request.state.key_id``, which
   :func:`serving.api.tenancy.request_tenant` reads. Without keys, nothing is set (the default tenant).
2. **Rate** (keys only): a token bucket per key — ``rate`` requests/s (the key's ``--rate``, else
   ``serve.rate_limit_per_s``; 0 = unlimited), bursts of ``max(1, 2 × rate)`` — else **429** with
   ``Retry-After`` (whole seconds, ≥ 1).
3. **Answers in flight** per key on ``/v1/answer`` (``answer.max_concurrent_per_key``) → **429**.
4. **Body size**: ``serve.max_body_bytes`` (``serve.max_upload_bytes`` for ``POST /v1/documents``) →
   **413**, from ``Content-Length`` at once, and counted while the body streams in (chunked bodies).

``/healthz``, ``/readyz`` and the OpenAPI pages stay open. Buckets and in-flight counts live in
each ingress replica: with ``serve.ingress_replicas = n`` a key's effective rate is up to n × its rate.

>>> required_scope("POST", "/v1/search"), required_scope("DELETE", "/v1/documents/abc"), required_scope("GET", "/readyz")
('search', 'admin', None)
>>> bucket = TokenBucket(rate=1.0, burst=2.0, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[0, 0, 1, 0]
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from cluster.config import StrataConfig
from cluster.security.keys import KeyInfo, KeyStore, KeyStoreError
from cluster.telemetry.metrics import query_metrics

# (method, path pattern, scope); the first match wins. Any other /v1 route needs "admin" (fail closed).
_SCOPES: list[tuple[str, re.Pattern, str]] = [
    ("POST", re.compile(r"/v1/(search|context)"), "search"),
    ("GET", re.compile(r"/v1/documents(/[^/]+)?"), "search"),
    ("GET", re.compile(r"/v1/sections/[^/]+"), "search"),
    ("POST", re.compile(r"/v1/answer"), "answer"),
    ("POST", re.compile(r"/v1/documents"), "admin"),
    ("DELETE", re.compile(r"/v1/documents/[^/]+"), "admin"),
    ("GET", re.compile(r"/v1/ingests(/[^/]+)?"), "admin"),
]
UPLOAD_PATH = "/v1/documents"
_REALM = 'Bearer realm="strata"'


def required_scope(method: str, path: str) -> str | None:
    """The scope a request needs: None outside ``/v1`` (health, readiness, OpenAPI docs)."""
    if not (path == "/v1" or path.startswith("/v1/")):
        return None
    method = "GET" if method == "HEAD" else method
    for m, pattern, scope in _SCOPES:
        if m == method and pattern.fullmatch(path.rstrip("/") or "/"):
            return scope
    return "admin"


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` answers 0 (admitted) or the seconds to wait."""

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0
        return max(1, math.ceil((1.0 - self.tokens) / self.rate))


class BodyTooLarge(HTTPException):
    """A request body over its limit (HTTP 413), raised while the body streams in."""

    def __init__(self, limit: int, setting: str) -> None:
        super().__init__(413, f"request body larger than {limit} bytes ({setting})")


class Refused(Exception):
    """A request refused before it reaches a route (status, message, headers)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


class Guard:
    """The per-replica state of the middleware: the key store, buckets, answers in flight."""

    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self.keys = KeyStore(cfg.storage.data_dir)
        self.buckets: dict[str, TokenBucket] = {}
        self.answers: dict[str, int] = {}

    def auth_on(self) -> bool:
        return self.cfg.serve.auth == "required" or self.keys.has_keys()

    def authenticate(self, authorization: str | None, scope: str) -> KeyInfo:
        if not authorization:
            raise Refused(401, 'an API key is required: send "Authorization: Bearer <key>"', {"WWW-Authenticate": _REALM})
        kind, _, token = authorization.strip().partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            raise Refused(401, 'use "Authorization: Bearer <key>"', {"WWW-Authenticate": _REALM})
        key = self.keys.verify(token.strip())
        if key is None:
            raise Refused(401, "invalid or revoked API key",
                          {"WWW-Authenticate": f'{_REALM}, error="invalid_token"'})
        if not key.allows(scope):
            raise Refused(403, f'this API key lacks the "{scope}" scope (it has: {", ".join(key.scopes)})',
                          {"WWW-Authenticate": f'{_REALM}, error="insufficient_scope", scope="{scope}"'})
        return key

    def admit(self, key: KeyInfo) -> None:
        rate = key.rate if key.rate is not None else self.cfg.serve.rate_limit_per_s
        if not rate:
            return
        bucket = self.buckets.get(key.id)
        if bucket is None or bucket.rate != rate:
            bucket = self.buckets[key.id] = TokenBucket(rate, max(1.0, 2.0 * rate))
        wait = bucket.take()
        if wait:
            raise Refused(429, f"rate limit of {rate:g} requests/s for this API key exceeded; retry in {wait} s",
                          {"Retry-After": str(wait)})

    def start_answer(self, key: KeyInfo) -> None:
        limit = self.cfg.answer.max_concurrent_per_key
        if self.answers.get(key.id, 0) >= limit:
            retry = self.cfg.answer.retry_after_s
            raise Refused(429, f"{limit} answers already in flight for this API key (answer.max_concurrent_per_key); "
                               "retry later", {"Retry-After": str(retry)})
        self.answers[key.id] = self.answers.get(key.id, 0) + 1

    def end_answer(self, key: KeyInfo) -> None:
        n = self.answers.get(key.id, 0) - 1
        if n > 0:
            self.answers[key.id] = n
        else:
            self.answers.pop(key.id, None)


def guard_of(app: Any) -> Guard | None:
    """The app's :class:`Guard` (made from the attached service's configuration on first use)."""
    state = app.state
    guard = getattr(state, "guard", None)
    if guard is None:
        service = getattr(state, "service", None)
        if service is None:
            return None
        guard = state.guard = Guard(service.cfg)
    return guard


def error_response(status: int, message: str, headers: dict[str, str] | None = None,
                   detail: object | None = None) -> JSONResponse:
    """The API's JSON error body (``{"error", "detail"}``), counted like the routes' errors."""
    metrics = query_metrics()
    if metrics is not None:
        metrics.errors.inc(tags={"status": str(status)})
    return JSONResponse(status_code=status, content={"error": message, "detail": detail}, headers=headers)


def _route_path(scope: dict) -> str:
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root):len(root) + 1] in ("", "/"):
        path = path[len(root):] or "/"
    return path


class SecurityMiddleware:
    """Pure ASGI middleware (see the module docstring); streaming responses pass through untouched."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = _route_path(scope), scope["method"]
        needed = required_scope(method, path)
        if needed is None:
            await self.app(scope, receive, send)
            return
        guard = guard_of(scope["app"])
        if guard is None:
            await error_response(503, "not ready: the query service is starting")(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        key: KeyInfo | None = None
        try:
            if guard.auth_on():
                key = guard.authenticate(headers.get("authorization"), needed)
                guard.admit(key)
                state = scope.setdefault("state", {})
                state["tenant"], state["key_id"] = key.tenant, key.id
            limit, setting = ((guard.cfg.serve.max_upload_bytes, "serve.max_upload_bytes")
                              if method == "POST" and path.rstrip("/") == UPLOAD_PATH
                              else (guard.cfg.serve.max_body_bytes, "serve.max_body_bytes"))
            length = headers.get("content-length")
            if length is not None:
                if not length.strip().isdigit():
                    raise Refused(400, f"invalid Content-Length {length!r}")
                if int(length) > limit:
                    raise Refused(413, f"request body of {int(length)} bytes is over the limit of {limit} bytes "
                                       f"({setting})")
            answer_slot = key is not None and method == "POST" and path.rstrip("/") == "/v1/answer"
            if answer_slot:
                guard.start_answer(key)
        except Refused as exc:
            await error_response(exc.status, exc.message, exc.headers)(scope, receive, send)
            return
        except KeyStoreError as exc:
            await error_response(503, f"API keys unavailable: {exc}")(scope, receive, send)
            return

        received = 0
        started = False

        async def counted_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit, setting)
            return message

        async def tracked_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except BodyTooLarge as exc:  # raised outside a route's error handling (normally the route answers it)
            if started:
                raise
            await error_response(413, exc.detail)(scope, receive, send)
        finally:
            if answer_slot:
                guard.end_answer(key)


def install_security(app: FastAPI) -> None:
    """Add :class:`SecurityMiddleware` and the 413 handler for bodies that grow too large while read."""
    app.add_middleware(SecurityMiddleware)

    @app.exception_handler(BodyTooLarge)
    async def _too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
        return error_response(413, exc.detail)
