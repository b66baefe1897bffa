"""Prometheus metrics (through Ray's metrics API) and OpenTelemetry tracing."""
