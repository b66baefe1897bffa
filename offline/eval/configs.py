"""Named retrieval configurations for evaluation: request-field and config overrides.

An :class:`EvalConfig` says *how* one evaluated system is asked: the ``/v1/search`` or
``/v1/context`` endpoint, the ``SearchRequest``/``ContextRequest`` fields it sets on top of the
evaluation's base request, and the ``StrataConfig`` sections it overrides (e.g. turning the
cross-encoder on). :func:`resolve_configs` picks named ones and says which cannot run here (the
reranker without a trained model) instead of faking them.

>>> [c.name for c in resolve_configs(["bm25", "hybrid-linear"])]
['bm25', 'hybrid-linear']
>>> STANDARD["awareness"].endpoint, STANDARD["awareness"].request["awareness"]
('context', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from cluster.config import StrataConfig

__all__ = ["ALIASES", "DEFAULT_CONFIGS", "STANDARD", "EvalConfig",
           "rerank_unavailable_reason", "resolve_configs", "skip_reason", "with_request"]

Endpoint = Literal["search", "context"]


@dataclass(frozen=True)
class EvalConfig:
    """One evaluated system.

    ``request`` — fields set on the request (on top of the evaluation's base request);
    ``config`` — ``StrataConfig`` section overrides (``{"rerank": {"enabled": True}}``); the rerank stage
    runs only where ``request`` sets ``rerank: True`` (the evaluation's base request turns it off);
    ``endpoint`` — ``search`` ranks the hits' documents, ``context`` the documents of the
    ``/v1/context`` pack in pack order; ``needs`` — ``"rerank"`` when a trained cross-encoder is
    required (the configuration is skipped, with the reason, when none is configured).
    """

    name: str
    label: str
    request: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    endpoint: Endpoint = "search"
    needs: Literal["rerank"] | None = None


def with_request(config: EvalConfig, name: str | None = None, label: str | None = None, **fields: Any) -> EvalConfig:
    """A copy of ``config`` with more request fields (used by parameter sweeps).

    >>> with_request(STANDARD["hybrid-linear"], "hl@0.3", bm25_weight=0.3).request["bm25_weight"]
    0.3
    """
    return replace(config, name=name or config.name, label=label or config.label,
                   request={**config.request, **fields})


HYBRID_LINEAR = {"mode": "hybrid", "fusion": "linear"}
#: The request fields that leave every retrieval choice to the configuration (the product's defaults).
DEFAULTS = {"mode": "auto", "fusion": None, "candidates": None, "multi_query": None, "hyde": None}

STANDARD: dict[str, EvalConfig] = {c.name: c for c in (
    EvalConfig("bm25", "BM25 (tantivy)", {"mode": "bm25"}),
    EvalConfig("dense", "dense (the index's embedder)", {"mode": "vector"}),
    EvalConfig("hybrid-rrf", "hybrid, RRF", {"mode": "hybrid", "fusion": "rrf"}),
    EvalConfig("hybrid-linear", "hybrid, linear (min-max)", dict(HYBRID_LINEAR)),
    EvalConfig("hybrid-dbsf", "hybrid, distribution-based score fusion", {"mode": "hybrid", "fusion": "dbsf"}),
    EvalConfig("hybrid-adaptive", "hybrid, linear with the BM25 share judged per query (cross-encoder)",
               {"mode": "hybrid", "fusion": "adaptive"}),
    EvalConfig("rerank", "hybrid linear + cross-encoder rerank", {**HYBRID_LINEAR, "rerank": True},
               config={"rerank": {"enabled": True}}, needs="rerank"),
    EvalConfig("awareness", "hybrid linear + awareness (/v1/context pack order)",
               {**HYBRID_LINEAR, "awareness": True}, endpoint="context"),
    EvalConfig("default", "configured defaults before the rerank stage (mode auto: router, multi-query, fusion "
               "as configured)", dict(DEFAULTS)),
    EvalConfig("default+rerank", "configured defaults with the cross-encoder (the product as shipped when "
               "rerank.enabled)", {**DEFAULTS, "rerank": True}, config={"rerank": {"enabled": True}}, needs="rerank"),
    EvalConfig("hybrid-rrf+multi_query", "hybrid RRF + multi-query",
               {"mode": "hybrid", "fusion": "rrf", "multi_query": True}),
    EvalConfig("hybrid-rrf+hyde", "hybrid RRF + HyDE (pseudo-relevance feedback)",
               {"mode": "hybrid", "fusion": "rrf", "hyde": True}),
    EvalConfig("hybrid-linear+multi_query", "hybrid linear + multi-query", {**HYBRID_LINEAR, "multi_query": True}),
)}

ALIASES = {"vector": "dense", "linear": "hybrid-linear", "rrf": "hybrid-rrf", "hybrid": "hybrid-linear",
           "dbsf": "hybrid-dbsf", "adaptive": "hybrid-adaptive"}

DEFAULT_CONFIGS = ("bm25", "dense", "hybrid-rrf", "hybrid-linear", "hybrid-adaptive", "rerank", "awareness", "default",
                   "default+rerank")


def resolve_configs(names: Iterable[str] | None = None) -> list[EvalConfig]:
    """The named configurations in order (aliases: ``vector`` → ``dense``, ``linear``, ``rrf``);
    ``None`` → :data:`DEFAULT_CONFIGS`. Unknown names raise ``ValueError`` listing the known ones."""
    wanted = list(DEFAULT_CONFIGS if names is None else names)
    out: list[EvalConfig] = []
    unknown = []
    for raw in wanted:
        name = ALIASES.get(raw.strip(), raw.strip())
        if not name:
            continue
        if name not in STANDARD:
            unknown.append(raw)
        elif all(c.name != name for c in out):
            out.append(STANDARD[name])
    if unknown:
        raise ValueError(f"unknown configurations {unknown}; known: {list(STANDARD)} (aliases {ALIASES})")
    return out


def rerank_unavailable_reason(cfg: StrataConfig) -> str | None:
    """Why the cross-encoder cannot run with ``cfg`` (``None`` when its model is installed):
    the directory :func:`cluster.models.registry.resolve_reranker_dir` resolves (``rerank.model_dir``,
    else ``rerank.model`` under ``models.home``) must hold a ``model.onnx``.

    >>> from cluster.config import load_config
    >>> "model.onnx" in rerank_unavailable_reason(load_config(rerank={"model_dir": "/nonexistent"}))
    True
    """
    try:
        from cluster.models.registry import resolve_reranker_dir
    except ImportError:  # before installed rerankers (rerank.model) existed: model_dir only
        if cfg.rerank.model_dir is None:
            return "no cross-encoder configured (rerank.model_dir is not set)"
        path = Path(cfg.rerank.model_dir).expanduser()
        return None if (path / "model.onnx").is_file() else f"rerank.model_dir {path} has no model.onnx"
    try:
        resolve_reranker_dir(cfg)
    except FileNotFoundError as exc:
        return f"no trained cross-encoder installed: {exc}"
    return None


def skip_reason(config: EvalConfig, cfg: StrataConfig) -> str | None:
    """Why ``config`` cannot be evaluated with ``cfg`` (``None``: it can)."""
    if config.needs == "rerank":
        return rerank_unavailable_reason(cfg)
    return None
