"""What the Serve application reserves, sized from the cluster it runs on — or a refusal in seconds.

Ray Serve waits forever for a replica it cannot place ("Resources required for each replica: …").
:func:`plan_reservations` lists every replica's CPUs and GPUs from the configuration, sizing the
one reservation left open (``answer.writer.cpus = None``: what the other deployments leave on a
CPU-only cluster, at most 1 CPU), and :func:`check_fits` compares the total with the cluster's
resources and raises :class:`ResourceShortfall` naming the shortfall and the settings to change.

>>> from cluster.config import load_config
>>> plan = plan_reservations(load_config(), {"CPU": 2.0})
>>> [(r.deployment, r.replicas, r.cpus) for r in plan]                  # doctest: +NORMALIZE_WHITESPACE
[('StrataIngress', 1, 0.1), ('QueryEmbedder', 1, 0.25), ('HybridRetriever', 2, 0.25),
 ('AwarenessExpander', 1, 0.1), ('Reranker', 1, 0.25)]
>>> check_fits(plan, {"CPU": 2.0})
>>> check_fits(plan_reservations(load_config(answer={"writer": {"kind": "llm", "cpus": 1.0}}), {"CPU": 2.0}),
...            {"CPU": 2.0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
serving.resources.ResourceShortfall: the Strata app needs 2.20 CPUs but the cluster has 2.00 (short by 0.20): LLMWriter 1 × 1.00 (answer.writer.cpus), ...
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from cluster.config import LLMConfig, StrataConfig

__all__ = ["MIN_LLM_CPUS", "Reservation", "ResourceShortfall", "check_fits", "cluster_resources", "plan_reservations"]

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
    if cfg.answer.enabled and cfg.answer.writer_kind == "llm":
        others = sum(r.total_cpus for r in plan)
        llms = [("LLMWriter", cfg.answer.writer, "answer.writer")]
        if cfg.answer.verifier is not None:
            llms.append(("LLMVerifier", cfg.answer.verifier, "answer.verifier"))
        for name, llm, where in llms:
            cpus = _llm_cpus(llm, others, cluster)
            plan.append(Reservation(name, llm.replicas, cpus, llm.gpus, f"{where}.cpus"))
            others += llm.replicas * cpus
    if s.replica_resources:
        plan = [replace(r, resources=dict(s.replica_resources)) for r in plan]
    return plan


def check_fits(plan: list[Reservation], cluster: dict[str, float]) -> None:
    """Raise :class:`ResourceShortfall` when ``plan`` needs more CPUs or GPUs than ``cluster`` has."""
    for resource, need, per in (("CPU", sum(r.total_cpus for r in plan), "cpus"),
                                ("GPU", sum(r.total_gpus for r in plan), "gpus")):
        have = cluster.get(resource, 0.0)
        if need > have + 1e-9:
            used = sorted((r for r in plan if getattr(r, f"total_{per}") > 0),
                          key=lambda r: -getattr(r, f"total_{per}"))
            parts = ", ".join(f"{r.deployment} {r.replicas} × {getattr(r, per):.2f} ({r.settings})" for r in used)
            raise ResourceShortfall(
                f"the Strata app needs {need:.2f} {resource}s but the cluster has {have:.2f} (short by "
                f"{need - have:.2f}): {parts}. Lower those settings, add {resource}s (ray.num_cpus / more nodes"
                f"{', serve.gpus_per_model_replica = 0' if resource == 'GPU' else ''}), or use "
                f"answer.writer.kind = \"extractive\" (no LLM deployment)")
    for resource in sorted({name for r in plan for name in r.resources}):
        need = sum(r.replicas * r.resources.get(resource, 0.0) for r in plan)
        have = cluster.get(resource, 0.0)
        if need > have + 1e-9:
            raise ResourceShortfall(
                f"the Strata app needs {need:.2f} of the custom resource {resource!r} (serve.replica_resources, "
                f"per replica × {sum(r.replicas for r in plan)} replicas) but the cluster has {have:.2f}: start "
                f"nodes with it (ray start --resources) or lower serve.replica_resources")
