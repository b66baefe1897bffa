"""The Strata query application for Ray Serve: ingress → embedder, retriever, reranker, expander, and the
vLLM writer (and optional verifier) for ``/v1/answer`` — none of those two when an OpenAI-compatible server
answers (``answer.writer.kind = "openai"``).

``strata serve`` runs it on the embedded (or ``RAY_ADDRESS``) cluster; ``serve deploy
deploy/serve/strata-serve.yaml`` uses :func:`build_app` as the application builder.

>>> # serve.run(build_application(load_config()), name="strata", route_prefix="/")
"""

from __future__ import annotations

from typing import Any

from ray.serve import Application

from cluster.config import StrataConfig, absolute_paths, dotted_overrides, load_config


def build_application(cfg: StrataConfig, cluster: dict[str, float] | None = None) -> Application:
    """Bind every deployment with the replica counts and fractional CPUs of ``cfg.serve``, sized for
    ``cluster`` (default: the connected Ray cluster's resources); raises
    :class:`~serving.resources.ResourceShortfall` at once when the application cannot be placed on a fixed
    cluster (only warns when Ray's autoscaler can add nodes: ``serve.resource_check``)."""
    from serving.deployments import (
        AwarenessExpanderDeployment, HybridRetrieverDeployment, LLMDeployment, QueryEmbedder, RerankerDeployment,
        StrataIngress,
    )
    from serving.resources import autoscaler_running, check_fits, cluster_resources, plan_reservations

    probe = cluster is None  # the connected cluster: ask it whether Ray's autoscaler grows it
    cluster = cluster if cluster is not None else cluster_resources()
    plan = {r.deployment: r for r in plan_reservations(cfg, cluster)}
    check = cfg.serve.resource_check
    check_fits(list(plan.values()), cluster,
               autoscaling=check == "warn" or (check == "auto" and probe and autoscaler_running()))
    s = cfg.serve
    # Replicas start in another working directory (or on another node): paths made absolute here.
    config = absolute_paths(cfg).model_dump(mode="json")
    model_gpus = {"num_gpus": s.gpus_per_model_replica} if s.gpus_per_model_replica else {}
    resources = {"resources": dict(s.replica_resources)} if s.replica_resources else {}

    def opts(replicas: int, cpus: float, **extra: Any) -> dict[str, Any]:
        return {"num_replicas": replicas, "max_ongoing_requests": s.max_ongoing_requests,
                "ray_actor_options": {"num_cpus": cpus, **resources, **extra}}

    embedder = QueryEmbedder.options(**opts(s.embedder_replicas, s.embedder_cpus, **model_gpus)).bind(config)
    retriever = HybridRetrieverDeployment.options(**opts(s.retriever_replicas, s.retriever_cpus)).bind(config)
    expander = AwarenessExpanderDeployment.options(**opts(s.expander_replicas, s.expander_cpus)).bind(config)
    reranker = None
    if cfg.rerank.enabled or cfg.answer.enabled:  # the rerank stage and the extractive answerer's sentence scores
        reranker = RerankerDeployment.options(**opts(s.reranker_replicas, s.reranker_cpus, **model_gpus)).bind(config)
    # The vLLM deployments of the roles not answered by an OpenAI-compatible server (answer.*.kind = "openai":
    # the ingress calls that server itself).
    handles: dict[str, Any] = {"LLMWriter": None, "LLMVerifier": None}
    for name, llm, _ in cfg.answer.deployed_llms():
        if llm.deployment == "ray_serve_llm":  # Ray Serve's LLM API: its LLMServer, placed by its own bundles
            from ray.serve.llm import build_llm_deployment

            from serving.llm.ray_serve_llm import ray_llm_config

            handles[name] = build_llm_deployment(
                ray_llm_config(llm, cfg.models.home, cpus=plan[name].cpus, gpus=llm.gpus), name_prefix=f"{name}:")
            continue
        handles[name] = LLMDeployment.options(
            name=name, **opts(llm.replicas, plan[name].cpus, **({"num_gpus": llm.gpus} if llm.gpus else {}))).bind(
            config, "verifier" if name == "LLMVerifier" else "writer")
    writer, verifier = handles["LLMWriter"], handles["LLMVerifier"]
    return StrataIngress.options(**opts(s.ingress_replicas, s.ingress_cpus)).bind(
        config, embedder, retriever, expander, reranker, writer, verifier)


def build_app(args: dict[str, Any] | None = None) -> Application:
    """Serve application builder (``import_path: serving.app:build_app``).

    ``args``: ``config`` (a TOML path; else ``$STRATA_CONFIG``/``./strata.toml``/env) and any
    ``section.key`` overrides, e.g. ``{"serve.retriever_replicas": 4}``."""
    args = dict(args or {})
    path = args.pop("config", None)
    return build_application(load_config(path, **dotted_overrides(args)))


class StartTimeout(RuntimeError):
    """The application did not become ready in ``serve.start_timeout_s`` (the message says what waits)."""


def deploy(cfg: StrataConfig, *, host: str | None = None, port: int | None = None,
           timeout_s: float | None = None, say=None) -> str:
    """Start Serve's HTTP proxy and the application on the connected Ray cluster and wait until it is
    RUNNING — at most ``timeout_s`` (``serve.start_timeout_s``). Raises
    :class:`~serving.resources.ResourceShortfall` within seconds when it cannot be placed,
    :class:`StartTimeout` (with every deployment's status message) when it does not come up, and
    ``RuntimeError`` when a deployment fails. Returns the base URL.

    >>> # init_ray(cfg.ray); url = deploy(cfg)      # http://127.0.0.1:8000
    """
    import time

    from ray import serve
    from ray.serve.schema import ApplicationStatus

    host, port = host or cfg.serve.host, port or cfg.serve.port
    timeout_s = cfg.serve.start_timeout_s if timeout_s is None else timeout_s
    app = build_application(cfg)  # checks the reservations against the cluster first
    serve.start(proxy_location=cfg.serve.proxy_location, http_options={"host": host, "port": port})
    serve.run_many([serve.RunTarget(target=app, name=cfg.serve.app_name, route_prefix=cfg.serve.route_prefix)],
                   wait_for_ingress_deployment_creation=False, wait_for_applications_running=False)
    deadline = time.monotonic() + timeout_s
    last = ""
    while True:
        status = serve.status().applications.get(cfg.serve.app_name)
        if status is not None and status.status == ApplicationStatus.RUNNING:
            return f"http://{host}:{port}{cfg.serve.route_prefix.rstrip('/')}"
        detail = "" if status is None else "; ".join(
            f"{name}: {d.status.value}{' — ' + d.message if d.message else ''}" for name, d in status.deployments.items()
            if d.status.value != "HEALTHY")
        if status is not None and status.status in (ApplicationStatus.DEPLOY_FAILED, ApplicationStatus.UNHEALTHY):
            raise RuntimeError(f"the Strata app failed to deploy ({status.status.value}): {status.message or detail}")
        if say is not None and detail and detail != last:
            say(f"waiting for: {detail}")
            last = detail
        if time.monotonic() > deadline:
            serve.delete(cfg.serve.app_name)
            raise StartTimeout(f"the Strata app was not ready within {timeout_s:.0f} s (serve.start_timeout_s); "
                               f"still waiting for: {detail or 'the application to start'}")
        time.sleep(1.0)
