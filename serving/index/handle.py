"""The indexes a replica reads, opened on first use: :class:`IndexHandle` (and :class:`IndexNotReady`).

Every tenant has its own index (:mod:`cluster.tenants`), so every read names the tenant it is for:
``handle.get(tenant)`` and ``handle.version(tenant)`` have no default. A tenant's index opens when a
request of that tenant first needs it; at most ``serve.max_open_tenants`` stay open (the least
recently used is closed beyond that; reopening costs a few milliseconds). Replicas start before the
first ingest; a tenant without an index answers :class:`IndexNotReady` (HTTP 503) until an ingest
creates it. ``version(tenant)`` is that index's LanceDB table version, which the caches key by
(together with the tenant).

>>> # handle = IndexHandle(cfg); view = handle.get("default"); handle.version("default")
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from cluster.config import StrataConfig
from cluster.store.lance_store import LanceStore
from cluster.tenants import DEFAULT_TENANT, tenant_config
from serving.index.view import IndexView


class IndexNotReady(RuntimeError):
    """No index at the configured location yet (answered with 503 until an ingest creates it)."""


class IndexHandle:
    """Opens each tenant's index lazily, so replicas start before the first ingest and pick it up after."""

    def __init__(self, cfg: StrataConfig) -> None:
        self.cfg = cfg
        self._views: OrderedDict[str, IndexView] = OrderedDict()
        self._seen_versions: dict[str, str] = {}
        self._lock = threading.Lock()
        self.capacity = max(1, getattr(cfg.serve, "max_open_tenants", 256))

    def get(self, tenant: str) -> IndexView:
        """``tenant``'s index (opened now if needed); :class:`IndexNotReady` when it has none."""
        with self._lock:
            view = self._views.get(tenant)
            if view is not None:
                self._views.move_to_end(tenant)
                return view
        cfg = tenant_config(self.cfg, tenant)  # validates the name: it becomes a path
        if not LanceStore.exists(cfg.storage):
            if tenant == DEFAULT_TENANT:
                raise IndexNotReady(f"no index at {cfg.storage.lance_location}: run `strata ingest` first")
            raise IndexNotReady(f"no index of tenant {tenant!r} at {cfg.storage.lance_location}: "
                                f"run `strata ingest PATH --tenant {tenant}` first")
        try:
            view = IndexView.open(cfg)
        except FileNotFoundError as exc:
            raise IndexNotReady(str(exc)) from exc
        with self._lock:
            view = self._views.setdefault(tenant, view)  # another thread may have opened it meanwhile
            self._views.move_to_end(tenant)
            while len(self._views) > self.capacity:
                closed, _ = self._views.popitem(last=False)
                self._seen_versions.pop(closed, None)
        return view

    def version(self, tenant: str) -> str:
        """``tenant``'s index version (refreshed at most every ``serve.refresh_interval_s``)."""
        return self._seen(tenant, self.get(tenant).version())

    def latest(self, tenant: str) -> str:
        """``tenant``'s latest committed index version, checked now (:meth:`IndexView.latest`): what reads
        by id use, so a deleted document is 404 and a finished upload is there at once."""
        return self._seen(tenant, self.get(tenant).latest())

    def _seen(self, tenant: str, version: str) -> str:
        seen = self._seen_versions.get(tenant)
        if seen is not None and version != seen:
            from cluster.telemetry.metrics import query_metrics

            metrics = query_metrics()
            if metrics is not None:
                metrics.index_version_changes.inc()
        self._seen_versions[tenant] = version
        return version

    def probe(self) -> str:
        """A replica's readiness: the default tenant's index version, or ``"up"`` when the default tenant
        has no index (a deployment serving named tenants only; their indexes open on first use)."""
        try:
            return self.version(DEFAULT_TENANT)
        except IndexNotReady:
            return "up"

    def open_tenants(self) -> list[str]:
        with self._lock:
            return list(self._views)
