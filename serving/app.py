"""The Strata query application for Ray Serve: ingress → embedder, retriever, reranker, expander, and the
vLLM writer (and optional verifier) for ``/v1/answer``.

``strata serve`` runs it on the embedded (or ``RAY_ADDRESS``) cluster; ``serve deploy
deploy/serve/strata-serve.yaml`` uses :func:`build_app` as the application builder.

>>> # serve.run(build_application(load_config()), name="strata", route_prefix="/")
"""

from __future__ import annotations

from typing import Any

from ray.serve import Application

from cluster.config import StrataConfig, load_config


def build_application(cfg: StrataConfig) -> Application:
    """Bind every deployment with the replica counts and fractional CPUs of ``cfg.serve``."""
    from serving.deployments import (
        AwarenessExpanderDeployment, HybridRetrieverDeployment, LLMDeployment, QueryEmbedder, RerankerDeployment,
        StrataIngress,
    )

    s = cfg.serve
    # Replicas may start in another working directory (or on another node): make paths absolute here.
    cfg = cfg.model_copy(deep=True)
    cfg.storage.data_dir = cfg.storage.data_dir.expanduser().resolve()
    if cfg.storage.bm25_dir is not None:
        cfg.storage.bm25_dir = cfg.storage.bm25_dir.expanduser().resolve()
    cfg.models.home = cfg.models.home.expanduser().resolve()
    for llm in (cfg.answer.writer, cfg.answer.verifier):
        if llm is not None and llm.model_dir is not None:
            llm.model_dir = llm.model_dir.expanduser().resolve()
    config = cfg.model_dump(mode="json")
    model_gpus = {"num_gpus": s.gpus_per_model_replica} if s.gpus_per_model_replica else {}

    def opts(replicas: int, cpus: float, **extra: Any) -> dict[str, Any]:
        return {"num_replicas": replicas, "max_ongoing_requests": s.max_ongoing_requests,
                "ray_actor_options": {"num_cpus": cpus, **extra}}

    embedder = QueryEmbedder.options(**opts(s.embedder_replicas, s.embedder_cpus, **model_gpus)).bind(config)
    retriever = HybridRetrieverDeployment.options(**opts(s.retriever_replicas, s.retriever_cpus)).bind(config)
    expander = AwarenessExpanderDeployment.options(**opts(s.expander_replicas, s.expander_cpus)).bind(config)
    reranker = None
    if cfg.rerank.enabled:
        reranker = RerankerDeployment.options(**opts(s.reranker_replicas, s.reranker_cpus, **model_gpus)).bind(config)
    writer = verifier = None
    if cfg.answer.enabled:
        def llm_opts(llm) -> dict[str, Any]:
            return opts(llm.replicas, llm.cpus, **({"num_gpus": llm.gpus} if llm.gpus else {}))

        writer = LLMDeployment.options(name="LLMWriter", **llm_opts(cfg.answer.writer)).bind(config, "writer")
        if cfg.answer.verifier is not None:
            verifier = LLMDeployment.options(name="LLMVerifier", **llm_opts(cfg.answer.verifier)).bind(config, "verifier")
    return StrataIngress.options(**opts(s.ingress_replicas, s.ingress_cpus)).bind(
        config, embedder, retriever, expander, reranker, writer, verifier)


def build_app(args: dict[str, Any] | None = None) -> Application:
    """Serve application builder (``import_path: serving.app:build_app``).

    ``args``: ``config`` (a TOML path; else ``$STRATA_CONFIG``/``./strata.toml``/env) and any
    ``section.key`` overrides, e.g. ``{"serve.retriever_replicas": 4}``."""
    args = dict(args or {})
    path = args.pop("config", None)
    overrides: dict[str, dict[str, Any]] = {}
    for dotted, value in args.items():
        section, _, key = dotted.partition(".")
        if not key:
            raise ValueError(f"application argument {dotted!r}: use 'section.key' (e.g. serve.retriever_replicas)")
        overrides.setdefault(section, {})[key] = value
    return build_application(load_config(path, **overrides))
