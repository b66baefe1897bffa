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
4. **Requests in flight** per key (``serve.max_in_flight_per_key``; without keys, per client address:
   ``serve.max_in_flight_per_client``) → **429**: requests that hold their ingress slot (a slow body, a
   long answer) cannot take all of ``serve.max_ongoing_requests``.
5. **Body size**: ``serve.max_body_bytes`` (``serve.max_upload_bytes`` for ``POST /v1/documents``) →
   **413**, from ``Content-Length`` at once, and counted while the body streams in (chunked bodies).
6. **Body time**: the whole body within ``serve.body_timeout_s`` of the request reaching the ingress
   (uploads: within ``serve.upload_timeout_s``, no chunk more than ``serve.body_timeout_s`` after the
   one before) → **408**, and the slot is freed. A body that declares 50 bytes and sends 10 holds a
   slot for seconds, not forever.

Two ``Authorization`` headers → **400** (a front proxy that checks one of them must not be bypassed by
the other).

``/healthz``, ``/readyz`` and the OpenAPI pages stay open. Buckets and in-flight counts live in
each ingress replica: with ``serve.ingress_replicas = n`` a key's effective rate is up to n × its rate.

>>> required_scope("POST", "/v1/search"), required_scope("DELETE", "/v1/documents/abc"), required_scope("GET", "/readyz")
('search', 'admin', None)
>>> bucket = TokenBucket(rate=1.0, burst=2.0, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[0, 0, 1, 0]
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from cluster.config import StrataConfig
from cluster.security.keys import KeyInfo, KeyStoreError, key_store
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


class BodyTimeout(HTTPException):
    """A request body that did not arrive in time (HTTP 408), raised while the body streams in."""

    def __init__(self, seconds: float, setting: str) -> None:
        super().__init__(408, f"the request body did not arrive within {seconds:g} s ({setting})")


class Refused(Exception):
    """A request refused before it reaches a route (status, message, headers)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


class Guard:
    """The per-replica state of the middleware: the key store, buckets, answers in flight."""

    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self.keys = key_store(cfg)  # serve.keys_file (a mounted Secret) or the index's own key file
        self.buckets: dict[str, TokenBucket] = {}
        self.answers: dict[str, int] = {}
        self.in_flight: dict[str, int] = {}

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
        _release(self.answers, key.id)

    def start_request(self, key: KeyInfo | None, client: str) -> str:
        """Count one more request in flight for ``key`` (without keys: for the ``client`` address); the
        returned holder goes back to :meth:`end_request`."""
        if key is not None:
            holder, limit, whose = key.id, self.cfg.serve.max_in_flight_per_key, "this API key (serve.max_in_flight_per_key)"
        else:
            holder, limit = f"client:{client}", self.cfg.serve.max_in_flight_per_client
            whose = "this client address (serve.max_in_flight_per_client)"
        if self.in_flight.get(holder, 0) >= limit:
            raise Refused(429, f"{limit} requests already in flight for {whose}; retry later", {"Retry-After": "1"})
        self.in_flight[holder] = self.in_flight.get(holder, 0) + 1
        return holder

    def end_request(self, holder: str) -> None:
        _release(self.in_flight, holder)


def _release(counts: dict[str, int], key_id: str) -> None:
    n = counts.get(key_id, 0) - 1
    if n > 0:
        counts[key_id] = n
    else:
        counts.pop(key_id, None)


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
        upload = method == "POST" and path.rstrip("/") == UPLOAD_PATH
        key: KeyInfo | None = None
        answer_slot = False
        holder: str | None = None  # who holds one of the in-flight slots (a key, or a client address)
        try:
            if guard.auth_on():
                if sum(1 for k, _ in scope["headers"] if k.lower() == b"authorization") > 1:
                    raise Refused(400, "send one Authorization header, not several")
                key = guard.authenticate(headers.get("authorization"), needed)
                guard.admit(key)
                state = scope.setdefault("state", {})
                state["tenant"], state["key_id"] = key.tenant, key.id
            limit, setting = ((guard.cfg.serve.max_upload_bytes, "serve.max_upload_bytes") if upload
                              else (guard.cfg.serve.max_body_bytes, "serve.max_body_bytes"))
            length = headers.get("content-length")
            if length is not None:
                if not length.strip().isdigit():
                    raise Refused(400, f"invalid Content-Length {length!r}")
                if int(length) > limit:
                    raise Refused(413, f"request body of {int(length)} bytes is over the limit of {limit} bytes "
                                       f"({setting})")
            client = scope.get("client")
            holder = guard.start_request(key, client[0] if client else "unknown")
            if key is not None and method == "POST" and path.rstrip("/") == "/v1/answer":
                guard.start_answer(key)
                answer_slot = True
        except Refused as exc:
            if holder is not None:
                guard.end_request(holder)
            await error_response(exc.status, exc.message, exc.headers)(scope, receive, send)
            return
        except KeyStoreError as exc:
            await error_response(503, f"API keys unavailable: {exc}")(scope, receive, send)
            return

        received = 0
        started = False
        body_done = False
        serve_cfg = guard.cfg.serve
        chunk_s = serve_cfg.body_timeout_s
        total_s, total_setting = ((serve_cfg.upload_timeout_s, "serve.upload_timeout_s") if upload
                                  else (serve_cfg.body_timeout_s, "serve.body_timeout_s"))
        deadline = time.monotonic() + total_s

        async def timed_receive():
            """The next body message, within the chunk and whole-body deadlines (408 beyond)."""
            nonlocal received, body_done
            if body_done:  # after the body: the server's disconnect notice, waited for as long as it takes
                return await receive()
            left = deadline - time.monotonic()
            by_chunk = chunk_s < left
            try:
                message = await asyncio.wait_for(receive(), timeout=chunk_s if by_chunk else max(left, 0.0))
            except asyncio.TimeoutError:
                raise (BodyTimeout(chunk_s, "serve.body_timeout_s") if by_chunk
                       else BodyTimeout(total_s, total_setting)) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit, setting)
                body_done = not message.get("more_body", False)
            else:
                body_done = True
            return message

        async def tracked_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, timed_receive, tracked_send)
        except (BodyTooLarge, BodyTimeout) as exc:  # raised outside a route's error handling (normally the route answers it)
            if started:
                raise
            await error_response(exc.status_code, exc.detail, _CLOSE)(scope, receive, send)
        finally:
            if answer_slot:
                guard.end_answer(key)
            if holder is not None:
                guard.end_request(holder)


_CLOSE = {"Connection": "close"}


def install_security(app: FastAPI) -> None:
    """Add :class:`SecurityMiddleware` and the 413/408 handlers for bodies that grow too large or too slow
    while read."""
    app.add_middleware(SecurityMiddleware)

    @app.exception_handler(BodyTimeout)
    async def _too_slow(_: Request, exc: BodyTimeout) -> JSONResponse:
        return error_response(408, exc.detail, _CLOSE)

    @app.exception_handler(BodyTooLarge)
    async def _too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
        return error_response(413, exc.detail)
