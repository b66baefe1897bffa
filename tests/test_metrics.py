"""Ingest metrics reach Prometheus through Ray's metrics agent (real scrape of the endpoint)."""

from __future__ import annotations

import re
import time
import urllib.request

from support import METRICS_PORT, make_config


def scrape() -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=5) as response:
        return response.read().decode()


def test_ingest_metrics_are_exported(ray_session, installed_models, corpus_copy, tmp_path):
    """A fresh ingest (gauges set by the ingest's processes expire some time after they exit, so
    the session's sample index, built many minutes earlier, is not used here)."""
    from pipelines.ingest import run_ingest

    report = run_ingest(make_config(tmp_path / "idx"), corpus_copy, source="metrics")
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline:
        text = scrape()
        if "ray_strata_lance_rows" in text and "ray_strata_ingest_stage_seconds_bucket" in text:
            break
        time.sleep(2)
    chunks = [float(v) for v in re.findall(r'^ray_strata_ingest_chunks_total\{[^}]*\} ([0-9.e+]+)$', text, re.M)]
    assert chunks and max(chunks) >= report.chunks
    assert re.search(r'ray_strata_lance_rows\{[^}]*table="chunks"[^}]*\}', text)
    for stage in ("parse_chunk", "embed", "write"):
        assert f'stage="{stage}"' in text, stage
    assert "ray_strata_writer_batch_rows_bucket" in text
