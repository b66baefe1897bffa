"""How the ingest sizes its embedding actor pool and parse concurrency from the live nodes."""

from __future__ import annotations

from cluster.config import EmbedderConfig, IngestConfig, load_config
from cluster.models.embedder import CPU_BATCH_SIZE, CUDA_BATCH_SIZE
from cluster.runtime import eligible_node_resources
from pipelines.stages.embed import plan_embed_pool


def _node(alive: bool = True, **resources: float) -> dict:
    return {"Alive": alive, "Resources": resources}


def test_defaults_give_one_single_threaded_actor_per_cpu():
    cfg = load_config()  # the shipped defaults, nothing overridden
    pool = plan_embed_pool(cfg.ingest, cfg.embedder, eligible_node_resources({}, [_node(CPU=2.0)]))
    assert (pool.actors, pool.gpus, pool.embedder.threads) == (2, 0.0, 1)
    assert pool.commit_rows == 4096  # the writer commits ~a minute of these 2 cores at a time
    assert cfg.embedder.batch_size is None  # resolved per device by Embedder.load


def test_gpus_get_four_actors_each_and_keep_their_threads():
    nodes = [_node(CPU=16.0, GPU=4.0), _node(CPU=16.0, GPU=4.0)]
    pool = plan_embed_pool(IngestConfig(), EmbedderConfig(), eligible_node_resources({}, nodes))
    # four actors share a GPU: one tokenizes between its model calls and keeps an H100 a quarter busy
    assert (pool.actors, pool.gpus, pool.embedder.threads) == (32, 0.25, None)
    assert pool.bm25_shards == 24  # three per GPU, not per actor
    assert pool.commit_rows == 65536  # GPUs: larger commits, so the driver keeps up (bench/sink_bench.py)
    # embedding forced onto CPUs ignores the GPUs
    cpu = plan_embed_pool(IngestConfig(), EmbedderConfig(device="cpu"), eligible_node_resources({}, nodes))
    assert (cpu.actors, cpu.gpus) == (32, 0.0)


def test_explicit_settings_win():
    nodes = eligible_node_resources({}, [_node(CPU=8.0)])
    pool = plan_embed_pool(IngestConfig(embed_actors=3), EmbedderConfig(threads=2), nodes)
    assert (pool.actors, pool.embedder.threads) == (3, 2)
    pool = plan_embed_pool(IngestConfig(), EmbedderConfig(threads=4), nodes)
    assert (pool.actors, pool.embedder.threads) == (8, 4)
    # GPUs asked for before the autoscaler has started any: the configured count
    pool = plan_embed_pool(IngestConfig(embed_actor_gpus=1, embed_actors=2), EmbedderConfig(), nodes)
    assert (pool.actors, pool.gpus) == (2, 1.0)
    for ingest in (IngestConfig(writer_batch_rows=500), IngestConfig(writer_batch_rows=500, embed_actor_gpus=1)):
        assert plan_embed_pool(ingest, EmbedderConfig(), nodes).commit_rows == 500


def test_only_nodes_with_the_worker_resource_and_alive_count():
    nodes = [_node(CPU=4.0), _node(CPU=1.0, strata_worker=100.0), _node(CPU=1.0, strata_worker=100.0),
             _node(alive=False, CPU=64.0, strata_worker=100.0)]
    eligible = eligible_node_resources({"strata_worker": 1}, nodes)
    assert [r["CPU"] for r in eligible] == [1.0, 1.0]
    pool = plan_embed_pool(IngestConfig(worker_resources={"strata_worker": 1}), EmbedderConfig(), eligible)
    assert pool.actors == 2


def test_batch_size_defaults_per_device():
    from cluster.models.embedder import Embedder
    from cluster.models.registry import resolve_embedder

    assert CPU_BATCH_SIZE == 1 and CUDA_BATCH_SIZE == 128
    resolved = resolve_embedder(load_config().models)
    assert Embedder.load(resolved, EmbedderConfig(device="cpu")).batch_size == CPU_BATCH_SIZE
    assert Embedder.load(resolved, EmbedderConfig(device="cpu", batch_size=32)).batch_size == 32


def test_cpu_default_batch_gives_the_vectors_of_a_padded_batch_in_input_order():
    import numpy as np

    from cluster.models.embedder import Embedder
    from cluster.models.registry import resolve_embedder

    texts = ["a short one", "a much longer text about epoll, file descriptors and the events they report " * 3,
             "", "medium length: how to create a virtual environment with venv"]
    resolved = resolve_embedder(load_config().models)
    one = Embedder.load(resolved, EmbedderConfig(device="cpu", threads=1)).embed(texts)
    padded = Embedder.load(resolved, EmbedderConfig(device="cpu", threads=1, batch_size=8)).embed(texts)
    assert one.shape == (4, 384)
    np.testing.assert_allclose(one, padded, atol=1e-4)
    assert len({tuple(np.round(v, 3)) for v in one}) == 4
