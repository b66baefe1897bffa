"""Starting or joining Ray: the embedded local cluster by default, ``RAY_ADDRESS`` to join one.

>>> # init_ray(load_config().ray)
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import tempfile
import threading
import time

import ray

from cluster import logs
from cluster.config import RayConfig, StrataConfig

log = logging.getLogger(__name__)

_connected: dict[str, bool] = {"here": False, "embedded": False, "verbose": False}
"""Whether :func:`init_ray` connected this process to Ray, and started that Ray itself (embedded):
what :func:`stop_ray` disconnects from, and stops."""

PATIENT_START_ENV: dict[str, str] = {
    "RAY_agent_register_timeout_ms": "120000",
    "RAY_raylet_start_wait_time_s": "120",
}
"""Ray start-up timeouts, raised: on a busy 2-core machine Ray's dashboard agent can take more than
30 s to start, and the raylet then aborts ("Timed out waiting for file metrics_agent_port")."""


def patient_ray_start() -> None:
    """Set :data:`PATIENT_START_ENV` in this process's environment unless already set (a user's
    value wins). Ray's processes read these when they start, so call it before ``ray.init``."""
    for key, value in PATIENT_START_ENV.items():
        os.environ.setdefault(key, value)


def eligible_node_resources(required: dict[str, float], nodes: list[dict] | None = None) -> list[dict[str, float]]:
    """The resources of each alive node that holds every ``required`` custom resource (all alive
    nodes when ``required`` is empty); ``nodes`` defaults to ``ray.nodes()``.

    >>> eligible_node_resources({"w": 1}, [{"Alive": True, "Resources": {"CPU": 1.0, "w": 9.0}},
    ...                                    {"Alive": True, "Resources": {"CPU": 4.0}}])
    [{'CPU': 1.0, 'w': 9.0}]
    """
    nodes = ray.nodes() if nodes is None else nodes
    return [dict(n["Resources"]) for n in nodes if _eligible(n, required)]


def _eligible(node: dict, required: dict[str, float]) -> bool:
    """``node`` (a ``ray.nodes()`` entry) is alive and holds every ``required`` custom resource."""
    return bool(node.get("Alive")) and all(node["Resources"].get(k, 0) > 0 for k in required)


def driver_node_cpus(nodes: list[dict] | None = None) -> float | None:
    """The CPUs of the node this process runs on (where the single writer and its BM25 shard
    writers run), or None when Ray does not list it; ``nodes`` defaults to ``ray.nodes()``.

    >>> # driver_node_cpus()  # 2.0 on an embedded Ray on this machine
    """
    node_id = ray.get_runtime_context().get_node_id()
    nodes = ray.nodes() if nodes is None else nodes
    return next((float(n["Resources"].get("CPU", 0.0)) for n in nodes if n.get("NodeID") == node_id), None)


def worker_node_ids(required: dict[str, float], nodes: list[dict] | None = None,
                    driver_node: str | None = None) -> list[str]:
    """Ids of the alive nodes that hold every ``required`` custom resource, the driver's node left
    out (``driver_node``, default this process's), sorted: where work is sent to keep it off the head.
    Empty on a single-node cluster. ``nodes`` defaults to ``ray.nodes()``.

    >>> worker_node_ids({}, [{"Alive": True, "NodeID": "b", "Resources": {"CPU": 1.0}},
    ...                      {"Alive": True, "NodeID": "h", "Resources": {"CPU": 4.0}},
    ...                      {"Alive": False, "NodeID": "a", "Resources": {"CPU": 1.0}}], driver_node="h")
    ['b']
    """
    driver_node = driver_node or ray.get_runtime_context().get_node_id()
    nodes = ray.nodes() if nodes is None else nodes
    return sorted(n["NodeID"] for n in nodes if _eligible(n, required) and n.get("NodeID") != driver_node)


def telemetry_env(cfg: StrataConfig) -> dict[str, str]:
    """Environment that makes Ray workers export spans like the driver does.

    >>> telemetry_env(StrataConfig())
    {}
    """
    if cfg.telemetry.otel_exporter == "none":
        return {}
    env = {"STRATA_TELEMETRY__OTEL_EXPORTER": cfg.telemetry.otel_exporter}
    if cfg.telemetry.otlp_endpoint:
        env["STRATA_TELEMETRY__OTLP_ENDPOINT"] = cfg.telemetry.otlp_endpoint
    return env


def init_ray(settings: RayConfig, *, env: dict[str, str] | None = None, verbose: bool | None = None,
             import_meanwhile: tuple[str, ...] = ()) -> None:
    """Connect this process to Ray once. With ``settings.address`` or ``$RAY_ADDRESS`` it joins
    that cluster; otherwise it starts an embedded one sized by ``settings.num_cpus``.

    ``verbose`` forwards the workers' output to this process's console (``log_to_driver``, Ray's
    default). None follows :mod:`cluster.logs`: off when the ``strata`` command runs without ``-v``
    (the output stays in the Ray session's log folder, named in the log file), on otherwise. Start-up
    waits as patiently as :data:`PATIENT_START_ENV` says.

    ``import_meanwhile``: modules this process will need next, imported in a thread while Ray starts.
    Starting an embedded Ray is mostly waiting for its processes, and the ingest's imports (LanceDB,
    Ray Data, tantivy, the pipeline: ~5 s) would otherwise run after it: on 2 cores this takes
    ~5 s off every ``strata ingest``."""
    if ray.is_initialized():
        return
    importer = None
    if import_meanwhile:
        def _import() -> None:
            for name in import_meanwhile:
                try:
                    importlib.import_module(name)
                except Exception:  # noqa: BLE001 - the caller's own import raises it again, in context
                    return

        importer = threading.Thread(target=_import, name="strata-imports", daemon=True)
        importer.start()
    try:
        _start(settings, env=env, verbose=verbose)
    finally:
        if importer is not None:
            importer.join()


_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _local_only() -> None:
    """Keep the embedded Ray's node on loopback. Ray turns a loopback ``_node_ip_address`` into the host's
    address unless Ray clusters are off (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, read by this process's
    ``ray_constants`` at import and by every process Ray starts); with the node on loopback its metrics
    agent, which has no authentication, listens on 127.0.0.1 instead of every interface."""
    import ray._private.ray_constants as ray_constants

    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False


@contextlib.contextmanager
def _neutral_cwd():
    """Run ``ray.init`` from an empty directory of the user's (``~/.cache/strata/ray-cwd``, else a new
    temporary one). Ray puts the driver's working directory on every worker's ``sys.path``: a stray
    ``tantivy.py`` (or any ``.py``) where ``strata`` was started would shadow the real module inside the
    workers and replicas. Strata's own packages are installed, so the workers need nothing from there.
    The folder stays (the raylet and the workers it starts keep it as their working directory); the
    driver is back in its own as soon as Ray is up."""
    here = os.getcwd()
    neutral = os.path.join(os.path.expanduser("~"), ".cache", "strata", "ray-cwd")
    try:
        os.makedirs(neutral, mode=0o700, exist_ok=True)
    except OSError:
        neutral = tempfile.mkdtemp(prefix="strata-ray-cwd-")
    os.chdir(neutral)
    try:
        yield
    finally:
        os.chdir(here)


def _start(settings: RayConfig, *, env: dict[str, str] | None, verbose: bool | None) -> None:
    if verbose is None:
        verbose = not logs.quiet()
    logs.quiet_libraries()  # Ray's console handler (set up by `import ray`): into the log file
    logs.redirect_native_stderr()  # the C++ core worker's stderr lines too
    runtime_env = {"env_vars": {k: v for k, v in (env or {}).items()}} if env else None
    address = settings.address or os.environ.get("RAY_ADDRESS")
    if address:
        log.info("joining Ray cluster at %s", address)
        with _neutral_cwd():
            context = ray.init(address=address, runtime_env=runtime_env, log_to_driver=verbose)
        _connected.update(here=True, embedded=False, verbose=verbose)
    else:
        patient_ray_start()
        kwargs: dict = {"include_dashboard": False, "log_to_driver": verbose, "runtime_env": runtime_env}
        if settings.num_cpus is not None:
            kwargs["num_cpus"] = settings.num_cpus
        if settings.metrics_export_port is not None:
            kwargs["_metrics_export_port"] = settings.metrics_export_port
        if settings.node_ip_address in _LOOPBACK:
            _local_only()
        elif settings.node_ip_address:
            kwargs["_node_ip_address"] = settings.node_ip_address
        with _neutral_cwd():
            context = ray.init(**kwargs)
        _connected.update(here=True, embedded=True, verbose=verbose)
    logs.quiet_libraries()
    session_dir = (getattr(context, "address_info", None) or {}).get("session_dir")
    if session_dir and not verbose:
        log.info("Ray workers' output is not shown here; it is in %s", os.path.join(session_dir, "logs"))


def stop_ray() -> None:
    """Disconnect from the Ray that :func:`init_ray` connected this process to, and stop it, at once, if
    init_ray started it (the embedded one); a joined cluster keeps running, and a Ray that something
    else connected this process to is left as it is.

    Left to Ray's own exit hook this takes ~2 s of waiting: ``ray.shutdown`` at interpreter exit sleeps
    0.5 s so that forwarded worker output finishes printing (none is forwarded without ``-v``), and it
    stops an embedded cluster gracefully, one process after another, giving each 1 s to exit on SIGTERM:
    the autoscaler monitor (which scales nothing on one machine) then reports its own end to the GCS
    stopped just before it and is killed only when its second is up. Here the monitor is killed first
    and ``ray.shutdown`` runs now: a ``strata`` command that started Ray exits ~2 s sooner (README,
    "Where the rest goes"). The ``strata`` group calls this after every command.

    >>> stop_ray()  # no Ray started here: nothing to do
    """
    if not _connected["here"]:
        return
    _connected["here"] = False
    if not ray.is_initialized():
        return
    if _connected["verbose"]:
        time.sleep(0.5)  # what Ray's exit hook waits for: forwarded worker output to finish printing
    if _connected["embedded"]:
        _kill_autoscaler_monitor()
    ray.shutdown()


def _kill_autoscaler_monitor() -> None:
    """Kill the embedded cluster's autoscaler monitor process (Ray keeps it in its node's private
    process table; if that ever changes, ``ray.shutdown`` stops it as before, a second slower)."""
    try:
        from ray._private import ray_constants
        from ray._private.worker import _global_node

        infos = _global_node.all_processes.get(ray_constants.PROCESS_TYPE_MONITOR, []) if _global_node else []
        for info in infos:
            if info.process.poll() is None:
                info.process.kill()
                info.process.wait(timeout=5)
    except Exception:  # noqa: BLE001 - an optimisation only: ray.shutdown stops it anyway
        log.debug("could not stop Ray's autoscaler monitor early", exc_info=True)
