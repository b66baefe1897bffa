"""OpenTelemetry conventions (issue 52): ``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES`` win over
``telemetry.service_name``, an incoming W3C ``traceparent`` on a ``/v1`` request parents the request's span, and
the request's trace context travels with every call to the other Serve deployments (``trace_carrier``)."""

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


# -- the trace context across Serve deployment calls ---------------------------------------------------

@pytest.fixture()
def carrying(monkeypatch, recorded_spans):
    """Spans exported (as with ``telemetry.otel_exporter = "console"`` or ``"otlp"``): calls carry the context."""
    from cluster.telemetry import tracing

    monkeypatch.setattr(tracing, "_carry", True)
    return recorded_spans


def _ids(s) -> tuple[str, str | None]:
    """(trace id, parent span id) of a finished span, as hex."""
    return format(s.context.trace_id, "032x"), format(s.parent.span_id, "016x") if s.parent else None


def _replica(deployment, **attributes):
    """An instance of a Serve deployment's class without its ``__init__`` (no models, no index)."""
    instance = object.__new__(deployment.func_or_class)
    instance.__dict__.update(attributes)
    return instance


class _Probed:
    """An index whose ``probe`` opens a span (in the worker thread the deployment runs it in)."""

    def probe(self) -> str:
        from cluster.telemetry.tracing import span

        with span("index.probe"):
            return "v1"


def test_a_deployment_method_joins_the_callers_trace(carrying):
    """The carrier made under the request's span parents the deployment's ``serve.<Deployment>.<method>`` span,
    and the spans the method opens (here in ``asyncio.to_thread``) are its children."""
    import asyncio

    from cluster.telemetry.tracing import span, trace_carrier
    from serving.deployments import AwarenessExpanderDeployment

    replica = _replica(AwarenessExpanderDeployment, index=_Probed())
    with span("query.context") as request:
        carrier = trace_carrier()
    assert carrier and carrier["traceparent"].startswith("00-")
    assert asyncio.run(replica.ready(trace_carrier=carrier)) == "v1"
    spans = {s.name: s for s in carrying.get_finished_spans()}
    call, probe, parent = spans["serve.AwarenessExpander.ready"], spans["index.probe"], spans["query.context"]
    trace_id = format(request.get_span_context().trace_id, "032x")
    assert _ids(call) == (trace_id, format(parent.context.span_id, "016x"))
    assert call.parent.is_remote and call.kind.name == "SERVER"
    assert _ids(probe) == (trace_id, format(call.context.span_id, "016x"))


def test_a_streamed_deployment_call_joins_the_callers_trace(carrying):
    """An async generator (the LLM's ``stream``): its span is the parent of what the generator opens, and the
    consumer does not run inside it between items."""
    import asyncio

    from opentelemetry import trace

    from cluster.telemetry.tracing import span, trace_carrier
    from serving.deployments import LLMDeployment

    class Engine:
        async def stream(self, messages, **_):
            for word in ("a", "b"):
                with span("engine.step"):
                    yield word

        def shutdown(self):  # LLMDeployment.__del__ ends its engine
            pass

    replica = _replica(LLMDeployment, engine=Engine(), name="m")
    with span("answer") as request:
        carrier = trace_carrier()

    async def consume():
        seen = []
        async for item in replica.stream([], 4, 0.0, None, trace_carrier=carrier):
            seen.append((item, trace.get_current_span().get_span_context().is_valid))
        return seen

    assert asyncio.run(consume()) == [("a", False), ("b", False)]
    finished = carrying.get_finished_spans()
    call = next(s for s in finished if s.name == "serve.LLM.stream")
    steps = [s for s in finished if s.name == "engine.step"]
    assert _ids(call) == (format(request.get_span_context().trace_id, "032x"),
                          format(request.get_span_context().span_id, "016x"))
    assert len(steps) == 2 and {_ids(s) for s in steps} == {_ids(call)[:1] + (format(call.context.span_id, "016x"),)}


def test_nothing_is_carried_while_spans_are_not_exported(recorded_spans):
    """``telemetry.otel_exporter = "none"`` (the default): no carrier, and the method opens no span of its own."""
    import asyncio

    from cluster.telemetry.tracing import span, trace_carrier
    from serving.deployments import AwarenessExpanderDeployment

    with span("query.search"):
        assert trace_carrier() is None
    assert asyncio.run(_replica(AwarenessExpanderDeployment, index=_Probed()).ready(trace_carrier=None)) == "v1"
    names = [s.name for s in recorded_spans.get_finished_spans()]
    assert "index.probe" in names and not [n for n in names if n.startswith("serve.")]


DEPLOYMENT_SPANS = {
    "QueryEmbedder": {"embed", "ready"}, "HybridRetriever": {"retrieve", "embed_retrieve", "ready"},
    "AwarenessExpander": {"expand", "ready"}, "Reranker": {"rerank", "ready"}, "LLM": {"stream", "count_tokens", "ready"},
}


def test_every_deployment_method_takes_a_carrier():
    """Every public method of every Serve deployment (but the ingress, reached over HTTP) is wrapped by
    ``traced_call``: it accepts ``trace_carrier`` and names its span ``serve.<Deployment>.<method>``."""
    import inspect

    from serving import deployments

    found: dict[str, set[str]] = {}
    for deployment in (deployments.QueryEmbedder, deployments.HybridRetrieverDeployment, deployments.RerankerDeployment,
                       deployments.AwarenessExpanderDeployment, deployments.LLMDeployment):
        for name, method in inspect.getmembers(deployment.func_or_class, inspect.isfunction):
            if name.startswith("_"):
                continue
            assert "trace_carrier" in inspect.signature(method).parameters, f"{deployment.name}.{name}"
            _, where, called = method.traced_call.split(".")
            assert called == name
            found.setdefault(where, set()).add(name)
    assert found == DEPLOYMENT_SPANS


class _Handle:
    """A deployment handle that records each call's method and ``trace_carrier``."""

    def __init__(self, deployment: str, calls: list) -> None:
        self.deployment, self.calls = deployment, calls

    def options(self, **_):
        return self

    def __getattr__(self, method: str):
        handle = self

        class Method:
            @staticmethod
            def remote(*args, trace_carrier=None, **kwargs):
                handle.calls.append((handle.deployment, method, trace_carrier))
                if method == "stream":
                    return _Stream()

                async def result():
                    if method == "embed_retrieve":
                        return [], None
                    return [] if method in ("embed", "rerank") else "ok"

                return result()

        return Method()


class _Stream:
    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration

    def cancel(self):
        pass


def test_every_deployment_call_passes_the_carrier(carrying):
    """The ingress's callers of the deployments (``ServeStages``, ``ServeLLM``) pass the current context with
    each call, and together they call every traced deployment method."""
    import asyncio

    from cluster.config import load_config
    from cluster.telemetry.tracing import span
    from serving.deployments import ServeLLM, ServeStages

    calls: list = []
    handles = {name: _Handle(name, calls) for name in ("QueryEmbedder", "HybridRetriever", "AwarenessExpander",
                                                       "Reranker", "LLM")}
    stages = ServeStages(handles["QueryEmbedder"], handles["HybridRetriever"], handles["AwarenessExpander"],
                         handles["Reranker"], index=None, embed_in_retriever=True)
    llm = ServeLLM(load_config(), handles["LLM"])

    async def every_call():
        await stages.embed(["q"], "t")
        await stages.retrieve(None, [], None, 5, "t")
        await stages.embed_retrieve(None, ["q"], None, 5, "t")
        await stages.rerank("q", ["a"])
        await stages.expand([], [], [], {}, None, "t")
        await stages.ready()
        await llm.count_tokens("writer", [])
        await llm.ready()
        assert [e async for e in llm.stream("verifier", [], max_tokens=4)] == []

    with span("query.search") as request:
        asyncio.run(every_call())
    parent = [f"{request.get_span_context().trace_id:032x}", f"{request.get_span_context().span_id:016x}"]
    assert [(d, m) for d, m, carrier in calls if not carrier or carrier["traceparent"].split("-")[1:3] != parent] == []
    called: dict[str, set[str]] = {}
    for deployment, method, _ in calls:
        called.setdefault(deployment, set()).add(method)
    assert called == DEPLOYMENT_SPANS


@pytest.mark.timeout(600)
def test_the_context_crosses_a_real_serve_call(ray_session, carrying):
    """Through Ray Serve itself (a deployment handle, a replica in another process): the method wrapped by
    ``traced_call`` runs in a span of the caller's trace, its parent the caller's span; without a carrier, in none."""
    from opentelemetry import trace
    from ray import serve

    from cluster.telemetry.tracing import span, trace_carrier, traced_call

    class Probe:  # a local class: Ray sends it by value to the replica
        @traced_call("serve.TraceProbe.where")
        async def where(self) -> dict:
            current = trace.get_current_span()
            if not current.get_span_context().is_valid:
                return {}
            return {"name": current.name, "trace_id": format(current.get_span_context().trace_id, "032x"),
                    "parent": format(current.parent.span_id, "016x")}

    serve.start(proxy_location="Disabled")
    try:
        app = serve.deployment(Probe, name="TraceProbe", ray_actor_options={"num_cpus": 0}).bind()
        handle = serve.run(app, name="trace-probe", route_prefix=None)
        with span("query.search") as request:
            seen = handle.where.remote(trace_carrier=trace_carrier()).result(timeout_s=120)
        assert handle.where.remote().result(timeout_s=120) == {}
    finally:
        serve.delete("trace-probe")
        serve.shutdown()
    assert seen == {"name": "serve.TraceProbe.where", "trace_id": format(request.get_span_context().trace_id, "032x"),
                    "parent": format(request.get_span_context().span_id, "016x")}
