"""Strata's one typed configuration: a TOML file plus ``STRATA_*`` environment overrides.

Precedence (highest first): keyword arguments → environment (``STRATA_<SECTION>__<KEY>``,
e.g. ``STRATA_INGEST__WRITER_BATCH_ROWS=8192``) → the TOML file (``--config``, else
``$STRATA_CONFIG``, else ``./strata.toml`` if present) → defaults below.

>>> cfg = load_config(storage={"data_dir": "/tmp/strata-doc"})
>>> str(cfg.storage.bm25_path)
'/tmp/strata-doc/bm25'
>>> cfg.index.nprobes
20
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

DEFAULT_CONFIG_FILE = "strata.toml"


def _default_models_home() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "strata" / "models"


class StorageConfig(BaseModel):
    """Where the index lives. ``lance_uri`` may be a local path or an object-store URI
    (``s3://bucket/strata``); the tantivy BM25 index and the ingest journal stay on the
    writer's local (or shared) filesystem under ``data_dir``."""

    data_dir: Path = Path("./strata-data")
    lance_uri: str | None = None
    bm25_dir: Path | None = None
    storage_options: dict[str, str] = Field(default_factory=dict)

    @property
    def lance_location(self) -> str:
        return self.lance_uri or str(self.data_dir / "lance")

    @property
    def bm25_path(self) -> Path:
        return self.bm25_dir or self.data_dir / "bm25"

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "ingest-journal.json"


class ModelsConfig(BaseModel):
    """Embedding model choice. ``embedder`` names a model installed under ``home`` by
    ``strata models install`` (default ``all-minilm-l6-v2``), or ``hub:<name>`` to let fastembed
    download a supported model on a machine with internet. ``embedder_dir`` points at any local
    ONNX model directory (model.onnx + tokenizer files + ``strata-model.json`` manifest) for
    air-gapped production, e.g. a bge-small-en-v1.5 export."""

    home: Path = Field(default_factory=_default_models_home)
    embedder: str = "all-minilm-l6-v2"
    embedder_dir: Path | None = None


class EmbedderConfig(BaseModel):
    """Runtime settings of the embedding actors."""

    batch_size: int = Field(64, ge=1, le=4096)
    threads: int | None = Field(None, ge=1, description="onnxruntime intra-op threads; default: the machine's cores")
    device: Literal["auto", "cpu", "cuda"] = "auto"
    cpu_mem_arena: bool = Field(True, description="onnxruntime CPU memory arena; off trades some speed for less RSS")


class ChunkingSettings(BaseModel):
    """Chunk sizes in embedder tokens; ``chunk_tokens + header_tokens + 2`` must fit the model window."""

    chunk_tokens: int = Field(200, ge=16)
    overlap_tokens: int = Field(32, ge=0)
    header_tokens: int = Field(40, ge=0)

    @model_validator(mode="after")
    def _overlap_smaller(self) -> "ChunkingSettings":
        if self.overlap_tokens >= self.chunk_tokens:
            raise ValueError("chunking.overlap_tokens must be smaller than chunking.chunk_tokens")
        return self


class IngestConfig(BaseModel):
    """Bulk-ingest pipeline settings."""

    include: list[str] = Field(
        default_factory=lambda: ["*.md", "*.markdown", "*.rst", "*.txt", "*.html", "*.htm", "*.gz", "*.pod", "*.pm",
                                 "*.[1-9]", "*.[1-9]*", "*.man", "*.text", "*.xhtml"],
        description="file-name globs to ingest (matched on the base name)",
    )
    exclude: list[str] = Field(default_factory=lambda: [".*", "*~", "*.swp"])
    max_file_bytes: int = Field(20_000_000, ge=1, description="raw and decompressed size cap per file")
    parse_batch_files: int = Field(8, ge=1, description="files per stateless parse/chunk task batch")
    embed_batch_docs: int = Field(16, ge=1, description="documents per embedding-actor call")
    embed_actors: int = Field(1, ge=1, description="embedding actor pool size")
    embed_actor_cpus: float = Field(0.5, gt=0, description="logical CPUs reserved per embedding actor")
    embed_actor_gpus: float = Field(0.0, ge=0, description="GPUs per embedding actor (CUDA provider when > 0)")
    parse_task_cpus: float = Field(0.25, gt=0)
    writer_batch_rows: int = Field(4096, ge=1, description="chunk rows per LanceDB commit")
    progress: bool = True


class IndexConfig(BaseModel):
    """Vector index settings for the ``chunks`` table (IVF_PQ) and query-time knobs."""

    ivf_min_rows: int = Field(20_000, ge=256, description="below this many chunks the table stays flat (exact search)")
    num_partitions: int | None = Field(None, ge=1, description="default: derived from the row count")
    num_sub_vectors: int | None = Field(None, ge=1, description="default: derived from the dimension")
    nprobes: int = Field(20, ge=1)
    refine_factor: int = Field(10, ge=1)
    reindex_unindexed_fraction: float = Field(0.2, ge=0, le=1, description="retrain when this share of rows is unindexed")
    cleanup_older_than_hours: float = Field(24.0, ge=0, description="table versions older than this are removed by maintenance")


class RayConfig(BaseModel):
    """``address`` (or ``$RAY_ADDRESS``) joins an existing cluster; otherwise an embedded local Ray starts."""

    address: str | None = None
    num_cpus: int | None = None
    metrics_export_port: int | None = Field(None, description="Prometheus port of the embedded Ray's metrics agent")


class TelemetryConfig(BaseModel):
    """OpenTelemetry tracing: ``none`` (spans recorded, not exported), ``console`` or ``otlp``."""

    otel_exporter: Literal["none", "console", "otlp"] = "none"
    otlp_endpoint: str | None = None
    service_name: str = "strata"


class StrataConfig(BaseSettings):
    """The whole configuration. Build it with :func:`load_config`."""

    model_config = SettingsConfigDict(env_prefix="STRATA_", env_nested_delimiter="__", extra="forbid")

    storage: StorageConfig = Field(default_factory=StorageConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    ingest: IngestConfig = Field(default_factory=IngestConfig)
    index: IndexConfig = Field(default_factory=IndexConfig)
    ray: RayConfig = Field(default_factory=RayConfig)
    telemetry: TelemetryConfig = Field(default_factory=TelemetryConfig)

    toml_file: ClassVar[Path | None] = None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if cls.toml_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=cls.toml_file))
        return tuple(sources)


def resolve_config_file(path: str | Path | None = None) -> Path | None:
    """The TOML file to read: ``path``, else ``$STRATA_CONFIG``, else ``./strata.toml`` if it exists."""
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"config file not found: {p}")
        return p
    env = os.environ.get("STRATA_CONFIG")
    if env:
        return resolve_config_file(env)
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


def load_config(path: str | Path | None = None, **overrides: Any) -> StrataConfig:
    """Load the configuration (see module docstring for precedence)."""
    toml_file = resolve_config_file(path)

    class _Loaded(StrataConfig):
        pass

    _Loaded.toml_file = toml_file

    loaded = _Loaded(**overrides)
    return StrataConfig.model_validate(loaded.model_dump())
