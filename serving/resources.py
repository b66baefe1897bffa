"""What the Serve application reserves, sized from the cluster it runs on — or a refusal in seconds.

Ray Serve waits forever for a replica it cannot place ("Resources required for each replica: …").
:func:`plan_reservations` lists every replica's CPUs and GPUs from the configuration, sizing the
one reservation left open (``answer.writer.cpus = None``: what the other deployments leave on a
CPU-only cluster, at most 1 CPU), and :func:`check_fits` compares the total with the cluster's
resources and raises :class:`ResourceShortfall` naming the shortfall and the settings to change — on a
fixed cluster. When Ray's autoscaler runs (:func:`autoscaler_running`: KubeRay, the cluster launcher) the
shortfall is a warning instead, since replicas that wait make it add nodes (``serve.resource_check``).

>>> from cluster.config import load_config
>>> plan = plan_reservations(load_config(), {"CPU": 2.0})
>>> [(r.deployment, r.replicas, r.cpus) for r in plan]                  # doctest: +NORMALIZE_WHITESPACE
[('StrataIngress', 1, 0.1), ('QueryEmbedder', 1, 0.25), ('HybridRetriever', 2, 0.25),
 ('AwarenessExpander', 1, 0.1), ('Reranker', 1, 0.25)]
>>> check_fits(plan, {"CPU": 2.0})
[]
>>> check_fits(plan_reservations(load_config(answer={"writer": {"kind": "llm", "cpus": 1.0}}), {"CPU": 2.0}),
...            {"CPU": 2.0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
serving.resources.ResourceShortfall: the Strata app needs 2.20 CPUs but the cluster has 2.00 (short by 0.20): LLMWriter 1 × 1.00 (answer.writer.cpus), ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from cluster.config import LLMConfig, StrataConfig

__all__ = ["MIN_LLM_CPUS", "Reservation", "ResourceShortfall", "autoscaler_running", "check_fits", "cluster_resources",
           "plan_reservations"]

MIN_LLM_CPUS = 0.2


class ResourceShortfall(RuntimeError):
    """The application cannot be placed on this cluster (the message names the settings to change)."""


@dataclass(frozen=True)
class Reservation:
    deployment: str
    replicas: int
    cpus: float
    gpus: float
    settings: str          # the settings that size it
    resources: dict[str, float] = field(default_factory=dict)  # custom Ray resources per replica

    @property
    def total_cpus(self) -> float:
        return self.replicas * self.cpus

    @property
    def total_gpus(self) -> float:
        return self.replicas * self.gpus


def cluster_resources() -> dict[str, float]:
    """The connected Ray cluster's total resources (``CPU``, ``GPU``, …)."""
    import ray

    return {k: float(v) for k, v in ray.cluster_resources().items()}


def _llm_cpus(llm: LLMConfig, others: float, cluster: dict[str, float]) -> float:
    if llm.cpus is not None:
        return llm.cpus
    if llm.gpus > 0 or cluster.get("GPU", 0) > 0:
        return 1.0
    left = cluster.get("CPU", 0.0) - others
    return round(max(MIN_LLM_CPUS, min(1.0, left)), 2)


def plan_reservations(cfg: StrataConfig, cluster: dict[str, float]) -> list[Reservation]:
    """Every deployment's replicas, CPUs and GPUs per replica for ``cfg`` on a cluster with ``cluster``."""
    s = cfg.serve
    model_gpus = s.gpus_per_model_replica
    plan = [
        Reservation("StrataIngress", s.ingress_replicas, s.ingress_cpus, 0.0, "serve.ingress_cpus"),
        Reservation("QueryEmbedder", s.embedder_replicas, s.embedder_cpus, model_gpus, "serve.embedder_cpus"),
        Reservation("HybridRetriever", s.retriever_replicas, s.retriever_cpus, 0.0,
                    "serve.retriever_replicas, serve.retriever_cpus"),
        Reservation("AwarenessExpander", s.expander_replicas, s.expander_cpus, 0.0, "serve.expander_cpus"),
    ]
    if cfg.rerank.enabled or cfg.answer.enabled:
        plan.append(Reservation("Reranker", s.reranker_replicas, s.reranker_cpus, model_gpus, "serve.reranker_cpus"))
    others = sum(r.total_cpus for r in plan)
    for name, llm, where in cfg.answer.deployed_llms():  # none for a role on an OpenAI-compatible server
        cpus = _llm_cpus(llm, others, cluster)
        plan.append(Reservation(name, llm.replicas, cpus, llm.gpus, f"{where}.cpus"))
        others += llm.replicas * cpus
    if s.replica_resources:
        plan = [replace(r, resources=dict(s.replica_resources)) for r in plan]
    return plan


def autoscaler_running() -> bool:
    """Whether Ray's autoscaler manages the connected cluster (KubeRay ``enableInTreeAutoscaling``, the cluster
    launcher): a v2 autoscaler marks the GCS as autoscaled; the v1 monitor publishes its report in the GCS
    key-value store, with the node types of the cluster's config. A fixed cluster (the embedded local Ray,
    ``ray start`` by hand) runs the monitor too, over Ray's read-only provider, whose every node is its own
    anonymous type ``node_<id>``: that is no autoscaler. False when Ray is not connected.

    >>> # init_ray(cfg.ray); autoscaler_running()    # False on the embedded local Ray
    """
    import json

    import ray
    from ray._private import ray_constants
    from ray.experimental.internal_kv import _internal_kv_get, _internal_kv_initialized

    if not ray.is_initialized() or not _internal_kv_initialized():
        return False
    if _internal_kv_get(ray._raylet.GCS_AUTOSCALER_V2_ENABLED_KEY,
                        namespace=ray._raylet.GCS_AUTOSCALER_STATE_NAMESPACE) == b"1":
        return True
    try:
        report = json.loads(_internal_kv_get(ray_constants.DEBUG_AUTOSCALING_STATUS) or b"{}").get("autoscaler_report")
    except ValueError:
        return False
    return bool(report) and any(not _READONLY_NODE_TYPE.match(node_type) for node_type in _node_types(report))


_READONLY_NODE_TYPE = re.compile(r"node_[0-9a-f]{16,}$")  # ray.autoscaler._private.util.format_readonly_node_type


def _node_types(report: dict) -> list[str]:
    """The node types an autoscaler report names (active, idle, launching)."""
    out = [t for key in ("active_nodes", "idle_nodes", "pending_launches") for t in (report.get(key) or {})]
    return out + [p[1] for p in report.get("pending_nodes") or [] if isinstance(p, (list, tuple)) and len(p) > 1]


def check_fits(plan: list[Reservation], cluster: dict[str, float], *, autoscaling: bool = False) -> list[str]:
    """Raise :class:`ResourceShortfall` when ``plan`` needs more CPUs, GPUs or custom resources than ``cluster``
    has. With ``autoscaling`` (Ray's autoscaler adds nodes for replicas that wait) the shortfalls are returned
    as warnings, and logged, instead: the cluster grows to fit.

    >>> from cluster.config import load_config
    >>> warned = check_fits(plan_reservations(load_config(), {"CPU": 0.0}), {"CPU": 0.0}, autoscaling=True)
    >>> warned  # doctest: +ELLIPSIS
    ["the Strata app needs 1.20 CPUs but the cluster has 0.00 now (short by 1.20): ...; Ray's autoscaler is expected to add nodes for them"]
    """
    shortfalls: list[str] = []
    for resource, need, per in (("CPU", sum(r.total_cpus for r in plan), "cpus"),
                                ("GPU", sum(r.total_gpus for r in plan), "gpus")):
        have = cluster.get(resource, 0.0)
        if need > have + 1e-9:
            used = sorted((r for r in plan if getattr(r, f"total_{per}") > 0),
                          key=lambda r: -getattr(r, f"total_{per}"))
            parts = ", ".join(f"{r.deployment} {r.replicas} × {getattr(r, per):.2f} ({r.settings})" for r in used)
            shortfalls.append(
                f"the Strata app needs {need:.2f} {resource}s but the cluster has {have:.2f}{' now' * autoscaling} "
                f"(short by {need - have:.2f}): {parts}" + ("" if autoscaling else
                f". Lower those settings, add {resource}s (ray.num_cpus / more nodes"
                f"{', serve.gpus_per_model_replica = 0' if resource == 'GPU' else ''}), or use "
                f"answer.writer.kind = \"extractive\" (no LLM deployment)"))
    for resource in sorted({name for r in plan for name in r.resources}):
        need = sum(r.replicas * r.resources.get(resource, 0.0) for r in plan)
        have = cluster.get(resource, 0.0)
        if need > have + 1e-9:
            shortfalls.append(
                f"the Strata app needs {need:.2f} of the custom resource {resource!r} (serve.replica_resources, "
                f"per replica × {sum(r.replicas for r in plan)} replicas) but the cluster has {have:.2f}"
                + ("" if autoscaling else ": start nodes with it (ray start --resources) or lower "
                                          "serve.replica_resources"))
    if shortfalls and not autoscaling:
        raise ResourceShortfall(shortfalls[0])
    warnings = [f"{s}; Ray's autoscaler is expected to add nodes for them" for s in shortfalls]
    if warnings:
        import logging

        for line in warnings:
            logging.getLogger(__name__).warning(line)
    return warnings
