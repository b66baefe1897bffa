"""Model manifests: what a model directory holds, and the identity stored with every index.

A manifest is written as ``strata-model.json`` next to the model files by
``strata models install`` and copied into the index's ``meta`` table on first ingest.
Appending to or querying an index with an embedder whose :attr:`ModelManifest.fingerprint`
differs is refused with :class:`EmbedderMismatchError`.

>>> m = ModelManifest(name="m", dim=4, source="test", model_sha256="ab" * 32)
>>> m.fingerprint
'm/4/abababababab/mean/norm'
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

MANIFEST_FILE = "strata-model.json"


class EmbedderMismatchError(RuntimeError):
    """The configured embedder differs from the one an index was built with."""


class ModelManifest(BaseModel):
    """Identity and provenance of one model directory."""

    name: str
    kind: Literal["embedder", "reranker", "llm"] = "embedder"
    dim: int = Field(ge=1)
    max_tokens: int = 256
    pooling: Literal["mean", "cls"] = "mean"
    normalize: bool = True
    query_prefix: str = Field("", description="put before every query the model embeds (e5: 'query: '; bge and "
                                              "arctic-embed: their retrieval instruction)")
    passage_prefix: str = Field("", description="put before every passage (chunk, section summary) the model "
                                                "embeds (e5: 'passage: '); its tokens count against max_tokens")
    multilingual: bool = Field(False, description="the model reads many languages and scripts; False (MiniLM, "
                                                  "English): a query mostly outside the Latin script leans on BM25 "
                                                  "(retrieval.foreign_script_bm25_weight)")
    model_file: str = "model.onnx"
    source: str = Field(description="where the weights came from (packages and versions, or a hub name)")
    model_sha256: str = Field(description="sha256 of the weights file ('' for hub models resolved at run time)")
    files: dict[str, str] = Field(default_factory=dict, description="file name -> sha256")
    licence: str = ""

    @property
    def fingerprint(self) -> str:
        """What must match between an index and the embedder used with it (the prefixes only when set, so
        that an index built before they existed keeps its fingerprint).

        >>> m = ModelManifest(name="e5", dim=384, source="x", model_sha256="ab" * 32)
        >>> m.fingerprint, m.model_copy(update={"query_prefix": "query: ", "passage_prefix": "passage: "}).fingerprint
        ('e5/384/abababababab/mean/norm', "e5/384/abababababab/mean/norm/q='query: '/p='passage: '")
        """
        base = f"{self.name}/{self.dim}/{self.model_sha256[:12]}/{self.pooling}/{'norm' if self.normalize else 'raw'}"
        if self.query_prefix or self.passage_prefix:
            base += f"/q={self.query_prefix!r}/p={self.passage_prefix!r}"
        return base

    def check_compatible(self, other: "ModelManifest", *, action: str, models_home: Path | None = None) -> None:
        """Raise :class:`EmbedderMismatchError` unless ``other`` embeds like this manifest. The message
        names an embedder installed under ``models_home`` that does, when there is one."""
        if self.fingerprint != other.fingerprint:
            match = installed_with_fingerprint(models_home, self.fingerprint) if models_home else None
            way_out = (f"Set models.embedder = {match!r} (installed, it matches this index)" if match else
                       "Configure the same model (models.embedder / models.embedder_dir)")
            raise EmbedderMismatchError(
                f"refusing to {action}: the index was built with embedder {self.fingerprint!r} "
                f"({self.source}) but the configured embedder is {other.fingerprint!r} ({other.source}). "
                f"{way_out} or ingest into a new data directory."
            )

    def write(self, directory: Path) -> Path:
        path = directory / MANIFEST_FILE
        path.write_text(self.model_dump_json(indent=2) + "\n")
        return path


def read_manifest(directory: Path) -> ModelManifest:
    """Read ``strata-model.json`` from a model directory (clear error when missing)."""
    path = Path(directory) / MANIFEST_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"no {MANIFEST_FILE} in {directory}: run `strata models install` "
            "(or write a manifest for a custom model directory, see README 'Models')"
        )
    return ModelManifest.model_validate(json.loads(path.read_text()))


def installed_with_fingerprint(models_home: Path, fingerprint: str) -> str | None:
    """The name of a model directory under ``models_home`` whose manifest has ``fingerprint``, if any
    (e.g. ``all-minilm-l6-v2-int8`` for an index built before the default embedder became fp32)."""
    for manifest_path in sorted(Path(models_home).expanduser().glob(f"*/{MANIFEST_FILE}")):
        try:
            if read_manifest(manifest_path.parent).fingerprint == fingerprint:
                return manifest_path.parent.name
        except (OSError, ValueError):  # an unreadable or foreign manifest is not a match
            continue
    return None


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, streamed."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()
