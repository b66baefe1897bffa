"""The index a replica reads, opened on first use: :class:`IndexHandle` (and :class:`IndexNotReady`).

Replicas start before the first ingest; the handle opens the index when a request first needs it
and answers :class:`IndexNotReady` (HTTP 503) until then. ``version()`` is the LanceDB table version
the caches are keyed by.

>>> # handle = IndexHandle(cfg); view = handle.get(); handle.version()
"""

from __future__ import annotations

import threading

from cluster.config import StrataConfig
from cluster.store.lance_store import LanceStore
from serving.index.view import IndexView


class IndexNotReady(RuntimeError):
    """No index at the configured location yet (answered with 503 until an ingest creates it)."""


class IndexHandle:
    """Opens the index lazily, so replicas start before the first ingest and pick it up after."""

    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self._view: IndexView | None = None
        self._lock = threading.Lock()
        self._seen_version: str | None = None

    def get(self) -> IndexView:
        if self._view is None:
            with self._lock:
                if self._view is None:
                    if not LanceStore.exists(self.cfg.storage):
                        raise IndexNotReady(f"no index at {self.cfg.storage.lance_location}: run `strata ingest` first")
                    try:
                        self._view = IndexView.open(self.cfg)
                    except FileNotFoundError as exc:
                        raise IndexNotReady(str(exc)) from exc
        return self._view

    def version(self) -> str:
        view = self.get()
        version = view.version()
        if self._seen_version is not None and version != self._seen_version:
            from cluster.telemetry.metrics import query_metrics

            metrics = query_metrics()
            if metrics is not None:
                metrics.index_version_changes.inc()
        self._seen_version = version
        return version
