"""Helpers shared by the tests (paths, config factory)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples" / "corpus"
SHARED_DATA = REPO.parent / "shared" / "data"
#: How far (nDCG@10) the shipped default may fall below the better of BM25 and dense on a real slice.
DEFAULT_RETRIEVAL_MARGIN = 0.005
METRICS_PORT = int(os.environ.get("STRATA_TEST_METRICS_PORT", "18080"))


def make_config(data_dir: Path, **overrides):
    """A config writing to ``data_dir`` with the progress bar off and the cross-encoder off (the tests that
    need it turn it on); ``overrides`` per section (:func:`cluster.config.scripted_config`)."""
    from cluster.config import scripted_config

    return scripted_config(data_dir, **overrides)


def search(cfg, query: str, *, k: int = 5, mode: str = "hybrid"):
    """Hits of the in-process query pipeline (the same code path as ``POST /v1/search``)."""
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    return SearchPipeline(cfg).search(SearchRequest(query=query, top_k=k, mode=mode, use_cache=False)).hits


def sse_events(response) -> list[tuple[str, dict]]:
    """``(event, data)`` pairs of a Server-Sent-Events ``requests`` response (``/v1/answer`` streams)."""
    import json

    events, kind = [], None
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            events.append((kind, json.loads(line[6:])))
    return events
