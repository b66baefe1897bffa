"""Starting and stopping Ray (cluster/runtime.py): an embedded Ray stops whole and at once; a joined
cluster, or a Ray something else started, is left running."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from support import REPO

from cluster.runtime import stop_ray

STOP_EMBEDDED = """
import json, psutil, ray
from cluster.config import RayConfig
from cluster.runtime import init_ray, stop_ray
init_ray(RayConfig())  # the defaults: an embedded Ray on every core
processes = {kind: [info.process.pid for info in infos]
             for kind, infos in ray._private.worker._global_node.all_processes.items()}
stop_ray()
def running(pid):
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
print(json.dumps({"initialized": ray.is_initialized(), "kinds": sorted(processes),
                  "running": [kind for kind, pids in processes.items() if any(map(running, pids))]}))
"""


JOIN_AND_LEAVE = """
import json, ray
from cluster.config import RayConfig
from cluster.runtime import init_ray, stop_ray
init_ray(RayConfig())  # RAY_ADDRESS: joins the test session's cluster
nodes = len(ray.nodes())
stop_ray()
print(json.dumps({"nodes": nodes, "initialized": ray.is_initialized()}))
"""


def _own_ray_env() -> dict[str, str]:
    """This environment, less ``RAY_ADDRESS``: the child starts its own embedded Ray."""
    return {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "PYTHONPATH": str(REPO)}


def test_stop_ray_stops_every_process_of_the_embedded_ray_it_started():
    out = subprocess.run([sys.executable, "-c", STOP_EMBEDDED], cwd=REPO, capture_output=True, text=True,
                         timeout=300, env=_own_ray_env())
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert not result["initialized"]
    assert "monitor" in result["kinds"] and "raylet" in result["kinds"]  # what Ray started, and so stopped
    assert result["running"] == []


def test_stop_ray_leaves_a_ray_it_did_not_start(ray_session):
    stop_ray()
    assert ray_session.is_initialized()
    assert ray_session.get(ray_session.put(7)) == 7


def test_stop_ray_leaves_a_joined_cluster_running(ray_session):
    env = {**_own_ray_env(), "RAY_ADDRESS": ray_session.get_runtime_context().gcs_address}
    out = subprocess.run([sys.executable, "-c", JOIN_AND_LEAVE], cwd=REPO, capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"nodes": 1, "initialized": False}
    assert ray_session.get(ray_session.put("still up")) == "still up"


LAUNCH_DIR = """
import json, socket, psutil, ray
from cluster.config import RayConfig
from cluster.runtime import init_ray, stop_ray
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
init_ray(RayConfig(metrics_export_port=port))  # the defaults otherwise: embedded, node address 127.0.0.1

@ray.remote
def where():
    import os, sys, tantivy
    return {"tantivy": getattr(tantivy, "__file__", ""), "shadowed": hasattr(tantivy, "SHADOW"), "cwd": os.getcwd()}

seen = ray.get(where.remote())
import time
deadline = time.time() + 60
listening = []
while not listening and time.time() < deadline:
    listening = sorted({c.laddr.ip for c in psutil.net_connections("tcp") if c.status == "LISTEN" and c.laddr.port == port})
    time.sleep(0.5)
stop_ray()
print(json.dumps({**seen, "metrics_listen": listening}))
"""


def test_workers_never_import_from_the_launch_directory_and_metrics_stay_on_loopback(tmp_path):
    """``strata`` started in a folder holding a ``tantivy.py``: the workers import the real tantivy (Ray
    would put the launch directory on their path); the embedded Ray's metrics port (no authentication)
    listens on loopback only, like the API's default host."""
    launch = tmp_path / "launch"
    launch.mkdir()
    (launch / "tantivy.py").write_text("SHADOW = True\n")
    out = subprocess.run([sys.executable, "-c", LAUNCH_DIR], cwd=launch, capture_output=True, text=True,
                         timeout=300, env=_own_ray_env())
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert not result["shadowed"] and "site-packages" in result["tantivy"], result
    assert result["metrics_listen"] == ["127.0.0.1"], result
