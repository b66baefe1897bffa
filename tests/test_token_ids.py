"""Token ids from the parse tasks (``ingest.token_ids``, on by default when GPUs embed): the actors
embed them without tokenizing, to exactly the vectors the texts get."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from cluster.config import EmbedderConfig, IngestConfig, load_config
from cluster.models.embedder import Embedder
from cluster.models.registry import resolve_embedder
from cluster.models.tokenizer import input_tokenizer, passage_encoder
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, SECTIONS
from pipelines.records import PARSED_SCHEMA, TOKEN_ID_FIELDS, chunk_input, summary_input
from pipelines.stages.embed import EmbedDocuments, plan_embed_pool
from pipelines.stages.parse_chunk import chunking_setup, process_file
from support import embedder_variant, make_config

LONG = " ".join(f"word{i} déjà-vu, naïve café; x86_64 epoll_wait()" for i in range(200))  # far over the window
TEXTS = ["hello world", "Guide > Install\nRun `pip install strata` then strata demo.", LONG, "a", "Ünïcödé ß 東京 🙂"]


@pytest.fixture(scope="module")
def embedder():
    return Embedder.load(resolve_embedder(load_config().models), EmbedderConfig())


def _ids(texts: list[str]) -> list[list[int]]:
    tokenizer = input_tokenizer(resolve_embedder(load_config().models))
    return [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=True)]


def test_the_parse_side_tokenizer_gives_the_embedders_own_ids(embedder):
    own = embedder._model.model.tokenizer  # fastembed's, as it runs on texts
    expected = [[i for i, m in zip(e.ids, e.attention_mask) if m] for e in own.encode_batch(TEXTS)]
    assert _ids(TEXTS) == expected
    assert len(_ids([LONG])[0]) == resolve_embedder(load_config().models).manifest.max_tokens


@pytest.mark.parametrize("batch_size", [None, 3])
def test_embedding_ids_gives_the_texts_vectors(batch_size):
    emb = Embedder.load(resolve_embedder(load_config().models), EmbedderConfig(batch_size=batch_size))
    from_texts, from_ids = emb.embed(TEXTS), emb.embed_ids(_ids(TEXTS))
    assert from_ids.shape == (len(TEXTS), emb.dim) and from_ids.dtype == np.float32
    assert np.abs(from_ids - from_texts).max() < 1e-5
    assert emb.embed_ids([]).shape == (0, emb.dim)


def test_parse_rows_carry_ids_of_exactly_their_embed_inputs(tmp_path):
    cfg = load_config()
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    path = tmp_path / "guide.md"
    path.write_text("# Guide\n\nIntro text.\n\n## Install\n\n" + "Run the installer. " * 120 + "\n\n## Use\n\nAsk.\n")
    item = {"doc_id": "d", "source": "s", "path": str(path), "relpath": "guide.md", "size": 1, "mtime_ns": 0}
    plain = process_file(item, tokenizer=tokenizer, config=config, max_file_bytes=10**6)
    row = process_file(item, tokenizer=tokenizer, config=config, max_file_bytes=10**6,
                       encode_ids=passage_encoder(resolve_embedder(cfg.models)))
    assert plain.get("chunk_token_ids") is None and row["chunks"] == plain["chunks"]
    assert len(row["chunks"]) > 2
    assert row["chunk_token_ids"] == _ids([chunk_input(c) for c in row["chunks"]])
    assert row["summary_token_ids"] == _ids([summary_input(s) for s in row["sections"]])
    table = pa.Table.from_pylist([row, plain], schema=PARSED_SCHEMA)

    # The actor embeds the ids, drops them, and its vectors are the texts' own.
    actor = EmbedDocuments(cfg.models.model_dump_json(), EmbedderConfig(threads=1).model_dump_json())
    without = actor(pa.Table.from_pylist([plain], schema=PARSED_SCHEMA))

    def no_tokenizing(texts):
        raise AssertionError("the actor tokenized texts it had the ids of")

    actor.embedder.embed = no_tokenizing
    with_ids = actor(table.slice(0, 1))
    assert not set(TOKEN_ID_FIELDS) & set(with_ids.column_names)
    assert with_ids.schema == without.schema
    for column in ("chunk_vectors", "section_vectors", "section_centroids"):
        a = np.asarray(with_ids.column(column).to_pylist()[0], np.float32)
        b = np.asarray(without.column(column).to_pylist()[0], np.float32)
        assert a.shape == b.shape and np.abs(a - b).max() < 1e-5, column


def test_token_ids_follow_the_device_unless_set():
    cpu, gpu = [{"CPU": 2.0}], [{"CPU": 16.0, "GPU": 1.0}]
    assert not plan_embed_pool(IngestConfig(), EmbedderConfig(), cpu).token_ids
    assert plan_embed_pool(IngestConfig(), EmbedderConfig(), gpu).token_ids
    assert plan_embed_pool(IngestConfig(token_ids="on"), EmbedderConfig(), cpu).token_ids
    assert not plan_embed_pool(IngestConfig(token_ids="off"), EmbedderConfig(), gpu).token_ids


def _vectors(cfg, table: str, key: str) -> dict[str, np.ndarray]:
    rows = LanceStore.open(cfg.storage, dim=384).scan(table, [key, "vector"]).to_pylist()
    return {r[key]: np.asarray(r["vector"], np.float32) for r in rows}


def test_an_ingest_with_token_ids_indexes_the_same_vectors(tmp_path, corpus_copy, ray_session, installed_models):
    from pipelines.ingest import run_ingest

    plain_cfg = make_config(tmp_path / "plain")
    ids_cfg = make_config(tmp_path / "ids", ingest={"token_ids": "on"})
    plain = run_ingest(plain_cfg, corpus_copy, source="docs")
    with_ids = run_ingest(ids_cfg, corpus_copy, source="docs")
    assert with_ids.failed == [] and (with_ids.chunks, with_ids.sections) == (plain.chunks, plain.sections)
    assert "token ids from the parse tasks" in with_ids.summary()
    assert "token ids" not in plain.summary()
    for table, key in ((CHUNKS, "chunk_id"), (SECTIONS, "section_id")):
        a, b = _vectors(plain_cfg, table, key), _vectors(ids_cfg, table, key)
        assert a.keys() == b.keys() and a
        assert max(float(np.abs(a[k] - b[k]).max()) for k in a) < 1e-5, table


@pytest.fixture(scope="module")
def prefixed_dir(tmp_path_factory):
    """The installed MiniLM with e5-style prefixes in its manifest (the weights linked, not copied)."""
    return embedder_variant(tmp_path_factory.mktemp("prefixed"), name="minilm-prefixed", query_prefix="query: ",
                            passage_prefix="passage: ")


def test_a_models_prefixes_go_before_its_queries_and_passages_on_every_path(prefixed_dir, tmp_path):
    from serving.embedding import QueryEncoder

    plain = Embedder.load(resolve_embedder(load_config().models), EmbedderConfig(threads=1))
    cfg = load_config(models={"embedder_dir": str(prefixed_dir)})
    resolved = resolve_embedder(cfg.models)
    prefixed = Embedder.load(resolved, EmbedderConfig(threads=1))
    texts = TEXTS[:3]
    # The manifest's prefixes are part of what an index must match; a manifest without them keeps its fingerprint.
    assert resolved.manifest.fingerprint.endswith("/q='query: '/p='passage: '")
    assert "/q=" not in plain.resolved.manifest.fingerprint
    # Texts: passages get the passage prefix, queries (the query encoder) the query prefix.
    assert np.abs(prefixed.embed(texts) - plain.embed(["passage: " + t for t in texts])).max() < 1e-5
    assert np.abs(prefixed.embed(texts, kind="query") - plain.embed(["query: " + t for t in texts])).max() < 1e-5
    encoder = QueryEncoder(prefixed, 16)
    assert np.abs(np.stack(encoder.encode(texts, tenant="t")) - plain.embed(["query: " + t for t in texts])).max() < 1e-5
    # Token ids from the parse tasks carry the passage prefix too, so ids and texts give the same vectors.
    ids = passage_encoder(resolved)(texts)
    assert ids == _ids(["passage: " + t for t in texts])
    assert np.abs(prefixed.embed_ids(ids) - prefixed.embed(texts)).max() < 1e-5
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    path = tmp_path / "guide.md"
    path.write_text("# Guide\n\nIntro text.\n\n## Install\n\n" + "Run the installer. " * 120 + "\n")
    item = {"doc_id": "d", "source": "s", "path": str(path), "relpath": "guide.md", "size": 1, "mtime_ns": 0}
    row = process_file(item, tokenizer=tokenizer, config=config, max_file_bytes=10**6, encode_ids=passage_encoder(resolved))
    assert row["chunk_token_ids"] == _ids(["passage: " + chunk_input(c) for c in row["chunks"]])
