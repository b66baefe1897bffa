"""OpenTelemetry tracing: one tracer provider per process, exporter chosen by config.

Spans are always recorded (cheap); they are exported only with ``telemetry.otel_exporter``
set to ``console`` or ``otlp`` (the ``otlp`` extra). Ray worker processes configure themselves
from the ``STRATA_TELEMETRY__*`` environment on first use.

The service name, highest first: ``$OTEL_SERVICE_NAME``, then ``service.name`` in
``$OTEL_RESOURCE_ATTRIBUTES``, then ``telemetry.service_name`` (default ``strata``); the other
``$OTEL_RESOURCE_ATTRIBUTES`` are kept on every span, and the OTLP exporter reads its own ``OTEL_EXPORTER_OTLP_*``
variables (endpoint, headers) unless ``telemetry.otlp_endpoint`` is set. An HTTP request's W3C
``traceparent`` (and ``tracestate``, ``baggage``; ``$OTEL_PROPAGATORS``) becomes the parent of the spans
it starts (:class:`TraceContextMiddleware`), and that context travels with every call to another Serve
deployment: the caller passes ``trace_carrier=trace_carrier()``, the deployment's method is wrapped by
:func:`traced_call`, and its ``serve.<Deployment>.<method>`` span (with every span opened under it) joins the
request's trace. Only while spans are exported; with ``otel_exporter = "none"`` nothing is carried.

>>> with span("ingest.parse", files=3):
...     pass
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
from collections.abc import Callable, Iterator
from typing import Any

from opentelemetry import context, propagate, trace
from opentelemetry.sdk.resources import OTELResourceDetector, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

from cluster.config import TelemetryConfig

_configured = False
_carry = False  # spans are exported (telemetry.otel_exporter != "none"): deployment calls carry the trace context


def setup_tracing(settings: TelemetryConfig | None = None) -> None:
    """Install the tracer provider for this process (idempotent)."""
    global _configured, _carry
    if _configured:
        return
    if settings is None:
        settings = TelemetryConfig(
            otel_exporter=os.environ.get("STRATA_TELEMETRY__OTEL_EXPORTER", "none"),  # type: ignore[arg-type]
            otlp_endpoint=os.environ.get("STRATA_TELEMETRY__OTLP_ENDPOINT"),
            service_name=os.environ.get("STRATA_TELEMETRY__SERVICE_NAME") or TelemetryConfig().service_name,
        )
    provider = TracerProvider(resource=resource_of(settings))
    if settings.otel_exporter == "console":
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    elif settings.otel_exporter == "otlp":
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError as exc:
            raise RuntimeError("telemetry.otel_exporter=otlp needs the 'otlp' extra: pip install 'strata[otlp]'") from exc
        kwargs = {"endpoint": settings.otlp_endpoint} if settings.otlp_endpoint else {}
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(**kwargs)))
    trace.set_tracer_provider(provider)
    _carry = settings.otel_exporter != "none"
    _configured = True


def resource_of(settings: TelemetryConfig) -> Resource:
    """The spans' resource: ``$OTEL_RESOURCE_ATTRIBUTES`` and ``$OTEL_SERVICE_NAME`` win over
    ``telemetry.service_name``, which names the service when neither does.

    >>> resource_of(TelemetryConfig()).attributes["service.name"]
    'strata'
    """
    from_env = OTELResourceDetector().detect().attributes  # OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME
    return Resource.create({} if from_env.get("service.name") else {"service.name": settings.service_name})


class TraceContextMiddleware:
    """ASGI middleware: the trace context of an incoming request (W3C ``traceparent``/``tracestate`` and
    ``baggage`` headers, or what ``$OTEL_PROPAGATORS`` names) is current while the request is handled, so
    the spans it starts (``query.search``, ``answer``) are children of the caller's span."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http":
            return await self.app(scope, receive, send)
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", ())}
        incoming = propagate.extract(headers)
        if not incoming:
            return await self.app(scope, receive, send)
        token = context.attach(incoming)
        try:
            await self.app(scope, receive, send)
        finally:
            context.detach(token)


@contextlib.contextmanager
def span(name: str, **attributes: Any) -> Iterator[trace.Span]:
    """A span named ``name`` with simple attributes; sets up tracing lazily."""
    setup_tracing()
    with trace.get_tracer("strata").start_as_current_span(name) as current:
        for key, value in attributes.items():
            if isinstance(value, (str, bool, int, float)):
                current.set_attribute(key, value)
        yield current


def trace_carrier() -> dict[str, str] | None:
    """The current trace context as a small dict (W3C ``traceparent``, ``tracestate``, ``baggage``, or what
    ``$OTEL_PROPAGATORS`` names) for a Serve deployment call: ``handle.method.remote(..., trace_carrier=
    trace_carrier())``. None while spans are not exported or no span is current (a flag test, nothing more)."""
    setup_tracing()
    if not _carry:
        return None
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier or None


def traced_call(name: str) -> Callable:
    """Decorator for a Serve deployment's async method (or async generator): it takes an optional
    ``trace_carrier`` keyword (from :func:`trace_carrier`) and, when one comes, runs the method in a ``name``
    span (kind SERVER) that is a child of the caller's span, under the carried context (baggage included), so
    the spans the method opens join the caller's trace. Without a carrier the method runs as it is. The wrapper's
    signature shows ``trace_carrier`` and its ``traced_call`` attribute is ``name``."""

    def decorate(func: Callable) -> Callable:
        signature = inspect.signature(func)
        carried = inspect.Parameter("trace_carrier", inspect.Parameter.KEYWORD_ONLY, default=None)
        params = list(signature.parameters.values())
        at = next((i for i, p in enumerate(params) if p.kind is inspect.Parameter.VAR_KEYWORD), len(params))

        def start(carrier: dict[str, str]) -> tuple[trace.Span, context.Context]:
            parent = propagate.extract(carrier)
            setup_tracing()
            current = trace.get_tracer("strata").start_span(name, context=parent, kind=trace.SpanKind.SERVER)
            return current, trace.set_span_in_context(current, parent)

        @functools.wraps(func)
        async def streamed(*args, trace_carrier: dict[str, str] | None = None, **kwargs):
            if not trace_carrier:
                async for item in func(*args, **kwargs):
                    yield item
                return
            current, ctx = start(trace_carrier)
            stream = func(*args, **kwargs)
            try:
                while True:  # the context is current while the generator runs, not while its consumer does
                    token = context.attach(ctx)
                    try:
                        item = await stream.__anext__()
                    except StopAsyncIteration:
                        break
                    except Exception as exc:
                        current.record_exception(exc)
                        current.set_status(trace.Status(trace.StatusCode.ERROR, f"{type(exc).__name__}: {exc}"))
                        raise
                    finally:
                        context.detach(token)
                    yield item
            finally:
                await stream.aclose()
                current.end()

        @functools.wraps(func)
        async def called(*args, trace_carrier: dict[str, str] | None = None, **kwargs):
            if not trace_carrier:
                return await func(*args, **kwargs)
            current, ctx = start(trace_carrier)
            token = context.attach(ctx)
            try:
                with trace.use_span(current, end_on_exit=True):  # records an exception and the error status
                    return await func(*args, **kwargs)
            finally:
                context.detach(token)

        wrapper: Any = streamed if inspect.isasyncgenfunction(func) else called
        wrapper.__signature__ = signature.replace(parameters=params[:at] + [carried] + params[at:])
        wrapper.traced_call = name
        return wrapper

    return decorate
