"""Resolve the configured embedder to a model directory (or a hub name) and its manifest.

>>> from cluster.config import load_config
>>> # resolve_embedder(load_config().models).manifest.dim  -> 384 after `strata models install`
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cluster.config import ModelsConfig, StrataConfig
from cluster.models.manifest import ModelManifest, read_manifest

HUB_PREFIX = "hub:"


@dataclass(frozen=True)
class ResolvedEmbedder:
    """A loadable embedder: a local directory with a manifest, or a fastembed hub name."""

    manifest: ModelManifest
    path: Path | None
    hub_name: str | None = None


def resolve_embedder(models: ModelsConfig) -> ResolvedEmbedder:
    """Find the configured embedder. Local directories need ``strata-model.json``."""
    if models.embedder_dir is not None:
        directory = Path(models.embedder_dir).expanduser()
        return ResolvedEmbedder(read_manifest(directory), directory)
    if models.embedder.startswith(HUB_PREFIX):
        return _resolve_hub(models.embedder[len(HUB_PREFIX):])
    directory = Path(models.home).expanduser() / models.embedder
    if not directory.is_dir():
        raise FileNotFoundError(
            f"embedder {models.embedder!r} is not installed under {models.home}: run `strata models install` "
            "(or set models.embedder_dir to a local ONNX model directory)"
        )
    return ResolvedEmbedder(read_manifest(directory), directory)


def _resolve_hub(name: str) -> ResolvedEmbedder:
    from fastembed import TextEmbedding

    for description in TextEmbedding._list_supported_models():
        if description.model == name:
            manifest = ModelManifest(
                name=name, dim=description.dim, source=f"hub:{name}", model_sha256="hub",
                licence=getattr(description, "license", "") or "",
            )
            return ResolvedEmbedder(manifest, None, hub_name=name)
    raise ValueError(f"fastembed does not know the hub model {name!r}")


def resolve_reranker_dir(cfg: StrataConfig) -> Path:
    """The configured cross-encoder's directory: ``rerank.model_dir``, else ``rerank.model`` under
    ``models.home`` (installed by ``strata models install``). Raises when it has no ``model.onnx``.

    >>> from cluster.config import load_config
    >>> resolve_reranker_dir(load_config(rerank={"model_dir": "/nonexistent"}))
    Traceback (most recent call last):
    ...
    FileNotFoundError: reranker directory /nonexistent has no model.onnx (set rerank.model_dir to a trained ONNX cross-encoder)
    """
    if cfg.rerank.model_dir is not None:
        directory, hint = Path(cfg.rerank.model_dir).expanduser(), "set rerank.model_dir to a trained ONNX cross-encoder"
    else:
        directory = Path(cfg.models.home).expanduser() / cfg.rerank.model
        hint = f"run `strata models install` (installs {cfg.rerank.model!r}) or set rerank.model_dir"
    if not (directory / "model.onnx").is_file():
        raise FileNotFoundError(f"reranker directory {directory} has no model.onnx ({hint})")
    return directory
