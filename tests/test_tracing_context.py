"""OpenTelemetry conventions (issue 52): ``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES`` win over
``telemetry.service_name``, and an incoming W3C ``traceparent`` on a ``/v1`` request parents the request's span."""

from __future__ import annotations

import pytest


def test_otel_environment_names_the_service(monkeypatch):
    from cluster.config import TelemetryConfig
    from cluster.telemetry.tracing import resource_of

    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    monkeypatch.delenv("OTEL_RESOURCE_ATTRIBUTES", raising=False)
    assert resource_of(TelemetryConfig(service_name="from-config")).attributes["service.name"] == "from-config"
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "service.name=from-attrs,deployment.environment=prod")
    attributes = resource_of(TelemetryConfig(service_name="from-config")).attributes
    assert attributes["service.name"] == "from-attrs" and attributes["deployment.environment"] == "prod"
    monkeypatch.setenv("OTEL_SERVICE_NAME", "from-env")
    attributes = resource_of(TelemetryConfig(service_name="from-config")).attributes
    assert attributes["service.name"] == "from-env" and attributes["deployment.environment"] == "prod"


@pytest.fixture()
def recorded_spans():
    from opentelemetry import trace
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from cluster.telemetry.tracing import setup_tracing

    setup_tracing()
    exporter = InMemorySpanExporter()
    trace.get_tracer_provider().add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    exporter.shutdown()


def test_an_incoming_traceparent_parents_the_request_span(tmp_path, recorded_spans):
    from fastapi.testclient import TestClient

    from cluster.config import load_config
    from cluster.telemetry.tracing import span
    from serving.api.api_router import build_fastapi_app
    from serving.index.handle import IndexNotReady

    class TracedService:  # the service's span, as SearchService.search opens it; then "no index" (503)
        cfg = load_config(storage={"data_dir": str(tmp_path)})

        async def search(self, request, *, tenant):
            with span("query.search", route=request.mode):
                raise IndexNotReady("no index yet")

    app = build_fastapi_app()
    app.state.service = TracedService()
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    with TestClient(app) as client:
        response = client.post("/v1/search", json={"query": "x"},
                               headers={"traceparent": f"00-{trace_id}-{parent_id}-01"})
        assert response.status_code == 503, response.text
        without = client.post("/v1/search", json={"query": "y"})
        assert without.status_code == 503
    spans = [s for s in recorded_spans.get_finished_spans() if s.name == "query.search"]
    assert len(spans) == 2
    traced, fresh = spans
    assert format(traced.context.trace_id, "032x") == trace_id
    assert traced.parent is not None and format(traced.parent.span_id, "016x") == parent_id
    assert traced.parent.is_remote
    assert fresh.parent is None and format(fresh.context.trace_id, "032x") != trace_id
