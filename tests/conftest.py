"""Shared fixtures: one Ray cluster per test session, the real offline models, a sample-corpus index."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cluster.runtime import patient_ray_start
from support import METRICS_PORT, SAMPLES, make_config

# The product defaults, whatever the machine running the tests has set: no STRATA_* variable (the
# tests' own STRATA_TEST_* knobs excepted) and no ./strata.toml reach a configuration made here.
for _name in [n for n in os.environ if n.startswith("STRATA_") and not n.startswith("STRATA_TEST_")]:
    del os.environ[_name]
# A test machine that is itself a Kubernetes pod must not turn the CLI's logs onto stderr (cluster/logs.py:
# log_target); tests/test_log_target.py checks that choice in its own subprocesses.
os.environ["STRATA_LOG_TO"] = "file"
import cluster.config as _config  # noqa: E402

_config.DEFAULT_CONFIG_FILE = str(Path(__file__).parent / "no-such-dir" / "strata.toml")

# On a busy 2-core machine Ray's dashboard agent can take >30 s to start; the raylet then aborts
# ("Timed out waiting for file metrics_agent_port"). The tests' ray.init waits as long as `strata` does.
patient_ray_start()


@pytest.fixture(scope="session", autouse=True)
def _no_external_ray():
    os.environ.pop("RAY_ADDRESS", None)
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    yield


@pytest.fixture(scope="session")
def ray_session():
    """One embedded Ray for the whole session (starting Ray costs ~5 s)."""
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _metrics_export_port=METRICS_PORT)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="session")
def installed_models():
    """The real default models (assembled by scripts/install.sh; re-checked here)."""
    from cluster.config import load_config
    from cluster.models.install import install_default_models

    home = Path(load_config().models.home).expanduser()
    return install_default_models(home)


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory, ray_session, installed_models):
    """The bundled sample corpus ingested once (uninterrupted) with the product's default settings (so a
    flat chunks table: it is below ``index.ivf_min_rows``) — shared, treat as read-only."""
    from pipelines.ingest import run_ingest

    data_dir = tmp_path_factory.mktemp("sample-index")
    cfg = make_config(data_dir)
    report = run_ingest(cfg, SAMPLES, source="samples")
    return cfg, report


@pytest.fixture()
def corpus_copy(tmp_path):
    """A small writable real corpus: two Python tutorial chapters and the man7 pages."""
    target = tmp_path / "corpus"
    (target / "python-tutorial").mkdir(parents=True)
    for name in ("errors.rst.txt", "venv.rst.txt"):
        shutil.copy(SAMPLES / "python-tutorial" / name, target / "python-tutorial" / name)
    shutil.copytree(SAMPLES / "man7", target / "man7")
    return target
