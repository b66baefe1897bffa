"""Where logs go (cluster/logs.py: log_target): in a Kubernetes pod, or with STRATA_LOG_TO=stderr, the
libraries' logs (Ray's start-up banner here) reach stderr, where ``kubectl logs`` reads them; on a
terminal's default they stay in <data_dir>/logs/strata.log."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support import REPO

BANNER = "Started a local Ray instance"


def _ingest(tmp_path, **env) -> tuple[subprocess.CompletedProcess, str]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# Anvils\n\nAnvils are heavy blocks of iron used by smiths to shape metal.\n")
    data = tmp_path / "data"
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("STRATA_") and k not in ("RAY_ADDRESS", "KUBERNETES_SERVICE_HOST")}
    out = subprocess.run([sys.executable, "-m", "cli", "--data-dir", str(data), "ingest", str(corpus), "--no-progress"],
                         cwd=REPO, capture_output=True, text=True, timeout=300,
                         env={**base, "PYTHONPATH": str(REPO), **env})
    log = data / "logs" / "strata.log"
    return out, log.read_text() if log.is_file() else ""


@pytest.mark.parametrize("env", [{"STRATA_LOG_TO": "stderr"}, {"KUBERNETES_SERVICE_HOST": "10.0.0.1"}],
                         ids=["STRATA_LOG_TO", "in-a-pod"])
def test_logs_go_to_stderr_in_a_pod_or_when_asked(tmp_path, env, installed_models):
    out, _ = _ingest(tmp_path, **env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert BANNER in out.stderr, out.stderr[-2000:]


def test_logs_stay_in_the_file_by_default(tmp_path, installed_models):
    out, log = _ingest(tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert BANNER not in out.stderr and BANNER in log, out.stderr[-2000:]
