"""A real multi-node Ray cluster (a head and two worker nodes on this machine): ingest places its
parse tasks, embedding actors and fragment-writing tasks (``ingest.writer = "workers"``: the driver
only commits; BM25 in two shards, each written by an actor on a worker node: ``ingest.bm25_writers``
"auto") on the worker nodes and writes the same index, row for row, as a single-node ingest
with the default writer; the Serve app spreads its replicas over the worker nodes and answers ``/v1/search``.

The cluster runs in a subprocess (``tests/multinode_scenario.py``), so this session's embedded Ray
(``ray_session``) is untouched. Its nodes start in an empty folder with an empty ``XDG_DATA_HOME``
and get ``models.home`` as a path relative to the driver's folder: a worker finds the models only
through the absolute path the driver resolved, as a separate machine on shared storage would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from support import REPO, free_port, make_config, search

from cluster.store.bm25 import open_bm25
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS
from pipelines.ingest import run_ingest

SCRIPT = REPO / "tests" / "multinode_scenario.py"
sys.path.insert(0, str(SCRIPT.parent))
import multinode_scenario as scenario  # noqa: E402

KEYS = {DOCUMENTS: "doc_id", SECTIONS: "section_id", CHUNKS: "chunk_id"}
VECTORS = {"vector", "centroid"}
BM25_QUERIES = ["virtual environment venv", "exception handling try except", "epoll file descriptor events",
                "inotify watch", "futex wait wake"]


def _rows(cfg, name: str) -> list[dict]:
    table = LanceStore.open(cfg.storage, dim=384).table(name).to_arrow()
    return table.sort_by(KEYS[name]).to_pylist()


def assert_same_index(multi, single) -> None:
    """The LanceDB tables row for row (vectors to float tolerance; ``ingested_at`` aside) and BM25's hits."""
    for name in (DOCUMENTS, SECTIONS, CHUNKS):
        a, b = _rows(multi, name), _rows(single, name)
        assert [r[KEYS[name]] for r in a] == [r[KEYS[name]] for r in b], name
        for ra, rb in zip(a, b):
            for column in ra.keys() - {"ingested_at"}:
                if column in VECTORS:
                    np.testing.assert_allclose(ra[column], rb[column], atol=1e-5, err_msg=f"{name}.{column}")
                else:
                    assert ra[column] == rb[column], (name, ra[KEYS[name]], column)
    bm25_multi, bm25_single = open_bm25(multi.storage.bm25_path), open_bm25(single.storage.bm25_path)
    assert bm25_multi.num_docs() == bm25_single.num_docs()
    for query in BM25_QUERIES:
        hits_multi = [(h.chunk_id, h.doc_id, round(h.score, 4)) for h in bm25_multi.search(query, k=20)]
        hits_single = [(h.chunk_id, h.doc_id, round(h.score, 4)) for h in bm25_single.search(query, k=20)]
        assert hits_multi and hits_multi == hits_single, query


@pytest.mark.timeout(720)  # ~2.5 min on an idle 2-core machine, 5+ under heavy load
def test_ingest_and_serve_on_a_multi_node_cluster(tmp_path, corpus_copy, ray_session, installed_models):
    # The reference: the same corpus and ingest settings on this session's single-node Ray.
    single = make_config(tmp_path / "single", ingest=scenario.INGEST)
    reference = run_ingest(single, corpus_copy, source=scenario.SOURCE)
    assert reference.failed == [] and reference.new == 6

    # models.home relative to the driver's folder: only the driver can resolve it.
    driver_dir = tmp_path / "driver"
    driver_dir.mkdir()
    (driver_dir / "models").symlink_to(single.models.home)
    multi_dir, out = tmp_path / "multi", tmp_path / "multinode.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.run([sys.executable, str(SCRIPT), str(corpus_copy), str(multi_dir), str(out),
                           "--port", str(free_port()), "--models-home", "models"],
                          cwd=driver_dir, env=env, capture_output=True, text=True, timeout=480)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-6000:]
    result = json.loads(out.read_text())
    head, workers = result["head"], set(result["workers"])
    assert len(workers) == 2 and head not in workers

    # Placement, as Ray's state API saw it: every parse task and embedding actor on a worker node.
    assert result["report"] == {"new": reference.new, "chunks": reference.chunks, "sections": reference.sections,
                                "failed": []}
    parse_nodes = [t["node_id"] for t in result["parse_tasks"]]
    embed_nodes = [a["node_id"] for a in result["embed_actors"]]
    assert len(parse_nodes) >= 3 and embed_nodes, result  # 6 files, 2 per parse batch (+ any retried attempt)
    assert set(parse_nodes) <= workers and set(embed_nodes) <= workers, (head, result)
    fragment_nodes = [t["node_id"] for t in result["fragment_tasks"]]  # workers wrote the Lance fragments
    assert fragment_nodes and set(fragment_nodes) <= workers, (head, result)
    # The BM25 shards' writers ran on the worker nodes, one shard each, not beside the driver (which
    # only decides the commits): indexing grows with the cluster, not with the head's cores.
    assert sorted(w["node_id"] for w in result["bm25_shard_writers"]) == sorted(workers), result
    assert result["driver_node"] == head

    # The same index as the single-node ingest, row for row.
    assert_same_index(make_config(multi_dir), single)

    # The Serve app: five replicas (1.45 CPUs: more than one worker node holds) on both worker nodes.
    replica_nodes = [r["node_id"] for r in result["replicas"]]
    assert len(replica_nodes) == 5 and set(replica_nodes) == workers, result["replicas"]
    hits = result["hits"]
    assert hits and hits[0]["path"].endswith("venv.rst.txt")
    local = search(single, scenario.QUERY, k=5, mode="auto")
    assert [h["chunk_id"] for h in hits] == [h.chunk_id for h in local]
