"""OpenTelemetry tracing: one tracer provider per process, exporter chosen by config.

Spans are always recorded (cheap); they are exported only with ``telemetry.otel_exporter``
set to ``console`` or ``otlp`` (the ``otlp`` extra). Ray worker processes configure themselves
from the ``STRATA_TELEMETRY__*`` environment on first use.

>>> with span("ingest.parse", files=3):
...     pass
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

from cluster.config import TelemetryConfig

_configured = False


def setup_tracing(settings: TelemetryConfig | None = None) -> None:
    """Install the tracer provider for this process (idempotent)."""
    global _configured
    if _configured:
        return
    if settings is None:
        settings = TelemetryConfig(
            otel_exporter=os.environ.get("STRATA_TELEMETRY__OTEL_EXPORTER", "none"),  # type: ignore[arg-type]
            otlp_endpoint=os.environ.get("STRATA_TELEMETRY__OTLP_ENDPOINT"),
        )
    provider = TracerProvider(resource=Resource.create({"service.name": settings.service_name}))
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
    _configured = True


@contextlib.contextmanager
def span(name: str, **attributes: Any) -> Iterator[trace.Span]:
    """A span named ``name`` with simple attributes; sets up tracing lazily."""
    setup_tracing()
    with trace.get_tracer("strata").start_as_current_span(name) as current:
        for key, value in attributes.items():
            if isinstance(value, (str, bool, int, float)):
                current.set_attribute(key, value)
        yield current
