"""Starting or joining Ray: the embedded local cluster by default, ``RAY_ADDRESS`` to join one.

>>> # init_ray(load_config().ray)
"""

from __future__ import annotations

import logging
import os

import ray

from cluster.config import RayConfig

log = logging.getLogger(__name__)


def init_ray(settings: RayConfig, *, env: dict[str, str] | None = None) -> None:
    """Connect this process to Ray once. With ``settings.address`` or ``$RAY_ADDRESS`` it joins
    that cluster; otherwise it starts an embedded one sized by ``settings.num_cpus``."""
    if ray.is_initialized():
        return
    runtime_env = {"env_vars": {k: v for k, v in (env or {}).items()}} if env else None
    address = settings.address or os.environ.get("RAY_ADDRESS")
    if address:
        log.info("joining Ray cluster at %s", address)
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=True)
        return
    kwargs: dict = {"include_dashboard": False, "log_to_driver": True, "runtime_env": runtime_env}
    if settings.num_cpus is not None:
        kwargs["num_cpus"] = settings.num_cpus
    if settings.metrics_export_port is not None:
        kwargs["_metrics_export_port"] = settings.metrics_export_port
    ray.init(**kwargs)
